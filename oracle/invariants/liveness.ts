/**
 * Liveness, I12 (SPEC section 11): by the end of the quiet tail of a settled round, every server
 * without a disqualifying trait has, for each audience the core was offered, a published
 * generation equal to that audience's final view (an audience missing from the final views has an
 * empty view). Offered means that a client of the core connected as the audience
 * (`session_opened`), or that the world's planner asked the core about it (`disclosure`,
 * `disclosure_refused`): a core that never connects, and so never shows anything, owes liveness
 * all the same, otherwise doing nothing at all would pass. Audiences never offered are owed
 * nothing.
 *
 * Judged only when `round_end.status` is `settled`: an undecided round is reported as UNDECIDED by
 * the campaign, never as a pass or a liveness failure. Per server, only the latest `server_up`
 * counts (its traits and its identity, so a core must follow a rotation), and only the latest
 * `revision` (its audiences and views). A server that never came up or never had a revision has no
 * key to judge.
 *
 * Codes: `NOT_PUBLISHED` (nothing was ever published for the key), `NOT_CONVERGED` (the latest
 * publish for the key differs from the final view, as sets of descriptor digests),
 * `DISABLED_AT_END` (the key's latest pointer event is a `server_disabled`, i.e. no publish
 * re-enabled it: the key serves nothing, so its content is not compared). At most one of these
 * per target, anchored at the round end.
 *
 * Probes (SPEC I12: "the probe calls with valid arguments are admitted", so a core that refuses
 * everything fails): every `plan_made` of kind `probe` whose `expectAdmit` is true and whose key
 * is the target's must have a gate ADMIT with the same session and planId, anywhere in the trace.
 * Codes: `PROBE_REFUSED` (anchored at its first gate decision, naming the refusal code) and
 * `PROBE_NOT_DECIDED` (no gate decision at all; anchored at the round end). A probe whose key is
 * no target's (a disqualified server, a superseded identity) is not judged: the world marks such a
 * probe `expectAdmit: false` anyway.
 *
 * Excused: a target whose key the core quarantined for PAGE_LIMIT on a walk the world proves was
 * longer than the limit ({@link pageLimitQuarantine}); QUARANTINED is terminal by SPEC section 3.
 *
 * Extension point: each (server, audience) pair is a `LivenessTarget` and every rule in
 * `TARGET_CHECKS` runs on it.
 */
