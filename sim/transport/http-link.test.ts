import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { World } from '../runtime/world.ts';
import { serveModernHttp } from '../server/modern-session.ts';
import { createHttpLink } from './http-link.ts';
import type { LinkDirection } from './link-rules.ts';

/** The 2026-07-28 envelope every modern request carries. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
};

function request(id: number, method: string, params: Record<string, unknown> = {}): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } };
}

describe('the Streamable HTTP link on virtual time', () => {
  it('carries a JSON answer, the listen SSE stream event by event, and the cut', async () => {
    // POSTs take 5 ms, answers 3 ms. tools/list POSTed at 0: at the handler at 5, its JSON answer
    // read at 8. listen POSTed at 8: at the handler at 13; the SSE headers and the
    // acknowledgement at 16. A change at 50 is written on the stream and read at 53. A second
    // tools/list POSTed at 58 is still in flight at the cut at 60: lost, its fetch rejects, the
    // stream errors, the handler's session ends and the client transport closes.
    const world = new World({ eventBudget: 1_000 });
    const latency: Record<LinkDirection, number> = { toServer: 5, toClient: 3 };
    let sessionEnded = -1;
    const session = serveModernHttp('sim', true, {
      listTools: () => ({
        tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
        ttlMs: 100,
        cacheScope: 'public',
      }),
      callTool: () => ({ content: [] }),
    });
    session.onclose = () => {
      sessionEnded = world.now();
    };
    const link = createHttpLink(world, {
      latencyMs: (direction) => latency[direction],
      identity: 'sha256:server-key-1',
      server: { fetch: (req) => session.fetch(req), close: () => session.close() },
    });
    const trace: string[] = [];
    link.onTrace = (event) => trace.push(`${world.now()} ${event.kind} ${event.direction} ${event.method ?? event.id}`);
    const received: string[] = [];
    link.client.onmessage = (message) => {
      const label = 'method' in message ? message.method : `result ${String((message as { id: unknown }).id)}`;
      received.push(`${world.now()} ${label}`);
    };
    let closedAt = -1;
    link.client.onclose = () => {
      closedAt = world.now();
    };
    let lostSend: unknown;
    await world.run(1_000, async () => {
      await link.client.start();
      await link.client.send(request(1, 'tools/list'));
      void link.client.send(request(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
      world.schedule(50, () => session.sendToolListChanged());
      world.schedule(58, () => {
        link.client.send(request(3, 'tools/list')).catch((error: unknown) => {
          lostSend = error;
        });
      });
      world.schedule(60, () => link.disconnect());
    });

    expect(trace).toEqual([
      '5 deliver toServer tools/list',
      '8 deliver toClient 1',
      '13 deliver toServer subscriptions/listen',
      '16 deliver toClient notifications/subscriptions/acknowledged',
      '53 deliver toClient notifications/tools/list_changed',
      '60 lost toServer tools/list',
    ]);
    expect(received).toEqual([
      '8 result 1',
      '16 notifications/subscriptions/acknowledged',
      '53 notifications/tools/list_changed',
    ]);
    expect(String(lostSend)).toBe('TypeError: fetch failed');
    expect([closedAt, sessionEnded, link.closed]).toEqual([60, 60, true]);
  });

  it('answers a 2025-11-25 initialize with HTTP 400 and -32022, read after one round trip', async () => {
    const world = new World({ eventBudget: 1_000 });
    const session = serveModernHttp('sim', true, {
      listTools: () => ({ tools: [] }),
      callTool: () => ({ content: [] }),
    });
    const link = createHttpLink(world, {
      latencyMs: () => 5,
      identity: 'sha256:server-key-1',
      server: { fetch: (req) => session.fetch(req), close: () => session.close() },
    });
    let failure: unknown;
    let failedAt = -1;
    await world.run(1_000, async () => {
      await link.client.start();
      const initialize: JSONRPCMessage = {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } },
      };
      await link.client.send(initialize).catch((error: unknown) => {
        failure = error;
        failedAt = world.now();
      });
    });
    expect(failedAt).toBe(10);
    expect((failure as { code?: unknown }).code).toBe(400);
    expect(String((failure as Error).message)).toContain('"code":-32022');
  });
});
