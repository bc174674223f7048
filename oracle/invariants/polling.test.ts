import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

/**
 * R = max(refreshIntervalMs 1000, retryBackoffMsMax 400, listChangedDelayMs 20) = 1000 ms, plus
 * latencyMsMax 40: a fresh page 1 is due at the server 1040 ms after a change nothing pushed.
 * s0 speaks 2026-07-28 (`ERA:modern`) unless told otherwise; one walk at t=0, then the clock at 1000.
 */
function polled(options: { traits?: string[]; refreshIntervalMs?: number | null } = {}): TraceBuilder {
  const refresh = options.refreshIntervalMs === undefined ? 1_000 : options.refreshIntervalMs;
  const b = new TraceBuilder({
    stepMs: 0,
    bounds: {
      listChangedDelayMs: 20,
      retryBackoffMsMax: 400,
      ...(refresh === null ? {} : { refreshIntervalMs: refresh }),
    },
  });
  b.serverUp('s0', ID0, { traits: options.traits ?? ['ERA:modern'] });
  b.revision('s0', 1, { 'acme.dev': ['echo'], 'globex.dev': ['echo'] });
  b.sessionOpened('s0', 'acme.dev', ID0);
  b.walk({ audience: 'acme.dev', scanId: 'scan-0', revision: 1, pages: [['echo']] });
  return b.at(1_000);
}

/** A fresh page 1 of acme.dev answered now. */
function page1(b: TraceBuilder, revision: number, tools: string[]): void {
  b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: null, revision, tools });
}

/** The I33 violations of a trace, as `code@seq`, and its I33 work count. */
function i33(b: TraceBuilder): { found: string[]; checked: number | undefined } {
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I33').map((v) => `${v.code}@${v.seq}`),
    checked: verdict.checked.I33,
  };
}

describe('I33: a change nothing pushed is read by polling within the scenario bound', () => {
  it('a core that never lists again after an unpushed change is NOT_POLLED, anchored at the revision', () => {
    const b = polled();
    const changed = b.revision('s0', 2, { 'acme.dev': ['echo', 'grep'], 'globex.dev': ['echo'] });
    b.at(9_000).roundEnd();
    expect(i33(b)).toEqual({ found: [`NOT_POLLED@${changed}`], checked: 1 });
    expect(checkTrace(b.build()).violations.find((v) => v.invariant === 'I33')?.evidence).toBe(
      `the view of ${ID0.slice(0, 12)}|acme.dev changed at t=1000 (revision seq ${changed}) and no list_changed reached the core; a fresh list was due by t=2040 (R 1000 ms), but the server answered no fresh tools/list for that audience after it`,
    );
  });

  it('a poll 1040 ms after the change meets the bound; one at 1041 ms (a TTL of 1041 ms trusted) does not', () => {
    for (const [at, found] of [
      [2_040, 0],
      [2_041, 1],
    ] as const) {
      const b = polled();
      const changed = b.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
      page1(b.at(at), 2, ['grep']);
      b.at(9_000).roundEnd();
      expect(i33(b), `poll at ${at}`).toEqual({ found: found === 0 ? [] : [`NOT_POLLED@${changed}`], checked: 1 });
      if (found === 1)
        expect(checkTrace(b.build()).violations.find((v) => v.invariant === 'I33')?.evidence).toContain(
          `but the server answered the next fresh tools/list for that audience at t=2041 (seq ${changed + 1})`,
        );
    }
  });

  it('a change a list_changed carried to the core is I19’s, not I33’s', () => {
    const b = polled();
    b.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    b.at(1_005).notificationDelivered('s0', 'acme.dev');
    b.at(9_000).roundEnd();
    const verdict = checkTrace(b.build());
    expect(i33(b)).toEqual({ found: [], checked: 0 });
    expect(verdict.violations.map((v) => v.invariant)).toContain('I19');
  });

  it('judges only changes of a view the core opened a session for, on a 2026-07-28 server, never on a legacy one', () => {
    // globex.dev's view changes (no session for it); acme.dev's stays the same tools in another order.
    const b = polled();
    b.revision('s0', 2, { 'acme.dev': ['echo'], 'globex.dev': ['grep'] });
    b.at(9_000).roundEnd();
    expect(i33(b)).toEqual({ found: [], checked: 0 });
    for (const traits of [[], ['ERA:modern', 'F5:cursor-loop']]) {
      const legacy = polled({ traits });
      legacy.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
      legacy.at(9_000).roundEnd();
      expect(i33(legacy), JSON.stringify(traits)).toEqual({ found: [], checked: 0 });
    }
    const gateway = polled({ traits: ['ERA:gateway'] });
    const changed = gateway.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    gateway.at(9_000).roundEnd();
    expect(i33(gateway)).toEqual({ found: [`NOT_POLLED@${changed}`], checked: 1 });
  });

  it('a walk running at the change moves the deadline to its end; a header without refreshIntervalMs is not judged', () => {
    const b = polled();
    b.served({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: null, cursorOut: 'c1', revision: 1, tools: ['echo'] });
    const changed = b.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    // The running walk ends at t=1500 (the core reads it at 1540): page 1 is due by 1540 + 1000 + 40 = 2580.
    b.at(1_500).served({
      audience: 'acme.dev',
      scanId: 'scan-1',
      cursorIn: 'c1',
      cursorOut: null,
      revision: 2,
      tools: [],
    });
    page1(b.at(2_580), 2, ['grep']);
    b.at(9_000).roundEnd();
    expect(i33(b)).toEqual({ found: [], checked: 1 });
    const late = polled();
    late.served({
      audience: 'acme.dev',
      scanId: 'scan-1',
      cursorIn: null,
      cursorOut: 'c1',
      revision: 1,
      tools: ['echo'],
    });
    const lateChange = late.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    late
      .at(1_500)
      .served({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: 'c1', cursorOut: null, revision: 2, tools: [] });
    page1(late.at(2_581), 2, ['grep']);
    late.at(9_000).roundEnd();
    expect(i33(late)).toEqual({ found: [`NOT_POLLED@${lateChange}`], checked: 1 });
    expect(changed).toBe(lateChange);
    const older = polled({ refreshIntervalMs: null });
    older.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    older.at(9_000).roundEnd();
    expect(i33(older)).toEqual({ found: [], checked: 0 });
  });

  it('not judged when the deadline falls after the round end, or the server rotated or the link was cut by then', () => {
    const ends = polled();
    ends.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    ends.at(2_039).roundEnd();
    expect(i33(ends)).toEqual({ found: [], checked: 0 });
    const cut = polled();
    cut.revision('s0', 2, { 'acme.dev': ['grep'], 'globex.dev': ['echo'] });
    cut.at(1_500).disconnected('s0', 'acme.dev');
    cut.at(9_000).roundEnd();
    expect(i33(cut)).toEqual({ found: [], checked: 0 });
  });
});
