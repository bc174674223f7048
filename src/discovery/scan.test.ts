import { describe, expect, it } from 'vitest';
import { scriptedPair, tool, type Script } from '../../test/support/scripted-server.ts';
import type { Observation } from '../ports.ts';
import { SdkPageSource } from './page-source.ts';
import type { CatalogLimits } from '../validation/catalog-limits.ts';
import { DEFAULT_TRUST } from '../validation/trust.ts';
import { RevisionWatch } from './revision-watch.ts';
import { runScan, type ScanOutcome } from './scan.ts';

const limits = { pageCountMax: 8, byteCountMax: 1_000_000, scanTimeoutMs: 10_000 };

async function scan(
  script: Script,
  watch = new RevisionWatch(),
  catalogLimits: CatalogLimits = DEFAULT_TRUST,
): Promise<{ outcome: ScanOutcome; requests: (string | undefined)[]; events: Observation[] }> {
  const pair = await scriptedPair(script);
  const events: Observation[] = [];
  const source = new SdkPageSource(pair.client, () => 'fp:test');
  const outcome = await runScan(source, {
    scanId: 'scan-0',
    key: 'fp:test|t.r',
    expectedGeneration: 0,
    policyEpoch: () => 1,
    clock: { now: () => 0 },
    sink: { emit: (e) => events.push(e) },
    limits,
    catalogLimits,
    watch,
  });
  await pair.close();
  return { outcome, requests: pair.requests, events };
}

/** Pages keyed by cursor ('' is a cursor; undefined is page 1), all at one revision. */
function pages(map: Map<string | undefined, { names: string[]; next?: string }>, revision?: number): Script {
  return (cursor) => {
    const page = map.get(cursor);
    if (page === undefined) return { error: -32602 };
    return { tools: page.names.map((n) => tool(n)), nextCursor: page.next, revision };
  };
}

