/**
 * The peer clients (SPEC section 12): `sdk-autorefresh`, the SDK `Client`'s own `listChanged`
 * auto-refresh used as the catalog, unchanged; `list-once`, a host that pages through
 * `tools/list` once per session and calls by name.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LenientListToolsResultSchema } from '../../src/discovery/page-source.ts';
import type { CoreFactory, SessionSpec } from '../cores/adapter.ts';
import { LangchainMcpPeer } from './langchain-mcp.ts';
import { McpClientV2Peer } from './mcp-client-v2.ts';
import { OpenAiAgentsPeer } from './openai-agents.ts';
import { PeerHost, type PeerPage } from './peer-host.ts';

/** Most pages `list-once` reads before giving up on a walk (it has no loop detection of its own). */
const LIST_ONCE_PAGES_MAX = 64;

/** The SDK Client's own list_changed auto-refresh (first page only, resetting debounce), unchanged. */
class SdkAutoRefreshPeer extends PeerHost {
  #pendingKey: ((key: string, client: Client) => void) | undefined;

  createClient(): Client {
    let target: { key?: string; client?: Client } = {};
    const client = new Client({ name: 'peer-sdk-autorefresh', version: '1.32.2' }, {
      capabilities: {},
      listChanged: { tools: { onChanged: (error, items) => { if (error === null && items !== null && target.key !== undefined) this.publish(target.key, this.nextScanId(), [{ cursorIn: null, cursorOut: null, tools: items }]); } } },
    });
    this.#pendingKey = (key) => { target = { key, client }; };
    return client;
  }

  attach(session: SessionSpec): void {
    void session.connector.connect().then(async ({ client, identity }) => {
      const key = `${identity()}|${session.tenant}.${session.role}`;
      this.#pendingKey?.(key, client);
      this.remember(key, client);
      const scanId = this.nextScanId();
      const first = await client.listTools({ _meta: { 'dev.catsim/scanId': scanId } }).catch(() => undefined);
      if (first !== undefined) this.publish(key, scanId, [{ cursorIn: null, cursorOut: first.nextCursor ?? null, tools: first.tools }]);
    }, () => undefined);
  }
}

/** Pages through tools/list once per session and calls by name. */
class ListOncePeer extends PeerHost {
  createClient(): Client {
    return new Client({ name: 'peer-list-once', version: '1.0.0' }, { capabilities: {} });
  }

  attach(session: SessionSpec): void {
    void session.connector.connect().then(async ({ client, identity }) => {
      const key = `${identity()}|${session.tenant}.${session.role}`;
      this.remember(key, client);
      const scanId = this.nextScanId();
      const pages: PeerPage[] = [];
      let cursor: string | undefined;
      do {
        const params: Record<string, unknown> = { _meta: { 'dev.catsim/scanId': scanId } };
        if (cursor !== undefined) params.cursor = cursor;
        const page = await client.request({ method: 'tools/list', params }, LenientListToolsResultSchema).catch(() => undefined);
        if (page === undefined) return;
        pages.push({ cursorIn: cursor ?? null, cursorOut: page.nextCursor ?? null, tools: page.tools });
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages.length < LIST_ONCE_PAGES_MAX);
      this.publish(key, scanId, pages);
    }, () => undefined);
  }
}

/** Every peer, by name. */
export const PEERS: Readonly<Record<string, CoreFactory>> = {
  'sdk-autorefresh': (env) => new SdkAutoRefreshPeer(env),
  'list-once': (env) => new ListOncePeer(env),
  'mcp-client-v2': (env) => new McpClientV2Peer(env),
  'openai-agents': (env) => new OpenAiAgentsPeer(env),
  'langchain-mcp': (env) => new LangchainMcpPeer(env),
};
