/**
 * The core API `catsim.core.v1` (SPEC section 12a, docs/CORE-API.md): what a catalog core must
 * implement to run under catsim's campaigns, whoever wrote it. The reference core, its mutants,
 * the peers and a user's module (`catsim run --core ./my-core.ts`) all go through these types.
 *
 * Workflow of one round, from the core's side:
 * 1. the world calls the factory once with a fresh {@link CoreEnvironment} (virtual clock,
 *    scheduler, random stream, observation sink, policy source, lease key, bounds);
 * 2. it calls {@link CoreAdapter.attach} once per catalog key (server, tenant, role), handing a
 *    {@link Connector} through which the core connects (and reconnects after a cut); each connect
 *    builds the SDK `Client` with {@link CoreAdapter.createClient} and yields it connected;
 * 3. at seeded times the world's planners ask {@link CoreAdapter.disclose} what the core would show
 *    a session, and send planned calls through {@link CoreAdapter.call}; the policy service pushes
 *    epochs through {@link CoreAdapter.pushPolicy};
 * 4. if the core has a tool surface stage ({@link CoreAdapter.modelTurn}, optional), the planners
 *    also run model turns: the core prepares a model request through the world's hooks and
 *    dispatches it to the world's simulated model, or refuses it and settles it in the world's ledger;
 * 5. if the core can roll back ({@link CoreAdapter.rollback}, optional), operator and monitor
 *    triggers (F19) ask it to roll a catalog key back at planned times;
 * 6. if the core keeps tool versions ({@link CoreAdapter.emergencyDisable},
 *    {@link CoreAdapter.deprecate}, {@link CoreAdapter.alias} and {@link CoreAdapter.remove},
 *    optional), operators emergency-disable a tool (F26), deprecate the versions of a tool a server
 *    lists (F31), flip and roll back a tool's production alias (F34) or walk a tool's versions
 *    through `sunset` and `disabled` to their removal (F35) at planned times;
 * 7. at the end it calls {@link CoreAdapter.stop}.
 * Throughout, the core reports what it did as {@link CoreObservation}s on `env.sink`; the oracle
 * judges those against the world's ground truth and trusts none it can check.
 *
 * The observation types come from the one trace contract (`catsim.trace.v1`, contract/trace/,
 * docs/TRACE.md): `CoreObservation` is a core event without the fields the recorder stamps
 * (`seq`, `t`, `src`). The recorder checks every observation against the contract as it is
 * emitted; one outside it ends the command with exit 3, naming the core, the event and the field.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CoreObservation, WorldFields } from './trace/types.ts';

export type { CoreObservation } from './trace/types.ts';

/** The version tag of this API; a module built for another version is refused at load time. */
export const CORE_API = 'catsim.core.v1';

/** Where a core reports what it did. The recorder copies each observation when it is emitted. */
export interface ObservationSink {
  emit(observation: CoreObservation): void;
}

/** The world's clock: virtual milliseconds since the round began (integers). */
export interface CoreClock {
  now(): number;
}

/** Opaque handle of a scheduled callback. */
export interface CoreTask {
  readonly id: number;
}

/**
 * Deferred work on the world's event queue: `after(delayMs, fn)` runs `fn` once, `delayMs` virtual
 * ms (>= 0, rounded to an integer) from now; `cancel` ignores handles that already ran.
 */
export interface CoreScheduler {
  after(delayMs: number, fn: () => void): CoreTask;
  cancel(task: CoreTask): void;
}

/** The core's own seeded random stream: uniform numbers in [0, 1). */
export interface CoreRandom {
  next(): number;
}

/** One audience's grants at one policy epoch (what a poll answers and a push carries). */
export interface PolicyUpdate {
  /** `tenant.role`. */
  audience: string;
  /** Starts at 1; bumped by every grant or revocation. */
  epoch: number;
  /** Tool names the audience holds at this epoch, sorted. */
  grants: string[];
}

/** The policy service: polled by the core, never loses an answer (pushes may be lost). */
export interface PolicySource {
  /** The current grants of `audience` (`tenant.role`), after one message latency. */
  poll(audience: string): Promise<PolicyUpdate>;
}