describe('cursor walk', () => {
  it('follows an empty-string cursor as a cursor, then proves with a recheck', async () => {
    const { outcome, requests } = await scan(
      pages(
        new Map([
          [undefined, { names: ['a'], next: '' }],
          ['', { names: ['b'] }],
        ]),
        7,
      ),
    );
    expect([outcome.state, outcome.reason, outcome.revision]).toEqual(['SNAPSHOT_PROVEN', 'OK', 7]);
    expect(requests).toEqual([undefined, '', undefined]);
    expect(outcome.pages.map((p) => [p.cursorIn, p.cursorOut, p.tools.length])).toEqual([
      [null, '', 1],
      ['', null, 1],
    ]);
  });

  it('quarantines an always-empty-string cursor before requesting it twice', async () => {
    const { outcome, requests } = await scan(() => ({ tools: [tool('a')], nextCursor: '', revision: 1 }));
    expect([outcome.state, outcome.reason]).toEqual(['QUARANTINED', 'CURSOR_REPEATED']);
    expect(requests).toEqual([undefined, '']);
  });

  it('quarantines a repeated cursor (same nextCursor twice)', async () => {
    const { outcome, requests } = await scan(
      pages(
        new Map([
          [undefined, { names: ['a'], next: 'x' }],
          ['x', { names: ['b'], next: 'x' }],
        ]),
        1,
      ),
    );
    expect([outcome.state, outcome.reason]).toEqual(['QUARANTINED', 'CURSOR_REPEATED']);
    expect(requests).toEqual([undefined, 'x']);
  });

  it('quarantines a cycle A -> B -> A', async () => {
    const { outcome, requests } = await scan(
      pages(
        new Map([
          [undefined, { names: ['a'], next: 'A' }],
          ['A', { names: ['b'], next: 'B' }],
          ['B', { names: ['c'], next: 'A' }],
        ]),
        1,
      ),
    );
    expect([outcome.state, outcome.reason]).toEqual(['QUARANTINED', 'CURSOR_REPEATED']);
    expect(requests).toEqual([undefined, 'A', 'B']);
  });

  it('walks an empty page that carries a next cursor', async () => {
    const { outcome, requests } = await scan(
      pages(
        new Map([
          [undefined, { names: ['a'], next: 'p2' }],
          ['p2', { names: [], next: 'p3' }],
          ['p3', { names: ['c'] }],
        ]),
        4,
      ),
    );
    expect([outcome.state, outcome.reason]).toEqual(['SNAPSHOT_PROVEN', 'OK']);
    expect(outcome.pages.flatMap((p) => p.tools).map((t) => (t as { name: string }).name)).toEqual(['a', 'c']);
    expect(requests).toEqual([undefined, 'p2', 'p3', undefined]);
  });

  it('ends INCOMPLETE with CURSOR_INVALID on -32602 in the middle of a walk', async () => {
    const script: Script = (cursor) =>
      cursor === 'p2' ? { error: -32602 } : { tools: [tool('a')], nextCursor: 'p2', revision: 3 };
    const { outcome, requests } = await scan(script);
    expect([outcome.state, outcome.reason]).toEqual(['INCOMPLETE', 'CURSOR_INVALID']);
    expect(requests).toEqual([undefined, 'p2']);
  });

  it('quarantines never-ending pages at the page limit without exceeding it', async () => {
    const { outcome, requests } = await scan((cursor) => ({
      tools: [tool(`t${cursor ?? 0}`)],
      nextCursor: `${Number(cursor ?? 0) + 1}`,
      revision: 1,
    }));
    expect([outcome.state, outcome.reason]).toEqual(['QUARANTINED', 'PAGE_LIMIT']);
    expect(requests.length).toBe(8);
  });

  it('ends INCOMPLETE when the revision moves between pages, QUARANTINED when it goes back', async () => {
    const moved = await scan((cursor) =>
      cursor === undefined
        ? { tools: [tool('a')], nextCursor: 'p2', revision: 5 }
        : { tools: [tool('b')], revision: 6 },
    );
    expect([moved.outcome.state, moved.outcome.reason]).toEqual(['INCOMPLETE', 'REVISION_MOVED']);
    const back = await scan((cursor) =>
      cursor === undefined
        ? { tools: [tool('a')], nextCursor: 'p2', revision: 5 }
        : { tools: [tool('b')], revision: 4 },
    );
    expect([back.outcome.state, back.outcome.reason]).toEqual(['QUARANTINED', 'REVISION_BACKWARDS']);
  });

  it('ends INCOMPLETE when the final recheck reports another revision', async () => {
    const { outcome, requests } = await scan((cursor, n) => ({
      tools: [tool('a')],
      revision: n < 2 ? 2 : 3,
      nextCursor: cursor === undefined && n === 0 ? 'p2' : undefined,
    }));
    expect(requests).toEqual([undefined, 'p2', undefined]);
    expect([outcome.state, outcome.reason]).toEqual(['INCOMPLETE', 'RECHECK_REVISION_MOVED']);
    const recheck = await scan((_cursor, n) => ({ tools: [tool('a')], revision: n === 0 ? 2 : 3 }));
    expect([recheck.outcome.state, recheck.outcome.reason]).toEqual(['INCOMPLETE', 'RECHECK_REVISION_MOVED']);
  });

  it('observes an unversioned source to the last page without a recheck', async () => {
    const { outcome, requests } = await scan(
      pages(
        new Map([
          [undefined, { names: ['a'], next: 'p2' }],
          ['p2', { names: ['b'] }],
        ]),
      ),
    );
    expect([outcome.state, outcome.reason, outcome.revision]).toEqual(['UNVERSIONED_OBSERVATION', 'OK', null]);
    expect(requests).toEqual([undefined, 'p2']);
  });

  it('keeps a page with one malformed tool instead of losing it', async () => {
    const { outcome } = await scan(() => ({ tools: [tool('a'), { name: 42 }, 'garbage'], revision: 1 }));
    expect([outcome.state, outcome.reason]).toEqual(['SNAPSHOT_PROVEN', 'OK']);
    expect(outcome.pages[0]?.tools).toEqual([tool('a'), { name: 42 }, 'garbage']);
  });

  it('ends INCOMPLETE with MALFORMED_PAGE when the page envelope is garbage (tools not an array)', async () => {
    const { outcome } = await scan(() => ({ tools: 'garbage' as unknown as unknown[], revision: 1 }));
    expect([outcome.state, outcome.reason]).toEqual(['INCOMPLETE', 'MALFORMED_PAGE']);
  });

  it('quarantines equivocation: the same revision proved with different content', async () => {
    const watch = new RevisionWatch();
    await scan(() => ({ tools: [tool('a')], revision: 9 }), watch);
    const second = await scan(() => ({ tools: [tool('b')], revision: 9 }), watch);
    expect([second.outcome.state, second.outcome.reason]).toEqual(['QUARANTINED', 'EQUIVOCATION']);
  });

  it('quarantines a catalog over the whole-catalog tool count after its last page, before the recheck', async () => {
    const threeTools = pages(
      new Map([
        [undefined, { names: ['a', 'b'], next: 'p2' }],
        ['p2', { names: ['c'] }],
      ]),
      2,
    );
    const over = await scan(threeTools, new RevisionWatch(), { toolCountMax: 2, catalogBytesMax: 1_000_000 });
    expect([over.outcome.state, over.outcome.reason]).toEqual(['QUARANTINED', 'TOO_MANY_TOOLS']);
    expect(over.requests).toEqual([undefined, 'p2']);
    expect(over.events.at(-1)).toEqual({
      type: 'scan_ended',
      scanId: 'scan-0',
      state: 'QUARANTINED',
      reason: 'TOO_MANY_TOOLS',
    });
    const atLimit = await scan(threeTools, new RevisionWatch(), { toolCountMax: 3, catalogBytesMax: 1_000_000 });
    expect([atLimit.outcome.state, atLimit.outcome.reason]).toEqual(['SNAPSHOT_PROVEN', 'OK']);
  });

  it('quarantines a catalog over the whole-catalog byte limit, unversioned sources too', async () => {
    // tool('a') is {"name":"a","description":"a tool.","inputSchema":{"type":"object","properties":{}}}: 84 bytes; three are 252.
    const threeTools = pages(
      new Map([
        [undefined, { names: ['a', 'b'], next: 'p2' }],
        ['p2', { names: ['c'] }],
      ]),
    );
    const over = await scan(threeTools, new RevisionWatch(), { toolCountMax: 10, catalogBytesMax: 251 });
    expect([over.outcome.state, over.outcome.reason]).toEqual(['QUARANTINED', 'CATALOG_TOO_LARGE']);
    const atLimit = await scan(threeTools, new RevisionWatch(), { toolCountMax: 10, catalogBytesMax: 252 });
    expect([atLimit.outcome.state, atLimit.outcome.reason]).toEqual(['UNVERSIONED_OBSERVATION', 'OK']);
  });

  it('emits scan_started, one page_read per page and scan_ended, in that order', async () => {
    const { events } = await scan(() => ({ tools: [tool('a')], revision: 1 }));
    expect(events.map((e) => [e.type, e.type === 'page_read' ? e.recheck : null])).toEqual([
      ['scan_started', null],
      ['page_read', false],
      ['page_read', true],
      ['scan_ended', null],
    ]);
    expect(events[3]).toEqual({ type: 'scan_ended', scanId: 'scan-0', state: 'SNAPSHOT_PROVEN', reason: 'OK' });
  });
});

