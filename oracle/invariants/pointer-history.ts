/**
 * Pointer history, I10 (SPEC section 11): the pointer history per catalog key is one linear,
 * gap-free sequence of successful CAS steps, with source revisions never decreasing (rollbacks
 * excepted, marked).
 *
 * Per key, its `published` events in trace order (rollbacks are publishes with `rolledBackFrom`
 * non-null; a missing `rolledBackFrom` reads as null):
 * - generations run 1, 2, 3, ...: each is the previous publish's generation + 1 (1 for the first);
 * - `sourceRevision` is not lower than the previous publish's, unless the later publish is a
 *   rollback. Only consecutive publishes are compared, and only when both revisions are non-null
 *   (an unversioned observation has no revision to order);
 * - a rollback names an earlier generation of the same key (lower number, published before it)
 *   and republishes its content: the same scanId (docs/TRACE.md), sourceRevision, pageRoot and
 *   tools (names and descriptor digests, in order; verdicts are judgements, not content).
 *
 * A lost compare-and-swap (`cas_conflict`) is a step that failed, and it must say so truly: the
 * generation it names as actual is the one the key's pointer held at that moment (rebuilt from
 * the publishes before it; 0 when nothing was published), and it expected another one (a CAS
 * against the generation the pointer holds cannot lose).
 *
 * Codes: `GENERATION_GAP` (a generation above the expected one), `GENERATION_REPEATED` (a
 * generation the key already published), `GENERATION_BACKWARDS` (a generation below the expected
 * one that was never published, e.g. a first publish numbered 0), `REVISION_DECREASED`,
 * `ROLLBACK_UNKNOWN_SOURCE` (`rolledBackFrom` names no earlier generation of the key),
 * `ROLLBACK_CONTENT_MISMATCH` (the first content field that differs). All are anchored at the
 * offending publish, at most one per code per publish. The expected generation always follows
 * the previous publish as logged, so one bad number is reported once, not at every later publish.
 * `CONFLICT_MISSTATED` (the actual generation is not the pointer's) and `CONFLICT_WITHOUT_RACE`
 * (it expected the generation the pointer held), anchored at the `cas_conflict`, one per conflict.
 * Work count: publishes plus lost compare-and-swaps.
 */
