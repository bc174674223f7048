/**
 * The peer clients (SPEC section 12): `sdk-autorefresh`, the SDK `Client`'s own `listChanged`
 * auto-refresh used as the catalog, unchanged; `list-once`, a host that pages through
 * `tools/list` once per session and calls by name; and the real client libraries of
 * libraries.ts (`mcp-client-v2`, `openai-agents`, `langchain-mcp`), loaded only when one is
 * asked for: importing them costs about 3 s and 60 MB per process or worker (docs/PEERS.md).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LenientListToolsResultSchema, readRevision } from '../../src/discovery/page-source.ts';
import type { CoreFactory, SessionSpec } from '../../sim/guard/adapter.ts';
import { PeerHost, type PeerPage } from './peer-host.ts';
import { TappedClient, TappedPeer } from './tapped-peer.ts';

/** Most pages `list-once` reads before giving up on a walk (it has no loop detection of its own). */
const LIST_ONCE_PAGES_MAX = 64;

/**
 * The SDK 1.32.2 Client's own list_changed auto-refresh (first page only, resetting debounce),
 * unchanged. Its refresh calls `listTools()` itself, so its transport is tapped (wire-tap.ts) to
 * give each of its requests a scan id and each list the page it came from.
 */
class SdkAutoRefreshPeer extends TappedPeer {
  /** The key each client serves, once its connection has opened (its `onChanged` needs it). */
  readonly #keys = new Map<Client, { key?: string }>();

  createClient(): Client {
    const target: { key?: string } = {};
    const client = new TappedClient(
      { name: 'peer-sdk-autorefresh', version: '1.32.2' },
      {
        capabilities: {},
        listChanged: {
          tools: {
            onChanged: (error, items) => {
              if (error === null && items !== null && target.key !== undefined) this.#show(target.key, client, items);
            },
          },
        },
      },
      (transport) => this.tap(transport),
    );
    this.#keys.set(client, target);
    return client;
  }

  attach(session: SessionSpec): void {
    void session.connector.connect().then(
      async ({ client, identity }) => {
        const key = `${identity()}|${session.tenant}.${session.role}`;
        const target = this.#keys.get(client);
        if (target !== undefined) target.key = key;
        this.remember(key, client);
        const first = await client.listTools().catch(() => undefined);
        if (first !== undefined) this.#show(key, client as TappedClient, first.tools);
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
class ListOncePeer extends PeerHost {
  createClient(): Client {
    return new Client({ name: 'peer-list-once', version: '1.0.0' }, { capabilities: {} });
  }

  attach(session: SessionSpec): void {
    void session.connector.connect().then(
      async ({ client, identity }) => {
        const key = `${identity()}|${session.tenant}.${session.role}`;
        this.remember(key, client);
        const scanId = this.nextScanId();
        const pages: PeerPage[] = [];
        let cursor: string | undefined;
        do {
          const params: Record<string, unknown> = { _meta: { 'dev.catsim/scanId': scanId } };
          if (cursor !== undefined) params.cursor = cursor;
          const page = await client
            .request({ method: 'tools/list', params }, LenientListToolsResultSchema)
            .catch(() => undefined);
          if (page === undefined) return;
          pages.push({
            cursorIn: cursor ?? null,
            cursorOut: page.nextCursor ?? null,
            revision: revisionOf(page._meta),
            tools: page.tools,
          });
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages.length < LIST_ONCE_PAGES_MAX);
        this.publish(key, scanId, pages);
      },
      () => undefined,
    );
  }
}

/** The revision a page reported, for its digest (a peer does not act on it); malformed as none. */
function revisionOf(meta: Record<string, unknown> | undefined): number | null {
  const revision = readRevision(meta);
  return revision === 'invalid' ? null : revision;
}

/** The home-made peers, by name. */
export const PEERS: Readonly<Record<string, CoreFactory>> = {
  'sdk-autorefresh': (env) => new SdkAutoRefreshPeer(env),
  'list-once': (env) => new ListOncePeer(env),
};

/** The peers that are real client libraries (libraries.ts), by name, without loading them. */
export const LIBRARY_PEER_NAMES: readonly string[] = ['mcp-client-v2', 'openai-agents', 'langchain-mcp'];

/** Loads libraries.ts and returns the factory of one library peer, or undefined for another name. */
export async function loadLibraryPeer(name: string): Promise<CoreFactory | undefined> {
  if (!LIBRARY_PEER_NAMES.includes(name)) return undefined;
  const { LIBRARY_PEERS } = await import('./libraries.ts');
  return LIBRARY_PEERS[name];
}
