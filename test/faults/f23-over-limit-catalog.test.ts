/**
 * F23: an over-limit catalog. Five pool tools with `toolCountMax` 4 (or three with
 * `catalogBytesMax` one byte short of their sum), pages of 2, latency 5 ms: the first scan starts
 * at 10 and reads page k at 20 + 10k. Every tool is valid and the walk is within the page and
 * byte limits; after the last page the reference core's whole-catalog check ends the scan
 * QUARANTINED (no final recheck is sent), the refresh loop stops, nothing is published and the
 * planner is refused SERVER_DISABLED, with zero violations. The mutant without the check proves
 * the catalog with its recheck, publishes it ELIGIBLE and shows it, which I27 reports.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import type { OverLimitCatalog } from '../../sim/faults/f23-over-limit-catalog.ts';
import type { ToolDescriptor } from '../../sim/plan/types.ts';
import { handPlan, handServer, publishes, runHand, scanEnds, step, tools, type HandRun } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];
const THREE = ['read_file', 'write_file', 'list_directory'];
const NO_CATALOG_LIMITS = MUTANTS.find((mutant) => mutant.name === 'no-catalog-limits')!;

/** The byte measure of SPEC section 5: compact UTF-8 JSON of each descriptor, summed. */
const bytesOf = (view: readonly ToolDescriptor[]): number =>
  view.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool), 'utf8'), 0);

async function run(kind: OverLimitCatalog, mutant = false): Promise<HandRun> {
  const view = tools(...(kind === 'tools' ? FIVE : THREE));
  const limits = kind === 'tools' ? { toolCountMax: 4 } : { catalogBytesMax: bytesOf(view) - 1 };
  const plan = handPlan({
    faults: ['F23'],
    ...limits,
    servers: [handServer({ history: [step(0, 7, { 'acme.dev': view })], overLimitCatalog: kind })],
  });
  return mutant ? runHand(plan, NO_CATALOG_LIMITS.core, 'mutant:no-catalog-limits') : runHand(plan);
}

describe('F23: over-limit catalog', () => {
  it('five tools over toolCountMax 4: QUARANTINED TOO_MANY_TOOLS at 40 ms after the third page, no recheck, nothing published or shown', async () => {
    const r = await run('tools');
    expect(r.of('server_up')[0]?.traits).toEqual(['F23:tools']);
    expect(r.header.bounds).toMatchObject({ toolCountMax: 4, catalogBytesMax: 8_388_608 });
    expect(r.of('page_served').map((e) => [e.t, e.cursorIn === null])).toEqual([
      [15, true],
      [25, false],
      [35, false],
    ]);
    expect(scanEnds(r)).toEqual([[40, 'QUARANTINED', 'TOO_MANY_TOOLS']]);
    expect(r.of('published')).toEqual([]);
    expect(r.of('disclosure')).toEqual([]);
    expect(new Set(r.of('disclosure_refused').map((e) => e.code))).toEqual(new Set(['SERVER_DISABLED']));
    expect(r.status).toBe('settled');
    expect(r.verdict.violations).toEqual([]);
    expect(r.verdict.checked.I27).toBe(0);
  });

  it('three tools one byte over catalogBytesMax: QUARANTINED CATALOG_TOO_LARGE at 30 ms after the second page, zero violations', async () => {
    const r = await run('bytes');
    expect(r.of('server_up')[0]?.traits).toEqual(['F23:bytes']);
    // The world writes each descriptor's size into its revision view, the measure I27 sums.
    const view = r.of('revision')[0]?.views['acme.dev'] ?? [];
    expect(view.map((tool) => tool.bytes)).toEqual(
      tools(...THREE).map((tool) => Buffer.byteLength(JSON.stringify(tool), 'utf8')),
    );
    expect(scanEnds(r)).toEqual([[30, 'QUARANTINED', 'CATALOG_TOO_LARGE']]);
    expect(r.of('published')).toEqual([]);
    expect(r.verdict.violations).toEqual([]);
  });

  it('the mutant without the check publishes the over-limit catalog at 50 ms and shows it: I27 OVER_LIMIT_PUBLISHED, then OVER_LIMIT_DISCLOSED', async () => {
    const r = await run('tools', true);
    expect(scanEnds(r)[0]).toEqual([50, 'SNAPSHOT_PROVEN', 'OK']);
    expect(publishes(r)[0]).toEqual([50, KEY, 1, 7, FIVE]);
    const publish = r.of('published')[0]!;
    const [first, second] = r.verdict.violations;
    expect(first).toEqual({
      invariant: 'I27',
      round: 0,
      seq: publish.seq,
      code: 'OVER_LIMIT_PUBLISHED',
      evidence: `publish seq ${publish.seq} of key ${KEY} published a catalog of 5 tools, over toolCountMax 4`,
    });
    const disclosure = r.of('disclosure')[0]!;
    expect(second).toEqual({
      invariant: 'I27',
      round: 0,
      seq: disclosure.seq,
      code: 'OVER_LIMIT_DISCLOSED',
      evidence: `disclosure seq ${disclosure.seq} (session ${JSON.stringify(disclosure.session)}, s0 acme.dev) showed generation 1, a catalog of 5 tools, over toolCountMax 4`,
    });
    expect(new Set(r.verdict.violations.map((v) => v.invariant))).toEqual(new Set(['I27']));
  });

  it("the mutant publishes the catalog over the byte limit too, and I27 sums the world's sizes", async () => {
    const r = await run('bytes', true);
    const limit = bytesOf(tools(...THREE)) - 1;
    const publish = r.of('published')[0]!;
    expect(r.verdict.violations[0]).toMatchObject({ invariant: 'I27', seq: publish.seq, code: 'OVER_LIMIT_PUBLISHED' });
    expect(r.verdict.violations[0]?.evidence).toBe(
      `publish seq ${publish.seq} of key ${KEY} published a catalog of ${limit + 1} bytes of descriptors, over catalogBytesMax ${limit}`,
    );
  });
});
