import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createStreams } from '../random.ts';
import { World } from '../runtime/world.ts';
import { createLink, type Link, type LinkTraceEvent } from './link.ts';
import type { LinkDirection, LinkRule } from './link-rules.ts';

const AUTH: AuthInfo = { token: 'opaque', clientId: 'host', scopes: [], extra: { audience: 'acme.dev' } };

type Latency = (direction: LinkDirection, message: JSONRPCMessage) => number;

/** Fixed latency per direction. */
function fixed(latency: Record<LinkDirection, number>): Latency {
  return (direction) => latency[direction];
}

/** Takes every message out of FIFO order. */
const REORDER: LinkRule = {
  onLinkMessage: (_message, verdict) => (verdict.kind === 'drop' ? verdict : { ...verdict, reorder: true }),
};

/** Drops the notifications for which `drop()` says so, delivers the rest. */
function dropNotifications(drop: () => boolean): LinkRule {
  return { onLinkMessage: (message, verdict) => (message.notification && drop() ? { kind: 'drop' } : verdict) };
}

function cursorOf(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'tools/list') return undefined;
  return (message.params as { cursor?: string } | undefined)?.cursor;
}

function newServer(
  onList: (cursor: string | undefined, extra: { authInfo?: AuthInfo }) => Promise<unknown> | unknown,
): Server {
  const server = new Server({ name: 'sim', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    return (await onList(request.params?.cursor, extra)) as { tools: [] };
  });
  return server;
}

function newLink(world: World, latencyMs: Latency, rules: LinkRule[] = []): Link {
  return createLink(world, { latencyMs, rules, identity: 'sha256:server-key-1', authInfo: AUTH });
}

const never = (): Promise<never> => new Promise(() => undefined);

describe('handshake and requests on virtual time', () => {
  it('connects and lists tools at exact virtual times', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 5, toClient: 5 }));
    const audiences: unknown[] = [];
    const server = newServer((_cursor, extra) => {
      audiences.push(extra.authInfo?.extra?.audience);
      return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    });
    const client = new Client({ name: 'host', version: '1' });
    const times: Record<string, number> = {};
    const result = await world.run(100_000, async () => {
      await server.connect(link.server);
      await client.connect(link.client);
      times.connected = world.now();
      const listed = await client.listTools();
      times.listed = world.now();
      expect(listed.tools.map((tool) => tool.name)).toEqual(['echo']);
    });
    // initialize 0→5, result 5→10; initialized and tools/list both leave at 10, arrive at 15; result 15→20.
    expect(times).toEqual({ connected: 10, listed: 20 });
    expect(audiences).toEqual(['acme.dev']);
    expect(link.client.identity).toBe('sha256:server-key-1');
    // The SDK clears each request's 60 s timeout on response, so the queue goes quiet at 20.
    expect(result).toEqual({ status: 'settled', reason: 'quiet', eventsRun: 5, endedAtMs: 20 });
  });

  it('times a request out with -32001 at exactly virtual 5000 ms, without waiting', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 0, toClient: 0 }));
    const trace: string[] = [];
    link.onTrace = (event) => trace.push(`${world.now()} ${event.kind} ${event.method ?? event.id}`);
    const server = newServer(never);
    const client = new Client({ name: 'host', version: '1' });
    let failure: unknown;
    const wallStartMs = performance.now();
    await world.run(100_000, async () => {
      await server.connect(link.server);
      await client.connect(link.client);
      await client.listTools(undefined, { timeout: 5_000 }).catch((error: unknown) => {
        failure = error;
      });
      expect(world.now()).toBe(5_000);
    });
    expect(performance.now() - wallStartMs).toBeLessThan(1_000);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect((failure as McpError).code).toBe(-32001);
    expect(trace.at(-1)).toBe('5000 deliver notifications/cancelled');
  });
});

describe('ordering', () => {
  async function arrivalOrder(reorder: boolean): Promise<string[]> {
    const world = new World({ eventBudget: 1_000 });
    const latencyMs = (direction: LinkDirection, message: JSONRPCMessage): number =>
      direction === 'toServer' ? (({ a: 30, b: 10 } as Record<string, number>)[cursorOf(message) ?? ''] ?? 0) : 0;
    const link = newLink(world, latencyMs, reorder ? [REORDER] : []);
    const arrivals: string[] = [];
    const server = newServer((cursor) => {
      arrivals.push(`${cursor}@${world.now()}`);
      return { tools: [] };
    });
    const client = new Client({ name: 'host', version: '1' });
    await world.run(100_000, async () => {
      await server.connect(link.server);
      await client.connect(link.client);
      await Promise.all([client.listTools({ cursor: 'a' }), client.listTools({ cursor: 'b' })]);
    });
    return arrivals;
  }

  it('keeps per-direction FIFO when reorder is off', async () => {
    expect(await arrivalOrder(false)).toEqual(['a@30', 'b@30']);
  });

  it('lets a faster later request overtake when reorder is on', async () => {
    expect(await arrivalOrder(true)).toEqual(['b@10', 'a@30']);
  });
});

