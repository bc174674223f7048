/**
 * The catalog core as a host embeds it: one registry, one revision memory per catalog key, one
 * refresh loop per (connection, audience class), one policy state, one disclosure ledger and one
 * admission gate.
 *
 * Order of calls: construct with ports and configuration; for each connection and audience,
 * `attach(source, audience, endpoint)` returns its refresher; call `start()` on it. Feed policy
 * pushes to `policy.push` (polling runs by itself when `policySource` is configured). Show a
 * session its catalog with `disclose(session, audience, identity)` (the only way a tool becomes
 * disclosed), then make its calls with `call(request)`. Read the published catalog through
 * `registry.active(key)` only. `stop()` ends all background work.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PIN_META_KEY,
  LEASE_META_KEY,
  OUTPUT_SCHEMA_VIOLATION,
  type CallOutcome,
  type OutputCheck,
  type RefusalCode,
} from './admission/codes.ts';
import { DisclosureLedger, type DisclosureEntry } from './admission/disclosure-ledger.ts';
import type { AdmittedCall, CallRefusalCode, EndpointOffer, Outcome } from './capability/capability-registry.ts';
import type { CapabilityStore } from './capability/capability-store.ts';
import { HostCapabilities } from './capability/host-capabilities.ts';
import type { ManifestFile } from './capability/manifest-file.ts';
import { dispatchCall, type CallParams, type DispatchResult } from './admission/dispatch.ts';
import type { AdmissionGate, CallRequest, ConfirmationVerifier, GateDecision } from './admission/gate.ts';
import {
  DEFAULT_LEASE_ID_PREFIX,
  DEFAULT_LEASE_TTL_MS,
  LeaseIssuer,
  type LeaseKey,
  type SignedLease,
} from './admission/lease.ts';
import { DEFAULT_POLICY_POLL_MS, PolicyState, type PolicySource } from './admission/policy.ts';
import type { ScanLimits } from './discovery/config.ts';
import { descriptorDigestOfText } from './snapshot/digests.ts';
import type { PageSource } from './discovery/page-source.ts';
import { CatalogRefresher, type EndpointInfo, type RefreshConfig, type RefresherDeps } from './discovery/refresher.ts';
import { RevisionWatch } from './discovery/revision-watch.ts';
import { REFERENCE_SEAMS, type CoreSeams } from './internal/seams.ts';
import { CoreMemos, DEFAULT_MEMO_SIZES, type MemoSizes } from './memos.ts';
import { audienceName, keyName, type AudienceClass, type CatalogKey } from './keys.ts';
import type { Clock, ObservationSink, Random, Scheduler } from './ports.ts';
import type { CatalogRegistry, RollbackResult, ServeResult } from './registry/registry.ts';
import { openSqliteStore } from './registry/sqlite-store.ts';
import type { CallReceipt, GenerationRecord, RegistryStore } from './registry/store.ts';
import type { SnapshotTool } from './snapshot/snapshot.ts';
import { ArgumentValidator } from './validation/argument-validator.ts';
import { OutputValidator, type OutputVerdict } from './validation/output-validator.ts';
import { trustDigest, type TrustConfig } from './validation/trust.ts';

/** Default time a sent `tools/call` may take before its outcome is `unknown`, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/** The ports a host passes in. */
export interface HostPorts {
  clock: Clock;
  scheduler: Scheduler;
  random: Random;
  sink: ObservationSink;
  /**
   * Where the registry, the lease ledger and the call receipts live, when the host brings its own
   * store (its owner closes it after `stop()`). When absent the host opens the durable SQLite store
   * at `config.storePath` itself ({@link HostConfig.storePath}). A host that may lose its catalog,
   * leases and receipts with the process (unit tests, the simulator) says so by passing
   * `new InMemoryRegistryStore()` (src/registry/store.ts): there is no silent in-memory default.
   */
  store?: RegistryStore;
  /**
   * The memos of digests, verdicts and compiles (src/memos.ts), when the host shares them with
   * other hosts of the process (the simulator builds a host per round and hands each the same
   * memos). When absent the host builds its own from `config.memoSizes`. Not with `memoSizes`.
   */
  memos?: CoreMemos;
  /**
   * Where the capability registry (SPEC section 9) keeps tool versions, bundles, runs and
   * execution receipts, when the host brings its own (`new InMemoryCapabilityStore()`, or
   * `SqliteRegistryStore.capabilities()` of the store passed in `store`). When absent, a host that
   * opened its own SQLite store at `config.storePath` uses that file's capability tables; a host
   * given `store` without `capabilities` has no capability registry, and its calls are judged by
   * the gate alone.
   */
  capabilities?: CapabilityStore;
}

/**
 * Configuration of a host. Discovery reads its policy epochs from the host's own
 * {@link PolicyState} (`CatalogHost.policy`), the same state the gate reads. Nothing here turns a
 * defence off: the parts checker-validation mutants replace are internal seams
 * (src/internal/seams.ts), not configuration.
 */
