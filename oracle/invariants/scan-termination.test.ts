import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { TraceBuilder, digestOf, toolDigest } from '../testing/trace-builder.ts';

const ROUND = 17;

/** The standard world with a quarantined or abandoned scan `sc-bad` added by `body`. */
function roundWith(
  body: (b: TraceBuilder) => void,
  options: ConstructorParameters<typeof TraceBuilder>[0] = {},
): TraceBuilder {
  const b = new TraceBuilder(options);
  standardWorld(b);
  body(b);
  devWalk(b);
  opsWalk(b);
  finish(b);
  return b;
}

function serve(b: TraceBuilder, cursorIn: string | null, cursorOut: string | null): number {
  return b.served({ audience: DEV, scanId: 'sc-bad', cursorIn, cursorOut, revision: 3, tools: ['a'] }).seq;
}

describe('I13: scans terminate', () => {
  it('CURSOR_REQUESTED_TWICE: a repeated empty-string cursor', () => {
    let repeat = -1;
    const b = roundWith((r) => {
      r.scanStarted(DEV_KEY, 'sc-bad');
      serve(r, null, '');
      serve(r, '', '');
      repeat = serve(r, '', '');
      r.scanEnded('sc-bad', 'QUARANTINED', 'CURSOR_REPEATED');
    });
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: repeat,
        code: 'CURSOR_REQUESTED_TWICE',
        evidence: `scan "sc-bad" (s0 acme.dev) requested cursor "" at seq 6 and again at seq ${repeat}`,
      },
    ]);
  });

  it('CURSOR_REQUESTED_TWICE: a refused request counts as a request', () => {
    let repeat = -1;
    const b = roundWith((r) => {
      r.scanStarted(DEV_KEY, 'sc-bad');
      serve(r, null, 'c1');
      r.refused({ audience: DEV, scanId: 'sc-bad', cursorIn: 'c1' });
      repeat = serve(r, 'c1', null);
      r.scanEnded('sc-bad', 'INCOMPLETE', 'CURSOR_INVALID');
    });
    // Asking again for the cursor the server refused as invalid also goes on with the failed walk (I31).
    expect(checkTrace(b.build()).violations).toEqual([
      expect.objectContaining({ invariant: 'I13', seq: repeat, code: 'CURSOR_REQUESTED_TWICE' }),
      expect.objectContaining({ invariant: 'I31', seq: repeat, code: 'WALK_NOT_RESTARTED' }),
    ]);
  });

  it('PAGE_LIMIT_EXCEEDED: more cursor requests than pageCountMax', () => {
    let over = -1;
    const b = roundWith(
      (r) => {
        r.scanStarted(DEV_KEY, 'sc-bad');
        serve(r, null, 'c1');
        serve(r, 'c1', 'c2');
        serve(r, 'c2', 'c3');
        serve(r, 'c3', 'c4');
        over = serve(r, 'c4', 'c5');
        r.scanEnded('sc-bad', 'QUARANTINED', 'PAGE_LIMIT');
      },
      { bounds: { pageCountMax: 3 } },
    );
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: over,
        code: 'PAGE_LIMIT_EXCEEDED',
        evidence: `scan "sc-bad" (s0 acme.dev) made cursor request 4 at seq ${over}, over pageCountMax 3`,
      },
    ]);
  });

  it('accepts exactly pageCountMax cursor requests', () => {
    const b = new TraceBuilder({ bounds: { pageCountMax: 1 } });
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([]);
  });

  it('EXTRA_CURSORLESS_REQUEST: page 1 requested a third time in one scan', () => {
    let third = -1;
    const b = roundWith((r) => {
      r.scanStarted(DEV_KEY, 'sc-bad');
      serve(r, null, 'c1');
      serve(r, null, 'c1');
      third = serve(r, null, 'c1');
      r.scanEnded('sc-bad', 'INCOMPLETE', 'REVISION_MOVED');
    });
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: third,
        code: 'EXTRA_CURSORLESS_REQUEST',
        evidence: `scan "sc-bad" (s0 acme.dev) requested page 1 a third time at seq ${third}`,
      },
    ]);
  });

  it('three page-1 requests without a scanId are three walks of their own: no EXTRA_CURSORLESS_REQUEST', () => {
    const b = roundWith((r) => {
      r.served({ audience: DEV, scanId: null, cursorIn: null, cursorOut: 'c1', revision: 3, tools: ['a'] });
      r.served({ audience: DEV, scanId: null, cursorIn: null, cursorOut: 'c1', revision: 3, tools: ['a'] });
      r.served({ audience: DEV, scanId: null, cursorIn: null, cursorOut: 'c1', revision: 3, tools: ['a'] });
    });
    // 9 as before (the standard world's scans, starts and reads), plus the three walks.
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I13: 12 } });
  });

  it('SCAN_TOO_LONG: a scan that outlived scanTimeoutMs + latencyMsMax, and the boundary', () => {
    let ended = -1;
    const b = roundWith((r) => {
      r.at(100).scanStarted(DEV_KEY, 'sc-bad');
      r.at(200).scanStarted(DEV_KEY, 'sc-ok');
      ended = r.at(100 + 5_041).scanEnded('sc-bad', 'INCOMPLETE', 'TIMEOUT');
      r.at(200 + 5_040).scanEnded('sc-ok', 'INCOMPLETE', 'TIMEOUT');
    });
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: ended,
        code: 'SCAN_TOO_LONG',
        evidence: `scan "sc-bad" ran 5041 ms (seq 4 to ${ended}), over the 5040 ms budget`,
      },
    ]);
  });

  it('SCAN_NEVER_ENDED: a scan still open long after its budget when the round ended', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    const stuck = b.scanStarted(DEV_KEY, 'sc-stuck');
    const startedAt = b.now() - 10;
    b.at(16_000).quiet();
    const recent = b.scanStarted(DEV_KEY, 'sc-recent');
    b.roundEnd();
    const roundEndT = b.now() - 10;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: stuck,
        code: 'SCAN_NEVER_ENDED',
        evidence: `scan "sc-stuck" started at seq ${stuck} never ended; the round ended ${roundEndT - startedAt} ms later, over the 5040 ms budget`,
      },
    ]);
    expect(recent).toBe(stuck + 2);
  });

  it('a scan whose host died (F18) ends with it: judged only up to the crash', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    // Cut 20 ms after it started: no violation, although the round ends 16 s later.
    b.scanStarted(DEV_KEY, 'sc-cut');
    b.at(b.now() + 10).emit('world', 'host_crashed', { boot: 0, point: 'at_time', cut: null });
    // Open 6,000 ms when its host died, over the 5,040 ms budget: still SCAN_NEVER_ENDED, measured to the crash.
    const stuck = b.scanStarted(DEV_KEY, 'sc-stuck');
    const startedAt = b.now() - 10;
    b.at(startedAt + 6_000).emit('world', 'host_crashed', { boot: 1, point: 'at_time', cut: null });
    b.at(16_000).quiet();
    b.roundEnd();
    expect(checkTrace(b.build()).violations.filter((v) => v.invariant === 'I13')).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: stuck,
        code: 'SCAN_NEVER_ENDED',
        evidence: `scan "sc-stuck" started at seq ${stuck} never ended; its host died 6000 ms later, over the 5040 ms budget`,
      },
    ]);
  });

  it('PAGE_NOT_SERVED: a page the core read that the world did not serve to that scan before it, as that revision', () => {
    const invented = digestOf('never served');
    const later = digestOf(JSON.stringify(['c1', null, 3, [toolDigest('b')]]));
    const b = roundWith((r) => {
      r.scanStarted(DEV_KEY, 'sc-bad');
      const first = r.served({
        audience: DEV,
        scanId: 'sc-bad',
        cursorIn: null,
        cursorOut: 'c1',
        revision: 3,
        tools: ['a'],
      });
      r.pageRead('sc-bad', first, 3, 1, false);
      r.pageRead('sc-bad', { cursorIn: 'c1', cursorOut: null, pageDigest: invented }, 3, 1, false);
      r.pageRead('sc-bad', first, 4, 1, false);
      r.pageRead('sc-other', first, 3, 1, false);
      r.pageRead('sc-bad', { cursorIn: 'c1', cursorOut: null, pageDigest: later }, 3, 1, false);
      expect(
        r.served({ audience: DEV, scanId: 'sc-bad', cursorIn: 'c1', cursorOut: null, revision: 3, tools: ['b'] })
          .pageDigest,
      ).toBe(later);
      r.scanEnded('sc-bad', 'INCOMPLETE', 'TIMEOUT');
    });
    // seq 4 scan_started, 5 page 1 served, 6 read as served, 7-10 the reads judged, 11 page 2 served.
    const first = digestOf(JSON.stringify([null, 'c1', 3, [toolDigest('a')]])).slice(0, 12);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: 7,
        code: 'PAGE_NOT_SERVED',
        evidence: `scan "sc-bad" read page "c1" → null (${invented.slice(0, 12)}, revision 3) at seq 7, which the world never served to that scan before it`,
      },
      {
        invariant: 'I13',
        round: ROUND,
        seq: 8,
        code: 'PAGE_NOT_SERVED',
        evidence: `scan "sc-bad" read page null → "c1" (${first}, revision 4) at seq 8, but the world served it (seq 5) reporting revision 3`,
      },
      {
        invariant: 'I13',
        round: ROUND,
        seq: 9,
        code: 'PAGE_NOT_SERVED',
        evidence: `scan "sc-other" read page null → "c1" (${first}, revision 3) at seq 9, which the world never served to that scan before it`,
      },
      {
        invariant: 'I13',
        round: ROUND,
        seq: 10,
        code: 'PAGE_NOT_SERVED',
        evidence: `scan "sc-bad" read page "c1" → null (${later.slice(0, 12)}, revision 3) at seq 10, which the world never served to that scan before it`,
      },
    ]);
  });
});

