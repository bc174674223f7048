import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

const KEY = `${ID0}|acme.dev`;

/** s0 up at revision 1, one page walked and published for acme.dev, then the clock at t=1000. */
function published(): TraceBuilder {
  const b = new TraceBuilder({ stepMs: 0 });
  b.serverUp('s0', ID0);
  b.revision('s0', 1, { 'acme.dev': ['echo'], 'globex.dev': ['echo'] });
  b.sessionOpened('s0', 'acme.dev', ID0);
  b.walk({ audience: 'acme.dev', scanId: 'scan-0', revision: 1, pages: [['echo']] });
  return b.at(1_000);
}

/** The I18 violations of a trace, as `code@seq`. */
function i18(b: TraceBuilder): string[] {
  return checkTrace(b.build())
    .violations.filter((v) => v.invariant === 'I18')
    .map((v) => `${v.code}@${v.seq}`);
}

describe('I18 from the world alone: no call leaves after a list_changed before a fresh tools/list was answered', () => {
  it('a core that reports nothing is judged on the calls the world saw leave it', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    const sent = b.at(1_010).callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${sent}`]);
  });

  it('a core whose scan events are not true is caught all the same: it says a fresh scan ran, the server served no page', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).scanStarted(KEY, 'scan-fake');
    b.scanEnded('scan-fake', 'INCOMPLETE', 'LIST_CHANGED');
    b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    const sent = b.callSent({ audience: 'acme.dev', tool: 'echo' });
    // The receipt rule is satisfied by the scan the core reported; the world's rule is not.
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${sent}`]);
  });

  it('a fresh page 1 answered before the call lets it go, and so does a refused one', () => {
    for (const answer of ['served', 'refused'] as const) {
      const b = published();
      b.notificationDelivered('s0', 'acme.dev');
      b.at(1_005);
      if (answer === 'served')
        b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: null, revision: 2, tools: ['echo'] });
      else b.refused({ audience: 'acme.dev', scanId: null, cursorIn: null, code: -32003 });
      b.at(1_010).callSent({ audience: 'acme.dev', tool: 'echo' });
      expect(i18(b), answer).toEqual([]);
    }
  });

  it("a page with a cursor (a walk begun before the delivery), or another audience's fresh list, is no fresh list", () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: 'c1',
      cursorOut: null,
      revision: 2,
      tools: ['echo'],
    });
    b.served({ audience: 'globex.dev', scanId: null, cursorIn: null, cursorOut: null, revision: 2, tools: ['echo'] });
    const sent = b.at(1_010).callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${sent}`]);
  });

  it('judges only calls at a later instant than the delivery, to that server and audience, until the fresh list', () => {
    const b = published();
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    b.notificationDelivered('s0', 'acme.dev');
    b.callSent({ audience: 'acme.dev', tool: 'echo' }); // the same instant: the client may not have handed it on yet
    b.at(1_001).callSent({ server: 's1', audience: 'acme.dev', tool: 'echo' });
    b.callSent({ audience: 'globex.dev', tool: 'echo' });
    const late = b.callSent({ audience: 'acme.dev', tool: 'echo' });
    b.at(1_002).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: null,
      cursorOut: null,
      revision: 2,
      tools: ['echo'],
    });
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${late}`]);
  });

  it('reports a call once, at the first delivery it should have waited for', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_001).notificationDelivered('s0', 'acme.dev');
    const sent = b.at(1_002).callSent({ audience: 'acme.dev', tool: 'echo' });
    const verdict = checkTrace(b.build());
    expect(verdict.violations.filter((v) => v.invariant === 'I18').map((v) => [v.code, v.seq])).toEqual([
      ['CALL_BEFORE_RELIST', sent],
    ]);
    expect(verdict.violations.find((v) => v.invariant === 'I18')?.evidence).toBe(
      `call of echo to s0 for acme.dev left the core at t=1002 (seq ${sent}), after a list_changed reached the core at t=1000 (seq ${sent - 2}) and before the server had served a whole fresh tools/list for that audience`,
    );
    expect(verdict.checked.I18).toBe(2);
  });
});

