/**
 * F34: an alias flip mid-run. An operator points the production alias of one tool of a server
 * (`prod:<tool id>`) at a release of the contract the server lists, through `alias` of the core
 * API (optional): first at release 0 (the operator's manifest file as the world handed it), then,
 * while planners' runs that bound the alias are still calling, at release 1 (the same descriptor
 * with one change to the operator's entry: a longer timeout, compatible; a new owner or risk
 * level, behavioural; a shorter timeout, breaking, sometimes with a migration note), and
 * sometimes rolls it back. A core that keeps tool versions lets a run (a session's calls from one
 * disclosed generation) keep the version it bound for its whole life and binds the new target
 * only in runs started after the order; it refuses a breaking flip without a migration (I37,
 * oracle/invariants/aliases.ts, judged from the world's `alias_ordered` and disclosures and the
 * receipts' `version`). Every order is written as `alias_ordered` (delivered, `unsupported` for a
 * core without `alias`, or `host_down` during an F18 restart). The server is described in an
 * operator's manifest file (`operatorManifest`, as F32's), so receipts name versions.
 *
 * Models seed 004 ("业务使用 prod:jobs.rerun alias 指向一个已验证版本 ... 最后切 alias。旧版本保留兼容
 * 窗口，运行中的 Run 继续使用"; "回滚 alias 不代表回滚已产生的动作 ... Registry 只恢复后续调用") and
 * issue 30 items 3 and 5 ("an alias flip mid-run"; "no run sees a definition change mid-run, no
 * breaking change bound under an alias without a migration").
 *
 * How often: a round that enables F34 picks one server (uniformly) and one tool among the names
 * its first revision lists to the audiences its planners' sessions connect as, and orders release 1 (its change drawn uniformly among
 * the releases of the enabled kinds, a breaking one carrying a migration note with
 * migrationFraction 0.5) at a time drawn in the middle third of the longest stretch of the
 * server's history without a planned change, so that runs bound before the flip still call after
 * it; release 0 at a time drawn before that, and, with rollbackFraction 0.5, a rollback at a time
 * drawn after it, in the same stretch when there is room. The planners call the aliased tool on
 * aliasedCallFraction 0.5 of their calls from a disclosure that shows it.
 */
import type { Rng } from '../random.ts';
import type { CallsPlan, RoundPlan, ServerPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { favouredToolRule, toolNamesShown } from './internal/operator-tools.ts';
import { choices, fraction } from './rates.ts';
import { arrayOf, boolean, fractionSchema, ms, object, string } from '../plan/schema-parts.ts';
import { CHOICE_ORDER, type ToolChoiceRule } from '../planner-rules.ts';

/** The class of a release's change from release 0, by SPEC section 9's rules (the world's truth). */
export type ReleaseChange = 'compatible' | 'behavioural' | 'breaking';

/** One planned alias order (F34). */
export interface AliasOrderPlan {
  atMs: number;
  server: string;
  tool: string;
  action: 'set' | 'rollback';
  /** For `set`: 0 (the manifest file as handed) or 1 (the changed release); null for `rollback`. */
  release: number | null;
  /** For release 1: the class of its change; null otherwise. */
  change: ReleaseChange | null;
  /** For `set`: the operator's entry of the tool in the release (`{}` for release 0); null for `rollback`. */
  entry: Record<string, unknown> | null;
  /** Whether the order carries a migration note. */
  migration: boolean;
}

/** F34: the planners call the aliased tool, when a disclosure shows it, on this share of their calls. */
export interface AliasedCalls {
  tool: string;
  fraction: number;
}

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F34: an operator's orders on a tool's production alias, in time order (absent or empty: none). */
    aliasOrders?: AliasOrderPlan[];
  }
  interface CallsPlan {
    /** F34: the aliased tool the planners call on a share of their calls when shown it (absent: none). */
    aliasedCalls?: AliasedCalls;
  }
}

/**
 * The releases F34 draws release 1 from: one change to the operator's entry of a tool the file
 * does not name (so release 0 has every safest default: timeout 10,000 ms, no owner, risk
 * critical), and its class by SPEC section 9's rules.
 */
export const RELEASES: readonly { change: ReleaseChange; entry: Record<string, unknown> }[] = [
  { change: 'compatible', entry: { timeoutMs: 20_000 } },
  { change: 'behavioural', entry: { owner: 'team-release' } },
  { change: 'behavioural', entry: { riskLevel: 'high' } },
  { change: 'breaking', entry: { timeoutMs: 5_000 } },
];

/** How often F34 acts (scenario `faultRates.F34`), with its defaults. */
export const RATES = {
  changes: choices(
    ['compatible', 'behavioural', 'breaking'] as const,
    'The kinds of change release 1 is drawn from (uniformly among the releases of the enabled kinds).',
  ),
  migrationFraction: fraction(0.5, 'Share of breaking releases whose order carries a migration note.'),
  rollbackFraction: fraction(0.5, 'Share of rounds enabling F34 whose operator rolls the alias back after the flip.'),
  aliasedCallFraction: fraction(
    0.5,
    'Share of the planned calls from a disclosure that shows the aliased tool that call it (the runs that bound the alias keep calling it across the flip).',
  ),
};

/**
 * The planners' rule (sim/planner-rules.ts): with the plan's `aliasedCalls.fraction`, the aliased
 * tool when the disclosure shows it. Draws nothing in a plan without `aliasedCalls`.
 */
