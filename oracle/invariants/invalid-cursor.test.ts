import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

const KEY = `${ID0}|acme.dev`;

/**
 * s0 at revision 1 with [a, b, c] for acme.dev, scan-0 started, page 1 ([a, b], cursor "c1")
 * served at t=0, and the request for "c1" refused as an invalid cursor at t=10 (seq 6).
 */
function refusedMidWalk(): { b: TraceBuilder; page1: ReturnType<TraceBuilder['served']> } {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.revision('s0', 1, { 'acme.dev': ['a', 'b', 'c'] });
  b.sessionOpened('s0', 'acme.dev', ID0);
  b.scanStarted(KEY, 'scan-0');
  const page1 = b.served({
    audience: 'acme.dev',
    scanId: 'scan-0',
    cursorIn: null,
    cursorOut: 'c1',
    revision: 1,
    tools: ['a', 'b'],
  });
  b.refused({ audience: 'acme.dev', scanId: 'scan-0', cursorIn: 'c1' });
  return { b, page1 };
}

/** Page 1, page 2 and the recheck served to `scanId` (the fresh walk). */
function freshWalk(b: TraceBuilder, scanId: string) {
  const page1 = b.served({
    audience: 'acme.dev',
    scanId,
    cursorIn: null,
    cursorOut: 'c1',
    revision: 1,
    tools: ['a', 'b'],
  });
  const page2 = b.served({ audience: 'acme.dev', scanId, cursorIn: 'c1', cursorOut: null, revision: 1, tools: ['c'] });
  b.served({ audience: 'acme.dev', scanId, cursorIn: null, cursorOut: 'c1', revision: 1, tools: ['a', 'b'] });
  return [page1, page2];
}

/** The I31 violations of a trace, as `code@seq`, and how many refusals it judged. */
function i31(b: TraceBuilder): { found: string[]; checked: number } {
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I31').map((v) => `${v.code}@${v.seq}`),
    checked: verdict.checked.I31,
  };
}

describe('I31: an invalid cursor restarts the walk from page 1, and no page of the failed walk is kept', () => {
  it('holds for a scan that ends and a new scan that walks from page 1 (the reference core)', () => {
    const { b } = refusedMidWalk();
    b.scanEnded('scan-0', 'INCOMPLETE', 'CURSOR_INVALID');
    b.scanStarted(KEY, 'scan-1');
    const pages = freshWalk(b, 'scan-1');
    b.published({ key: KEY, scanId: 'scan-1', sourceRevision: 1, pages, tools: ['a', 'b', 'c'] });
    expect(i31(b)).toEqual({ found: [], checked: 1 });
  });

  it('holds for the same scan restarted from page 1 with the old pages dropped', () => {
    const { b } = refusedMidWalk();
    const pages = freshWalk(b, 'scan-0');
    b.published({ key: KEY, scanId: 'scan-0', sourceRevision: 1, pages, tools: ['a', 'b', 'c'] });
    expect(i31(b)).toEqual({ found: [], checked: 1 });
  });

  it('a publish that keeps page 1 of the failed walk beside the fresh walk is caught at the publish', () => {
    const { b, page1 } = refusedMidWalk();
    const pages = freshWalk(b, 'scan-0');
    const publish = b.published({
      key: KEY,
      scanId: 'scan-0',
      sourceRevision: 1,
      pages: [page1, ...pages],
      tools: ['a', 'b', 'a', 'b', 'c'],
    });
    // The recheck (page 1 after the last page) backs no published page: the old page 1 is left over.
    expect(i31(b).found).toEqual([`INVALID_CURSOR_PAGE_KEPT@${publish}`]);
  });

  it('a walk that goes on from another cursor after the refusal is caught at that request', () => {
    const { b } = refusedMidWalk();
    const next = b.served({
      audience: 'acme.dev',
      scanId: 'scan-0',
      cursorIn: 'c2',
      cursorOut: null,
      revision: 1,
      tools: ['c'],
    });
    expect(i31(b).found).toEqual([`WALK_NOT_RESTARTED@${next.seq}`]);
  });

  it('judges nothing when no cursor was refused: a refused page 1 or another code is no invalid cursor', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 1, { 'acme.dev': ['a'] });
    b.refused({ audience: 'acme.dev', scanId: 'scan-0', cursorIn: null });
    b.refused({ audience: 'acme.dev', scanId: 'scan-1', cursorIn: 'c1', code: -32003 });
    expect(i31(b)).toEqual({ found: [], checked: 0 });
  });
});
