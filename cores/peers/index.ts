/**
 * The one peer table (SPEC section 12, docs/PEERS.md): every peer `--core peer:NAME` names, in the
 * order `catsim prove --peers` lists them, home-made or a real client library. Everything else
 * that knows peers derives from it: the `--core` names (cores/index.ts), the library versions the
 * side-by-side table names and test/peers/explanations.test.ts checks against the installed
 * packages, and the loaders. Adding a peer is one row here, its adapter file and its explanations
 * (cores/peers/explanations.ts).
 *
 * A library peer's module is imported only when the peer is asked for: importing the libraries
 * costs about 3 s and 60 MB per process or worker (docs/PEERS.md), which a `catsim run` of another
 * core does not pay.
 */
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { ListOncePeer, SdkAutoRefreshPeer } from './home-made.ts';

/** The real client library a peer runs unchanged: its npm name and the version pinned in package.json. */
export interface PeerLibrary {
  readonly packageName: string;
  readonly version: string;
}

/** One row of the peer table: a home-made peer (built in) or a library peer (imported on demand). */
export type PeerEntry =
  | { readonly name: string; readonly factory: CoreFactory }
  | { readonly name: string; readonly library: PeerLibrary; readonly load: () => Promise<CoreFactory> };

/** Every peer, in table order. */
export const PEER_TABLE: readonly PeerEntry[] = [
  { name: 'sdk-autorefresh', factory: (env) => new SdkAutoRefreshPeer(env) },
  { name: 'list-once', factory: (env) => new ListOncePeer(env) },
  {
    name: 'mcp-client-v2',
    library: { packageName: '@modelcontextprotocol/client', version: '2.4.0' },
    load: async () => {
      const { McpClientV2Peer } = await import('./mcp-client-v2.ts');
      return (env) => new McpClientV2Peer(env);
    },
  },
  {
    name: 'mcp-client-v2-modern',
    library: { packageName: '@modelcontextprotocol/client', version: '2.4.0' },
    load: async () => {
      const { McpClientV2ModernPeer } = await import('./mcp-client-v2.ts');
      return (env) => new McpClientV2ModernPeer(env);
    },
  },
  {
    name: 'openai-agents',
    library: { packageName: '@openai/agents-core', version: '0.20.0' },
    load: async () => {
      const { OpenAiAgentsPeer } = await import('./openai-agents.ts');
      return (env) => new OpenAiAgentsPeer(env);
    },
  },
  {
    name: 'langchain-mcp',
    library: { packageName: '@langchain/mcp-adapters', version: '1.1.4' },
    load: async () => {
      const { LangchainMcpPeer } = await import('./langchain-mcp.ts');
      return (env) => new LangchainMcpPeer(env);
    },
  },
  {
    name: 'ai-sdk-mcp',
    library: { packageName: '@ai-sdk/mcp', version: '2.0.99' },
    load: async () => {
      const { AiSdkMcpPeer } = await import('./ai-sdk-mcp.ts');
      return (env) => new AiSdkMcpPeer(env);
    },
  },
];

/** The home-made peers, by name (derived from {@link PEER_TABLE}). */
export const PEERS: Readonly<Record<string, CoreFactory>> = Object.fromEntries(
  PEER_TABLE.flatMap((entry) => ('factory' in entry ? [[entry.name, entry.factory] as const] : [])),
);

/** The library peers' names, without loading them (derived from {@link PEER_TABLE}). */
export const LIBRARY_PEER_NAMES: readonly string[] = PEER_TABLE.flatMap((entry) =>
  'library' in entry ? [entry.name] : [],
);

/** The library each library peer runs, by core name (`peer:NAME`; derived from {@link PEER_TABLE}). */
export const PEER_LIBRARIES: Readonly<Record<string, PeerLibrary>> = Object.fromEntries(
  PEER_TABLE.flatMap((entry) => ('library' in entry ? [[`peer:${entry.name}`, entry.library] as const] : [])),
);

/** Library peers loaded on this thread, by name: one factory per peer, so a name always yields the same one. */
const LOADED = new Map<string, Promise<CoreFactory>>();

/** Imports a library peer's module and returns its factory; undefined for a name that is no library peer. */
export function loadLibraryPeer(name: string): Promise<CoreFactory> | undefined {
  const entry = PEER_TABLE.find((candidate) => candidate.name === name);
  if (entry === undefined || !('load' in entry)) return undefined;
  let loaded = LOADED.get(name);
  if (loaded === undefined) {
    loaded = entry.load();
    LOADED.set(name, loaded);
  }
  return loaded;
}
