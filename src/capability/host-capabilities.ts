/**
 * The capability registry as a host uses it (SPEC section 9): what `CatalogHost` does with tool
 * versions, kept apart from the catalog and the gate.
 *
 * Order of calls: at each disclosure of a published generation to a session, `pin(session,
 * record)` registers the manifests of the generation's snapshot (once per generation and host
 * process; an equal manifest is the same version), builds the generation's bundle of exact
 * versions and starts the session's run on it; at each call, `judge(...)` asks the registry
 * whether the version the run pinned for that tool may execute on the endpoint offered, before
 * anything is sent; when a call leaves the core, `recordExecution` writes its capability receipt;
 * `endSession` ends the session's runs. An operator may point a tool's production alias
 * (`prod:<toolId>`) at a release of the contract a server lists (`alias`) or roll it back: a run
 * started afterwards on a generation listing that contract binds the alias's target, resolved once
 * when its bundle is built; a run started before keeps what it pinned (seed 004: "运行中的 Run 继续
 * 使用"; "Registry 只恢复后续调用").
 *
 * A run is one session's view of one disclosed generation: its id is the session, the catalog key
 * and the generation, so a session shown a later generation gets another run, and a call is
 * judged by the run of the disclosure that showed its (tool, descriptor digest) to the session,
 * the same disclosure the gate finds (src/admission/disclosure-ledger.ts). Nothing here reads a
 * clock or keeps process-wide state: the registry's clock and store are the host's.
 */
import type { Clock } from '../ports.ts';
import type { GenerationRecord } from '../registry/store.ts';
import {
  CapabilityRegistry,
  type AdmittedCall,
  type CallRefusalCode,
  type EndpointOffer,
  type Outcome,
} from './capability-registry.ts';
import type {
  AliasRecord,
  CapabilityReceipt,
  CapabilityStore,
  DeprecationStage,
  ToolVersion,
} from './capability-store.ts';
import { DEPRECATION_STAGES } from './capability-store.ts';
import { defaultToolId, releaseOf, type OperatorEntry } from './manifest.ts';
import { operatorEntryOf, type ManifestFile } from './manifest-file.ts';
import { manifestsOfSnapshot } from './snapshot-manifests.ts';

/** The version of one disclosed tool, and whether the generation's bundle pins it. */
interface BundledTool {
  toolId: string;
  version: number;
  /** False when the version could not be bound (deprecated past `announce`, emergency-disabled, removed) or its tool id was taken by another tool of the snapshot. */
  pinned: boolean;
}

/** Tool name → descriptor digest → its version, for one bundle. */
type BundleIndex = Map<string, Map<string, BundledTool>>;

/** One tool of a generation's snapshot as this host process registered it: the version its descriptor and the operator's file give. */
interface GenerationTool {
  toolName: string;
  descriptorDigest: string;
  toolId: string;
  version: number;
}

/** Where `sunset` stands among the deprecation stages: a version there or later starts no run. */
const SUNSET_INDEX = DEPRECATION_STAGES.indexOf('sunset');

/** The prefix of the alias a host's runs resolve a tool through: `prod:<toolId>` (seed 004: "业务使用 prod:jobs.rerun alias"). */
export const PRODUCTION_ALIAS_PREFIX = 'prod:';

/**
 * An operator's order on a tool's production alias (SPEC section 9; seed 004: "Alias 发布与回滚要原子"):
 * `set` points it at the release of the contract the server lists under `descriptorDigest` that
 * the operator's `entry` describes; `rollback` points it back at its previous target.
 */
export interface AliasOrder {
  /** The server identity (SPEC section 1) whose tool it is. */
  identity: string;
  /** The tool's name as the server lists it. */
  toolName: string;
  action: 'set' | 'rollback';
  /** For `set`: the descriptor digest of the contract released (a version of it must be registered). */
  descriptorDigest?: string;
  /** For `set`: the operator's entry of the release (`catsim.manifests.v1`); undefined: every field takes its safest default. */
  entry?: OperatorEntry;
  /** A note naming how callers migrate; required to move the alias across a breaking diff. */
  migration?: string;
  /** Why, as the operator wrote it (the audit record's detail). */
  reason: string;
}

