/**
 * Sending one admitted `tools/call` through the key's SDK Client and classifying its end
 * (SPEC section 7: receipts and outcomes).
 *
 * The call goes through `client.request` with a lenient result schema, never `client.callTool`:
 * the SDK's `callTool` validates structured output against the tool's output schema and throws on
 * an adversarial server. The timeout runs on the Scheduler port: when `callTimeoutMs` passes
 * without an answer the request is aborted (the SDK sends `notifications/cancelled`) and the
 * outcome is `unknown`, because the server may still have executed the call. A server's error
 * reply is told from the SDK's own failures by its origin, never by its code (src/mcp/server-errors.ts:
 * the SDK's request timeout is -32001 and its closed connection -32000, and a server may answer
 * with either code). Dispatch never rejects, whatever the server does.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONNECTION_CLOSED, REQUEST_TIMEOUT } from '../discovery/states.ts';
import { ServerErrorResponse, serverErrorWatchOf } from '../mcp/server-errors.ts';
import type { Scheduler } from '../ports.ts';
import { BAD_LEASE_ERROR_CODE, STALE_PIN_ERROR_CODE, type CallOutcome } from './codes.ts';

/**
 * The lenient `tools/call` result schema: any JSON object. `isError` is read by hand (only the
 * boolean `true` marks an error), content and structured output are passed through unchecked.
 */
export const LenientCallToolResultSchema = z.looseObject({});

/** The `params` of one `tools/call` as the core sends it. */
export interface CallParams {
  name: string;
  arguments: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** How the call ended, and what came back. */
export interface DispatchResult {
  outcome: CallOutcome;
  /** The result object, for `ok` and for an `isError` result. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error code, for an error reply (refusals included). */
  errorCode?: number;
  /** `error.data.reason` of a reply, when it is a string. */
  reason?: string;
}

/** Timing of a dispatch. */
export interface DispatchTiming {
  scheduler: Scheduler;
  /** How long to wait for the answer, ms (> 0). */
  callTimeoutMs: number;
}

/**
 * Sends `params` as one `tools/call` on `client` now (the message leaves before this returns its
 * promise) and resolves with its classified end. Never rejects.
 */
export async function dispatchCall(
  client: Client,
  params: CallParams,
  timing: DispatchTiming,
): Promise<DispatchResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = timing.scheduler.after(timing.callTimeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  const request = () =>
    client.request({ method: 'tools/call', params }, LenientCallToolResultSchema, {
      signal: controller.signal,
      timeout: timing.callTimeoutMs,
    });
  try {
    const transport = client.transport;
    const result = await (transport === undefined ? request() : serverErrorWatchOf(transport).track(request));
    return { outcome: result.isError === true ? 'error' : 'ok', result };
  } catch (error) {
    return timedOut ? { outcome: 'unknown' } : classifyCallFailure(error);
  } finally {
    timing.scheduler.cancel(timer);
  }
}

/**
 * Maps a rejected `tools/call` to its outcome by the failure's origin, then its JSON-RPC code,
 * never by message text. The server's error reply ({@link ServerErrorResponse}):
 * {@link STALE_PIN_ERROR_CODE} and {@link BAD_LEASE_ERROR_CODE} → `refused`, any other code
 * (-32001 and -32000 included: the server answered, so it did not time out) → `error`, with the
 * code and `data.reason`. The SDK's own failures: its request timeout and a closed connection →
 * `unknown` (the server may have executed the call); a reply that is not a result object →
 * `error`; anything else (the transport failed while sending) → `unknown`.
 */
export function classifyCallFailure(error: unknown): DispatchResult {
  if (error instanceof z.ZodError) return { outcome: 'error' };
  if (error instanceof ServerErrorResponse) return serverErrorOutcome(error.code, error.data);
  if (!(error instanceof McpError)) return { outcome: 'unknown' };
  if (error.code === REQUEST_TIMEOUT || error.code === CONNECTION_CLOSED)
    return { outcome: 'unknown', errorCode: error.code };
  // An McpError that did not come through a watched transport: read as the server's reply.
  return serverErrorOutcome(error.code, error.data);
}

/** The outcome of a server's error reply with `code` and `data` (its `reason` when a string). */
function serverErrorOutcome(code: number, data: unknown): DispatchResult {
  const reasonOf = (data as { reason?: unknown } | undefined)?.reason;
  const reason = typeof reasonOf === 'string' ? { reason: reasonOf } : {};
  if (code === STALE_PIN_ERROR_CODE || code === BAD_LEASE_ERROR_CODE)
    return { outcome: 'refused', errorCode: code, ...reason };
  return { outcome: 'error', errorCode: code, ...reason };
}
