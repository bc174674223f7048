/**
 * `peer:ai-sdk-mcp`: the Vercel AI SDK's MCP client, `@ai-sdk/mcp` 2.0.99 (its own MCP client,
 * not the SDK's), run unchanged the way its users use it: one `createMCPClient({ transport })`
 * per session (after an identity rotation the same client serves the key at the new identity:
 * a disclosure finds it by the identity its connection presents now, `Sessions` in
 * tapped-peer.ts), and at every turn of the agent loop `client.tools()`, whose AI SDK tools the
 * model is given; a call is the model's pick, run through the returned tool's `execute`. A turn is
 * each disclosure the world asks for (the planner is the model), as for `peer:openai-agents`.
 *
 * What the library does (read in dist/index.js, class DefaultMCPClient):
 * - `createMCPClient` starts the transport and, since the transport opts into protocol-version
 *   discovery as the library's own `StdioMCPTransport` does (`supportsProtocolVersionDiscovery`;
 *   a custom transport that does not say so gets the legacy flow), sends `server/discover`
 *   (2026-07-28): a modern server's answer makes the connection modern (no `initialize`; the
 *   client never sends `subscriptions/listen`); a 2025-era server's -32601 makes it fall back to
 *   `initialize` (2025-11-25) and `notifications/initialized`; then it resolves;
 * - `tools()` walks `tools/list` with `while (definitions.nextCursor != null)`: no page cap and no
 *   repeated-cursor check, and an empty-string cursor is followed like any other; it keeps no
 *   list between calls (each turn walks again), and `toolsFromDefinitions` builds a plain object
 *   keyed by name, so of two tools with one name the later definition is the one kept, at the
 *   first one's position;
 * - an incoming notification (a `list_changed` included) is "Unsupported message type", handed to
 *   `onUncaughtError` (none is set here, as in the library's examples): nothing re-lists;
 * - `callTool` sends `tools/call` with the name and arguments it is given; `maxRetries` defaults
 *   to 0; a legacy-era request has no timeout.
 * The dynamic tools' `inputSchema` is `jsonSchema(...)` without a validator, so the AI SDK's tool
 * loop passes the model's arguments on unchecked; `execute` is called here with them, as the loop
 * does. A name the turn's tools do not hold is not sent (the loop's `NoSuchToolError`).
 *
 * Wrapped: nothing of the library. The world hands the connection's plain `Transport` over
 * (`connector.connectTransport`, docs/CORE-API.md), and the client gets the exported wire tap's
 * transport (`WireWatch.tap`), which `createMCPClient` accepts as a custom `MCPTransport`.
 */
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import type { WireWatch } from '../../api/wire-watch.ts';
import type { SessionSpec } from '../../sim/guard/adapter.ts';
import type { PeerSend } from './peer-host.ts';
import { keyNow, Sessions, TappedPeer } from './tapped-peer.ts';

/** The tools one `tools()` call returns, by name. */
type TurnTools = Awaited<ReturnType<MCPClient['tools']>>;

/** One session as the AI SDK host holds it: its client, and the catalog key it presents now. */
interface AiSdkKey {
  client?: MCPClient;
  /** The connection's identity now (set when it opened). */
  identity?: () => string;
  wire?: WireWatch;
  /** The loop's call path: the latest turn's tool of that name, through its execute. */
  send?: PeerSend;
  /** The tools of the latest turn, by name. */
  tools: TurnTools;
  turnRunning: boolean;
}

/** The AI SDK's MCP client as a peer. */
export class AiSdkMcpPeer extends TappedPeer {
  readonly #sessions = new Sessions<AiSdkKey>();
  #toolCalls = 0;

  protected override open(session: SessionSpec): void {
    const host: AiSdkKey = { tools: {}, turnRunning: false };
    void session.connector
      .connectTransport(async (transport) => {
        host.wire = this.tap(transport);
        // The library's own stdio transport opts into protocol-version discovery
        // (`StdioMCPTransport.supportsProtocolVersionDiscovery`, dist/mcp-stdio/index.js); a custom
        // transport keeps the legacy flow unless it says so too, and this one stands in for stdio.
        host.client = await createMCPClient({
          transport: Object.assign(host.wire.transport, { supportsProtocolVersionDiscovery: true }),
          name: 'catsim-peer-ai-sdk-mcp',
        });
      })
      .then(
        ({ identity }) => {
          host.identity = identity;
          // The loop's call path: the turn's tool of that name, through its execute, or nothing.
          host.send = async (name, args) => {
            const tool = host.tools[name];
            if (tool?.execute !== undefined)
              await tool.execute(args, { toolCallId: `call-${this.#toolCalls++}`, messages: [], context: {} });
          };
          if (host.wire !== undefined)
            this.remember(keyNow(identity, session.tenant, session.role), host.wire, host.send);
          this.#sessions.add(session.tenant, session.role, identity, host);
          return this.#turn(host, session);
        },
        () => undefined,
      );
  }

  /**
   * Every disclosure is a turn of the agent loop: it asks the session's client for its tools
   * again, the client whose connection presents `identity` now (the same client after a rotation).
   */
  override disclose(
    session: string,
    tenant: string,
    role: string,
    identity: string,
  ): ReturnType<TappedPeer['disclose']> {
    const host = this.#sessions.find(tenant, role, identity);
    if (host !== undefined && !host.turnRunning) void this.#turn(host, { tenant, role });
    return super.disclose(session, tenant, role, identity);
  }

  /**
   * One turn's discovery: `client.tools()`, published as the walk it read under the catalog key
   * the connection presented when the turn began, with the call path remembered under that key.
   */
  async #turn(host: AiSdkKey, audience: { tenant: string; role: string }): Promise<void> {
    if (host.client === undefined || host.identity === undefined) return;
    const key = keyNow(host.identity, audience.tenant, audience.role);
    host.turnRunning = true;
    const tools = await host.client.tools().catch(() => undefined);
    host.turnRunning = false;
    if (tools === undefined || host.wire === undefined || host.send === undefined) return;
    if (!this.hasNewWalk(key, host.wire)) return;
    host.tools = tools;
    const names = Object.keys(tools);
    this.remember(key, host.wire, host.send);
    this.publishWalk(
      key,
      host.wire,
      names.map((name) => ({ name, servedName: name })),
      keptDescriptors(names, host.wire),
    );
  }
}

/**
 * The served descriptor behind each tool `toolsFromDefinitions` kept, in its order: for a name
 * served twice, the later descriptor (the object's key keeps the first position, its value the last).
 */
function keptDescriptors(names: readonly string[], wire: WireWatch): unknown[] {
  const byName = new Map<string, unknown>();
  for (const tool of wire.latestWalk()?.pages.flatMap((page) => page.tools) ?? [])
    byName.set(String((tool as { name?: unknown }).name), tool);
  return names.map((name) => byName.get(name));
}
