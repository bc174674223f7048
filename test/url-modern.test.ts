/**
 * `catsim discover --url` against a modern-only (MCP 2026-07-28) server over Streamable HTTP,
 * built with the SDK v2 server package (`@modelcontextprotocol/server` 2.4.0: `createMcpHandler`
 * with `legacy: 'reject'`, the low-level `Server`) on loopback. The 2025 `initialize` is refused
 * (HTTP 400, -32022); catsim then speaks 2026-07-28 (src/connect/url-server.ts, `greetModern`):
 * no `initialize`, the `_meta` envelope on every request, the MCP-Protocol-Version and Mcp-Method
 * headers, one `subscriptions/listen` stream, and walks the two pages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { startRawHttpServer, type TestHttpServer } from './support/http-mcp-server.ts';
import { runMain } from './support/run-main.ts';

/** What the server saw: each POSTed JSON-RPC method with its two era headers. */
interface Seen {
  method: string;
  protocolVersionHeader: string | undefined;
  methodHeader: string | undefined;
}

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A modern-only server with `add` on page 1 and `echo` on page 2 (cursor `"p2"`), each page `private` for 1000 ms. */
async function startModernServer(seen: Seen[]): Promise<TestHttpServer> {
  const handler = createMcpHandler(
    () => {
      const mcp = new Server(
        { name: 'catsim-test-modern', version: '2.0.0' },
        { capabilities: { tools: { listChanged: true } } },
      );
      mcp.setRequestHandler('tools/list', (request) => {
        const first = (request.params as { cursor?: unknown } | undefined)?.cursor === undefined;
        const tool = { name: first ? 'add' : 'echo', inputSchema: { type: 'object' as const } };
        return { tools: [tool], ...(first ? { nextCursor: 'p2' } : {}), ttlMs: 1000, cacheScope: 'private' } as never;
      });
      return mcp;
    },
    { legacy: 'reject', keepAliveMs: 0 },
  );
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.method === 'POST') {
      const message = JSON.parse(body.toString('utf8')) as { method?: string };
      if (message.method !== undefined)
        seen.push({
          method: message.method,
          protocolVersionHeader: req.headers['mcp-protocol-version'] as string | undefined,
          methodHeader: req.headers['mcp-method'] as string | undefined,
        });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
    res.end();
  };
  return startRawHttpServer((req, res) => void serve(req, res), { onClose: () => handler.close() });
}

describe('catsim discover --url against a modern-only Streamable HTTP server (SDK v2 server package)', () => {
  it('is refused in 2025-11-25, then speaks 2026-07-28 and prints the snapshot of both pages', async () => {
    const seen: Seen[] = [];
    server = await startModernServer(seen);
    const { code, stdout, stderr } = await runMain(['discover', '--url', server.url]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(stdout);
    expect([result.state, result.reason]).toEqual(['UNVERSIONED_OBSERVATION', 'OK']);
    expect(result.snapshot.protocolVersion).toBe('2026-07-28');
    expect(result.snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['add', 'echo']);
    expect(result.snapshot.pages.map((page: { cursorIn: string | null }) => page.cursorIn)).toEqual([null, 'p2']);
    // initialize without era headers (refused); then listen and the two pages, each with both headers.
    expect(seen.map((entry) => [entry.method, entry.protocolVersionHeader, entry.methodHeader])).toEqual([
      ['initialize', undefined, undefined],
      ['subscriptions/listen', '2026-07-28', 'subscriptions/listen'],
      ['tools/list', '2026-07-28', 'tools/list'],
      ['tools/list', '2026-07-28', 'tools/list'],
    ]);
  });
});
