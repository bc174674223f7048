/**
 * F32: a tool's description changes and nothing else does (a behavioural diff, SPEC section 9):
 * same name, same schemas, same server build. At seeded times the server lists one of its tools
 * with a new description, under a new revision; the operator has described the server in a
 * manifest file (`catsim.manifests.v1`), which the world hands the core (`env.manifestFiles`), so
 * a core that keeps tool versions names, in each receipt, the version that ran. The new
 * description is a new version (it may change what a model picks), never the old version with a
 * new text: one version names one definition (I35, oracle/invariants/versions.ts, judged on the
 * receipts' `version` and the descriptor each binds).
 *
 * Models seed 004 ("修改 description 也可能改变模型选择行为，因此仍发布新 registry version，即使后端
 * API 未变"; "修改 description/风险提示属于行为兼容性，需要评测而不是只看 JSON Schema") and issue
 * 30 item 5 ("a description-only change").
 *
 * How often: on a share of the servers of a round that enables F32 (serverFraction 0.75), 1 to 2
 * description changes at distinct seeded times in [1, T_heal), each of one tool drawn among the
 * tools the server lists then (in every view that lists that descriptor). Every such server has
 * its manifest file, for each identity it presents (its first and its F7 rotations').
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { stepTimes } from './internal/fragments.ts';
import { boolean } from '../plan/schema-parts.ts';
import { counts, fraction } from './rates.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /**
     * F32: the operator described this server in a manifest file, which the world hands the core
     * (`env.manifestFiles`, sim/host/operator-manifests.ts) for each identity it presents; absent: none.
     */
    operatorManifest?: boolean;
  }
}

/** How often F32 acts (scenario `faultRates.F32`), with its defaults. */
export const RATES = {
  serverFraction: fraction(
    0.75,
    'Share of the servers of a round that enables F32 that change a description (and have a manifest file).',
  ),
  changesPerServer: counts(1, 2, 'Description-only changes per server, at distinct seeded times in [1, T_heal).'),
};

/** F32: a description-only change. */
export const F32: FaultDefinition<'F32', typeof RATES> = {
  id: 'F32',
  rates: RATES,
  plan: { server: { operatorManifest: { schema: boolean } } },
  title: "a tool's description changes and nothing else: a new version, never the old one with a new text",
  lifetime: 'episode',
  probes: ['version-changed-called'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F32')),
  generate: {
    episodes(draft, rng, rates) {
      draft.server.operatorManifest = true;
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.changesPerServer), draft.scenario.tHealMs))
        draft.changes.push({ atMs, cause: 'F32', kind: 'describe', rng });
    },
  },
  fragment: (plan) => stepTimes(plan, 'F32'),
  serverReductions: (server) =>
    server.operatorManifest === true
      ? [{ name: 'no operator manifest file', server: { ...server, operatorManifest: false } }]
      : [],
};