describe('I18 on what the core reports: a call after a list_changed waits for a scan started after it to end', () => {
  it('a receipt before the fresh scan ended is CALL_BEFORE_FRESH_LIST even when the server served the whole list', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).scanStarted(KEY, 'scan-1');
    b.served({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: null, cursorOut: null, revision: 2, tools: ['echo'] });
    // The world saw a whole fresh list; the core's own scan (its final recheck still to come) had not ended.
    const receipt = b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    b.at(1_020).scanEnded('scan-1', 'INCOMPLETE', 'LIST_CHANGED');
    expect(i18(b)).toEqual([`CALL_BEFORE_FRESH_LIST@${receipt}`]);
  });
});

/**
 * s0 up at revision 1, its one page served to acme.dev with no scanId, and no `scan_started` at
 * all: a host under the lease convention (`GatelessCalls`), which reports receipts but no scans.
 * The clock at t=1000.
 */
function unscanned(): TraceBuilder {
  const b = new TraceBuilder({ stepMs: 0 });
  b.serverUp('s0', ID0);
  b.revision('s0', 1, { 'acme.dev': ['echo'] });
  b.sessionOpened('s0', 'acme.dev', ID0);
  b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: null, revision: 1, tools: ['echo'] });
  return b.at(1_000);
}

describe("I18 for a core that reports no scan in the round: the world's rule alone", () => {
  it('a call after a whole fresh list was served is no I18, although no reported scan ended before its receipt', () => {
    const b = unscanned();
    b.notificationDelivered('s0', 'acme.dev');
    // The whole fresh list: page 1 (cursorless, no scanId) with no next cursor, answered after the delivery.
    b.at(1_005).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: null,
      cursorOut: null,
      revision: 2,
      tools: ['echo'],
    });
    b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    // A second receipt later still, whose call the world saw leave at another instant: judged on the wire alone.
    b.at(1_020).receipt({ callId: 'p0#plan-2', leaseId: 'lease-2', key: KEY, tool: 'echo' });
    b.at(1_021).callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([]);
  });

  it('without the relist, each call is CALL_BEFORE_RELIST once, and no receipt adds a CALL_BEFORE_FRESH_LIST', () => {
    const b = unscanned();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    const first = b.callSent({ audience: 'acme.dev', tool: 'echo' });
    // This receipt and its call_sent are a millisecond apart: the receipt rule would have reported it apart.
    b.at(1_020).receipt({ callId: 'p0#plan-2', leaseId: 'lease-2', key: KEY, tool: 'echo' });
    const second = b.at(1_021).callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${first}`, `CALL_BEFORE_RELIST@${second}`]);
  });
});

describe('I18 asks the world for a whole fresh list, page 1 to a last page, served after the delivery (issue 27)', () => {
  it("page 1 alone is not enough: the call waits for the walk's last page", () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: null,
      cursorOut: 'c1',
      revision: 2,
      tools: ['echo'],
    });
    const early = b.at(1_010).callSent({ audience: 'acme.dev', tool: 'echo' });
    b.at(1_015).served({ audience: 'acme.dev', scanId: null, cursorIn: 'c1', cursorOut: null, revision: 2, tools: [] });
    b.at(1_020).callSent({ audience: 'acme.dev', tool: 'echo' });
    const verdict = checkTrace(b.build());
    expect(verdict.violations.filter((v) => v.invariant === 'I18').map((v) => [v.code, v.seq, v.evidence])).toEqual([
      [
        'CALL_BEFORE_RELIST',
        early,
        `call of echo to s0 for acme.dev left the core at t=1010 (seq ${early}), after a list_changed reached the core at t=1000 (seq ${early - 2}) and before the server had served a whole fresh tools/list for that audience (first ended at seq ${early + 1})`,
      ],
    ]);
  });

  it('a core that reports a fresh scan the world never served is judged on the calls it sent', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    // It fabricates a whole proven scan, and the server only ever served a stale walk's page 2.
    b.at(1_002).scanStarted(KEY, 'scan-fake');
    b.scanEnded('scan-fake');
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: 'old-c1', cursorOut: null, revision: 2, tools: [] });
    b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    const sent = b.callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${sent}`]);
  });
});

