/**
 * F30: `ttlMs` of 0, shorter than a walk, or longer than the round, while the server changes its
 * list anyway. One modern server (latency 5 ms, pages of 2, its own `ttlMs` 250, refresh interval
 * 1000 ms), acme.dev seeing read_file, write_file and list_directory at revision 7 and search_files
 * added at 1300 (revision 8, F30's edit), notified on the listen stream. Worked out:
 *
 * - the session opens at 20 (the legacy `initialize` refused at 10, the listen acknowledged at 20);
 *   walks at 20 (pages 1 and 2 at 25 and 35, the recheck at 45, published at 50) and 1050 (1055 to
 *   1075, unchanged); the change reaches the core at 1305 and the scan 20 ms later reads revision 8
 *   from 1330 and publishes it at 1355; polls at 2355 and 3385 (renewed at 3415, within two
 *   refresh intervals of generation 2's expiry at 5325);
 * - every page says F30's TTL, and the reference core's walks are the same for all three kinds: a
 *   TTL of 0 makes it poll no faster, a TTL of 3 ms (expired at 23, before page 2 is read) ends no
 *   walk, and one of 60 s holds back no rescan;
 * - the mutant `trust-ttl` is the reference loop with a TTL of 0 or 3 ms (expired before its next
 *   scan is due); with 60 s it moves the rescan the notification asked for past the round: I19
 *   REFRESH_STARVED (due by 1305 + max(20, 1) + 5 = 1330), I12 NOT_CONVERGED, and its probe calls,
 *   held at the barrier, never decided (I12 PROBE_NOT_DECIDED).
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { F30, type TtlPlan } from '../../sim/faults/f30-ttl.ts';
import type { ServerDraft } from '../../sim/faults/draft.ts';
import type { ProtocolEra } from '../../sim/faults/eras.ts';
import type { Scenario } from '../../sim/plan/scenario-types.ts';
import type { RoundPlan, ServerPlan } from '../../sim/plan/types.ts';
import { handPlan, handServer, pickingRng, publishes, runHand, step, tools } from '../support/hand-plan.ts';

function plan(ttl: TtlPlan, era: ProtocolEra = 'modern'): RoundPlan {
  const server = handServer({
    history: [
      step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') }),
      step(1300, 8, { 'acme.dev': tools('read_file', 'write_file', 'list_directory', 'search_files') }, 'F30'),
    ],
  });
  const modern = era === 'legacy' ? {} : { era, cacheTtlMs: 250, cacheScope: 'private' as const };
  return handPlan({ faults: ['F30'], tHealMs: 1500, servers: [{ ...server, ...modern, ttl }] });
}

const KINDS: TtlPlan[] = [
  { kind: 'zero', ttlMs: 0 },
  { kind: 'short', ttlMs: 3 },
  { kind: 'long', ttlMs: 60_000 },
];

/** `[t, page 1?, revision]` of every page served. */
function pages(run: Awaited<ReturnType<typeof runHand>>): [number, boolean, number][] {
  return run.of('page_served').map((page) => [page.t, page.cursorIn === null, page.revision]);
}

function trustTtl() {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'trust-ttl');
  if (mutant === undefined) throw new Error('no mutant trust-ttl');
  return mutant.core;
}

describe('F30: a TTL that says nothing true about when the list changes', () => {
  it('every page says the TTL, and the reference core walks the same whatever it says', async () => {
    for (const ttl of KINDS) {
      const run = await runHand(plan(ttl));
      expect(run.verdict.violations, ttl.kind).toEqual([]);
      expect(new Set(run.of('page_served').map((page) => page.ttlMs)), ttl.kind).toEqual(new Set([ttl.ttlMs]));
      expect(pages(run), ttl.kind).toEqual([
        [25, true, 7],
        [35, false, 7],
        [45, true, 7],
        [1055, true, 7],
        [1065, false, 7],
        [1075, true, 7],
        [1330, true, 8],
        [1340, false, 8],
        [1350, true, 8],
        [2360, true, 8],
        [2370, false, 8],
        [2380, true, 8],
        [3390, true, 8],
        [3400, false, 8],
        [3410, true, 8],
      ]);
      expect(run.of('notification_delivered').map((e) => e.t)).toEqual([1305]);
      expect(publishes(run).map(([t, , generation, revision]) => [t, generation, revision])).toEqual([
        [50, 1, 7],
        [1355, 2, 8],
        [3415, 3, 8],
      ]);
      expect([run.verdict.checked.I19, run.verdict.checked.I33]).toEqual([1, 0]);
      // Only the 60 s TTL still held at the change (1300): the last page before it said 3 ms or 0.
      expect(probesHit(run.events).includes('changed-within-ttl'), ttl.kind).toBe(ttl.kind === 'long');
    }
  });

  it('a legacy server says no TTL even when the plan holds one', async () => {
    const run = await runHand(plan({ kind: 'zero', ttlMs: 0 }, 'legacy'));
    expect(run.verdict.violations).toEqual([]);
    expect(run.of('page_served').some((page) => 'ttlMs' in page)).toBe(false);
  });

  it('a core that trusts the TTL is caught only when the TTL outlasts the change: I19, then I12', async () => {
    for (const ttl of KINDS.slice(0, 2)) {
      const run = await runHand(plan(ttl), trustTtl(), 'mutant:trust-ttl');
      expect(run.verdict.violations, ttl.kind).toEqual([]);
    }
    const run = await runHand(plan(KINDS[2] as TtlPlan), trustTtl(), 'mutant:trust-ttl');
    expect([...new Set(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`))].sort()).toEqual([
      'I12 NOT_CONVERGED',
      'I12 PROBE_NOT_DECIDED',
      'I19 REFRESH_STARVED',
    ]);
    expect(run.verdict.violations.find((v) => v.invariant === 'I19')?.evidence).toBe(
      `a list_changed for fp:0000000000000001|acme.dev reached the core at t=1305 (seq ${run.of('notification_delivered')[0]?.seq}); a fresh list was due by t=1330, but the server answered no fresh tools/list for that audience after it`,
    );
    expect(publishes(run).map(([t, , generation, revision]) => [t, generation, revision])).toEqual([[50, 1, 7]]);
  });

  it('generates one kind per server, its TTL and its edits from the fault’s own stream', () => {
    const changes: ServerDraft['changes'][number][] = [];
    const server = {} as ServerPlan;
    const draft = { scenario: { tHealMs: 3000 } as Scenario, server, changes } as unknown as ServerDraft;
    const rates = {
      serverFraction: 0.5,
      kinds: ['long'],
      shortTtlMs: { min: 1, max: 30 },
      longTtlMs: { min: 30_000, max: 3_600_000 },
      changesPerServer: { min: 1, max: 2 },
    };
    // The picking rng draws every range at its minimum: a long TTL of 30 s and one edit at 1 ms.
    F30.generate?.episodes?.(draft, pickingRng('long'), rates as never);
    expect(server.ttl).toEqual({ kind: 'long', ttlMs: 30_000 });
    expect(changes.map((change) => [change.atMs, change.cause, change.kind])).toEqual([[1, 'F30', 'edit']]);
  });
});
