/**
 * The reference catalog core (`src/`) as a simulator adapter. Mutants reuse it with one defence
 * removed (a different walk), so they differ from it in exactly one place.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { ConnectedPageSource } from '../src/discovery/connected-source.ts';
import { EitherEraConnector, type AcknowledgementWait } from '../src/mcp/modern-era.ts';
import type { CatalogRefresher } from '../src/discovery/refresher.ts';
import type { WalkConstructor } from '../src/discovery/scan.ts';
import { CatalogHost } from '../src/host.ts';
import { REFERENCE_SEAMS, type CoreSeams } from '../src/internal/seams.ts';
import { DEFAULT_TRUST } from '../src/validation/trust.ts';
import type { CatalogRegistry } from '../src/registry/registry.ts';
import { InMemoryRegistryStore, type RegistryStore } from '../src/registry/store.ts';
import { openSqliteStoreOn, SqliteRegistryStore } from '../src/registry/sqlite-store.ts';
import { InMemoryCapabilityStore, type CapabilityStore } from '../src/capability/capability-store.ts';
import { parseManifestFile, type ManifestFile } from '../src/capability/manifest-file.ts';
import type Database from 'better-sqlite3';
import type { AdmissionGate } from '../src/admission/gate.ts';
import type { ContentChecks } from '../src/validation/content-checks.ts';
import type { PageSource } from '../src/discovery/page-source.ts';
import type {
  CoreAdapter,
  CoreEnvironment,
  CoreFactory,
  CoreObservation,
  DisclosureResult,
  SessionSpec,
  SimCallRequest,
  SimPolicyUpdate,
} from '../sim/guard/adapter.ts';
import { audienceName, type CatalogKey } from '../src/keys.ts';
import { admissionFacts } from '../src/surface/admission-facts-of.ts';
import { SurfaceStageEngine } from '../src/surface/internal/engine.ts';
import { REFERENCE_PARTS, type SurfaceParts } from '../src/surface/internal/parts.ts';
import type { RequestLedger } from '../src/surface/request-ledger.ts';
import type { SurfaceHook } from '../src/surface/surface-hook.ts';
import type {
  AliasOrder,
  BackupSpec,
  DeprecationOrder,
  EmergencyDisableOrder,
  ModelTurn,
  RemovalAnswer,
  RemovalOrder,
  RollbackTrigger,
} from '../sim/guard/adapter.ts';
import { operatorEntryOf, ManifestFileError } from '../src/capability/manifest-file.ts';
import { THREAD_MEMOS } from './thread-memos.ts';

/** The reference core's client info, in `initialize` (legacy era) and in every request's envelope (modern era). */
const REFERENCE_CLIENT = { name: 'catsim-reference', version: '0.1.0' };

/** The protocol version the SDK Client negotiates with the simulated servers. */
export const PROTOCOL_VERSION = '2025-11-25';

/**
 * One output-schema validator for every Client of the process: the SDK builds a fresh Ajv per
 * Client otherwise, which dominates the cost of a short simulated round.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * Options that turn the reference core into a mutant. The replaced parts reach the host through
 * its internal seams (src/internal/seams.ts), never through its configuration.
 */
