/**
 * Snapshot completeness (SPEC section 11):
 * - I1: every snapshot published as ELIGIBLE equals the server's true set for its audience at its
 *   bound revision r, and the server served that scan a cursorless `tools/list` (the final
 *   recheck) after its last page and before the publish, reporting r;
 * - I2: no half-page admission: every published snapshot is one complete cursor chain of pages
 *   that were really served to that scan, holding exactly their tools, from one revision.
 *
 * Codes, I1: `UNKNOWN_IDENTITY` (no server presented the key's identity before the publish),
 * `NO_SOURCE_REVISION` (ELIGIBLE with `sourceRevision` null), `UNKNOWN_REVISION` (the server
 * never had revision r before the publish), `CONTENT_MISMATCH` (tool digests differ from the view
 * at r, as sets), `NO_FINAL_RECHECK` (no cursorless page served between the last page and
 * the publish, or no page served to the publish's scan at all), `RECHECK_MOVED` (a recheck was served in that window but none reported r).
 *
 * Codes, I2: `CHAIN_BROKEN` (no pages, first cursorIn not null, a link that does not follow, or a
 * last cursorOut not null), `PAGE_NOT_SERVED` (a published page has no identical served page of
 * the scan before the publish), `PAGE_FOREIGN` (the matched page was served to another audience
 * or by another server than the key names), `TOOLS_MISMATCH` (the published tools are not the
 * matched pages' tools in order), `REPORTED_MISMATCH` (ELIGIBLE, and a page reported a revision
 * other than `sourceRevision`), `MIXED_REVISIONS` (matched pages served at different true
 * revisions), `SCOPE_MIXED` (matched pages served with different `cacheScope`s, MCP 2026-07-28).
 *
 * Each check reports at most one violation per code per publish (the first instance), so that
 * one bad page does not flood a report.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { ScanRequests } from '../ground-truth.ts';
import { digestSetDiff, sameDigestSet } from '../internal/digest-set.ts';
import type { PageServedEvent, PublishedEvent, PublishedPage, ViewTool } from '../trace.ts';
import { publishLabel, shortHex, showCursor, showDigests } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/**
 * Trait prefix that exempts a server from the single-revision rule of I2: an equivocating server
 * answers one scan from diverging histories by design, which the core catches as EQUIVOCATION.
 */
const EQUIVOCATION_TRAIT_PREFIXES: readonly string[] = ['EQUIV'];

/** Checks I1 (ELIGIBLE publishes) and I2 (all publishes). */
export function checkCompleteness(context: CheckContext, findings: Findings): void {
  for (const publish of context.observed.published) {
    checkPageChain(context, publish, findings);
    if (publish.status === 'ELIGIBLE') checkBoundToTruth(context, publish, findings);
  }
}

/** The publish's tool digests, in published order. */
function publishedDigests(publish: PublishedEvent): string[] {
  return publish.tools.map((tool) => tool.descriptorDigest);
}

const label = publishLabel;

// ---------------------------------------------------------------------------------------------
// I1: the published snapshot is the true set at its revision, and the final recheck happened.
// ---------------------------------------------------------------------------------------------

/**
 * I1 for one ELIGIBLE publish. Identity, bound revision and the true revision are prerequisites,
 * so the first of them that fails ends the check; content and recheck are independent and both
 * reported.
 */
function checkBoundToTruth(context: CheckContext, publish: PublishedEvent, findings: Findings): void {
  findings.count('I1');
  const { identity, audience } = parseCatalogKey(publish.key);
  const boot = context.truth.bootForIdentity(identity, publish.seq);
  if (boot === null) {
    findings.add(
      'I1',
      publish.seq,
      'UNKNOWN_IDENTITY',
      `${label(publish)}: no server presented identity ${shortHex(identity)} before it`,
    );
    return;
  }
  const revision = publish.sourceRevision;
  if (revision === null) {
    findings.add('I1', publish.seq, 'NO_SOURCE_REVISION', `${label(publish)} is ELIGIBLE but binds no sourceRevision`);
    return;
  }
  const truths = context.truth.servers.get(boot.server)?.revisionsNumbered(revision, publish.seq) ?? [];
  if (truths.length === 0) {
    findings.add(
      'I1',
      publish.seq,
      'UNKNOWN_REVISION',
      `${label(publish)} binds revision ${revision}, which server ${boot.server} never had before it`,
    );
    return;
  }
  checkContent(
    publish,
    audience,
    truths.map((truth) => truth.views.get(audience) ?? []),
    findings,
  );
  checkFinalRecheck(context, publish, revision, findings);
}

/**
 * Compares the published digests with the true view as sets. An audience missing from a
 * revision's views sees no tools. When several revision events share the number (equivocation),
 * matching any one of them is enough; the evidence then names the latest.
 */
