/**
 * Whole-catalog limits, I27 (SPEC section 5: "Limits over the whole catalog quarantine the
 * snapshot"): no catalog with more tools than the scenario's `toolCountMax`, or more bytes of
 * descriptors than its `catalogBytesMax`, is ever published, shown to a session or used for an
 * admission.
 *
 * The limits come from the header's bounds (the scenario's, never the core's). The sizes come
 * from the world: every `revision` view lists each descriptor's digest with `bytes`, the UTF-8
 * length of its compact JSON as served, so a catalog's bytes are the sum over its digests of the
 * world's numbers (a digest the world never served counts 0 here: that catalog is I1's and
 * I13's concern, not a size this oracle can know). A trace whose header lacks a limit (older
 * traces) is not judged on it; one whose views lack `bytes` is judged on the tool count only.
 *
 * Judged:
 * - every `published` (the core's claim of what it admitted into the catalog): its tools;
 * - every world `disclosure` (what the planner was really shown): its tools, so a core that
 *   shows an over-limit catalog without emitting `published` is caught too;
 * - every gate `ADMIT` whose generation's publish was over a limit.
 *
 * Codes: `OVER_LIMIT_PUBLISHED` (anchored at the publish), `OVER_LIMIT_DISCLOSED` (at the
 * disclosure), `OVER_LIMIT_ADMITTED` (at the gate decision), each naming the counts and the limit.
 * Work count: publishes plus disclosures plus ADMITs examined.
 */
import type { DisclosureEvent, GateDecisionEvent, PublishedEvent } from '../trace.ts';
import { decisionLabel, disclosureLabel, publishLabel } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** The limits a round is judged with; either may be absent in an older trace. */
interface CatalogLimits {
  readonly toolCountMax: number | undefined;
  readonly catalogBytesMax: number | undefined;
}

/** Descriptor sizes the world served, by digest; null when the trace's views carry none. */
type ServedBytes = ReadonlyMap<string, number> | null;

/** Checks I27 over every publish, disclosure and ADMIT of the round. */
export function checkCatalogLimits(context: CheckContext, findings: Findings): void {
  const limits: CatalogLimits = {
    toolCountMax: context.bounds.toolCountMax,
    catalogBytesMax: context.bounds.catalogBytesMax,
  };
  if (limits.toolCountMax === undefined && limits.catalogBytesMax === undefined) return;
  const served = servedBytes(context);
  const overPublishes = new Set<PublishedEvent>();
  for (const publish of context.observed.published) {
    findings.count('I27');
    const problem = overLimit(
      publish.tools.map((tool) => tool.descriptorDigest),
      limits,
      served,
    );
    if (problem === null) continue;
    overPublishes.add(publish);
    findings.add(
      'I27',
      publish.seq,
      'OVER_LIMIT_PUBLISHED',
      `${publishLabel(publish)} published a catalog of ${problem}`,
    );
  }
  for (const disclosure of context.truth.disclosures) {
    findings.count('I27');
    checkDisclosure(disclosure, limits, served, findings);
  }
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    findings.count('I27');
    checkAdmit(context, decision, overPublishes, findings);
  }
}

function checkDisclosure(
  disclosure: DisclosureEvent,
  limits: CatalogLimits,
  served: ServedBytes,
  findings: Findings,
): void {
  const problem = overLimit(disclosure.tools, limits, served);
  if (problem === null) return;
  findings.add(
    'I27',
    disclosure.seq,
    'OVER_LIMIT_DISCLOSED',
    `${disclosureLabel(disclosure)} showed generation ${disclosure.generation}, a catalog of ${problem}`,
  );
}

/** An ADMIT against a generation whose publish was over a limit. */
function checkAdmit(
  context: CheckContext,
  decision: GateDecisionEvent,
  overPublishes: ReadonlySet<PublishedEvent>,
  findings: Findings,
): void {
  if (decision.generation === null) return;
  const publishes = context.observed.publishesByGeneration.get(decision.key)?.get(decision.generation) ?? [];
  const over = publishes.find((publish) => publish.seq < decision.seq && overPublishes.has(publish));
  if (over === undefined) return;
  findings.add(
    'I27',
    decision.seq,
    'OVER_LIMIT_ADMITTED',
    `${decisionLabel(decision)} admitted ${JSON.stringify(decision.tool)} from generation ${decision.generation}, whose ${publishLabel(over)} was over a catalog limit`,
  );
}

/** Words for the first limit `digests` passes (tool count first, as the core checks), or null. */
function overLimit(digests: readonly string[], limits: CatalogLimits, served: ServedBytes): string | null {
  if (limits.toolCountMax !== undefined && digests.length > limits.toolCountMax) {
    return `${digests.length} tools, over toolCountMax ${limits.toolCountMax}`;
  }
  if (limits.catalogBytesMax === undefined || served === null) return null;
  let bytes = 0;
  for (const digest of digests) bytes += served.get(digest) ?? 0;
  return bytes > limits.catalogBytesMax
    ? `${bytes} bytes of descriptors, over catalogBytesMax ${limits.catalogBytesMax}`
    : null;
}

/** Each descriptor's size as the world served it, from the `revision` views; null when none carries one. */
function servedBytes(context: CheckContext): ServedBytes {
  const bytes = new Map<string, number>();
  for (const server of context.truth.servers.values()) {
    for (const revision of server.revisions) {
      for (const view of revision.views.values()) {
        for (const tool of view) if (tool.bytes !== undefined) bytes.set(tool.digest, tool.bytes);
      }
    }
  }
  return bytes.size === 0 ? null : bytes;
}
