/**
 * When a message on a simulated connection arrives: its verdict (the base latency, then each link
 * rule's, until one drops it) and its delivery time (the latency after now, in per-direction FIFO
 * order unless a rule let it overtake). One per connection; the in-process link (link.ts) and the
 * Streamable HTTP link (http-link.ts) both decide by it, so a fault's rules act the same on either.
 *
 * Fault model: none of its own; the rules (link-rules.ts) decide. A rule that drops a request or
 * a response, or a latency that is not an integer >= 0 ms, fails the round (`fail`).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { World } from '../../runtime/world.ts';
import type { LinkDirection, LinkMessage, LinkRule, LinkVerdict } from '../link-rules.ts';

/** What a connection's delivery order reads: its base latency (ms) and its rules. */
export interface DeliveryOptions {
  /** The base latency of one message, ms (an integer >= 0). */
  latencyMs(direction: LinkDirection, message: JSONRPCMessage): number;
  /** The connection's link rules, in order. */
  rules?: readonly LinkRule[] | undefined;
}

/** The verdicts and delivery times of one connection's messages. */
export class DeliveryOrder {
  /** The latest delivery time given per direction, ms: FIFO messages are never delivered before it. */
  readonly #lastAtMs: Record<LinkDirection, number> = { toServer: 0, toClient: 0 };

  /** @param fail fails the round with `error` (and throws it). */
  constructor(
    private readonly world: World,
    private readonly opts: DeliveryOptions,
    private readonly fail: (error: Error) => never,
  ) {}

  /**
   * The base latency's verdict for `message`, then each rule's until one drops it; with
   * `rules: false` the base latency's alone (what carries no message: HTTP headers, a body's end).
   * @throws (through `fail`) when a rule drops a request or a response.
   */
  verdict(message: LinkMessage, rules = true): LinkVerdict {
    let verdict: LinkVerdict = {
      kind: 'deliver',
      latencyMs: this.opts.latencyMs(message.direction, message.message),
      reorder: false,
    };
    if (!rules) return verdict;
    for (const rule of this.opts.rules ?? []) {
      verdict = rule.onLinkMessage(message, verdict);
      if (verdict.kind === 'drop') break;
    }
    if (verdict.kind === 'drop' && !message.notification)
      this.fail(new RangeError('a link rule dropped a request or a response; only notifications may be dropped'));
    return verdict;
  }

  /**
   * The virtual time, ms, at which a message sent now with `verdict` arrives: now plus its latency,
   * and no earlier than the last FIFO message of its direction. A reordered message neither waits
   * for earlier ones nor holds back later ones: it is out of the FIFO entirely (a late notification
   * must not stall the replies sent after it).
   * @throws (through `fail`) when the latency is not an integer >= 0.
   */
  atMs(direction: LinkDirection, verdict: { latencyMs: number; reorder: boolean }): number {
    const { latencyMs } = verdict;
    if (!Number.isSafeInteger(latencyMs) || latencyMs < 0)
      this.fail(new RangeError(`link latency must be an integer >= 0 ms, got ${latencyMs}`));
    const earliestMs = this.world.now() + latencyMs;
    if (verdict.reorder) return earliestMs;
    const atMs = Math.max(earliestMs, this.#lastAtMs[direction]);
    this.#lastAtMs[direction] = atMs;
    return atMs;
  }
}

/** Whether `message` is a notification: it has a method and no id. */
export function isNotification(message: JSONRPCMessage): boolean {
  return 'method' in message && !('id' in message && message.id !== undefined);
}