/** Human confirmations the world's planners obtained (SPEC section 7, `UNVERSIONED_WRITE`). */
export interface Confirmations {
  /** Whether `token` is the confirmation a human gave for plan `planId` of `session`. */
  verify(session: string, planId: string, token: string): boolean;
}

/** Scenario bounds, ms and bytes; the oracle judges with the same values (never the core's). */
export interface CoreBounds {
  readonly pageCountMax: number;
  readonly byteCountMax: number;
  readonly scanTimeoutMs: number;
  readonly latencyMsMax: number;
  readonly tHealMs: number;
  readonly tEndMs: number;
  readonly generationTtlMs: number;
  readonly retryBackoffMsMax: number;
  /** B of I7: a revoked tool must not be admitted later than this after the revocation. */
  readonly revocationBoundMs: number;
  /**
   * Most tools in one catalog (SPEC section 5): a catalog with more must never be published,
   * disclosed or used for an admission (I27).
   */
  readonly toolCountMax: number;
  /** Most bytes of descriptors (compact UTF-8 JSON of each tool as sent, summed) in one catalog (I27). */
  readonly catalogBytesMax: number;
}

/** The refresh timings the scenario suggests to the core, ms. */
export interface CoreTimings {
  readonly refreshIntervalMs: number;
  readonly retryBackoffMsBase: number;
  readonly retryBackoffMsMax: number;
  /** How long to wait after a `list_changed` before rescanning. */
  readonly listChangedDelayMs: number;
}

/** Trusted effect class of a tool (SPEC section 4); a tool the policy does not list is WRITE. */
export type EffectClass = 'READ' | 'RESERVATION' | 'WRITE' | 'DESTRUCTIVE';

/** Ports and settings the world hands a core for one round (all fresh each round). */
export interface CoreEnvironment {
  clock: CoreClock;
  scheduler: CoreScheduler;
  random: CoreRandom;
  sink: ObservationSink;
  bounds: CoreBounds;
  timings: CoreTimings;
  policySource: PolicySource;
  /** The core polls the policy service this often, ms. */
  policyPollMs: number;
  /**
   * HMAC key for leases, as text used as its UTF-8 bytes: the world's servers execute a call only
   * with a valid, unused lease signed with it (SPEC section 2, `LeaseIssuer`).
   */
  leaseKey: string;
  /** The host's trusted effect classes by tool name (unlisted: WRITE). */
  effectClasses: Record<string, EffectClass>;
  confirmations: Confirmations;
  /**
   * The host's durable disk, present only in a round that restarts the host (F18): what a core
   * keeps here survives the restart, everything else dies with the process. Absent otherwise.
   */
  disk?: CoreDisk;
  /**
   * The operator's manifest files (`catsim.manifests.v1` text, docs/EMBEDDING.md "Operator
   * manifests"), by the server identity (SPEC section 1) whose tools each describes; present only
   * in a round that plants tool-version faults (F32). A core that keeps tool versions names, in
   * each `receipt` of a call to such a server, the version that ran (`version`, judged by I35).
   * Absent otherwise.
   */
  manifestFiles?: Readonly<Record<string, string>>;
}

/**
 * The durable disk of a simulated host (F18). Every boot of the round (0 at the start, then one
 * per restart) gets a fresh {@link CoreEnvironment} and a fresh connection to the same database,
 * holding every transaction an earlier boot committed and nothing it did not. A core opens its
 * registry store on `sqlite()` (the reference core: `openSqliteStoreOn`, src/registry/sqlite-store.ts).
 * After its boot died, any write through the connection throws `HostDown` (a dead process writes
 * nothing): to any table, the core's own too, DDL and `close` included; reads still answer.
 */
export interface CoreDisk {
  /**
   * This boot's number: 0, 1, ... The ids a core numbers itself (scan ids, lease ids) must be
   * unique in the round across boots; put the boot in them (docs/CORE-API.md, "Ids are unique").
   */
  readonly boot: number;
  /** This boot's connection: a better-sqlite3 12 `Database`, in memory (the world keeps its committed image). */
  sqlite(): unknown;
}

