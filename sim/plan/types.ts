/**
 * A round plan: plain JSON data produced from a round's seed and executed by the round runner
 * (SPEC section 10, "Seed -> plan -> run"). Shrinking edits plans; `replay --plan FILE` runs one.
 * All times are virtual ms from the start of the round.
 *
 * This file holds the base of each part of a plan. Each fault declares its own fields in its file
 * under sim/faults/ (augmenting `ServerPlan`, `RoundPlan`, `PolicyPlan` or `CallsPlan`, beside
 * their schema and healthy value), and a type only that fault uses lives there too. The types of
 * fault fields the world itself reads stay here: `TurnPlan` (the planners and model turns),
 * `HostRestart` (the host process), `RollbackTriggerPlan` (the round).
 */
import type { SURFACE_HOOKS, SURFACE_LATE_STEPS } from '../../contract/trace/codes.ts';

/**
 * The id of a fault of the menu (SPEC section 10) as a plan or a scenario carries it: `F1`, `F2`, ...
 * Plans and scenarios are data checked at the boundary against the registry's ids (the plan and
 * scenario schemas list `FAULT_IDS`), so this is the id's shape; the registry's exact union is
 * `FaultId` in sim/faults/index.ts, which this module must not import (the fault files import the
 * plan types).
 */
export type FaultLabel = `F${number}`;

/** A tool descriptor as a server sends it (any JSON object; adversarial ones included). */
export type ToolDescriptor = Record<string, unknown>;

/** Bounds the oracle judges with; they come from the scenario, never from the core. */
export interface Bounds {
  pageCountMax: number;
  byteCountMax: number;
  scanTimeoutMs: number;
  latencyMsMax: number;
  tHealMs: number;
  tEndMs: number;
  generationTtlMs: number;
  retryBackoffMsMax: number;
  /** B of I7: a revoked tool must not be admitted later than this after the revocation, ms. */
  revocationBoundMs: number;
  /** Most tools in one catalog (SPEC section 5; the core's trust and I27 use it). */
  toolCountMax: number;
  /** Most bytes of descriptors (compact UTF-8 JSON, summed) in one catalog (SPEC section 5, I27). */
  catalogBytesMax: number;
}

/** The core's timings, from the scenario. */
export interface CoreTimings {
  refreshIntervalMs: number;
  retryBackoffMsBase: number;
  retryBackoffMsMax: number;
  listChangedDelayMs: number;
}

/** One step of a server's revision history: from `atMs` on, these are the views. */
export interface RevisionStep {
  atMs: number;
  revision: number;
  /** audience `tenant.role` -> tools in list order. */
  views: Record<string, ToolDescriptor[]>;
  /** The fault that planted this step, for timelines (`F1`, `F2`, `F4`, or `base`). */
  cause: string;
}

/** A defect the generator planted on purpose (F6, F13), labelled for I5. */
export interface PlantedDefect {
  defect:
    | 'UNKNOWN_DIALECT'
    | 'UNRESOLVED_REF'
    | 'REMOTE_REF'
    | 'OVERSIZED_DESCRIPTOR'
    | 'NON_OBJECT_ROOT'
    | 'BAD_NAME'
    | 'DUPLICATE_NAME';
  /** Deep-equal to the descriptor placed in the views (its digest identifies it). */
  descriptor: ToolDescriptor;
}

/** Effect classes, from the host's trusted policy (never from annotations). */
export type EffectClass = 'READ' | 'RESERVATION' | 'WRITE' | 'DESTRUCTIVE';

/** The policy service of a round: grants per audience and how pushes travel; F8 adds its changes and losses in its file. */
export interface PolicyPlan {
  /** Trusted effect classes by tool name; unlisted tools count as WRITE. */
  effectClasses: Record<string, EffectClass>;
  /** Grants of epoch 1 per audience (tool names). */
  grants: Record<string, string[]>;
  /** Push latency range, ms. */
  pushLatencyMs: [number, number];
  /** The core polls the policy service this often, ms. */
  pollIntervalMs: number;
}

/** How the sessions' planners call tools; F10 and F17 add their fractions in their files. */
export interface CallsPlan {
  /** Chance that a planner tick also plans a call. */
  callFraction: number;
  /** Fraction of calls sent with arguments that fail the input schema. */
  invalidArgsFraction: number;
  /** Fraction of non-READ calls on unversioned sources a human confirms. */
  confirmFraction: number;
  /** Time of the quiet-tail probe calls (every session calls each disclosed tool once), ms. */
  probeAtMs: number;
}

