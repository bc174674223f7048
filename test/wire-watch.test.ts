/**
 * `WireWatch` (api/wire-watch.ts), on an SDK `Server` over an in-memory link: a queued call's
 * `_meta` (the lease) rides on the `tools/call` request that carries that call, and its answer
 * is matched by JSON-RPC id, whatever order a host sends overlapping calls to one tool in
 * (issue 33 item 3: matching by tool name alone swapped leases and receipts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { WireWatch, type CallStamp } from 'catsim';

/** What the server saw of each call: its arguments' `n` and the lease id in `_meta`. */
interface Seen {
  n: unknown;
  lease: unknown;
}

/** A server with one tool `t` that answers `isError` for `n` 2 and ok otherwise, and lists two pages. */
async function connected(seen: Seen[], tapped: boolean): Promise<{ client: Client; wire: WireWatch }> {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    seen.push({ n: request.params.arguments?.n, lease: request.params._meta?.lease });
    return { content: [], isError: request.params.arguments?.n === 2 };
  });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const tool = { name: 't', inputSchema: { type: 'object' as const } };
    return request.params?.cursor === undefined
      ? { tools: [tool], nextCursor: 'c1', _meta: { 'dev.catsim/catalogRevision': 7 } }
      : { tools: [{ ...tool, name: 'u' }], _meta: { 'dev.catsim/catalogRevision': 7 } };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
  if (!tapped) {
    await client.connect(clientSide);
    return { client, wire: WireWatch.watch(client, { scanIdPrefix: 'w-' }) };
  }
  const wire = WireWatch.tap(clientSide, { scanIdPrefix: 'w-' });
  await client.connect(wire.transport);
  return { client, wire };
}

/** A stamp that writes what happens to it into `log`. */
function stamp(lease: string, log: string[]): CallStamp {
  return {
    meta: { lease },
    onSent: () => log.push(`sent ${lease}`),
    onAnswer: (outcome) => log.push(`answer ${lease} ${outcome}`),
  };
}

describe('WireWatch', () => {
  it('puts each lease on the request that carries its call when a host sends overlapping calls to one tool in reverse order', async () => {
    const seen: Seen[] = [];
    const log: string[] = [];
    const { client, wire } = await connected(seen, false);
    wire.stampCall({ name: 't', arguments: { n: 1 } }, stamp('lease-A', log));
    wire.stampCall({ name: 't', arguments: { n: 2 } }, stamp('lease-B', log));
    // The host sends the second call first, and the first while the second is in flight.
    const second = client.callTool({ name: 't', arguments: { n: 2 } });
    const first = client.callTool({ name: 't', arguments: { n: 1 } });
    await Promise.all([first, second]);
    expect(seen).toEqual([
      { n: 2, lease: 'lease-B' },
      { n: 1, lease: 'lease-A' },
    ]);
    expect(log).toEqual(['sent lease-B', 'sent lease-A', 'answer lease-B error', 'answer lease-A ok']);
  });

  it('gives identical calls one request each, in the order they were queued, and a rewritten one the oldest of its tool', async () => {
    const seen: Seen[] = [];
    const log: string[] = [];
    const { client, wire } = await connected(seen, false);
    wire.stampCall({ name: 't', arguments: { n: 1 } }, stamp('lease-A', log));
    wire.stampCall({ name: 't', arguments: { n: 1 } }, stamp('lease-B', log));
    wire.stampCall({ name: 't', arguments: { n: 3 } }, stamp('lease-C', log));
    await client.callTool({ name: 't', arguments: { n: 1 } });
    await client.callTool({ name: 't', arguments: { n: 4 } }); // a host that changed n 3 to 4
    await client.callTool({ name: 't', arguments: { n: 1 } });
    expect(seen.map((call) => call.lease)).toEqual(['lease-A', 'lease-B', 'lease-C']);
    expect(wire.cancelStamp(stamp('lease-D', log))).toBe(false);
  });

  it('sends a call it was never asked to stamp unchanged, and cancels a stamp no request took', async () => {
    const seen: Seen[] = [];
    const log: string[] = [];
    const { client, wire } = await connected(seen, false);
    const unused = stamp('lease-A', log);
    wire.stampCall({ name: 'u', arguments: {} }, unused);
    await client.callTool({ name: 't', arguments: { n: 1 } });
    expect(wire.cancelStamp(unused)).toBe(true);
    expect(seen).toEqual([{ n: 1, lease: undefined }]);
    expect(log).toEqual([]);
  });

  it('taps a plain Transport before the client starts: scan ids on a two-page walk, pages as sent', async () => {
    const seen: Seen[] = [];
    const log: string[] = [];
    const { client, wire } = await connected(seen, true);
    expect(wire.latestWalk()).toBeUndefined();
    const first = await client.listTools();
    await client.listTools({ cursor: first.nextCursor });
    wire.stampCall({ name: 't', arguments: { n: 1 } }, stamp('lease-A', log));
    await client.callTool({ name: 't', arguments: { n: 1 } });
    expect(wire.latestWalk()).toEqual({
      scanId: 'w-0',
      complete: true,
      pages: [
        { cursorIn: null, cursorOut: 'c1', revision: 7, tools: [{ name: 't', inputSchema: { type: 'object' } }] },
        { cursorIn: 'c1', cursorOut: null, revision: 7, tools: [{ name: 'u', inputSchema: { type: 'object' } }] },
      ],
    });
    expect(wire.answers).toBe(2);
    expect(seen).toEqual([{ n: 1, lease: 'lease-A' }]);
    expect(log).toEqual(['sent lease-A', 'answer lease-A ok']);
  });
});