/** One live connection: a connected SDK `Client` and the identity the server presents now. */
export interface Connection {
  client: Client;
  /** The server identity (key fingerprint) the connection presents at the moment of the call. */
  identity: () => string;
}

/** One live connection opened by {@link Connector.connectTransport}: the world's transport and the identity. */
export interface TransportConnection {
  /** The transport the handshake was given (the world's side of the link, as a plain MCP `Transport`). */
  transport: Transport;
  /** The server identity (key fingerprint) the connection presents at the moment of the call. */
  identity: () => string;
}

/**
 * What a core does with the transport of a new connection: hand it to its own MCP client (any
 * library's transport injection), run that client's `initialize` handshake over it, and resolve
 * once the handshake is done. The session counts as open when this resolves (docs/CORE-API.md,
 * "When a session counts as open"): it must not resolve before the client has sent
 * `notifications/initialized`.
 */
export type TransportHandshake = (transport: Transport) => Promise<void>;

/** Opens connections to one server as one audience. */
export interface Connector {
  /**
   * A new connection (a new one after a cut) on an SDK 1.x `Client` built by
   * {@link CoreAdapter.createClient} and connected by the world; rejects when the server cannot be
   * reached.
   */
  connect(): Promise<Connection>;
  /**
   * A new connection (a new one after a cut) for a client the core brings itself: the world opens
   * the link and calls `handshake` with a plain MCP `Transport` (the SDK's interface: `start`,
   * `send`, `close`, `onmessage`, `onclose`, `onerror`), not started yet; the session opens when
   * `handshake` resolves. `createClient` is not called. Rejects when the server cannot be reached
   * or `handshake` rejects. A handshake that resolves before its client sent
   * `notifications/initialized` ends the command with one line naming the rule (exit 3).
   */
  connectTransport(handshake: TransportHandshake): Promise<TransportConnection>;
}

/** One catalog key as the world offers it to the core. */
export interface SessionSpec {
  connector: Connector;
  tenant: string;
  role: string;
  /** Digest of the endpoint (in the simulator: `sim:<server id>`). */
  endpointDigest: string;
  /** F9: how many refresh loops the reference core races on this key's pointer (others may ignore it). */
  refreshers: number;
}

/**
 * A backup endpoint of one catalog key (F37, SPEC section 9; seed 004: "备实现必须通过同版本 contract
 * tests"): `connector` opens connections to another deployment of the server presenting `identity`
 * (its own identity and build), for `tenant.role`. It lists and executes the same tools, but may
 * serve another contract of one of them. The core may send a call there only while the key's own
 * connection cannot be reached, and only when the backup serves the contract (the descriptor) the
 * call's run pinned (judged by I40 from the world's `call_executed`).
 */
export interface BackupSpec {
  connector: Connector;
  tenant: string;
  role: string;
  /** The identity the primary (the key's own server) presents: the key the backup stands behind. */
  identity: string;
}

/** A tool as disclosed: its name and descriptor digest (SPEC section 4). */
export interface DisclosedTool {
  name: string;
  descriptorDigest: string;
}

/**
 * What the core showed a session's planner: a published generation of a catalog key, whole, or
 * a refusal code (`INCOMPLETE_DISCOVERY`, `CATALOG_EXPIRED`, `SERVER_DISABLED`). The world writes
 * it to the trace as `disclosure` or `disclosure_refused` (ground truth, judged by I4 and I11), so
 * its fields must fit those events (a catalog key, a non-negative generation, 64-hex digests, a
 * listed code): an answer that does not is MALFORMED_ANSWER (core_failed) and shows nothing.
 */
export type DisclosureResult =
  | { ok: true; key: string; generation: number; snapshotDigest: string; tools: DisclosedTool[] }
  | { ok: false; code: WorldFields<'disclosure_refused'>['code'] };

