/**
 * The capability registry (SPEC section 9; seed 004: "我把工具注册表做成 Capability Registry"): tool
 * versions as immutable manifests, aliases, agent bundles, runs pinned to exact versions, the
 * deprecation lifecycle, emergency disable, execution receipts and the usage graph.
 *
 * Order of calls for a host: `register` each manifest it builds (an equal manifest is the same
 * version, never a new one); operators `setAlias` / `rollbackAlias`, `deprecate`,
 * `emergencyDisable`; a bundle is built with `buildBundle(['jobs.rerun@latest', 'prod:jobs.search'])`,
 * the only place "latest" and aliases are resolved; `startRun(runId, bundleId)` copies the
 * bundle's pins into the run; each call asks `admitCall(runId, toolId, endpoints)` and, when it
 * went out, `recordExecution`; `endRun` when the run is over; `remove` once a disabled version is
 * referenced by nothing.
 *
 * Every operation reads, decides, and writes one batch through the store port (one transaction,
 * all or none), with its audit record. Refusals are values (`ok: false`), never thrown; errors are
 * thrown only by the store. Time comes from the injected clock; there is no randomness.
 */
import type { Clock } from '../ports.ts';
import { domainDigest } from '../snapshot/canonical.ts';
import {
  DEPRECATION_STAGES,
  type AliasRecord,
  type AuditRecord,
  type BundleRecord,
  type CapabilityReceipt,
  type CapabilityStore,
  type CapabilityWrite,
  type DeprecationStage,
  type LifecycleRecord,
  type Pin,
  type RunRecord,
  type ToolVersion,
  versionKey,
} from './capability-store.ts';
import { classifyDiff, type ManifestDiff } from './diff.ts';
import { schemaDigest } from '../snapshot/digests.ts';
import {
  errorSchemaDigest,
  executorViewOf,
  manifestDigestOf,
  type ExecutorView,
  type ToolManifest,
} from './manifest.ts';

/**
 * Why a call was refused, in the order `admitCall` checks (the first that applies wins):
 * - `RUN_UNKNOWN`: no run of that id; `RUN_ENDED`: the run has ended;
 * - `TOOL_NOT_PINNED`: the run's bundle pins no version of the tool;
 * - `VERSION_GONE`: the store holds no such version, or it was removed (a store restored from a
 *   backup older than the run; the registry itself never removes a version a run references);
 * - `VERSION_EMERGENCY_DISABLED`: an emergency disable is in force (the status says why);
 * - `VERSION_DISABLED`: the version reached the `disabled` deprecation stage;
 * - `VERSION_SUNSET`: (a host's code, never `admitCall`'s) the run's bundle left the version out
 *   because it was at `sunset` when the bundle was built: no new run may pin it;
 * - `VERSION_INCOMPATIBLE`: no endpoint offered serves the pinned contract (its server name and
 *   descriptor digest), the primary nor any backup.
 */
export type CallRefusalCode =
  | 'RUN_UNKNOWN'
  | 'RUN_ENDED'
  | 'TOOL_NOT_PINNED'
  | 'VERSION_GONE'
  | 'VERSION_EMERGENCY_DISABLED'
  | 'VERSION_DISABLED'
  | 'VERSION_SUNSET'
  | 'VERSION_INCOMPATIBLE';

/**
 * Why a registry operation was refused:
 * - `REF_UNKNOWN`: a reference names no tool, version or alias (`VERSION_UNKNOWN` for an explicit `tool@N`);
 * - `VERSION_NOT_BINDABLE`: the version is past `announce`, emergency-disabled or removed, so no new
 *   bundle or alias may bind it (seed 004: "构建新 Bundle 时禁止绑定 deprecated 版本");
 * - `BREAKING_WITHOUT_MIGRATION`: an alias would move across a breaking diff without a migration note;
 * - `ALIAS_UNKNOWN`, `NOTHING_TO_ROLL_BACK`: a rollback of an alias that has no earlier target;
 * - `ALIAS_OTHER_TOOL`: an alias names one tool for life;
 * - `BUNDLE_EXISTS`, `BUNDLE_UNKNOWN`, `BUNDLE_RETIRED`, `BUNDLE_DUPLICATE_TOOL` (two references
 *   resolve to versions of one tool), `BUNDLE_EMPTY`;
 * - `RUN_EXISTS`, `RUN_UNKNOWN`, `RUN_ENDED`; `VERSION_SUNSET`: a run may not start on a bundle
 *   pinning a version at `sunset` or `disabled`;
 * - `STAGE_BACKWARDS`: deprecation stages only move forward;
 * - `NOT_DISABLED`: only a `disabled` version may be removed; `REFERENCED`: something still uses it;
 * - `NOT_EMERGENCY_DISABLED`: nothing to clear.
 */