export interface ReferenceVariant {
  walk?: WalkConstructor;
  registry?: typeof CatalogRegistry;
  /** The store of a round without a host disk; default {@link InMemoryRegistryStore} (no F18: nothing outlives the round). */
  storeClass?: new () => RegistryStore;
  gate?: typeof AdmissionGate;
  contentChecks?: ContentChecks;
  /** A refresher subclass (the call barrier and the list_changed debounce live there). */
  refresher?: typeof CatalogRefresher;
  /** A host subclass (e.g. one whose receipts omit the policy epoch); default {@link CatalogHost}. */
  host?: typeof CatalogHost;
  /**
   * The registry store a boot opens on the host's disk (F18, `env.disk`); default
   * `openSqliteStoreOn`, the real SQLite store (src/registry/sqlite-store.ts).
   */
  diskStore?: (db: Database.Database, name: string) => RegistryStore;
  /** Wraps each connection's page source (the identity-rotation mutant). */
  wrapSource?: (source: ConnectedPageSource) => PageSource;
  /** Parts of the tool surface stage replaced (the surface mutants; src/surface/internal/parts.ts). */
  surfaceParts?: Partial<SurfaceParts>;
  /**
   * True for the mutant that takes an operator's emergency disable (F26) and applies it to
   * nothing: the order is accepted, and the tool stays executable.
   */
  ignoreEmergencyDisable?: boolean;
  /** The connector class that speaks either era (the mutant that never listens again after a reconnect). */
  connector?: typeof EitherEraConnector;
  /**
   * True for the mutant that takes an operator's deprecation (F31) and applies it to nothing:
   * later bundles bind the deprecated versions again.
   */
  ignoreDeprecation?: boolean;
  /**
   * True for the mutant that hands every alias order (F34) to the registry with a migration note
   * the operator never wrote, so a flip across a breaking diff is taken.
   */
  assumeAliasMigration?: boolean;
  /**
   * True for the mutant that takes an operator's `disabled` order (F35) as `sunset`: runs under
   * way keep calling the version.
   */
  disabledAsSunset?: boolean;
  /**
   * True for the mutant that takes an operator's `announce` order (F35) as `no-new-binding`: bundles
   * built afterwards leave the announced versions out, so new runs' calls of them are refused.
   */
  announceAsNoNewBinding?: boolean;
  /**
   * Wraps the capability store of each boot (the mutant whose usage graph sees no bundle and no
   * run, so a removal is taken whatever references the version).
   */
  wrapCapabilityStore?: (store: CapabilityStore) => CapabilityStore;
  /**
   * True for the mutant that answers every removal (F35) refused `REFERENCED`, whatever its
   * registry did (with {@link wrapCapabilityStore} blind to usage, it removed the versions).
   */
  misreportRemoval?: boolean;
}

/** A factory for the reference core, or for a variant of it. */
export function referenceCore(variant: ReferenceVariant = {}): CoreFactory {
  return (env) => new ReferenceAdapter(env, variant);
}

/**
 * The host class of a variant: the variant's host (or {@link CatalogHost}) when it replaces no
 * part, else a subclass whose `seams()` returns the reference parts with the variant's in place.
 */
function hostWithSeams(variant: ReferenceVariant): typeof CatalogHost {
  const Base = variant.host ?? CatalogHost;
  const replaced: Partial<CoreSeams> = {
    ...(variant.walk === undefined ? {} : { walk: variant.walk }),
    ...(variant.registry === undefined ? {} : { registry: variant.registry }),
    ...(variant.gate === undefined ? {} : { gate: variant.gate }),
    ...(variant.contentChecks === undefined ? {} : { contentChecks: variant.contentChecks }),
    ...(variant.refresher === undefined ? {} : { refresher: variant.refresher }),
  };
  if (Object.keys(replaced).length === 0) return Base;
  const seams: CoreSeams = { ...REFERENCE_SEAMS, ...replaced };
  return class MutantHost extends Base {
    protected override seams(): CoreSeams {
      return seams;
    }
  };
}

/**
 * The store of a boot: when the round gives the host a disk (F18) the variant's disk store, else
 * the real SQLite store on the disk's connection; without a disk the variant's store class, else
 * an in-memory store (nothing of a round without restarts needs to outlive its process).
 */
function storeOf(env: CoreEnvironment, variant: ReferenceVariant): RegistryStore {
  if (env.disk === undefined) return new (variant.storeClass ?? InMemoryRegistryStore)();
  const db = env.disk.sqlite() as Database.Database;
  const name = `disk:boot${env.disk.boot}`;
  return (variant.diskStore ?? openSqliteStoreOn)(db, name);
}

/**
 * The capability store of a boot (SPEC section 9): the capability tables of the real SQLite store
 * on the host's disk, so versions, runs and receipts outlive a restart with the catalog; in memory
 * otherwise (a variant's disk store that is not the real one keeps its capabilities in memory too).
 */
function capabilityStoreOf(store: RegistryStore): CapabilityStore {
  return store instanceof SqliteRegistryStore ? store.capabilities() : new InMemoryCapabilityStore();
}

/**
 * The operator's manifest files the round hands the host (F32, `env.manifestFiles`), parsed, by
 * server identity. @throws ManifestFileError for a file that is not `catsim.manifests.v1` (a
 * defect of the world, which the guard reports as the core's failure).
 */
function manifestFilesOf(texts: Readonly<Record<string, string>>): Map<string, ManifestFile> {
  return new Map(Object.entries(texts).map(([identity, text]) => [identity, parseManifestFile(text, identity)]));
}