export interface HostConfig {
  limits: ScanLimits;
  refresh: RefreshConfig;
  trust: TrustConfig;
  /** Prefix of scan ids (`<prefix><n>`), so several hosts in one trace stay apart. */
  scanIdPrefix?: string;
  /**
   * The SQLite database file of the registry, the lease ledger and the call receipts (created when
   * absent; its directory must exist), used when `ports.store` is absent: the host opens it with
   * `openSqliteStore({ path })` (src/registry/sqlite-store.ts), holds its lock while it runs and
   * closes it in `stop()`. This is the default store of a host that embeds the core: a publish,
   * its catalog receipt, the lease ledger and every call receipt survive a restart. Not with
   * `ports.store`; `:memory:` is refused (it is not durable).
   */
  storePath?: string;
  /**
   * The HMAC-SHA256 key of leases (SPEC section 2; in the simulator the world's). No default:
   * `call` rejects with a TypeError while it is absent (discovery and `disclose` work without it).
   */
  leaseKey?: LeaseKey;
  /** Lifetime of a lease from its admission, ms. Default {@link DEFAULT_LEASE_TTL_MS} (5,000). */
  leaseTtlMs?: number;
  /** Prefix of lease ids (`<prefix><n>`). Default {@link DEFAULT_LEASE_ID_PREFIX} (`lease-`). */
  leaseIdPrefix?: string;
  /** Wait for a sent call's answer, ms; then its outcome is `unknown`. Default {@link DEFAULT_CALL_TIMEOUT_MS} (30,000). */
  callTimeoutMs?: number;
  /** Interval between two polls of one audience's policy, ms. Default {@link DEFAULT_POLICY_POLL_MS} (10,000). */
  policyPollMs?: number;
  /** The policy service to poll. Default: none (pushes only). */
  policySource?: PolicySource;
  /** Checks human confirmations. Default: none (no confirmation is valid, so UNVERSIONED_WRITE always refuses). */
  confirmations?: ConfirmationVerifier;
  /**
   * Entries a generation of the host's own memos (src/memos.ts), used when `ports.memos` is
   * absent. Default {@link DEFAULT_MEMO_SIZES}: 16,384 descriptors and 1,000 compiled validators.
   * A host serving more than about 16,000 distinct descriptors raises `descriptorEntries`; one
   * that must keep its heap small lowers both. Not with `ports.memos`.
   */
  memoSizes?: MemoSizes;
  /**
   * The operator's manifest files (`catsim.manifests.v1`, read with `parseManifestFile`,
   * src/capability/manifest-file.ts), by the server identity whose tools each describes. Used only
   * with a capability registry ({@link HostPorts.capabilities}); a server without a file gets the
   * safest defaults. Default: none.
   */
  manifestFiles?: ReadonlyMap<string, ManifestFile>;
}

/**
 * The end of one `call`: refused by the gate or by the capability registry (nothing was sent; a
 * registry refusal carries the registry's sentence, e.g. the status of an emergency-disabled
 * version), or sent with its outcome.
 */
export type CallResult =
  | { admitted: false; callId: string; code: RefusalCode; argumentErrors?: string[] }
  | { admitted: false; callId: string; code: CallRefusalCode; reason: string }
  | ({ admitted: true; callId: string; leaseId: string; outcome: CallOutcome } & Omit<DispatchResult, 'outcome'> &
      CheckedOutput);

/**
 * What the output check added to a sent call's end (SPEC section 9): `output` when the result
 * carried `structuredContent` of a tool whose admitted version declares an output schema; for a
 * violating result, `resultCode` {@link OUTPUT_SCHEMA_VIOLATION} and the validator's errors, with
 * the outcome `error` and no `result`.
 */
export interface CheckedOutput {
  output?: OutputCheck;
  resultCode?: typeof OUTPUT_SCHEMA_VIOLATION;
  outputErrors?: string[];
}

/** The parts of a request that name its catalog key. */
type KeyOf = Pick<CallRequest, 'audience' | 'identity'>;

/** A page source that can also carry calls: it exposes the SDK Client of its live connection. */
interface CallCapableSource extends PageSource {
  currentClient(): Client | undefined;
  open(): Promise<boolean>;
}

function isCallCapable(source: PageSource): source is CallCapableSource {
  const candidate = source as Partial<CallCapableSource>;
  return typeof candidate.currentClient === 'function' && typeof candidate.open === 'function';
}

/** The reference catalog core. */
export class CatalogHost {
  readonly registry: CatalogRegistry;
  /** Grants and epochs per audience; discovery's epoch guard and the gate both read it. */
  readonly policy: PolicyState;
  /** What each session was shown. */
  readonly disclosures = new DisclosureLedger();
  /** The admission gate (SPEC section 7). */
  readonly gate: AdmissionGate;
  readonly #watches = new Map<string, RevisionWatch>();
  readonly #sources = new Map<CatalogRefresher, PageSource>();
  readonly #leases: LeaseIssuer | undefined;
  readonly #outputs: OutputValidator;
  readonly #store: RegistryStore;
  /** The store the host opened from `config.storePath` (it closes it in `stop()`), else null. */
  #ownStore: { close(): void } | null = null;
  /** The capability tables of the store the host opened from `config.storePath`, else undefined. */
  #ownCapabilities: CapabilityStore | undefined;
  readonly refreshers: CatalogRefresher[] = [];
  readonly #walkSeams: RefresherDeps['seams'];
  readonly #refresherClass: typeof CatalogRefresher;
  /** This host's memos: its own (from `config.memoSizes`) or the ones `ports.memos` shares. */
  readonly #memos: CoreMemos;
  /**
   * The capability registry (SPEC section 9): versions of each disclosed generation's tools, a run
   * per session and disclosed generation, and a receipt per call sent. Undefined when the host has
   * none ({@link HostPorts.capabilities}).
   */
  readonly capabilities: HostCapabilities | undefined;
  #scans = 0;
  /** The operator's backup endpoints of each catalog key (`keyName`), in the order attached ({@link attachBackup}). */
  readonly #backups = new Map<string, CallCapableSource[]>();
  /** How many contract checks of backups have listed tools (their scan ids are `contract-check-<n>`). */
  #contractChecks = 0;
  /**
   * The key identity a backup the registry admitted stands in for, set only while the gate
   * decides that call (synchronously), so the gate's identity check reads the key's identity.
   */
  #standIn: string | undefined;

