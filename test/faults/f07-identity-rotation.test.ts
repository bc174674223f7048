/**
 * F7: server identity (certificate) rotation. Latency 5 ms, pages of 2, 5 tools (3 pages).
 * The key of a catalog is `<identity>|tenant.role`: after a rotation the core must publish under
 * the new identity's key, starting again at generation 1.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, publishes, runHand, scanEnds, step, tools } from '../support/hand-plan.ts';

const OLD = 'fp:0000000000000001';
const NEW = 'fp:00000000000000aa';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('F7: identity rotation', () => {
  it('a rotation in the middle of a walk ends that scan INCOMPLETE IDENTITY_CHANGED; the next scan publishes under <new fp>|acme.dev', async () => {
    // scan-0 (key OLD) reads page 1 at 20; the rotation at 22 changes the identity the connection
    // presents; page 2 is read at 30 -> IDENTITY_CHANGED. The retry at 31 runs under NEW's key
    // (expectedGeneration 0) and publishes generation 1 at 71.
    const plan = handPlan({
      faults: ['F7'],
      servers: [
        handServer({
          identity: OLD,
          history: [step(0, 7, { 'acme.dev': tools(...FIVE) })],
          rotations: [{ atMs: 22, identity: NEW }],
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('identity_rotated').map((e) => [e.t, e.identity, e.boot])).toEqual([[22, NEW, 0]]);
    expect(run.of('server_up').map((e) => [e.t, e.identity])).toEqual([
      [0, OLD],
      [22, NEW],
    ]);
    expect(
      run
        .of('scan_started')
        .slice(0, 2)
        .map((e) => [e.t, e.key, e.scanId, e.expectedGeneration]),
    ).toEqual([
      [10, `${OLD}|acme.dev`, 'scan-0', 0],
      [31, `${NEW}|acme.dev`, 'scan-1', 0],
    ]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'IDENTITY_CHANGED'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)[0]).toEqual([71, `${NEW}|acme.dev`, 1, 7, FIVE]);
    expect(run.of('published').filter((e) => e.key === `${OLD}|acme.dev`)).toEqual([]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('a rotation between walks: the next publish goes to the new key with generation 1', async () => {
    // scan-0 publishes generation 1 under OLD at 50. The rotation at 150 prompts nothing; the
    // refresh scan at 1050 runs under NEW (expectedGeneration 0) and publishes generation 1 at 1090.
    // Meanwhile the planner (every 100 ms) is shown OLD's generation at 100 and refused
    // (INCOMPLETE_DISCOVERY: nothing published for NEW yet) from 200 to 1000.
    const plan = handPlan({
      faults: ['F7'],
      servers: [
        handServer({
          identity: OLD,
          history: [step(0, 7, { 'acme.dev': tools(...FIVE) })],
          rotations: [{ atMs: 150, identity: NEW }],
        }),
      ],
    });
    const run = await runHand(plan);

    expect(scanEnds(run).slice(0, 2)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [1090, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(
      run
        .of('scan_started')
        .slice(0, 2)
        .map((e) => [e.t, e.key, e.expectedGeneration]),
    ).toEqual([
      [10, `${OLD}|acme.dev`, 0],
      [1050, `${NEW}|acme.dev`, 0],
    ]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [50, `${OLD}|acme.dev`, 1, 7, FIVE],
      [1090, `${NEW}|acme.dev`, 1, 7, FIVE],
    ]);
    const planner = run.events
      .filter((e) => e.type === 'disclosure' || e.type === 'disclosure_refused')
      .filter((e) => e.t <= 1100)
      .map((e) => (e.type === 'disclosure' ? [e.t, e.key, e.generation] : [e.t, e.code]));
    // The planner ticks every 100 ms while faults act (until T_heal) and rests in the quiet tail:
    // from the rotation on it is refused until the new key is published at 1090, after it rested.
    expect(planner).toEqual([
      [100, `${OLD}|acme.dev`, 1],
      ...[200, 300, 400, 500, 600, 700, 800, 900].map((t) => [t, 'INCOMPLETE_DISCOVERY']),
    ]);
    expect(run.verdict.violations).toEqual([]);
  });
});
