/**
 * A modern-era (MCP 2026-07-28) server reached over Streamable HTTP in a simulated round: the v2
 * server package's web handler (`createMcpHandler`, `legacy: 'reject'`) behind the world's virtual
 * `fetch` (sim/transport/http-link.ts), the reference core on the SDK 1.x Streamable HTTP client
 * transport. Latency 5 ms each way, pages of 2 tools, coalescing delay 20 ms, retry back-off 1 ms.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../contract/trace/types.ts';
import { isUnsupportedProtocolVersion } from '../src/mcp/modern-era.ts';
import type { ServerPlan } from '../sim/plan/types.ts';
import {
  digestOf,
  handPlan,
  handServer,
  publishes,
  reads,
  runHand,
  scanEnds,
  step,
  tool,
  tools,
} from './support/hand-plan.ts';

const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

/** `s0`: FIVE at revision 7, `echo` added at 100 (revision 8); over `transport`, cut at `cutsAtMs`. */
function modernPlan(transport: ServerPlan['transport'], cutsAtMs: number[]) {
  const a = tools(...FIVE);
  const server = handServer({
    history: [step(0, 7, { 'acme.dev': a }), step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
    linkFaults: { disconnectsAtMs: { 'acme.dev': cutsAtMs } },
  });
  const modern: ServerPlan = { ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private' };
  return handPlan({
    faults: cutsAtMs.length > 0 ? ['F15'] : [],
    servers: [transport === undefined ? modern : { ...modern, transport }],
  });
}

/** The trace without `server_up`'s traits (the only place the transport shows). */
function withoutTraits(events: readonly TraceEvent[]): unknown[] {
  return events.map((event) => (event.type === 'server_up' ? { ...event, traits: [] } : event));
}

describe('a modern server over Streamable HTTP', () => {
  it('is refused in 2025-11-25 (HTTP 400, -32022), listens, walks, hears list_changed on the SSE stream, survives a cut', async () => {
    // initialize POSTed at 0, refused by the handler at 5 (HTTP 400 with -32022), read at 10; the
    // core speaks 2026-07-28 from then on: listen POSTed at 10, at the handler at 15, the SSE
    // headers and the acknowledgement (event 1) at 20: the session opens and scan-0 starts at 20.
    // Page 1 served 25, read 30; page 2's POST (30) would reach the handler at 35, but the cut at
    // 35 comes first (episodes are queued before any message): it is lost, the listen body ends
    // (`disconnected`) and scan-0 ends DISCONNECTED at 35. The retry at 36 POSTs listen again
    // (no initialize: the server is known modern): handler 41, acknowledged 46, session opened.
    // Pages served 51, 61, 71, recheck 81, read 86: revision 7 proven, generation 1. `echo` is
    // added at 100; the handler writes list_changed on the open listen stream at 100, read at 105.
    const run = await runHand(modernPlan('http', [35]));

    expect(run.of('server_up').map((e) => e.traits)).toEqual([['ERA:modern', 'TRANSPORT:http']]);
    expect(run.of('listen_acknowledged').map((e) => [e.t, e.subscriptionId, e.toolsListChanged])).toEqual([
      [20, '0', true],
      [46, '0', true],
    ]);
    expect(run.of('session_opened').map((e) => e.t)).toEqual([20, 46]);
    expect(run.of('disconnected').map((e) => e.t)).toEqual([35]);
    expect(run.of('listen_ended').map((e) => [e.t, e.how])).toEqual([[35, 'disconnected']]);
    expect(reads(run).filter(([t]) => t < 100)).toEqual([
      [30, 'scan-0', null, 7, false],
      [56, 'scan-1', null, 7, false],
      [66, 'scan-1', '0:2', 7, false],
      [76, 'scan-1', '0:4', 7, false],
      [86, 'scan-1', null, 7, true],
    ]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [35, 'INCOMPLETE', 'DISCONNECTED'],
      [86, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(run.of('notification_delivered').map((e) => e.t)).toEqual([105]);
    expect(
      publishes(run)
        .slice(0, 2)
        .map(([t, , generation, revision]) => [t, generation, revision]),
    ).toEqual([
      [86, 1, 7],
      [146, 2, 8],
    ]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('writes the same trace as the same round over stdio, but for the transport trait', async () => {
    for (const cuts of [[], [35]]) {
      const http = await runHand(modernPlan('http', cuts));
      const stdio = await runHand(modernPlan(undefined, cuts));
      expect(withoutTraits(http.events)).toEqual(withoutTraits(stdio.events));
    }
  });

  it('is deterministic: the same plan twice gives the same trace', async () => {
    const first = await runHand(modernPlan('http', [35]));
    const second = await runHand(modernPlan('http', [35]));
    expect(JSON.stringify(second.events)).toBe(JSON.stringify(first.events));
  });

  it('a server that declares no tools.listChanged: the HTTP entry ends the listen stream at once, and the core still lists', async () => {
    // The listen stream is acknowledged with nothing honoured, and the HTTP entry writes the
    // stream's result right after (both events at 20: the result's latency ends at 20 too, and
    // the body keeps its order). The reference core keeps its connection (a stream that carried
    // nothing loses nothing by ending) and walks: pages served 25, 35, recheck 45, read 50.
    const server = handServer({
      history: [step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'move_file') })],
      notifications: { declared: false },
    });
    const modern: ServerPlan = { ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', transport: 'http' };
    const run = await runHand(handPlan({ servers: [modern] }));

    expect(run.of('listen_acknowledged').map((e) => [e.t, e.toolsListChanged])).toEqual([[20, false]]);
    expect(run.of('listen_ended').map((e) => [e.t, e.how])).toEqual([[20, 'complete']]);
    expect(run.of('session_opened').map((e) => e.t)).toEqual([20]);
    expect(reads(run).filter(([t]) => t < 100)).toEqual([
      [30, 'scan-0', null, 7, false],
      [40, 'scan-0', '0:2', 7, false],
      [50, 'scan-0', null, 7, true],
    ]);
    expect(scanEnds(run)[0]).toEqual([50, 'SNAPSHOT_PROVEN', 'OK']);
    expect(run.verdict.violations).toEqual([]);
  });
});

describe('isUnsupportedProtocolVersion', () => {
  it('reads -32022 in a JSON-RPC error and in the body of an HTTP 400, nothing else', () => {
    const body =
      '{"jsonrpc":"2.0","error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25"},"id":0}';
    expect(isUnsupportedProtocolVersion({ code: -32022 })).toBe(true);
    expect(isUnsupportedProtocolVersion(new StreamableHTTPError(400, `Error POSTing to endpoint: ${body}`))).toBe(true);
    expect(isUnsupportedProtocolVersion(new StreamableHTTPError(400, 'Error POSTing to endpoint: not json'))).toBe(
      false,
    );
    expect(isUnsupportedProtocolVersion(new StreamableHTTPError(404, `Error POSTing to endpoint: ${body}`))).toBe(
      false,
    );
    expect(isUnsupportedProtocolVersion({ code: -32602 })).toBe(false);
  });
});

describe('a modern server (or a gateway) whose captured tools carry a field 2026-07-28 deleted', () => {
  it('a tool with the `execution` field 2026-07-28 deleted: the world records the page as the codec lets it through, over HTTP, stdio and a gateway', async () => {
    // The v2 package's codec strips `execution` from every tools/list result it sends. Before
    // sim/round.ts ran the plan through `onTheWire`, the world recorded `move_file` with its
    // `execution` while the core read it without: I13 and I2 PAGE_NOT_SERVED on the first read
    // (as on the shipped everything.json catalog, whose tools all carry `execution.taskSupport`).
    // Both tools fit one page of 2: served at 25, read at 30, recheck read at 40, proven at 40.
    const runTask = { ...tool('move_file'), execution: { taskSupport: 'required' } };
    const server = handServer({ history: [step(0, 7, { 'acme.dev': [tool('read_file'), runTask] })] });
    const onTheWire = [digestOf(tool('read_file')), digestOf(tool('move_file'))];
    for (const [era, transport] of [
      ['modern', 'http'],
      ['modern', undefined],
      ['gateway', undefined],
    ] as const) {
      const plan: ServerPlan = { ...server, era, cacheTtlMs: 250, cacheScope: 'private' };
      const run = await runHand(handPlan({ servers: [transport === undefined ? plan : { ...plan, transport }] }));
      // Every page of the round (the refresh loop's scans too) shows both tools as on the wire.
      expect([...new Set(run.of('page_served').map((e) => e.tools.join(' ')))], `${era} ${transport}`).toEqual([
        onTheWire.join(' '),
      ]);
      expect(run.of('revision').map((e) => e.views['acme.dev']?.map((view) => view.digest))).toEqual([onTheWire]);
      expect(run.verdict.violations, `${era} ${transport}`).toEqual([]);
      if (era === 'modern') {
        expect(reads(run).slice(0, 2)).toEqual([
          [30, 'scan-0', null, 7, false],
          [40, 'scan-0', null, 7, true],
        ]);
        expect(scanEnds(run)[0]).toEqual([40, 'SNAPSHOT_PROVEN', 'OK']);
      }
    }
    // The plan itself is not changed: it still holds the descriptor with `execution`.
    expect(server.history[0]?.views['acme.dev']?.[1]).toBe(runTask);
  });
});