  /**
   * @throws TypeError when neither `ports.store` nor `config.storePath` names a store, when both
   *   do, or when `config.storePath` is not a non-empty path or names an in-memory database
   *   (`:memory:`: not durable); also when both `ports.memos` and `config.memoSizes` are given;
   *   RangeError when a size of `config.memoSizes` is not a positive integer;
   *   RegistryStoreError (src/registry/store-error.ts) when the database at `config.storePath`
   *   cannot be opened: not SQLite, another application's, from a newer schema, locked by another
   *   host, corrupt, or better-sqlite3 missing. Never an empty registry in its place.
   */
  constructor(
    private readonly ports: HostPorts,
    private readonly config: HostConfig,
  ) {
    const seams = this.seams();
    this.#walkSeams = { walk: seams.walk, contentChecks: seams.contentChecks };
    this.#refresherClass = seams.refresher;
    if (ports.store !== undefined && config.storePath !== undefined)
      throw new TypeError(
        'CatalogHost takes one registry store: config.storePath (the host opens it) or ports.store (its owner opens it), not both',
      );
    if (ports.memos !== undefined && config.memoSizes !== undefined)
      throw new TypeError(
        'CatalogHost takes its memos one way: config.memoSizes (the host builds them) or ports.memos (shared with other hosts), not both',
      );
    this.#memos = ports.memos ?? new CoreMemos(config.memoSizes ?? DEFAULT_MEMO_SIZES);
    this.#store = ports.store ?? this.#openStore(config.storePath);
    const capabilityStore = ports.capabilities ?? this.#ownCapabilities;
    this.capabilities =
      capabilityStore === undefined
        ? undefined
        : new HostCapabilities({ clock: ports.clock, store: capabilityStore, manifestFiles: config.manifestFiles });
    this.registry = new seams.registry(this.#store, ports.clock, ports.sink, this.#memos);
    this.policy = new PolicyState({
      scheduler: ports.scheduler,
      sink: ports.sink,
      source: config.policySource,
      pollIntervalMs: config.policyPollMs ?? DEFAULT_POLICY_POLL_MS,
    });
    this.#outputs = new OutputValidator(config.trust, this.#memos.validation);
    this.gate = new seams.gate({
      registry: this.registry,
      policy: this.policy,
      ledger: this.disclosures,
      trust: config.trust,
      validator: new ArgumentValidator(config.trust, this.#memos.validation),
      confirmations: config.confirmations,
      isQuarantined: (key) => this.#isQuarantined(key),
      connectionIdentity: (request) => this.#standIn ?? this.#connectionIdentity(request),
    });
    this.#leases =
      config.leaseKey === undefined
        ? undefined
        : new LeaseIssuer({
            key: config.leaseKey,
            ttlMs: config.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
            idPrefix: config.leaseIdPrefix ?? DEFAULT_LEASE_ID_PREFIX,
            firstIndex: this.#store.issuedLeaseCount(),
            clock: ports.clock,
          });
  }

  /**
   * The parts of the core it is built from: the reference ones. Internal seam, not configuration:
   * only checker-validation mutants override it (cores/reference.ts), to remove exactly one
   * defence. Called once, by the constructor, before any field of a subclass is set, so an
   * override must return a value it does not compute from instance state.
   */
  protected seams(): CoreSeams {
    return REFERENCE_SEAMS;
  }

  /**
   * Creates the refresh loop of one connection and audience class (not started), and starts
   * polling the audience's policy. Calls go out through `source` when it exposes its Client
   * (`currentClient()` and `open()`, as {@link ConnectedPageSource} does); through any other
   * source every call is refused SERVER_DISABLED (no connection to carry it).
   */
  attach(source: PageSource, audience: AudienceClass, endpoint: EndpointInfo): CatalogRefresher {
    const refresher = new this.#refresherClass({
      source,
      audience,
      endpoint,
      registry: this.registry,
      watchFor: (key) => this.watchFor(key),
      nextScanId: () => `${this.config.scanIdPrefix ?? 'scan-'}${this.#scans++}`,
      policy: this.policy,
      trust: this.config.trust,
      limits: this.config.limits,
      refresh: this.config.refresh,
      clock: this.ports.clock,
      scheduler: this.ports.scheduler,
      random: this.ports.random,
      sink: this.ports.sink,
      memos: this.#memos,
      seams: this.#walkSeams,
    });
    this.refreshers.push(refresher);
    this.#sources.set(refresher, source);
    this.policy.track(audience);
    return refresher;
  }