function checkContent(
  publish: PublishedEvent,
  audience: string,
  views: ReadonlyArray<readonly ViewTool[]>,
  findings: Findings,
): void {
  const actual = publishedDigests(publish);
  const expected = views.map((view) => view.map((tool) => tool.digest));
  if (expected.some((digests) => sameDigestSet(digests, actual))) return;
  const diff = digestSetDiff(expected[expected.length - 1] ?? [], actual);
  findings.add(
    'I1',
    publish.seq,
    'CONTENT_MISMATCH',
    `${label(publish)} differs from the ${audience} view at revision ${publish.sourceRevision}: missing ${showDigests(diff.missing)}, extra ${showDigests(diff.extra)}`,
  );
}

/**
 * The final recheck: a cursorless page served to this scan strictly after the served page that
 * matches the published last page, strictly before the publish, reporting the bound revision.
 * A scan the world served nothing at all (a scan id the core never requested a page under) had no
 * recheck either. Otherwise, when the last page is not a served end of chain, I2 reports it and
 * there is no anchor to measure "after" from, so this check stays silent.
 */
function checkFinalRecheck(context: CheckContext, publish: PublishedEvent, revision: number, findings: Findings): void {
  const last = publish.pages[publish.pages.length - 1];
  if (last === undefined || last.cursorOut !== null) return;
  const scan = context.truth.scans.get(publish.scanId);
  if (scan === undefined) {
    findings.add(
      'I1',
      publish.seq,
      'NO_FINAL_RECHECK',
      `${label(publish)}: the world served scan "${publish.scanId}" no page at all before the publish, so no final recheck either`,
    );
    return;
  }
  const anchor = scan.firstMatch(last, publish.seq);
  if (anchor === null) return;
  const window = scan.cursorless.filter((page) => page.seq > anchor.seq && page.seq < publish.seq);
  const first = window[0];
  if (first === undefined) {
    findings.add(
      'I1',
      publish.seq,
      'NO_FINAL_RECHECK',
      `${label(publish)}: no cursorless page of scan "${publish.scanId}" was served between its last page (seq ${anchor.seq}) and the publish`,
    );
  } else if (!window.some((page) => page.reported === revision)) {
    findings.add(
      'I1',
      publish.seq,
      'RECHECK_MOVED',
      `${label(publish)} binds revision ${revision} but its recheck (seq ${first.seq}) reported ${first.reported}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// I2: one complete chain of really served pages, exactly their tools, one revision.
// ---------------------------------------------------------------------------------------------

/**
 * I2 for one publish. The chain shape and the served-page match are independent; the checks on
 * matched pages (audience, tools, revisions) need every page matched.
 */
function checkPageChain(context: CheckContext, publish: PublishedEvent, findings: Findings): void {
  findings.count('I2');
  const broken = chainProblem(publish.pages);
  if (broken !== null) findings.add('I2', publish.seq, 'CHAIN_BROKEN', `${label(publish)}: ${broken}`);
  const matched = matchServedPages(context.truth.scans.get(publish.scanId), publish, findings);
  if (matched === null) return;
  checkForeignPages(context, publish, matched, findings);
  checkToolsAsServed(publish, matched, findings);
  checkReportedRevision(publish, matched, findings);
  checkMixedRevisions(context, publish, matched, findings);
  checkMixedScopes(publish, matched, findings);
}

/**
 * The matched pages all carried one `cacheScope` (MCP 2026-07-28: "Servers MUST use the same
 * cacheScope on all pages of a list"; legacy pages carry none): pages that disagree are not one
 * list, so nothing of them may be admitted (issue 29; F24 serves such walks).
 */
function checkMixedScopes(publish: PublishedEvent, matched: readonly PageServedEvent[], findings: Findings): void {
  const scopes = matched.map((page) => page.cacheScope ?? 'none');
  const other = scopes.findIndex((scope) => scope !== scopes[0]);
  if (other < 0) return;
  findings.add(
    'I2',
    publish.seq,
    'SCOPE_MIXED',
    `${label(publish)}: page 1 was served with cacheScope ${scopes[0]} (page_served seq ${matched[0]?.seq}) but page ${other + 1} with ${scopes[other]} (seq ${matched[other]?.seq}): its pages are not one list`,
  );
}

/** Describes the first way the pages fail to form one chain from no cursor to no cursor. */
function chainProblem(pages: readonly PublishedPage[]): string | null {
  const first = pages[0];
  const last = pages[pages.length - 1];
  if (first === undefined || last === undefined) return 'it has no pages';
  if (first.cursorIn !== null) return `page 1 has cursorIn ${showCursor(first.cursorIn)}, not null`;
  for (let i = 1; i < pages.length; i += 1) {
    const before = pages[i - 1];
    const page = pages[i];
    if (before !== undefined && page !== undefined && page.cursorIn !== before.cursorOut) {
      return `page ${i + 1} has cursorIn ${showCursor(page.cursorIn)} but page ${i} ended with cursorOut ${showCursor(before.cursorOut)}`;
    }
  }
  if (last.cursorOut !== null) return `the last page has cursorOut ${showCursor(last.cursorOut)}, not null`;
  return null;
}

/**
 * Finds, for each published page, the earliest identical page served to the scan before the
 * publish. Reports the first page without one and returns null, since the later checks compare
 * matched pages and would only repeat the same fault.
 */
function matchServedPages(
  scan: ScanRequests | undefined,
  publish: PublishedEvent,
  findings: Findings,
): PageServedEvent[] | null {
  const matched: PageServedEvent[] = [];
  for (const [index, page] of publish.pages.entries()) {
    const served = scan?.firstMatch(page, publish.seq) ?? null;
    if (served === null) {
      findings.add(
        'I2',
        publish.seq,
        'PAGE_NOT_SERVED',
        `${label(publish)}: page ${index + 1} (cursorIn ${showCursor(page.cursorIn)}, cursorOut ${showCursor(page.cursorOut)}, digest ${shortHex(page.pageDigest)}) was not served to scan "${publish.scanId}" before it`,
      );
      return null;
    }
    matched.push(served);
  }
  return matched;
}

/**
 * A page of this catalog key must have been served to the key's audience, and by the server that
 * presented the key's identity (when that identity is known; I1 reports unknown identities).
 */
function checkForeignPages(
  context: CheckContext,
  publish: PublishedEvent,
  matched: readonly PageServedEvent[],
  findings: Findings,
): void {
  const { identity, audience } = parseCatalogKey(publish.key);
  const server = context.truth.bootForIdentity(identity, publish.seq)?.server ?? null;
  const foreign = matched.find((page) => page.audience !== audience || (server !== null && page.server !== server));
  if (foreign === undefined) return;
  findings.add(
    'I2',
    publish.seq,
    'PAGE_FOREIGN',
    `${label(publish)}: page served at seq ${foreign.seq} went to ${foreign.server} ${foreign.audience}, not ${server ?? '?'} ${audience}`,
  );
}

/** The published tools must be the matched pages' tools, concatenated in cursor order. */
function checkToolsAsServed(publish: PublishedEvent, matched: readonly PageServedEvent[], findings: Findings): void {
  let index = 0;
  for (const page of matched) {
    for (const digest of page.tools) {
      if (publish.tools[index]?.descriptorDigest !== digest) {
        reportToolsMismatch(publish, matched, index, digest, findings);
        return;
      }
      index += 1;
    }
  }
  if (index < publish.tools.length) reportToolsMismatch(publish, matched, index, undefined, findings);
}

function reportToolsMismatch(
  publish: PublishedEvent,
  matched: readonly PageServedEvent[],
  index: number,
  servedDigest: string | undefined,
  findings: Findings,
): void {
  const publishedDigest = publish.tools[index]?.descriptorDigest;
  const has = publishedDigest === undefined ? 'nothing' : shortHex(publishedDigest);
  const want = servedDigest === undefined ? 'nothing' : shortHex(servedDigest);
  const servedCount = matched.reduce((sum, page) => sum + page.tools.length, 0);
  findings.add(
    'I2',
    publish.seq,
    'TOOLS_MISMATCH',
    `${label(publish)}: tool ${index + 1} is ${has} but the served pages have ${want} (${publish.tools.length} published, ${servedCount} served)`,
  );
}

/** ELIGIBLE: every matched page must have reported the bound revision in its `_meta`. */
function checkReportedRevision(publish: PublishedEvent, matched: readonly PageServedEvent[], findings: Findings): void {
  const bound = publish.sourceRevision;
  if (publish.status !== 'ELIGIBLE' || bound === null) return;
  const misreported = matched.find((page) => page.reported !== bound);
  if (misreported === undefined) return;
  findings.add(
    'I2',
    publish.seq,
    'REPORTED_MISMATCH',
    `${label(publish)} binds revision ${bound} but the page served at seq ${misreported.seq} reported ${misreported.reported}`,
  );
}

/**
 * Matched pages must come from one true revision. This holds for ELIGIBLE publishes and for any
 * publish whose pages carried a revision (a core that ignores a versioned server's revision is
 * still answerable for mixing); a truly unversioned source gives the core no means to avoid it.
 * Equivocating servers are exempt.
 */
function checkMixedRevisions(
  context: CheckContext,
  publish: PublishedEvent,
  matched: readonly PageServedEvent[],
  findings: Findings,
): void {
  const versioned = publish.status === 'ELIGIBLE' || matched.some((page) => page.reported !== null);
  const equivocating = matched.some(
    (page) => context.truth.servers.get(page.server)?.everHadTrait(EQUIVOCATION_TRAIT_PREFIXES) === true,
  );
  const first = matched[0];
  const other = matched.find((page) => page.revision !== first?.revision);
  if (!versioned || equivocating || first === undefined || other === undefined) return;
  findings.add(
    'I2',
    publish.seq,
    'MIXED_REVISIONS',
    `${label(publish)} mixes revision ${first.revision} (page served at seq ${first.seq}) with revision ${other.revision} (seq ${other.seq})`,
  );
}
