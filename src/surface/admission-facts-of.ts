/**
 * The link between the catalog core and the stage: admission facts from what the host already
 * decided, without touching the host. Takes the registry's answer for the session's key (the
 * `ServeResult` of `CatalogHost.serve`, or of `CatalogHost.disclose` when showing the surface is
 * to count as a disclosure, which the gate requires before a call) and the host's policy view.
 *
 * A policy the host has not heard yet for the audience (epoch 0: no push or poll applied, as in a
 * process that has just started on a registry it reloaded) is no decision: it gives no facts
 * (`POLICY_UNKNOWN`), never a baseline that shows none of the generation's tools (issue 36).
 */
import type { AudienceClass } from '../keys.ts';
import type { ServeRefusal, ServeResult } from '../registry/registry.ts';
import type { AdmissionFacts } from './admission-facts.ts';
import type { SurfaceTool } from './surface-tool.ts';

/** The policy view the facts read: `CatalogHost.policy` (a `PolicyState`) is one. */
export interface GrantView {
  /** The audience's policy epoch now (0 before its first update). */
  epoch(audience: AudienceClass): number;
  /** The tool names the audience holds now. */
  grants(audience: AudienceClass): readonly string[];
}

/** The inputs: the session, the registry's answer for its key, its audience, the policy view, host tools. */
export interface AdmissionFactsInput {
  session: string;
  served: ServeResult;
  audience: AudienceClass;
  policy: GrantView;
  hostTools?: readonly SurfaceTool[];
}

/**
 * Why there are no admission facts: the registry's refusal for the key, or `POLICY_UNKNOWN` when
 * the host holds no policy for the audience yet (epoch 0).
 */
export type AdmissionFactsRefusal = ServeRefusal | 'POLICY_UNKNOWN';

/**
 * The admission facts of a request now, or why there are none (then no model request should be
 * prepared: there is no baseline to show). The registry's refusal comes first; then a policy
 * epoch of 0 refuses with `POLICY_UNKNOWN` (poll the audience, e.g. `PolicyState.pollNow`, and ask
 * again).
 */
export function admissionFacts(
  input: AdmissionFactsInput,
): { ok: true; facts: AdmissionFacts } | { ok: false; code: AdmissionFactsRefusal } {
  if (!input.served.ok) return { ok: false, code: input.served.code };
  const policyEpoch = input.policy.epoch(input.audience);
  if (policyEpoch === 0) return { ok: false, code: 'POLICY_UNKNOWN' };
  const grant = { audience: { ...input.audience }, policyEpoch, tools: [...input.policy.grants(input.audience)] };
  const facts: AdmissionFacts = { session: input.session, generation: input.served.record, grant };
  return { ok: true, facts: input.hostTools === undefined ? facts : { ...facts, hostTools: input.hostTools } };
}
