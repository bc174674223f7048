import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, OPS, devWalk, finish, openSessions, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, ID1, TraceBuilder, digestOf, toolDigest } from '../testing/trace-builder.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const GLOBEX = 'globex.dev';
const S0 = ID0.slice(0, 12);
const S1 = ID1.slice(0, 12);
const short = (name: string): string => toolDigest(name).slice(0, 12);

/** `s0` with two tenants: acme.dev sees a, b, c (two pages), globex.dev sees g, h (one page). */
function twinTenantWorld(b: TraceBuilder): void {
  b.serverUp('s0', ID0);
  b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], [GLOBEX]: ['g', 'h'] });
  openSessions(b, [DEV, GLOBEX]);
}

function globexWalk(b: TraceBuilder, publish: { key?: string } = {}): number {
  return b.walk({ audience: GLOBEX, scanId: 'sc-globex', revision: 3, pages: [['g', 'h']], publish }).publishSeq ?? -1;
}

/** The standard clean round up to both publishes; returns the acme.dev publish's seq (12). */
function publishedRound(b: TraceBuilder): number {
  standardWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  return devPublish;
}

describe('I4: no serving across tenants or roles', () => {
  it('FOREIGN_KEY, FOREIGN_PAGES and FOREIGN_TOOL: acme.dev is shown the generation scanned for globex.dev (cache keyed without tenant)', () => {
    const b = new TraceBuilder();
    twinTenantWorld(b);
    const globexPublish = globexWalk(b);
    devWalk(b);
    const disclosure = b.disclosure(globexPublish, { audience: DEV });
    finish(b);
    // seq 0-3 world, 4-10 globex.dev walk (page 1 served at seq 5), 11-19 acme.dev walk, 20 the disclosure.
    expect([globexPublish, disclosure]).toEqual([10, 20]);
    const label = `disclosure seq 20 (session "planner-acme.dev", s0 acme.dev)`;
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [
        {
          invariant: 'I4',
          round: ROUND,
          seq: 20,
          code: 'FOREIGN_KEY',
          evidence: `${label} shows key ${S0}|${GLOBEX}, but s0 presented identity ${S0} since seq 0, so the key is ${S0}|${DEV}`,
        },
        {
          invariant: 'I4',
          round: ROUND,
          seq: 20,
          code: 'FOREIGN_PAGES',
          evidence: `${label} shows generation 1 of key ${S0}|${GLOBEX} (publish seq 10), whose scan "sc-globex" had a page served at seq 5 to s0 ${GLOBEX}`,
        },
        // What was shown, from the world's pages alone: g reached the core only for globex.dev.
        {
          invariant: 'I4',
          round: ROUND,
          seq: 20,
          code: 'FOREIGN_TOOL',
          evidence: `${label} shows descriptor ${short('g')}, which s0 served only to ${GLOBEX} (first at seq 5), never to ${DEV}`,
        },
      ],
      checked: checkedCounts({ I1: 2, I2: 2, I4: 1, I5: 0, I10: 2, I11: 1, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('FOREIGN_PAGES and FOREIGN_TOOL: globex.dev pages published and disclosed under the acme.dev key', () => {
    const b = new TraceBuilder();
    twinTenantWorld(b);
    const publish = globexWalk(b, { key: DEV_KEY });
    const disclosure = b.disclosure(publish);
    finish(b, 'undecided');
    expect([publish, disclosure]).toEqual([10, 11]);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: 10,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq 10 of key ${S0}|${DEV} differs from the acme.dev view at revision 3: missing [${[short('a'), short('b'), short('c')].sort().join(', ')}], extra [${[short('g'), short('h')].sort().join(', ')}]`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq: 10,
        code: 'PAGE_FOREIGN',
        evidence: `publish seq 10 of key ${S0}|${DEV}: page served at seq 5 went to s0 ${GLOBEX}, not s0 ${DEV}`,
      },
      {
        invariant: 'I4',
        round: ROUND,
        seq: 11,
        code: 'FOREIGN_PAGES',
        evidence: `disclosure seq 11 (session "planner-acme.dev", s0 acme.dev) shows generation 1 of key ${S0}|${DEV} (publish seq 10), whose scan "sc-globex" had a page served at seq 5 to s0 ${GLOBEX}`,
      },
      // The key label is acme.dev's own, but the descriptors shown are globex.dev's edition.
      {
        invariant: 'I4',
        round: ROUND,
        seq: 11,
        code: 'FOREIGN_TOOL',
        evidence: `disclosure seq 11 (session "planner-acme.dev", s0 acme.dev) shows descriptor ${short('g')}, which s0 served only to ${GLOBEX} (first at seq 5), never to ${DEV}`,
      },
    ]);
  });

  it('accepts each tenant shown its own generation', () => {
    const b = new TraceBuilder();
    twinTenantWorld(b);
    const globexPublish = globexWalk(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    b.disclosure(globexPublish);
    b.disclosure(devPublish);
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I4: 2 } });
  });

  it('DISCLOSED_UNKNOWN_GENERATION: a generation never published, and one published only after the disclosure', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const scan = devWalk(b, { publish: false });
    const early = b.emit('world', 'disclosure', {
      session: 'p',
      server: 's0',
      audience: DEV,
      key: DEV_KEY,
      generation: 1,
      snapshotDigest: digestOf('snapshot:sc-dev'),
      tools: [],
    });
    const devPublish = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      sourceRevision: 3,
      pages: scan.pages,
      tools: ['a', 'b', 'c'],
    });
    const unknown = b.disclosure(devPublish, { generation: 2 });
    opsWalk(b);
    finish(b);
    expect([early, devPublish, unknown]).toEqual([12, 13, 14]);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I4',
        round: ROUND,
        seq: 12,
        code: 'DISCLOSED_UNKNOWN_GENERATION',
        evidence: `disclosure seq 12 (session "p", s0 acme.dev) shows generation 1 of key ${S0}|${DEV}, which was not published before it`,
      },
      {
        invariant: 'I4',
        round: ROUND,
        seq: 14,
        code: 'DISCLOSED_UNKNOWN_GENERATION',
        evidence: `disclosure seq 14 (session "planner-acme.dev", s0 acme.dev) shows generation 2 of key ${S0}|${DEV}, which was not published before it`,
      },
    ]);
  });

  it("FOREIGN_KEY: after a rotation (identity_rotated counts from its own seq), the old identity's generation is foreign", () => {
    const b = new TraceBuilder();
    const devPublish = publishedRound(b);
    b.identityRotated('s0', ID1, 0);
    const stale = b.disclosure(devPublish);
    b.serverUp('s0', ID1, { boot: 0 });
    const rotated = devWalk(b, { identity: ID1, scanId: 'sc-dev-rotated' }).publishSeq ?? -1;
    b.disclosure(rotated);
    opsWalk(b, { identity: ID1, scanId: 'sc-ops-rotated' });
    finish(b);
    // seq 0-19 the standard round, 20 identity_rotated, 21 the stale disclosure, 22 server_up.
    expect(stale).toBe(21);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I4',
        round: ROUND,
        seq: 21,
        code: 'FOREIGN_KEY',
        evidence: `disclosure seq 21 (session "planner-acme.dev", s0 acme.dev) shows key ${S0}|${DEV}, but s0 presented identity ${S1} since seq 20, so the key is ${S1}|${DEV}`,
      },
    ]);
  });

  it('FOREIGN_KEY and FOREIGN_PAGES: a disclosure for a server that never came up', () => {
    const b = new TraceBuilder();
    const devPublish = publishedRound(b);
    const disclosure = b.disclosure(devPublish, { server: 's9' });
    finish(b);
    const label = `disclosure seq ${disclosure} (session "planner-acme.dev", s9 acme.dev)`;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I4',
        round: ROUND,
        seq: disclosure,
        code: 'FOREIGN_KEY',
        evidence: `${label} shows key ${S0}|${DEV}, but server s9 presented no identity before it`,
      },
      {
        invariant: 'I4',
        round: ROUND,
        seq: disclosure,
        code: 'FOREIGN_PAGES',
        evidence: `${label} shows generation 1 of key ${S0}|${DEV} (publish seq 12), whose scan "sc-dev" had a page served at seq 5 to s0 ${DEV}`,
      },
    ]);
  });

  it('FOREIGN_KEY, FOREIGN_PAGES and FOREIGN_TOOL: another role of the same tenant is foreign too', () => {
    const b = new TraceBuilder();
    const devPublish = publishedRound(b);
    const disclosure = b.disclosure(devPublish, { audience: OPS });
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.seq, v.invariant, v.code])).toEqual([
      [disclosure, 'I4', 'FOREIGN_KEY'],
      [disclosure, 'I4', 'FOREIGN_PAGES'],
      [disclosure, 'I4', 'FOREIGN_TOOL'],
    ]);
  });

  it('DISCLOSED_SNAPSHOT_MISMATCH and DISCLOSED_TOOLS_MISMATCH: the planner was shown something else than the generation', () => {
    const b = new TraceBuilder();
    const devPublish = publishedRound(b);
    const other = digestOf('snapshot:other');
    const reordered = b.disclosure(devPublish, { snapshotDigest: other, tools: ['b', 'a', 'c'].map(toolDigest) });
    const shorter = b.disclosure(devPublish, { tools: ['a', 'b'].map(toolDigest) });
    finish(b);
    expect([reordered, shorter]).toEqual([20, 21]);
    const label = (seq: number): string => `disclosure seq ${seq} (session "planner-acme.dev", s0 acme.dev)`;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I4',
        round: ROUND,
        seq: 20,
        code: 'DISCLOSED_SNAPSHOT_MISMATCH',
        evidence: `${label(20)} names snapshot ${other.slice(0, 12)}, but generation 1 of key ${S0}|${DEV} (publish seq 12) is snapshot ${digestOf('snapshot:sc-dev').slice(0, 12)}`,
      },
      {
        invariant: 'I4',
        round: ROUND,
        seq: 20,
        code: 'DISCLOSED_TOOLS_MISMATCH',
        evidence: `${label(20)} shows ${short('b')} as tool 1, but generation 1 of key ${S0}|${DEV} (publish seq 12) has ${short('a')} (3 shown, 3 published)`,
      },
      {
        invariant: 'I4',
        round: ROUND,
        seq: 21,
        code: 'DISCLOSED_TOOLS_MISMATCH',
        evidence: `${label(21)} shows nothing as tool 3, but generation 1 of key ${S0}|${DEV} (publish seq 12) has ${short('c')} (2 shown, 3 published)`,
      },
    ]);
  });

  it('judges the latest publish of a repeated generation that precedes the disclosure', () => {
    const b = new TraceBuilder();
    const first = publishedRound(b);
    const repeat = devWalk(b, { scanId: 'sc-dev-2', publish: { generation: 1 } }).publishSeq ?? -1;
    const disclosure = b.disclosure(first);
    finish(b);
    // The disclosure copies the first publish's snapshot, but generation 1 now means the repeat.
    expect(checkTrace(b.build()).violations.map((v) => [v.seq, v.invariant, v.code])).toEqual([
      [repeat, 'I10', 'GENERATION_REPEATED'],
      [disclosure, 'I4', 'DISCLOSED_SNAPSHOT_MISMATCH'],
    ]);
  });
});
