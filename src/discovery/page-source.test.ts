import { describe, expect, it } from 'vitest';
import { scriptedPair, tool, type Script } from '../../test/support/scripted-server.ts';
import { SdkPageSource, type PageFailure, type PageReply } from './page-source.ts';
import { DEFAULT_TRUST } from '../validation/trust.ts';
import { RevisionWatch } from './revision-watch.ts';
import { runScan } from './scan.ts';

/** One page request against a scripted server; `timeoutMs` is the SDK's own request timeout. */
async function onePage(script: Script, timeoutMs = 5_000, messageTooLarge = false): Promise<PageReply | PageFailure> {
  const pair = await scriptedPair(script);
  try {
    return await new SdkPageSource(pair.client, () => 'fp:test', { messageTooLarge: () => messageTooLarge }).listPage(
      undefined,
      'scan-0',
      timeoutMs,
    );
  } finally {
    await pair.close();
  }
}

// Issue 14 item 4: the SDK raises its own request timeout as -32001, and a server may answer
// with -32001 too; only the origin (an error response on the wire, or none) tells them apart.
describe('a page failure is classified by its origin, not by its code', () => {
  it('a server answering -32001 at once is its error (REQUEST_FAILED material), with its code and message', async () => {
    expect(await onePage(() => ({ error: -32001, message: 'server busy' }))).toEqual({
      ok: false,
      kind: 'error',
      serverError: { code: -32001, message: 'MCP error -32001: server busy' },
    });
  });

  it('a server answering -32000 is its error too, not a closed connection', async () => {
    expect(await onePage(() => ({ error: -32000, message: 'closed for maintenance' }))).toEqual({
      ok: false,
      kind: 'error',
      serverError: { code: -32000, message: 'MCP error -32000: closed for maintenance' },
    });
  });

  it('a server answering -32602 is an invalid cursor, with the server error kept', async () => {
    expect(await onePage(() => ({ error: -32602, message: 'Invalid cursor' }))).toEqual({
      ok: false,
      kind: 'cursor_invalid',
      serverError: { code: -32602, message: 'MCP error -32602: Invalid cursor' },
    });
  });

  it("a server that never answers runs into the SDK's own timeout: timeout, and no server error", async () => {
    expect(await onePage(() => ({ hang: true }), 50)).toEqual({ ok: false, kind: 'timeout' });
  });

  it('a closed connection is disconnected, or too_large when the transport closed it on an over-long message', async () => {
    const closedPage = async (messageTooLarge: boolean): Promise<PageReply | PageFailure> => {
      const pair = await scriptedPair(() => ({ hang: true }));
      const source = new SdkPageSource(pair.client, () => 'fp:test', { messageTooLarge: () => messageTooLarge });
      const pending = source.listPage(undefined, 'scan-0', 5_000);
      await pair.server.close();
      return pending;
    };
    expect(await closedPage(false)).toEqual({ ok: false, kind: 'disconnected' });
    expect(await closedPage(true)).toEqual({ ok: false, kind: 'too_large' });
  });

  it('two requests in flight at once keep their own origins: one server error, one SDK timeout', async () => {
    const pair = await scriptedPair((cursor) =>
      cursor === 'busy' ? { error: -32001, message: 'server busy' } : { hang: true },
    );
    const source = new SdkPageSource(pair.client, () => 'fp:test');
    const [hung, busy] = await Promise.all([
      source.listPage('hang', 'scan-0', 200),
      source.listPage('busy', 'scan-1', 5_000),
    ]);
    await pair.close();
    expect(hung).toEqual({ ok: false, kind: 'timeout' });
    expect(busy).toEqual({
      ok: false,
      kind: 'error',
      serverError: { code: -32001, message: 'MCP error -32001: server busy' },
    });
  });

  it('a good page after a server error is read as a page', async () => {
    const reply = await onePage(() => ({ tools: [tool('a')] }));
    expect(reply.ok && reply.tools).toEqual([tool('a')]);
  });
});

describe('the scan end of a failed page request', () => {
  const limits = { pageCountMax: 8, byteCountMax: 1_000_000, scanTimeoutMs: 10_000 };
  const scanOf = async (source: SdkPageSource) =>
    runScan(source, {
      scanId: 'scan-0',
      key: 'fp:test|t.r',
      expectedGeneration: 0,
      policyEpoch: () => 1,
      clock: { now: () => 0 },
      sink: { emit: () => undefined },
      limits,
      catalogLimits: DEFAULT_TRUST,
      watch: new RevisionWatch(),
    });

  it("a server error -32001 ends INCOMPLETE REQUEST_FAILED carrying the server's code and message, not TIMEOUT", async () => {
    const pair = await scriptedPair(() => ({ error: -32001, message: 'server busy' }));
    const outcome = await scanOf(new SdkPageSource(pair.client, () => 'fp:test'));
    await pair.close();
    expect([outcome.state, outcome.reason, outcome.serverError]).toEqual([
      'INCOMPLETE',
      'REQUEST_FAILED',
      { code: -32001, message: 'MCP error -32001: server busy' },
    ]);
  });

  it('a page the transport could not hold ends QUARANTINED BYTE_LIMIT (not a retryable DISCONNECTED)', async () => {
    const pair = await scriptedPair(() => ({ hang: true }));
    const pending = scanOf(new SdkPageSource(pair.client, () => 'fp:test', { messageTooLarge: () => true }));
    await pair.server.close();
    const outcome = await pending;
    expect([outcome.state, outcome.reason, outcome.serverError]).toEqual(['QUARANTINED', 'BYTE_LIMIT', undefined]);
  });
});
