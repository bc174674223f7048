/**
 * Plan digest, I8 (SPEC sections 7 and 11): at each gate pass, the plan's descriptor digest equals
 * the one in the generation active at that moment.
 *
 * The active generation is rebuilt from the core's publishes, never taken from the decision: it
 * is the latest `published` of the decision's key strictly before the decision (rollbacks are
 * publishes too). A gate that checks the plan against the generation the plan names, or against
 * whatever generation it reports, is caught here whenever the active one says otherwise. When the
 * active generation lists the name several times (twins), matching any of them passes; admitting
 * a twin is I5's question.
 *
 * Codes, anchored at the ADMIT: `NO_ACTIVE_GENERATION` (nothing was published for the key before
 * it), `TOOL_NOT_IN_GENERATION` (the active generation has no tool of that name),
 * `STALE_PLAN_ADMITTED` (it has the name with another descriptor digest). The evidence also gives
 * the generation the gate says it checked.
 * Work count: ADMIT decisions.
 */
import { admittedTool } from '../observations.ts';
import type { GateDecisionEvent } from '../trace.ts';
import { decisionLabel, publishLabel, shortHex, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Checks I8 over every ADMIT. */
export function checkPlanDigest(context: CheckContext, findings: Findings): void {
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    findings.count('I8');
    const { active, tool } = admittedTool(context.observed, decision);
    const admits = `${decisionLabel(decision)} admits ${JSON.stringify(decision.tool)} with plan digest ${shortHex(decision.planDescriptorDigest)}`;
    if (active === null) {
      findings.add(
        'I8',
        decision.seq,
        'NO_ACTIVE_GENERATION',
        `${admits}, but nothing of key ${shortKey(decision.key)} was published before it (${gateClaim(decision)})`,
      );
    } else if (tool === null) {
      findings.add(
        'I8',
        decision.seq,
        'TOOL_NOT_IN_GENERATION',
        `${admits}, but generation ${active.generation} (${publishLabel(active)}), active at that moment, has no tool of that name (${gateClaim(decision)})`,
      );
    } else if (tool.descriptorDigest !== decision.planDescriptorDigest) {
      findings.add(
        'I8',
        decision.seq,
        'STALE_PLAN_ADMITTED',
        `${admits}, but generation ${active.generation} (${publishLabel(active)}), active at that moment, has ${shortHex(tool.descriptorDigest)} (${gateClaim(decision)})`,
      );
    }
  }
}

/** What the decision says it checked, for evidence. */
function gateClaim(decision: GateDecisionEvent): string {
  if (decision.generation === null) return 'the gate names no generation';
  const digest = decision.descriptorDigest === null ? 'no digest' : shortHex(decision.descriptorDigest);
  return `the gate says it checked generation ${decision.generation} with ${digest}`;
}
