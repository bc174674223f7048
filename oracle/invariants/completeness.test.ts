import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import {
  DEV,
  DEV_KEY,
  OPS,
  cleanRound,
  devWalk,
  finish,
  openSessions,
  opsWalk,
  standardWorld,
} from '../testing/scenarios.ts';
import { ID0, ID1, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';
import { asKnownEvent, type PageServedEvent, type PublishedPage } from '../trace.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (name: string): string => toolDigest(name).slice(0, 12);

function violationsOf(builder: TraceBuilder): unknown[] {
  return checkTrace(builder.build()).violations;
}

describe('I1: ELIGIBLE equals the truth at its revision, after a final recheck', () => {
  it('NO_FINAL_RECHECK: a publish without the second cursorless request', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { recheck: false });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'NO_FINAL_RECHECK',
        evidence: `publish seq ${publishSeq} of key ${K}: no cursorless page of scan "sc-dev" was served between its last page (seq 7) and the publish`,
      },
    ]);
  });

  it('NO_FINAL_RECHECK: a one-page catalog whose only cursorless page is page 1 itself', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    const { publishSeq } = opsWalk(b, { recheck: false });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'NO_FINAL_RECHECK',
        evidence: `publish seq ${publishSeq} of key ${ID0.slice(0, 12)}|${OPS}: no cursorless page of scan "sc-ops" was served between its last page (seq 14) and the publish`,
      },
    ]);
  });

  it('RECHECK_MOVED: the recheck reported another revision and the core published anyway', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const scan = devWalk(b, { recheck: { revision: 4, reported: 4 }, publish: false });
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c'], [OPS]: ['a', 'd'] });
    const publishSeq = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      sourceRevision: 3,
      pages: scan.pages,
      tools: ['a', 'b', 'c'],
    });
    opsWalk(b, { revision: 4, pages: [['a', 'd']] });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'RECHECK_MOVED',
        evidence: `publish seq ${publishSeq} of key ${K} binds revision 3 but its recheck (seq 9) reported 4`,
      },
    ]);
  });

  it('CONTENT_MISMATCH: published tools differ from the revision view', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'd'], [OPS]: ['a'] });
    openSessions(b, [DEV, OPS]);
    const { publishSeq } = devWalk(b);
    opsWalk(b);
    finish(b, 'undecided');
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq ${publishSeq} of key ${K} differs from the acme.dev view at revision 3: missing [${short('d')}], extra [${short('c')}]`,
      },
    ]);
  });

  it('CONTENT_MISMATCH and PAGE_FOREIGN: pages of another audience published under this key', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const ops = opsWalk(b, { scanId: 'sc-x', publish: { key: DEV_KEY, tools: ['a'] } });
    devWalk(b);
    opsWalk(b);
    finish(b);
    const seq = ops.publishSeq;
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq ${seq} of key ${K} differs from the acme.dev view at revision 3: missing [${[short('b'), short('c')].sort().join(', ')}], extra []`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq,
        code: 'PAGE_FOREIGN',
        evidence: `publish seq ${seq} of key ${K}: page served at seq 5 went to s0 acme.ops, not s0 acme.dev`,
      },
    ]);
  });

  it('accepts an empty view published with zero tools', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: [] });
    openSessions(b, [DEV]);
    devWalk(b, { pages: [[]] });
    finish(b);
    expect(violationsOf(b)).toEqual([]);
  });

  it('accepts either view when an equivocating server logged one revision number twice', () => {
    const b = new TraceBuilder();
    standardWorld(b, ['EQUIV']);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'x'], [OPS]: ['a'] });
    devWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([]);
  });

  it('UNKNOWN_IDENTITY: the key names an identity no server presented', () => {
    const b = cleanRound();
    const stranger = `${ID1}|${DEV}`;
    const seq = b.published({
      key: stranger,
      scanId: 'sc-dev',
      sourceRevision: 3,
      pages: devPages(b),
      tools: ['a', 'b', 'c'],
    });
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq,
        code: 'UNKNOWN_IDENTITY',
        evidence: `publish seq ${seq} of key ${ID1.slice(0, 12)}|${DEV}: no server presented identity ${ID1.slice(0, 12)} before it`,
      },
    ]);
  });

  it('UNKNOWN_IDENTITY: an identity only counts from its server_up on', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { identity: ID1 });
    b.serverUp('s0', ID1, { boot: 1 });
    devWalk(b, { identity: ID1, scanId: 'sc-dev-2' });
    opsWalk(b, { identity: ID1 });
    finish(b);
    expect(violationsOf(b)).toEqual([
      expect.objectContaining({ invariant: 'I1', seq: publishSeq, code: 'UNKNOWN_IDENTITY' }),
    ]);
  });

  it('NO_SOURCE_REVISION: ELIGIBLE without a bound revision', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { publish: { sourceRevision: null } });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'NO_SOURCE_REVISION',
        evidence: `publish seq ${publishSeq} of key ${K} is ELIGIBLE but binds no sourceRevision`,
      },
    ]);
  });

  it('UNKNOWN_REVISION: a revision the server never had before the publish', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { revision: 9, publish: { sourceRevision: 9 } });
    b.revision('s0', 9, { [DEV]: ['a', 'b', 'c'], [OPS]: ['a'] });
    opsWalk(b, { revision: 9 });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'UNKNOWN_REVISION',
        evidence: `publish seq ${publishSeq} of key ${K} binds revision 9, which server s0 never had before it`,
      },
    ]);
  });

  it('does not judge UNVERSIONED_OBSERVATION publishes against the truth', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0, { versioned: false, traits: ['F12'] });
    b.revision('s0', 0, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    devWalk(b, { revision: 0, reported: null });
    finish(b);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 0, I2: 1, I4: 0, I5: 0, I10: 1, I11: 0, I12: 1, I13: 5 }),
      metrics: NO_CALL_METRICS,
    });
  });
});