/** What a host asks about one call. */
export interface CapabilityCall {
  session: string;
  /** The catalog key's name (`keyName`, src/keys.ts), as given to `pin`. */
  key: string;
  /** The generation of the disclosure that showed the tool to the session. */
  disclosedGeneration: number;
  toolName: string;
  descriptorDigest: string;
  /** The endpoints that could carry the call, primary first (empty: none live). */
  offers: readonly EndpointOffer[];
}

/** The registry's ports as a host passes them, and the operator's manifest files. */
export interface HostCapabilitiesOptions {
  clock: Clock;
  store: CapabilityStore;
  /**
   * The operator's manifest files (`catsim.manifests.v1`, read with `parseManifestFile`), by the
   * server identity (SPEC section 1) of the connection whose tools they describe. A server without
   * one is named by its identity and its tools get the safest defaults.
   */
  manifestFiles?: ReadonlyMap<string, ManifestFile>;
}

/** The capability registry of one host (see the file header for the order of calls). */
export class HostCapabilities {
  /** The registry itself: operators deprecate, alias, emergency-disable and read status through it. */
  readonly registry: CapabilityRegistry;
  readonly #files: ReadonlyMap<string, ManifestFile>;
  /** Bundle id → what it pins, as this host process registered it. */
  readonly #bundles = new Map<string, BundleIndex>();
  /**
   * Tool id → reason, for tools an operator emergency-disabled as a whole ({@link disableTool}):
   * a version registered later is disabled with them. Read from the store's audit record at
   * construction, so they hold across a restart of the host on a durable store.
   */
  readonly #disabledTools: Map<string, string>;
  /**
   * Tool id → descriptor digest → stage and reason, for versions an operator deprecated by what
   * the server listed ({@link deprecateListed}, F31 and F35), registered yet or not: a version
   * registered later with one of those digests moves to that stage as it registers. Read from the
   * store's audit record at construction, so they hold across a restart of the host on a durable store.
   */
  readonly #deprecatedDigests: Map<string, Map<string, { stage: DeprecationStage; reason: string }>>;
  /**
   * Session → run id → bundle id, for the runs this host process started or resumed; null for a
   * disclosed generation with no tool to bind (every tool quarantined), which has no run.
   */
  readonly #runs = new Map<string, Map<string, string | null>>();
  /** Bundle ids of generations whose versions were all unbindable: indexed, never built, no run started on them. */
  readonly #unbuilt = new Set<string>();
  /** A generation's bundle id without alias targets → its tools as this host process registered them. */
  readonly #generations = new Map<string, GenerationTool[]>();

  /** A registry on `options.store`, with the host's clock. */
  constructor(options: HostCapabilitiesOptions) {
    this.registry = new CapabilityRegistry({ clock: options.clock, store: options.store });
    this.#files = options.manifestFiles ?? new Map();
    // Whole-tool disables an earlier process of the host recorded in a durable store still hold.
    this.#disabledTools = this.registry.disabledTools();
    this.#deprecatedDigests = this.registry.descriptorStages();
  }

  /** The operator's name of the server presenting `identity`: its manifest file's `server`, else the identity. */
  serverOf(identity: string): string {
    return this.#files.get(identity)?.server ?? identity;
  }

