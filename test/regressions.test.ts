/**
 * Rounds that once failed a long campaign, kept as shrunk plans (`scenarios/plans/`) with what
 * was learned from each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEvents } from '../oracle/index.ts';
import { referenceCore } from '../cores/reference.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import { runRound } from '../sim/round.ts';
import type { TraceEvent } from '../sim/trace/recorder.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

describe('seed 3 round 50722: a walk padded with empty pages grows past the page limit', () => {
  // The only failing round of `catsim run --seed 3 --rounds 100000` on 6c424af: server s0 pads
  // every page with an empty one (PAGING:empty-page-with-next, not a disqualifying trait); its
  // acme.ops view grew to 17 tools served one a page, 34 pages, over pageCountMax 32. Both racing
  // scans ended QUARANTINED PAGE_LIMIT, which is terminal (SPEC 3), and the oracle still owed the
  // key liveness: I12 NOT_CONVERGED. The world's own page record now excuses such a key.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed3-round50722-page-limit-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it('the reference core quarantines the key and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const quarantined = run.events
      .filter((event) => event.type === 'scan_ended')
      .filter((event) => event.state === 'QUARANTINED' && event.reason === 'PAGE_LIMIT');
    expect(quarantined.map((event) => event.scanId)).toEqual(['scan-12', 'scan-13']);
    const served = run.events
      .filter((event) => event.type === 'page_served')
      .filter((event) => event.scanId === 'scan-12');
    expect([served.length, served.at(-1)?.cursorOut !== null]).toEqual([32, true]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });

  it('a core that quarantines before the world served the limit still owes liveness', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    // Drop the world's record of the last page of each quarantined scan, and the core's read of it
    // (I13 holds every read to a page served): 31 pages served is no proof that the walk was
    // longer than 32, so the key is judged again.
    const last = ['scan-12', 'scan-13'].map((scanId) =>
      run.events
        .filter((event) => event.type === 'page_served')
        .filter((event) => event.scanId === scanId)
        .at(-1),
    );
    const dropped = new Set<unknown>(last);
    for (const page of last) {
      for (const event of run.events) {
        if (
          event.type === 'page_read' &&
          page !== undefined &&
          event.scanId === page.scanId &&
          event.pageDigest === page.pageDigest
        )
          dropped.add(event);
      }
    }
    expect(dropped.size).toBe(4);
    const events = run.events.filter((event) => !dropped.has(event)).map((event, seq) => ({ ...event, seq }));
    const codes = checkEvents(run.header, events).violations.map(
      (violation) => `${violation.invariant} ${violation.code}`,
    );
    expect(codes).toEqual(['I12 NOT_CONVERGED']); // what the campaign reported
  });
});

describe('seed 1 round 3606: an identity rotation just before a burst of list_changed', () => {
  // The only failing round of `catsim run --seed 1 --rounds 5000` on a611367: server s1 rotates its
  // identity at t=2485 (to fp:cfb64862f288037e) and a burst notification reaches the core's
  // acme.ops session at 2493. The core's scan of that session, scan-76, still runs under the old
  // identity's key until the notification ends it at 2521 (LIST_CHANGED); the first scan under the
  // new key, scan-82, starts at 2912: 419 ms after the delivery, 391 ms after the running scan
  // ended, within R = 400 ms of the latter. I19 counted only scans of the new key as running and
  // reported REFRESH_STARVED; it now counts the scans of the server and audience under any identity.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round3606-rotation-before-burst-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it('the refresh is due 400 ms after the old-key scan ends, and the reference core meets it', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const rotation = run.events.find((event) => event.type === 'identity_rotated');
    const delivery = run.events.find((event) => event.type === 'notification_delivered' && event.seq === 2382);
    expect([rotation?.t, delivery?.t, delivery?.type === 'notification_delivered' ? delivery.audience : null]).toEqual([
      2485,
      2493,
      'acme.ops',
    ]);
    const ended = run.events.find((event) => event.type === 'scan_ended' && event.scanId === 'scan-76');
    expect([ended?.t, ended?.type === 'scan_ended' ? ended.reason : null]).toEqual([2521, 'LIST_CHANGED']);
    const next = run.events.find(
      (event) => event.type === 'scan_started' && event.key === 'fp:cfb64862f288037e|acme.ops',
    );
    expect([next?.t, next?.type === 'scan_started' ? next.scanId : null]).toEqual([2912, 'scan-82']);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 1 round 13504: a planted DUPLICATE_NAME twin published without its namesake', () => {
  // The first failing round of `catsim run --seed 1 --rounds 100000` on 84f9c76: an unversioned
  // walk of s0's acmex.ops view missed its last page when the list shifted (revision 428 to 429),
  // so the generation held CANCEL-BOOKING-S0T without its planted twin cancel_booking_s0t. The
  // core's content check rightly passed it (no namesake in the snapshot, as I5 reads it); the
  // world's surface baseline dropped every planted descriptor, so it expected one tool fewer:
  // I25/I26 on a capacity refusal that was right, I22/I23 on a dispatch that was right. The
  // shrunk plan keeps one planted twin alone in its view.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round13504-duplicate-twin-missed-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it("the world's baseline holds the lone twin, the core dispatches it, and the oracle finds nothing", async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const turn = run.events.find((event) => event.type === 'model_turn');
    expect(turn?.type === 'model_turn' ? turn.baseline.map((tool) => tool.name) : undefined).toEqual([
      'cancel_booking_s0t',
    ]);
    const settled = run.events.find((event) => event.type === 'request_settled');
    expect(settled?.type === 'request_settled' ? [settled.settlement, settled.code] : undefined).toEqual([
      'dispatched',
      null,
    ]);
    const received = run.events.find((event) => event.type === 'model_received');
    expect(received?.type === 'model_received' ? received.tools.map((tool) => tool.name) : undefined).toEqual([
      'cancel_booking_s0t',
    ]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 1 round 13: a walk cut short after a list_changed released the barrier', () => {
  // Found when I18 began to ask for a whole fresh list (issue 27): after the list_changed of t=1466
  // (seq 293) the reference refresher's scan-12 was cut at page 4 by a policy change
  // (INCOMPLETE POLICY_EPOCH_CHANGED, t=1513), and the barrier opened on that end "whatever its
  // state": a call chosen from the old list (merge_pull_request) left at t=1613 and the server
  // refused its stale pin. The barrier now waits for a scan that walked to the server's last
  // answer; shrunk from the round with that release put back (`catsim shrink --seed 1 --round 13
  // --attempts 80`, 573 -> 429).
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round13-barrier-after-cut-walk-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it("the call waits for scan-13's whole walk, then the gate refuses it as STALE_CATALOG, and the oracle finds nothing", async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const ends = run.events.flatMap((event) =>
      event.type === 'scan_ended' && (event.scanId === 'scan-12' || event.scanId === 'scan-13')
        ? [[event.t, event.scanId, event.state, event.reason]]
        : [],
    );
    expect(ends).toEqual([
      [1513, 'scan-12', 'INCOMPLETE', 'POLICY_EPOCH_CHANGED'],
      [1641, 'scan-13', 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    const decision = run.events.flatMap((event) =>
      event.type === 'gate_decision' && event.tool === 'merge_pull_request' ? [[event.t, event.decision]] : [],
    )[0];
    expect(decision).toEqual([1641, 'STALE_CATALOG']);
    // No merge_pull_request leaves around the cut walk (the stale one left at 1613); the next is at 6964.
    expect(
      run.events.filter((event) => event.type === 'call_sent' && event.tool === 'merge_pull_request' && event.t < 2000),
    ).toEqual([]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 4 round 358 of host-restart: a model turn before the restarted host heard its policy', () => {
  // `catsim run --seed 4 --rounds 1500 --scenario host-restart` on 825a6b0 (issue 36): the host
  // crashed after a lease and boot 3 restarted on 4 committed pointers (shrunk plan) at t=1787; at
  // t=1788 the world disclosed generation 2 of fp:bcd1efb7045fb9e1|globex.dev to s1/globex.dev and
  // ran a model turn on it. Boot 3 had not yet heard globex.dev's policy (its first poll answers a
  // latency later), so it projected the surface from epoch 0, no grants: 0 tools of the 7 the
  // world's baseline holds, dispatched (I23 MISMATCH_DISPATCHED) and received (I22 MISSING_TOOL).
  // Epoch 0 now gives no admission facts (POLICY_UNKNOWN), and the reference core polls the
  // audience once before such a turn: the hooks see the 7 tools, and the late edit of a description
  // is refused by the final check.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed4-round358-surface-before-policy-after-restart-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;
  const BASELINE = [
    'get_weather',
    'create_entities',
    'move_file',
    'translate_text',
    'list_directory',
    'book_room',
    'get_invoice',
  ];

  it('the turn right after the restart shows the whole baseline, and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const restarts = run.events.filter((event) => event.type === 'host_restarted').map((event) => event.t);
    expect(restarts).toEqual([398, 1334, 1787]);
    const turn = run.events.find((event) => event.type === 'model_turn' && event.requestId === 's1/globex.dev#m1');
    expect(
      turn?.type === 'model_turn'
        ? [turn.t, turn.key, turn.generation, turn.baseline.map((tool) => tool.name)]
        : undefined,
    ).toEqual([1788, 'fp:bcd1efb7045fb9e1|globex.dev', 2, BASELINE]);
    // Boot 3's first policy of globex.dev arrives after the turn began and before its hooks ran.
    const heard = run.events.find(
      (event) => event.type === 'policy_seen' && event.audience === 'globex.dev' && event.t >= 1787,
    );
    const hooks = run.events.find(
      (event) => event.type === 'request_surface' && event.requestId === 's1/globex.dev#m1' && event.stage === 'hooks',
    );
    expect([heard?.t, hooks?.t]).toEqual([1789, 1792]);
    expect(hooks?.type === 'request_surface' ? hooks.tools.map((tool) => tool.name) : undefined).toEqual(BASELINE);
    const settled = run.events.find(
      (event) => event.type === 'request_settled' && event.requestId === 's1/globex.dev#m1',
    );
    expect(
      settled?.type === 'request_settled'
        ? [settled.settlement, settled.code, settled.check, settled.field]
        : undefined,
    ).toEqual(['preDispatchRejected', 'SURFACE_MISMATCH', 'final', 'description']);
    expect(run.events.some((event) => event.type === 'model_received' && event.requestId === 's1/globex.dev#m1')).toBe(
      false,
    );
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 1 round 3879 of host-restart: a refresh that fell due while the host was down', () => {
  // The only failing round of 5,000 host-restart rounds of seed 1 on b90ea8f (issue 36 item 3, the
  // world's side): a list_changed for fp:42d11e9517387b93|globex.dev reached boot 0 at 1673, due by
  // 2076 (R = 400 after the end of the scan then running); the host crashed at 2031 and boot 1
  // started at 2079, its session for globex.dev opened at 2087 and walked the key at once. I19 read
  // the dead boot's deadline as the new boot's and reported REFRESH_STARVED; the refresh is now
  // due R after the first session of that server and audience opened after the crash.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round3879-refresh-due-across-restart-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it('boot 1 walks the key as its session opens, and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const delivery = run.events.find((event) => event.type === 'notification_delivered' && event.seq === 3036);
    expect([delivery?.t, delivery?.type === 'notification_delivered' ? delivery.audience : null]).toEqual([
      1673,
      'globex.dev',
    ]);
    expect(
      run.events
        .filter((event) => event.type === 'host_crashed' || event.type === 'host_restarted')
        .map((event) => [event.type, event.t]),
    ).toEqual([
      ['host_crashed', 2031],
      ['host_restarted', 2079],
      ['host_crashed', 2353],
      ['host_restarted', 2381],
    ]);
    const opened = run.events.find(
      (event) =>
        event.type === 'session_opened' && event.t > 2031 && event.audience === 'globex.dev' && event.server === 's0',
    );
    const walk = run.events.find(
      (event) => event.type === 'scan_started' && event.seq > 3036 && event.key === 'fp:42d11e9517387b93|globex.dev',
    );
    expect([opened?.t, walk?.t, walk?.type === 'scan_started' ? walk.scanId : null]).toEqual([
      2087,
      2087,
      'boot1-scan-1',
    ]);
    const verdict = checkEvents(run.header, run.events);
    expect(verdict.violations).toEqual([]);
  });
});

describe("seed 2 round 4578 of host-restart: a dead boot's connection outlived the next boot's", () => {
  // One of two failing rounds of 5,000 host-restart rounds of seed 2 on c714ea3 (issue 36 item 2),
  // a world defect: boot 0 crashed at 851 while its session for s1/acme.dev was reconnecting. Boot
  // 1 opened its own at 883; boot 0's connection completed at 904, was recorded as a session
  // opened, and took boot 1's place as the one the world cuts at a crash. When boot 1 died at
  // 1265 the world cut the dead connection again and left boot 1's open, so its client kept
  // receiving list_changed; the oracle read the one at 2035 as boot 3's and reported I18
  // CALL_BEFORE_RELIST for boot 3's call at 2053. A crash now cuts every open connection of the
  // session, and a connection that completes for a dead boot opens no session.
  // Since the reference walks as soon as a connection that served pages is lost (issue 29, seed 1
  // round 3750 of the default), s1/acme.dev's cut at 620 is reconnected before the crash, so this
  // shrunk plan no longer has a boot die while reconnecting: the crashes (after a lease) move to
  // 850, 1110 and 1602. Round 4 of the same campaign, below, does: two connections complete for a
  // dead boot there.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed2-round4578-dead-boot-link-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it('each boot opens one session for s1/acme.dev, no list_changed reaches a dead boot, and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const crashes = run.events.filter((event) => event.type === 'host_crashed').map((event) => event.t);
    expect(crashes).toEqual([850, 1110, 1602]);
    const opens = run.events.filter(
      (event) => event.type === 'session_opened' && event.server === 's1' && event.audience === 'acme.dev',
    );
    // Before the world's fix: 73, 883, 904 (boot 0's, after it died), 1356, 1444 (crashes at 851,
    // 1265, 1382); one per boot since, now 73 (boot 0), 903, 1188 and 1689.
    expect(opens.map((event) => event.t)).toEqual([73, 903, 1188, 1689]);
    expect(strayDeliveries(run.events)).toEqual([]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });

  it('round 4: boot 2 dies while connecting to s0, its two connections complete for nobody, and the oracle finds nothing', async () => {
    // Boot 2 starts at 514 and crashes at 537, after a commit, while its connections for s0's
    // globex.dev and acme.dev are opening; they complete at 540 and 544, for a dead boot, and open
    // no session (worked out by logging sim/round.ts's dead-boot return). Boot 3, from 556, opens
    // its own at 564 and 570.
    const run = await runRound(generatePlan('2', 4, loadScenario('host-restart')), referenceCore(), 'reference');
    expect(run.events.filter((event) => event.type === 'host_crashed').map((event) => event.t)).toEqual([62, 490, 537]);
    const s0 = run.events.filter((event) => event.type === 'session_opened' && event.server === 's0');
    expect(s0.map((event) => [event.t, event.type === 'session_opened' ? event.audience : ''])).toEqual([
      [18, 'acme.dev'],
      [34, 'globex.dev'],
      [88, 'acme.dev'],
      [95, 'globex.dev'],
      [564, 'globex.dev'],
      [570, 'acme.dev'],
    ]);
    expect(strayDeliveries(run.events)).toEqual([]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

/** The seqs of the list_changed handed to a client after a crash with no session of its server and audience opened after that crash. */
function strayDeliveries(events: readonly TraceEvent[]): number[] {
  return events
    .filter((delivery) => {
      if (delivery.type !== 'notification_delivered') return false;
      const crash = events.findLast((event) => event.type === 'host_crashed' && event.seq < delivery.seq);
      if (crash === undefined) return false;
      return !events.some(
        (event) =>
          event.type === 'session_opened' &&
          event.seq > crash.seq &&
          event.seq < delivery.seq &&
          event.server === delivery.server &&
          event.audience === delivery.audience,
      );
    })
    .map((event) => event.seq);
}

