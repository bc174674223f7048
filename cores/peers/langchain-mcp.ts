/**
 * `peer:langchain-mcp`: LangChain's MCP adapters, `@langchain/mcp-adapters` 1.1.4 (on
 * `@langchain/core` 1.4.0 and the SDK 1.x `Client`), used as a LangChain host uses them: once
 * the key's SDK `Client` is connected, `loadMcpTools(serverName, client)` turns the server's
 * tools into LangChain tools, which the agent is given; a call is `tool.invoke(args)` on the
 * LangChain tool of that name (an agent's tool node finds tools by name and refuses others).
 *
 * What the library does (read in dist/tools.js, `loadMcpTools`):
 * - the walk is `do { client.listTools({ cursor }) } while (nextCursor)`: no cap on pages and no
 *   check for a repeated cursor, so a server whose cursors never end or cycle keeps it walking
 *   until the connection or the round ends, and the agent gets no tools at all;
 * - a tool without a name is dropped silently; a tool whose `inputSchema` has no `properties`
 *   gets `properties: {}` written into the descriptor object; each schema is dereferenced
 *   (`$defs`/`definitions` only; other `$ref`s are kept, unresolved) and simplified (`allOf`,
 *   `anyOf`, `oneOf`, `if/then/else`, `not`, `$schema` flattened or removed) before the model
 *   sees it; with `throwOnLoadError` (default true) one tool that fails to convert fails the
 *   whole load;
 * - it holds no state between calls (no cache, no `list_changed` handling): the list is what
 *   one walk returned, for as long as the host keeps it;
 * - a call validates the arguments against the simplified schema (`DynamicStructuredTool`) and
 *   sends `tools/call` through the SDK `Client` only if they pass.
 * Timers and `Date` inside (the SDK 1.32.2 request timeouts, LangChain's run bookkeeping) are
 * read at call time and run on virtual time; LangSmith tracing is off (no tracing environment).
 *
 * Wrapped: nothing of the library. The SDK `Client` is the core API's own: `createClient()`
 * returns an SDK 1.32.2 `Client` whose `connect()` puts the exported wire tap (`WireWatch.tap`:
 * scan ids, page copies, leases) between it and the simulated link. A call its validation refuses
 * (`ToolInputParsingException`) never leaves: it is the host's ARGS_INVALID.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolInputParsingException, type DynamicStructuredTool } from '@langchain/core/tools';
import { loadMcpTools } from '@langchain/mcp-adapters';
import type { SessionSpec } from '../../sim/guard/adapter.ts';
import { keyNow, TappedClient, TappedPeer } from './tapped-peer.ts';

/** LangChain's MCP adapters as a peer. */
export class LangchainMcpPeer extends TappedPeer {
  /** The LangChain tools of each key, by name. */
  readonly #tools = new Map<string, Map<string, DynamicStructuredTool>>();

  override createClient(): Client {
    return new TappedClient(
      { name: 'catsim-peer-langchain-mcp', version: '1.0.0' },
      { capabilities: {} },
      (transport) => this.tap(transport),
    );
  }

  protected override open(session: SessionSpec): void {
    const serverName = `${session.endpointDigest}/${session.tenant}.${session.role}`;
    void session.connector.connect().then(
      async ({ client, identity }) => {
        const wire = (client as TappedClient).wire;
        const tools = await loadMcpTools(serverName, client).catch(() => undefined);
        if (tools === undefined || wire === undefined) return;
        // The key the connection presents when the load ends (after a rotation, F7, the new one).
        const key = keyNow(identity, session.tenant, session.role);
        const byName = new Map(tools.map((tool) => [tool.name, tool]));
        this.#tools.set(key, byName);
        // The tool node's call path: the LangChain tool of that name, or nothing, at the identity
        // the connection presents at the call.
        this.rememberSession(
          session.tenant,
          session.role,
          identity,
          wire,
          async (name, args) => byName.get(name)?.invoke(args),
          {
            notSent: (error, listed) =>
              error instanceof ToolInputParsingException ? 'ARGS_INVALID' : listed ? 'ADMIT' : 'UNDISCLOSED_TOOL',
          },
        );
        const named = (wire.latestWalk()?.pages ?? [])
          .flatMap((page) => page.tools)
          .filter((tool) => Boolean((tool as { name?: unknown }).name));
        this.publishWalk(
          key,
          wire,
          tools.map((tool) => ({ name: tool.name, servedName: tool.name })),
          named,
        );
      },
      () => undefined,
    );
  }
}
