/**
 * F13 non-object root, on each library peer: one tool whose `inputSchema` is not an object
 * schema. The result schemas the libraries validate `tools/list` with (the SDK v2 `Client` for
 * mcp-client-v2 and openai-agents, the SDK 1.32.2 `Client` for langchain-mcp) require
 * `inputSchema.type === "object"`, so the whole page is rejected and the host gets no tool at all:
 * one bad descriptor takes every other tool of the server with it. Latency 5 ms, page size 2,
 * three tools, the bad one on page 2.
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import { handPlan, handServer, publishes, runHand, served, step, tool } from '../support/hand-plan.ts';

const arrayRoot = { ...tool('echo'), inputSchema: { type: 'array', items: { type: 'string' } } };

describe.each([
  ['mcp-client-v2', 10],
  ['openai-agents', 20],
  ['langchain-mcp', 10],
])('peer:%s', (name, openedAt) => {
  it('shows no tool at all when one tool of the server has a non-object inputSchema', async () => {
    const r = await runHand(
      handPlan({
        servers: [
          handServer({ history: [step(0, 1, { 'acme.dev': [tool('read_file'), tool('write_file'), arrayRoot] })] }),
        ],
      }),
      (await loadLibraryPeer(name))!,
      `peer:${name}`,
    );
    // Page 1 is valid and read; page 2 fails validation, so the walk's promise rejects.
    expect(served(r).slice(0, 2)).toEqual([
      [openedAt + 5, 'peer-0', null, '0:2', 1],
      [openedAt + 15, 'peer-0', '0:2', null, 1],
    ]);
    expect(publishes(r)).toEqual([]);
    expect(r.verdict.violations.map((v) => `${v.invariant} ${v.code}`)).toEqual(['I12 NOT_PUBLISHED']);
  });
});
