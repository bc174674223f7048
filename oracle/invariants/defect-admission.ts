/**
 * Defect admission, I5 (SPEC section 11): no planted defect (unknown dialect, unresolved or remote
 * `$ref`, over-limit, non-object root, bad name, duplicate) is ever admitted.
 *
 * Ground truth is the `defect_planted` events: a descriptor digest so labelled is defective
 * wherever it appears (the label describes the descriptor's content, so it is not tied to the
 * server or to the label's position in the trace). The trace records two admissions: a publish
 * admits each published tool whose verdict is `"ok"` into the catalog, so every published tool
 * carrying a labelled digest must have a verdict other than `"ok"`; and a gate decision at call
 * time (SPEC section 7) admits one tool to a call when it is ADMIT. The tool a gate decision
 * concerns is the one of its name in the generation active for its key at that moment (rebuilt
 * from the publishes; the plan's digest preferred among twins), or the plan's digest when that
 * generation has no such tool.
 *
 * `DUPLICATE_NAME` is the one relational label: a descriptor is a duplicate only next to its twin.
 * SPEC section 5 quarantines "a duplicate with different descriptors", names compared after the
 * normalisation hosts apply (case folded, `-` equal to `_`), so a tool labelled `DUPLICATE_NAME` is
 * judged only when the same catalog also holds a namesake with another descriptor digest. A
 * snapshot that lacks the twin (an unversioned observation may miss a page) holds no duplicate;
 * whether it should have held the twin is I1's and I2's question, not I5's.
 *
 * A gate decision's catalog, for `DUPLICATE_NAME`, is that active generation's tools.
 *
 * Code: `DEFECT_ADMITTED`, anchored at the admission (the publish or the gate decision); one
 * violation per admitted defective tool, naming the defect label, the tool name and the deciding
 * event (and, for a duplicate, its namesake).
 * Work count: every judged decision on a labelled digest, admitted or not.
 *
 * Extension point: each source in `ADMISSION_SOURCES` yields the `ToolDecision`s it finds.
 */
import { admittedTool } from '../observations.ts';
import type { GateDecisionEvent, PublishedEvent } from '../trace.ts';
import { decisionLabel, publishLabel, shortHex } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** One decision of the core on whether a tool may be used. */
export interface ToolDecision {
  /** The event that records the decision (the anchor of a violation). */
  readonly seq: number;
  /** Names the deciding event in evidence, e.g. `publish seq 12 of key 0123456789ab|acme.dev`. */
  readonly label: string;
  readonly name: string;
  readonly descriptorDigest: string;
  /** Whether the tool was admitted. */
  readonly admitted: boolean;
  /** What the core decided, as evidence words, e.g. `verdict "ok"`. */
  readonly decision: string;
  /** Every tool of the catalog the decision was made in (itself included), for `DUPLICATE_NAME`. */
  readonly catalog: readonly CatalogTool[];
}

/** A tool as a catalog lists it: its name and descriptor digest. */
export interface CatalogTool {
  readonly name: string;
  readonly descriptorDigest: string;
}

/** The label whose defect exists only next to a twin in the same catalog. */
const DUPLICATE_NAME = 'DUPLICATE_NAME';

/** Yields the tool decisions one kind of event records, in trace order. */
export type AdmissionSource = (context: CheckContext) => Iterable<ToolDecision>;

/** Checks I5 over every decision of every source. */
export function checkDefectAdmission(context: CheckContext, findings: Findings): void {
  if (context.truth.defects.size === 0) return;
  for (const source of ADMISSION_SOURCES) checkDecisions(context, source(context), findings);
}

/**
 * I5 over the given decisions: each admitted one on a digest planted with a defect is
 * `DEFECT_ADMITTED`. The black-box judge (host-wire.ts) hands in the decisions a host's wire
 * shows (what it disclosed, what it sent), which no publish or gate decision records.
 */
export function checkDecisions(context: CheckContext, decisions: Iterable<ToolDecision>, findings: Findings): void {
  const defects = context.truth.defects;
  if (defects.size === 0) return;
  for (const decision of decisions) {
    const defect = defects.get(decision.descriptorDigest);
    if (defect === undefined) continue;
    const twin = defect.defect === DUPLICATE_NAME ? namesakeOf(decision) : null;
    if (defect.defect === DUPLICATE_NAME && twin === null) continue;
    findings.count('I5');
    if (!decision.admitted) continue;
    const next = twin === null ? '' : ` next to ${JSON.stringify(twin.name)} (${shortHex(twin.descriptorDigest)})`;
    findings.add(
      'I5',
      decision.seq,
      'DEFECT_ADMITTED',
      `${decision.label} admits tool ${JSON.stringify(decision.name)} (${shortHex(decision.descriptorDigest)}) with ${decision.decision}, but it was planted with defect ${defect.defect} (seq ${defect.seq})${next}`,
    );
  }
}

/**
 * SPEC section 5's name normalisation: case folded (locale-independent), `-` equal to `_`. The
 * oracle states it itself rather than borrowing the core's.
 */
function normaliseToolName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/**
 * The first other tool of the decision's catalog whose name normalises like the decided tool's
 * and whose descriptor differs, or null. Linear in the catalog; asked only for DUPLICATE_NAME.
 */
function namesakeOf(decision: ToolDecision): CatalogTool | null {
  const name = normaliseToolName(decision.name);
  return (
    decision.catalog.find(
      (tool) => tool.descriptorDigest !== decision.descriptorDigest && normaliseToolName(tool.name) === name,
    ) ?? null
  );
}

/** Every tool of every publish: admitted into the catalog exactly when its verdict is `"ok"`. */
function* publishedToolDecisions(context: CheckContext): Iterable<ToolDecision> {
  for (const publish of context.observed.published) yield* decisionsOf(publish);
}

function* decisionsOf(publish: PublishedEvent): Iterable<ToolDecision> {
  const label = publishLabel(publish);
  for (const tool of publish.tools) {
    yield {
      seq: publish.seq,
      label,
      name: tool.name,
      descriptorDigest: tool.descriptorDigest,
      admitted: tool.verdict === 'ok',
      decision: `verdict ${JSON.stringify(tool.verdict)}`,
      catalog: publish.tools,
    };
  }
}

/** Every gate decision, ADMIT or refusal, on the tool it concerns in the active generation. */
function* gateToolDecisions(context: CheckContext): Iterable<ToolDecision> {
  for (const decision of context.observed.gateDecisions) yield gateDecisionOf(context, decision);
}

function gateDecisionOf(context: CheckContext, decision: GateDecisionEvent): ToolDecision {
  const { active, descriptorDigest } = admittedTool(context.observed, decision);
  return {
    seq: decision.seq,
    label: decisionLabel(decision),
    name: decision.tool,
    descriptorDigest,
    admitted: decision.decision === 'ADMIT',
    decision: `decision ${decision.decision}`,
    catalog: active?.tools ?? [],
  };
}

/** The sources of tool decisions, in order. */
const ADMISSION_SOURCES: readonly AdmissionSource[] = [publishedToolDecisions, gateToolDecisions];
