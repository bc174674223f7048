/**
 * `peer:mcp-client-v2-modern` (`@modelcontextprotocol/client` 2.4.0 with `versionNegotiation: {
 * mode: 'auto' }`, one response cache store shared by the host's clients, `cachePartition` per
 * audience) against modern-era servers (MCP 2026-07-28), beside the same library in its default
 * legacy mode (`peer:mcp-client-v2`). What follows from the library's source
 * (dist/public-CvV4ZHkX.mjs, class Client): `_connectNegotiated` probes with `server/discover`,
 * then opens `subscriptions/listen` itself when the server declares `tools.listChanged`;
 * `_walkPages` aggregates the pages keeping page 1's `cacheScope`; `_serveFromCache` serves a
 * fresh entry of the public slot (`[serverIdentity, '']`) to every client of the store.
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { publishes, runHand, type HandRun } from '../support/hand-plan.ts';
import { scopeMixedPlan } from '../mutants/plans.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';

async function run(plan: RoundPlan, name = 'mcp-client-v2-modern'): Promise<HandRun> {
  return runHand(plan, (await loadLibraryPeer(name))!, `peer:${name}`);
}

/** `invariant code @seq` of every violation, in the oracle's order. */
function violations(r: HandRun): string[] {
  return r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`);
}

describe('peer:mcp-client-v2-modern', () => {
  it('connects in the modern era and publishes a walk whose pages disagree on cacheScope (I2 SCOPE_MIXED); the legacy mode never connects', async () => {
    // F24's hand plan (test/faults/f24-scope-mixed.test.ts): one modern-only server, latency 5,
    // pages of 2, three tools, pages after page 1 say `public` until t=60. server/discover is
    // answered at 10, the listen acknowledged at 20 (the session opens there); page 1 is served
    // at 25 (private), page 2 at 35 (public), and listTools() hands over all three tools at 40:
    // _walkPages checks no scope, so the walk is published mixed.
    const modern = await run(scopeMixedPlan());
    expect(modern.of('listen_acknowledged').map((e) => [e.t, e.audience])).toEqual([[20, 'acme.dev']]);
    expect(modern.of('session_opened').map((e) => e.t)).toEqual([20]);
    expect(modern.of('page_served').map((e) => [e.t, e.scanId, e.cacheScope])).toEqual([
      [25, 'peer-0', 'private'],
      [35, 'peer-0', 'public'],
    ]);
    expect(publishes(modern)).toEqual([
      [40, 'fp:0000000000000001|acme.dev', 1, null, ['read_file', 'write_file', 'list_directory']],
    ]);
    expect(violations(modern)).toEqual(['I2 SCOPE_MIXED @10']);
    // The default (legacy) negotiation offers `initialize`, which the modern-only server refuses
    // with -32022: no session opens, nothing is listed, nothing is published.
    const legacy = await run(scopeMixedPlan(), 'mcp-client-v2');
    expect([legacy.of('session_opened').length, legacy.of('page_served').length, publishes(legacy)]).toEqual([
      0,
      0,
      [],
    ]);
    expect(violations(legacy)).toEqual(['I12 NOT_PUBLISHED @16']);
  });

  it("serves globex.dev's list marked public to acme.ops and acme.dev from its public slot (I4 FOREIGN_TOOL)", async () => {
    // Seed 1, round 73 of scenarios/modern.json (read from its trace: `catsim replay --seed 1
    // --round 73 --core peer:mcp-client-v2-modern --scenario modern`; s1 is reached over
    // Streamable HTTP): s0 is modern with F25
    // (every page `public`, ttlMs 1700) and shows globex.dev only `purge_cache_s0`. globex.dev's
    // client walks it first (served at t=45, scan peer-0, published at 62); acme.ops's and
    // acme.dev's sessions open at 64 and 86, and their first listTools() is served from the
    // store's public slot with no request, so each shows globex.dev's tool: the adapter publishes
    // it with the pages of scan peer-0 (`showCached`), and the oracle finds them foreign.
    const r = await run(generatePlan('1', 73, loadScenario('modern')));
    expect(publishes(r).slice(0, 3)).toEqual([
      [62, 'fp:e94110ce2795cdb0|globex.dev', 1, null, ['purge_cache_s0']],
      [64, 'fp:e94110ce2795cdb0|acme.ops', 1, null, ['purge_cache_s0']],
      [86, 'fp:e94110ce2795cdb0|acme.dev', 1, null, ['purge_cache_s0']],
    ]);
    expect(
      r
        .of('published')
        .slice(0, 3)
        .map((e) => e.scanId),
    ).toEqual(['peer-0', 'peer-0', 'peer-0']);
    expect(
      violations(r)
        .filter((line) => line.startsWith('I2 ') || line.startsWith('I4 '))
        .slice(0, 6),
    ).toEqual([
      // The two publishes of globex.dev's pages for acme.ops and acme.dev; then, on s1, two lists
      // whose pages came from revisions 493 and 494 (the library reads a list across a change as
      // one); then acme.ops's disclosure of globex.dev's tool. (Seqs moved when F3 stopped delaying
      // the listen acknowledgement with list_changed, and by one from seq 37 on when scenarios/modern.json
      // drew s1 over Streamable HTTP: its exchanges draw more latencies than stdio messages.)
      'I2 PAGE_FOREIGN @27',
      'I2 PAGE_FOREIGN @36',
      'I2 MIXED_REVISIONS @51',
      'I2 MIXED_REVISIONS @52',
      'I4 FOREIGN_PAGES @103',
      'I4 FOREIGN_TOOL @103',
    ]);
  });
});
