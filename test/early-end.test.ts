/**
 * The early end of a round (issue 32; sim/tail/early-end.ts, DESIGN.md section 10): a round whose
 * plan says `earlyEnd` ends before T_end only once its work is done. Hand plans, a fixed latency
 * (5 ms after T_heal), T_heal 500, a rescan every 300 ms, B 300 and a policy poll every 500 ms,
 * so the first checkpoint is at 500 + max(300, 500 + 2 x 5) = 1010 and the next ones every 50 ms.
 * Each case keeps one obligation open past the checkpoints that would otherwise have ended the
 * round, and the times below are worked out from it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreFactory } from '../contract/core-api.ts';
import { MUTANTS } from '../cores/mutants/index.ts';
import { referenceCore } from '../cores/reference.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import { MUTANT_PLANS } from './mutants/plans.ts';
import { handPlan, handServer, runHand, step, tools, type HandPlanOptions } from './support/hand-plan.ts';
import { runMain } from './support/run-main.ts';

const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];
const TIMINGS = { tHealMs: 500, refreshIntervalMs: 300, revocationBoundMs: 300 };

/** One server, five tools at revision 7, nothing happening: T_end 2022, probe at 1522 in a full tail. */
function quiet(options: Partial<HandPlanOptions> = {}, earlyEnd = true): RoundPlan {
  const plan = handPlan({
    servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
    ...TIMINGS,
    ...options,
  });
  return earlyEnd ? { ...plan, earlyEnd } : plan;
}

/** `run`'s end: [reason, t of round_end, t of each probe planned]. */
async function endOf(plan: RoundPlan, core?: CoreFactory): Promise<[string, number, number[]]> {
  const run = await runHand(plan, core);
  expect(run.verdict.violations).toEqual([]);
  return [run.reason, run.events.at(-1)!.t, run.of('plan_made').map((event) => event.t)];
}

