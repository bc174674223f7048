/**
 * The model turns of one round (SPEC section 8, seed 003), indexed from the world's events in one
 * pass: per reserved request, the world's `model_turn` (with its baseline), what the world's
 * extensions left on the request, every settlement the core made in the world's ledger, what the
 * model received, and when the core's turn ended. Settlements and receipts of request ids the
 * world never reserved are kept apart (I24 judges them).
 *
 * It also holds the one comparison every surface invariant uses: whether a list of tools the
 * world saw equals a turn's baseline (`surfaceDifference`).
 */
import type {
  BaselineTool,
  KnownEvent,
  ModelReceivedEvent,
  ModelTurnEndedEvent,
  ModelTurnEvent,
  RequestSettledEvent,
  RequestSurfaceEvent,
  SeenTool,
  SurfaceUnsupportedEvent,
} from './trace.ts';

/** Everything the world wrote about one reserved model request. */
export interface SurfaceTurn {
  readonly turn: ModelTurnEvent;
  /** What the request held when the hook pipeline finished (the world's last hook), if it ran. */
  hooks: RequestSurfaceEvent | undefined;
  /** What the request held when the late stage finished, if the core awaited it. */
  late: RequestSurfaceEvent | undefined;
  /** Every settlement attempt, in trace order (the second and later are refused by the ledger). */
  readonly settlements: RequestSettledEvent[];
  /** Every receipt by the model, in trace order. */
  readonly received: ModelReceivedEvent[];
  ended: ModelTurnEndedEvent | undefined;
}

/** The round's turns and what fits none. */
export interface SurfaceTurns {
  /** In `model_turn` order. */
  readonly turns: readonly SurfaceTurn[];
  readonly unreservedSettlements: readonly RequestSettledEvent[];
  readonly unreservedReceipts: readonly ModelReceivedEvent[];
  readonly unsupported: SurfaceUnsupportedEvent | undefined;
}

/**
 * The index of each events array: the check and the 28 surface probes of a round each ask for
 * the same array's (an array the oracle builds once and never changes).
 */
const turnsByEvents = new WeakMap<readonly KnownEvent[], SurfaceTurns>();

/**
 * Indexes the round's surface events (one pass), once per `events` array, which must not change
 * afterwards: every caller gets the same index and only reads it.
 */
export function buildSurfaceTurns(events: readonly KnownEvent[]): SurfaceTurns {
  let index = turnsByEvents.get(events);
  if (index === undefined) turnsByEvents.set(events, (index = indexSurfaceTurns(events)));
  return index;
}

function indexSurfaceTurns(events: readonly KnownEvent[]): SurfaceTurns {
  const byId = new Map<string, SurfaceTurn>();
  const turns: SurfaceTurn[] = [];
  const unreservedSettlements: RequestSettledEvent[] = [];
  const unreservedReceipts: ModelReceivedEvent[] = [];
  let unsupported: SurfaceUnsupportedEvent | undefined;
  for (const event of events) {
    if (event.src !== 'world') continue;
    switch (event.type) {
      case 'model_turn': {
        const turn: SurfaceTurn = {
          turn: event,
          hooks: undefined,
          late: undefined,
          settlements: [],
          received: [],
          ended: undefined,
        };
        if (!byId.has(event.requestId)) byId.set(event.requestId, turn);
        turns.push(turn);
        break;
      }
      case 'request_surface': {
        const turn = byId.get(event.requestId);
        if (turn !== undefined) turn[event.stage] = event;
        break;
      }
      case 'request_settled': {
        const turn = byId.get(event.requestId);
        if (turn === undefined) unreservedSettlements.push(event);
        else turn.settlements.push(event);
        break;
      }
      case 'model_received': {
        const turn = byId.get(event.requestId);
        if (turn === undefined) unreservedReceipts.push(event);
        else turn.received.push(event);
        break;
      }
      case 'model_turn_ended': {
        const turn = byId.get(event.requestId);
        if (turn !== undefined) turn.ended ??= event;
        break;
      }
      case 'surface_unsupported':
        unsupported ??= event;
        break;
      default:
        break;
    }
  }
  return { turns, unreservedSettlements, unreservedReceipts, unsupported };
}

/** How a list of tools differs from a baseline, first difference only. */
export interface SurfaceDifference {
  /** `UNADMITTED_TOOL` (a name not in the baseline), `MISSING_TOOL` (an uncontested tool absent), `ORDER_CHANGED`, `CONTENT_CHANGED` (description or schema). */
  readonly code: 'UNADMITTED_TOOL' | 'MISSING_TOOL' | 'ORDER_CHANGED' | 'CONTENT_CHANGED';
  readonly tool: string;
  /** Position in the list seen (null for a missing tool). */
  readonly index: number | null;
}

/**
 * The first difference between `seen` and `baseline`, or null when they are equal: every
 * uncontested baseline tool present, contested ones present or not, in baseline order, each with
 * the baseline's digest, and nothing else (no name twice).
 */
export function surfaceDifference(
  seen: readonly SeenTool[],
  baseline: readonly BaselineTool[],
): SurfaceDifference | null {
  const position = new Map(baseline.map((tool, index) => [tool.name, index]));
  const names = new Set(seen.map((tool) => tool.name));
  let next = 0;
  for (const [index, tool] of seen.entries()) {
    const at = position.get(tool.name);
    if (at === undefined) return { code: 'UNADMITTED_TOOL', tool: tool.name, index };
    if (at < next) return { code: 'ORDER_CHANGED', tool: tool.name, index };
    const skipped = baseline.slice(next, at).find((candidate) => !candidate.contested);
    if (skipped !== undefined)
      return names.has(skipped.name)
        ? { code: 'ORDER_CHANGED', tool: tool.name, index }
        : { code: 'MISSING_TOOL', tool: skipped.name, index: null };
    if ((baseline[at] as BaselineTool).digest !== tool.digest)
      return { code: 'CONTENT_CHANGED', tool: tool.name, index };
    next = at + 1;
  }
  const missing = baseline.slice(next).find((candidate) => !candidate.contested);
  return missing === undefined ? null : { code: 'MISSING_TOOL', tool: missing.name, index: null };
}

/** `"write_report" at position 4` / `"search" (missing)`, for evidence. */
export function showDifference(difference: SurfaceDifference): string {
  const where = difference.index === null ? ' (missing)' : ` at position ${difference.index}`;
  return `${difference.code} ${JSON.stringify(difference.tool)}${where}`;
}