export type OperationRefusalCode =
  | 'REF_UNKNOWN'
  | 'VERSION_UNKNOWN'
  | 'VERSION_NOT_BINDABLE'
  | 'BREAKING_WITHOUT_MIGRATION'
  | 'ALIAS_UNKNOWN'
  | 'NOTHING_TO_ROLL_BACK'
  | 'ALIAS_OTHER_TOOL'
  | 'BUNDLE_EXISTS'
  | 'BUNDLE_UNKNOWN'
  | 'BUNDLE_RETIRED'
  | 'BUNDLE_DUPLICATE_TOOL'
  | 'BUNDLE_EMPTY'
  | 'RUN_EXISTS'
  | 'RUN_UNKNOWN'
  | 'RUN_ENDED'
  | 'VERSION_SUNSET'
  | 'STAGE_BACKWARDS'
  | 'NOT_DISABLED'
  | 'REFERENCED'
  | 'NOT_EMERGENCY_DISABLED';

/** A refused operation: its code and one sentence saying what was refused. */
export interface Refused<Code extends string> {
  ok: false;
  code: Code;
  reason: string;
}

/** What a registry operation returns: its result, or a refusal. */
export type Outcome<T, Code extends string = OperationRefusalCode> = ({ ok: true } & T) | Refused<Code>;

/** An endpoint a host could send a call to: the operator's server name, the connection's identity and build, and the descriptor it serves. */
export interface EndpointOffer {
  server: string;
  /** The server identity the connection presents (SPEC section 1). */
  identity: string;
  /** The endpoint's build (what the host knows of the deployment, e.g. `serverInfo.version` or a deploy id). */
  build: string;
  /** The descriptor digest of the tool as this endpoint lists it now (SPEC section 4). */
  descriptorDigest: string;
  /**
   * True for an endpoint the operator configured as a backup of the primary (a host offers only
   * backups when its primary is down); absent, the first offer is the primary and later ones are
   * backups.
   */
  backup?: boolean;
}

/** An admitted call: the exact version, the executor's view, and the endpoint chosen. */
export interface AdmittedCall {
  runId: string;
  bundleId: string;
  view: ExecutorView;
  endpoint: EndpointOffer;
  /**
   * True when the endpoint chosen is a backup: the offer says so (`EndpointOffer.backup`), or,
   * when it does not, the first offer did not serve the pinned contract and a later one did.
   */
  backup: boolean;
}

/**
 * What a host can show for a version (seed 004: "状态与用户提示明确，不能表现成模型突然不会调用"):
 * its stage, an emergency disable, whether it may be bound and executed, and one sentence.
 */
export interface VersionStatus {
  toolId: string;
  version: number;
  stage: DeprecationStage;
  emergency: { reason: string; at: number } | null;
  removed: boolean;
  bindable: boolean;
  executable: boolean;
  replacement: { toolId: string; version: number } | null;
  /** E.g. `jobs.rerun v3 is emergency-disabled since t=120 ms: leaked tokens`. */
  message: string;
}

/** Which bundles, runs, aliases and receipts reference a version (seed 004: "弃用先看使用图"). */
export interface UsageGraph {
  aliases: string[];
  /** Bundles not retired that pin it. */
  bundles: string[];
  retiredBundles: string[];
  /** Runs not ended that pin it. */
  runs: string[];
  endedRuns: string[];
  receipts: number;
}

/** The ports a registry runs on. */
export interface CapabilityRegistryPorts {
  /** Where every recorded time comes from (ms). */
  clock: Clock;
  /** Where every record goes: in memory, or the registry's SQLite file (`SqliteRegistryStore.capabilities()`). */
  store: CapabilityStore;
}

/** The capability registry (see the file header for the order of calls). */
export class CapabilityRegistry {
  readonly #clock: Clock;
  readonly #store: CapabilityStore;
  /**
   * When each version already read was registered (ms), by {@link versionKey}: a stored version
   * never changes and is never deleted, so a version once found stays found. `status` asks on
   * every disclosure of every tool, and a store read copies the whole version (its manifest and
   * schemas) only for that.
   */
  readonly #registeredAt = new Map<string, number>();

  /**
   * A registry on `ports.store` (what it holds is the registry's state; the registry keeps none of
   * its own but the registration time of versions it has read, which never change).
   */
  constructor(ports: CapabilityRegistryPorts) {
    this.#clock = ports.clock;
    this.#store = ports.store;
  }

