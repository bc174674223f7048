/**
 * Generation use, I11 (SPEC sections 6 and 11): no use of an expired generation, and none while
 * the key is DISABLED.
 *
 * A use names a generation of a catalog key at virtual time `t`; the generation is the latest
 * publish of that (key, generation) before the use. A use is late when `t > expiresAt` (a
 * generation still serves at exactly `expiresAt`). A key is DISABLED from a `server_disabled` for
 * it until its next `published` (trace order); any use in between is refused by SPEC section 6.
 * The uses are the `disclosure` events and the gate's ADMIT decisions (SPEC section 7: "no
 * admission against an expired generation, and none while the server is DISABLED"); an ADMIT uses
 * the generation active for its key at that moment, rebuilt from the publishes (the latest
 * publish of the key before it), whatever generation the decision names. A rollback also uses its
 * source generation, and SPEC
 * section 6 allows it only while that one is unexpired, so a rollback published after its source's
 * `expiresAt` is late as well (a rollback is itself the publish that ends DISABLED, so the
 * DISABLED rule does not apply to it).
 *
 * Codes: `EXPIRED_GENERATION_SERVED` (a use past the generation's `expiresAt`),
 * `SERVED_WHILE_DISABLED` (a use while the key was DISABLED), `EXPIRED_ROLLBACK_SOURCE` (a rollback
 * past its source's `expiresAt`). Anchored at the use or the rollback. A use or rollback whose
 * generation was never published is not judged here: I4 and I10 report it, and I8 an ADMIT with
 * no generation at all.
 * Work count: uses plus rollbacks.
 *
 * Extension point: each source in `USE_SOURCES` yields the `GenerationUse`s it finds.
 */
import { activePublishBefore, pointerEventBefore, publishOfGeneration } from '../observations.ts';
import { rolledBackFromOf, type DisclosureEvent } from '../trace.ts';
import { decisionLabel, disclosureLabel, publishLabel, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** One use of a published generation: it must be unexpired and its key not DISABLED. */
export interface GenerationUse {
  /** The event that records the use (the anchor of a violation). */
  readonly seq: number;
  readonly t: number;
  readonly key: string;
  readonly generation: number;
  /** Names the use in evidence, with its verb, e.g. `disclosure seq 30 (...) shows`. */
  readonly action: string;
}

/** Yields the generation uses one kind of event records, in trace order. */
export type GenerationUseSource = (context: CheckContext) => Iterable<GenerationUse>;

/** Checks I11 over every use of every source and over every rollback. */
export function checkGenerationUse(context: CheckContext, findings: Findings): void {
  for (const source of USE_SOURCES) {
    for (const use of source(context)) {
      findings.count('I11');
      checkUse(context, use, findings);
    }
  }
  checkRollbackSources(context, findings);
}

function checkUse(context: CheckContext, use: GenerationUse, findings: Findings): void {
  const publish = publishOfGeneration(context.observed, use.key, use.generation, use.seq);
  if (publish === null) return;
  const what = `${use.action} generation ${use.generation} of key ${shortKey(use.key)} (publish seq ${publish.seq})`;
  if (use.t > publish.expiresAt) {
    findings.add(
      'I11',
      use.seq,
      'EXPIRED_GENERATION_SERVED',
      `${what} at t=${use.t}, past its expiresAt ${publish.expiresAt}`,
    );
  }
  const pointer = pointerEventBefore(context.observed, use.key, use.seq);
  if (pointer?.type === 'server_disabled') {
    findings.add(
      'I11',
      use.seq,
      'SERVED_WHILE_DISABLED',
      `${what} while the key was DISABLED since seq ${pointer.seq} (reason ${JSON.stringify(pointer.reason)}) with no publish after it`,
    );
  }
}

/** A rollback may only republish a generation that has not expired yet. */
function checkRollbackSources(context: CheckContext, findings: Findings): void {
  for (const publish of context.observed.published) {
    const from = rolledBackFromOf(publish);
    if (from === null) continue;
    findings.count('I11');
    const source = publishOfGeneration(context.observed, publish.key, from, publish.seq);
    if (source === null || publish.t <= source.expiresAt) continue;
    findings.add(
      'I11',
      publish.seq,
      'EXPIRED_ROLLBACK_SOURCE',
      `${publishLabel(publish)} rolls back to generation ${from} (publish seq ${source.seq}) at t=${publish.t}, past its expiresAt ${source.expiresAt}`,
    );
  }
}

/** Every disclosure uses the generation it showed. */
function* disclosureUses(context: CheckContext): Iterable<GenerationUse> {
  for (const disclosure of context.truth.disclosures) yield useOf(disclosure);
}

function useOf(disclosure: DisclosureEvent): GenerationUse {
  return {
    seq: disclosure.seq,
    t: disclosure.t,
    key: disclosure.key,
    generation: disclosure.generation,
    action: `${disclosureLabel(disclosure)} shows`,
  };
}

/** Every gate ADMIT uses the generation active for its key, if any was published. */
function* admissionUses(context: CheckContext): Iterable<GenerationUse> {
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    const active = activePublishBefore(context.observed, decision.key, decision.seq);
    if (active === null) continue;
    yield {
      seq: decision.seq,
      t: decision.t,
      key: decision.key,
      generation: active.generation,
      action: `${decisionLabel(decision)} admits ${JSON.stringify(decision.tool)} against`,
    };
  }
}

/** The sources of generation uses, in order. */
const USE_SOURCES: readonly GenerationUseSource[] = [disclosureUses, admissionUses];
