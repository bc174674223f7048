/**
 * F26: an operator emergency-disables a tool while calls are in flight. At seeded times an
 * operator orders the core to stop executing one tool of one server at once (a security incident),
 * through `emergencyDisable` of the core API (optional). From the moment the order returns, no
 * `tools/call` of that tool may leave the core for that server, whatever version of it the server
 * lists then or later; calls already on the wire may finish (I30, oracle/invariants/emergency-disable.ts,
 * judged from the world's `call_sent`). Every order is written as `emergency_disabled` (delivered,
 * `unsupported` for a core without `emergencyDisable`, or `host_down` during an F18 restart).
 *
 * Models seed 004 ("紧急禁用用于安全事故，可立即让策略拒绝新执行；运行中的 operation 根据风险选择取消、
 * 冻结或继续。状态与用户提示明确，不能表现成模型突然'不会调用'") and issue 30 item 5 ("an emergency
 * disable while calls are in flight"; DESIGN.md section 9).
 *
 * How often: a round that enables F26 plans 1 to 2 orders at distinct seeded times in [1, T_heal),
 * each for a server drawn uniformly and a tool drawn uniformly among the names its first revision
 * lists to any audience (`""`, which disables nothing, for a server that lists none). An order
 * names the server by the identity it presents then: after an identity rotation (F7) the server
 * is another server to a core, and I30 judges only calls sent while it presents that identity.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { toolNamesListed } from './internal/operator-tools.ts';
import { counts } from './rates.ts';
import { arrayOf, ms, object, string } from '../plan/schema-parts.ts';

/** One planned emergency disable (F26): at `atMs`, the operator disables tool `tool` of server `server`. */
export interface EmergencyDisablePlan {
  atMs: number;
  server: string;
  tool: string;
}

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F26: operators' emergency disables in time order (absent or empty: none). */
    emergencyDisables?: EmergencyDisablePlan[];
  }
}

/** How often F26 acts (scenario `faultRates.F26`), with its defaults. */
export const RATES = {
  disablesPerRound: counts(
    1,
    2,
    'Emergency disables per round that enables F26, at distinct seeded times in [1, T_heal).',
    1,
  ),
};

/** F26: emergency disables. */
export const F26: FaultDefinition<'F26', typeof RATES> = {
  id: 'F26',
  rates: RATES,
  plan: {
    round: {
      emergencyDisables: {
        schema: arrayOf(object({ atMs: ms, server: string, tool: string }), 'an array of emergency disables'),
      },
    },
  },
  title: 'an operator emergency-disables a tool while calls are in flight: no call of it may leave the core afterwards',
  lifetime: 'episode',
  probes: ['emergency-disable-ordered', 'emergency-disable-call-refused'],
  // An order for a server the plan no longer has (a shrink dropped it) does nothing.
  presentIn: (plan: RoundPlan) =>
    (plan.emergencyDisables ?? []).some((order) => plan.servers.some((server) => server.id === order.server)),
  // The times come first from F26's own stream, so what other faults put in the plan never moves them.
  generateRound({ plan }, rng, rates) {
    if (plan.servers.length === 0) return;
    const times = distinctTimes(rng, drawIn(rng, rates.disablesPerRound), plan.bounds.tHealMs);
    plan.emergencyDisables = times.map((atMs): EmergencyDisablePlan => {
      const server = rng.pick(plan.servers);
      const names = toolNamesListed(server);
      return { atMs, server: server.id, tool: names.length === 0 ? '' : rng.pick(names) };
    });
  },
  // Which server and tool an order names is picked among other faults' data: left out.
  fragment: (plan) => (plan.emergencyDisables ?? []).map(({ atMs }) => ({ atMs })),
  reductions: (plan) =>
    (plan.emergencyDisables ?? []).map((order) => ({
      name: `no emergency disable at ${order.atMs} ms (${order.server} ${order.tool})`,
      plan: { ...plan, emergencyDisables: (plan.emergencyDisables ?? []).filter((other) => other !== order) },
    })),
};