/** The reference core, whose `call` waits `delayMs` on its own timer before the gate decides. */
function slowCalls(delayMs: number): CoreFactory {
  return (env) => {
    const inner = referenceCore()(env);
    const call = (request: Parameters<typeof inner.call>[0]) =>
      new Promise<void>((resolve) => env.scheduler.after(delayMs, () => resolve(inner.call(request))));
    return new Proxy(inner, {
      get: (target, name) => {
        if (name === 'call') return call;
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
}

/** The reference core, plus one scan of its own reported open from `atMs` for `openMs` (no page asked). */
function heldScan(atMs: number, openMs: number): CoreFactory {
  return (env) => {
    const inner = referenceCore()(env);
    env.scheduler.after(atMs, () => {
      env.sink.emit({
        type: 'scan_started',
        key: 'fp:0000000000000001|acme.dev',
        scanId: 'held',
        expectedGeneration: 1,
        policyEpoch: 1,
      });
      env.scheduler.after(openMs, () =>
        env.sink.emit({ type: 'scan_ended', scanId: 'held', state: 'INCOMPLETE', reason: 'TIMEOUT' }),
      );
    });
    return inner;
  };
}

describe('the early end', () => {
  it('ends a quiet round once the probes are decided: the first checkpoint (1010) probes, the third (1110) ends it', async () => {
    // The checkpoint at 1060 finds the rescan begun at 1040 still open (it ends at 1070).
    expect(await endOf(quiet())).toEqual(['done', 1110, [1010, 1010, 1010, 1010, 1010]]);
    // The same plan without earlyEnd runs the whole tail, as every plan before issue 32 did.
    expect(await endOf(quiet({}, false))).toEqual(['horizon', 2022, [1522, 1522, 1522, 1522, 1522]]);
  });

  it('a key still converging keeps the round alive: no probe until the publish of revision 8 (1080)', async () => {
    const five = tools(...FIVE);
    const plan = quiet({
      refreshIntervalMs: 1000,
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': five }), step(490, 8, { 'acme.dev': five.slice(0, 4) }, 'F1')],
          notifications: { sendOnChange: false },
        }),
      ],
    });
    // Rescans come every 1000 ms and no list_changed is sent: the change at 490 is read by the
    // rescan of 1050, published at 1080; the checkpoints at 1010 and 1060 find the key at revision 7.
    expect(await endOf(plan)).toEqual(['done', 1160, [1110, 1110, 1110, 1110]]);
  });

  it('a probe still owed keeps the round alive: calls the core decides 200 ms late end it at 1260', async () => {
    // Probes at 1010 are sent at 1011..1028 and decided at 1211..1228 (the core's own timer, no
    // world event in between): the checkpoints from 1060 to 1210 see a call in flight.
    expect(await endOf(quiet(), slowCalls(200))).toEqual(['done', 1260, [1010, 1010, 1010, 1010, 1010]]);
  });

  it('a scan in flight keeps the round alive: a scan the core holds open from 1040 to 1440 ends it at 1460', async () => {
    expect(await endOf(quiet(), heldScan(1040, 400))).toEqual(['done', 1460, [1010, 1010, 1010, 1010, 1010]]);
  });

  it("a fault's act still queued keeps the round alive: a change planned at 1300 is published and probed before the end", async () => {
    const five = tools(...FIVE);
    const plan = quiet({
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': five }), step(1300, 8, { 'acme.dev': five.slice(0, 4) }, 'F1')],
        }),
      ],
    });
    const run = await runHand(plan);
    expect(run.verdict.violations).toEqual([]);
    // The change is a world event queued from the start: no checkpoint before it finds the world
    // idle. Its list_changed (1305) brings the relist of 1325, published at 1355; the checkpoint at
    // 1360 probes the 4 tools, and the one at 1410 ends the round.
    expect([
      run.reason,
      run.events.at(-1)!.t,
      run.of('published').map((event) => [event.t, event.sourceRevision]),
      run.of('plan_made').map((event) => event.t),
    ]).toEqual([
      'done',
      1410,
      [
        [50, 7],
        [1355, 8],
      ],
      [1360, 1360, 1360, 1360],
    ]);
  });

  it('gives up what only the late tail shows: late-empty-publish is caught in a full tail, not in a round that ends early', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'late-empty-publish')!;
    const full = await runHand(MUTANT_PLANS['late-empty-publish']!(), mutant.core, mutant.name);
    expect(full.reason).toBe('horizon');
    expect(full.of('published').map((event) => [event.t, event.tools.length])).toEqual([
      [50, 5],
      [1750, 0],
    ]);
    const early = await runHand({ ...MUTANT_PLANS['late-empty-publish']!(), earlyEnd: true }, mutant.core, mutant.name);
    expect([early.reason, early.events.at(-1)!.t, early.verdict.violations]).toEqual(['done', 1110, []]);
  });
});

describe('traces of a campaign with early ends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-early-end-'));
  const report = (file: string) =>
    JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      campaignDigest: string;
      tail: { endedEarly: number; fullTailRounds: number[] };
    };
  const RUN = ['run', '--seed', '1', '--rounds', '8', '--no-progress', '--no-shrink', '--determinism-every', '4'];

  it('are byte-identical with 0, 1 and 2 workers and across shards, and the report says which rounds ran the whole tail', async () => {
    for (const workers of ['0', '1', '2'])
      expect((await runMain([...RUN, '--workers', workers, '--report', join(dir, `w${workers}.json`)])).code).toBe(0);
    for (const shard of ['1/2', '2/2'])
      expect(
        (await runMain([...RUN, '--workers', '1', '--shard', shard, '--report', join(dir, `s${shard[0]}.json`)])).code,
      ).toBe(0);
    expect(
      (await runMain(['merge', join(dir, 's1.json'), join(dir, 's2.json'), '--report', join(dir, 'm.json')])).code,
    ).toBe(0);
    const whole = report('w0.json');
    for (const file of ['w1.json', 'w2.json', 'm.json']) expect(report(file).campaignDigest).toBe(whole.campaignDigest);
    // Seed 1 rounds 0..7 of the default scenario: round 7 drew the whole tail (1 in 8 on round/TAIL);
    // every other round's keys converged and its probes were decided well before T_end.
    expect(whole.tail).toEqual({ endedEarly: 7, fullTailRounds: [7] });
    expect(report('m.json').tail).toEqual(whole.tail);
  });
});
