/**
 * The black-box judge on hand-built wire records: each rule fires on the event a person can
 * point at, with the exact code, seq and level, and stays quiet on the honest record.
 */
import { describe, expect, it } from 'vitest';
import { judgeHostWire } from './host-wire.ts';
import type { Trace, TraceEvent, TraceHeader } from './trace.ts';

const A = 'acme.dev';
/** Digests stand in for descriptors: d(name) is the digest the revision gives `name`. */
const d = (name: string): string => `${name}`.padEnd(64, '0');

/** A wire record of server s0 for audience acme.dev, built event by event (seq = index). */
class Wire {
  readonly events: TraceEvent[] = [];
  faults: string[] = [];
  /** The latest revision's names (what the server would execute). */
  names: string[] = [];
  leases = 0;

  constructor(names: string[]) {
    this.push('server_up', { server: 's0', identity: 'id0', boot: 0, versioned: true, traits: [] });
    this.revision(names);
    this.push('session_opened', { server: 's0', audience: A, identity: 'id0' });
  }

  push(type: string, fields: Record<string, unknown>): number {
    const seq = this.events.length;
    this.events.push({ seq, t: seq, src: 'world', type, ...fields } as unknown as TraceEvent);
    return seq;
  }

  revision(names: string[]): number {
    this.names = names;
    return this.push('revision', {
      server: 's0',
      revision: 1,
      views: { [A]: names.map((name) => ({ name, digest: d(name), bytes: 10 })) },
    });
  }

  page(cursorIn: string | null, cursorOut: string | null, names: string[], audience = A, revision = 1): number {
    return this.push('page_served', {
      server: 's0',
      audience,
      scanId: null,
      cursorIn,
      cursorOut,
      revision,
      reported: revision,
      tools: names.map(d),
      pageDigest: d('page'),
    });
  }

  delivered(): number {
    return this.push('notification_delivered', { server: 's0', audience: A });
  }

  /** A call as the simulated server answers it: `call_sent`, then executed (a name of the latest revision) or refused UNKNOWN_TOOL; returns the seq of the answer. */
  call(tool: string, audience = A): number {
    this.push('call_sent', { server: 's0', audience, tool });
    if (!this.names.includes(tool))
      return this.push('call_refused_by_server', { server: 's0', audience, tool, leaseId: null, code: 'UNKNOWN_TOOL' });
    this.leases += 1;
    return this.push('call_executed', {
      server: 's0',
      audience,
      tool,
      descriptorDigest: d(tool),
      leaseId: `blackbox-${this.leases}`,
      pin: null,
      revision: 1,
    });
  }

  disclose(names: string[], audience = A, digest = d): number {
    return this.push('disclosure', {
      session: 'h/c',
      server: 's0',
      audience,
      key: `id0|${audience}`,
      generation: 1,
      snapshotDigest: d('snap'),
      tools: names.map(digest),
    });
  }

  trace(): Trace {
    this.push('round_end', { status: 'settled', reason: 'quiet' });
    const header = {
      type: 'header',
      schema: 'catsim.trace.v1',
      seed: 's',
      round: 0,
      scenario: 'blackbox:t',
      core: 'host:h',
      faults: this.faults,
      bounds: {
        pageCountMax: 4,
        byteCountMax: 0,
        scanTimeoutMs: 0,
        latencyMsMax: 0,
        tHealMs: 0,
        tEndMs: 0,
        generationTtlMs: 0,
        retryBackoffMsMax: 0,
      },
    } as TraceHeader;
    return { header, events: this.events };
  }
}

const found = (trace: Trace): string[] =>
  judgeHostWire(trace).violations.map((v) => `${v.invariant} ${v.code}@${v.seq} ${v.level}`);

