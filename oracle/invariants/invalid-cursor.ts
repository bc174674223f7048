/**
 * An invalid cursor restarts the walk, I31 (SPEC section 3, "an invalid cursor ends the walk
 * INCOMPLETE CURSOR_INVALID ... the retry starts from page 1 and keeps no page of the failed walk";
 * issue 29). MCP 2026-07-28's caching page: "If a cursor becomes invalid ... the client SHOULD
 * discard all cached pages and re-fetch from the beginning", and a stateless deployment whose next
 * node does not know a cursor the last one issued (F28), or a restarted server (F11), refuses it
 * with -32602. Judged per scan from the world's record of the scan's requests (`page_refused` with
 * code -32602 and a cursor):
 * - the next request the scan's scanId carries after the refusal, if any, asks for page 1
 *   (`WALK_NOT_RESTARTED`, anchored at that request): a walk that goes on from another cursor
 *   splices the pages of two walks;
 * - every page of a snapshot the scan publishes was served to the scan after its last such
 *   refusal before the publish, each served page backing one published page and the final
 *   recheck (page 1 again after a last page) none (`INVALID_CURSOR_PAGE_KEPT`, anchored at the
 *   publish): nothing read before the refusal is admitted. A rollback's republish (`rolledBackFrom`) is not a scan's publish and is not judged.
 */
import type { PageRefusedEvent, PageServedEvent, PublishedEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** JSON-RPC's invalid params, which a server answers an invalid cursor with. */
const INVALID_PARAMS = -32602;

type Answer = PageServedEvent | PageRefusedEvent;

/** Checks I31 over every scan the server refused a cursor of. */
export function checkInvalidCursor(context: CheckContext, findings: Findings): void {
  for (const [scanId, scan] of context.truth.scans) {
    const refusals = scan.requests.filter(isInvalidCursor);
    if (refusals.length === 0) continue;
    for (const refusal of refusals) {
      findings.count('I31');
      checkRestart(scanId, scan.requests, refusal, findings);
    }
    for (const publish of context.observed.published) {
      if (publish.scanId !== scanId || (publish.rolledBackFrom ?? null) !== null) continue;
      checkPublish(scanId, scan.requests, refusals, publish, findings);
    }
  }
}

function isInvalidCursor(answer: Answer): answer is PageRefusedEvent {
  return answer.type === 'page_refused' && answer.code === INVALID_PARAMS && answer.cursorIn !== null;
}

/** The scan's next request after `refusal` asks for page 1. */
function checkRestart(
  scanId: string,
  requests: readonly Answer[],
  refusal: PageRefusedEvent,
  findings: Findings,
): void {
  const next = requests.find((answer) => answer.seq > refusal.seq);
  if (next === undefined || next.cursorIn === null) return;
  findings.add(
    'I31',
    next.seq,
    'WALK_NOT_RESTARTED',
    `scan "${scanId}" went on with cursor ${JSON.stringify(next.cursorIn)} (${next.type} seq ${next.seq}) after the server refused its cursor ${JSON.stringify(refusal.cursorIn)} as invalid (page_refused seq ${refusal.seq}, ${refusal.server} ${refusal.audience}): it must restart from page 1`,
  );
}

/** Every page `publish` holds was served to the scan after its last invalid-cursor refusal before the publish. */
function checkPublish(
  scanId: string,
  requests: readonly Answer[],
  refusals: readonly PageRefusedEvent[],
  publish: PublishedEvent,
  findings: Findings,
): void {
  const refusal = refusals.filter((candidate) => candidate.seq < publish.seq).at(-1);
  if (refusal === undefined) return;
  const after = walkPagesAfter(requests, refusal.seq, publish.seq);
  const kept = publish.pages.filter((page) => {
    const index = after.findIndex(
      (served) =>
        served.cursorIn === page.cursorIn &&
        served.cursorOut === page.cursorOut &&
        served.pageDigest === page.pageDigest,
    );
    if (index < 0) return true;
    after.splice(index, 1);
    return false;
  });
  if (kept.length === 0) return;
  findings.add(
    'I31',
    publish.seq,
    'INVALID_CURSOR_PAGE_KEPT',
    `publish seq ${publish.seq} (generation ${publish.generation}) holds ${kept.length} of its ${publish.pages.length} pages that the server did not serve scan "${scanId}" after it refused the cursor ${JSON.stringify(refusal.cursorIn)} as invalid (page_refused seq ${refusal.seq}): the pages of the failed walk must be discarded`,
  );
}

/**
 * The pages served to a scan between `fromSeq` and `toSeq` that may back a published page: a
 * cursorless page served after a last page (one with no next cursor) is the final recheck, which
 * backs none (it re-reads page 1 to prove the revision; the snapshot holds page 1 once).
 */
function walkPagesAfter(requests: readonly Answer[], fromSeq: number, toSeq: number): PageServedEvent[] {
  const pages: PageServedEvent[] = [];
  let ended = false;
  for (const answer of requests) {
    if (answer.type !== 'page_served' || answer.seq <= fromSeq || answer.seq >= toSeq) continue;
    if (ended && answer.cursorIn === null) continue;
    pages.push(answer);
    if (answer.cursorOut === null) ended = true;
  }
  return pages;
}