  /**
   * Gives the catalog key of `audience` on the server presenting `identity` a backup endpoint
   * (seed 004: a backup is used only if it serves the same contract version): `source`, a
   * connection to another deployment of the same server (its own identity and build), is never
   * scanned into the key's catalog. When a call finds the key's own connection down (after one
   * reconnect), the host lists the tool on each backup (a contract check, one page walk per call),
   * offers the registry those endpoints, and sends the call through the first that serves the
   * version the session's run pinned; with none, the call is refused `VERSION_INCOMPATIBLE`.
   * Without a capability registry backups are never used. Backups are offered in the order attached.
   * @throws TypeError when `source` cannot carry calls (no `currentClient()` and `open()`).
   */
  attachBackup(source: PageSource, audience: AudienceClass, identity: string): void {
    if (!isCallCapable(source)) throw new TypeError('a backup endpoint must carry calls: currentClient() and open()');
    const name = keyName({ identity, ...audience });
    const backups = this.#backups.get(name) ?? [];
    backups.push(source);
    this.#backups.set(name, backups);
  }

  /** The revision memory of a key, shared by every refresher of that key. */
  watchFor(key: CatalogKey): RevisionWatch {
    const name = keyName(key);
    let watch = this.#watches.get(name);
    if (watch === undefined) this.#watches.set(name, (watch = new RevisionWatch(this.#memos)));
    return watch;
  }

