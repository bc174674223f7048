/**
 * The library peers are imported on demand: `resolveCore` knows their names but has no factory
 * until `loadCore` has imported libraries.ts, so a plain `catsim run` never pays for them.
 */
import { expect, it } from 'vitest';
import { coreNames, loadCore, resolveCore, UnknownCoreError } from '../../cores/index.ts';
import { LIBRARY_PEERS } from '../../cores/peers/libraries.ts';

it('lists the library peers, loads them on demand, and still refuses unknown names', async () => {
  expect(coreNames().slice(-3)).toEqual(['peer:mcp-client-v2', 'peer:openai-agents', 'peer:langchain-mcp']);
  expect(() => resolveCore('peer:openai-agents')).toThrow(
    'peer:openai-agents is imported on demand: call loadCore("peer:openai-agents") first',
  );
  expect(await loadCore('peer:openai-agents')).toBe(LIBRARY_PEERS['openai-agents']);
  expect(resolveCore('peer:openai-agents')).toBe(LIBRARY_PEERS['openai-agents']);
  await expect(loadCore('peer:nope')).rejects.toThrow(UnknownCoreError);
});
