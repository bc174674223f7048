/**
 * A simulated connection between one SDK Client and one SDK Server, driven by the world's queue.
 *
 * Fault model: every message is delayed by the base latency; the link's rules (link-rules.ts,
 * contributed by faults such as F3 and F15) may add latency, let a message out of per-direction
 * FIFO order so that later messages overtake it, or drop a notification (never a request or a
 * response); `disconnect()` cuts the link at once, losing every message in flight, and both sides
 * see `onclose`. How often each happens is the fault plan's business. The link itself never
 * duplicates, corrupts or drops a request or response, and never shares an object between the two sides: each message is a
 * structured clone (`plainClone`, same result as `structuredClone`) taken at `send` time (unlike the SDK's InMemoryTransport, which delivers
 * synchronously and by reference). A structured clone is not a JSON round trip: `undefined`
 * members and `NaN` survive it, where a real wire would drop or null them.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { World } from '../runtime/world.ts';
import { copyAuthInfo } from './internal/copyAuthInfo.ts';
import { Endpoint, type EndpointSide } from './internal/endpoint.ts';
import type { LinkDirection, LinkRule } from './link-rules.ts';
import { plainClone } from '../internal/plain-clone.ts';
import { DeliveryOrder, isNotification } from './internal/delivery-order.ts';

/** The client end: a `Transport` that also tells a Connector who the server proved to be. */
export interface ClientTransport extends Transport {
  /** The key fingerprint the server side presents (`peerIdentity`), never its `serverInfo`. */
  readonly identity: string;
}

/** What happened to one message: delivered, dropped by a rule, or lost to a disconnect. */
export interface LinkTraceEvent {
  direction: LinkDirection;
  kind: 'deliver' | 'drop' | 'lost';
  /** The JSON-RPC method, for requests and notifications. */
  method?: string;
  /** The JSON-RPC id, for requests and responses. */
  id?: number | string;
}

/**
 * One simulated connection as the round sees it, whatever carries it (this file's link, or the
 * Streamable HTTP link of http-link.ts): the client end, the cut, and the taps the round writes
 * its ground truth from.
 */
export interface WireLink {
  readonly client: ClientTransport;
  /** The key fingerprint the server side presents (`peerIdentity`). */
  readonly identity: string;
  /** Cuts the link now: in-flight messages are lost and both sides get `onclose` (client first). */
  disconnect(): void;
  /** True once the link was cut or closed by either side; sends then reject. */
  readonly closed: boolean;
  /** Optional observer, called at delivery, drop or loss time (virtual time = `world.now()`). */
  onTrace?: ((event: LinkTraceEvent) => void) | undefined;
  /**
   * Optional wire tap, called with each delivered message just before the receiving side gets it
   * (the link's own copy: an observer must not change it). Benchmarks record a round's exact
   * message sequence with it (bench/round-floor.bench.ts); nothing in a round reads it.
   */
  onDeliver?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  /**
   * Optional send tap, called with each message as a side puts it on the link (virtual time =
   * `world.now()`), before any rule or latency decides its fate (the link's own copy: an observer
   * must not change it). The round writes `call_sent` from it (I18's ground truth).
   */
  onSend?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  /**
   * Optional close tap, called once when the link closes (cut or closed by either side), after
   * the in-flight messages were lost and before either side gets `onclose`. The round ends the
   * session's open `subscriptions/listen` streams in the trace with it.
   */
  onClosed?: (() => void) | undefined;
}

/** One simulated connection. Hand `client` to an SDK Client and `server` to an SDK Server. */
export interface Link extends WireLink {
  readonly server: Transport;
}

/** How to build a link. */
export interface LinkOptions {
  /** The base transit time of a message, virtual ms, before the rules (called once per message, at send). */
  latencyMs(direction: LinkDirection, message: JSONRPCMessage): number;
  /** The link's fault rules, in order (none: every message in FIFO order after its base latency). */
  rules?: readonly LinkRule[];
  /** The key fingerprint the server side presents. */
  identity: string;
  /** Delivered (as a fresh copy) with every message to the server; audience in `extra.audience`. */
  authInfo: AuthInfo;
}

/**
 * Creates a link whose messages travel on `world`'s queue. Sends on a closed link reject with
 * Error('Not connected'); a latency that is not an integer >= 0, or a rule that drops a request
 * or a response, fails the round (`world.fail`) and rejects that send.
 */
export function createLink(world: World, opts: LinkOptions): Link {
  return new SimLink(world, opts, opts.identity, copyAuthInfo(opts.authInfo));
}

interface InFlight {
  readonly direction: LinkDirection;
  readonly message: JSONRPCMessage;
  eventId: number;
}

class SimLink implements Link {
  readonly client: Endpoint;
  readonly server: Endpoint;
  onTrace?: ((event: LinkTraceEvent) => void) | undefined;
  onDeliver?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  onSend?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  onClosed?: (() => void) | undefined;

  private isClosed = false;
  private readonly inFlight = new Map<number, InFlight>();
  private readonly order: DeliveryOrder;

  constructor(
    private readonly world: World,
    private readonly opts: Pick<LinkOptions, 'latencyMs' | 'rules'>,
    readonly identity: string,
    private readonly authInfo: AuthInfo,
  ) {
    this.client = new Endpoint(this, 'client', identity);
    this.server = new Endpoint(this, 'server', identity);
    this.order = new DeliveryOrder(world, opts, (error) => this.failRound(error));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  disconnect(): void {
    this.close();
  }

  /** Copies one message, asks the rules what happens to it, and schedules or drops it (see link-rules.ts). */
  transmit(from: EndpointSide, message: JSONRPCMessage): void {
    if (this.isClosed) throw new Error('Not connected');
    const direction: LinkDirection = from === 'client' ? 'toServer' : 'toClient';
    const copy = plainClone(message);
    this.onSend?.(direction, copy);
    const verdict = this.order.verdict({ direction, message: copy, notification: isNotification(copy) });
    if (verdict.kind === 'drop') return this.trace(direction, 'drop', copy);
    const flight: InFlight = { direction, message: copy, eventId: 0 };
    flight.eventId = this.world.schedule(this.order.atMs(direction, verdict), () => this.deliver(flight));
    this.inFlight.set(flight.eventId, flight);
  }

  private failRound(error: Error): never {
    this.world.fail(error);
    throw error;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const flight of this.inFlight.values()) {
      this.world.cancel(flight.eventId);
      this.trace(flight.direction, 'lost', flight.message);
    }
    this.inFlight.clear();
    this.onClosed?.();
    this.client.notifyClosed();
    this.server.notifyClosed();
  }

  private deliver(flight: InFlight): void {
    this.inFlight.delete(flight.eventId);
    this.trace(flight.direction, 'deliver', flight.message);
    this.onDeliver?.(flight.direction, flight.message);
    if (flight.direction === 'toServer') {
      const extra: MessageExtraInfo = { authInfo: copyAuthInfo(this.authInfo) };
      this.server.receive(flight.message, extra);
    } else {
      this.client.receive(flight.message, undefined);
    }
  }

  private trace(direction: LinkDirection, kind: LinkTraceEvent['kind'], message: JSONRPCMessage): void {
    if (this.onTrace === undefined) return;
    const event: LinkTraceEvent = { direction, kind };
    if ('method' in message) event.method = message.method;
    if ('id' in message && message.id !== undefined) event.id = message.id;
    this.onTrace(event);
  }
}