describe('seed 12 round 509 of modern: a late list_changed fault held the listen acknowledgement', () => {
  // The one failing round of `catsim run --scenario modern --seed 12 --rounds 2000` on 2bd94e9, a
  // world defect: s1 is a modern-era (2026-07-28) server whose list_changed are late by 479 ms
  // (F3), and F3's link rule held every notification, the `subscriptions/listen` acknowledgement
  // too. The host crashed at 1192, the instant a list_changed reached it; boot 1 started at 1207,
  // tried `initialize` (-32022 read at 1221), sent its listen at 1221, which s1 acknowledged at
  // 1223, but the acknowledgement reached the core at 1710, and only then did the reference core
  // count the connection open and list: page 1 served at 1711, past I19's deadline 1659
  // (REFRESH_STARVED). Only the list_changed is late now.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed12-round509-late-listen-ack-shrunk.plan.json', 'utf8'),
  ) as RoundPlan;

  it("boot 1's listen is acknowledged at 1232, its first fresh list served at 1240, and the oracle finds nothing", async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const crash = run.events.find((event) => event.type === 'host_crashed');
    // seq 270 since the trace writes each `subscriptions/listen` sent (listen_requested, I32): one before the crash.
    expect([crash?.seq, crash?.t]).toEqual([270, 1192]);
    const acknowledged = run.events.filter((event) => event.type === 'listen_acknowledged').map((event) => event.t);
    expect(acknowledged).toEqual([27, 1232]); // before the fix: 506, 1710
    const opens = run.events.filter((event) => event.type === 'session_opened').map((event) => event.t);
    expect(opens).toEqual([27, 1232]);
    const firstAfter = run.events.find(
      (event) => event.type === 'page_served' && event.seq > (crash?.seq ?? 0) && event.cursorIn === null,
    );
    expect([firstAfter?.t, firstAfter?.type === 'page_served' ? firstAfter.scanId : null]).toEqual([
      1240,
      'boot1-scan-0',
    ]);
    // The list_changed themselves are still late: the first to reach boot 1 arrives at 1718.
    const delivered = run.events.find((event) => event.type === 'notification_delivered' && event.t > 1207);
    expect(delivered?.t).toEqual(1718);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 1 round 125 of modern: a reconnect whose listen was never acknowledged held the refresh', () => {
  // Found by `catsim run --scenario modern --seed 1 --rounds 1000` once F27 was in the scenario:
  // s1 ends its listen stream at 1315 (F27 completed; the result reaches the core at 1322, three
  // ms after a list_changed reached it at 1318), and holds every listen from 343 to 1413 (F27
  // unacknowledged). The reference core closed the connection, connected again at 1332 and waited
  // one scan timeout (1,500 ms) for the acknowledgement before counting the connection open: its
  // fresh list was served at 2836, past I19's deadline 1758 (REFRESH_STARVED, 5 violations). It
  // then waited two round trips at the scenario's largest latency (4 x 40 ms) instead; since the
  // default scenario's round 3014 it no longer closes the connection at all: it listens again on
  // it at 1322, at once, and rescans for the change it may have missed. The plan is kept as
  // the scenario generated it then (scenarios/plans/seed1-round125-modern-unacknowledged-reconnect
  // .plan.json): since modern servers may be reached over Streamable HTTP, round 125 draws s1 over
  // HTTP, where F27 does not act.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round125-modern-unacknowledged-reconnect.plan.json', 'utf8'),
  ) as RoundPlan;

  it('the listen is sent again on connection 1 at 1322, and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const ofS1 = (type: string) =>
      run.events.filter(
        (event) =>
          event.type === type &&
          (event as { server?: string }).server === 's1' &&
          (event as { audience?: string }).audience === 'acme.dev',
      );
    expect(ofS1('listen_ended').map((event) => [event.t, (event as { how?: string }).how])).toEqual([
      [1322, 'complete'],
    ]);
    expect(
      ofS1('listen_requested').map((event) => [event.t, (event as { connection?: number }).connection]),
    ).toContainEqual([1322, 1]);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});

