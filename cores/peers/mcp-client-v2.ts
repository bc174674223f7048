/**
 * `peer:mcp-client-v2`: the MCP TypeScript SDK v2 client, `@modelcontextprotocol/client` 2.4.0
 * (with `@modelcontextprotocol/core` 2.4.0), run unchanged as a host would use it for tools:
 * `new Client(info, { listChanged: { tools: { onChanged } } })`, `connect(transport)`,
 * `listTools()` once after connecting, and then whatever `onChanged` delivers; calls go through
 * `client.callTool({ name, arguments })`.
 *
 * What the library does (read in dist/public-CvV4ZHkX.mjs, class Client):
 * - `listTools()` without a cursor walks every page (`_walkPages`), capped by `listMaxPages`
 *   (default 64): past the cap it throws `ListPaginationExceeded`; a page with the same
 *   `nextCursor` as the cursor it was asked for and the same items as the page before ends the
 *   walk, and the pages read until then are returned as the whole list;
 * - the aggregate is written to its response cache (`InMemoryResponseCacheStore`, per client)
 *   with `ttlMs` from the result or `defaultCacheTtlMs` (0): with 0 it is stored but never served,
 *   only read for `callTool`'s output-schema validation; a `list_changed` evicts it;
 * - on `notifications/tools/list_changed` it waits `debounceMs` (300, reset by each further
 *   notification) and then runs `listTools()` again with `cacheMode: 'refresh'`, handing the
 *   tools (or the error) to `onChanged`;
 * - version negotiation defaults to `'legacy'`: it offers 2025-11-25 in `initialize`, which the
 *   simulated SDK 1.32.2 servers accept, so the connection is of the 2025 era.
 * Its timers (`setTimeout` for request timeouts and the debounce) and `Date.now` are resolved at
 * call time, so they run on the world's virtual clock. Its one `Math.random` (a cache partition
 * for servers that give no `serverInfo`) is never reached: the SDK 1.x servers always give it.
 *
 * Wrapped: nothing of the library. The world hands the connection's plain `Transport` over
 * (`connector.connectTransport`, docs/CORE-API.md), and the v2 `Client` connects over the exported
 * wire tap (`WireWatch.tap`: scan ids, page copies, leases on the requests that carry calls).
 * The host adds nothing the library lacks: it never reconnects, and it shows the model the last
 * list the library gave it, published (and its calls sent) under the catalog key the connection
 * presents at that moment: after an identity rotation (F7) the same client serves the new key.
 */
import {
  type ClientOptions as V2ClientOptions,
  InMemoryResponseCacheStore,
  Client as V2Client,
  type Tool,
  type Transport as V2Transport,
} from '@modelcontextprotocol/client';
import type { WireWatch } from '../../api/wire-watch.ts';
import type { SessionSpec } from '../../sim/guard/adapter.ts';
import { keyNow, type ListedTool, TappedPeer } from './tapped-peer.ts';

/** The SDK v2 client as a peer (legacy mode, the library's default negotiation). */
export class McpClientV2Peer extends TappedPeer {
  /** The library's client name on the wire. */
  protected readonly clientName: string = 'catsim-peer-mcp-client-v2';

  /** Every connection of this host, in the order they were opened. */
  protected readonly wires: WireWatch[] = [];

  /**
   * A list the library handed over with no new `tools/list` answer on `wire` (served from its
   * response cache). Legacy mode: nothing is published (each client's cache is its own, and with
   * `defaultCacheTtlMs` 0 and no server `ttlMs` nothing is ever served from it).
   */
  protected showCached(_key: string, _wire: WireWatch, _listed: readonly ListedTool[]): void {}

  /** The options a host passes to `new Client` for one session, beside its `listChanged` handler. */
  protected clientOptions(_session: SessionSpec): V2ClientOptions {
    return {};
  }

