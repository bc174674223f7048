/**
 * The fault rules of one simulated link: how late each message arrives, whether requests may
 * overtake each other, and which notifications are lost.
 *
 * Fault model: this file only states the rules; the simulator's fault plan supplies them (F15):
 * latency drawn per message from a seeded stream, reordering switched on for episodes, and
 * notifications dropped as by a stateless gateway. Requests and responses are never dropped or
 * duplicated by a policy; only a disconnect loses them.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Which way a message travels: client → server or server → client. */
export type LinkDirection = 'toServer' | 'toClient';

/**
 * Per-message rules consulted at `send` time, in this order for each message: for a
 * notification `dropNotification` first, then (unless dropped) `latencyMs`; `reorder` is read
 * after `latencyMs`. A policy draws from its own seeded stream, so the order of calls is the
 * order of sends, which the world makes deterministic.
 */
export interface LinkPolicy {
  /** Transit time of this message in virtual ms: an integer >= 0 (anything else fails the round). */
  latencyMs(direction: LinkDirection, message: JSONRPCMessage): number;
  /**
   * false: per-direction FIFO, deliverAt = max(now + latency, last deliverAt in that direction).
   * true: each message independently at now + latency, so later messages may overtake.
   */
  reorder: boolean;
  /** Called only for notifications (messages without an id); true drops the message. */
  dropNotification(direction: LinkDirection, message: JSONRPCMessage): boolean;
}
