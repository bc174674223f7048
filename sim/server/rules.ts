/**
 * Fault rules of a simulated server, turmoil-style: small objects with one method each that the
 * fault registry (sim/faults/index.ts) builds from a server's plan, and that the plain server
 * (catalog-server.ts) consults at fixed points. The plain server knows no fault; a fault is the
 * rules its file contributes.
 *
 * Fault model: whatever the installed rules say; with none, the server is honest (it declares
 * `listChanged`, pages its current view with real cursors, reports its revision, notifies once
 * per change, checks revision pins, and never restarts or rotates).
 *
 * Order of calls, for each kind of rule, in registry order (the order of `ServerRules` lists):
 * - `onCapabilities` once per session, at connect, each on the previous one's result;
 * - `episodes` once, at `start()`; the episodes of every rule and the history's revision steps are
 *   scheduled sorted by (atMs, order), so at one instant a rotation comes before the catalog it
 *   brings, and a restart after both;
 * - per `tools/list` request: `onList` (the first code any rule returns refuses the request),
 *   then `onCursor` (each on the previous one's position), then the boot
 *   check, then `onPage` (each rule wraps the ones before it, so the last rule sees the final
 *   page), then the page is logged, then `afterPage`;
 * - per revision change: `onChange` (how many notifications the change sends; 1 without rules);
 *   per notification: `onNotification` until one says `drop`;
 * - per `tools/call`: `onPin` (the pin the server checks; null: none) after the lease check;
 *   per executed `tools/call`: `onResult` until one gives the structured content to answer with;
 * - per `subscriptions/listen` reaching a modern server: `onListen` until one says `hold`.
 */
import type { Rng } from '../random.ts';
import type { ToolDescriptor } from '../plan/types.ts';
import type { CursorPosition } from './cursor.ts';

/** What a rule may read of the world: virtual time, T_heal, and seeded streams of its server. */
export interface RuleEnv {
  /** Virtual ms now. */
  now(): number;
  /** T_heal of the round, ms: episodes stop acting at it. */
  readonly tHealMs: number;
  /** The stream `run/<server id>/<name>` of the round (one per name, shared by whoever asks). */
  stream(name: string): Rng;
}

/** One `tools/list` request as the page rules see it. */
export interface PageRequest {
  /** The audience proved by the transport. */
  readonly audience: string;
  readonly scanId: string | null;
  /** The cursor as sent; undefined for page 1. */
  readonly cursor: string | undefined;
  /** Where the cursor points (after the cursor rules and the boot check). */
  readonly position: CursorPosition;
  /** The server's boot now (each restart counts it up). */
  readonly boot: number;
  /** The current revision, which a versioned page reports. */
  readonly revision: number;
}

/** One page as served. */
export interface ServedPage {
  readonly tools: readonly ToolDescriptor[];
  readonly nextCursor: string | undefined;
  /** The revision the page reports in `_meta`, or null for none. */
  readonly reported: number | null;
  /** The offset right after this page's slot: its position's offset plus the drawn page size. */
  readonly nextOffset: number;
  /**
   * The `cacheScope` a modern-era page says, when a rule changes it (F24); absent: the server's
   * own (`plan.cacheScope`). A legacy page says none whatever this is.
   */
  readonly cacheScope?: 'public' | 'private';
  /**
   * The `ttlMs` a modern-era page says, when a rule changes it (F30); absent: the server's own
   * (`plan.cacheTtlMs`). A legacy page says none whatever this is.
   */
  readonly ttlMs?: number;
}

/** Serves a page (the plain server, or the rules inside this one). */
export type ServePage = (request: PageRequest) => ServedPage;

/** What the server declares under `capabilities.tools`. */
export interface ToolsCapability {
  listChanged?: boolean;
}

/** What the server can be told to do by an episode or a rule. */
export interface ServerControl {
  /** Presents a new identity from now on (certificate rotation). */
  rotate(identity: string): void;
  /** Restarts: the boot counts up, so cursors of earlier boots become invalid. */
  restart(): void;
  /** Sends one `list_changed` to the latest session of `audience`, in the same instant, after the current step. */
  notifySoon(audience: string): void;
  /** F27: every live modern session stops delivering on its listen streams without ending them. */
  silenceListens(): void;
  /** F27: every live modern session ends its acknowledged listen streams (`resultType: "complete"`). */
  completeListens(): void;
}

/** Something the server does at a planned time. */
export interface ServerEpisode {
  readonly atMs: number;
  /** Tie-break at one instant: EPISODE_ORDER. */
  readonly order: number;
  run(control: ServerControl): void;
}

