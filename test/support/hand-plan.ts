/**
 * Hand-built round plans for fault tests: one or two servers, a fixed latency (min = max) so that
 * every virtual time is exact, an explicit revision history, and no random fault — every fault
 * field is written out by the test. The plan runs through the real simulator (`runRound`: the
 * adversarial SDK `Server`, the queued copying transport, the SDK `Client`) against the
 * reference core or a mutant, and the helpers below pick events out of the trace.
 *
 * Timeline with latency L (one message = L ms each way, per-direction FIFO):
 * - t=0: `initialize` sent; server gets it at L; the result reaches the client at 2L;
 *   `session_opened` at 2L; the first scan starts at 2L (`start()` schedules it with delay 0);
 * - page k of a scan started at S is served at S + (2k-1)L and read at S + 2kL; the final recheck
 *   is one more round trip after the last page; an INCOMPLETE scan is retried after exactly 1 ms
 *   (the default back-off here is base = max = 1 ms, and round(1 * [0.5, 1)) = 1);
 * - a revision step at `atMs` runs before any message delivered at the same instant (history
 *   events are scheduled first), but tests put steps between deliveries anyway.
 */
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { referenceCore } from '../../cores/reference.ts';
import type {
  CallsPlan,
  FaultLabel,
  HostRestart,
  PlantedDefect,
  PolicyPlan,
  RevisionStep,
  RollbackTriggerPlan,
  RoundPlan,
  ServerPlan,
  SurfaceHookKind,
  SurfaceLateStep,
  ToolDescriptor,
  TurnPlan,
} from '../../sim/plan/types.ts';

// The types of the faults' plan fields, read off the plan (each is declared in its fault's file).
type CursorTrait = ServerPlan['cursorTrait'];
type NotificationPlan = ServerPlan['notifications'];
type IdentityRotation = ServerPlan['rotations'][number];
type LinkFaults = ServerPlan['linkFaults'];
type OverLimitCatalog = ServerPlan['overLimitCatalog'];
import { sampleArgs } from '../../sim/plan/sample-args.ts';
import { TOOL_POOL } from '../../sim/plan/tool-pool.ts';
import { decodeCursor } from '../../sim/server/cursor.ts';
import type { Rng } from '../../sim/random.ts';
import { runRound, type RoundRun } from '../../sim/round.ts';
import type { TraceEvent, TraceEventOf, TraceEventType } from '../../contract/trace/types.ts';
import { worldDescriptorDigest } from '../../sim/trace/digests.ts';
import { checkEvents, type Verdict } from '../../oracle/index.ts';

/** A pool descriptor by name, as a fresh copy (descriptors placed in a plan are never shared). */
export function tool(name: string): ToolDescriptor {
  const entry = TOOL_POOL.find((candidate) => candidate.descriptor.name === name);
  if (entry === undefined) throw new Error(`no pool tool named ${name}`);
  return structuredClone(entry.descriptor);
}

/**
 * An rng whose `pick` returns the first of `preferred` present in the items (else the first item),
 * `int` its minimum, `chance` false and `shuffle` the items unchanged: for driving a fault's own
 * generator (F13's planting picks the defect) to one chosen outcome in a hand-built plan.
 */
export function pickingRng(...preferred: unknown[]): Rng {
  return {
    next: () => 0,
    int: (min) => min,
    chance: () => false,
    pick: <T>(items: readonly T[]): T => items.find((item) => preferred.includes(item)) ?? (items[0] as T),
    shuffle: <T>(items: readonly T[]): T[] => [...items],
  };
}

/** Several pool descriptors by name. */
export function tools(...names: string[]): ToolDescriptor[] {
  return names.map(tool);
}

/** The world's descriptor digest of a tool (SPEC section 4). */
export const digestOf = (descriptor: ToolDescriptor): string => worldDescriptorDigest(descriptor);

/** One revision step; `views` maps `tenant.role` to tools in list order. */
export function step(
  atMs: number,
  revision: number,
  views: Record<string, ToolDescriptor[]>,
  cause = 'base',
): RevisionStep {
  return { atMs, revision, views, cause };
}

/** The fault fields of a server, all explicit; anything not given is the healthy default. */
export interface HandServerOptions {
  id?: string;
  identity?: string;
  versioned?: boolean;
  audiences?: string[];
  history: RevisionStep[];
  /** Fixed page size (min = max). */
  pageSize?: number;
  cursorTrait?: CursorTrait | null;
  restartsAtMs?: number[];
  notifications?: Partial<NotificationPlan>;
  /** Fixed latency, ms (min = max). */
  latencyMs?: number;
  rotations?: IdentityRotation[];
  planted?: PlantedDefect[];
  linkFaults?: Partial<LinkFaults>;
  equivocates?: boolean;
  /** F23's label (default null); the over-limit tools themselves go into `history`. */
  overLimitCatalog?: OverLimitCatalog | null;
  /** F22: model turns of this server's sessions (see {@link turn}); none by default. */
  turns?: TurnPlan[];
}

