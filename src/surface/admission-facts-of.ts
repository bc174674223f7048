/**
 * The link between the catalog core and the stage: admission facts from what the host already
 * decided, without touching the host. Takes the registry's answer for the session's key (the
 * `ServeResult` of `CatalogHost.serve`, or of `CatalogHost.disclose` when showing the surface is
 * to count as a disclosure, which the gate requires before a call) and the host's policy view.
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
 * The admission facts of a request now, or why the key serves nothing (then no model request
 * should be prepared for it: there is no baseline to show).
 */
export function admissionFacts(input: AdmissionFactsInput): { ok: true; facts: AdmissionFacts } | { ok: false; code: ServeRefusal } {
  if (!input.served.ok) return { ok: false, code: input.served.code };
  const grant = { audience: { ...input.audience }, policyEpoch: input.policy.epoch(input.audience), tools: [...input.policy.grants(input.audience)] };
  const facts: AdmissionFacts = { session: input.session, generation: input.served.record, grant };
  return { ok: true, facts: input.hostTools === undefined ? facts : { ...facts, hostTools: input.hostTools } };
}
