/**
 * F29: a stateless gateway in front of a modern server drops every notification while
 * `listChanged` stays declared. One server behind a gateway (`era: 'gateway'`, latency 5 ms, pages
 * of 2, `ttlMs` 2500, refresh interval 1000 ms), acme.dev seeing read_file, write_file and
 * list_directory at revision 7 and search_files added at 1300 (revision 8); test/mutants/plans.ts
 * `gatewayPlan`. Worked out:
 *
 * - the host speaks 2025-11-25 to the gateway: `initialize` answered at 5, the session open at 10
 *   (no -32022, no listen stream), the gateway declaring `tools.listChanged: true`; every page the
 *   gateway passes on carries the server's `ttlMs` 2500 and `cacheScope` private;
 * - with F29 the change at 1300 is a notification lost at the gateway (`notification_sent`
 *   delivered false, no `notification_delivered`): the reference core reads it by polling, walks at
 *   10 (published at 40), 1040 (unchanged, 1070) and 2070 (page 1 of revision 8 served at 2075,
 *   generation 2 published at 2100); I33's deadline is 1300 + max(1000, 1, 20) + 5 = 2305, judged once;
 * - with an honest gateway the change reaches the core at 1305, and the scan 20 ms later publishes
 *   generation 2 at 1355 (I19's, not I33's: a pushed change is judged by the refresh bound), renewed
 *   at 3415;
 * - the mutant `trust-ttl` takes the TTL read at 20 as proof until 2520: with F29 it skips the polls
 *   at 1040 and 2070 and reads the change only at 2525 (I33 NOT_POLLED); with an honest gateway it
 *   moves the rescan the notification asked for to 2520 too (I19 REFRESH_STARVED, due by 1330).
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { gatewayPlan } from '../mutants/plans.ts';
import { publishes, runHand } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';

/** `[t, revision]` of every page 1 (cursorless, recheck included) the server answered. */
function firstPages(run: Awaited<ReturnType<typeof runHand>>): [number, number][] {
  return run
    .of('page_served')
    .filter((page) => page.cursorIn === null)
    .map((page) => [page.t, page.revision]);
}

/** Every `invariant code` of a verdict, sorted. */
function found(run: Awaited<ReturnType<typeof runHand>>): string[] {
  return [...new Set(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`))].sort();
}

function trustTtl() {
  const mutant = MUTANTS.find((candidate) => candidate.name === 'trust-ttl');
  if (mutant === undefined) throw new Error('no mutant trust-ttl');
  return mutant.core;
}

describe('F29: a stateless gateway drops every notification while listChanged stays declared', () => {
  it('the host opens a 2025-11-25 session with the gateway, whose pages pass the modern cache fields through', async () => {
    const run = await runHand(gatewayPlan());
    expect(run.of('session_opened').map((e) => e.t)).toEqual([10]);
    expect(run.of('server_up').map((e) => e.traits)).toEqual([['ERA:gateway']]);
    expect(run.of('listen_acknowledged')).toEqual([]);
    const pages = run.of('page_served');
    expect(pages.every((page) => page.ttlMs === 2500 && page.cacheScope === 'private')).toBe(true);
  });

  it('the reference core reads the unpushed change by polling, within I33’s bound', async () => {
    const run = await runHand(gatewayPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[1300, false]]);
    expect(run.of('notification_delivered')).toEqual([]);
    expect(firstPages(run)).toEqual([
      [15, 7],
      [35, 7],
      [1045, 7],
      [1065, 7],
      [2075, 8],
      [2095, 8],
      [3105, 8],
      [3125, 8],
    ]);
    expect(publishes(run).map(([t, key, generation, revision]) => [t, key, generation, revision])).toEqual([
      [40, KEY, 1, 7],
      [2100, KEY, 2, 8],
    ]);
    expect(run.verdict.checked.I33).toBe(1);
    expect(probesHit(run.events)).toContain('notification-dropped-at-gateway');
  });

  it('an honest gateway relays the change, and the core rescans 20 ms after it: I19 judges it, not I33', async () => {
    const run = await runHand(gatewayPlan({ dropsNotifications: false }));
    expect(run.verdict.violations).toEqual([]);
    expect(run.of('notification_delivered').map((e) => e.t)).toEqual([1305]);
    expect(publishes(run).map(([t, , generation, revision]) => [t, generation, revision])).toEqual([
      [40, 1, 7],
      [1355, 2, 8],
      // Generation 2 expires at 1325 + 4000 = 5325; the scan ended at 3415 is within two refresh
      // intervals of it, so the same content is published again (the renewal of SPEC section 6).
      [3415, 3, 8],
    ]);
    expect([run.verdict.checked.I19, run.verdict.checked.I33]).toEqual([1, 0]);
  });

  it('a core that trusts the TTL polls on it: I33 NOT_POLLED behind the stateless gateway', async () => {
    const run = await runHand(gatewayPlan(), trustTtl(), 'mutant:trust-ttl');
    expect(found(run)).toEqual(['I33 NOT_POLLED']);
    expect(firstPages(run).slice(0, 3)).toEqual([
      [15, 7],
      [35, 7],
      [2525, 8],
    ]);
    expect(run.verdict.violations[0]?.evidence).toBe(
      `the view of ${KEY} changed at t=1300 (revision seq ${run.of('revision')[1]?.seq}) and no list_changed reached the core; a fresh list was due by t=2305 (R 1000 ms), but the server answered the next fresh tools/list for that audience at t=2525 (seq ${run.of('page_served')[3]?.seq})`,
    );
  });

  it('behind an honest gateway the same core starves the refresh the notification asked for: I19', async () => {
    const run = await runHand(gatewayPlan({ dropsNotifications: false }), trustTtl(), 'mutant:trust-ttl');
    expect(found(run)).toEqual(['I19 REFRESH_STARVED']);
    expect(firstPages(run)[2]).toEqual([2525, 8]);
  });
});
