/**
 * What the operator faults (F26, F31, F34, F35) share: the tools a server's first revision lists,
 * from which they draw the tool an operator acts on, and the planners' rule that has runs call
 * that tool on a share of their calls, so that a run is still calling it when the operator acts.
 */
import type { CallsPlan, ServerPlan } from '../../plan/types.ts';
import type { ToolChoiceRule } from '../../planner-rules.ts';

/** The tool names a server's first revision lists to any audience, sorted (none without a revision). */
export function toolNamesListed(server: ServerPlan): string[] {
  const first = server.history[0];
  if (first === undefined) return [];
  const names = new Set(Object.values(first.views).flatMap((tools) => tools.map((tool) => String(tool.name))));
  return [...names].sort();
}

/**
 * The tool names a server's first revision lists to the audiences the world connects as (its
 * planners' sessions), sorted: a tool the planners can be shown.
 */
export function toolNamesShown(server: ServerPlan): string[] {
  const first = server.history[0];
  if (first === undefined) return [];
  const views = server.audiences.flatMap((audience) => first.views[audience] ?? []);
  return [...new Set(views.map((tool) => String(tool.name)))].sort();
}

/**
 * A planners' rule (sim/planner-rules.ts) asked at `order`: when `favoured(calls)` names a tool
 * and the disclosure shows it, that tool, with the share `fraction` of the calls (one draw of the
 * call's rng, only then). Draws nothing in a plan for which `favoured` is undefined.
 */
export function favouredToolRule(
  order: number,
  favoured: (calls: CallsPlan) => { readonly tool: string; readonly fraction: number } | undefined,
): ToolChoiceRule {
  return {
    order,
    choose(call) {
      const wanted = favoured(call.calls);
      if (wanted === undefined) return undefined;
      const tool = call.shown.find((shown) => shown.name === wanted.tool);
      if (tool === undefined || !call.rng.chance(wanted.fraction)) return undefined;
      return { tool, guessed: false };
    },
  };
}