/** At one instant: a rotation first, then the revision step it may bring, then a restart, then a planned notification (F20). */
export const EPISODE_ORDER = { rotation: 0, revision: 1, restart: 2, notification: 3 } as const;

/** Changes the capabilities a session is offered. */
export interface CapabilityRule {
  onCapabilities(tools: ToolsCapability): ToolsCapability;
}

/** Changes where a cursor points; undefined: the cursor is invalid (-32602). */
export interface CursorRule {
  onCursor(cursor: string | undefined, position: CursorPosition | undefined, boot: number): CursorPosition | undefined;
}

/** Changes a page: calls `serve` (or not) and returns the page to send. */
export interface PageRule {
  onPage(request: PageRequest, serve: ServePage): ServedPage;
}

/** Acts after a page was served and logged (e.g. a notification right after page 2). */
export interface PageServedRule {
  afterPage(served: { scanId: string | null; sessionAudience: string }, control: ServerControl): void;
}

/** How many `list_changed` notifications a revision change sends (copies: the count so far). */
export interface ChangeRule {
  onChange(copies: number): number;
}

/** Whether one notification to `audience` reaches the link or is lost on the way. */
export interface NotificationRule {
  onNotification(audience: string): 'deliver' | 'drop';
}

/** The revision pin the server checks for a call (null: it checks none). */
export interface PinRule {
  onPin(pin: number | null): number | null;
}

/** One call the server has just executed (written in `call_executed`), as the result rules see it. */
export interface ExecutedCall {
  readonly audience: string;
  readonly tool: string;
  /** The descriptor the server executed (the audience's view first, else any view of the current revision). */
  readonly descriptor: ToolDescriptor;
}

/**
 * The `structuredContent` the server answers an executed call with (F33), or null to answer
 * without one (a text block only, as an honest server of this house does).
 */
export interface ResultRule {
  onResult(call: ExecutedCall): Record<string, unknown> | null;
}

/**
 * Whether the server refuses a `tools/list` of `audience` outright, before any cursor is read:
 * the JSON-RPC error code to answer with, or null to serve it.
 */
export interface ListRefusalRule {
  onList(audience: string): number | null;
}

/**
 * Whether a modern server takes up a `subscriptions/listen` request that reaches it now
 * (`hold`: it never acknowledges it and delivers nothing on it, F27).
 */
export interface ListenRule {
  onListen(): 'acknowledge' | 'hold';
}

/** Planned episodes (rotations, restarts). */
export interface EpisodeRule {
  episodes(): ServerEpisode[];
}

/** Any server rule. */
export type ServerRule =
  | CapabilityRule
  | ListRefusalRule
  | CursorRule
  | PageRule
  | PageServedRule
  | ChangeRule
  | NotificationRule
  | PinRule
  | ResultRule
  | ListenRule
  | EpisodeRule;

/** A server's rules sorted by what they act on, each list in registry order. */
export interface ServerRules {
  readonly capabilities: readonly CapabilityRule[];
  readonly refusals: readonly ListRefusalRule[];
  readonly cursors: readonly CursorRule[];
  readonly pages: readonly PageRule[];
  readonly served: readonly PageServedRule[];
  readonly changes: readonly ChangeRule[];
  readonly notifications: readonly NotificationRule[];
  readonly pins: readonly PinRule[];
  readonly results: readonly ResultRule[];
  readonly listens: readonly ListenRule[];
  readonly episodes: readonly EpisodeRule[];
}

/** Sorts rules by their one method, keeping their order. */
export function sortRules(rules: readonly ServerRule[]): ServerRules {
  return {
    capabilities: rules.filter((rule): rule is CapabilityRule => 'onCapabilities' in rule),
    refusals: rules.filter((rule): rule is ListRefusalRule => 'onList' in rule),
    cursors: rules.filter((rule): rule is CursorRule => 'onCursor' in rule),
    pages: rules.filter((rule): rule is PageRule => 'onPage' in rule),
    served: rules.filter((rule): rule is PageServedRule => 'afterPage' in rule),
    changes: rules.filter((rule): rule is ChangeRule => 'onChange' in rule),
    notifications: rules.filter((rule): rule is NotificationRule => 'onNotification' in rule),
    pins: rules.filter((rule): rule is PinRule => 'onPin' in rule),
    results: rules.filter((rule): rule is ResultRule => 'onResult' in rule),
    listens: rules.filter((rule): rule is ListenRule => 'onListen' in rule),
    episodes: rules.filter((rule): rule is EpisodeRule => 'episodes' in rule),
  };
}

/** The rules of an honest server: none. */
export const NO_RULES: ServerRules = sortRules([]);