import { formatCatalogKey } from '../catalog-key.ts';
import { DISQUALIFYING_TRAIT_PREFIXES, hasTraitPrefix, type ServerModel, type TrueRevision } from '../ground-truth.ts';
import { digestSetDiff } from '../internal/digest-set.ts';
import { planRef } from '../internal/plan-ref.ts';
import { pointerEventBefore } from '../observations.ts';
import type { PlanMadeEvent, RoundEndEvent, ViewTool } from '../trace.ts';
import { showDigests, shortHex, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** One catalog key liveness is demanded for, with the final truth it must reach. */
export interface LivenessTarget {
  readonly server: string;
  /** `"<latest identity>|<audience>"`. */
  readonly key: string;
  readonly audience: string;
  readonly finalRevision: TrueRevision;
  readonly finalView: readonly ViewTool[];
}

/** One liveness rule for one target; reports into `findings` (anchored at the round end). */
export type LivenessTargetCheck = (
  context: CheckContext,
  target: LivenessTarget,
  roundEnd: RoundEndEvent,
  findings: Findings,
) => void;

/** Checks I12 when the round settled. */
export function checkLiveness(context: CheckContext, findings: Findings): void {
  const roundEnd = context.truth.roundEnd;
  if (roundEnd === null || roundEnd.status !== 'settled') return;
  for (const server of context.truth.servers.values()) {
    for (const target of livenessTargets(server)) {
      if (pageLimitQuarantine(context, target) !== null) continue;
      findings.count('I12');
      for (const check of TARGET_CHECKS) check(context, target, roundEnd, findings);
    }
  }
}

/** The keys a server owes liveness for: none if it is disqualified or has no final truth. */
export function livenessTargets(server: ServerModel): LivenessTarget[] {
  const boot = server.latestBoot();
  const finalRevision = server.latestRevision();
  if (boot === null || finalRevision === null) return [];
  if (hasTraitPrefix(boot, DISQUALIFYING_TRAIT_PREFIXES)) return [];
  const offered = new Set([...server.sessionAudiences, ...server.askedAudiences]);
  return [...offered].map((audience) => ({
    server: server.id,
    key: formatCatalogKey(boot.identity, audience),
    audience,
    finalRevision,
    finalView: finalRevision.views.get(audience) ?? [],
  }));
}

/**
 * A scan of the target's key that the core ended QUARANTINED for PAGE_LIMIT when the world's own
 * record proves the walk could not end within the limit: the world served that scan
 * `pageCountMax` pages or more, the last of them with a next cursor. QUARANTINED is terminal (SPEC
 * section 3: operator attention, no automatic admission), so such a key owes no liveness. This
 * happens without a disqualifying trait when a server that pads its walk with empty pages
 * (`PAGING:empty-page-with-next`) grows a view of more than half the page limit in tools.
 * Returns the scanId, or null when there is none.
 */
export function pageLimitQuarantine(context: CheckContext, target: LivenessTarget): string | null {
  for (const [scanId, end] of context.observed.scanEnds) {
    if (
      end.state !== 'QUARANTINED' ||
      end.reason !== 'PAGE_LIMIT' ||
      context.observed.scanStarts.get(scanId)?.key !== target.key
    )
      continue;
    const served = (context.truth.scans.get(scanId)?.requests ?? []).filter(
      (request) => request.type === 'page_served' && request.audience === target.audience,
    );
    const last = served.at(-1);
    if (served.length >= context.bounds.pageCountMax && last?.type === 'page_served' && last.cursorOut !== null)
      return scanId;
  }
  return null;
}

/** The key is not DISABLED at the end, and its latest publish holds exactly the final view's tools. */
const checkConverged: LivenessTargetCheck = (context, target, roundEnd, findings) => {
  const latest = context.observed.latestPublished.get(target.key);
  const where = `server ${target.server} key ${shortKey(target.key)} at revision ${target.finalRevision.revision}`;
  const pointer = pointerEventBefore(context.observed, target.key, Number.POSITIVE_INFINITY);
  if (pointer?.type === 'server_disabled') {
    const since =
      latest === undefined ? 'nothing was ever published for it' : `its latest publish is seq ${latest.seq}`;
    findings.add(
      'I12',
      roundEnd.seq,
      'DISABLED_AT_END',
      `${where}: the key is still DISABLED since seq ${pointer.seq} (reason ${JSON.stringify(pointer.reason)}); ${since}`,
    );
    return;
  }
  if (latest === undefined) {
    findings.add(
      'I12',
      roundEnd.seq,
      'NOT_PUBLISHED',
      `${where}: nothing was published for the key by the end of the round`,
    );
    return;
  }
  const expected = target.finalView.map((tool) => tool.digest);
  const diff = digestSetDiff(
    expected,
    latest.tools.map((tool) => tool.descriptorDigest),
  );
  if (diff.missing.length === 0 && diff.extra.length === 0) return;
  findings.add(
    'I12',
    roundEnd.seq,
    'NOT_CONVERGED',
    `${where}: the latest publish (seq ${latest.seq}) is missing ${showDigests(diff.missing)} and has extra ${showDigests(diff.extra)}`,
  );
};

/** Every probe of the target's key that must be admitted was admitted (one work count each). */
const checkProbes: LivenessTargetCheck = (context, target, roundEnd, findings) => {
  for (const probe of context.truth.expectedProbesByKey.get(target.key) ?? []) {
    findings.count('I12');
    const decisions = context.observed.decisionsByPlan.get(planRef(probe.session, probe.planId)) ?? [];
    if (decisions.some((decision) => decision.decision === 'ADMIT')) continue;
    const first = decisions[0];
    if (first === undefined) {
      findings.add(
        'I12',
        roundEnd.seq,
        'PROBE_NOT_DECIDED',
        `${probeLabel(probe)} has no gate decision by the end of the round`,
      );
    } else {
      findings.add(
        'I12',
        first.seq,
        'PROBE_REFUSED',
        `${probeLabel(probe)} was refused ${first.decision} at gate decision seq ${first.seq}${decisions.length > 1 ? ` (${decisions.length} decisions, none ADMIT)` : ''}`,
      );
    }
  }
};

/** Names a probe in evidence. */
function probeLabel(probe: PlanMadeEvent): string {
  return `probe plan ${JSON.stringify(probe.planId)} of session ${JSON.stringify(probe.session)} (seq ${probe.seq}, ${JSON.stringify(probe.tool)} ${shortHex(probe.descriptorDigest)} from generation ${probe.generation} of key ${shortKey(probe.key)}), which must be admitted,`;
}

/** The rules run on every liveness target, in order. */
const TARGET_CHECKS: readonly LivenessTargetCheck[] = [checkConverged, checkProbes];
