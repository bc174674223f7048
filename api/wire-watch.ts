/**
 * Watches the wire of one MCP connection, for an adapter that reports what a host does as
 * `catsim.core.v1` observations without changing the host (docs/CORE-API.md, "Adapting a
 * Client-based host" and "Adapting a host with its own MCP client"). The host keeps listing and
 * calling as it always does; the watch sits on the connection's transport and:
 *
 * - tags every outgoing `tools/list` request with `_meta["dev.catsim/scanId"]`, so that the world
 *   can attribute the pages it serves (I2 judges a published page against the pages served to its
 *   scan): a request without a cursor starts a new walk; one with a cursor continues the walk
 *   whose page handed out that cursor (so two walks in flight, say a first walk and a refresh
 *   after `list_changed`, stay apart), and a cursor no page handed out starts a walk of its own;
 * - records each page the server returns exactly as sent (tools deep-copied, the revision the page
 *   carried in `_meta["dev.catsim/catalogRevision"]` or null), before the client library sees it
 *   (some libraries rewrite descriptors in place);
 * - adds the `_meta` an adapter queued for a call (the lease the world's servers require) to the
 *   `tools/call` request that carries that call, and reports when that request left and how its
 *   answer (matched by JSON-RPC id) came back.
 *
 * Which request carries a queued call: the first `tools/call` that leaves with the call's tool
 * name and the same arguments (compared in canonical JSON), whatever order the host sends
 * overlapping calls in; calls with the same name and arguments are one request each, in the order
 * they were queued. A request whose arguments match no queued call of its tool (a host that
 * rewrites arguments, e.g. adds defaults) takes the oldest queued call of that tool.
 *
 * Two ways onto a connection:
 * - `WireWatch.watch(client, { scanIdPrefix })` on an SDK `Client` the world connected (the
 *   `connector.connect()` route), right after the connection is yielded, before the host sends;
 * - `WireWatch.tap(transport, { scanIdPrefix })` on the plain `Transport` the world hands over
 *   (the `connector.connectTransport(handshake)` route): give `watch.transport`, not `transport`,
 *   to the client library, before it starts.
 * Then `latestWalk()` after the host listed, and `stampCall(...)` before asking the host to call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { jcs } from '../src/snapshot/canonical.ts';

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
  /** The tools exactly as sent (a deep copy). */
  tools: unknown[];
}

/** The pages of one walk, in the order they arrived. */
export interface WireWalk {
  scanId: string;
  pages: WirePage[];
  /** Whether the last page arrived (cursorOut null). */
  complete: boolean;
}

/** What to do with the `tools/call` request that carries one call. */
export interface CallStamp {
  /** Merged into the request's `params._meta` (e.g. `{ "dev.catsim/lease": lease }`). */
  meta: Record<string, unknown>;
  /** Called synchronously as the request leaves (write the decision and the receipt here). */
  onSent?: () => void;
  /** Called when its answer arrives: `ok`, or `error` for a JSON-RPC error or a tool error. */
  onAnswer?: (outcome: 'ok' | 'error') => void;
}

/** A call as the host is asked to make it: the tool's name and the arguments. */
export interface StampedCall {
  name: string;
  /** The arguments as passed to the host (missing: `{}`). */
  arguments?: Record<string, unknown>;
}

/**
 * How a watch names scans: `scanIdPrefix` gives `${scanIdPrefix}0`, `${scanIdPrefix}1`, ... (make it
 * unique per connection within a round, with the boot in it after a host restart, since the world
 * groups pages by scan id); `nextScanId` draws each id from a counter of the core's own.
 */
export type ScanIds = { scanIdPrefix: string } | { nextScanId: () => string };

/** One queued call, with its arguments' canonical text. */
interface Queued {
  call: StampedCall;
  argumentsText: string | undefined;
  stamp: CallStamp;
}

type Pending = { kind: 'list'; walk: WireWalk; cursorIn: string | null } | { kind: 'call'; stamp: CallStamp };

/** The wire of one connection. */
export class WireWatch {
  readonly #walks: WireWalk[] = [];
  readonly #pending = new Map<string | number, Pending>();
  readonly #queued: Queued[] = [];
  /** The walk whose latest page handed out each cursor. */
  readonly #walkOfCursor = new Map<string, WireWalk>();
  readonly #nextScanId: () => string;
  #latest: WireWalk | undefined;
  #answers = 0;
  #transport: Transport | undefined;

  private constructor(ids: ScanIds) {
    let scans = 0;
    this.#nextScanId = 'nextScanId' in ids ? ids.nextScanId : () => `${ids.scanIdPrefix}${scans++}`;
  }

  /**
   * Starts watching a connected SDK Client (its `transport` must be set).
   * @throws Error when the Client is not connected.
   */
  static watch(client: Client, ids: ScanIds): WireWatch {
    const transport = client.transport;
    if (transport === undefined) throw new Error('WireWatch.watch needs a connected Client');
    const watch = new WireWatch(ids);
    watch.#hook(transport);
    watch.#transport = transport;
    return watch;
  }

  /**
   * Wraps a plain MCP `Transport` that no client has started yet: hand `watch.transport` to the
   * client library (e.g. `createMCPClient({ transport: watch.transport })`), never `transport`.
   */
  static tap(transport: Transport, ids: ScanIds): WireWatch {
    const watch = new WireWatch(ids);
    watch.#transport = new WatchedTransport(transport, watch);
    return watch;
  }