/** The healthy notification plan: declared, sent once on every change. */
export const HEALTHY_NOTIFICATIONS: NotificationPlan = {
  declared: true,
  sendOnChange: true,
  afterPage2: false,
  lateByMs: 0,
  copies: 1,
};

/** A server plan with every fault field explicit. */
export function handServer(options: HandServerOptions): ServerPlan {
  const latency = options.latencyMs ?? 5;
  const pageSize = options.pageSize ?? 2;
  return {
    id: options.id ?? 's0',
    identity: options.identity ?? 'fp:0000000000000001',
    versioned: options.versioned ?? true,
    audiences: options.audiences ?? ['acme.dev'],
    history: options.history,
    pageSizeMin: pageSize,
    pageSizeMax: pageSize,
    cursorTrait: options.cursorTrait ?? null,
    restartsAtMs: options.restartsAtMs ?? [],
    notifications: { ...HEALTHY_NOTIFICATIONS, ...options.notifications },
    latencyMsMin: latency,
    latencyMsMax: latency,
    rotations: options.rotations ?? [],
    planted: options.planted ?? [],
    linkFaults: { reorder: false, notificationLossFraction: 0, disconnectsAtMs: {}, ...options.linkFaults },
    equivocates: options.equivocates ?? false,
    overLimitCatalog: options.overLimitCatalog ?? null,
    ...(options.turns === undefined ? {} : { turns: options.turns }),
  };
}

/**
 * F22: one model turn at `atMs` for `audience`: `hooks` in order, then the late stage (`late`,
 * default none) after `lateMs` (default 5), an optional relative capacity, and the draw `pick`
 * (default 0: hooks work on the first tool).
 */
export function turn(
  atMs: number,
  audience: string,
  hooks: SurfaceHookKind[],
  options: { late?: SurfaceLateStep | null; lateMs?: number; capacity?: TurnPlan['capacity']; pick?: number } = {},
): TurnPlan {
  return {
    atMs,
    audience,
    hooks,
    late: options.late ?? null,
    lateMs: options.lateMs ?? 5,
    capacity: options.capacity ?? null,
    pick: options.pick ?? 0,
  };
}

/** Round-level options; times in virtual ms. */
export interface HandPlanOptions {
  servers: ServerPlan[];
  faults?: FaultLabel[];
  refreshersPerKey?: number;
  tHealMs?: number;
  /** Default 1000: a rescan this long after each publish. */
  refreshIntervalMs?: number;
  /** Default 1 (base = max = 1 ms, so every retry comes exactly 1 ms after an INCOMPLETE scan). */
  retryBackoffMsBase?: number;
  retryBackoffMsMax?: number;
  /** Default 20. */
  listChangedDelayMs?: number;
  /** Default 5 (min = max), the latency after T_heal. */
  nominalLatencyMs?: number;
  /** Default 500 (every walk here takes well under 100 ms); it also sets the length of the quiet tail. */
  scanTimeoutMs?: number;
  pageCountMax?: number;
  /** Whole-catalog limits of the round (SPEC section 5, I27); defaults 10,000 tools and 8,388,608 bytes. */
  toolCountMax?: number;
  catalogBytesMax?: number;
  generationTtlMs?: number;
  /** Default [100, 100]: each planner reads its catalog every 100 ms from t=100. */
  plannerIntervalMs?: [number, number];
  eventBudget?: number;
  /** Overrides T_end; otherwise computed as in `boundsOf` (max(refresh, poll) + 2 (back-off + timeout) + 4 L). */
  tEndMs?: number;
  /** Default 500: the core polls the policy service this often. */
  policyPollMs?: number;
  /** B of I7, default 1500 (F22 also marks a tool whose grant changed less than B ago as contested). */
  revocationBoundMs?: number;
  /**
   * Policy fields to override (F8, F14). By default every audience holds every tool name it ever
   * sees, no tool has a trusted effect class, nothing changes, and no push is lost.
   */
  policy?: Partial<Omit<PolicyPlan, 'pollIntervalMs'>>;
  /**
   * Call fields to override (F10, F17). By default planners plan no calls; the probe calls come
   * `max(refreshIntervalMs, policyPollMs)` before T_end.
   */
  calls?: Partial<CallsPlan>;
  /** F18: host restarts (default none: the host runs the whole round, with no disk). */
  hostRestarts?: HostRestart[];
  /** F19: rollback triggers (absent: none). */
  rollbackTriggers?: RollbackTriggerPlan[];
}

