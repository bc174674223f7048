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
  return checkTrace(b.build()).violations.filter((v) => v.invariant === 'I18').map((v) => `${v.code}@${v.seq}`);
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
      if (answer === 'served') b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: null, revision: 2, tools: ['echo'] });
      else b.refused({ audience: 'acme.dev', scanId: null, cursorIn: null, code: -32003 });
      b.at(1_010).callSent({ audience: 'acme.dev', tool: 'echo' });
      expect(i18(b), answer).toEqual([]);
    }
  });

  it('a page with a cursor (a walk begun before the delivery), or another audience\'s fresh list, is no fresh list', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).served({ audience: 'acme.dev', scanId: null, cursorIn: 'c1', cursorOut: null, revision: 2, tools: ['echo'] });
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
    b.at(1_002).served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: null, revision: 2, tools: ['echo'] });
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    expect(i18(b)).toEqual([`CALL_BEFORE_RELIST@${late}`]);
  });

  it('reports a call once, at the first delivery it should have waited for', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_001).notificationDelivered('s0', 'acme.dev');
    const sent = b.at(1_002).callSent({ audience: 'acme.dev', tool: 'echo' });
    const verdict = checkTrace(b.build());
    expect(verdict.violations.filter((v) => v.invariant === 'I18').map((v) => [v.code, v.seq])).toEqual([['CALL_BEFORE_RELIST', sent]]);
    expect(verdict.violations.find((v) => v.invariant === 'I18')?.evidence).toBe(
      `call of echo to s0 for acme.dev left the core at t=1002 (seq ${sent}), after a list_changed reached the core at t=1000 (seq ${sent - 2}) and before the server had answered a fresh tools/list for that audience`);
    expect(verdict.checked.I18).toBe(2);
  });
});

describe('I18 on what the core reports: a call after a list_changed waits for a scan started after it to end', () => {
  it('a receipt before the fresh scan ended is CALL_BEFORE_FRESH_LIST even when the server answered page 1', () => {
    const b = published();
    b.notificationDelivered('s0', 'acme.dev');
    b.at(1_005).scanStarted(KEY, 'scan-1');
    b.served({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: null, cursorOut: 'c1', revision: 2, tools: ['echo'] });
    const receipt = b.at(1_010).receipt({ callId: 'p0#plan-1', leaseId: 'lease-1', key: KEY, tool: 'echo' });
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    b.at(1_020).scanEnded('scan-1', 'INCOMPLETE', 'LIST_CHANGED');
    expect(i18(b)).toEqual([`CALL_BEFORE_FRESH_LIST@${receipt}`]);
  });
});