describe('judgeHostWire', () => {
  it('an honest walk, disclosure and call are OK', () => {
    const w = new Wire(['a', 'b', 'c']);
    w.page(null, 'c1', ['a', 'b']);
    w.page('c1', null, ['c']);
    w.disclose(['a', 'b', 'c']);
    w.call('c');
    expect(judgeHostWire(w.trace())).toEqual({ outcome: 'OK', violations: [], triggersPlanned: 0, triggersFired: 0 });
  });

  it("I9 (the oracle's disclosed-calls rule): a call of a name no page served to the session, refused by the server (seq 5), is FAILED", () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.call('delete_all');
    const trace = w.trace();
    expect(found(trace)).toEqual(['I9 UNDISCLOSED_TOOL_SENT@5 MUST']);
    expect(judgeHostWire(trace).outcome).toBe('FAILED');
  });

  it('I9: once a whole list no longer holds a name, a call of it is TOOL_NO_LONGER_LISTED; a walk still running does not count', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.call('b');
    w.page(null, 'c1', ['a']);
    w.call('b');
    w.page('c1', null, []);
    w.call('b');
    // Anchored at the server's answer to the third call (call_sent 10, call_executed 11).
    expect(found(w.trace())).toEqual(['I9 TOOL_NO_LONGER_LISTED@11 MUST']);
  });

  it('I18: a call after a delivered list_changed waits for a whole fresh walk; page 1 alone is not enough', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.delivered();
    w.page(null, 'c1', ['a']);
    w.call('a');
    w.page('c1', null, ['b']);
    w.call('b');
    expect(found(w.trace())).toEqual(['I18 CALL_BEFORE_RELIST@6 MUST']);
  });

  it('I18: a second list_changed during the re-list needs a walk begun after it; the walk it interrupted does not count', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.delivered();
    w.page(null, 'c1', ['a']);
    w.delivered();
    w.page('c1', null, ['b']);
    w.call('a');
    w.page(null, null, ['a', 'b']);
    w.call('a');
    expect(found(w.trace())).toEqual(['I18 CALL_BEFORE_RELIST@8 MUST']);
  });

  it("I13 (the oracle's scan-termination rule, a walk being a cursorless request and the cursors after it): a cycle c1 -> c0 -> c1 is CURSOR_REQUESTED_TWICE once, and a fifth cursor request, past pageCountMax 4, PAGE_LIMIT_EXCEEDED", () => {
    const w = new Wire(['a', 'b', 'c', 'd']);
    w.page(null, 'c1', ['a', 'b']);
    w.page('c1', 'c0', ['c', 'd']);
    w.page('c0', 'c1', ['a', 'b']);
    w.page('c1', 'c0', ['c', 'd']);
    w.page('c0', 'c1', ['a', 'b']);
    w.page('c1', 'c0', ['c', 'd']);
    expect(found(w.trace())).toEqual(['I13 CURSOR_REQUESTED_TWICE@6 MUST', 'I13 PAGE_LIMIT_EXCEEDED@8 MUST']);
  });

  it('I4: a disclosure of a partial walk, of a name never served, of fewer or other tools than the last whole walk', () => {
    const partial = new Wire(['a', 'b', 'c']);
    partial.page(null, '', ['a', 'b']);
    partial.disclose(['a', 'b']);
    expect(found(partial.trace())).toEqual(['I4 DISCLOSED_WITHOUT_WHOLE_LIST@4 MUST']);

    const invented = new Wire(['a']);
    invented.page(null, null, ['a']);
    invented.disclose(['a', 'zz']);
    expect(found(invented.trace())).toEqual(['I4 DISCLOSED_NEVER_SERVED@4 MUST']);

    const stale = new Wire(['a', 'b']);
    stale.page(null, null, ['a', 'b']);
    stale.page(null, null, ['a']);
    stale.disclose(['b']);
    expect(found(stale.trace())).toEqual(['I4 DISCLOSURE_INCOMPLETE@5 MUST', 'I4 DISCLOSURE_STALE@5 MUST']);
  });

  it('I4 from a half walk: tools a walk begun after the last whole one served before its last page is DISCLOSED_HALF_WALK; the same walk finished is not', () => {
    const half = new Wire(['a', 'b', 'c']);
    half.page(null, null, ['a', 'b']); // seq 3: walk 1, whole
    half.revision(['a', 'b', 'c']);
    half.page(null, 'c1', ['c']); // seq 5: walk 2, page 1 of 2
    half.disclose(['a', 'b', 'c']); // seq 6
    expect(found(half.trace())).toEqual(['I4 DISCLOSED_HALF_WALK@6 MUST']);
    expect(judgeHostWire(half.trace()).violations[0]?.evidence).toBe(
      'the host disclosed c of s0 for acme.dev (seq 6) from a walk it had not finished (page 1 at seq 5, 1 page read, no last page before the disclosure)',
    );

    const finished = new Wire(['a', 'b', 'c']);
    finished.page(null, null, ['a', 'b']);
    finished.page(null, 'c1', ['c']);
    finished.page('c1', null, ['a', 'b']); // seq 5: walk 2 whole: c, a, b
    finished.disclose(['a', 'b', 'c']);
    expect(found(finished.trace())).toEqual([]);
  });

  it('I4 from a mixed walk: a whole walk whose pages were served at revisions 1 and 2 is no list of either; showing it is DISCLOSED_MIXED_WALK, a whole walk of revision 2 after it is OK', () => {
    const mixed = new Wire(['a', 'b', 'c']);
    mixed.page(null, 'c1', ['a', 'b'], A, 1); // seq 3
    mixed.revision(['a', 'b', 'x']); // seq 4
    mixed.delivered(); // seq 5
    mixed.page('c1', null, ['x'], A, 2); // seq 6
    mixed.disclose(['a', 'b', 'x']); // seq 7
    // The page after the delivery continues the old walk, so no fresh list followed it either (I19).
    expect(found(mixed.trace())).toEqual(['I19 REFRESH_MISSING@5 SHOULD', 'I4 DISCLOSED_MIXED_WALK@7 MUST']);
    expect(judgeHostWire(mixed.trace()).violations[1]?.evidence).toBe(
      'the host disclosed s0 for acme.dev (seq 7) from a walk whose pages were served at list revisions 1 and 2 (ended seq 6): one list put together from two versions, and the host never walked the new version whole',
    );

    const rewalked = new Wire(['a', 'b', 'c']);
    rewalked.page(null, 'c1', ['a', 'b'], A, 1);
    rewalked.revision(['a', 'b', 'x']);
    rewalked.delivered();
    rewalked.page('c1', null, ['x'], A, 2);
    rewalked.page(null, 'c2', ['a', 'b'], A, 2);
    rewalked.page('c2', null, ['x'], A, 2);
    rewalked.disclose(['a', 'b', 'x']);
    expect(found(rewalked.trace())).toEqual([]);
  });

  it('I4 after a change the host was told of: the old list shown after a delivered list_changed and a later request to that session is DISCLOSED_AFTER_CHANGE; before any request since, it is not judged stale', () => {
    const build = (callFirst: boolean): Trace => {
      const w = new Wire(['a', 'b']);
      w.page(null, null, ['a', 'b']); // seq 3: whole walk of revision 1
      w.revision(['a', 'c']); // seq 4
      w.delivered(); // seq 5
      if (callFirst) w.call('a'); // seq 6 call_sent, 7 executed
      w.disclose(['a', 'b']);
      return w.trace();
    };
    // The call itself broke I18 (no fresh walk after the delivery), and no fresh list ever came (I19).
    expect(found(build(true))).toEqual([
      'I19 REFRESH_MISSING@5 SHOULD',
      'I18 CALL_BEFORE_RELIST@6 MUST',
      'I4 DISCLOSED_AFTER_CHANGE@8 MUST',
    ]);
    expect(judgeHostWire(build(true)).violations[2]?.evidence).toBe(
      'the host disclosed s0 for acme.dev (seq 8) as its whole list before the list_changed delivered at seq 5 (ended seq 3), though it had sent that session a request since (seq 6) and never walked the changed list whole',
    );
    // The disclosure may have left the host before the notification reached it: the record cannot tell, so no finding.
    expect(found(build(false))).toEqual(['I19 REFRESH_MISSING@5 SHOULD']);
  });

  it('I12: a session the world ended (disconnected) and never opened again is SESSION_NOT_RENEWED; one opened again is not', () => {
    const lost = new Wire(['a']);
    lost.faults = ['trigger:s0:call1:expire-session'];
    lost.page(null, null, ['a']);
    lost.push('disconnected', { server: 's0', audience: A });
    expect(found(lost.trace())).toEqual(['I12 SESSION_NOT_RENEWED@4 MUST']);
    const renewed = new Wire(['a']);
    renewed.faults = ['trigger:s0:call1:expire-session'];
    renewed.page(null, null, ['a']);
    renewed.push('disconnected', { server: 's0', audience: A });
    renewed.push('session_opened', { server: 's0', audience: A, identity: 'id0' });
    expect(judgeHostWire(renewed.trace())).toMatchObject({ outcome: 'OK', triggersFired: 1 });
  });

  it("tenant twins: a host that keys its catalog by URL walks acme only, then shows globex acme's descriptors and calls on a globex session it never listed", () => {
    const G = 'globex.dev';
    const w = new Wire(['a']);
    w.push('session_opened', { server: 's0', audience: G, identity: 'id0' });
    w.page(null, null, ['a']);
    w.disclose(['a'], G);
    w.call('a', G);
    // The server executes a name it has for any audience, so the call is executed (seq 7), never shown to globex.
    expect(found(w.trace())).toEqual(['I4 DISCLOSED_NEVER_SERVED@5 MUST', 'I9 UNDISCLOSED_TOOL_EXECUTED@7 MUST']);
    const right = new Wire(['a']);
    right.push('session_opened', { server: 's0', audience: G, identity: 'id0' });
    right.page(null, null, ['a']);
    right.page(null, null, ['a'], G);
    right.disclose(['a'], G);
    right.call('a', G);
    expect(found(right.trace())).toEqual([]);
  });

  it("I5 (the oracle's defect-admission rule): a planted defect the host discloses or calls is DEFECT_ADMITTED; one it leaves out of its disclosure is not missing", () => {
    const plant = (w: Wire): number =>
      w.push('defect_planted', { server: 's0', digest: d('bad'), defect: 'REMOTE_REF' });
    const left = new Wire(['a', 'bad']);
    plant(left);
    left.page(null, null, ['a', 'bad']);
    left.disclose(['a']);
    expect(found(left.trace())).toEqual([]);
    const shown = new Wire(['a', 'bad']);
    plant(shown);
    shown.page(null, null, ['a', 'bad']);
    shown.disclose(['a', 'bad']);
    expect(found(shown.trace())).toEqual(['I5 DEFECT_ADMITTED@5 MUST']);
    const called = new Wire(['a', 'bad']);
    plant(called);
    called.page(null, null, ['a', 'bad']);
    called.call('bad');
    expect(found(called.trace())).toEqual(['I5 DEFECT_ADMITTED@6 MUST']);
  });

  it('a call of a listed tool that the server refused for its arguments (INVALID_ARGUMENTS) breaks no rule', () => {
    const w = new Wire(['a']);
    w.page(null, null, ['a']);
    w.push('call_sent', { server: 's0', audience: A, tool: 'a' });
    w.push('call_refused_by_server', {
      server: 's0',
      audience: A,
      tool: 'a',
      leaseId: null,
      code: 'INVALID_ARGUMENTS',
    });
    expect(judgeHostWire(w.trace())).toEqual({ outcome: 'OK', violations: [], triggersPlanned: 0, triggersFired: 0 });
  });

  it('I19: a delivered list_changed never followed by a fresh list is NON-STRICT, not FAILED', () => {
    const w = new Wire(['a']);
    w.page(null, null, ['a']);
    w.delivered();
    const verdict = judgeHostWire(w.trace());
    expect(verdict.outcome).toBe('NON-STRICT');
    expect(verdict.violations.map((v) => v.evidence)).toEqual([
      "a list_changed was delivered to s0|acme.dev (seq 4) and the host never listed that session's tools again before the case ended",
    ]);
  });

  it('a planned trigger that never fired leaves the case UNDECIDED; one that fired (a second revision, a boot after 0) does not', () => {
    const w = new Wire(['a']);
    w.faults = ['trigger:s0:walk1:page2:change'];
    w.page(null, null, ['a']);
    expect(judgeHostWire(w.trace())).toMatchObject({ outcome: 'UNDECIDED', triggersPlanned: 1, triggersFired: 0 });
    const fired = new Wire(['a']);
    fired.faults = ['trigger:s0:walk1:page2:change'];
    fired.page(null, null, ['a']);
    fired.revision(['a']);
    expect(judgeHostWire(fired.trace())).toMatchObject({ outcome: 'OK', triggersPlanned: 1, triggersFired: 1 });
    const restarted = new Wire(['a']);
    restarted.faults = ['trigger:s0:walk1:page1:restart'];
    restarted.page(null, null, ['a']);
    restarted.push('server_up', { server: 's0', identity: 'id0', boot: 1, versioned: true, traits: [] });
    expect(judgeHostWire(restarted.trace())).toMatchObject({ outcome: 'OK', triggersPlanned: 1, triggersFired: 1 });
  });
});

