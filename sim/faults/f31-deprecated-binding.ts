/**
 * F31: a new bundle binding a deprecated version. At seeded times an operator deprecates, at stage
 * `no-new-binding`, the versions of one tool that a server lists then, through `deprecate` of the
 * core API (optional). From the moment the order returns, no generation first disclosed later may
 * bind them: a core that keeps tool versions builds later bundles without them, so a call of that
 * descriptor through a later generation is refused, while runs already holding it go on (I34,
 * oracle/invariants/deprecation.ts, judged from the world's `deprecation_ordered` and first
 * disclosures and the core's receipts). Every order is written as `deprecation_ordered`
 * (delivered, `unsupported` for a core without `deprecate`, or `host_down` during an F18 restart).
 * The server keeps listing the tool: the base history's edits of other tools bring new generations
 * that still list the deprecated descriptor, which is what a careless bundle builder binds again.
 *
 * Models seed 004 ("deprecation 包含 announce、no-new-binding、sunset、disabled 四阶段。构建新 Bundle
 * 时禁止绑定 deprecated 版本，旧 Bundle 在兼容期继续") and issue 30 item 5 ("a new bundle binding a
 * deprecated version").
 *
 * How often: a round that enables F31 plans 1 to 2 orders at distinct seeded times in [1, T_heal),
 * each for a server drawn uniformly and a tool drawn uniformly among the names its first revision
 * lists to any audience (`""`, which deprecates nothing, for a server that lists none).
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { toolNamesListed } from './internal/operator-tools.ts';
import { counts } from './rates.ts';
import { arrayOf, ms, object, string } from '../plan/schema-parts.ts';

/** One planned deprecation (F31): at `atMs`, the operator deprecates the versions of `tool` that server `server` lists then. */
export interface DeprecationPlan {
  atMs: number;
  server: string;
  tool: string;
}

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F31: operators' deprecations (stage no-new-binding) in time order (absent or empty: none). */
    deprecations?: DeprecationPlan[];
  }
}

/** How often F31 acts (scenario `faultRates.F31`), with its defaults. */
export const RATES = {
  deprecationsPerRound: counts(
    1,
    2,
    'Deprecations per round that enables F31, at distinct seeded times in [1, T_heal).',
    1,
  ),
};

/** F31: deprecated versions bound again. */
export const F31: FaultDefinition<'F31', typeof RATES> = {
  id: 'F31',
  rates: RATES,
  plan: {
    round: {
      deprecations: {
        schema: arrayOf(object({ atMs: ms, server: string, tool: string }), 'an array of deprecations'),
      },
    },
  },
  title:
    'an operator deprecates the listed versions of a tool (no-new-binding): no bundle built afterwards may bind them',
  lifetime: 'episode',
  probes: ['deprecation-ordered', 'deprecated-not-bound'],
  // An order for a server the plan no longer has (a shrink dropped it) does nothing.
  presentIn: (plan: RoundPlan) =>
    (plan.deprecations ?? []).some((order) => plan.servers.some((server) => server.id === order.server)),
  // The times come first from F31's own stream, so what other faults put in the plan never moves them.
  generateRound({ plan }, rng, rates) {
    if (plan.servers.length === 0) return;
    const times = distinctTimes(rng, drawIn(rng, rates.deprecationsPerRound), plan.bounds.tHealMs);
    plan.deprecations = times.map((atMs): DeprecationPlan => {
      const server = rng.pick(plan.servers);
      const names = toolNamesListed(server);
      return { atMs, server: server.id, tool: names.length === 0 ? '' : rng.pick(names) };
    });
  },
  // Which server and tool an order names is picked among other faults' data: left out.
  fragment: (plan) => (plan.deprecations ?? []).map(({ atMs }) => ({ atMs })),
  reductions: (plan) =>
    (plan.deprecations ?? []).map((order) => ({
      name: `no deprecation at ${order.atMs} ms (${order.server} ${order.tool})`,
      plan: { ...plan, deprecations: (plan.deprecations ?? []).filter((other) => other !== order) },
    })),
};
