/**
 * The home-made peers (SPEC section 12): `sdk-autorefresh`, the SDK `Client`'s own `listChanged`
 * auto-refresh used as the catalog, unchanged; `list-once`, a host that pages through
 * `tools/list` once per session and calls by name. Registered in index.ts, the one peer table.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LenientListToolsResultSchema } from '../../src/discovery/page-source.ts';
import { WireWatch } from '../../api/wire-watch.ts';
import type { SessionSpec } from '../../sim/guard/adapter.ts';
import { keyNow, PeerHost, sdkSend } from './peer-host.ts';
import { TappedClient, TappedPeer } from './tapped-peer.ts';

/** Most pages `list-once` reads before giving up on a walk (it has no loop detection of its own). */
const LIST_ONCE_PAGES_MAX = 64;

/**
 * The SDK 1.32.2 Client's own list_changed auto-refresh (first page only, resetting debounce),
 * unchanged. Its refresh calls `listTools()` itself, so its transport is tapped (WireWatch.tap, api/wire-watch.ts) to
 * give each of its requests a scan id and each list the page it came from.
 */
export class SdkAutoRefreshPeer extends TappedPeer {
  /** The key each client serves now, once its connection has opened (its `onChanged` needs it). */
  readonly #keys = new Map<Client, { key?: () => string }>();

  override createClient(): Client {
    const target: { key?: () => string } = {};
    const client = new TappedClient(
      { name: 'peer-sdk-autorefresh', version: '1.32.2' },
      {
        capabilities: {},
        listChanged: {
          tools: {
            onChanged: (error, items) => {
              if (error === null && items !== null && target.key !== undefined) this.#show(target.key(), client, items);
            },
          },
        },
      },
      (transport) => this.tap(transport),
    );
    this.#keys.set(client, target);
    return client;
  }

  protected override open(session: SessionSpec): void {
    void session.connector.connect().then(
      async ({ client, identity }) => {
        // The key the connection presents now: after a rotation (F7) the same client serves the new one.
        const key = (): string => keyNow(identity, session.tenant, session.role);
        const target = this.#keys.get(client);
        if (target !== undefined) target.key = key;
        const wire = (client as TappedClient).wire;
        if (wire !== undefined) this.rememberSession(session.tenant, session.role, identity, wire, sdkSend(client));
        const first = await client.listTools().catch(() => undefined);
        if (first !== undefined) this.#show(key(), client as TappedClient, first.tools);
      },
      () => undefined,
    );
  }

  /** Publishes the first page the SDK just read, as the list it now uses. */
  #show(key: string, client: TappedClient, tools: readonly { name: string }[]): void {
    if (client.wire !== undefined)
      this.publishWalk(
        key,
        client.wire,
        tools.map((tool) => ({ name: tool.name, servedName: tool.name })),
      );
  }
}

/** Pages through tools/list once per session and calls by name. */
export class ListOncePeer extends PeerHost {
  override createClient(): Client {
    return new Client({ name: 'peer-list-once', version: '1.0.0' }, { capabilities: {} });
  }

  protected override open(session: SessionSpec): void {
    void session.connector.connect().then(
      async ({ client, identity }) => {
        const wire = WireWatch.watch(client, { nextScanId: () => this.nextScanId() });
        this.rememberSession(session.tenant, session.role, identity, wire, sdkSend(client));
        let cursor: string | undefined;
        let pages = 0;
        do {
          const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
          const page = await client
            .request({ method: 'tools/list', params }, LenientListToolsResultSchema)
            .catch(() => undefined);
          if (page === undefined) return;
          pages += 1;
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages < LIST_ONCE_PAGES_MAX);
        const walk = wire.latestWalk();
        // Under the key the connection presents when the walk ends.
        if (walk !== undefined) this.publish(keyNow(identity, session.tenant, session.role), walk.scanId, walk.pages);
      },
      () => undefined,
    );
  }
}
