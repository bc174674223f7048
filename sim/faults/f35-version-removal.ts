/**
 * F35: a version removed while runs still reference it. An operator walks the versions of one
 * tool of a server (the descriptor digests the server lists when the walk begins) through the end
 * of their lifecycle, through the core API (optional): to stage `announce` (the deprecation is
 * announced; they stay bindable and callable, so a core that refuses a call of them, from a run
 * bound before the order or after it, over-refuses), to stage `sunset` (no run may start pinning
 * them; runs under way go on) and to stage `disabled` (no call of them may run) with
 * `deprecate`'s `stage`, then orders their removal with `remove`. Sessions the world connected
 * before the walk were shown those versions and never end in a round, so their runs still
 * reference them: a core that keeps a usage graph refuses the removal (`REFERENCED`) and keeps
 * answering their later calls as disabled, never as gone; and from the `disabled` order on it
 * lets no call of them leave (I38, oracle/invariants/removal.ts, judged from the world's
 * `lifecycle_ordered` and disclosures and the core's receipts and decisions). Every order is
 * written as `lifecycle_ordered` (delivered, `unsupported` for a core without `remove` or
 * `deprecate`, or `host_down` during an F18 restart), a removal with the core's answer.
 *
 * Models seed 004 ("deprecation 包含 announce、no-new-binding、sunset、disabled 四阶段"; "下线工具版本前，
 * Registry 从 Run traces 与 Bundle manifests 构建使用图：哪些线上 Agent ... 和未完成 Runs 仍引用。不能仅凭
 * '一个月没有新调用'删除，因为长流程可能仍在等待确认") and issue 30 items 4 and 5 ("a version is never
 * removed while a run or bundle references it"; "no removal while referenced").
 *
 * How often: a round that enables F35 picks one server (uniformly) and one tool among the names
 * its first revision lists to the audiences its planners' sessions connect as, and, in the
 * longest stretch of the server's history without a planned change, orders `sunset` at a time
 * drawn in its second and third sixths, `announce` after the stretch's first instant and before
 * it (so new generations are disclosed, and new runs bind the announced versions, between the
 * two), `disabled` at most a third of a sixth after it (so a run
 * that pinned the versions before the walk is often still the session's current one, and calls
 * them, after the disabled order: a core refreshes its catalog into a new generation, and a new
 * run, every refresh interval), and `remove` in its fifth sixth; the planners call that tool on
 * walkedCallFraction 0.5 of their calls from a disclosure that shows it.
 */
import type { Rng } from '../random.ts';
import type { CallsPlan, RoundPlan, ServerPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { favouredToolRule, toolNamesShown } from './internal/operator-tools.ts';
import { fraction } from './rates.ts';
import { arrayOf, fractionSchema, ms, object, string } from '../plan/schema-parts.ts';
import { CHOICE_ORDER, type ToolChoiceRule } from '../planner-rules.ts';

/** One step of the walk: to stage `announce`, to stage `sunset`, to stage `disabled`, or the removal. */
export type LifecycleStep = 'announce' | 'sunset' | 'disabled' | 'remove';

/** One planned order of the walk (F35): at `atMs`, step `step` for the versions of `tool` of `server`. */
export interface LifecycleOrderPlan {
  atMs: number;
  server: string;
  tool: string;
  step: LifecycleStep;
}

/** F35: the planners call the walked tool, when a disclosure shows it, on this share of their calls. */
export interface WalkedCalls {
  tool: string;
  fraction: number;
}

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F35: an operator's walk of a tool's versions to their removal, in time order (absent or empty: none). */
    lifecycleOrders?: LifecycleOrderPlan[];
  }
  interface CallsPlan {
    /** F35: the walked tool the planners call on a share of their calls when shown it (absent: none). */
    walkedCalls?: WalkedCalls;
  }
}

/** The walk's steps, in order. */
export const STEPS: readonly LifecycleStep[] = ['announce', 'sunset', 'disabled', 'remove'];

/** How often F35 acts (scenario `faultRates.F35`), with its defaults. */
export const RATES = {
  walkedCallFraction: fraction(
    0.5,
    'Share of the planned calls from a disclosure that shows the walked tool that call it (the runs that pinned it keep calling it through the walk).',
  ),
};

/**
 * The planners' rule (sim/planner-rules.ts): with the plan's `walkedCalls.fraction`, the walked
 * tool when the disclosure shows it. Draws nothing in a plan without `walkedCalls`.
 */