  /**
   * The generation a session of `audience` on the server presenting `identity` may use now, or
   * why there is none (SPEC sections 6-7): a key whose refresh loop is quarantined is served
   * nothing (operator attention, no automatic admission).
   */
  serve(audience: AudienceClass, identity: string): ServeResult {
    const key: CatalogKey = { identity, ...audience };
    if (this.#isQuarantined(key)) return { ok: false, code: 'SERVER_DISABLED' };
    return this.registry.serve(key);
  }

  /**
   * {@link serve}, and records in the disclosure ledger that the served generation showed every
   * one of its tools to `session` (SPEC section 7: a tool is disclosed to a session only through
   * this call). With a capability registry it also pins the session's run on that generation
   * (SPEC section 9): the versions of its tools are registered, its bundle built, and the run's
   * calls are judged against exactly those versions. Nothing is recorded when nothing is served.
   * @throws the capability store's write error.
   */
  disclose(session: string, audience: AudienceClass, identity: string): ServeResult {
    const served = this.serve(audience, identity);
    if (served.ok) {
      this.disclosures.record(session, { identity, ...audience }, served.record);
      this.capabilities?.pin(session, keyName({ identity, ...audience }), served.record);
    }
    return served;
  }

  /**
   * Makes one `tools/call` through the admission gate (SPEC section 7):
   * 1. barrier: if a `tools/list_changed` arrived for the caller's key since its last settled
   *    refresh, waits until the refresh it triggered settles (and reconnects a dropped connection);
   * 2. decides, and emits `gate_decision`; a refusal returns at once and nothing is sent;
   * 3. on ADMIT issues a lease (recorded in the store's lease ledger), consumes it and writes the
   *    receipt in one store write, emits `receipt`, and sends the call through the key's SDK
   *    Client with the revision pin (omitted for an unversioned generation) and the lease in
   *    `params._meta`: no call leaves the core before its receipt is on record;
   * 4. when the answer comes (or `callTimeoutMs` passes) records the outcome in the store and
   *    emits `receipt_outcome`.
   * The request is copied on entry: what the caller changes afterwards is neither checked nor sent.
   * Resolves with the decision and outcome; never rejects for anything a server does.
   * @throws TypeError (as a rejection) when the host has no `leaseKey`; DataCloneError when the
   *   request holds values with no structured-clone form (arguments must be JSON); the store's
   *   write error (before the call is sent, it is not sent).
   */
  async call(callerRequest: CallRequest): Promise<CallResult> {
    const leases = this.#leases;
    if (leases === undefined) throw new TypeError('CatalogHost.call needs config.leaseKey');
    const request = structuredClone(callerRequest);
    // The plan is a run bound to its generation: that generation stays readable (retained, not
    // RETIRED) until the call is refused or its outcome is in (SPEC section 6, retention).
    const planKey = request.plan.key;
    this.registry.retain(planKey, request.plan.generation);
    try {
      return await this.#decideAndSend(request, leases);
    } finally {
      this.registry.release(planKey, request.plan.generation);
    }
  }

  async #decideAndSend(request: CallRequest, leases: LeaseIssuer): Promise<CallResult> {
    await this.#barrier(request);
    const failover = await this.#failoverOffers(request);
    const capability = this.#judgeCapability(request, failover?.offers);
    // The registry is asked first: a version that is gone or disabled, or a tool the session's run
    // does not pin, is refused whatever the gate would say. Drift (VERSION_INCOMPATIBLE: the
    // endpoint no longer lists the pinned descriptor) is the gate's STALE_CATALOG, which keeps its
    // code; the registry judges nothing else the gate judges, so each gate defence stays one place.
    // On failover the endpoints offered are backups only: no backup serving the pinned contract is
    // the registry's VERSION_INCOMPATIBLE, which no gate check would see (the gate knows no backup).
    const refusal = capability?.ok === false && (failover !== undefined || capability.code !== 'VERSION_INCOMPATIBLE');
    if (refusal) return this.#refuseCapability(request, capability);
    const carrier = capability?.ok === true && failover !== undefined ? failover.carrier(capability) : undefined;
    const decision = this.#decide(request, carrier === undefined ? undefined : request.identity);
    this.#emitDecision(request, decision);
    if (decision.verdict !== 'ADMIT') return refused(request, decision.verdict, decision.argumentErrors);
    const client = carrier ?? this.#liveClient(request);
    const lease = this.#issueLease(leases, request, decision);
    const params = this.#callParams(request, decision, lease);
    this.#consumeLease(request, decision, lease);
    if (capability?.ok === true) this.capabilities?.recordExecution(capability, lease.leaseId);
    this.emitReceipt(request, decision, lease, this.#receiptVersion(request, capability));
    const answered = await dispatchCall(client, params, {
      scheduler: this.ports.scheduler,
      callTimeoutMs: this.config.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    });
    const sent = this.#checkOutput(answered, this.#admittedOutputSchema(decision, capability));
    if (!this.#store.recordOutcome(lease.leaseId, sent.outcome, this.ports.clock.now()))
      throw new Error(`receipt of ${lease.leaseId} missing or settled twice`);
    this.ports.sink.emit({
      type: 'receipt_outcome',
      leaseId: lease.leaseId,
      outcome: sent.outcome,
      ...(sent.output === undefined ? {} : { output: sent.output }),
    });
    return { admitted: true, callId: request.callId, leaseId: lease.leaseId, ...sent };
  }

  /** The gate's decision; with `standIn`, a backup the registry admitted presents the key's identity. */
  #decide(request: CallRequest, standIn: string | undefined): GateDecision {
    this.#standIn = standIn;
    try {
      return this.gate.decide(request);
    } finally {
      this.#standIn = undefined;
    }
  }

  /**
   * The backups of the caller's key offered to the registry (SPEC section 9), and how to find the
   * Client of the one admitted: undefined unless the host has a registry, the key has backups, and
   * its own connection is down after the barrier's reconnect. Each backup is connected if it is
   * not, and its listing walked (at most `limits.pageCountMax` pages, `scanTimeoutMs` each) for the
   * plan's tool: a backup that cannot be reached or lists no tool of that name is not offered.
   */
  async #failoverOffers(
    request: CallRequest,
  ): Promise<{ offers: EndpointOffer[]; carrier: (call: AdmittedCall) => Client | undefined } | undefined> {
    const capabilities = this.capabilities;
    const backups = this.#backups.get(keyName({ identity: request.identity, ...request.audience }));
    if (capabilities === undefined || backups === undefined) return undefined;
    if (this.#channel(request)?.currentClient() !== undefined) return undefined;
    // A key whose catalog no whole list of this process has caught up with (since its start or the
    // last change announced): the active generation may be stale, and a backup cannot say what the
    // primary lists now. No failover; the gate refuses SERVER_DISABLED. So for a key no loop of this
    // process has reached yet (its connections present no identity).
    const refreshers = this.#refreshersOf(request);
    if (refreshers.length === 0 || refreshers.some((refresher) => refresher.changedSinceProven)) return undefined;
    const offers: EndpointOffer[] = [];
    const clients = new Map<string, Client>();
    for (const backup of backups) {
      const listed = await this.#listedDigest(backup, request.plan.toolName);
      const client = backup.currentClient();
      if (listed === undefined || client === undefined) continue;
      const descriptorDigest = this.backupContract(listed, request);
      const identity = backup.identity();
      const build = client.getServerVersion()?.version ?? 'unknown';
      offers.push({ server: capabilities.serverOf(request.identity), identity, build, descriptorDigest, backup: true });
      clients.set(`${identity}\u0000${build}`, client);
    }
    return { offers, carrier: (call) => clients.get(`${call.endpoint.identity}\u0000${call.endpoint.build}`) };
  }

  /**
   * The descriptor digest a backup's offer names for the call's tool: `listed`, the one the backup
   * lists now (its contract check). Protected so that a checker-validation mutant
   * (`mutant:backup-any-contract`) can remove exactly this defence.
   */
  protected backupContract(listed: string, _request: CallRequest): string {
    return listed;
  }

  /**
   * The descriptor digest of the first tool named `toolName` that `source` lists now (a contract
   * check of a backup), or undefined when it cannot be reached, a page fails, or no tool has that name.
   */
  async #listedDigest(source: CallCapableSource, toolName: string): Promise<string | undefined> {
    if (source.currentClient() === undefined && !(await source.open())) return undefined;
    const scanId = `contract-check-${this.#contractChecks++}`;
    let cursor: string | undefined;
    for (let page = 0; page < this.config.limits.pageCountMax; page += 1) {
      const reply = await source.listPage(cursor, scanId, this.config.limits.scanTimeoutMs);
      if (!reply.ok) return undefined;
      const index = reply.tools.findIndex((tool) => (tool as { name?: unknown } | null)?.name === toolName);
      if (index >= 0) return descriptorDigestOfText(reply.tools[index], reply.toolTexts?.[index], this.#memos);
      if (reply.nextCursor === undefined) return undefined;
      cursor = reply.nextCursor;
    }
    return undefined;
  }

  /**
   * The output schema of the version that ran (SPEC section 9): the admitted version's manifest's
   * when the capability registry admitted one, else the admitted descriptor's (the same schema: a
   * manifest copies it); null when it declares none.
   */
  #admittedOutputSchema(
    decision: GateDecision,
    capability: Outcome<AdmittedCall, CallRefusalCode> | undefined,
  ): Record<string, unknown> | null {
    if (capability?.ok === true) return capability.view.manifest.outputSchema;
    const source = decision.tool?.source as { outputSchema?: unknown } | undefined;
    const schema = source?.outputSchema;
    return typeof schema === 'object' && schema !== null && !Array.isArray(schema)
      ? (schema as Record<string, unknown>)
      : null;
  }

