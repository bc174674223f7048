/**
 * The peers that are real MCP client libraries from the npm registry, run unchanged (SPEC
 * section 12a, docs/PEERS.md): `mcp-client-v2` (`@modelcontextprotocol/client` 2.4.0),
 * `openai-agents` (`@openai/agents-core` 0.20.0) and `langchain-mcp` (`@langchain/mcp-adapters`
 * 1.1.4). Imported on demand (see `loadLibraryPeer` in index.ts), never at start-up.
 */
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { LangchainMcpPeer } from './langchain-mcp.ts';
import { McpClientV2Peer } from './mcp-client-v2.ts';
import { OpenAiAgentsPeer } from './openai-agents.ts';

/** Every library peer, by name (the names of `LIBRARY_PEER_NAMES`). */
export const LIBRARY_PEERS: Readonly<Record<string, CoreFactory>> = {
  'mcp-client-v2': (env) => new McpClientV2Peer(env),
  'openai-agents': (env) => new OpenAiAgentsPeer(env),
  'langchain-mcp': (env) => new LangchainMcpPeer(env),
};