/** The I19 violations of a trace, as `code@seq`, and its I19 work count. */
function i19(b: TraceBuilder): { found: string[]; checked: number | undefined } {
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I19').map((v) => `${v.code}@${v.seq}`),
    checked: verdict.checked.I19,
  };
}

/**
 * R is max(listChangedDelayMs 500, retryBackoffMsMax 2000) = 2000 ms, and the server sees page 1's
 * request up to latencyMsMax 40 ms after it left: due 2040 ms after the delivery. The round ends at t=9000.
 */
function starved(): TraceBuilder {
  const b = new TraceBuilder({ stepMs: 0, bounds: { listChangedDelayMs: 500 } });
  b.serverUp('s0', ID0);
  b.revision('s0', 1, { 'acme.dev': ['echo'] });
  b.sessionOpened('s0', 'acme.dev', ID0);
  b.walk({ audience: 'acme.dev', scanId: 'scan-0', revision: 1, pages: [['echo']] });
  return b.at(1_000);
}

describe('I19 from the world: a fresh list begins within R of the delivery (issue 27)', () => {
  it('a core that never lists again (and reports no scans) is REFRESH_STARVED', () => {
    const b = starved();
    const delivered = b.notificationDelivered('s0', 'acme.dev');
    b.at(9_000).roundEnd();
    expect(i19(b)).toEqual({ found: [`REFRESH_STARVED@${delivered}`], checked: 1 });
    expect(checkTrace(b.build()).violations.find((v) => v.invariant === 'I19')?.evidence).toBe(
      `a list_changed for ${ID0.slice(0, 12)}|acme.dev reached the core at t=1000 (seq ${delivered}); a fresh list was due by t=3040, but the server answered no fresh tools/list for that audience after it`,
    );
  });

  it('a core that reports a scan in time, which the server never served, is REFRESH_STARVED all the same', () => {
    const b = starved();
    const delivered = b.notificationDelivered('s0', 'acme.dev');
    b.at(1_500).scanStarted(KEY, 'scan-fake');
    b.scanEnded('scan-fake');
    b.at(4_000).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: null,
      cursorOut: null,
      revision: 1,
      tools: ['echo'],
    });
    b.at(9_000).roundEnd();
    expect(i19(b)).toEqual({ found: [`REFRESH_STARVED@${delivered}`], checked: 1 });
  });

  it('a fresh page 1 by the deadline meets it, and a walk running at the delivery moves the deadline to its end', () => {
    const b = starved();
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: 'c1', revision: 1, tools: ['echo'] });
    b.notificationDelivered('s0', 'acme.dev');
    // The running walk ends at t=1500: page 1 of a fresh list is due at the server by t=3540.
    b.at(1_500).served({ audience: 'acme.dev', scanId: null, cursorIn: 'c1', cursorOut: null, revision: 1, tools: [] });
    b.at(3_540).served({
      audience: 'acme.dev',
      scanId: null,
      cursorIn: null,
      cursorOut: null,
      revision: 1,
      tools: ['echo'],
    });
    b.at(9_000).roundEnd();
    expect(i19(b)).toEqual({ found: [], checked: 1 });
  });

  it('a walk running at the delivery ends for the core a latency after its last answer: due by 1500 + 40 + 2000 + 40', () => {
    // R = max(listChangedDelayMs 500, retryBackoffMsMax 2000) = 2000; latencyMsMax 40. The last
    // answer of the running walk reaches the core at 1540, its back-off ends by 3540, and its
    // fresh page 1 reaches the server by 3580 (seed 1 round 464 of the 5,000-round gate).
    for (const [at, late] of [
      [3_580, false],
      [3_581, true],
    ] as const) {
      const b = starved();
      b.served({
        audience: 'acme.dev',
        scanId: 'scan-1',
        cursorIn: null,
        cursorOut: 'c1',
        revision: 1,
        tools: ['echo'],
      });
      const delivered = b.notificationDelivered('s0', 'acme.dev');
      b.at(1_500).refused({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: 'c1' });
      b.at(at).served({
        audience: 'acme.dev',
        scanId: 'scan-2',
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      b.at(9_000).roundEnd();
      expect(i19(b), String(at)).toEqual({ found: late ? [`REFRESH_STARVED@${delivered}`] : [], checked: 1 });
    }
  });

  it('a final recheck of a walk begun before the delivery, answered after it, is where that walk ends (not the delivery)', () => {
    // scan-1 read its one page before the delivery; its recheck of page 1 is answered at 1500
    // (seed 1 rounds 480 and 3864 of the 5,000-round gate): due by 3580, as above. Before, the
    // walk counted as ended at the delivery and the fresh list was due by 1000 + 2040 = 3040.
    for (const [at, late] of [
      [3_580, false],
      [3_581, true],
    ] as const) {
      const b = starved();
      b.served({
        audience: 'acme.dev',
        scanId: 'scan-1',
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      const delivered = b.notificationDelivered('s0', 'acme.dev');
      b.at(1_500).served({
        audience: 'acme.dev',
        scanId: 'scan-1',
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      b.at(at).served({
        audience: 'acme.dev',
        scanId: 'scan-2',
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      b.at(9_000).roundEnd();
      expect(i19(b), String(at)).toEqual({ found: late ? [`REFRESH_STARVED@${delivered}`] : [], checked: 1 });
    }
  });

  it('an answer served within a latency before the delivery reaches the core after it: due by 1990 + 40 + 2000 + 40', () => {
    // The delivery is at 2000. Page 1 of scan-1 is answered at 1990 with a cursor that never comes
    // back (the notification cut that walk when the page reached the core, by 2030); its back-off
    // ends by 4030, and the fresh page 1 reaches the server by 4070 (seed 4 round 797 of
    // host-restart). Before, the deadline was 2000 + 2040 = 4040. An answer served a latency or
    // more before the delivery (at 1960 or 1950) has reached the core by then and moves nothing.
    for (const [servedAt, at, late] of [
      [1_990, 4_070, false],
      [1_990, 4_071, true],
      [1_960, 4_040, false],
      [1_960, 4_041, true],
      [1_950, 4_041, true],
    ] as const) {
      const b = starved();
      b.at(servedAt).served({
        audience: 'acme.dev',
        scanId: 'scan-1',
        cursorIn: null,
        cursorOut: 'c1',
        revision: 1,
        tools: ['echo'],
      });
      const delivered = b.at(2_000).notificationDelivered('s0', 'acme.dev');
      b.at(at).served({
        audience: 'acme.dev',
        scanId: 'scan-2',
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      b.at(9_000).roundEnd();
      expect(i19(b), `${servedAt} ${at}`).toEqual({ found: late ? [`REFRESH_STARVED@${delivered}`] : [], checked: 1 });
    }
  });

  it('a quarantine is believed only for a scan the world served', () => {
    for (const served of [true, false]) {
      const b = starved();
      const delivered = b.notificationDelivered('s0', 'acme.dev');
      b.at(1_200).scanStarted(KEY, 'scan-q');
      if (served)
        b.served({ audience: 'acme.dev', scanId: 'scan-q', cursorIn: 'c9', cursorOut: 'c9', revision: 1, tools: [] });
      b.scanEnded('scan-q', 'QUARANTINED', 'CURSOR_LOOP');
      b.at(9_000).roundEnd();
      expect(i19(b).found, String(served)).toEqual(served ? [] : [`REFRESH_STARVED@${delivered}`]);
    }
  });

  it('a link the world cut by the deadline excuses the late fresh list (the request may have gone with it)', () => {
    for (const cut of [true, false]) {
      const b = starved();
      const delivered = b.notificationDelivered('s0', 'acme.dev');
      if (cut) b.at(1_100).disconnected('s0', 'acme.dev');
      b.at(4_000).served({
        audience: 'acme.dev',
        scanId: null,
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        tools: ['echo'],
      });
      b.at(9_000).roundEnd();
      expect(i19(b), String(cut)).toEqual(
        cut ? { found: [], checked: 0 } : { found: [`REFRESH_STARVED@${delivered}`], checked: 1 },
      );
    }
  });
});