/**
 * An operator or monitor trigger (F19) for one catalog key: the missing-tool rate rose, or one
 * privilege escalation occurred. Under the catalog-admission report's rollout rule the core rolls
 * back to a fresh, still-authorized generation or closes the key (docs/CORE-API.md, "Rollback"). The world writes it to the trace
 * as `rollback_triggered` (ground truth for I21, I28, I29).
 */
export interface RollbackTrigger {
  /** What was seen: `missing_tool_rate` or `privilege_escalation`. */
  kind: 'missing_tool_rate' | 'privilege_escalation';
  /** The catalog key, `<identity>|<tenant>.<role>`, with the identity the server presents now. */
  key: string;
  tenant: string;
  role: string;
  /** The identity the server presents now (the key's identity). */
  identity: string;
}

/**
 * An operator's emergency disable of one tool (F26, SPEC section 9; seed 004: "紧急禁用用于安全事故，
 * 可立即让策略拒绝新执行"): from the moment `emergencyDisable` returns, no call of that tool of that
 * server may leave the core, whatever version of it the server lists then or later, until the
 * end of the round. Calls that left before may finish.
 */
export interface EmergencyDisableOrder {
  /** The identity the server presents now (SPEC section 1). */
  identity: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** Why, as an operator would write it; a core shows it in the tool's status. */
  reason: string;
}

/**
 * An operator's deprecation of the versions of one tool a server lists now (F31, SPEC section 9;
 * seed 004: "构建新 Bundle 时禁止绑定 deprecated 版本，旧 Bundle 在兼容期继续"), at stage
 * `no-new-binding`: from the moment `deprecate` returns, no bundle the core builds later (in the
 * reference, the bundle of a generation first disclosed later) may bind a version whose descriptor
 * digest is one of `descriptorDigests`; bundles and runs already holding it go on.
 */
export interface DeprecationOrder {
  /** The identity the server presents now (SPEC section 1). */
  identity: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** The descriptor digests (docs/TRACE.md) of the tool in the server's views now, sorted: the versions deprecated. */
  descriptorDigests: string[];
  /** Why, as an operator would write it; a core shows it in the version's status. */
  reason: string;
  /**
   * The stage the versions move to (forward only; a version at a later stage stays there); absent:
   * `no-new-binding` (F31). `announce`: the deprecation is announced, nothing is refused: new
   * bundles and runs still bind them and their calls run (a core refusing one is judged by I38);
   * `sunset`: no run may start on a bundle pinning them, runs under way go on; `disabled`: from the
   * moment `deprecate` returns no call of them may leave the core (judged by I38). The world sends
   * `announce`, `sunset` and `disabled` (F35) only to a core that also has
   * {@link CoreAdapter.remove}: having it says the core keeps the whole lifecycle.
   */
  stage?: 'announce' | 'no-new-binding' | 'sunset' | 'disabled';
}

/**
 * An operator's order to remove the versions of one tool whose descriptor digests are
 * `descriptorDigests` (F35, SPEC section 9; seed 004: "下线工具版本前，Registry 从 Run traces 与 Bundle
 * manifests 构建使用图 ... 不能仅凭'一个月没有新调用'删除"): a version is removed only when it is
 * `disabled` and nothing references it (an alias naming it, a bundle not retired or a run not ended
 * pinning it); a removal of a version a run still references must be refused. A removed version
 * is never bound or executed again.
 */
export interface RemovalOrder {
  /** The identity the server presents now (SPEC section 1). */
  identity: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** The descriptor digests (docs/TRACE.md) of the versions to remove, sorted (those the operator disabled). */
  descriptorDigests: string[];
  /** Why, as an operator would write it. */
  reason: string;
}

/**
 * The core's answer to a {@link RemovalOrder}: `removed: true` when every version of those
 * digests is removed now (the world then holds the core to it: no run it knows references one,
 * I38), else `removed: false` with the core's refusal code (e.g. `REFERENCED`, `NOT_DISABLED`)
 * and one sentence. A code is 1 to 64 characters of `[A-Z0-9_]`.
 */
export type RemovalAnswer = { removed: true } | { removed: false; code: string; reason: string };

