/**
 * The determinism self-check (SPEC section 11): replay a sample of rounds in a fresh world and
 * compare trace digests; a difference is a testbed fault, named by the first event where the two
 * runs part.
 */
import type { CoreFactory } from '../sim/guard/adapter.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import type { Scenario } from '../sim/plan/scenario.ts';
import type { PoolTool } from '../sim/plan/tool-pool.ts';
import { runRound } from '../sim/round.ts';
import { traceDigest, type TraceEvent } from '../sim/trace/recorder.ts';

/** Whether round `round` is in the replay sample: about 1 in `every` (0 disables). */
export function isSampled(round: number, every: number): boolean {
  return every > 0 && round % every === Math.floor(every / 2) % every;
}

/**
 * Replays a round and returns 'same', or the first differing seq (null if only the header differs).
 * `pool` must be the one the original run used (undefined: the built-in pool).
 */
export async function replayCompare(
  seed: string,
  round: number,
  scenario: Scenario,
  core: CoreFactory,
  coreName: string,
  original: { digest: string; events: readonly TraceEvent[] },
  pool?: readonly PoolTool[],
): Promise<'same' | number | null> {
  const again = await runRound(generatePlan(seed, round, scenario, pool), core, coreName);
  if (traceDigest(again.header, again.events) === original.digest) return 'same';
  return firstDifference(original.events, again.events);
}

/** The seq of the first event that differs between two event lists, or null when none does. */
export function firstDifference(a: readonly TraceEvent[], b: readonly TraceEvent[]): number | null {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
  }
  return null;
}
