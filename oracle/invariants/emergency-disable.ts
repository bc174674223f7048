/**
 * I30, no execution after an emergency disable (SPEC section 9; seed 004: "紧急禁用用于安全事故，可立即
 * 让策略拒绝新执行"): once the world delivered an operator's emergency disable of tool `tool` of
 * server `server` to the core (`emergency_disabled`, delivery `delivered`, F26), no `tools/call` of
 * that name may leave the core for that server while it presents the identity the order named: no
 * later `call_sent` of it, in any audience, whatever version of the tool the server lists. Calls
 * that left before the order may finish; after an identity rotation (F7) the server is another
 * server to a core (SPEC section 1), and its calls are not this order's.
 *
 * Judged from the world's events only (`emergency_disabled`, `call_sent`), so a core cannot pass
 * by reporting less. An order written `unsupported` or `host_down` is not judged (the first makes
 * the round NOT JUDGED on `versions`, oracle/not-judged.ts). One work count per delivered order.
 *
 * Code: `EXECUTED_AFTER_EMERGENCY_DISABLE`, anchored at the first call sent after the order, with
 * how many were sent.
 */
import type { CheckContext, Findings } from './check-context.ts';

/** I30: no call of an emergency-disabled tool leaves the core after its order. */
export function checkEmergencyDisable(context: CheckContext, findings: Findings): void {
  for (const order of context.truth.emergencyDisables) {
    if (order.delivery !== 'delivered') continue;
    findings.count('I30');
    const sent = [...(context.truth.servers.get(order.server)?.callsSent.values() ?? [])]
      .flat()
      .filter(
        (call) =>
          call.tool === order.tool &&
          call.seq > order.seq &&
          context.truth.servers.get(order.server)?.identityBefore(call.seq)?.identity === order.identity,
      )
      .sort((a, b) => a.seq - b.seq);
    const first = sent[0];
    if (first === undefined) continue;
    findings.add(
      'I30',
      first.seq,
      'EXECUTED_AFTER_EMERGENCY_DISABLE',
      `${sent.length} call${sent.length === 1 ? '' : 's'} of ${JSON.stringify(order.tool)} left the core for server ${order.server} after its emergency disable (seq ${order.seq}, t=${order.t} ms), the first at seq ${first.seq} (t=${first.t} ms, audience ${first.audience})`,
    );
  }
}