describe('I13 on walks that carried no scanId: tied by cursor alone', () => {
  /** Serves one page to a request that carried no scanId. */
  function bare(b: TraceBuilder, cursorIn: string | null, cursorOut: string | null): number {
    return b.served({ audience: DEV, scanId: null, cursorIn, cursorOut, revision: 3, tools: ['a'] }).seq;
  }

  it('a client that follows a cursor loop without labelling its walk requests c1 twice: CURSOR_REQUESTED_TWICE', () => {
    let repeat = -1;
    const b = roundWith((r) => {
      bare(r, null, 'c1');
      bare(r, 'c1', 'c2');
      bare(r, 'c2', 'c1');
      repeat = bare(r, 'c1', 'c2');
      bare(r, 'c2', 'c1');
    });
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I13',
        round: ROUND,
        seq: repeat,
        code: 'CURSOR_REQUESTED_TWICE',
        evidence: `walk 1 without a scanId (s0 acme.dev) requested cursor "c1" at seq 5 and again at seq ${repeat}`,
      },
    ]);
  });

  it('two walks interleaved on the same cursors, and a walk begun again from page 1, repeat nothing', () => {
    const b = roundWith((r) => {
      bare(r, null, 'c1');
      bare(r, null, 'c1');
      bare(r, 'c1', 'c2');
      bare(r, 'c1', 'c2');
      bare(r, 'c2', null);
      bare(r, 'c2', null);
      bare(r, null, 'c1');
      bare(r, 'c1', 'c2');
    });
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([]);
    // Three walks without a scanId, plus the standard world's two scans seen by the world, two
    // started by the core and their five page reads (sc-dev: two pages and the recheck; sc-ops:
    // one page and the recheck).
    expect(verdict.checked.I13).toBe(3 + 2 + 2 + 5);
  });

  it('a walk without a scanId past pageCountMax cursor requests is PAGE_LIMIT_EXCEEDED', () => {
    let over = -1;
    const b = roundWith(
      (r) => {
        bare(r, null, 'c1');
        bare(r, 'c1', 'c2');
        over = bare(r, 'c2', 'c3');
      },
      { bounds: { pageCountMax: 1 } },
    );
    expect(checkTrace(b.build()).violations.map((v) => [v.code, v.seq, v.evidence])).toEqual([
      [
        'PAGE_LIMIT_EXCEEDED',
        over,
        `walk 1 without a scanId (s0 acme.dev) made cursor request 2 at seq ${over}, over pageCountMax 1`,
      ],
    ]);
  });
});
