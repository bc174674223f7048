/**
 * The library peers are imported on demand: `resolveCore` knows their names (from the one peer
 * table, cores/peers/index.ts) but has no factory until `loadCore` has imported the peer's module,
 * so a plain `catsim run` never pays for them.
 */
import { expect, it } from 'vitest';
import { coreNames, loadCore, resolveCore, UnknownCoreError } from '../../cores/index.ts';
import { loadLibraryPeer, PEER_TABLE } from '../../cores/peers/index.ts';

it('lists the library peers, loads them on demand, and still refuses unknown names', async () => {
  expect(coreNames().slice(-5)).toEqual([
    'peer:mcp-client-v2',
    'peer:mcp-client-v2-modern',
    'peer:openai-agents',
    'peer:langchain-mcp',
    'peer:ai-sdk-mcp',
  ]);
  expect(() => resolveCore('peer:openai-agents')).toThrow(
    'peer:openai-agents is imported on demand: call loadCore("peer:openai-agents") first',
  );
  const factory = await loadCore('peer:openai-agents');
  expect(factory).toBe(await loadLibraryPeer('openai-agents'));
  expect(resolveCore('peer:openai-agents')).toBe(factory);
  // Every peer name comes from the one table.
  expect(coreNames().filter((name) => name.startsWith('peer:'))).toEqual(PEER_TABLE.map((peer) => `peer:${peer.name}`));
  await expect(loadCore('peer:nope')).rejects.toThrow(UnknownCoreError);
});
