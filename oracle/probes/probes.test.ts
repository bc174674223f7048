import { describe, expect, it } from 'vitest';
import { digestOf, ID0, ID_S1, TraceBuilder } from '../testing/trace-builder.ts';
import { PROBES, probesHit } from './index.ts';

const PAGE = [{ cursorIn: null, cursorOut: null, pageDigest: 'p'.repeat(64) }];

describe('coverage probes', () => {
  it('a healthy walk and publish hits no probe', () => {
    const b = new TraceBuilder();
    b.walk({ scanId: 'scan-0', audience: 'acme.dev', revision: 7, pages: [['echo']] });
    expect(probesHit(b.build().events)).toEqual([]);
  });

  it('tenant-twins-published: two tenants of one server and role, one name with two descriptors', () => {
    const b = new TraceBuilder();
    b.published({ key: `${ID0}|acme.dev`, scanId: 'scan-0', sourceRevision: 7, pages: PAGE, tools: ['echo'] });
    // Same descriptor for the other tenant: not yet the situation.
    b.published({ key: `${ID0}|globex.dev`, scanId: 'scan-1', sourceRevision: 7, pages: PAGE, tools: ['echo'] });
    expect(probesHit(b.build().events)).toEqual([]);
    // Another server, or another role, with its own edition: still not twins.
    b.published({ key: `${ID_S1}|globex.dev`, scanId: 'scan-2', sourceRevision: 7, pages: PAGE, tools: ['echo#2'] });
    b.published({ key: `${ID0}|globex.ops`, scanId: 'scan-3', sourceRevision: 7, pages: PAGE, tools: ['echo#2'] });
    expect(probesHit(b.build().events)).toEqual([]);
    b.published({ key: `${ID0}|globex.dev`, scanId: 'scan-4', sourceRevision: 8, pages: PAGE, tools: ['echo#2'] });
    expect(probesHit(b.build().events)).toEqual(['tenant-twins-published']);
  });

  it('scan-end and gate probes read the reason, and the plan kind when they name one', () => {
    const b = new TraceBuilder();
    const key = `${ID0}|acme.dev`;
    b.walk({ scanId: 'scan-0', audience: 'acme.dev', revision: 7, pages: [['echo']] });
    b.scanStarted(key, 'scan-1');
    b.scanEnded('scan-1', 'QUARANTINED', 'CURSOR_REPEATED');
    b.planMade({ session: 's0/acme.dev', planId: 'p0', key, tool: 'echo', kind: 'normal' });
    b.gateDecision({ session: 's0/acme.dev', planId: 'p0', key, tool: 'echo', decision: 'STALE_CATALOG' });
    // A STALE_CATALOG refusal of a normal plan is not a stale planner's.
    expect(probesHit(b.build().events)).toEqual(['cursor-loop-quarantined']);
    b.planMade({ session: 's0/acme.dev', planId: 'p1', key, tool: 'echo', kind: 'stale' });
    b.gateDecision({ session: 's0/acme.dev', planId: 'p1', key, tool: 'echo', decision: 'STALE_CATALOG' });
    expect(probesHit(b.build().events)).toEqual(['cursor-loop-quarantined', 'stale-plan-refused']);
  });

  it("catalog-limit-quarantined: a scan ended QUARANTINED for too many tools or too many descriptor bytes, not for the scan's own limits", () => {
    for (const [reason, hit] of [
      ['TOO_MANY_TOOLS', true],
      ['CATALOG_TOO_LARGE', true],
      ['BYTE_LIMIT', false],
    ] as const) {
      const b = new TraceBuilder();
      b.scanStarted('fp:a|acme.dev', 'scan-0');
      b.scanEnded('scan-0', 'QUARANTINED', reason);
      expect(probesHit(b.build().events).includes('catalog-limit-quarantined'), reason).toBe(hit);
    }
  });

  it('cursor-loop-served (world): a page whose nextCursor an earlier page of the same walk was requested with; no core event needed', () => {
    const b = new TraceBuilder();
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: 'c1', revision: 7, tools: ['echo'] });
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: 'c1', cursorOut: 'c2', revision: 7, tools: ['add'] });
    // Another walk (a new first page) forgets c1; another audience's walk is another walk.
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: null, cursorOut: 'c1', revision: 7, tools: ['echo'] });
    b.served({ audience: 'globex.dev', scanId: null, cursorIn: 'c2', cursorOut: 'c1', revision: 7, tools: ['echo'] });
    expect(probesHit(b.build().events)).toEqual([]);
    b.served({ audience: 'acme.dev', scanId: null, cursorIn: 'c1', cursorOut: 'c1', revision: 7, tools: ['add'] });
    expect(probesHit(b.build().events)).toEqual(['cursor-loop-served']);
  });

  it('aba-served-inside-walk (world): A, B, A of a server between two pages the world served one walk', () => {
    const b = new TraceBuilder();
    b.revision('s0', 7, { 'acme.dev': ['echo'] });
    b.revision('s0', 8, { 'acme.dev': ['add'] });
    b.revision('s0', 9, { 'acme.dev': ['echo'] });
    // The A-B-A happened before the walk's first page: not inside it.
    b.served({ audience: 'acme.dev', scanId: 'x', cursorIn: null, cursorOut: 'c1', revision: 9, tools: ['echo'] });
    b.revision('s0', 10, { 'acme.dev': ['add'] });
    b.revision('s0', 11, { 'acme.dev': ['echo'] });
    // A, B, A since the first page (echo, add, echo), but no later page yet: the walk may be abandoned.
    expect(probesHit(b.build().events)).toEqual([]);
    // Another walk's page does not count either.
    b.served({ audience: 'acme.dev', scanId: 'y', cursorIn: 'c1', cursorOut: null, revision: 11, tools: ['add'] });
    expect(probesHit(b.build().events)).toEqual([]);
    b.served({ audience: 'acme.dev', scanId: 'x', cursorIn: 'c1', cursorOut: null, revision: 11, tools: ['add'] });
    expect(probesHit(b.build().events)).toEqual(['aba-served-inside-walk']);
    // A walk that changed once (A, B) and was served its next page: no A-B-A.
    const once = new TraceBuilder();
    once.revision('s0', 7, { 'acme.dev': ['echo'] });
    once.served({ audience: 'acme.dev', scanId: 'x', cursorIn: null, cursorOut: 'c1', revision: 7, tools: ['echo'] });
    once.revision('s0', 8, { 'acme.dev': ['add'] });
    once.served({ audience: 'acme.dev', scanId: 'x', cursorIn: 'c1', cursorOut: null, revision: 8, tools: ['add'] });
    expect(probesHit(once.build().events)).toEqual([]);
  });

  it('revocation-while-call-in-flight (world): a revocation of a tool for an audience while a call of it had left the core and no server had answered', () => {
    const b = new TraceBuilder();
    b.callSent({ audience: 'acme.dev', tool: 'echo' });
    b.callExecuted({ audience: 'acme.dev', tool: 'echo', leaseId: null });
    b.callSent({ audience: 'acme.dev', tool: 'add' });
    b.callSent({ audience: 'globex.dev', tool: 'echo' });
    // echo's acme.dev call was answered; the calls still in flight are add (acme.dev) and echo (globex.dev).
    b.policyChanged('acme.dev', 2, ['add'], { revoked: ['echo'] });
    expect(probesHit(b.build().events)).toEqual([]);
    b.callRefusedByServer({ audience: 'acme.dev', tool: 'add', leaseId: null, code: 'STALE_PIN' });
    b.callSent({ audience: 'acme.dev', tool: 'add' });
    b.policyChanged('acme.dev', 3, [], { revoked: ['add'] });
    expect(probesHit(b.build().events)).toEqual(['stale-pin-refused-by-server', 'revocation-while-call-in-flight']);
  });

  it('revocation-while-call-in-flight (world): a revocation at the very instant a server executed the call counts (F8 mid-call), one after it does not', () => {
    // F8's mid-call revocation is written right after the call_executed it follows, at the same t.
    const midCall = new TraceBuilder({ stepMs: 0 });
    midCall.at(100).callSent({ audience: 'acme.dev', tool: 'echo' });
    midCall.at(105).callExecuted({ audience: 'acme.dev', tool: 'echo', leaseId: null });
    midCall.policyChanged('acme.dev', 2, [], { revoked: ['echo'] });
    expect(probesHit(midCall.build().events)).toEqual(['revocation-while-call-in-flight']);
    // The same revocation 1 ms later: the call was answered before it.
    const after = new TraceBuilder({ stepMs: 0 });
    after.at(100).callSent({ audience: 'acme.dev', tool: 'echo' });
    after.at(105).callExecuted({ audience: 'acme.dev', tool: 'echo', leaseId: null });
    after.at(106).policyChanged('acme.dev', 2, [], { revoked: ['echo'] });
    expect(probesHit(after.build().events)).toEqual([]);
  });

  it('every probe says what it reads: the world-only ones are exactly these', () => {
    // stale-pin-refused-by-server reads a world event, but needs a core that pins its calls.
    expect(PROBES.filter((probe) => probe.basis === 'world').map((probe) => probe.name)).toEqual([
      'emergency-disable-ordered',
      'deprecation-ordered',
      'alias-flipped',
      'removal-while-referenced',
      'disguised-break-listed',
      'cursor-loop-served',
      'aba-served-inside-walk',
      'revocation-while-call-in-flight',
      'scope-mixed-served',
      'public-varies-served',
      'listen-stream-faulted',
      'notification-dropped-at-gateway',
      'changed-within-ttl',
    ]);
  });

  it('has one name per probe, in report order', () => {
    expect(new Set(PROBES.map((probe) => probe.name)).size).toBe(PROBES.length);
    expect(PROBES.map((probe) => probe.name).slice(0, 3)).toEqual([
      'cursor-loop-quarantined',
      'page-limit-quarantined',
      'revision-moved-mid-walk',
    ]);
    expect(PROBES.at(-1)?.name).toBe('surface-capacity-fits');
    expect(PROBES.findIndex((probe) => probe.name === 'tenant-twins-published')).toBe(22);
  });

  it('the F18 probes: a crash in its situation, then a restart, then the new boot serving', () => {
    const key = `${ID0}|acme.dev`;
    const crashWith = (point: string, before: (b: TraceBuilder) => void, served = true): string[] => {
      const b = new TraceBuilder();
      before(b);
      b.emit('world', 'host_crashed', {
        boot: 0,
        point,
        cut: point === 'in_publish' ? { key, generation: 1, snapshotDigest: 'a'.repeat(64) } : null,
      });
      b.emit('world', 'host_restarted', { boot: 1, committed: [], receipts: [] });
      if (served) b.published({ key, scanId: 'boot1-scan-0', sourceRevision: 7, pages: PAGE, tools: ['echo'] });
      return probesHit(b.build().events);
    };
    expect(crashWith('at_time', (b) => b.scanStarted(key, 'scan-0'))).toEqual(['host-restarted-mid-scan']);
    // A crash between scans is not mid-scan; one the new boot never served after is no hit.
    expect(crashWith('at_time', () => undefined)).toEqual([]);
    expect(crashWith('at_time', (b) => b.scanStarted(key, 'scan-0'), false)).toEqual([]);
    expect(crashWith('in_publish', () => undefined)).toEqual(['host-crashed-in-publish']);
    expect(crashWith('after_commit', () => undefined)).toEqual(['host-crashed-after-commit']);
    expect(crashWith('after_lease', () => undefined)).toEqual(['host-crashed-after-lease']);
    expect(crashWith('after_lease', (b) => b.receipt({ callId: 'c0', leaseId: 'lease-0', key, tool: 'echo' }))).toEqual(
      ['host-crashed-after-lease', 'host-crashed-calls-in-flight'],
    );
    expect(
      crashWith('at_time', (b) => {
        b.receipt({ callId: 'c0', leaseId: 'lease-0', key, tool: 'echo' });
        b.receiptOutcome('lease-0');
      }),
    ).toEqual([]);
  });
  it('notification-dropped-at-gateway: a notification lost by a server behind a gateway, not by a legacy one', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.emit('world', 'notification_sent', { server: 's0', audience: 'acme.dev', delivered: false });
    expect(probesHit(b.build().events)).toEqual([]);
    b.serverUp('s1', ID_S1, { traits: ['ERA:gateway'] });
    b.emit('world', 'notification_sent', { server: 's1', audience: 'acme.dev', delivered: true });
    expect(probesHit(b.build().events)).toEqual([]);
    b.emit('world', 'notification_sent', { server: 's1', audience: 'acme.dev', delivered: false });
    expect(probesHit(b.build().events)).toEqual(['notification-dropped-at-gateway']);
  });

  it("changed-within-ttl: an audience's tools changed before a page served to it at 100 with ttlMs 50 expired at 150", () => {
    for (const [at, audience, hit] of [
      [150, 'acme.dev', false],
      [149, 'globex.dev', false],
      [149, 'acme.dev', true],
    ] as const) {
      const b = new TraceBuilder({ stepMs: 0 });
      b.revision('s0', 1, { 'acme.dev': ['echo'], 'globex.dev': ['echo'] });
      b.at(100).emit('world', 'page_served', {
        server: 's0',
        audience: 'acme.dev',
        scanId: null,
        cursorIn: null,
        cursorOut: null,
        revision: 1,
        reported: 1,
        tools: [],
        pageDigest: 'p'.repeat(64),
        ttlMs: 50,
        cacheScope: 'private',
      });
      b.at(at).revision('s0', 2, { 'acme.dev': ['echo'], 'globex.dev': ['echo'], [audience]: ['grep'] });
      expect(probesHit(b.build().events).includes('changed-within-ttl'), `${audience} at ${at}`).toBe(hit);
    }
  });

  it('announced-still-bound: an admitted call of an announced version through a generation first shown after the announce', () => {
    const D1 = digestOf('read_file#1');
    const run = (identity: string, generation: number) => {
      const b = new TraceBuilder();
      const key = `${identity}|acme.dev`;
      const disclose = (g: number) =>
        b.emit('world', 'disclosure', {
          session: 's0/acme.dev',
          server: 's0',
          audience: 'acme.dev',
          key,
          generation: g,
          snapshotDigest: digestOf(`snapshot:${g}`),
          tools: [D1],
        });
      disclose(1);
      b.emit('world', 'lifecycle_ordered', {
        server: 's0',
        identity: ID0,
        tool: 'read_file',
        step: 'announce',
        descriptorDigests: [D1],
        delivery: 'delivered',
        answer: null,
        code: null,
      });
      if (generation === 2) disclose(2);
      b.emit('world', 'plan_made', {
        session: 's0/acme.dev',
        planId: 'p0',
        key,
        generation,
        snapshotDigest: digestOf(`snapshot:${generation}`),
        tool: 'read_file',
        descriptorDigest: D1,
        kind: 'normal',
        expectAdmit: null,
      });
      b.emit('core', 'gate_decision', {
        callId: 'call-p0',
        planId: 'p0',
        session: 's0/acme.dev',
        key,
        tool: 'read_file',
        planDescriptorDigest: D1,
        generation,
        descriptorDigest: D1,
        policyEpoch: 1,
        decision: 'ADMIT',
      });
      return probesHit(b.build().events).includes('announced-still-bound');
    };
    // Generation 1 was first shown before the announce: its run bound the version before it.
    expect(run(ID0, 1)).toBe(false);
    expect(run(ID0, 2)).toBe(true);
    // Another server's tool of the same name and descriptor: not the announced one.
    expect(run(ID_S1, 2)).toBe(false);
  });
});