/**
 * An operator's order on the production alias of one tool (F34, SPEC section 9; seed 004: "业务使用
 * prod:jobs.rerun alias 指向一个已验证版本 ... 最后切 alias"; "回滚 alias ... Registry 只恢复后续调用"):
 * `set` points the alias at a release of the contract the server lists now (its descriptor, with
 * the operator's entry of `manifestFile` for the tool: a new timeout or owner is a new version of
 * the same contract); `rollback` points it back at its previous target. One atomic, audited
 * operation. A run that resolved the alias before keeps the version it pinned for its whole life;
 * a run started after the order returns binds the new target. A `set` across a breaking diff (by
 * the rules of SPEC section 9) without `migration` must be refused, leaving the alias where it was.
 */
export interface AliasOrder {
  /** The identity the server presents now (SPEC section 1). */
  identity: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** `set`: point the alias at the release; `rollback`: back to the target it had before its current one. */
  action: 'set' | 'rollback';
  /** For `set`: the descriptor digest (docs/TRACE.md) of the tool in the server's views now; null for `rollback`. */
  descriptorDigest: string | null;
  /**
   * For `set`: a `catsim.manifests.v1` file (SPEC section 9) of the server whose entry for `tool`
   * (absent: every field takes its safest default) describes the release; null for `rollback`.
   */
  manifestFile: string | null;
  /** A note naming how callers migrate, or null: required to move the alias across a breaking diff. */
  migration: string | null;
  /** Why, as an operator would write it. */
  reason: string;
}

/** A planned call, bound to the snapshot that disclosed the tool (SPEC section 1, "plan"). */
export interface CallRequest {
  /** Unique per call: the core writes it in `gate_decision` and `receipt`. */
  callId: string;
  planId: string;
  session: string;
  principal: string;
  tenant: string;
  role: string;
  /** The identity the session's connection presents now. */
  identity: string;
  plan: { key: string; generation: number; snapshotDigest: string; toolName: string; descriptorDigest: string };
  arguments: Record<string, unknown>;
  /** Present when a human confirmed the plan; check it with `env.confirmations.verify`. */
  confirmationToken?: string;
}

/**
 * One logical tool of a model request (seed 003): what the model is shown, before any provider's
 * wire serialization. `description` is the full description as listed (`''` when none).
 */
export interface TurnTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A model request while the host prepares it: hooks and the late stage edit `tools` and `context`. */
export interface TurnRequest {
  readonly requestId: string;
  tools: TurnTool[];
  context: unknown;
}

/**
 * One host extension of a model turn (a prompt builder, a context fitter, ...), run by the core's
 * surface stage in order, each awaited, after the baseline is projected. Its `transform` may edit
 * the request in place, replace `tools`, or leave work running that edits it later.
 */
export interface TurnHook {
  readonly name: string;
  transform(request: TurnRequest): void | Promise<void>;
}

/** Why a surface stage refused a model request (the world's ledger records it). */
export interface TurnRejection {
  code: 'SURFACE_MISMATCH' | 'CAPACITY_EXCEEDED' | 'HOOK_FAILED' | 'NO_ADMISSION_FACTS';
  /** For SURFACE_MISMATCH: which check refused. */
  check?: 'early' | 'final';
  /** For SURFACE_MISMATCH: which field differed (`mismatch.field` is read too). */
  mismatch?: { field?: 'count' | 'order' | 'name' | 'description' | 'inputSchema' | 'unadmitted' };
  /** For CAPACITY_EXCEEDED: the budget broken. */
  limit?: 'toolCountMax' | 'surfaceBytesMax';
}

/**
 * The request owner's ledger, as a port the world (the runtime that made the reservation) owns.
 * Close the reservation exactly once: `dispatched` right before the request goes to the model,
 * `preDispatchRejected` when it was refused and certainly not sent. A second settlement throws an
 * Error whose `code` is `ALREADY_SETTLED` (as a real ledger must); the world records every attempt.
 */
export interface TurnLedger {
  dispatched(record: unknown): void;
  preDispatchRejected(rejection: TurnRejection): void;
}

