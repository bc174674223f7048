/**
 * A round plan: plain JSON data produced from a round's seed and executed by the round runner
 * (SPEC section 10, "Seed -> plan -> run"). Shrinking edits plans; `replay --plan FILE` runs one.
 * All times are virtual ms from the start of the round.
 */

/** Fault kinds of the fault menu (SPEC section 10). */
export type FaultId = 'F1' | 'F2' | 'F3' | 'F4' | 'F5' | 'F6' | 'F7' | 'F8' | 'F9' | 'F10' | 'F11' | 'F12' | 'F13' | 'F14' | 'F15' | 'F16' | 'F17';

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

/** Cursor misbehaviour (F5), a persistent trait. */
export type CursorTrait = 'repeat' | 'cycle' | 'always-empty' | 'never-ending' | 'ignored' | 'empty-page-with-next';

/** How a server sends `tools/list_changed` (F3). */
export interface NotificationPlan {
  /** Whether the server declares `tools.listChanged` in its capabilities. */
  declared: boolean;
  /** Whether it sends the notification on a change at all. */
  sendOnChange: boolean;
  /** Extra notification after serving page 2 of a scan, until T_heal. */
  afterPage2: boolean;
  /** Added to the notification's delivery latency until T_heal (late notifications), ms. */
  lateByMs: number;
  /** Each change notification is sent this many times (duplicates), >= 1. */
  copies: number;
}

/** One simulated MCP server. */
export interface ServerPlan {
  id: string;
  /** Key fingerprint the connection presents (peerIdentity). */
  identity: string;
  /** F12 false: pages carry no revision. */
  versioned: boolean;
  /** Audiences the world connects as, `tenant.role`. */
  audiences: string[];
  history: RevisionStep[];
  /** Page sizes drawn per request from this inclusive range. */
  pageSizeMin: number;
  pageSizeMax: number;
  cursorTrait: CursorTrait | null;
  /** F11: the server restarts at these times (cursors become invalid, the revision survives). */
  restartsAtMs: number[];
  notifications: NotificationPlan;
  /** Message latency of this server's links, inclusive range, ms (after T_heal: nominal). */
  latencyMsMin: number;
  latencyMsMax: number;
}

/** Everything one round runs. */
export interface RoundPlan {
  schema: 'catsim.plan.v1';
  seed: string;
  round: number;
  roundSeed: string;
  scenario: string;
  faults: FaultId[];
  bounds: Bounds;
  timings: CoreTimings;
  /** Nominal latency range after T_heal, ms. */
  nominalLatencyMs: [number, number];
  eventBudget: number;
  servers: ServerPlan[];
}
