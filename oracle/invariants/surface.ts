/**
 * I22-I26: the tool surface (SPEC section 8, seed 003), judged from ground truth only. The world
 * computed each turn's baseline itself (from the generation the core disclosed to the session and
 * the grants the policy service held; `model_turn`), looked at the request after its hooks and
 * after its late stage, kept the request ledger the core settles in, and was the model. The core
 * writes nothing here, so nothing it could claim is trusted.
 *
 * - I22 surface parity: every surface the model received equals the turn's baseline (count, order,
 *   names, descriptions, schemas; no tool the baseline lacks). Codes: see `surfaceDifference`.
 * - I23 no mismatched dispatch: a request whose tools differed from the baseline when the hooks
 *   finished, or when the late stage finished (before the dispatch), is never dispatched
 *   (`MISMATCH_DISPATCHED`): the early and the final check.
 * - I24 settled exactly once: every reservation whose turn ended (or that was still open when a
 *   settled round ended) was settled (`NOT_SETTLED`), once (`SETTLED_TWICE`); a refused request
 *   never reaches the model (`REFUSED_BUT_DISPATCHED`); the model receives a request only after it
 *   was settled `dispatched` (`DISPATCHED_UNSETTLED`), once (`DISPATCHED_TWICE`), and one settled
 *   `dispatched` reaches it before its turn ends (`SETTLED_NOT_SENT`); nothing is
 *   settled or dispatched that the world never reserved (`UNRESERVED`).
 * - I25 capacity is explicit: a capacity that cannot hold the baseline's uncontested tools ends
 *   in CAPACITY_EXCEEDED, never in a dispatch (`SHORTFALL_DISPATCHED`) or another refusal
 *   (`SHORTFALL_NOT_EXPLICIT`); one that holds every tool is never CAPACITY_EXCEEDED
 *   (`CAPACITY_WITHOUT_SHORTFALL`).
 * - I26 no false refusal: a turn whose hooks and late stage are all harmless, and whose capacity
 *   (if any) holds the whole baseline, is not refused (`FALSE_REFUSAL`).
 */
import type { RequestSettledEvent } from '../trace.ts';
import { showDifference, surfaceDifference, type SurfaceTurn } from '../surface-turns.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Reports I22-I26 for the round's model turns. */
export function checkSurface(context: CheckContext, findings: Findings): void {
  const { surface } = context;
  for (const turn of surface.turns) {
    checkParity(turn, findings);
    checkMismatchedDispatch(turn, findings);
    checkSettlement(turn, context, findings);
    checkCapacity(turn, findings);
    checkFalseRefusal(turn, findings);
  }
  for (const settled of surface.unreservedSettlements) {
    findings.add(
      'I24',
      settled.seq,
      'UNRESERVED',
      `request ${JSON.stringify(settled.requestId)} was settled ${settled.settlement} at seq ${settled.seq}, but the world never reserved it`,
    );
  }
  for (const received of surface.unreservedReceipts) {
    findings.add(
      'I24',
      received.seq,
      'UNRESERVED',
      `the model received request ${JSON.stringify(received.requestId)} at seq ${received.seq}, which the world never reserved`,
    );
  }
}

const label = (turn: SurfaceTurn): string =>
  `model turn ${JSON.stringify(turn.turn.requestId)} (seq ${turn.turn.seq}, hooks [${turn.turn.hooks.join(', ')}]${turn.turn.late === null ? '' : `, late ${turn.turn.late}`})`;

/** The first accepted settlement, if any. */
const firstSettlement = (turn: SurfaceTurn): RequestSettledEvent | undefined => turn.settlements[0];

/** The seq of the dispatch: the first `dispatched` settlement or the first receipt, whichever is earlier. */
function dispatchSeq(turn: SurfaceTurn): number | null {
  const settled = turn.settlements.find((s) => s.settlement === 'dispatched')?.seq ?? Number.POSITIVE_INFINITY;
  const received = turn.received[0]?.seq ?? Number.POSITIVE_INFINITY;
  const seq = Math.min(settled, received);
  return Number.isFinite(seq) ? seq : null;
}

function checkParity(turn: SurfaceTurn, findings: Findings): void {
  for (const received of turn.received) {
    findings.count('I22');
    const difference = surfaceDifference(received.tools, turn.turn.baseline);
    if (difference === null) continue;
    findings.add(
      'I22',
      received.seq,
      difference.code,
      `${label(turn)}: the model received ${received.tools.length} tools at seq ${received.seq}, ${showDifference(difference)} against the world's baseline of ${turn.turn.baseline.length}`,
    );
  }
}