const WALKED: ToolChoiceRule = favouredToolRule(CHOICE_ORDER.walked, (calls) => calls.walkedCalls);

/**
 * The times of the walk's four orders in the longest stretch of the server's history without a
 * planned change (from one step to the next, or to T_heal), in step order: `announce` after the
 * stretch's first instant and before `sunset` (drawn last, so the other three are the times the walk had before it
 * began with `announce`), `sunset` in its second and third sixths, `disabled` 1 ms to a third of a
 * sixth after it, `remove` in its fifth sixth; all in [1, T_heal) and increasing. Undefined when
 * the stretch is shorter than 18 ms.
 */
function walkTimes(rng: Rng, server: ServerPlan, tHealMs: number): number[] | undefined {
  const steps = [...server.history.map((step) => step.atMs).filter((atMs) => atMs < tHealMs), tHealMs];
  let [from, to] = [0, tHealMs];
  for (let at = 1; at < steps.length; at += 1) {
    const [start = 0, end = tHealMs] = [steps[at - 1], steps[at]];
    if (end - start > to - from || at === 1) [from, to] = [start, end];
  }
  const sixth = Math.floor((to - from) / 6);
  if (sixth < 3) return undefined;
  const sunsetAt = Math.max(1, rng.int(from + sixth, from + 3 * sixth - 1));
  const disabledAt = sunsetAt + rng.int(1, Math.floor(sixth / 3));
  const removeAt = rng.int(from + 4 * sixth, from + 5 * sixth - 1);
  // After the stretch's first instant (a change there may still edit the tool) and before sunset:
  // sunsetAt >= from + sixth >= from + 3, so the range is never empty.
  const announceAt = rng.int(from + 1, sunsetAt - 1);
  return [announceAt, sunsetAt, disabledAt, removeAt];
}

/** `calls` without F35's walked calls. */
function withoutWalkedCalls(calls: CallsPlan): CallsPlan {
  const { walkedCalls: _, ...rest } = calls;
  return rest;
}

/** F35: a version removed while referenced. */
export const F35: FaultDefinition<'F35', typeof RATES> = {
  id: 'F35',
  rates: RATES,
  plan: {
    round: {
      lifecycleOrders: {
        schema: arrayOf(
          object({
            atMs: ms,
            server: string,
            tool: string,
            step: { enum: ['announce', 'sunset', 'disabled', 'remove'], title: 'announce, sunset, disabled or remove' },
          }),
          'an array of lifecycle orders',
        ),
      },
    },
    calls: { walkedCalls: { schema: object({ tool: string, fraction: fractionSchema }, 'the walked calls') } },
  },
  title:
    "an operator walks a tool's versions through announce, sunset and disabled and orders their removal while runs still pin them: nothing refused at announce, no removal while referenced, no call after disabled",
  lifetime: 'episode',
  probes: ['removal-while-referenced', 'announced-still-bound'],
  plannerRules: [WALKED],
  // An order for a server the plan no longer has (a shrink dropped it) does nothing.
  presentIn: (plan: RoundPlan) =>
    (plan.lifecycleOrders ?? []).some((order) => plan.servers.some((server) => server.id === order.server)),
  // The server and tool come first from F35's own stream; the times follow the server's history.
  generateRound({ plan }, rng, rates) {
    if (plan.servers.length === 0) return;
    const server = rng.pick(plan.servers);
    const names = toolNamesShown(server);
    const tool = names.length === 0 ? '' : rng.pick(names);
    const times = walkTimes(rng, server, plan.bounds.tHealMs);
    if (times === undefined || tool === '') return;
    plan.calls.walkedCalls = { tool, fraction: rates.walkedCallFraction };
    plan.lifecycleOrders = STEPS.map((step, at) => ({ atMs: times[at] ?? 1, server: server.id, tool, step }));
  },
  // The times follow the server's history (other faults' data): only the steps are F35's own.
  fragment: (plan) => (plan.lifecycleOrders ?? []).map(({ step }) => ({ step })),
  reductions: (plan) => [
    ...(plan.lifecycleOrders ?? []).map((order) => ({
      name: `no ${order.step} at ${order.atMs} ms (${order.server} ${order.tool})`,
      plan: { ...plan, lifecycleOrders: (plan.lifecycleOrders ?? []).filter((other) => other !== order) },
    })),
    ...(plan.calls.walkedCalls === undefined
      ? []
      : [{ name: 'no walked calls', plan: { ...plan, calls: withoutWalkedCalls(plan.calls) } }]),
  ],
};
