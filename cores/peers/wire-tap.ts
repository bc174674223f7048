/**
 * A tap on one peer connection's transport: it tags each `tools/list` request with a scan id and
 * records each page as it arrives, so that a real client library that knows nothing of catsim's
 * observation format can still be reported in it (SPEC section 12a).
 *
 * Fault model: none injected; the tap changes no behaviour of the library or of the server. It
 * adds one `_meta` key (`dev.catsim/scanId`, SPEC section 2) to outgoing `tools/list` requests,
 * as a trace header would, and copies what it sees. What it must get right:
 * - scan attribution: a cursorless request starts a new scan; a request with a cursor belongs to
 *   the scan whose page handed out that cursor (the latest such page), so two walks in flight on
 *   one connection (an initial walk and a `list_changed` refresh) are told apart by their cursor
 *   lineage; a cursor the tap never saw handed out starts a scan of its own;
 * - pages are deep copies taken before the library sees them (LangChain's adapter mutates
 *   `inputSchema` in place), with the revision the page reported in `_meta`, so that their
 *   digests are the digests of the pages as served;
 * - which walk a library's answer came from: the scan of the latest `tools/list` answer on this
 *   connection. The world drains every promise job before it delivers the next message, so a
 *   library that turns pages into a tool list without waiting on another message returns before
 *   any later answer arrives.
 * JSON-RPC ids repeat across connections, so there is one tap per connection.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { REVISION_META_KEY, SCAN_ID_META_KEY } from '../../src/discovery/page-source.ts';
import type { PeerPage } from './peer-host.ts';

/** The latest walk a library's answer can have come from. */
export interface TappedWalk {
  scanId: string;
  /** Pages of the scan, in the order their answers arrived. */
  pages: PeerPage[];
  /** How many `tools/list` answers this connection had received when the walk was taken. */
  answers: number;
}

/** What the tap remembers of one `tools/list` request until its answer comes. */
interface PendingList {
  scanId: string;
  cursorIn: string | null;
}

/**
 * A `Transport` that forwards everything to `inner` and taps `tools/list`. Order of calls: the
 * library sets the callbacks and calls `start`, `send` and `close` as on any transport; the peer
 * adapter reads `latestWalk()` when the library hands back a tool list.
 */
export class TappedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #pending = new Map<string, PendingList>();
  readonly #scanOfCursor = new Map<string, string>();
  readonly #pages = new Map<string, PeerPage[]>();
  #latestScanId: string | undefined;
  #answers = 0;

  /** `nextScanId` gives a fresh scan id (shared by all connections of one peer). */
  constructor(
    private readonly inner: Transport,
    private readonly nextScanId: () => string,
  ) {
    inner.onmessage = (message, extra) => {
      this.#received(message);
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
    await this.inner.send(this.#tagged(message), options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** The scan of the latest `tools/list` answer, or undefined before the first one. */
  latestWalk(): TappedWalk | undefined {
    if (this.#latestScanId === undefined) return undefined;
    return {
      scanId: this.#latestScanId,
      pages: [...(this.#pages.get(this.#latestScanId) ?? [])],
      answers: this.#answers,
    };
  }

  /** `tools/list` answers received so far (a library that answers from its cache adds none). */
  get answers(): number {
    return this.#answers;
  }

  /** A copy of `message` carrying the scan id, when it is a `tools/list` request. */
  #tagged(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || message.method !== 'tools/list' || !('id' in message)) return message;
    const params = (message.params ?? {}) as { cursor?: unknown; _meta?: Record<string, unknown> };
    const cursorIn = typeof params.cursor === 'string' ? params.cursor : null;
    const scanId = (cursorIn === null ? undefined : this.#scanOfCursor.get(cursorIn)) ?? this.nextScanId();
    this.#pending.set(String(message.id), { scanId, cursorIn });
    return { ...message, params: { ...params, _meta: { ...params._meta, [SCAN_ID_META_KEY]: scanId } } };
  }

  /** Records the page of a `tools/list` answer before the library sees it. */
  #received(message: JSONRPCMessage): void {
    if (!('id' in message) || 'method' in message) return;
    const pending = this.#pending.get(String(message.id));
    if (pending === undefined) return;
    this.#pending.delete(String(message.id));
    if (!('result' in message)) return;
    const result = message.result as { tools?: unknown; nextCursor?: unknown; _meta?: Record<string, unknown> };
    const cursorOut = typeof result.nextCursor === 'string' ? result.nextCursor : null;
    const revision = result._meta?.[REVISION_META_KEY];
    const page: PeerPage = {
      cursorIn: pending.cursorIn,
      cursorOut,
      revision: Number.isSafeInteger(revision) ? (revision as number) : null,
      tools: Array.isArray(result.tools) ? structuredClone(result.tools) : [],
    };
    this.#pages.set(pending.scanId, [...(this.#pages.get(pending.scanId) ?? []), page]);
    if (cursorOut !== null) this.#scanOfCursor.set(cursorOut, pending.scanId);
    this.#latestScanId = pending.scanId;
    this.#answers += 1;
  }
}
