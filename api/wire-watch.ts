/**
 * Watches the wire of one connected SDK `Client`, for an adapter that reports what a host does as
 * `catsim.core.v1` observations without changing the host (docs/CORE-API.md, "Adapting a
 * Client-based host"). The host keeps calling `client.listTools()`, `client.request(...)` or
 * `client.callTool(...)` as it always does; the watch sits on the Client's transport and:
 *
 * - tags every outgoing `tools/list` request with `_meta["dev.catsim/scanId"]`, so that the world
 *   can attribute the pages it serves (I2 judges a published page against the pages served to its
 *   scan): a request without a cursor starts a new walk; one with a cursor continues the walk
 *   whose page handed out that cursor (so two walks in flight, say a first walk and a refresh
 *   after `list_changed`, stay apart), and a cursor no page handed out starts a walk of its own;
 * - records each page the server returns exactly as sent (tools verbatim, the revision the page
 *   carried in `_meta["dev.catsim/catalogRevision"]` or null), before the SDK parses it;
 * - adds the `_meta` an adapter queued for the next `tools/call` of a tool (the lease the world's
 *   servers require), and reports when that call left and how it ended (for the receipt).
 *
 * Workflow: `WireWatch.watch(connection.client, { scanIdPrefix })` right after the connector
 * yields the connection, before the host sends anything; then `latestWalk()` after the host
 * listed, and `stampNextCall(...)` before asking the host to call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The `_meta` key that attributes a `tools/list` request to a scan (SPEC section 2). */
export const SCAN_ID_META = 'dev.catsim/scanId';
/** The `_meta` key of a page's source revision (SPEC section 2). */
export const REVISION_META = 'dev.catsim/catalogRevision';

/** One `tools/list` page as the server sent it. */
export interface WirePage {
  cursorIn: string | null;
  /** The page's `nextCursor`, or null on the last page. */
  cursorOut: string | null;
  /** The revision the page carried, or null when it carried none (a plain MCP server). */
  revision: number | null;
  /** The tools exactly as sent. */
  tools: unknown[];
}

/** The pages of one walk, in the order they arrived. */
export interface WireWalk {
  scanId: string;
  pages: WirePage[];
  /** Whether the last page arrived (cursorOut null). */
  complete: boolean;
}

/** What to do with the next `tools/call` of one tool. */
export interface CallStamp {
  /** Merged into the call's `params._meta` (e.g. `{ "dev.catsim/lease": lease }`). */
  meta: Record<string, unknown>;
  /** Called synchronously as the call leaves (write the receipt here). */
  onSent?: () => void;
  /** Called when the answer arrives: `ok`, or `error` for a JSON-RPC error or a tool error. */
  onAnswer?: (outcome: 'ok' | 'error') => void;
}

type Pending = { kind: 'list'; walk: WireWalk; cursorIn: string | null } | { kind: 'call'; stamp: CallStamp };

/** The wire of one Client. */
export class WireWatch {
  readonly #walks: WireWalk[] = [];
  readonly #pending = new Map<string | number, Pending>();
  readonly #stamps = new Map<string, CallStamp[]>();
  /** The walk whose latest page handed out each cursor. */
  readonly #walkOfCursor = new Map<string, WireWalk>();
  #scans = 0;

  private constructor(private readonly scanIdPrefix: string) {}

  /**
   * Starts watching a connected Client (its `transport` must be set).
   * @param options.scanIdPrefix scan ids are `${scanIdPrefix}${n}`; make it unique per connection
   *   within a round, since the world groups pages by scan id.
   * @throws Error when the Client is not connected.
   */
  static watch(client: Client, options: { scanIdPrefix: string }): WireWatch {
    const transport = client.transport;
    if (transport === undefined) throw new Error('WireWatch.watch needs a connected Client');
    const watch = new WireWatch(options.scanIdPrefix);
    watch.#hook(transport);
    return watch;
  }

  /** The most recent walk (complete or not), or undefined before the first `tools/list`. */
  latestWalk(): WireWalk | undefined {
    return this.#walks.at(-1);
  }

  /** Every walk so far, oldest first. */
  walks(): readonly WireWalk[] {
    return this.#walks;
  }

  /** Queues `stamp` for the next `tools/call` of `toolName` (stamps of one tool go in order). */
  stampNextCall(toolName: string, stamp: CallStamp): void {
    const queue = this.#stamps.get(toolName);
    if (queue === undefined) this.#stamps.set(toolName, [stamp]);
    else queue.push(stamp);
  }

  /** Drops `stamp` if no call took it (the host decided not to call); true when it was still queued. */
  cancelStamp(toolName: string, stamp: CallStamp): boolean {
    const queue = this.#stamps.get(toolName) ?? [];
    const index = queue.indexOf(stamp);
    if (index >= 0) queue.splice(index, 1);
    return index >= 0;
  }

  #hook(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(this.#outgoing(message), options);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.#incoming(message);
      deliver?.call(transport, message, extra);
    };
  }

  /** Tags a list request, stamps a call; returns the message to send (a copy when changed). */
  #outgoing(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || !('id' in message)) return message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    if (message.method === 'tools/list') {
      const cursorIn = typeof params.cursor === 'string' ? params.cursor : null;
      const walk = this.#walkFor(cursorIn);
      this.#pending.set(message.id, { kind: 'list', walk, cursorIn });
      return { ...message, params: { ...params, _meta: { ...meta, [SCAN_ID_META]: walk.scanId } } };
    }
    const stamp = message.method === 'tools/call' ? this.#stamps.get(String(params.name))?.shift() : undefined;
    if (stamp === undefined) return message;
    this.#pending.set(message.id, { kind: 'call', stamp });
    stamp.onSent?.();
    return { ...message, params: { ...params, _meta: { ...meta, ...stamp.meta } } };
  }

  /** A cursorless request starts a walk; a cursor continues the walk that handed it out (or starts one). */
  #walkFor(cursorIn: string | null): WireWalk {
    const handedOut = cursorIn === null ? undefined : this.#walkOfCursor.get(cursorIn);
    if (handedOut !== undefined) return handedOut;
    const walk: WireWalk = { scanId: `${this.scanIdPrefix}${this.#scans++}`, pages: [], complete: false };
    this.#walks.push(walk);
    return walk;
  }

  #incoming(message: JSONRPCMessage): void {
    if (!('id' in message) || 'method' in message || message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
    if (pending.kind === 'call') {
      pending.stamp.onAnswer?.(result === undefined || result.isError === true ? 'error' : 'ok');
    } else if (result !== undefined && Array.isArray(result.tools)) {
      const page = pageOf(pending.cursorIn, result);
      pending.walk.pages.push(page);
      pending.walk.complete = page.cursorOut === null;
      if (page.cursorOut !== null) this.#walkOfCursor.set(page.cursorOut, pending.walk);
    }
  }
}

function pageOf(cursorIn: string | null, result: Record<string, unknown>): WirePage {
  const revision = (result._meta as Record<string, unknown> | undefined)?.[REVISION_META];
  return {
    cursorIn,
    cursorOut: typeof result.nextCursor === 'string' ? result.nextCursor : null,
    revision: Number.isSafeInteger(revision) && (revision as number) >= 0 ? (revision as number) : null,
    // A copy: the host gets the same message next and may keep (or change) what the SDK parsed from it.
    tools: structuredClone(result.tools as unknown[]),
  };
}