/** A round plan with fixed timings. */
export function handPlan(options: HandPlanOptions): RoundPlan {
  const refreshIntervalMs = options.refreshIntervalMs ?? 1000;
  const retryBackoffMsBase = options.retryBackoffMsBase ?? 1;
  const retryBackoffMsMax = options.retryBackoffMsMax ?? 1;
  const scanTimeoutMs = options.scanTimeoutMs ?? 500;
  const tHealMs = options.tHealMs ?? 1000;
  const nominal = options.nominalLatencyMs ?? 5;
  const latencyMsMax = Math.max(nominal, ...options.servers.map((server) => server.latencyMsMax));
  const policyPollMs = options.policyPollMs ?? 500;
  const tEndMs =
    options.tEndMs ??
    tHealMs + Math.max(refreshIntervalMs, policyPollMs) + 2 * (retryBackoffMsMax + scanTimeoutMs) + 4 * latencyMsMax;
  return {
    schema: 'catsim.plan.v1',
    seed: 'hand',
    round: 0,
    roundSeed: 'hand/0',
    scenario: 'hand',
    faults: options.faults ?? [],
    bounds: {
      pageCountMax: options.pageCountMax ?? 32,
      byteCountMax: 1_048_576,
      scanTimeoutMs,
      latencyMsMax,
      tHealMs,
      tEndMs,
      generationTtlMs: options.generationTtlMs ?? 4000,
      retryBackoffMsMax,
      revocationBoundMs: options.revocationBoundMs ?? 1500,
      toolCountMax: options.toolCountMax ?? 10_000,
      catalogBytesMax: options.catalogBytesMax ?? 8_388_608,
    },
    timings: {
      refreshIntervalMs,
      retryBackoffMsBase,
      retryBackoffMsMax,
      listChangedDelayMs: options.listChangedDelayMs ?? 20,
    },
    nominalLatencyMs: [nominal, nominal],
    eventBudget: options.eventBudget ?? 40_000,
    refreshersPerKey: options.refreshersPerKey ?? 1,
    plannerIntervalMs: options.plannerIntervalMs ?? [100, 100],
    leaseKey: '00'.repeat(32),
    // By default no policy fault: every audience holds every tool name it ever sees, and nothing changes.
    policy: {
      effectClasses: {},
      grants: grantsOf(options.servers),
      changes: [],
      pushLatencyMs: [nominal, nominal],
      pushLossFraction: 0,
      ...options.policy,
      pollIntervalMs: policyPollMs,
    },
    // By default no planned calls (they would add traffic to the links); probe calls only late in the quiet tail.
    calls: {
      callFraction: 0,
      staleFraction: 0,
      staleDelayMs: [0, 0],
      guessFraction: 0,
      invalidArgsFraction: 0,
      confirmFraction: 0,
      probeAtMs: tEndMs - Math.max(refreshIntervalMs, policyPollMs),
      ...options.calls,
    },
    sampleArgs: sampleArgsOf(options.servers),
    servers: options.servers,
    ...(options.hostRestarts === undefined ? {} : { hostRestarts: options.hostRestarts }),
    ...(options.rollbackTriggers === undefined ? {} : { rollbackTriggers: options.rollbackTriggers }),
  };
}

/** Valid arguments for every tool name in the histories: the pool's own, else derived from the schema. */
function sampleArgsOf(servers: readonly ServerPlan[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const server of servers) {
    for (const step of server.history) {
      for (const descriptor of Object.values(step.views).flat()) {
        const name = String(descriptor.name);
        out[name] ??= structuredClone(
          TOOL_POOL.find((entry) => entry.descriptor.name === name)?.sampleArgs ?? sampleArgs(descriptor.inputSchema),
        );
      }
    }
  }
  return out;
}

/** Every tool name each audience ever sees, sorted: the policy grants them all. */
function grantsOf(servers: readonly ServerPlan[]): Record<string, string[]> {
  const grants: Record<string, Set<string>> = {};
  for (const server of servers) {
    for (const audience of server.audiences) {
      const names = (grants[audience] ??= new Set());
      for (const step of server.history)
        for (const descriptor of step.views[audience] ?? []) names.add(String(descriptor.name));
    }
  }
  return Object.fromEntries(Object.entries(grants).map(([audience, names]) => [audience, [...names].sort()]));
}