describe('cache fields (MCP 2026-07-28)', () => {
  /** Two pages and the recheck at revision 3, page 2's scope given by `second`, the recheck's by `recheck`. */
  const scoped =
    (second: unknown, recheck: unknown = 'private'): Script =>
    (cursor, n) => ({
      tools: [tool(cursor === undefined ? 'a' : 'b')],
      nextCursor: cursor === undefined && n === 0 ? 'p2' : undefined,
      revision: 3,
      ttlMs: 60_000,
      cacheScope: n === 0 ? 'private' : n === 1 ? second : recheck,
    });

  it('proves a walk whose pages all say the same scope, and reports each page as read', async () => {
    const { outcome, events } = await scan(scoped('private'));
    expect([outcome.state, outcome.reason]).toEqual(['SNAPSHOT_PROVEN', 'OK']);
    const reads = events.filter((e) => e.type === 'page_read');
    expect(reads.map((e) => [e.cursorIn, e.recheck, e.ttlMs, e.cacheScope])).toEqual([
      [null, false, 60_000, 'private'],
      ['p2', false, 60_000, 'private'],
      [null, true, 60_000, 'private'],
    ]);
  });

  it('ends INCOMPLETE CACHE_SCOPE_MIXED when page 2 says public, or the recheck does', async () => {
    const onPage2 = await scan(scoped('public'));
    expect([onPage2.outcome.state, onPage2.outcome.reason, onPage2.requests]).toEqual([
      'INCOMPLETE',
      'CACHE_SCOPE_MIXED',
      [undefined, 'p2'],
    ]);
    const onRecheck = await scan(scoped('private', 'public'));
    expect([onRecheck.outcome.state, onRecheck.outcome.reason]).toEqual(['INCOMPLETE', 'CACHE_SCOPE_MIXED']);
  });

  it('reads an absent or negative ttlMs as 0 and an unknown scope as private (so a page without one differs from public)', async () => {
    const { outcome, events } = await scan((cursor) => ({
      tools: [tool('a')],
      revision: 1,
      ttlMs: -5,
      cacheScope: 'shared',
    }));
    expect(outcome.state).toBe('SNAPSHOT_PROVEN');
    expect(events.filter((e) => e.type === 'page_read').map((e) => [e.ttlMs, e.cacheScope])).toEqual([
      [0, 'private'],
      [0, 'private'],
    ]);
  });

  it('reports no cache fields for a legacy page', async () => {
    const { events } = await scan(() => ({ tools: [tool('a')], revision: 1 }));
    expect(events.filter((e) => e.type === 'page_read').every((e) => !('ttlMs' in e) && !('cacheScope' in e))).toBe(
      true,
    );
  });
});
