/**
 * The host listens on every modern connection, I32 (SPEC section 3, "Either era": one
 * `subscriptions/listen` stream per connection, and "a new connection listens again (the server
 * holds no subscription state)"; issue 29). MCP 2026-07-28's subscriptions pattern: `list_changed`
 * reaches a client only on a `subscriptions/listen` stream, and on stdio "the client MUST re-send
 * `subscriptions/listen` after reconnecting; the server holds no subscription state". A host that
 * listens only on its first connection goes deaf after the first cut (F15, F27) without noticing.
 *
 * Judged for every `session_opened` of a modern-era session (it names its `connection`) whose
 * server declares `tools.listChanged`: the core's client sends a `subscriptions/listen` on that
 * connection (`listen_requested` naming it; before the session opened, as a client that waits for
 * the acknowledgement does, or after) no later than R after the session opened, R the larger of
 * the scenario's coalescing delay (`listChangedDelayMs`) and its retry back-off cap
 * (`retryBackoffMsMax`), the bound I19 gives a refresh: a host that learns of changes only from
 * the stream must open it at least as soon as it would refresh. Not judged when the header lacks
 * `listChangedDelayMs`, when the deadline falls after the round's end, or when by the deadline the
 * world cut that audience's connection (`disconnected`), the host died (`host_crashed`) or the
 * core opened another connection to that server as that audience (this one is then gone). Code
 * `LISTEN_NOT_SENT`, anchored at the `session_opened`.
 *
 * After a `list_changed` delivered on a listen stream, the barrier and the refresh rules are I18
 * and I19 as for a legacy notification: the world writes the same `notification_delivered`
 * (list-changed.ts judges it, whatever the era).
 */
import type { SessionOpenedEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Checks I32 over every modern-era session whose server declares `tools.listChanged`. */
export function checkListenStreams(context: CheckContext, findings: Findings): void {
  const delayMs = context.bounds.listChangedDelayMs;
  if (delayMs === undefined) return;
  const boundMs = Math.max(delayMs, context.bounds.retryBackoffMsMax);
  for (const opened of context.truth.sessionOpens) {
    if (opened.connection === undefined || opened.listChanged !== true) continue;
    const deadline = opened.t + boundMs;
    if (deadline > context.endT || gone(context, opened, deadline)) continue;
    findings.count('I32');
    const listened = context.truth.listenRequests.some(
      (request) =>
        request.server === opened.server &&
        request.audience === opened.audience &&
        request.connection === opened.connection &&
        request.t <= deadline,
    );
    if (listened) continue;
    findings.add(
      'I32',
      opened.seq,
      'LISTEN_NOT_SENT',
      `connection ${opened.connection} of ${opened.server} as ${opened.audience} opened at t=${opened.t} (session_opened seq ${opened.seq}; the server declares tools.listChanged) and the core's client sent no subscriptions/listen on it by t=${deadline} (${boundMs} ms later): it hears of no change there`,
    );
  }
}

/** Whether the connection `opened` names was cut, its host died, or the core replaced it, by `deadline`. */
function gone(context: CheckContext, opened: SessionOpenedEvent, deadline: number): boolean {
  const { truth } = context;
  const within = (event: { seq: number; t: number }): boolean => event.seq > opened.seq && event.t <= deadline;
  const cut = (truth.servers.get(opened.server)?.disconnects ?? []).some(
    (event) => event.audience === opened.audience && within(event),
  );
  const replaced = truth.sessionOpens.some(
    (event) => event.server === opened.server && event.audience === opened.audience && within(event),
  );
  return cut || replaced || truth.hostCrashes.some(within);
}