const ALIASED: ToolChoiceRule = favouredToolRule(CHOICE_ORDER.aliased, (calls) => calls.aliasedCalls);

const orderSchema = object({
  atMs: ms,
  server: string,
  tool: string,
  action: { enum: ['set', 'rollback'], title: 'set or rollback' },
  release: { anyOf: [{ enum: [0, 1] }, { type: 'null' }], title: '0, 1 or null' },
  change: { anyOf: [{ enum: ['compatible', 'behavioural', 'breaking'] }, { type: 'null' }], title: 'a class or null' },
  entry: { anyOf: [{ type: 'object' }, { type: 'null' }], title: "an operator's entry or null" },
  migration: boolean,
});

/**
 * The three times of a round's orders: the flip in the middle third of the longest stretch of the
 * server's history without a planned change (from one step to the next, or to T_heal), so runs
 * that bound the alias before it still hold their generation, and call, after it; the set before
 * it; the rollback after it, in the same stretch when there is room. All in [1, T_heal).
 * Undefined when T_heal leaves no room for three times.
 */
function orderTimes(
  rng: Rng,
  server: ServerPlan,
  tHealMs: number,
): { setAt: number; flipAt: number; rollbackAt: number } | undefined {
  if (tHealMs < 4) return undefined;
  const steps = [...server.history.map((step) => step.atMs).filter((atMs) => atMs < tHealMs), tHealMs];
  let [from, to] = [0, tHealMs];
  for (let at = 1; at < steps.length; at += 1) {
    const [start = 0, end = tHealMs] = [steps[at - 1], steps[at]];
    if (end - start > to - from || at === 1) [from, to] = [start, end];
  }
  const third = Math.floor((to - from) / 3);
  const flipAt = Math.min(Math.max(rng.int(from + third, to - third), 2), tHealMs - 2);
  const rollbackEnd = Math.min(Math.max(to - 1, flipAt + 1), tHealMs - 1);
  return { setAt: rng.int(1, flipAt - 1), flipAt, rollbackAt: rng.int(flipAt + 1, rollbackEnd) };
}

/** `calls` without F34's aliased calls. */
function withoutAliasedCalls(calls: CallsPlan): CallsPlan {
  const { aliasedCalls: _, ...rest } = calls;
  return rest;
}

/** F34: an alias flip mid-run. */
export const F34: FaultDefinition<'F34', typeof RATES> = {
  id: 'F34',
  rates: RATES,
  plan: {
    round: { aliasOrders: { schema: arrayOf(orderSchema, 'an array of alias orders') } },
    calls: { aliasedCalls: { schema: object({ tool: string, fraction: fractionSchema }, 'the aliased calls') } },
  },
  title:
    "an operator flips a tool's production alias mid-run (and may roll it back): runs keep the version they bound, later runs bind the new target, a breaking flip needs a migration",
  lifetime: 'episode',
  probes: ['alias-flipped'],
  plannerRules: [ALIASED],
  // An order for a server the plan no longer has (a shrink dropped it) does nothing.
  presentIn: (plan: RoundPlan) =>
    (plan.aliasOrders ?? []).some((order) => plan.servers.some((server) => server.id === order.server)),
  // The times come first from F34's own stream, so what other faults put in the plan never moves them.
  generateRound({ plan }, rng, rates) {
    if (plan.servers.length === 0) return;
    const server = rng.pick(plan.servers);
    const names = toolNamesShown(server);
    const tool = names.length === 0 ? '' : rng.pick(names);
    const releases = RELEASES.filter((release) => rates.changes.includes(release.change));
    const release = releases.length === 0 ? undefined : rng.pick(releases);
    const migration = release?.change === 'breaking' && rng.chance(rates.migrationFraction);
    const rollback = rng.chance(rates.rollbackFraction);
    const times = orderTimes(rng, server, plan.bounds.tHealMs);
    if (release === undefined || times === undefined) return;
    server.operatorManifest = true;
    plan.calls.aliasedCalls = { tool, fraction: rates.aliasedCallFraction };
    const base = { server: server.id, tool };
    plan.aliasOrders = [
      { ...base, atMs: times.setAt, action: 'set', release: 0, change: null, entry: {}, migration: false },
      {
        ...base,
        atMs: times.flipAt,
        action: 'set',
        release: 1,
        change: release.change,
        entry: release.entry,
        migration,
      },
    ];
    if (rollback)
      plan.aliasOrders.push({
        ...base,
        atMs: times.rollbackAt,
        action: 'rollback',
        release: null,
        change: null,
        entry: null,
        migration: false,
      });
  },
  // The times follow the server's history (other faults' data): only the kinds are F34's own.
  fragment: (plan) =>
    (plan.aliasOrders ?? []).map(({ action, release, change, migration }) => ({ action, release, change, migration })),
  reductions: (plan) => [
    ...(plan.aliasOrders ?? []).map((order) => ({
      name: `no alias ${order.action} at ${order.atMs} ms (${order.server} ${order.tool})`,
      plan: { ...plan, aliasOrders: (plan.aliasOrders ?? []).filter((other) => other !== order) },
    })),
    ...(plan.calls.aliasedCalls === undefined
      ? []
      : [{ name: 'no aliased calls', plan: { ...plan, calls: withoutAliasedCalls(plan.calls) } }]),
  ],
};