describe('faults', () => {
  it('drops notifications a rule drops, and delivers the rest', async () => {
    const world = new World({ eventBudget: 1_000 });
    let dropping = true;
    const link = newLink(world, fixed({ toServer: 1, toClient: 1 }), [dropNotifications(() => dropping)]);
    const trace: LinkTraceEvent[] = [];
    link.onTrace = (event) => trace.push(event);
    const server = newServer(() => ({ tools: [] }));
    const client = new Client({ name: 'host', version: '1' });
    const heardAtMs: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heardAtMs.push(world.now());
    });
    await world.run(100_000, async () => {
      dropping = false;
      await server.connect(link.server);
      await client.connect(link.client);
      dropping = true;
      await server.sendToolListChanged();
      await new Promise((resolve) => world.after(50, () => resolve(undefined)));
      dropping = false;
      await server.sendToolListChanged();
    });
    expect(heardAtMs).toEqual([53]);
    const listChanged = trace.filter((event) => event.method === 'notifications/tools/list_changed');
    expect(listChanged.map((event) => event.kind)).toEqual(['drop', 'deliver']);
  });

  it('disconnect loses in-flight messages, rejects pending requests and closes both sides once', async () => {
    const world = new World({ eventBudget: 1_000 });
    const latencyMs = (_: LinkDirection, message: JSONRPCMessage): number =>
      'method' in message && message.method === 'tools/list' ? 50 : 0;
    const link = newLink(world, latencyMs);
    const trace: LinkTraceEvent[] = [];
    link.onTrace = (event) => trace.push(event);
    const server = newServer(never);
    const client = new Client({ name: 'host', version: '1' });
    const closes: string[] = [];
    client.onclose = () => closes.push(`client@${world.now()}`);
    server.onclose = () => closes.push(`server@${world.now()}`);
    let failure: unknown;
    let failedAtMs = -1;
    const result = await world.run(100_000, async () => {
      await server.connect(link.server);
      await client.connect(link.client);
      world.after(20, () => link.disconnect());
      await client.listTools().catch((error: unknown) => {
        failure = error;
        failedAtMs = world.now();
      });
      link.disconnect();
    });
    expect(failedAtMs).toBe(20);
    expect((failure as McpError).code).toBe(ErrorCode.ConnectionClosed);
    expect(closes).toEqual(['client@20', 'server@20']);
    expect(trace.at(-1)).toEqual({ direction: 'toServer', kind: 'lost', method: 'tools/list', id: 1 });
    expect(link.closed).toBe(true);
    expect(result.endedAtMs).toBe(20);
    await expect(link.client.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow(
      'Not connected',
    );
  });

  it('close() from one side closes the link for both, once', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 3, toClient: 3 }));
    let serverCloses = 0;
    let clientCloses = 0;
    link.server.onclose = () => serverCloses++;
    link.client.onclose = () => clientCloses++;
    await link.client.close();
    await link.server.close();
    expect([clientCloses, serverCloses, link.closed]).toEqual([1, 1, true]);
    await expect(link.server.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toThrow(Error);
  });

  it('fails the round when a rule drops a request (only notifications may be dropped)', async () => {
    const world = new World({ eventBudget: 1_000 });
    const dropAll: LinkRule = { onLinkMessage: () => ({ kind: 'drop' }) };
    const link = newLink(world, fixed({ toServer: 1, toClient: 1 }), [dropAll]);
    const client = new Client({ name: 'host', version: '1' });
    await expect(world.run(1_000, () => client.connect(link.client))).rejects.toThrow(
      'a link rule dropped a request or a response; only notifications may be dropped',
    );
  });

  it("adds the rules' latency to the base latency, in rule order, and reorders only what a rule lets out of FIFO", async () => {
    const world = new World({ eventBudget: 1_000 });
    const slowNotifications: LinkRule = {
      onLinkMessage: (message, verdict) =>
        verdict.kind === 'deliver' && message.notification
          ? { latencyMs: verdict.latencyMs + 40, reorder: true, kind: 'deliver' }
          : verdict,
    };
    const link = newLink(world, fixed({ toServer: 2, toClient: 2 }), [slowNotifications]);
    const arrivals: string[] = [];
    link.server.onmessage = (message) =>
      arrivals.push(`${'method' in message ? message.method : 'reply'}@${world.now()}`);
    await world.run(1_000, async () => {
      await link.server.start();
      await link.client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await link.client.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    });
    // The notification leaves FIFO with 2 + 40 ms; the ping sent after it is not held back.
    expect(arrivals).toEqual(['ping@2', 'notifications/initialized@42']);
  });

  it('fails the round when the latency is not an integer >= 0', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 1.5, toClient: 0 }));
    const client = new Client({ name: 'host', version: '1' });
    await expect(world.run(1_000, () => client.connect(link.client))).rejects.toThrow(RangeError);
  });
});