/** The served shapes of the clean round's acme.dev pages (page 1 and 2, not the recheck). */
function devPages(builder: TraceBuilder): PublishedPage[] {
  return builder
    .build()
    .events.map(asKnownEvent)
    .filter((e): e is PageServedEvent => e?.type === 'page_served' && e.scanId === 'sc-dev')
    .slice(0, 2)
    .map(({ cursorIn, cursorOut, pageDigest }) => ({ cursorIn, cursorOut, pageDigest }));
}

describe('I2: no half-page admission', () => {
  it('CHAIN_BROKEN: an unversioned publish missing page 2 of 3', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0, { versioned: false, traits: ['F12'] });
    b.revision('s0', 0, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    const { publishSeq } = b.walk({
      audience: DEV,
      scanId: 'sc-dev',
      revision: 0,
      reported: null,
      pages: [['a'], ['b'], ['c']],
      publish: { pages: (p) => [p[0]!, p[2]!], tools: ['a', 'c'] },
    });
    b.walk({ audience: DEV, scanId: 'sc-dev-2', revision: 0, reported: null, pages: [['a'], ['b'], ['c']] });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'CHAIN_BROKEN',
        evidence: `publish seq ${publishSeq} of key ${K}: page 2 has cursorIn "c2" but page 1 ended with cursorOut "c1"`,
      },
    ]);
  });

  it('CHAIN_BROKEN and CONTENT_MISMATCH: an ELIGIBLE publish missing page 2', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    const { publishSeq } = b.walk({
      audience: DEV,
      scanId: 'sc-dev',
      revision: 3,
      pages: [['a'], ['b'], ['c']],
      publish: { pages: (p) => [p[0]!, p[2]!], tools: ['a', 'c'] },
    });
    finish(b, 'undecided');
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: publishSeq,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq ${publishSeq} of key ${K} differs from the acme.dev view at revision 3: missing [${short('b')}], extra []`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'CHAIN_BROKEN',
        evidence: `publish seq ${publishSeq} of key ${K}: page 2 has cursorIn "c2" but page 1 ended with cursorOut "c1"`,
      },
    ]);
  });

  it('CHAIN_BROKEN: first page only (the SDK auto-refresh mutant), unversioned', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0, { versioned: false });
    b.revision('s0', 0, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    const { publishSeq } = devWalk(b, {
      revision: 0,
      reported: null,
      publish: { pages: (p) => [p[0]!], tools: ['a', 'b'] },
    });
    finish(b, 'undecided');
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'CHAIN_BROKEN',
        evidence: `publish seq ${publishSeq} of key ${K}: the last page has cursorOut "c1", not null`,
      },
    ]);
  });

  it('CHAIN_BROKEN: no pages at all, and a first page that starts at a cursor', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const scan = devWalk(b, { publish: false });
    const empty = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      status: 'UNVERSIONED_OBSERVATION',
      sourceRevision: null,
      pages: [],
      tools: [],
    });
    const late = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      status: 'UNVERSIONED_OBSERVATION',
      sourceRevision: null,
      pages: [scan.pages[1]!],
      tools: ['c'],
    });
    devWalk(b, { scanId: 'sc-dev-2' });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: empty,
        code: 'CHAIN_BROKEN',
        evidence: `publish seq ${empty} of key ${K}: it has no pages`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq: late,
        code: 'CHAIN_BROKEN',
        evidence: `publish seq ${late} of key ${K}: page 1 has cursorIn "c1", not null`,
      },
    ]);
  });

  it('PAGE_NOT_SERVED: a published page whose digest the server never served', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const forged = { cursorIn: 'c1', cursorOut: null, pageDigest: 'f'.repeat(64) };
    const { publishSeq } = devWalk(b, { publish: { pages: (p) => [p[0]!, forged] } });
    devWalk(b, { scanId: 'sc-dev-2' });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'PAGE_NOT_SERVED',
        evidence: `publish seq ${publishSeq} of key ${K}: page 2 (cursorIn "c1", cursorOut null, digest ffffffffffff) was not served to scan "sc-dev" before it`,
      },
    ]);
  });

  it('PAGE_NOT_SERVED and NO_FINAL_RECHECK: pages served to another scan do not count, and a scan never served had no recheck (a core that claims a proof it never ran)', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    const seq = b.published({
      key: DEV_KEY,
      scanId: 'sc-ghost',
      sourceRevision: 3,
      pages: devPages(b),
      tools: ['a', 'b', 'c'],
    });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq,
        code: 'NO_FINAL_RECHECK',
        evidence: `publish seq ${seq} of key ${K}: the world served scan "sc-ghost" no page at all before the publish, so no final recheck either`,
      },
      expect.objectContaining({ invariant: 'I2', seq, code: 'PAGE_NOT_SERVED' }),
    ]);
  });

  it('TOOLS_MISMATCH: published tools reordered against the served pages', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { publish: { tools: ['b', 'a', 'c'] } });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'TOOLS_MISMATCH',
        evidence: `publish seq ${publishSeq} of key ${K}: tool 1 is ${short('b')} but the served pages have ${short('a')} (3 published, 3 served)`,
      },
    ]);
  });

  it('TOOLS_MISMATCH: an unversioned publish with a tool no served page held', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0, { versioned: false, traits: ['F12'] });
    b.revision('s0', 0, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    const { publishSeq } = devWalk(b, { revision: 0, reported: null, publish: { tools: ['a', 'b', 'c', 'x'] } });
    finish(b, 'undecided');
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'TOOLS_MISMATCH',
        evidence: `publish seq ${publishSeq} of key ${K}: tool 4 is ${short('x')} but the served pages have nothing (4 published, 3 served)`,
      },
    ]);
  });

  it('MIXED_REVISIONS and REPORTED_MISMATCH: binding only the last page revision', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    b.scanStarted(DEV_KEY, 'sc-dev');
    const p1 = b.served({
      audience: DEV,
      scanId: 'sc-dev',
      cursorIn: null,
      cursorOut: 'c1',
      revision: 3,
      tools: ['a', 'b'],
    });
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c2'], [OPS]: ['a'] });
    const p2 = b.served({
      audience: DEV,
      scanId: 'sc-dev',
      cursorIn: 'c1',
      cursorOut: null,
      revision: 4,
      tools: ['c2'],
    });
    b.served({ audience: DEV, scanId: 'sc-dev', cursorIn: null, cursorOut: 'c1', revision: 4, tools: ['a', 'b'] });
    b.scanEnded('sc-dev');
    const seq = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      sourceRevision: 4,
      pages: [p1, p2],
      tools: ['a', 'b', 'c2'],
    });
    opsWalk(b, { revision: 4 });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq,
        code: 'MIXED_REVISIONS',
        evidence: `publish seq ${seq} of key ${K} mixes revision 3 (page served at seq ${p1.seq}) with revision 4 (seq ${p2.seq})`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq,
        code: 'REPORTED_MISMATCH',
        evidence: `publish seq ${seq} of key ${K} binds revision 4 but the page served at seq ${p1.seq} reported 3`,
      },
    ]);
  });

  it('MIXED_REVISIONS alone: pages of true revisions 3 and 4 that both reported 3', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { pages: [['a', 'b'], { tools: ['c'], revision: 4, reported: 3 }] });
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c'], [OPS]: ['a'] });
    opsWalk(b, { revision: 4 });
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'MIXED_REVISIONS',
        evidence: `publish seq ${publishSeq} of key ${K} mixes revision 3 (page served at seq 5) with revision 4 (seq 7)`,
      },
    ]);
  });

  it('MIXED_REVISIONS: an unversioned publish of a versioned server is still answerable', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, {
      pages: [['a', 'b'], { tools: ['c'], revision: 4, reported: 4 }],
      publish: { status: 'UNVERSIONED_OBSERVATION', sourceRevision: null },
    });
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c'], [OPS]: ['a'] });
    opsWalk(b, { revision: 4 });
    finish(b);
    expect(violationsOf(b)).toEqual([
      expect.objectContaining({ invariant: 'I2', seq: publishSeq, code: 'MIXED_REVISIONS' }),
    ]);
  });

  it('does not hold a truly unversioned source to one revision', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0, { versioned: false, traits: ['F12'] });
    b.revision('s0', 0, { [DEV]: ['a', 'b', 'c'] });
    openSessions(b, [DEV]);
    devWalk(b, { revision: 0, reported: null, pages: [['a', 'b'], { tools: ['c'], revision: 1 }] });
    b.revision('s0', 1, { [DEV]: ['a', 'b', 'c'] });
    finish(b);
    expect(violationsOf(b)).toEqual([]);
  });

  it('exempts an equivocating server from the single-revision rule', () => {
    const b = new TraceBuilder();
    standardWorld(b, ['EQUIV:split']);
    devWalk(b, { pages: [['a', 'b'], { tools: ['c'], revision: 4, reported: 3 }] });
    finish(b, 'undecided');
    expect(violationsOf(b)).toEqual([]);
  });

  it('REPORTED_MISMATCH alone: a page that carried another revision than the one bound', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const { publishSeq } = devWalk(b, { pages: [['a', 'b'], { tools: ['c'], reported: 2 }] });
    opsWalk(b);
    finish(b);
    expect(violationsOf(b)).toEqual([
      {
        invariant: 'I2',
        round: ROUND,
        seq: publishSeq,
        code: 'REPORTED_MISMATCH',
        evidence: `publish seq ${publishSeq} of key ${K} binds revision 3 but the page served at seq 7 reported 2`,
      },
    ]);
  });
});