/**
 * One model turn, reserved by the world's planner (SPEC section 8, seed 003). The core projects
 * the baseline from the generation it serves the session's key now (the one `disclose` has just
 * shown: the world calls `disclose` and `modelTurn` in the same step) and the audience's grant,
 * runs `hooks`, checks early, awaits `late(request)` (late context, evidence, asynchronous
 * preparation), checks again and hands the request to `model`; or refuses and settles.
 */
export interface ModelTurn {
  /** The reservation's request id, unique in the round. */
  requestId: string;
  session: string;
  tenant: string;
  role: string;
  /** The identity the session's connection presents now. */
  identity: string;
  /** The host's own request content (messages, evidence, ...): the request's `context`, passed along as is. */
  context: unknown;
  /** The host's extensions, in order (the world's last one only looks at the request). */
  hooks: readonly TurnHook[];
  /** The host's late stage: resolves after its (virtual) preparation time; it may edit the request. */
  late(request: TurnRequest): Promise<void>;
  /** Budgets for the whole surface; absent: unlimited (docs/SURFACE.md, "Capacity"). */
  capacity?: { toolCountMax?: number; surfaceBytesMax?: number };
  /** The request owner's ledger (the world's). */
  ledger: TurnLedger;
  /** The model-call port: the simulated model receives the checked request (`tools` are read at once). */
  model(request: { requestId: string; tools: readonly TurnTool[]; context: unknown }): void;
}

/**
 * A core under one round. Order of calls: `attach` per key, then `disclose`, `call` and
 * `pushPolicy` any time, `stop` once at the end. None of them may throw, and `call` must not
 * reject: a core that does fails the round (`CORE_FAILED`, docs/CORE-API.md).
 */
export interface CoreAdapter {
  /**
   * Builds the SDK `Client` of one connection (client info, capabilities, `listChanged`
   * handlers); the world connects it. Optional: without it the world builds
   * `new Client({ name: 'catsim-core', version: '1.0.0' }, { capabilities: {} })`.
   */
  createClient?(): Client;
  /** Starts serving one catalog key (connect through `session.connector`). */
  attach(session: SessionSpec): void;
  /** What the core shows `session` for `tenant.role` on the server presenting `identity`, now. */
  disclose(session: string, tenant: string, role: string, identity: string): DisclosureResult;
  /** Decides one planned call (gate), and sends it when admitted; never rejects. */
  call(request: CallRequest): Promise<void>;
  /** A policy push arrives (pushes may be late or lost; polls are not). */
  pushPolicy(update: PolicyUpdate): void;
  /** Stops all background work (end of round). */
  stop(): void;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Model turns"): the core's tool surface
   * stage prepares and dispatches one model turn, settling it once in `turn.ledger`; must not
   * reject (a rejection is CORE_FAILED). A core without it has no surface stage: the world runs
   * no model turn and the summary says so.
   */
  modelTurn?(turn: ModelTurn): Promise<void>;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Rollback"): an operator or monitor
   * trigger for `trigger.key`. The core must roll the key's active pointer back (one CAS) to the
   * latest earlier generation that is unexpired and was discovered under the policy epoch, grants
   * and server identity that hold now, and stop leasing the rolled-away generation at once; if no
   * earlier generation qualifies it must DISABLE the key (`server_disabled`). A key with nothing
   * published needs nothing. Resolve when decided; must not reject (a rejection is CORE_FAILED).
   * A core without it is not judged on rollbacks: the world writes each trigger `unsupported`, and
   * the campaign verdict is NOT JUDGED (exit 1) unless the user accepts it (`--not-judged rollback`).
   */
  rollback?(trigger: RollbackTrigger): Promise<void>;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Tool versions"): an operator's emergency
   * disable of one tool of one server ({@link EmergencyDisableOrder}). Synchronous: when it
   * returns, the core must refuse every later call of that tool on that server (no `tools/call`
   * of it may leave the core after this; judged from the world's `call_sent`, I30). A core
   * without it is not judged on tool versions: the world writes each order `unsupported`, and the
   * campaign verdict is NOT JUDGED (exit 1) unless the user accepts it (`--not-judged versions`).
   */
  emergencyDisable?(order: EmergencyDisableOrder): void;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Tool versions"): an operator's deprecation
   * of the listed versions of one tool ({@link DeprecationOrder}), stage `no-new-binding`.
   * Synchronous: when it returns, no later binding may take those versions (judged by I34 from
   * the world's first disclosure of each generation and the receipts of its calls). A core
   * without it gets each order written `unsupported` and is not judged on it.
   */
  deprecate?(order: DeprecationOrder): void;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Tool versions"): an operator's flip or
   * rollback of a tool's production alias ({@link AliasOrder}). Synchronous: when it returns, runs
   * started afterwards bind the alias's new target and runs started before keep theirs (judged by
   * I37 from the world's `alias_ordered`, disclosures and the receipts' `version`). A core without
   * it is not judged on aliases: the world writes each order `unsupported`, and the campaign
   * verdict is NOT JUDGED (exit 1) unless the user accepts it (`--not-judged aliases`).
   */
  alias?(order: AliasOrder): void;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Lifecycle and removal"): an operator's
   * removal of the versions of one tool ({@link RemovalOrder}); synchronous, answered with
   * {@link RemovalAnswer}. A core that has it (and `deprecate`) also gets `deprecate` orders at
   * stages `sunset` and `disabled` (F35). A core without it is not judged on the lifecycle: the
   * world writes each of F35's orders `unsupported`, and the campaign verdict is NOT JUDGED (exit
   * 1) unless the user accepts it (`--not-judged lifecycle`). A malformed answer is the core's
   * failure (`MALFORMED_ANSWER`).
   */
  remove?(order: RemovalOrder): RemovalAnswer;
  /**
   * Optional, since catsim.core.v1 (docs/CORE-API.md, "Backup endpoints"): the operator's backup
   * endpoint of one catalog key ({@link BackupSpec}), handed after the key's `attach`. A core
   * without it is not judged on backups: the world writes each primary outage (F37) with its
   * backup `unsupported`, and the campaign verdict is NOT JUDGED (exit 1) unless the user accepts
   * it (`--not-judged backups`).
   */
  attachBackup?(backup: BackupSpec): void;
}