  /** The transport the host talks through: the wrapper of `tap`, or the Client's own for `watch`. */
  get transport(): Transport {
    if (this.#transport === undefined) throw new Error('WireWatch has no transport');
    return this.#transport;
  }

  /** The walk the latest `tools/list` answer belongs to, or undefined before the first answer. */
  latestWalk(): WireWalk | undefined {
    return this.#latest;
  }

  /** Every walk so far (one per scan id), oldest first. */
  walks(): readonly WireWalk[] {
    return this.#walks;
  }

  /** `tools/list` answers received so far (a host that answers from its own cache adds none). */
  get answers(): number {
    return this.#answers;
  }

  /** Queues `stamp` for the `tools/call` request that will carry `call` (see the file's header). */
  stampCall(call: StampedCall, stamp: CallStamp): void {
    this.#queued.push({ call, argumentsText: canonicalText(call.arguments ?? {}), stamp });
  }

  /** Drops `stamp` if no request took it (the host decided not to call); true when it was still queued. */
  cancelStamp(stamp: CallStamp): boolean {
    const index = this.#queued.findIndex((queued) => queued.stamp === stamp);
    if (index >= 0) this.#queued.splice(index, 1);
    return index >= 0;
  }

  #hook(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(this.outgoing(message), options);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.incoming(message);
      deliver?.call(transport, message, extra);
    };
  }

  /**
   * Tags a list request, stamps a call; returns the message to send (a copy when changed).
   * @internal for WatchedTransport.
   */
  outgoing(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || !('id' in message)) return message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    if (message.method === 'tools/list') {
      const cursorIn = typeof params.cursor === 'string' ? params.cursor : null;
      const walk = this.#walkFor(cursorIn);
      this.#pending.set(message.id, { kind: 'list', walk, cursorIn });
      return { ...message, params: { ...params, _meta: { ...meta, [SCAN_ID_META]: walk.scanId } } };
    }
    const stamp = message.method === 'tools/call' ? this.#takeStamp(params) : undefined;
    if (stamp === undefined) return message;
    this.#pending.set(message.id, { kind: 'call', stamp });
    stamp.onSent?.();
    return { ...message, params: { ...params, _meta: { ...meta, ...stamp.meta } } };
  }

  /** The queued call this request carries: same name and arguments, else the oldest of the name. */
  #takeStamp(params: Record<string, unknown>): CallStamp | undefined {
    const name = String(params.name);
    const text = canonicalText(params.arguments ?? {});
    let index = this.#queued.findIndex((queued) => queued.call.name === name && queued.argumentsText === text);
    if (index < 0) index = this.#queued.findIndex((queued) => queued.call.name === name);
    return index < 0 ? undefined : this.#queued.splice(index, 1)[0]?.stamp;
  }

  /** A cursorless request starts a walk; a cursor continues the walk that handed it out (or starts one). */
  #walkFor(cursorIn: string | null): WireWalk {
    const handedOut = cursorIn === null ? undefined : this.#walkOfCursor.get(cursorIn);
    if (handedOut !== undefined) return handedOut;
    const walk: WireWalk = { scanId: this.#nextScanId(), pages: [], complete: false };
    this.#walks.push(walk);
    return walk;
  }

  /**
   * Records a page, reports a call's answer.
   * @internal for WatchedTransport.
   */
  incoming(message: JSONRPCMessage): void {
    if (!('id' in message) || 'method' in message || message.id === undefined) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
    if (pending.kind === 'call') {
      pending.stamp.onAnswer?.(result === undefined || result.isError === true ? 'error' : 'ok');
    } else if (result !== undefined) {
      const page = pageOf(pending.cursorIn, result);
      pending.walk.pages.push(page);
      pending.walk.complete = page.cursorOut === null;
      if (page.cursorOut !== null) this.#walkOfCursor.set(page.cursorOut, pending.walk);
      this.#latest = pending.walk;
      this.#answers += 1;
    }
  }
}

/**
 * The transport `WireWatch.tap` hands out: forwards everything to the world's transport, through
 * the watch. Order of calls: the library sets the callbacks and calls `start`, `send` and `close`
 * as on any transport.
 */
class WatchedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  constructor(
    private readonly inner: Transport,
    private readonly watch: WireWatch,
  ) {
    inner.onmessage = (message, extra) => {
      watch.incoming(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  /** The session id of the inner transport (none on the simulated link). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(this.watch.outgoing(message), options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** The canonical JSON of a call's arguments, or undefined when they have none (not JSON data). */
function canonicalText(value: unknown): string | undefined {
  try {
    return jcs(value);
  } catch {
    return undefined;
  }
}

function pageOf(cursorIn: string | null, result: Record<string, unknown>): WirePage {
  const revision = (result._meta as Record<string, unknown> | undefined)?.[REVISION_META];
  return {
    cursorIn,
    cursorOut: typeof result.nextCursor === 'string' ? result.nextCursor : null,
    revision: Number.isSafeInteger(revision) && (revision as number) >= 0 ? (revision as number) : null,
    // A copy: the host gets the same message next and may keep (or change) what it parsed from it.
    tools: Array.isArray(result.tools) ? structuredClone(result.tools as unknown[]) : [],
  };
}