  /**
   * Starts (or resumes, after a restart of the host on a durable store) `session`'s run on the
   * bundle of `record`, a generation of the catalog key named `key` (`keyName`, src/keys.ts), registering its versions and building the bundle the first time. A
   * generation whose snapshot has no tool to bind (all quarantined) gets no bundle and no run.
   * @throws the store's write error.
   */
  pin(session: string, key: string, record: GenerationRecord): void {
    const bundleId = this.#bundleOf(record);
    const runId = runIdOf(session, key, record.catalogGeneration);
    let runBundle = bundleId ?? null;
    if (bundleId !== undefined && !this.#unbuilt.has(bundleId)) {
      const started = this.registry.startRun(runId, bundleId);
      // RUN_EXISTS: the session was shown this generation before (or by an earlier boot): the
      // run keeps its own bundle and pins, whatever an alias names now.
      if (!started.ok && started.code !== 'RUN_EXISTS') return;
      const own = started.ok ? bundleId : this.registry.run(runId)?.bundleId;
      if (own !== undefined && this.#bundles.has(own)) runBundle = own;
    }
    let runs = this.#runs.get(session);
    if (runs === undefined) this.#runs.set(session, (runs = new Map()));
    runs.set(runId, runBundle);
  }

  /**
   * The registry's decision on `call`: admitted with the exact version and endpoint, or refused
   * with the registry's code (`RUN_UNKNOWN` when the session holds no run for that disclosure,
   * `TOOL_NOT_PINNED` when its bundle could not bind the tool, then the codes of
   * `CapabilityRegistry.admitCall`). Undefined when the disclosed tool has no version at all (a
   * content check quarantined it, in a generation that may have bound nothing): the gate refuses
   * it, and a host refuses `TOOL_NOT_PINNED` a call the gate would admit anyway. Writes nothing.
   */
  judge(call: CapabilityCall): Outcome<AdmittedCall, CallRefusalCode> | undefined {
    const runId = runIdOf(call.session, call.key, call.disclosedGeneration);
    const bundleId = this.#runs.get(call.session)?.get(runId);
    if (bundleId === undefined) return refused('RUN_UNKNOWN', `session ${call.session} holds no run ${runId}`);
    if (bundleId === null) return undefined;
    const tool = this.#bundles.get(bundleId)?.get(call.toolName)?.get(call.descriptorDigest);
    if (tool === undefined) return undefined;
    if (!tool.pinned) return this.#unpinned(tool, bundleId);
    return this.registry.admitCall(runId, tool.toolId, call.offers);
  }

  /**
   * An operator's emergency disable of tool `toolName` of the server presenting `identity` (seed
   * 004: "紧急禁用用于安全事故，可立即让策略拒绝新执行"): every version of it registered so far is
   * emergency-disabled now, and every version registered later (a description change, a new
   * schema) is disabled as it is registered, so no call of the tool is admitted again. Calls
   * admitted before are the host's to let finish.
   * @throws the store's write error.
   */
  disableTool(identity: string, toolName: string, reason: string): void {
    const toolId = this.#toolIdOf(identity, toolName);
    this.registry.emergencyDisableTool(toolId, reason);
    this.#disabledTools.set(toolId, reason);
  }

  /**
   * An operator's deprecation, at `stage` (default `no-new-binding`), of the versions of tool
   * `toolName` of the server presenting `identity` whose descriptor digests are
   * `descriptorDigests` (seed 004: "构建新 Bundle 时禁止绑定 deprecated 版本，旧 Bundle 在兼容期继续";
   * "deprecation 包含 announce、no-new-binding、sunset、disabled 四阶段"): every such version registered
   * so far moves to that stage now, and one registered later as it registers. At `announce` nothing
   * is refused (bundles and runs still bind it; its status carries the notice); at `no-new-binding`
   * no bundle built from now on binds it, bundles and runs holding it go on; at `sunset` no run
   * starts on a bundle pinning it either (a generation disclosed to a session for the first time
   * gets a bundle without it, and calls of it there are refused `VERSION_SUNSET`); at `disabled`
   * every call of it is refused (`VERSION_DISABLED`). A version already at a later stage stays
   * there. Recorded in one audited batch (`CapabilityRegistry.deprecateDescriptors`) that a host
   * reads back when it starts; an empty list does nothing.
   * @throws the store's write error.
   */
  deprecateListed(
    identity: string,
    toolName: string,
    descriptorDigests: readonly string[],
    reason: string,
    stage: 'announce' | 'no-new-binding' | 'sunset' | 'disabled' = 'no-new-binding',
  ): void {
    if (descriptorDigests.length === 0) return;
    const toolId = this.#toolIdOf(identity, toolName);
    this.registry.deprecateDescriptors(toolId, descriptorDigests, reason, stage);
    let byDigest = this.#deprecatedDigests.get(toolId);
    if (byDigest === undefined) this.#deprecatedDigests.set(toolId, (byDigest = new Map()));
    for (const digest of descriptorDigests) {
      const before = byDigest.get(digest)?.stage ?? 'active';
      const later = DEPRECATION_STAGES.indexOf(stage) > DEPRECATION_STAGES.indexOf(before) ? stage : before;
      byDigest.set(digest, { stage: later, reason });
    }
  }

  /**
   * An operator's removal of the versions of tool `toolName` of the server presenting `identity`
   * whose descriptor digests are `descriptorDigests` (seed 004: "下线工具版本前，Registry 从 Run traces
   * 与 Bundle manifests 构建使用图"): each such version not removed yet is removed by the registry
   * (`CapabilityRegistry.remove`), which refuses one that is not `disabled` (`NOT_DISABLED`) or that
   * an alias, a bundle not retired or a run not ended references (`REFERENCED`). Versions are
   * removed one by one, so a refusal leaves those removed before it removed. Ok with the versions
   * removed when every version of those digests is removed now; refused with the first refusal,
   * or `VERSION_UNKNOWN` when no version of them is registered.
   * @throws the store's write error.
   */
  removeListed(
    identity: string,
    toolName: string,
    descriptorDigests: readonly string[],
    reason: string,
  ): Outcome<{ removed: number[] }> {
    const toolId = this.#toolIdOf(identity, toolName);
    const versions = this.registry
      .versions(toolId)
      .filter((version) => descriptorDigests.includes(version.manifest.descriptorDigest));
    if (versions.length === 0)
      return { ok: false, code: 'VERSION_UNKNOWN', reason: `no version of ${toolId} with those descriptors` };
    const removed: number[] = [];
    for (const { version } of versions) {
      if (this.registry.status(toolId, version)?.removed === true) continue;
      const outcome = this.registry.remove(toolId, version, reason);
      if (!outcome.ok) return outcome;
      removed.push(version);
    }
    return { ok: true, removed };
  }

  /**
   * An operator's order on the production alias of tool `order.toolName` ({@link AliasOrder}),
   * one audited batch of the registry (`setAlias` / `rollbackAlias`): `set` registers the release
   * (the registered definition with that descriptor digest, with the order's operator entry; an
   * equal manifest is the same version) and points the alias at it, refused across a breaking
   * diff without a migration note (`BREAKING_WITHOUT_MIGRATION`), for a contract of which no
   * version is registered (`REF_UNKNOWN`) and for a version that may not be bound; `rollback`
   * points it back at its previous target. Bundles built afterwards resolve the new target, so
   * only runs started afterwards see it; runs and receipts before are untouched. The release is
   * registered in its own batch before the alias moves, so a refused `set` leaves a version that
   * nothing binds (as a release shadowed before its flip), never an alias half moved.
   * @throws the store's write error.
   */
  alias(order: AliasOrder): Outcome<{ alias: AliasRecord }> {
    const toolId = this.#toolIdOf(order.identity, order.toolName);
    const name = `${PRODUCTION_ALIAS_PREFIX}${toolId}`;
    if (order.action === 'rollback') return this.registry.rollbackAlias(name, order.reason);
    const base = this.registry
      .versions(toolId)
      .findLast((version) => version.manifest.descriptorDigest === order.descriptorDigest);
    if (base === undefined)
      return {
        ok: false,
        code: 'REF_UNKNOWN',
        reason: `alias ${name}: no version of ${toolId} with descriptor ${String(order.descriptorDigest).slice(0, 12)} is registered`,
      };
    const { version, created } = this.registry.register(releaseOf(base.manifest, order.entry));
    if (created) this.#inheritEmergency(version.toolId, version.version);
    this.#inheritDeprecation(version.toolId, version.version);
    return this.registry.setAlias(name, toolId, version.version, {
      reason: order.reason,
      ...(order.migration === undefined ? {} : { migration: order.migration }),
    });
  }

  /**
   * The version the production alias of `toolId` names now, when it is a version of the contract
   * with `descriptorDigest` that may be bound; undefined otherwise (no alias, another contract, or
   * a target deprecated or disabled since). What a bundle built now binds for that tool.
   */
  aliasTargetOf(toolId: string, descriptorDigest: string): ToolVersion | undefined {
    const target = this.registry.alias(`${PRODUCTION_ALIAS_PREFIX}${toolId}`)?.history.at(-1);
    if (target === undefined) return undefined;
    const version = this.registry.version(toolId, target.version);
    if (version === undefined || version.manifest.descriptorDigest !== descriptorDigest) return undefined;
    return this.registry.status(toolId, target.version)?.bindable === true ? version : undefined;
  }

  /**
   * The refusal of any call of `toolName` on the server presenting `identity` while an operator's
   * emergency disable of the whole tool holds ({@link disableTool}), whatever the session was
   * shown: also for a tool that has no version (never disclosed, or quarantined where it was).
   * Undefined when none holds.
   */
  toolRefusal(identity: string, toolName: string): Refused | undefined {
    const toolId = this.#toolIdOf(identity, toolName);
    const reason = this.#disabledTools.get(toolId);
    return reason === undefined
      ? undefined
      : refused('VERSION_EMERGENCY_DISABLED', `${toolId} is emergency-disabled: ${reason}`);
  }

  /** Writes the capability receipt of an admitted call that leaves the core now. @throws the store's write error. */
  recordExecution(call: AdmittedCall, operationId: string): CapabilityReceipt {
    return this.registry.recordExecution(call, operationId);
  }

  /** Ends every run of `session` (it ended); its versions are no longer held by it. @throws the store's write error. */
  endSession(session: string): void {
    for (const [runId, bundleId] of this.#runs.get(session) ?? [])
      if (bundleId !== null && !this.#unbuilt.has(bundleId)) this.registry.endRun(runId, 'session ended');
    this.#runs.delete(session);
  }

  /**
   * The id of `record`'s bundle under the aliases in force now, built on first use; undefined when
   * the snapshot has no version at all (every tool quarantined). A tool whose production alias
   * names a release of the contract the generation lists binds that release (the alias is the
   * reference, resolved once, here), and the bundle id names it, so a flip gives later runs
   * another bundle while the runs on this one keep their pins. A generation whose versions are
   * all unbindable gets an id in {@link #unbuilt}: indexed, so its calls are refused with the
   * version's status.
   */
  #bundleOf(record: GenerationRecord): string | undefined {
    const generationId = `${record.key}#${record.catalogGeneration}@${record.snapshotDigest.slice(0, 16)}`;
    const tools = this.#generationToolsOf(generationId, record);
    if (tools.length === 0) return undefined;
    const targets = tools.map((tool) => this.aliasTargetOf(tool.toolId, tool.descriptorDigest)?.version);
    const aliased = tools.flatMap((tool, at) =>
      targets[at] === undefined ? [] : [`+${PRODUCTION_ALIAS_PREFIX}${tool.toolId}=v${targets[at]}`],
    );
    // A version at sunset or later may not start a run: a bundle built without it is another bundle.
    const ended = tools.flatMap((tool, at) => {
      const version = targets[at] ?? tool.version;
      const status = this.registry.status(tool.toolId, version);
      const over = status !== undefined && (status.removed || DEPRECATION_STAGES.indexOf(status.stage) >= SUNSET_INDEX);
      return over ? [`-${tool.toolId}@v${version}`] : [];
    });
    const bundleId = `${generationId}${aliased.join('')}${ended.join('')}`;
    if (this.#bundles.has(bundleId)) return bundleId;
    const index: BundleIndex = new Map();
    const refs: string[] = [];
    const bound = new Set<string>();
    tools.forEach((tool, at) => {
      const version = targets[at] ?? tool.version;
      const pinned = !bound.has(tool.toolId) && this.registry.status(tool.toolId, version)?.bindable === true;
      if (pinned) {
        bound.add(tool.toolId);
        refs.push(targets[at] === undefined ? `${tool.toolId}@${version}` : `${PRODUCTION_ALIAS_PREFIX}${tool.toolId}`);
      }
      let byDigest = index.get(tool.toolName);
      if (byDigest === undefined) index.set(tool.toolName, (byDigest = new Map()));
      byDigest.set(tool.descriptorDigest, { toolId: tool.toolId, version, pinned });
    });
    // Versions, none of them bindable (deprecated, emergency-disabled): no bundle and no run, but
    // the index stays, so a call of one is refused with its status instead of reaching the gate.
    if (refs.length === 0) {
      this.#unbuilt.add(bundleId);
      this.#bundles.set(bundleId, index);
      return bundleId;
    }
    const built = this.registry.buildBundle(bundleId, refs);
    if (!built.ok && built.code !== 'BUNDLE_EXISTS') return undefined;
    this.#bundles.set(bundleId, index);
    return bundleId;
  }

  /** The tools of `record`'s snapshot with their versions, registered the first time this host process sees the generation. */
  #generationToolsOf(generationId: string, record: GenerationRecord): GenerationTool[] {
    const known = this.#generations.get(generationId);
    if (known !== undefined) return known;
    const identity = record.snapshot.serverIdentity;
    const { manifests } = manifestsOfSnapshot(record.snapshot, this.serverOf(identity), this.#files.get(identity));
    const tools = manifests.map((manifest): GenerationTool => {
      const { version, created } = this.registry.register(manifest);
      if (created) this.#inheritEmergency(version.toolId, version.version);
      this.#inheritDeprecation(version.toolId, version.version);
      return {
        toolName: manifest.endpoint.toolName,
        descriptorDigest: manifest.descriptorDigest,
        toolId: version.toolId,
        version: version.version,
      };
    });
    this.#generations.set(generationId, tools);
    return tools;
  }

  /** The tool id the manifest of `toolName` on the server presenting `identity` gets (its file's entry, else the default). */
  #toolIdOf(identity: string, toolName: string): string {
    const file = this.#files.get(identity);
    const entry = file === undefined ? undefined : operatorEntryOf(file, toolName);
    return entry?.toolId ?? defaultToolId(this.serverOf(identity), toolName);
  }

  /**
   * Disables a version just registered when its tool is under an emergency: disabled as a whole
   * by {@link disableTool}, or an earlier version of it is emergency-disabled (so the rule holds
   * across a restart of the host on a durable store for tools that had a version).
   */
  #inheritEmergency(toolId: string, version: number): void {
    let reason = this.#disabledTools.get(toolId);
    for (let earlier = version - 1; reason === undefined && earlier >= 1; earlier -= 1)
      reason = this.registry.status(toolId, earlier)?.emergency?.reason;
    if (reason !== undefined) this.registry.emergencyDisable(toolId, version, reason);
  }

  /** Moves a version to the stage an operator ordered for its descriptor digest (a later stage stays). */
  #inheritDeprecation(toolId: string, version: number): void {
    const digest = this.registry.version(toolId, version)?.manifest.descriptorDigest;
    const order = digest === undefined ? undefined : this.#deprecatedDigests.get(toolId)?.get(digest);
    // STAGE_BACKWARDS (already there or later) is no change to make.
    if (order !== undefined && order.stage !== 'active')
      this.registry.deprecate(toolId, version, order.stage, { reason: order.reason });
  }

  /** The refusal of a tool its bundle could not bind, with the code its version's status gives. */
  #unpinned(tool: BundledTool, bundleId: string): Refused {
    const status = this.registry.status(tool.toolId, tool.version);
    const message = status?.message ?? `${tool.toolId} v${tool.version} is unknown`;
    if (status === undefined || status.removed) return refused('VERSION_GONE', message);
    if (status.emergency !== null) return refused('VERSION_EMERGENCY_DISABLED', message);
    if (status.stage === 'disabled') return refused('VERSION_DISABLED', message);
    if (status.stage === 'sunset') return refused('VERSION_SUNSET', message);
    return refused('TOOL_NOT_PINNED', `bundle ${bundleId} does not bind ${tool.toolId} v${tool.version}: ${message}`);
  }
}

type Refused = Extract<Outcome<AdmittedCall, CallRefusalCode>, { ok: false }>;

/** The run of `session` on generation `generation` of catalog key `key`. */
function runIdOf(session: string, key: string, generation: number): string {
  return `${session}|${key}#${generation}`;
}

function refused(code: CallRefusalCode, reason: string): Refused {
  return { ok: false, code, reason };
}