/** Builds a core for one round; must only build (no I/O and no timers until `attach`). */
export type CoreFactory = (env: CoreEnvironment) => CoreAdapter;

/** What a core module exports as its default: see {@link defineCore}. */
export interface CoreDefinition {
  /** Always {@link CORE_API}. */
  readonly api: typeof CORE_API;
  /** A short name for reports and errors, e.g. `list-once-host`. */
  readonly name: string;
  /** Called once per round with that round's fresh environment. */
  readonly create: CoreFactory;
}

/**
 * Declares a core module's default export:
 * `export default defineCore({ name: 'my-host', create: (env) => new MyAdapter(env) })`.
 * @throws TypeError when `name` is not a non-empty string or `create` is not a function.
 */
export function defineCore(definition: { name: string; create: CoreFactory }): CoreDefinition {
  if (typeof definition?.name !== 'string' || definition.name.length === 0)
    throw new TypeError('defineCore: name must be a non-empty string');
  if (typeof definition.create !== 'function')
    throw new TypeError(`defineCore: create of core "${definition.name}" must be a function (env) => core`);
  return Object.freeze({ api: CORE_API, name: definition.name, create: definition.create });
}

/** The catalog key of SPEC section 1 as the trace writes it: `<identity>|<tenant>.<role>`. */
export function catalogKey(identity: string, tenant: string, role: string): string {
  return `${identity}|${tenant}.${role}`;
}

/** @deprecated Internal name of {@link Connection}, kept for existing adapters. */
export type SimConnection = Connection;
/** @deprecated Internal name of {@link CallRequest}, kept for existing adapters. */
export type SimCallRequest = CallRequest;
/** @deprecated Internal name of {@link PolicyUpdate}, kept for existing adapters. */
export type SimPolicyUpdate = PolicyUpdate;