import { activePublishBefore, publishOfGeneration } from '../observations.ts';
import { rolledBackFromOf, type CasConflictEvent, type PublishedEvent, type PublishedTool } from '../trace.ts';
import { publishLabel, shortHex, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Checks I10 over every publish, walking each key's history in trace order. */
export function checkPointerHistory(context: CheckContext, findings: Findings): void {
  const previousByKey = new Map<string, PublishedEvent>();
  for (const publish of context.observed.published) {
    findings.count('I10');
    const previous = previousByKey.get(publish.key) ?? null;
    checkGeneration(context, publish, previous, findings);
    checkRevision(publish, previous, findings);
    checkRollback(context, publish, findings);
    previousByKey.set(publish.key, publish);
  }
  for (const conflict of context.observed.casConflicts) {
    findings.count('I10');
    checkConflict(context, conflict, findings);
  }
}

/** A lost CAS names the generation the pointer held, and expected another. */
function checkConflict(context: CheckContext, conflict: CasConflictEvent, findings: Findings): void {
  const active = activePublishBefore(context.observed, conflict.key, conflict.seq);
  const held = active?.generation ?? 0;
  const what = `cas_conflict seq ${conflict.seq} (scan "${conflict.scanId}", key ${shortKey(conflict.key)})`;
  const pointer =
    active === null
      ? 'nothing was published for the key before it'
      : `the pointer held generation ${held} (publish seq ${active.seq})`;
  if (conflict.actualGeneration !== held) {
    findings.add(
      'I10',
      conflict.seq,
      'CONFLICT_MISSTATED',
      `${what} says generation ${conflict.actualGeneration} was active, but ${pointer}`,
    );
  } else if (conflict.expectedGeneration === held) {
    findings.add(
      'I10',
      conflict.seq,
      'CONFLICT_WITHOUT_RACE',
      `${what} says it lost expecting generation ${conflict.expectedGeneration}, but ${pointer}: that compare-and-swap could not lose`,
    );
  }
}

function label(publish: PublishedEvent): string {
  return `${publishLabel(publish)} (generation ${publish.generation})`;
}

/** The generation must be the previous one + 1. */
function checkGeneration(
  context: CheckContext,
  publish: PublishedEvent,
  previous: PublishedEvent | null,
  findings: Findings,
): void {
  const expected = (previous?.generation ?? 0) + 1;
  if (publish.generation === expected) return;
  const earlier = publishOfGeneration(context.observed, publish.key, publish.generation, publish.seq);
  if (earlier !== null) {
    findings.add(
      'I10',
      publish.seq,
      'GENERATION_REPEATED',
      `${label(publish)} repeats the generation of the publish at seq ${earlier.seq}`,
    );
    return;
  }
  const after =
    previous === null ? "for the key's first publish" : `after generation ${previous.generation} (seq ${previous.seq})`;
  const code = publish.generation > expected ? 'GENERATION_GAP' : 'GENERATION_BACKWARDS';
  findings.add('I10', publish.seq, code, `${label(publish)}: expected generation ${expected} ${after}`);
}

/** Consecutive versioned publishes never go back in source revision, rollbacks excepted. */
function checkRevision(publish: PublishedEvent, previous: PublishedEvent | null, findings: Findings): void {
  if (previous === null || rolledBackFromOf(publish) !== null) return;
  const before = previous.sourceRevision;
  const now = publish.sourceRevision;
  if (before === null || now === null || now >= before) return;
  findings.add(
    'I10',
    publish.seq,
    'REVISION_DECREASED',
    `${label(publish)} binds revision ${now}, below revision ${before} of generation ${previous.generation} (seq ${previous.seq}), and is not a rollback`,
  );
}

/** A rollback republishes the content of an earlier generation of the same key. */
function checkRollback(context: CheckContext, publish: PublishedEvent, findings: Findings): void {
  const from = rolledBackFromOf(publish);
  if (from === null) return;
  if (from >= publish.generation) {
    findings.add(
      'I10',
      publish.seq,
      'ROLLBACK_UNKNOWN_SOURCE',
      `${label(publish)} rolls back from generation ${from}, which is not below its own`,
    );
    return;
  }
  const source = publishOfGeneration(context.observed, publish.key, from, publish.seq);
  if (source === null) {
    findings.add(
      'I10',
      publish.seq,
      'ROLLBACK_UNKNOWN_SOURCE',
      `${label(publish)} rolls back from generation ${from}, which the key never published before it`,
    );
    return;
  }
  const mismatch = contentMismatch(publish, source);
  if (mismatch === null) return;
  findings.add(
    'I10',
    publish.seq,
    'ROLLBACK_CONTENT_MISMATCH',
    `${label(publish)} rolls back from generation ${from} (seq ${source.seq}) but ${mismatch}`,
  );
}

/** Describes the first content field in which a rollback differs from its source, or null. */
function contentMismatch(rollback: PublishedEvent, source: PublishedEvent): string | null {
  if (rollback.scanId !== source.scanId)
    return `its scanId is ${JSON.stringify(rollback.scanId)}, not ${JSON.stringify(source.scanId)}`;
  if (rollback.sourceRevision !== source.sourceRevision)
    return `its sourceRevision is ${rollback.sourceRevision}, not ${source.sourceRevision}`;
  if (rollback.pageRoot !== source.pageRoot)
    return `its pageRoot is ${shortHex(rollback.pageRoot)}, not ${shortHex(source.pageRoot)}`;
  const count = Math.max(rollback.tools.length, source.tools.length);
  for (let index = 0; index < count; index += 1) {
    const has = rollback.tools[index];
    const want = source.tools[index];
    if (has?.name === want?.name && has?.descriptorDigest === want?.descriptorDigest) continue;
    return `its tool ${index + 1} is ${showTool(has)}, not ${showTool(want)}`;
  }
  return null;
}

function showTool(tool: PublishedTool | undefined): string {
  return tool === undefined ? 'nothing' : `${JSON.stringify(tool.name)} (${shortHex(tool.descriptorDigest)})`;
}