describe('seed 1 round 3014 of default: a completed listen stream held an owed refresh behind a reconnect', () => {
  // Found by `catsim run --seed 1 --rounds 3000 --from 2000` (the default scenario once modern
  // servers were in it): s0 ends its acknowledged listen stream at 1197 (F27 completed) while
  // F20's bursts had grown the core's failure count and F27 held every new listen for a while.
  // The reference core closed the connection, reconnected only after its back-off (about 290 ms)
  // and then waited two round trips for an acknowledgement that F27 held: the fresh list came at
  // 1676, past I19's deadline 1639 (REFRESH_STARVED x8). It now listens again on the same
  // connection at once and rescans for what it may have missed. The plan is the shrunk one
  // (scenarios/plans/seed1-round3014-default-completed-listen.plan.json: one server, faults F3,
  // F20 and F27), in which the stream ends at the core at 1215.
  const plan = JSON.parse(
    readFileSync('scenarios/plans/seed1-round3014-default-completed-listen.plan.json', 'utf8'),
  ) as RoundPlan;

  it('the listen is sent again at 1215 on connection 1, a fresh walk starts at once, and the oracle finds nothing', async () => {
    const run = await runRound(plan, referenceCore(), 'reference');
    const at = (type: string) => run.events.filter((event) => event.type === type);
    expect(at('listen_ended').map((event) => [event.t, (event as { how?: string }).how])).toEqual([[1215, 'complete']]);
    expect(at('listen_requested').map((event) => [event.t, (event as { connection?: number }).connection])).toEqual([
      [50, 1],
      [1215, 1],
    ]);
    expect(at('session_opened').map((event) => event.t)).toEqual([68]);
    const firstAfter = run.events.find(
      (event) => event.type === 'page_served' && event.t > 1215 && event.cursorIn === null,
    );
    expect([firstAfter?.t, firstAfter?.type === 'page_served' ? firstAfter.scanId : null]).toEqual([1219, 'scan-15']);
    expect(checkEvents(run.header, run.events).violations).toEqual([]);
  });
});
