/**
 * `peer:openai-agents` (`@openai/agents-core` 0.20.0) on hand plans whose outcome follows from the
 * library's source. Latency 5 ms each way, page size 2. `connect()` first probes with
 * `server/discover` (refused by the SDK 1.x server at 5, answer read at 10), then runs
 * `initialize` (answer read at 20): the session opens at t=20 and the first turn's walk starts
 * there, page k served at 20 + 10k - 5. The planner discloses every 100 ms from t=100, and each
 * disclosure is a turn of the agent loop (`agent.getAllTools`).
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import {
  handPlan,
  handServer,
  publishes,
  runHand,
  served,
  step,
  tool,
  tools,
  type HandRun,
} from '../support/hand-plan.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';

const KEY = 'fp:0000000000000001|acme.dev';

async function run(plan: RoundPlan): Promise<HandRun> {
  return runHand(plan, (await loadLibraryPeer('openai-agents'))!, 'peer:openai-agents');
}

/** `invariant code @seq` of every violation, in the oracle's order. */
function violations(r: HandRun): string[] {
  return r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`);
}

describe('peer:openai-agents', () => {
  it('keeps the first list with cacheToolsList and never reads the server again, through a change and its list_changed', async () => {
    // Revision 2 at t=500 replaces list_directory with echo and sends list_changed. agents-core
    // installs no list_changed handler, and every later turn is served from its tools cache.
    const r = await run(
      handPlan({
        servers: [
          handServer({
            history: [
              step(0, 1, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') }),
              step(500, 2, { 'acme.dev': tools('read_file', 'write_file', 'echo') }, 'F1'),
            ],
          }),
        ],
      }),
    );
    expect(served(r)).toEqual([
      [25, 'peer-0', null, '0:2', 1],
      [35, 'peer-0', '0:2', null, 1],
    ]);
    expect(r.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[500, true]]);
    expect(publishes(r)).toEqual([[40, KEY, 1, null, ['read_file', 'write_file', 'list_directory']]]);
    // The quiet tail's probes come from the stale generation: list_directory is gone, and the
    // agent still calls it (the server refuses it as unknown); the other two, the peer's ADMITs
    // under the lease convention (GatelessCalls), carry the testbed's lease and are executed.
    expect(r.of('plan_made').map((e) => [e.tool, e.expectAdmit])).toEqual([
      ['read_file', true],
      ['write_file', true],
      ['list_directory', false],
    ]);
    expect(r.of('call_refused_by_server').map((e) => [e.tool, e.code])).toEqual([['list_directory', 'UNKNOWN_TOOL']]);
    expect(r.of('call_executed').map((e) => [e.seq, e.tool])).toEqual([
      [35, 'write_file'],
      [36, 'read_file'],
    ]);
    // I18: the three probe calls leave (call_sent seqs 28, 31, 34) after the list_changed reached
    // it, and the server never answered a fresh tools/list (none was asked for): the barrier is
    // missing. I12: the last publish lacks echo and still has list_directory (the probes are
    // decided now: each is an ADMIT). I19 (issue 27, judged on the pages served): after the
    // delivery (seq 16) the server answered no fresh tools/list at all.
    expect(violations(r)).toEqual([
      'I19 REFRESH_STARVED @16',
      'I18 CALL_BEFORE_RELIST @28',
      'I18 CALL_BEFORE_RELIST @31',
      'I18 CALL_BEFORE_RELIST @34',
      'I12 NOT_CONVERGED @41',
    ]);
  });

  it('refuses a walk at its first repeated cursor, so with nothing cached every turn walks again and the agent never gets tools', async () => {
    // F5 repeat: page 2 hands back cursor 0:2, which listAllMcpTools has seen: it throws before
    // asking for it again. Nothing is cached, so each turn (t=20, then each disclosure at
    // t=100..900 and the probe turn at 2022) walks two pages and fails the same way.
    const r = await run(
      handPlan({
        servers: [
          handServer({
            cursorTrait: 'repeat',
            history: [step(0, 1, { 'acme.dev': tools('read_file', 'write_file', 'list_directory', 'echo') })],
          }),
        ],
      }),
    );
    const turns = [20, 100, 200, 300, 400, 500, 600, 700, 800, 900, 2022];
    expect(served(r)).toEqual(
      turns.flatMap((t, i) => [
        [t + 5, `peer-${i}`, null, '0:2', 1],
        [t + 15, `peer-${i}`, '0:2', '0:2', 1],
      ]),
    );
    expect(publishes(r)).toEqual([]);
    expect(r.of('disclosure_refused').map((e) => e.code)).toEqual(Array<string>(10).fill('INCOMPLETE_DISCOVERY'));
    // No cursor twice in a scan, no page over the bound; F5 exempts the server from liveness.
    expect(violations(r)).toEqual([]);
  });

  it('yields no tools at all when two names become one after toFunctionToolName', async () => {
    // "read-file" and "read_file" both become read_file; getAllMcpTools throws a UserError at
    // every turn. The walk itself succeeded and is cached, so the server is read only once.
    const dashed = { ...tool('read_file'), name: 'read-file' };
    const r = await run(
      handPlan({
        servers: [handServer({ history: [step(0, 1, { 'acme.dev': [tool('read_file'), dashed, tool('echo')] })] })],
      }),
    );
    expect(served(r)).toEqual([
      [25, 'peer-0', null, '0:2', 1],
      [35, 'peer-0', '0:2', null, 1],
    ]);
    expect(publishes(r)).toEqual([]);
    expect(violations(r)).toEqual(['I12 NOT_PUBLISHED @19']);
  });

  it('starts every round from an empty tools cache, although the cache is module-level and keyed by server name', async () => {
    // Two rounds in one process, the same server and audience (so the same server name
    // "sim:s0/acme.dev"), different catalogs. Had round 1's entry survived, round 2's first turn
    // would be answered from it without reading the server, and round 2 would publish nothing.
    const first = await run(
      handPlan({ servers: [handServer({ history: [step(0, 1, { 'acme.dev': tools('read_file', 'write_file') })] })] }),
    );
    const second = await run(
      handPlan({ servers: [handServer({ history: [step(0, 1, { 'acme.dev': tools('echo', 'get_weather') })] })] }),
    );
    expect(publishes(first)).toEqual([[30, KEY, 1, null, ['read_file', 'write_file']]]);
    expect(publishes(second)).toEqual([[30, KEY, 1, null, ['echo', 'get_weather']]]);
    expect(served(second)).toEqual([[25, 'peer-0', null, null, 1]]);
  });
});