/** A finished hand round, with the oracle's verdict and trace helpers. */
export interface HandRun extends RoundRun {
  plan: RoundPlan;
  verdict: Verdict;
  /** Events of one type, in trace order. */
  of<T extends TraceEventType>(type: T): TraceEventOf<T>[];
  /** Core events (`src: "core"`) only. */
  core(): TraceEvent[];
}

/** Runs a hand plan against the reference core (or `core`) and judges the trace with the oracle. */
export async function runHand(
  plan: RoundPlan,
  core: CoreFactory = referenceCore(),
  coreName = 'reference',
): Promise<HandRun> {
  const run = await runRound(plan, core, coreName);
  const verdict = checkEvents(run.header, run.events);
  return {
    ...run,
    plan,
    verdict,
    of: <T extends TraceEventType>(type: T) =>
      run.events.filter((event): event is TraceEventOf<T> => event.type === type),
    core: () => run.events.filter((event) => event.src === 'core'),
  };
}

/** `[t, state, reason]` of every `scan_ended`, in order. */
export function scanEnds(run: HandRun): [number, string, string][] {
  return run.of('scan_ended').map((e) => [e.t, e.state as string, e.reason as string]);
}

/** `[state, reason]` of every `scan_ended`, in order (when exact times are beside the point). */
export function scanEndStates(run: HandRun): [string, string][] {
  return run.of('scan_ended').map((e) => [e.state as string, e.reason as string]);
}

/** The `published` events: `[t, key, generation, sourceRevision, tool names]`. */
export function publishes(run: HandRun): [number, string, number, number | null, string[]][] {
  return run
    .of('published')
    .map((e) => [
      e.t,
      e.key as string,
      e.generation as number,
      e.sourceRevision as number | null,
      toolsOf(e).map((t) => t.name),
    ]);
}

/** A cursor as `boot:offset` (`+e` for an inserted empty page), `""` as itself, null for none. */
export function cursorLabel(cursor: unknown): string | null {
  if (cursor === null || cursor === undefined) return null;
  if (cursor === '') return '""';
  const position = decodeCursor(String(cursor));
  return position === undefined
    ? `?${String(cursor)}`
    : `${position.boot}:${position.offset}${position.empty ? '+e' : ''}`;
}

/** Every `tools/list` answer of the world, `[t, scanId, cursorIn, cursorOut, reported revision]`. */
export function served(run: HandRun): [number, string | null, string | null, string | null, number | null][] {
  return run
    .of('page_served')
    .map((e) => [
      e.t,
      e.scanId as string | null,
      cursorLabel(e.cursorIn),
      cursorLabel(e.cursorOut),
      e.reported as number | null,
    ]);
}

/** Every `page_read` of the core, `[t, scanId, cursorIn, revision, recheck]`. */
export function reads(run: HandRun): [number, string, string | null, number | null, boolean][] {
  return run
    .of('page_read')
    .map((e) => [e.t, e.scanId as string, cursorLabel(e.cursorIn), e.revision as number | null, e.recheck as boolean]);
}

/** The tools of a `published` event. */
export function toolsOf(event: TraceEventOf<'published'>): TraceEventOf<'published'>['tools'] {
  return event.tools;
}

/** `name -> verdict` of a `published` event. */
export function verdicts(event: TraceEventOf<'published'>): Record<string, string> {
  return Object.fromEntries(toolsOf(event).map((t) => [t.name, t.verdict]));
}

/** The ordered `(type, state/reason)` story of the core and of the world's connection events. */
export function story(
  run: HandRun,
  types: readonly string[] = ['session_opened', 'disconnected', 'scan_ended', 'published', 'cas_conflict'],
): string[] {
  return run.events.filter((e) => types.includes(e.type)).map(describe);
}

function describe(e: TraceEvent): string {
  switch (e.type) {
    case 'scan_ended':
      return `scan_ended ${String(e.state)} ${String(e.reason)}`;
    case 'published':
      return `published g${String(e.generation)} r${String(e.sourceRevision)}`;
    case 'cas_conflict':
      return `cas_conflict ${String(e.expectedGeneration)}->${String(e.actualGeneration)}`;
    default:
      return e.type;
  }
}

/** A readable timeline, for debugging a failing test (`console.log(timeline(run))`). */
export function timeline(run: HandRun): string {
  return run.events
    .map((e) => {
      const { seq, t, src, type, ...rest } = e;
      const fields = Object.entries(rest)
        .map(([k, v]) => `${k}=${short(v)}`)
        .join(' ');
      return `${String(seq).padStart(4)} t=${String(t).padStart(5)} ${src.padEnd(5)} ${type} ${fields}`;
    })
    .join('\n');
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
