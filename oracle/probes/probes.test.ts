import { describe, expect, it } from 'vitest';
import { ID0, ID_S1, TraceBuilder } from '../testing/trace-builder.ts';
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

  it('catalog-limit-quarantined: a scan ended QUARANTINED for too many tools or too many descriptor bytes, not for the scan\'s own limits', () => {
    for (const [reason, hit] of [['TOO_MANY_TOOLS', true], ['CATALOG_TOO_LARGE', true], ['BYTE_LIMIT', false]] as const) {
      const b = new TraceBuilder();
      b.scanStarted('fp:a|acme.dev', 'scan-0');
      b.scanEnded('scan-0', 'QUARANTINED', reason);
      expect(probesHit(b.build().events).includes('catalog-limit-quarantined'), reason).toBe(hit);
    }
  });

  it('has one name per probe, in report order', () => {
    expect(new Set(PROBES.map((probe) => probe.name)).size).toBe(PROBES.length);
    expect(PROBES.map((probe) => probe.name).slice(0, 3)).toEqual(['cursor-loop-quarantined', 'page-limit-quarantined', 'revision-moved-mid-walk']);
    expect(PROBES.at(-1)?.name).toBe('auth-refused-incomplete');
  });
});