  /**
   * Registers `manifest` as a version of its tool. A manifest equal (by digest) to any version of
   * the tool is that version (`created: false`); otherwise it is the next version, classified
   * against the newest one.
   * @throws TypeError when a schema hash of the manifest is not the hash of its schema (a manifest
   *   not built by `buildManifest`, or changed after).
   */
  register(manifest: ToolManifest): { version: ToolVersion; created: boolean } {
    checkHashes(manifest);
    const digest = manifestDigestOf(manifest);
    const versions = this.#store.versions(manifest.toolId);
    const same = versions.find((record) => record.manifestDigest === digest);
    if (same !== undefined) return { version: same, created: false };
    const previous = versions.at(-1);
    const record: ToolVersion = {
      toolId: manifest.toolId,
      version: versions.length + 1,
      manifestDigest: digest,
      manifest,
      registeredAt: this.#clock.now(),
      previousVersion: previous?.version ?? null,
      diffFromPrevious: previous === undefined ? null : classifyDiff(previous.manifest, manifest),
    };
    const diff =
      record.diffFromPrevious === null
        ? 'first version'
        : `${record.diffFromPrevious.class} from v${previous?.version}`;
    this.#commit([{ kind: 'version', record }], 'register', `${manifest.toolId}@${record.version}`, diff);
    return { version: this.#store.version(record.toolId, record.version) as ToolVersion, created: true };
  }

  /** A version by tool id and number, or undefined. */
  version(toolId: string, version: number): ToolVersion | undefined {
    return this.#store.version(toolId, version);
  }

  /** The classified diff between two versions of one tool, or undefined when either is unknown. */
  diff(toolId: string, from: number, to: number): ManifestDiff | undefined {
    const [a, b] = [this.#store.version(toolId, from), this.#store.version(toolId, to)];
    return a === undefined || b === undefined ? undefined : classifyDiff(a.manifest, b.manifest);
  }

  /** The status a host shows for a version, or undefined for an unknown version. */
  status(toolId: string, version: number): VersionStatus | undefined {
    if (this.#registrationOf(toolId, version) === undefined) return undefined;
    const life = this.#lifecycle(toolId, version);
    const removed = life.removedAt !== null;
    const stage = DEPRECATION_STAGES.indexOf(life.stage);
    const executable = !removed && life.emergency === null && life.stage !== 'disabled';
    return {
      toolId,
      version,
      stage: life.stage,
      emergency: life.emergency,
      removed,
      bindable: executable && stage <= DEPRECATION_STAGES.indexOf('announce'),
      executable,
      replacement: life.replacement,
      message: statusMessage(life),
    };
  }

  /** Alias `alias` and every target it has had (the last is current), or undefined when no operator set it. */
  alias(alias: string): AliasRecord | undefined {
    return this.#store.alias(alias);
  }

  /** Every version of `toolId` registered so far, oldest first (removed ones included). */
  versions(toolId: string): ToolVersion[] {
    return this.#store.versions(toolId);
  }

  /** Run `runId` and the pins it holds, or undefined when none was started. */
  run(runId: string): RunRecord | undefined {
    return this.#store.run(runId);
  }

  /**
   * Points `alias` at `toolId@version` (seed 004: "最后切 alias"), atomically with its audit record.
   * Refused for a version that is not bindable, an alias of another tool, and a breaking diff from
   * the current target without `migration` (a note naming how callers migrate).
   */
  setAlias(
    alias: string,
    toolId: string,
    version: number,
    note: { reason: string; migration?: string },
  ): Outcome<{ alias: AliasRecord }> {
    const existing = this.#store.alias(alias);
    if (existing !== undefined && existing.toolId !== toolId)
      return refused('ALIAS_OTHER_TOOL', `alias ${alias} names ${existing.toolId}, not ${toolId}`);
    const bindable = this.#bindable(toolId, version);
    if (!bindable.ok) return bindable;
    const current = existing?.history.at(-1);
    if (current !== undefined && note.migration === undefined) {
      const diff = this.diff(toolId, current.version, version);
      if (diff?.class === 'breaking')
        return refused(
          'BREAKING_WITHOUT_MIGRATION',
          `alias ${alias}: ${toolId} v${current.version} -> v${version} is breaking (${diff.changes.find((c) => c.class === 'breaking')?.rule}) and no migration was given`,
        );
    }
    const record: AliasRecord = {
      alias,
      toolId,
      history: [
        ...(existing?.history ?? []),
        { version, at: this.#clock.now(), reason: note.reason, migration: note.migration ?? null, rollback: false },
      ],
    };
    const detail = `${current === undefined ? 'unset' : `v${current.version}`} -> v${version}: ${note.reason}`;
    this.#commit([{ kind: 'alias', record }], 'alias-set', alias, detail);
    return { ok: true, alias: this.#store.alias(alias) as AliasRecord };
  }

  /**
   * Points `alias` back at the target it had before its current one, atomically (seed 004: "回滚
   * alias 不代表回滚已产生的动作 ... Registry 只恢复后续调用"): bundles built from now on resolve the
   * earlier version; bundles and runs already pinned, and receipts already written, are untouched.
   * Refused when the alias has no earlier target or that version is no longer executable.
   */
  rollbackAlias(alias: string, reason: string): Outcome<{ alias: AliasRecord }> {
    const existing = this.#store.alias(alias);
    if (existing === undefined) return refused('ALIAS_UNKNOWN', `no alias ${alias}`);
    const [before, current] = [existing.history.at(-2), existing.history.at(-1)];
    if (before === undefined || current === undefined)
      return refused('NOTHING_TO_ROLL_BACK', `alias ${alias} has had one target only`);
    const status = this.status(existing.toolId, before.version);
    if (status === undefined || !status.executable)
      return refused('VERSION_NOT_BINDABLE', `alias ${alias}: ${status?.message ?? `v${before.version} is unknown`}`);
    const record: AliasRecord = {
      ...existing,
      history: [
        ...existing.history,
        { version: before.version, at: this.#clock.now(), reason, migration: null, rollback: true },
      ],
    };
    this.#commit(
      [{ kind: 'alias', record }],
      'alias-rollback',
      alias,
      `v${current.version} -> v${before.version}: ${reason}`,
    );
    return { ok: true, alias: this.#store.alias(alias) as AliasRecord };
  }

  /**
   * Builds bundle `bundleId` from `refs`, each `toolId@latest`, `toolId@N` or an alias name: the
   * one place where "latest" and aliases are resolved (seed 004: "使用 latest 只发生在 Bundle
   * 构建/发布阶段"). Refused when a reference resolves to nothing or to a version that is not
   * bindable, or two references name one tool.
   */
  buildBundle(bundleId: string, refs: readonly string[]): Outcome<{ bundle: BundleRecord }> {
    if (this.#store.bundle(bundleId) !== undefined) return refused('BUNDLE_EXISTS', `bundle ${bundleId} exists`);
    if (refs.length === 0) return refused('BUNDLE_EMPTY', `bundle ${bundleId} names no tool`);
    const pins: Pin[] = [];
    for (const ref of refs) {
      const resolved = this.#resolve(ref);
      if (!resolved.ok) return resolved;
      const bindable = this.#bindable(resolved.version.toolId, resolved.version.version);
      if (!bindable.ok) return bindable;
      if (pins.some((pin) => pin.toolId === resolved.version.toolId))
        return refused(
          'BUNDLE_DUPLICATE_TOOL',
          `bundle ${bundleId}: two references resolve to ${resolved.version.toolId}`,
        );
      const { toolId, version, manifestDigest } = resolved.version;
      pins.push({ toolId, version, manifestDigest, resolvedFrom: ref });
    }
    const bundleDigest = domainDigest('catsim.capabilityBundle.v1', { bundleId, pins });
    const record: BundleRecord = { bundleId, bundleDigest, pins, builtAt: this.#clock.now(), retiredAt: null };
    const detail = pins.map((pin) => `${pin.toolId}@${pin.version}`).join(', ');
    this.#commit([{ kind: 'bundle', record }], 'bundle-built', bundleId, detail);
    return { ok: true, bundle: this.#store.bundle(bundleId) as BundleRecord };
  }

  /** Retires a bundle: no new run may start on it; runs under way go on. */
  retireBundle(bundleId: string, reason: string): Outcome<{ bundle: BundleRecord }> {
    const bundle = this.#store.bundle(bundleId);
    if (bundle === undefined) return refused('BUNDLE_UNKNOWN', `no bundle ${bundleId}`);
    if (bundle.retiredAt !== null) return refused('BUNDLE_RETIRED', `bundle ${bundleId} is retired`);
    this.#commit(
      [{ kind: 'bundle', record: { ...bundle, retiredAt: this.#clock.now() } }],
      'bundle-retired',
      bundleId,
      reason,
    );
    return { ok: true, bundle: this.#store.bundle(bundleId) as BundleRecord };
  }

  /**
   * Starts run `runId` on bundle `bundleId`, copying its pins: the run sees exactly those versions
   * for its whole life, whatever happens to aliases and newer versions. Refused on a retired
   * bundle, and when a pinned version is at `sunset` or `disabled`.
   */
  startRun(runId: string, bundleId: string): Outcome<{ run: RunRecord }> {
    if (this.#store.run(runId) !== undefined) return refused('RUN_EXISTS', `run ${runId} exists`);
    const bundle = this.#store.bundle(bundleId);
    if (bundle === undefined) return refused('BUNDLE_UNKNOWN', `no bundle ${bundleId}`);
    if (bundle.retiredAt !== null) return refused('BUNDLE_RETIRED', `bundle ${bundleId} is retired`);
    for (const pin of bundle.pins) {
      const stage = this.#lifecycle(pin.toolId, pin.version).stage;
      if (stage === 'sunset' || stage === 'disabled')
        return refused('VERSION_SUNSET', `bundle ${bundleId} pins ${pin.toolId} v${pin.version}, which is at ${stage}`);
    }
    const record: RunRecord = {
      runId,
      bundleId,
      bundleDigest: bundle.bundleDigest,
      pins: bundle.pins,
      startedAt: this.#clock.now(),
      endedAt: null,
    };
    this.#commit([{ kind: 'run', record }], 'run-started', runId, `bundle ${bundleId}`);
    return { ok: true, run: this.#store.run(runId) as RunRecord };
  }

  /** Ends a run: it makes no more calls and no longer holds its versions. */
  endRun(runId: string, reason: string): Outcome<{ run: RunRecord }> {
    const run = this.#store.run(runId);
    if (run === undefined) return refused('RUN_UNKNOWN', `no run ${runId}`);
    if (run.endedAt !== null) return refused('RUN_ENDED', `run ${runId} has ended`);
    this.#commit([{ kind: 'run', record: { ...run, endedAt: this.#clock.now() } }], 'run-ended', runId, reason);
    return { ok: true, run: this.#store.run(runId) as RunRecord };
  }

  /**
   * Decides a call of `toolId` in run `runId`, offered the endpoints in `offers` (primary first,
   * then backups): admitted with the run's pinned version and the first endpoint that serves its
   * contract (the manifest's server and descriptor digest; seed 004: "备实现必须通过同版本 contract
   * tests"), or refused with the first {@link CallRefusalCode} that applies. Writes nothing.
   */
  admitCall(runId: string, toolId: string, offers: readonly EndpointOffer[]): Outcome<AdmittedCall, CallRefusalCode> {
    const run = this.#store.run(runId);
    if (run === undefined) return refused('RUN_UNKNOWN', `no run ${runId}`);
    if (run.endedAt !== null) return refused('RUN_ENDED', `run ${runId} has ended`);
    const pin = run.pins.find((candidate) => candidate.toolId === toolId);
    if (pin === undefined)
      return refused('TOOL_NOT_PINNED', `run ${runId} (bundle ${run.bundleId}) pins no version of ${toolId}`);
    const record = this.#store.version(toolId, pin.version);
    const status = this.status(toolId, pin.version);
    if (record === undefined || status === undefined || status.removed || record.manifestDigest !== pin.manifestDigest)
      return refused('VERSION_GONE', `${toolId} v${pin.version} pinned by run ${runId} is not in the registry`);
    if (status.emergency !== null) return refused('VERSION_EMERGENCY_DISABLED', status.message);
    if (status.stage === 'disabled') return refused('VERSION_DISABLED', status.message);
    const { server } = record.manifest.endpoint;
    const index = offers.findIndex(
      (offer) => offer.server === server && offer.descriptorDigest === record.manifest.descriptorDigest,
    );
    if (index < 0)
      return refused(
        'VERSION_INCOMPATIBLE',
        `no endpoint offered serves ${toolId} v${pin.version} (server ${server}, descriptor ${record.manifest.descriptorDigest.slice(0, 12)})`,
      );
    const view = executorViewOf(record.manifest, record.version);
    return {
      ok: true,
      runId,
      bundleId: run.bundleId,
      view,
      endpoint: { ...(offers[index] as EndpointOffer) },
      backup: offers[index]?.backup ?? index > 0,
    };
  }

  /**
   * Records the execution of an admitted call (seed 004: "执行审计记录实际 tool version、endpoint build
   * 和 operation ID"): its receipt names the exact version, schema hashes, endpoint and build.
   */
  recordExecution(call: AdmittedCall, operationId: string | null): CapabilityReceipt {
    const { manifest } = call.view;
    const receipt: CapabilityReceipt = {
      receiptNumber: this.#store.receiptCount() + 1,
      runId: call.runId,
      bundleId: call.bundleId,
      toolId: call.view.toolId,
      version: call.view.version,
      manifestDigest: call.view.manifestDigest,
      inputSchemaHash: manifest.inputSchemaHash,
      outputSchemaHash: manifest.outputSchemaHash,
      errorSchemaHash: manifest.errorSchemaHash,
      endpoint: {
        server: call.endpoint.server,
        identity: call.endpoint.identity,
        build: call.endpoint.build,
        backup: call.backup,
      },
      operationId,
      at: this.#clock.now(),
    };
    this.#store.commit([{ kind: 'receipt', record: receipt }]);
    return receipt;
  }

  /** Every execution receipt, in order. */
  receipts(): CapabilityReceipt[] {
    return this.#store.receipts();
  }

  /**
   * Moves a version to a later deprecation stage (any later one; never back), with the operator's
   * reason and an optional replacement (a hint for migration, never applied to calls).
   */
  deprecate(
    toolId: string,
    version: number,
    stage: Exclude<DeprecationStage, 'active'>,
    note: { reason: string; replacement?: { toolId: string; version: number } },
  ): Outcome<{ status: VersionStatus }> {
    if (this.#store.version(toolId, version) === undefined)
      return refused('VERSION_UNKNOWN', `no ${toolId} v${version}`);
    const life = this.#lifecycle(toolId, version);
    if (DEPRECATION_STAGES.indexOf(stage) <= DEPRECATION_STAGES.indexOf(life.stage))
      return refused('STAGE_BACKWARDS', `${toolId} v${version} is at ${life.stage}; it cannot move to ${stage}`);
    const record: LifecycleRecord = {
      ...life,
      stage,
      stageSince: this.#clock.now(),
      stageReason: note.reason,
      replacement: note.replacement ?? life.replacement,
    };
    this.#commit(
      [{ kind: 'lifecycle', record }],
      'deprecation',
      `${toolId}@${version}`,
      `${life.stage} -> ${stage}: ${note.reason}`,
    );
    return { ok: true, status: this.status(toolId, version) as VersionStatus };
  }

  /**
   * Disables a version at once (seed 004: "紧急禁用用于安全事故，可立即让策略拒绝新执行"): from the
   * commit on, every `admitCall` of it is refused `VERSION_EMERGENCY_DISABLED` with `reason`, and
   * no bundle or alias may bind it. Calls already admitted are the host's to cancel, freeze or let
   * finish. Disabling it again replaces the reason.
   */
  emergencyDisable(toolId: string, version: number, reason: string): Outcome<{ status: VersionStatus }> {
    if (this.#store.version(toolId, version) === undefined)
      return refused('VERSION_UNKNOWN', `no ${toolId} v${version}`);
    const record: LifecycleRecord = {
      ...this.#lifecycle(toolId, version),
      emergency: { reason, at: this.#clock.now() },
    };
    this.#commit([{ kind: 'lifecycle', record }], 'emergency-disable', `${toolId}@${version}`, reason);
    return { ok: true, status: this.status(toolId, version) as VersionStatus };
  }

  /**
   * Records an operator's emergency disable of a whole tool, every version present and future
   * (audit action `emergency-disable`, subject `<toolId>@*`), and emergency-disables each version
   * registered so far, in one batch. A host reads it back with {@link disabledTools} (so it holds
   * across a restart on a durable store) and disables later versions as they register.
   */
  emergencyDisableTool(toolId: string, reason: string): void {
    const at = this.#clock.now();
    const writes: CapabilityWrite[] = this.#store
      .versions(toolId)
      .filter((record) => this.#lifecycle(toolId, record.version).emergency === null)
      .map((record) => ({
        kind: 'lifecycle',
        record: { ...this.#lifecycle(toolId, record.version), emergency: { reason, at } },
      }));
    this.#commit(writes, 'emergency-disable', `${toolId}@*`, reason);
  }

  /**
   * Records an operator's deprecation, at `stage` (default `no-new-binding`), of the versions of
   * `toolId` whose descriptor digest is one of `descriptorDigests`, registered yet or not (audit
   * action `deprecation`, subject `<toolId>#<digest>,<digest>...`, with `@<stage>` appended for a
   * stage past `no-new-binding`), and moves each such version registered so far (at an earlier
   * stage) to `stage`, in one batch. A host reads it back with {@link descriptorStages} (so it
   * holds across a restart on a durable store) and deprecates later versions as they register.
   */
  deprecateDescriptors(
    toolId: string,
    descriptorDigests: readonly string[],
    reason: string,
    stage: 'announce' | 'no-new-binding' | 'sunset' | 'disabled' = 'no-new-binding',
  ): void {
    const at = this.#clock.now();
    const index = DEPRECATION_STAGES.indexOf(stage);
    const writes: CapabilityWrite[] = this.#store
      .versions(toolId)
      .filter((record) => descriptorDigests.includes(record.manifest.descriptorDigest))
      .filter((record) => DEPRECATION_STAGES.indexOf(this.#lifecycle(toolId, record.version).stage) < index)
      .map((record) => ({
        kind: 'lifecycle',
        record: { ...this.#lifecycle(toolId, record.version), stage, stageSince: at, stageReason: reason },
      }));
    const suffix = stage === 'no-new-binding' ? '' : `@${stage}`;
    this.#commit(writes, 'deprecation', `${toolId}#${[...descriptorDigests].sort().join(',')}${suffix}`, reason);
  }

  /** Tool id → descriptor digest → reason of every deprecation by descriptor on record ({@link deprecateDescriptors}), the latest reason kept. */
  deprecatedDescriptors(): Map<string, Map<string, string>> {
    const tools = new Map<string, Map<string, string>>();
    for (const [toolId, byDigest] of this.descriptorStages())
      tools.set(toolId, new Map([...byDigest].map(([digest, { reason }]) => [digest, reason])));
    return tools;
  }

  /**
   * Tool id → descriptor digest → the latest stage an operator ordered for it by descriptor
   * ({@link deprecateDescriptors}; stages only move forward) and the reason of its latest order.
   */
  descriptorStages(): Map<string, Map<string, { stage: DeprecationStage; reason: string }>> {
    const tools = new Map<string, Map<string, { stage: DeprecationStage; reason: string }>>();
    for (const record of this.#store.audit()) {
      const hash = record.subject.lastIndexOf('#');
      if (record.action !== 'deprecation' || hash < 0) continue;
      const toolId = record.subject.slice(0, hash);
      const [list = '', named] = record.subject.slice(hash + 1).split('@');
      const stage = (DEPRECATION_STAGES as readonly string[]).includes(named ?? '')
        ? (named as DeprecationStage)
        : 'no-new-binding';
      let byDigest = tools.get(toolId);
      if (byDigest === undefined) tools.set(toolId, (byDigest = new Map()));
      for (const digest of list.split(',')) {
        if (digest === '') continue;
        const before = byDigest.get(digest)?.stage ?? 'active';
        const later = DEPRECATION_STAGES.indexOf(stage) > DEPRECATION_STAGES.indexOf(before) ? stage : before;
        byDigest.set(digest, { stage: later, reason: record.detail });
      }
    }
    return tools;
  }

  /** Tool id → reason of every whole-tool emergency disable on record ({@link emergencyDisableTool}), latest reason kept. */
  disabledTools(): Map<string, string> {
    const tools = new Map<string, string>();
    for (const record of this.#store.audit())
      if (record.action === 'emergency-disable' && record.subject.endsWith('@*'))
        tools.set(record.subject.slice(0, -2), record.detail);
    return tools;
  }

  /** Lifts an emergency disable (audited); the version's deprecation stage is unchanged. */
  clearEmergency(toolId: string, version: number, reason: string): Outcome<{ status: VersionStatus }> {
    if (this.#store.version(toolId, version) === undefined)
      return refused('VERSION_UNKNOWN', `no ${toolId} v${version}`);
    const life = this.#lifecycle(toolId, version);
    if (life.emergency === null)
      return refused('NOT_EMERGENCY_DISABLED', `${toolId} v${version} is not emergency-disabled`);
    this.#commit(
      [{ kind: 'lifecycle', record: { ...life, emergency: null } }],
      'emergency-clear',
      `${toolId}@${version}`,
      reason,
    );
    return { ok: true, status: this.status(toolId, version) as VersionStatus };
  }

  /** Which aliases, bundles, runs and receipts reference a version (from bundles, runs and receipts). */
  usage(toolId: string, version: number): UsageGraph {
    const pins = (pinsOf: readonly Pin[]): boolean =>
      pinsOf.some((pin) => pin.toolId === toolId && pin.version === version);
    const bundles = this.#store.bundles().filter((bundle) => pins(bundle.pins));
    const runs = this.#store.runs().filter((run) => pins(run.pins));
    return {
      aliases: this.#store
        .aliases()
        .filter((alias) => alias.toolId === toolId && alias.history.at(-1)?.version === version)
        .map((alias) => alias.alias),
      bundles: bundles.filter((bundle) => bundle.retiredAt === null).map((bundle) => bundle.bundleId),
      retiredBundles: bundles.filter((bundle) => bundle.retiredAt !== null).map((bundle) => bundle.bundleId),
      runs: runs.filter((run) => run.endedAt === null).map((run) => run.runId),
      endedRuns: runs.filter((run) => run.endedAt !== null).map((run) => run.runId),
      receipts: this.#store.receipts().filter((receipt) => receipt.toolId === toolId && receipt.version === version)
        .length,
    };
  }

  /**
   * Removes a `disabled` version that no alias, unretired bundle or unfinished run references
   * (seed 004: "不能仅凭'一个月没有新调用'删除"). The record stays in the store, marked removed, so
   * receipts keep naming it; it can never be bound or executed again.
   */
  remove(toolId: string, version: number, reason: string): Outcome<{ status: VersionStatus }> {
    if (this.#store.version(toolId, version) === undefined)
      return refused('VERSION_UNKNOWN', `no ${toolId} v${version}`);
    const life = this.#lifecycle(toolId, version);
    if (life.stage !== 'disabled')
      return refused('NOT_DISABLED', `${toolId} v${version} is at ${life.stage}, not disabled`);
    const usage = this.usage(toolId, version);
    const users = [
      ...usage.aliases.map((alias) => `alias ${alias}`),
      ...usage.bundles.map((bundle) => `bundle ${bundle}`),
      ...usage.runs.map((run) => `run ${run}`),
    ];
    if (users.length > 0) return refused('REFERENCED', `${toolId} v${version} is referenced by ${users.join(', ')}`);
    this.#commit(
      [{ kind: 'lifecycle', record: { ...life, removedAt: this.#clock.now() } }],
      'removed',
      `${toolId}@${version}`,
      reason,
    );
    return { ok: true, status: this.status(toolId, version) as VersionStatus };
  }

  /** Every audited operation, in order. */
  audit(): AuditRecord[] {
    return this.#store.audit();
  }

  /** `ref` as a version: `toolId@latest` (the newest not removed), `toolId@N`, or an alias's current target. */
  #resolve(ref: string): Outcome<{ version: ToolVersion }> {
    const alias = this.#store.alias(ref);
    if (alias !== undefined) {
      const target = alias.history.at(-1) as AliasRecord['history'][number];
      const version = this.#store.version(alias.toolId, target.version);
      return version === undefined
        ? refused('REF_UNKNOWN', `alias ${ref} names an unknown version`)
        : { ok: true, version };
    }
    const at = ref.lastIndexOf('@');
    if (at <= 0) return refused('REF_UNKNOWN', `${ref} is neither an alias nor toolId@latest / toolId@N`);
    const [toolId, which] = [ref.slice(0, at), ref.slice(at + 1)];
    if (which === 'latest') {
      const version = this.#store
        .versions(toolId)
        .filter((record) => this.#lifecycle(toolId, record.version).removedAt === null)
        .at(-1);
      return version === undefined ? refused('REF_UNKNOWN', `no version of ${toolId}`) : { ok: true, version };
    }
    const version = /^[1-9][0-9]*$/.test(which) ? this.#store.version(toolId, Number(which)) : undefined;
    return version === undefined ? refused('VERSION_UNKNOWN', `no ${toolId} v${which}`) : { ok: true, version };
  }

  #bindable(toolId: string, version: number): Outcome<object> {
    const status = this.status(toolId, version);
    if (status === undefined) return refused('VERSION_UNKNOWN', `no ${toolId} v${version}`);
    return status.bindable ? { ok: true } : refused('VERSION_NOT_BINDABLE', status.message);
  }

  #lifecycle(toolId: string, version: number): LifecycleRecord {
    return (
      this.#store.lifecycle(toolId, version) ?? {
        toolId,
        version,
        stage: 'active',
        stageSince: this.#registrationOf(toolId, version) ?? 0,
        stageReason: null,
        replacement: null,
        emergency: null,
        removedAt: null,
      }
    );
  }

  /** When version `version` of `toolId` was registered (ms), or undefined while the store holds no such version. */
  #registrationOf(toolId: string, version: number): number | undefined {
    const key = versionKey(toolId, version);
    const known = this.#registeredAt.get(key);
    if (known !== undefined) return known;
    const registeredAt = this.#store.version(toolId, version)?.registeredAt;
    if (registeredAt !== undefined) this.#registeredAt.set(key, registeredAt);
    return registeredAt;
  }

  /** Commits `writes` with the audit record of the operation, in one batch. */
  #commit(writes: CapabilityWrite[], action: AuditRecord['action'], subject: string, detail: string): void {
    const seq = this.#store.lastAuditSeq() + 1;
    this.#store.commit([...writes, { kind: 'audit', record: { seq, at: this.#clock.now(), action, subject, detail } }]);
  }
}

/** Throws unless each schema hash of `manifest` is that of its schema. */
function checkHashes(manifest: ToolManifest): void {
  const wrong = [
    ['inputSchemaHash', schemaDigest(manifest.inputSchema), manifest.inputSchemaHash],
    [
      'outputSchemaHash',
      manifest.outputSchema === null ? null : schemaDigest(manifest.outputSchema),
      manifest.outputSchemaHash,
    ],
    ['errorSchemaHash', errorSchemaDigest(manifest.errorSchema), manifest.errorSchemaHash],
  ].find(([, expected, given]) => expected !== given);
  if (wrong !== undefined)
    throw new TypeError(`manifest of ${manifest.toolId}: ${wrong[0]} is not the hash of its schema`);
}

function refused<Code extends string>(code: Code, reason: string): Refused<Code> {
  return { ok: false, code, reason };
}

/** The one sentence of a version's status. */
function statusMessage(life: LifecycleRecord): string {
  const name = `${life.toolId} v${life.version}`;
  if (life.removedAt !== null) return `${name} was removed at t=${life.removedAt} ms`;
  if (life.emergency !== null)
    return `${name} is emergency-disabled since t=${life.emergency.at} ms: ${life.emergency.reason}`;
  const replacement =
    life.replacement === null ? '' : `; migrate to ${life.replacement.toolId} v${life.replacement.version}`;
  if (life.stage === 'active') return `${name} is active`;
  return `${name} is at ${life.stage} since t=${life.stageSince} ms: ${life.stageReason ?? ''}${replacement}`;
}