/** Each violation as `CODE@seq: evidence`. */
const said = (trace: Trace): string[] =>
  judgeHostWire(trace).violations.map((v) => `${v.code}@${v.seq}: ${v.evidence}`);

describe("the evidence of the oracle's call rules reads the wire: what the host sent, and which pages it had read", () => {
  it('I9 executed: a tool of a page the host never asked for (its walk left at a next cursor)', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, 'c1', ['a']);
    w.call('b');
    expect(said(w.trace())).toEqual([
      'UNDISCLOSED_TOOL_EXECUTED@5: the host sent tools/call "b" to s0 for acme.dev (seq 5; the server executed it), but none of the 1 tools/list page it had read of s0 for acme.dev before it (seq 3) listed "b"; the page at seq 3 handed out a next cursor the host never sent',
    ]);
  });

  it('I9 sent: a name no page listed, refused by the server; and a call for an audience the host never listed', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.call('delete_all');
    expect(said(w.trace())).toEqual([
      'UNDISCLOSED_TOOL_SENT@5: the host sent tools/call "delete_all" to s0 for acme.dev (seq 5; the server refused it, UNKNOWN_TOOL), but none of the 1 tools/list page it had read of s0 for acme.dev before it (seq 3) listed "delete_all"',
    ]);
    const G = 'globex.dev';
    const twins = new Wire(['a']);
    twins.push('session_opened', { server: 's0', audience: G, identity: 'id0' });
    twins.page(null, null, ['a']);
    twins.call('a', G);
    expect(said(twins.trace())).toEqual([
      'UNDISCLOSED_TOOL_EXECUTED@6: the host sent tools/call "a" to s0 for globex.dev (seq 6; the server executed it), but it had read no tools/list page of s0 for globex.dev before it',
    ]);
  });

  it('I18: the call, the list_changed it did not wait for, and the first whole list begun after it', () => {
    const w = new Wire(['a', 'b']);
    w.page(null, null, ['a', 'b']);
    w.delivered();
    w.page(null, 'c1', ['a']);
    w.delivered();
    w.page('c1', null, ['b']);
    w.call('a');
    w.page(null, null, ['a', 'b']);
    w.call('a');
    // The walk of seq 5-7 began after the first delivery (4), not after the second (6).
    expect(said(w.trace())).toEqual([
      'CALL_BEFORE_RELIST@8: the host sent tools/call "a" to s0 for acme.dev (seq 8) after s0\'s list_changed reached it (seq 6) and before it had read a whole tools/list (page 1 to a last page) begun after that notification (the first ended at seq 10, after the call)',
    ]);
  });
});
