/**
 * One end of a simulated link, implementing the SDK `Transport` interface exactly.
 *
 * Fault model: none decided here (the link and its rules decide). This end only buffers messages
 * that arrive before `start()` — the SDK's Protocol installs its callbacks and then starts, and a
 * peer may already have sent — and hands everything else to `onmessage` in arrival order.
 * It never sets `sessionId`: a preset session id makes the SDK Client skip `initialize`.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** What an endpoint needs from its link. */
export interface EndpointLink {
  /** Copies and queues `message`; throws if the link is closed. */
  transmit(from: EndpointSide, message: JSONRPCMessage): void;
  close(): void;
}

/** Which end: the client end sends `toServer`, the server end sends `toClient`. */
export type EndpointSide = 'client' | 'server';

/** A `Transport` whose sends go through the link's queue. */
export class Endpoint implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  private started = false;
  private readonly early: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> = [];

  constructor(
    private readonly link: EndpointLink,
    private readonly side: EndpointSide,
    /** The key fingerprint the server end of this link presents (`peerIdentity`). */
    readonly identity: string,
  ) {}

  /** Called by the SDK's `connect` after it installs callbacks; delivers anything that came early. */
  async start(): Promise<void> {
    this.started = true;
    for (const { message, extra } of this.early.splice(0)) this.onmessage?.(message, extra);
  }

  /** Queues a copy of `message`; rejects with Error('Not connected') once the link is closed. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    this.link.transmit(this.side, message);
  }

  /** Closes the whole link: both ends get `onclose` once. */
  async close(): Promise<void> {
    this.link.close();
  }

  /** Hands a delivered message to the SDK (or holds it until `start`). */
  receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.started) this.onmessage?.(message, extra);
    else this.early.push({ message, extra });
  }

  /** Tells the SDK the connection is gone. */
  notifyClosed(): void {
    this.onclose?.();
  }
}