  /**
   * Checks an `ok` result's `structuredContent` against `outputSchema` (MCP 2025-11-25: clients
   * SHOULD validate structured results against the output schema): a violating result ends
   * `error` with {@link OUTPUT_SCHEMA_VIOLATION} and is not passed on; any other end is left as
   * it came, with `output` when checked.
   */
  #checkOutput(sent: DispatchResult, outputSchema: Record<string, unknown> | null): DispatchResult & CheckedOutput {
    const result = sent.result;
    if (sent.outcome !== 'ok' || outputSchema === null || result === undefined || !('structuredContent' in result))
      return sent;
    const verdict = this.validateOutput(outputSchema, result.structuredContent);
    if (verdict.ok) return { ...sent, output: 'conforms' };
    const { result: _dropped, ...rest } = sent;
    return {
      ...rest,
      outcome: 'error',
      output: 'violates',
      resultCode: OUTPUT_SCHEMA_VIOLATION,
      outputErrors: verdict.errors,
    };
  }

  /**
   * Validates a result's `structuredContent` against the output schema of the version that ran
   * (src/validation/output-validator.ts). Protected so that a checker-validation mutant
   * (`mutant:output-unchecked`) can remove exactly this defence.
   */
  protected validateOutput(outputSchema: Record<string, unknown>, structuredContent: unknown): OutputVerdict {
    return this.#outputs.validate(outputSchema, structuredContent);
  }

  /**
   * An operator or monitor trigger (seed 001's rollout rule: the missing-tool rate rose, or a
   * privilege escalation was seen) for the key of `audience` on the server presenting `identity`:
   * polls the audience's policy once (so a lost push cannot make an old generation look
   * authorized), then rolls the pointer back in one CAS to the latest earlier generation that is
   * unexpired and was discovered under the policy epoch, server identity and trust configuration
   * holding now ({@link CatalogRegistry.rollback}); if none qualifies the key becomes DISABLED. The
   * generation judged bad is the one active when the trigger came: one a refresh published during
   * the poll is rolled away with it.
   * The identity holding now is the one the key's live connection presents; without a live
   * connection nothing can prove it, so no generation qualifies. From the rollback on, the gate
   * admits (and leases) only against the new active generation, never the rolled-away one.
   * Resolves with the registry's result (`NOTHING_PUBLISHED` when the key has no generation).
   * @throws the store's write error (as a rejection).
   */
  async rollback(audience: AudienceClass, identity: string, reason: string): Promise<RollbackResult> {
    // The generation the trigger is about: the one active now, before the poll lets a refresh publish.
    const flagged = this.registry.active({ identity, ...audience })?.catalogGeneration;
    await this.policy.pollNow(audience);
    const presented = this.#connectionIdentity({ audience, identity });
    const guards = {
      policyEpoch: this.policy.epoch(audience),
      identity: presented ?? '',
      trustConfigDigest: trustDigest(this.config.trust),
    };
    return this.registry.rollback({ identity, ...audience }, reason, guards, flagged);
  }

  /**
   * Forgets a session's disclosures (it ended) and ends its capability runs; its later calls are
   * refused UNDISCLOSED_TOOL.
   * @throws the capability store's write error.
   */
  endSession(session: string): void {
    this.disclosures.forget(session);
    this.capabilities?.endSession(session);
  }

  /**
   * Stops every refresh loop and every policy poll, and closes the store the host opened from
   * `config.storePath` (a store passed in `ports.store` stays open: its owner closes it). A second
   * `stop()` does nothing more.
   */
  stop(): void {
    for (const refresher of this.refreshers) refresher.stop();
    this.policy.stop();
    this.#ownStore?.close();
    this.#ownStore = null;
  }

  #openStore(path: string | undefined): RegistryStore {
    if (path === undefined)
      throw new TypeError(
        'CatalogHost needs a registry store: set config.storePath (the durable SQLite store) or pass ports.store (new InMemoryRegistryStore() for a catalog that may end with the process)',
      );
    if (typeof path !== 'string' || path === '')
      throw new TypeError(`config.storePath must be a non-empty file path, got ${JSON.stringify(path)}`);
    if (path === ':memory:' || path.startsWith('file::memory:'))
      throw new TypeError(
        'config.storePath names an in-memory SQLite database, which ends with the process: pass ports.store (new InMemoryRegistryStore()) for a catalog that may be lost',
      );
    const store = openSqliteStore({ path });
    this.#ownStore = store;
    this.#ownCapabilities = store.capabilities();
    return store;
  }

  /**
   * Waits until no refresher of the caller's key has a `tools/list_changed` pending and the key's
   * connection is live (reconnecting once if it dropped), with no await between the last check
   * and the caller's decision.
   */
  async #barrier(request: CallRequest): Promise<void> {
    let reconnected = false;
    for (;;) {
      const pending = this.#refreshersOf(request).filter((refresher) => refresher.listChangePending);
      if (pending.length > 0) {
        await Promise.all(pending.map((refresher) => refresher.settled()));
        continue;
      }
      const channel = this.#channel(request);
      if (channel === undefined || channel.currentClient() !== undefined || reconnected) return;
      reconnected = true;
      if (!(await channel.open())) return;
    }
  }

  /** The refreshers of the caller's key: its audience, on a connection presenting its identity. */
  #refreshersOf(request: KeyOf): CatalogRefresher[] {
    const audience = audienceName(request.audience);
    return this.refreshers.filter(
      (refresher) => refresher.audienceName === audience && refresher.identity() === request.identity,
    );
  }

  /** The call-capable source of the caller's key, if one is attached. */
  #channel(request: KeyOf): CallCapableSource | undefined {
    for (const refresher of this.#refreshersOf(request)) {
      const source = this.#sources.get(refresher);
      if (source !== undefined && isCallCapable(source)) return source;
    }
    return undefined;
  }

  /**
   * The Client of the caller's live connection. The gate admits only with one (SERVER_DISABLED
   * otherwise) and nothing is awaited between the decision and this, so a missing Client is a
   * broken invariant of the core.
   */
  #liveClient(request: CallRequest): Client {
    const client = this.#channel(request)?.currentClient();
    if (client === undefined) throw new Error('gate admitted a call without a live connection');
    return client;
  }

  /** The identity the caller's live connection presents now; undefined without one. */
  #connectionIdentity(request: KeyOf): string | undefined {
    const channel = this.#channel(request);
    return channel?.currentClient() === undefined ? undefined : channel?.identity();
  }

  #isQuarantined(key: CatalogKey): boolean {
    const audience = audienceName(key);
    return this.refreshers.some(
      (refresher) =>
        refresher.state === 'quarantined' &&
        refresher.audienceName === audience &&
        refresher.identity() === key.identity,
    );
  }

  /** Issues the lease of an admitted call and records it, unspent, in the store's ledger. */
  #issueLease(leases: LeaseIssuer, request: CallRequest, decision: GateDecision): SignedLease {
    const { record, tool } = admitted(decision);
    const lease = leases.issue({
      key: record.key,
      principal: request.principal,
      session: request.session,
      tool: tool.name,
      resourceScope: request.resourceScope,
      generation: record.catalogGeneration,
      descriptorDigest: tool.descriptorDigest,
      policyEpoch: decision.policyEpoch,
    });
    this.#store.recordLease(lease);
    return lease;
  }

  /**
   * Consumes the lease and writes the call's durable receipt, one store write, just before the
   * call leaves. A fresh lease that cannot be consumed is a broken invariant of the core.
   */
  #consumeLease(request: CallRequest, decision: GateDecision, lease: SignedLease): void {
    const receipt: CallReceipt = { ...receiptOf(request, decision, lease), writtenAt: this.ports.clock.now() };
    if (!this.#store.consumeLease(receipt))
      throw new Error(`lease ${lease.leaseId} was consumed before its call was sent`);
  }

  /** `tools/call` params: name, the (already private) arguments, the pin and the lease. */
  #callParams(request: CallRequest, decision: GateDecision, lease: SignedLease): CallParams {
    const { record, tool } = admitted(decision);
    const meta: Record<string, unknown> = {};
    if (record.snapshot.sourceRevision !== null) meta[PIN_META_KEY] = record.snapshot.sourceRevision;
    meta[LEASE_META_KEY] = { ...lease };
    return { name: tool.name, arguments: request.arguments ?? {}, _meta: meta };
  }

  /**
   * The capability registry's judgment of a call (SPEC section 9): the version pinned by the run
   * of the disclosure that showed the plan's (tool, descriptor digest) to the session, offered the
   * key's live endpoint with the descriptor it lists now, or on failover `failoverOffers` (backups). Undefined without a registry, or when
   * the session was never shown that tool, or the tool has no version (quarantined): the gate
   * refuses those, unless an emergency disable of the whole tool holds (then VERSION_EMERGENCY_DISABLED).
   */
  #judgeCapability(
    request: CallRequest,
    failoverOffers: EndpointOffer[] | undefined,
  ): Outcome<AdmittedCall, CallRefusalCode> | undefined {
    const capabilities = this.capabilities;
    if (capabilities === undefined) return undefined;
    const key: CatalogKey = { identity: request.identity, ...request.audience };
    const { toolName, descriptorDigest } = request.plan;
    const disclosure = this.disclosures.lookup(request.session, key, toolName, descriptorDigest);
    const judged =
      disclosure === undefined
        ? undefined
        : capabilities.judge({
            session: request.session,
            key: keyName(key),
            disclosedGeneration: disclosure.generation,
            toolName,
            descriptorDigest,
            offers: failoverOffers ?? this.#offers(request, key, capabilities),
          });
    // An emergency disable of the whole tool holds for a call the registry has no version for too.
    return judged?.ok === false ? judged : (capabilities.toolRefusal(request.identity, toolName) ?? judged);
  }

  /**
   * The endpoint that could carry a call now: the key's live connection, named as the operator
   * names its server, with its build (`serverInfo.version`) and the descriptor the active
   * generation lists for the plan's tool (the plan's digest preferred). None without a live
   * connection or a listed tool of that name.
   */
  #offers(request: CallRequest, key: CatalogKey, capabilities: HostCapabilities): EndpointOffer[] {
    const channel = this.#channel(request);
    const client = channel?.currentClient();
    const named = this.registry.active(key)?.snapshot.tools.filter((tool) => tool.name === request.plan.toolName);
    const tool = named?.find((candidate) => candidate.descriptorDigest === request.plan.descriptorDigest) ?? named?.[0];
    if (channel === undefined || client === undefined || tool === undefined) return [];
    return [
      {
        server: capabilities.serverOf(request.identity),
        identity: channel.identity(),
        build: client.getServerVersion()?.version ?? 'unknown',
        descriptorDigest: tool.descriptorDigest,
      },
    ];
  }

  /** Refuses a call with the capability registry's code: its `gate_decision` carries it, and nothing is sent. */
  #refuseCapability(request: CallRequest, refusal: { code: CallRefusalCode; reason: string }): CallResult {
    const key: CatalogKey = { identity: request.identity, ...request.audience };
    const record = this.registry.active(key);
    this.ports.sink.emit({
      type: 'gate_decision',
      callId: request.callId,
      planId: request.plan.planId,
      session: request.session,
      key: record?.key ?? keyName(key),
      tool: request.plan.toolName,
      planDescriptorDigest: request.plan.descriptorDigest,
      generation: record?.catalogGeneration ?? null,
      descriptorDigest: null,
      policyEpoch: this.policy.epoch(request.audience),
      decision: refusal.code,
    });
    return { admitted: false, callId: request.callId, code: refusal.code, reason: refusal.reason };
  }

  #emitDecision(request: CallRequest, decision: GateDecision): void {
    this.ports.sink.emit({
      type: 'gate_decision',
      callId: request.callId,
      planId: request.plan.planId,
      session: request.session,
      key: decision.record?.key ?? keyName(decision.key),
      tool: request.plan.toolName,
      planDescriptorDigest: request.plan.descriptorDigest,
      generation: decision.record?.catalogGeneration ?? null,
      descriptorDigest: decision.tool?.descriptorDigest ?? null,
      policyEpoch: decision.policyEpoch,
      decision: decision.verdict,
    });
  }

  /**
   * The version a call's receipt names in the trace (SPEC section 9): for a server the operator
   * described in a manifest file, the registry's exact version (null when the registry admitted
   * no version: a host without a registry, a tool without one); undefined for any other server,
   * whose receipt has no `version` field (its tool ids are the host's own, not the operator's).
   */
  #receiptVersion(
    request: CallRequest,
    capability: Outcome<AdmittedCall, CallRefusalCode> | undefined,
  ): ReceiptVersion | null | undefined {
    if (this.config.manifestFiles?.has(request.identity) !== true) return undefined;
    if (capability?.ok !== true) return null;
    const { toolId, version, manifestDigest } = capability.view;
    return { toolId, version, manifestDigest };
  }

  /**
   * Writes the receipt of a call that leaves the core (SPEC section 7), with the capability
   * version that ran when `version` is not undefined (SPEC section 9); mutants override it.
   */
  protected emitReceipt(
    request: CallRequest,
    decision: GateDecision,
    lease: SignedLease,
    version?: ReceiptVersion | null,
  ): void {
    this.ports.sink.emit({
      type: 'receipt',
      ...receiptOf(request, decision, lease),
      ...(version === undefined ? {} : { version }),
    });
  }
}