describe('copies', () => {
  it('delivers what was sent, not what the sender later did to it', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 2, toClient: 2 }));
    const received: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> = [];
    link.server.onmessage = (message, extra) => received.push({ message, extra });
    const sent = { jsonrpc: '2.0' as const, id: 7, method: 'tools/list', params: { cursor: 'page-2' } };
    await world.run(1_000, async () => {
      await link.client.send(sent);
      sent.params.cursor = 'mutated';
      await link.server.start(); // Arrives at 2, after start: no buffering involved.
      await new Promise((resolve) => world.after(5, () => resolve(undefined)));
      (received[0]!.extra!.authInfo!.extra as { audience: string }).audience = 'evil.admin';
      await link.client.send(sent);
    });
    expect(received).toHaveLength(2);
    expect(cursorOf(received[0]!.message)).toBe('page-2');
    expect(received[0]!.message).not.toBe(sent);
    expect(cursorOf(received[1]!.message)).toBe('mutated');
    expect(received[1]!.extra!.authInfo!.extra).toEqual({ audience: 'acme.dev' });
    expect(AUTH.extra).toEqual({ audience: 'acme.dev' });
  });

  it('holds messages that arrive before start() and hands them over in order on start', async () => {
    const world = new World({ eventBudget: 1_000 });
    const link = newLink(world, fixed({ toServer: 0, toClient: 0 }));
    const ids: unknown[] = [];
    await world.run(1_000, async () => {
      await link.client.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      await link.client.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      await new Promise((resolve) => world.after(10, () => resolve(undefined)));
      link.server.onmessage = (message) => ids.push('id' in message ? message.id : undefined);
      await link.server.start();
    });
    expect(ids).toEqual([1, 2]);
  });
});

describe('determinism', () => {
  /** A busy seeded round: random latencies, reordering, lossy notifications, concurrent requests. */
  async function seededRound(seed: string): Promise<string[]> {
    const streams = createStreams(seed);
    const linkRng = streams.stream('link');
    const world = new World({ eventBudget: 10_000 });
    const link = newLink(world, () => linkRng.int(0, 40), [dropNotifications(() => linkRng.chance(0.3)), REORDER]);
    const log: string[] = [];
    link.onTrace = (e) => log.push(`${world.now()} ${e.direction} ${e.kind} ${e.method ?? ''} ${e.id ?? ''}`);
    const server = newServer((cursor) => ({ tools: [], nextCursor: cursor === 'last' ? undefined : 'last' }));
    const client = new Client({ name: 'host', version: '1' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      log.push(`${world.now()} heard list_changed`);
    });
    const serverRng = streams.stream('server');
    await world.run(10_000, async () => {
      await server.connect(link.server);
      await client.connect(link.client);
      for (let i = 0; i < 5; i++) world.after(serverRng.int(0, 100), () => void server.sendToolListChanged());
      const pages = await Promise.all(['a', 'b', 'c', 'last'].map((cursor) => client.listTools({ cursor })));
      log.push(`${world.now()} pages ${pages.map((page) => page.nextCursor ?? '-').join(',')}`);
    });
    log.push(`end ${world.now()}`);
    return log;
  }

  it('gives byte-identical delivery logs for the same seed, in one process', async () => {
    const before = { setTimeout: globalThis.setTimeout, Date: globalThis.Date };
    const first = await seededRound('0x5eed');
    const second = await seededRound('0x5eed');
    expect(second).toEqual(first);
    expect(first.length).toBeGreaterThan(15);
    expect(first.some((line) => line.includes(' drop '))).toBe(true);
    expect(await seededRound('other')).not.toEqual(first);
    expect({ setTimeout: globalThis.setTimeout, Date: globalThis.Date }).toEqual(before);
  });
});