function checkMismatchedDispatch(turn: SurfaceTurn, findings: Findings): void {
  const dispatched = dispatchSeq(turn);
  if (dispatched === null) return;
  findings.count('I23');
  for (const seen of [turn.hooks, turn.late]) {
    if (seen === undefined || seen.seq > dispatched) continue;
    const difference = surfaceDifference(seen.tools, turn.turn.baseline);
    if (difference === null) continue;
    const check = seen.stage === 'hooks' ? 'the early check' : 'the final check';
    findings.add(
      'I23',
      dispatched,
      'MISMATCH_DISPATCHED',
      `${label(turn)}: after its ${seen.stage === 'hooks' ? 'hooks' : 'late stage'} (seq ${seen.seq}) the request held ${showDifference(difference)}, yet it was dispatched at seq ${dispatched} (${check} should have refused it)`,
    );
    return;
  }
}

function checkSettlement(turn: SurfaceTurn, context: CheckContext, findings: Findings): void {
  findings.count('I24');
  const [first, second] = turn.settlements;
  const roundSettled = context.truth.roundEnd?.status === 'settled';
  if (first === undefined && (turn.ended !== undefined || roundSettled)) {
    const when = turn.ended === undefined ? 'the round ended' : `its turn ended at seq ${turn.ended.seq}`;
    findings.add('I24', turn.ended?.seq ?? null, 'NOT_SETTLED', `${label(turn)} was never settled, and ${when}`);
  }
  if (second !== undefined)
    findings.add(
      'I24',
      second.seq,
      'SETTLED_TWICE',
      `${label(turn)} was settled ${first?.settlement} at seq ${first?.seq} and again ${second.settlement} at seq ${second.seq}`,
    );
  const [received, again] = turn.received;
  if (received === undefined) {
    if (first?.settlement === 'dispatched' && turn.ended !== undefined)
      findings.add(
        'I24',
        turn.ended.seq,
        'SETTLED_NOT_SENT',
        `${label(turn)} was settled dispatched at seq ${first.seq}, but its turn ended at seq ${turn.ended.seq} without the model receiving it`,
      );
    return;
  }
  if (first?.settlement === 'preDispatchRejected' && first.seq < received.seq) {
    findings.add(
      'I24',
      received.seq,
      'REFUSED_BUT_DISPATCHED',
      `${label(turn)} was settled preDispatchRejected ${first.code ?? '(no code)'} at seq ${first.seq}, yet the model received it at seq ${received.seq}`,
    );
  } else if (first === undefined || first.seq > received.seq || first.settlement !== 'dispatched') {
    findings.add(
      'I24',
      received.seq,
      'DISPATCHED_UNSETTLED',
      `the model received ${label(turn)} at seq ${received.seq} before it was settled dispatched`,
    );
  }
  if (again !== undefined)
    findings.add(
      'I24',
      again.seq,
      'DISPATCHED_TWICE',
      `the model received ${label(turn)} at seq ${received.seq} and again at seq ${again.seq}`,
    );
}

function checkCapacity(turn: SurfaceTurn, findings: Findings): void {
  const { capacity } = turn.turn;
  if (capacity === null) return;
  findings.count('I25');
  const first = firstSettlement(turn);
  const figures = `${capacity.limit} ${capacity.available}, the baseline needs ${capacity.requiredMin}${capacity.requiredMax === capacity.requiredMin ? '' : `-${capacity.requiredMax}`}`;
  if (capacity.requiredMin > capacity.available) {
    const received = turn.received[0];
    if (received !== undefined)
      findings.add(
        'I25',
        received.seq,
        'SHORTFALL_DISPATCHED',
        `${label(turn)}: ${figures}, yet the model received ${received.tools.length} tools at seq ${received.seq} (a silent cut instead of CAPACITY_EXCEEDED)`,
      );
    else if (first !== undefined && first.code !== 'CAPACITY_EXCEEDED')
      findings.add(
        'I25',
        first.seq,
        'SHORTFALL_NOT_EXPLICIT',
        `${label(turn)}: ${figures}, refused ${first.code ?? '(no code)'} at seq ${first.seq} instead of CAPACITY_EXCEEDED`,
      );
  } else if (capacity.requiredMax <= capacity.available && first?.code === 'CAPACITY_EXCEEDED') {
    findings.add(
      'I25',
      first.seq,
      'CAPACITY_WITHOUT_SHORTFALL',
      `${label(turn)}: ${figures}, refused CAPACITY_EXCEEDED at seq ${first.seq} although everything fits`,
    );
  }
}

function checkFalseRefusal(turn: SurfaceTurn, findings: Findings): void {
  const { capacity, harmless } = turn.turn;
  if (!harmless || (capacity !== null && capacity.requiredMax > capacity.available)) return;
  findings.count('I26');
  const first = firstSettlement(turn);
  if (first?.settlement !== 'preDispatchRejected') return;
  const detail = [first.code ?? '(no code)', first.check, first.field, first.limit]
    .filter((part) => part !== null)
    .join(' ');
  findings.add(
    'I26',
    first.seq,
    'FALSE_REFUSAL',
    `${label(turn)}: every extension is harmless${capacity === null ? '' : ' and the capacity holds the baseline'}, yet the core refused it (${detail}) at seq ${first.seq}`,
  );
}