/** The kinds of the host extensions of a model turn (F22; contract/trace/codes.ts). */
export type SurfaceHookKind = (typeof SURFACE_HOOKS)[number];

/** The late stage of a model turn (F22). */
export type SurfaceLateStep = (typeof SURFACE_LATE_STEPS)[number];

/**
 * F22: one model turn of one session (SPEC section 8, seed 003): at `atMs` the planner of the
 * server's session for `audience` asks the core to prepare and dispatch a model request through
 * these host extensions.
 */
export interface TurnPlan {
  atMs: number;
  audience: string;
  /** The hook pipeline, in order. */
  hooks: SurfaceHookKind[];
  /** The late stage after the hooks (null: none that edits; the request still waits `lateMs`). */
  late: SurfaceLateStep | null;
  /** How long the late stage (asynchronous preparation) takes, virtual ms. */
  lateMs: number;
  /**
   * A capacity relative to the world's baseline at the turn: `short` is one less than the
   * uncontested tools need (the stage must refuse CAPACITY_EXCEEDED), `fits` exactly what every
   * tool needs; null: no capacity.
   */
  capacity: { limit: 'toolCountMax' | 'surfaceBytesMax'; fit: 'short' | 'fits' } | null;
  /** A draw in [0, 1) the hooks use to pick a tool (which one to remove, rename, ...). */
  pick: number;
}

/**
 * One simulated MCP server: the base fields here; each fault adds its own (F3 `notifications`,
 * F5 `cursorTrait`, F15 `linkFaults`, ...) in its file under sim/faults/, by augmenting this
 * interface beside the schema and healthy value of each (sim/faults/fault.ts `PlanSlice`).
 */
export interface ServerPlan {
  id: string;
  /** Key fingerprint the connection presents (peerIdentity). */
  identity: string;
  /** Audiences the world connects as, `tenant.role`. */
  audiences: string[];
  history: RevisionStep[];
  /** Page sizes drawn per request from this inclusive range. */
  pageSizeMin: number;
  pageSizeMax: number;
  /** Message latency of this server's links, inclusive range, ms (after T_heal: nominal). */
  latencyMsMin: number;
  latencyMsMax: number;
  planted: PlantedDefect[];
}

/** Where F18 kills the host (contract/trace/codes.ts `HOST_CRASH_POINTS`). */
export type HostCrashPoint = 'at_time' | 'in_publish' | 'after_commit' | 'after_lease';

/**
 * One planned host restart (F18): armed at `atMs`, the host dies at `point`'s first occurrence
 * from then on (at once for `at_time`; never if it does not occur before T_heal), and a new core
 * instance starts on the same disk `downMs` later.
 */
export interface HostRestart {
  atMs: number;
  point: HostCrashPoint;
  downMs: number;
}

/** What an F19 trigger saw (contract/trace/codes.ts `ROLLBACK_TRIGGER_KINDS`). */
export type RollbackTriggerKind = 'missing_tool_rate' | 'privilege_escalation';

/**
 * One planned operator or monitor trigger (F19): at `atMs`, the world asks the core to roll back
 * the catalog key of `audience` on server `server` (at the identity the server presents then).
 */
export interface RollbackTriggerPlan {
  atMs: number;
  server: string;
  audience: string;
  kind: RollbackTriggerKind;
}

/** Everything one round runs: the base fields here; the faults add theirs (F9, F18, F19) in their files. */
export interface RoundPlan {
  schema: 'catsim.plan.v1';
  seed: string;
  round: number;
  roundSeed: string;
  scenario: string;
  faults: FaultLabel[];
  bounds: Bounds;
  timings: CoreTimings;
  /** Nominal latency range after T_heal, ms. */
  nominalLatencyMs: [number, number];
  eventBudget: number;
  /** The simulated planner of each session reads its catalog at intervals drawn from this range, ms. */
  plannerIntervalMs: [number, number];
  /** HMAC key for leases (hex), supplied by the world to the core and the servers. */
  leaseKey: string;
  policy: PolicyPlan;
  calls: CallsPlan;
  /** Valid sample arguments by tool name, for every tool the histories contain (planners' calls). */
  sampleArgs: Record<string, Record<string, unknown>>;
  servers: ServerPlan[];
  /**
   * Whether the round may end before T_end once its work is done (sim/tail/early-end.ts: the
   * world quiet, every owed key converged from ground truth, every probe decided, nothing in
   * flight, no fault left to act), the probe then being sent once every owed key converged.
   * Absent or false: the round runs the full quiet tail to T_end and probes at
   * `calls.probeAtMs`, as every plan written before it did.
   */
  earlyEnd?: boolean;
}