class ReferenceAdapter implements CoreAdapter {
  readonly #host: CatalogHost;
  readonly #wrap: (source: ConnectedPageSource) => PageSource;
  readonly #surfaceParts: SurfaceParts;
  readonly #ignoreEmergencyDisable: boolean;
  readonly #Connector: typeof EitherEraConnector;
  readonly #acknowledgementWait: AcknowledgementWait;
  readonly #ignoreDeprecation: boolean;
  readonly #assumeAliasMigration: boolean;
  readonly #disabledAsSunset: boolean;
  readonly #announceAsNoNewBinding: boolean;
  readonly #misreportRemoval: boolean;

  constructor(env: CoreEnvironment, variant: ReferenceVariant) {
    const Host = hostWithSeams(variant);
    this.#Connector = variant.connector ?? EitherEraConnector;
    // A listen stream's acknowledgement is waited for two round trips at the scenario's largest
    // latency (one is the least an acknowledgement takes, and a timer due at the very instant it
    // arrives would win): a server that never acknowledges (F27) then gets a connection open without push,
    // and the core learns of changes by listing again. Waiting longer holds the refresh a
    // list_changed asked for (seed 1 round 125 of modern waited one scan timeout, 1,500 ms, for
    // a reconnect's acknowledgement: I19 REFRESH_STARVED).
    this.#acknowledgementWait = {
      timeoutMs: 4 * env.bounds.latencyMsMax,
      after: (delayMs, fn) => {
        const task = env.scheduler.after(delayMs, fn);
        return () => env.scheduler.cancel(task);
      },
    };
    this.#surfaceParts =
      variant.surfaceParts === undefined ? REFERENCE_PARTS : { ...REFERENCE_PARTS, ...variant.surfaceParts };
    this.#wrap = variant.wrapSource ?? ((source) => source);
    this.#ignoreEmergencyDisable = variant.ignoreEmergencyDisable === true;
    this.#ignoreDeprecation = variant.ignoreDeprecation === true;
    this.#assumeAliasMigration = variant.assumeAliasMigration === true;
    this.#disabledAsSunset = variant.disabledAsSunset === true;
    this.#announceAsNoNewBinding = variant.announceAsNoNewBinding === true;
    this.#misreportRemoval = variant.misreportRemoval === true;
    const store = storeOf(env, variant);
    const wrapCapabilities = variant.wrapCapabilityStore ?? ((capabilities: CapabilityStore) => capabilities);
    this.#host = new Host(
      // src/ports.ts types an observation loosely (`type` plus fields); the recorder holds it to the trace contract.
      {
        clock: env.clock,
        scheduler: env.scheduler,
        random: env.random,
        sink: { emit: (observation) => env.sink.emit(observation as CoreObservation) },
        store,
        capabilities: wrapCapabilities(capabilityStoreOf(store)),
        memos: THREAD_MEMOS,
      },
      {
        limits: {
          pageCountMax: env.bounds.pageCountMax,
          byteCountMax: env.bounds.byteCountMax,
          scanTimeoutMs: env.bounds.scanTimeoutMs,
        },
        refresh: { ...env.timings, generationTtlMs: env.bounds.generationTtlMs },
        trust: {
          ...DEFAULT_TRUST,
          effectClasses: { ...env.effectClasses },
          toolCountMax: env.bounds.toolCountMax,
          catalogBytesMax: env.bounds.catalogBytesMax,
        },
        leaseKey: env.leaseKey,
        policyPollMs: env.policyPollMs,
        policySource: { poll: (audience) => env.policySource.poll(audienceName(audience)) },
        confirmations: env.confirmations,
        // Scan ids are unique in a round: a boot after a host restart (F18) numbers its own.
        ...(env.disk === undefined || env.disk.boot === 0 ? {} : { scanIdPrefix: `boot${env.disk.boot}-scan-` }),
        ...(env.manifestFiles === undefined ? {} : { manifestFiles: manifestFilesOf(env.manifestFiles) }),
      },
    );
  }

  createClient(): Client {
    return new Client({ ...REFERENCE_CLIENT }, { capabilities: {}, jsonSchemaValidator: SHARED_VALIDATOR });
  }

  attach(session: SessionSpec): void {
    const refreshers: CatalogRefresher[] = [];
    // Either era: legacy (2025-11-25) until a server refuses `initialize` for its version, then
    // modern (2026-07-28: no initialize, the request envelope, a subscriptions/listen stream).
    const connector = new this.#Connector(
      session.connector,
      () => this.createClient(),
      REFERENCE_CLIENT,
      this.#acknowledgementWait,
    );
    const connected = new ConnectedPageSource(
      connector,
      () => {
        for (const refresher of refreshers) refresher.onListChanged();
      },
      () => {
        for (const refresher of refreshers) refresher.onConnectionLost();
      },
    );
    const source = this.#wrap(connected);
    for (let i = 0; i < session.refreshers; i += 1) {
      refreshers.push(
        this.#host.attach(
          source,
          { tenant: session.tenant, role: session.role },
          { endpointDigest: session.endpointDigest, protocolVersion: PROTOCOL_VERSION },
        ),
      );
    }
    void connected.open().then(() => {
      for (const refresher of refreshers) refresher.start();
    });
  }

  disclose(session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const served = this.#host.disclose(session, { tenant, role }, identity);
    if (!served.ok) return served;
    const { record } = served;
    return {
      ok: true,
      key: record.key,
      generation: record.catalogGeneration,
      snapshotDigest: record.snapshotDigest,
      tools: record.snapshot.tools.map((tool) => ({ name: tool.name, descriptorDigest: tool.descriptorDigest })),
    };
  }

  async call(request: SimCallRequest): Promise<void> {
    await this.#host.call({
      callId: request.callId,
      session: request.session,
      principal: request.principal,
      audience: { tenant: request.tenant, role: request.role },
      identity: request.identity,
      plan: { ...request.plan, planId: request.planId, key: parseKey(request.plan.key) },
      arguments: request.arguments,
      ...(request.confirmationToken === undefined ? {} : { confirmationToken: request.confirmationToken }),
      resourceScope: `session:${request.session}`,
    });
  }

  pushPolicy(update: SimPolicyUpdate): void {
    const [tenant, role] = splitAudience(update.audience);
    this.#host.policy.push({ audience: { tenant, role }, epoch: update.epoch, grants: update.grants });
  }

  stop(): void {
    this.#host.stop();
  }

  /**
   * A rollback trigger (F19): `CatalogHost.rollback` for the trigger's key, with the trigger's
   * kind as the reason (one policy poll, then one CAS back or DISABLED; src/host.ts).
   */
  async rollback(trigger: RollbackTrigger): Promise<void> {
    await this.#host.rollback({ tenant: trigger.tenant, role: trigger.role }, trigger.identity, trigger.kind);
  }

  /** An operator's emergency disable (F26): the host's capability registry disables the tool's versions, now and later. */
  emergencyDisable(order: EmergencyDisableOrder): void {
    if (this.#ignoreEmergencyDisable) return;
    this.#host.capabilities?.disableTool(order.identity, order.tool, order.reason);
  }

  /**
   * An operator's deprecation (F31 at `no-new-binding`, F35 at `announce`, `sunset` and
   * `disabled`): the host's capability registry moves those versions to the stage; from
   * `no-new-binding` on new bundles leave them out, from `sunset` on new runs do not pin them, and
   * at `disabled` no call of them runs (at `announce` nothing is refused).
   */
  deprecate(order: DeprecationOrder): void {
    const stage = order.stage ?? 'no-new-binding';
    if (this.#ignoreDeprecation && stage === 'no-new-binding') return;
    const taken =
      this.#disabledAsSunset && stage === 'disabled'
        ? 'sunset'
        : this.#announceAsNoNewBinding && stage === 'announce'
          ? 'no-new-binding'
          : stage;
    this.#host.capabilities?.deprecateListed(order.identity, order.tool, order.descriptorDigests, order.reason, taken);
  }

  /**
   * An operator's removal (F35): the host's capability registry removes the versions of those
   * digests unless one is not disabled or something references it (its usage graph: aliases,
   * bundles not retired, runs not ended), and the answer says which.
   */
  remove(order: RemovalOrder): RemovalAnswer {
    const capabilities = this.#host.capabilities;
    if (capabilities === undefined)
      return { removed: false, code: 'NO_REGISTRY', reason: 'this host keeps no capability registry' };
    const outcome = capabilities.removeListed(order.identity, order.tool, order.descriptorDigests, order.reason);
    if (this.#misreportRemoval) return { removed: false, code: 'REFERENCED', reason: 'reported referenced' };
    return outcome.ok ? { removed: true } : { removed: false, code: outcome.code, reason: outcome.reason };
  }

  /**
   * The operator's backup endpoint of a catalog key (F37): a connection of its own (either era, as
   * `attach`'s), never scanned; the host fails over to it only while the key's connection is down
   * and only when it lists the contract the call's run pinned (src/host.ts `attachBackup`).
   */
  attachBackup(backup: BackupSpec): void {
    const connector = new this.#Connector(
      backup.connector,
      () => this.createClient(),
      REFERENCE_CLIENT,
      this.#acknowledgementWait,
    );
    this.#host.attachBackup(
      new ConnectedPageSource(connector),
      { tenant: backup.tenant, role: backup.role },
      backup.identity,
    );
  }

  /**
   * An operator's alias order (F34): the host's capability registry points the tool's production
   * alias at the release the order's manifest file describes (refused across a breaking diff
   * without a migration), or rolls it back; runs started afterwards bind the new target. A file
   * that does not parse, or a refused order, leaves the alias where it was.
   */
  alias(order: AliasOrder): void {
    const capabilities = this.#host.capabilities;
    if (capabilities === undefined) return;
    const note = this.#assumeAliasMigration ? (order.migration ?? 'assumed') : order.migration;
    const migration = note === null ? {} : { migration: note };
    if (order.action === 'rollback') {
      capabilities.alias({ identity: order.identity, toolName: order.tool, action: 'rollback', reason: order.reason });
      return;
    }
    let entry: ReturnType<typeof operatorEntryOf>;
    try {
      entry = operatorEntryOf(parseManifestFile(order.manifestFile ?? '', 'alias order'), order.tool);
    } catch (error) {
      if (error instanceof ManifestFileError) return;
      throw error;
    }
    capabilities.alias({
      identity: order.identity,
      toolName: order.tool,
      action: 'set',
      descriptorDigest: order.descriptorDigest ?? '',
      ...(entry === undefined ? {} : { entry }),
      ...migration,
      reason: order.reason,
    });
  }

  /**
   * One model turn through the host's tool surface stage (src/surface/, docs/SURFACE.md): the
   * admission facts of the generation served now (the one `disclose` has just shown) and the
   * host's grants, the world's hooks, `late` between the checks, the world's model as `send`.
   * Settlement goes through the world's ledger; its error for a second settlement reaches the world.
   * A host that holds no policy for the audience yet (a boot that has just restarted, issue 36)
   * polls it once before it reads the facts: an unknown grant is never shown as an empty one.
   */
  async modelTurn(turn: ModelTurn): Promise<void> {
    const audience = { tenant: turn.tenant, role: turn.role };
    if (this.#host.policy.epoch(audience) === 0) await this.#host.policy.pollNow(audience);
    const facts = admissionFacts({
      session: turn.session,
      served: this.#host.serve(audience, turn.identity),
      audience,
      policy: this.#host.policy,
    });
    if (!facts.ok) {
      turn.ledger.preDispatchRejected({ code: 'NO_ADMISSION_FACTS' });
      return;
    }
    const stage = new SurfaceStageEngine<unknown>({ hooks: turn.hooks as readonly SurfaceHook[] }, this.#surfaceParts);
    const owner = { ledger: turnLedger(turn), reservation: { requestId: turn.requestId, session: turn.session } };
    const prepared = await stage.prepare({
      owner,
      facts: facts.facts,
      context: turn.context,
      ...(turn.capacity === undefined ? {} : { capacity: turn.capacity }),
    });
    if (!prepared.ok) return;
    await turn.late(prepared.request);
    await stage.dispatch(prepared.preparation, prepared.request, (request) => turn.model(request));
  }
}

/** The world's ledger as the stage's `RequestLedger` port (the world reserved the request itself). */
function turnLedger(turn: ModelTurn): RequestLedger {
  return {
    reserve: () => {
      throw new TypeError('the world reserves model requests itself');
    },
    dispatched: (_reservation, record) => turn.ledger.dispatched(record),
    preDispatchRejected: (_reservation, rejection) => turn.ledger.preDispatchRejected(rejection),
  };
}

/** `<identity>|<tenant>.<role>` back into its parts (the identity may itself contain `|`). */
function parseKey(key: string): CatalogKey {
  const bar = key.lastIndexOf('|');
  const [tenant, role] = splitAudience(key.slice(bar + 1));
  return { identity: key.slice(0, bar), tenant, role };
}

function splitAudience(audience: string): [string, string] {
  const dot = audience.indexOf('.');
  return [audience.slice(0, dot), audience.slice(dot + 1)];
}