  protected override open(session: SessionSpec): void {
    const target: { identity?: () => string; wire?: WireWatch } = {};
    // Published under the key the connection presents at the time the library hands the list over.
    const show = (tools: Tool[]): void => {
      if (target.identity === undefined || target.wire === undefined) return;
      const key = keyNow(target.identity, session.tenant, session.role);
      const listed = tools.map((tool) => ({ name: tool.name, servedName: tool.name }));
      if (this.hasNewWalk(key, target.wire)) this.publishWalk(key, target.wire, listed);
      else this.showCached(key, target.wire, listed);
    };
    const client = new V2Client(
      { name: this.clientName, version: '1.0.0' },
      {
        ...this.clientOptions(session),
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error === null && tools !== null) show(tools);
            },
          },
        },
      },
    );
    const opened = session.connector.connectTransport(async (transport) => {
      target.wire = this.tap(transport);
      this.wires.push(target.wire);
      await client.connect(target.wire.transport as unknown as V2Transport);
    });
    void opened.then(
      async ({ identity }) => {
        target.identity = identity;
        // Calls by name through the library, as the model asked, at the identity the connection presents.
        if (target.wire !== undefined)
          this.rememberSession(session.tenant, session.role, identity, target.wire, (name, args) =>
            client.callTool({ name, arguments: args }),
          );
        const listed = await client.listTools().catch(() => undefined);
        if (listed !== undefined) show(listed.tools);
      },
      () => undefined,
    );
  }
}

/**
 * `peer:mcp-client-v2-modern`: the same SDK v2 client in its modern mode, as a host that wants
 * 2026-07-28 where the server offers it configures it (read in dist/public-CvV4ZHkX.mjs, class
 * Client):
 * - `versionNegotiation: { mode: 'auto' }`: `connect` (`_connectNegotiated`, `negotiateEra`)
 *   sends a `server/discover` probe first, in place on this transport (it is not the SDK's stdio
 *   transport); a modern server's answer makes the connection modern (no `initialize`, the
 *   `_meta` envelope on every request), a refusal (-32601 from the SDK 1.32.2 servers) falls back
 *   to the legacy `initialize` on the same connection;
 * - on a modern connection whose server declares `tools.listChanged`, `connect` opens one
 *   `subscriptions/listen` stream itself (`listen`, the auto-opened subscription) and the
 *   `listChanged` handler runs on what the stream delivers;
 * - `listTools()` honours the result's `ttlMs`/`cacheScope`: a fresh entry is served from the
 *   response cache without a request; a `public` entry is stored in the public slot
 *   (`[serverIdentity, '']`, serverIdentity `name@version` from the discover result), a
 *   `private` one in `[serverIdentity, cachePartition]`.
 * The host shares one `InMemoryResponseCacheStore` between all of its clients (one per catalog
 * key) and gives each the partition of its audience (`cachePartition: tenant.role`), the
 * multi-tenant set-up the cache's documentation describes: a private entry stays in its audience's
 * partition, a public one is shared by every client of the same server.
 */
export class McpClientV2ModernPeer extends McpClientV2Peer {
  protected override readonly clientName: string = 'catsim-peer-mcp-client-v2-modern';
  /** The host's one response cache, shared by all of its clients (one per boot of the host). */
  readonly #store = new InMemoryResponseCacheStore();

  /**
   * A list served from the shared store that another connection filled (the public slot: the
   * other connection's walk was marked `public` by the server) is what the host shows the model
   * for `key`: published with the pages of that connection's latest walk whose tools are the
   * list's, the latest such connection first. A list from the connection's own cache (no other
   * connection's walk matches) publishes nothing, as in legacy mode.
   */
  protected override showCached(key: string, wire: WireWatch, listed: readonly ListedTool[]): void {
    const names = JSON.stringify(listed.map((tool) => tool.servedName));
    for (let index = this.wires.length - 1; index >= 0; index -= 1) {
      const source = this.wires[index]!;
      const walk = source === wire ? undefined : source.latestWalk();
      if (walk === undefined) continue;
      const served = walk.pages.flatMap((page) => page.tools.map((tool) => (tool as { name?: unknown }).name));
      if (JSON.stringify(served) !== names) continue;
      this.publishSharedWalk(key, source, listed);
      return;
    }
  }

  protected override clientOptions(session: SessionSpec): V2ClientOptions {
    return {
      versionNegotiation: { mode: 'auto' },
      responseCacheStore: this.#store,
      cachePartition: `${session.tenant}.${session.role}`,
    };
  }
}
