/**
 * The fault rules of a simulated link, turmoil-style: each rule has one method, `onLinkMessage`,
 * which sees one message at send time and says what happens to it: delivered after some latency
 * (in or out of per-direction FIFO order) or dropped. The fault registry builds a link's rules
 * from its server's plan (F3's late notifications, F15's reordering); a link without rules
 * delivers every message in FIFO order after its base latency.
 *
 * Order of calls, for each message at `send`: the link's base latency (`LinkOptions.latencyMs`,
 * drawn from a seeded stream) makes the first verdict, then each rule in registry order gets the
 * previous verdict, until one drops the message. Only notifications may be dropped: a rule that
 * drops a request or a response fails the round (the transport never loses those; only a cut
 * does).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Which way a message travels: client → server or server → client. */
export type LinkDirection = 'toServer' | 'toClient';

/** One message as a rule sees it (the link's private copy: a rule must not change it). */
export interface LinkMessage {
  readonly direction: LinkDirection;
  readonly message: JSONRPCMessage;
  /** True for a notification (a message with a method and no id). */
  readonly notification: boolean;
}

/**
 * What happens to a message. `deliver`: it arrives `latencyMs` virtual ms after it was sent
 * (an integer >= 0; anything else fails the round); with `reorder` false it also waits for the
 * messages sent before it in its direction (FIFO), with `reorder` true it neither waits for them
 * nor holds back later ones. `drop`: it is lost (notifications only).
 */
export type LinkVerdict =
  | { readonly kind: 'deliver'; readonly latencyMs: number; readonly reorder: boolean }
  | { readonly kind: 'drop' };

/** One fault rule of a link. */
export interface LinkRule {
  onLinkMessage(message: LinkMessage, verdict: LinkVerdict): LinkVerdict;
}

/** What a session's planned episodes may do to its connection. */
export interface SessionControl {
  /** Cuts the session's current connection, if it has one (the core reconnects through its Connector). */
  disconnect(): void;
}

/** Something that happens to one session's connection at a planned time. */
export interface SessionEpisode {
  readonly atMs: number;
  run(control: SessionControl): void;
}