/** The capability version a receipt names (SPEC section 9): the operator's tool id, the registry's number, the manifest digest. */
export interface ReceiptVersion {
  toolId: string;
  version: number;
  manifestDigest: string;
}

/**
 * What a call's receipt binds (SPEC section 7): the call, its lease, the generation and descriptor
 * it was admitted against, the policy epoch, the disclosure that showed the tool, and the revision
 * pin. The durable receipt adds the time it was written; the trace's `receipt` event is exactly this.
 */
function receiptOf(request: CallRequest, decision: GateDecision, lease: SignedLease): Omit<CallReceipt, 'writtenAt'> {
  const { record, tool, disclosure } = admitted(decision);
  return {
    callId: request.callId,
    leaseId: lease.leaseId,
    key: record.key,
    tool: tool.name,
    generation: record.catalogGeneration,
    descriptorDigest: tool.descriptorDigest,
    policyEpoch: decision.policyEpoch,
    disclosure:
      disclosure === undefined
        ? null
        : { generation: disclosure.generation, snapshotDigest: disclosure.snapshotDigest },
    pin: record.snapshot.sourceRevision,
  };
}

/** The parts an ADMIT decision always has; a missing one is a broken gate invariant. */
/**
 * The parts of an ADMIT decision a lease and a receipt bind. The reference gate never admits
 * without a disclosure; a gate that does (a checker-validation mutant) gets a receipt whose
 * `disclosure` is null, which the oracle reports, rather than a crash of the host.
 */
function admitted(decision: GateDecision): {
  record: GenerationRecord;
  tool: SnapshotTool;
  disclosure: DisclosureEntry | undefined;
} {
  const { record, tool, disclosure } = decision;
  if (record === undefined || tool === undefined) throw new Error('gate admitted a call without a generation or tool');
  return { record, tool, disclosure };
}

function refused(request: CallRequest, code: RefusalCode, argumentErrors: string[] | undefined): CallResult {
  return { admitted: false, callId: request.callId, code, ...(argumentErrors === undefined ? {} : { argumentErrors }) };
}
