/**
 * Scan termination, I13 (SPEC section 11): scans terminate within the page and time bounds of the
 * scenario, and no scan requests the same cursor twice.
 *
 * From the world's side (every `page_served` and `page_refused` with a scanId, in trace order):
 * at most `bounds.pageCountMax` requests with a cursor, no cursor string requested twice (the
 * empty string is a cursor), at most two cursorless requests (page 1 and the final recheck).
 * Requests that carried no scanId are judged the same way on the walks their cursors tie them into
 * (`UnlabelledWalks` in ground-truth.ts: each cursorless request begins one, so the cursorless rule
 * never fires for them), so a client that labels nothing is held to the cursor rules all the same.
 * From the core's side: each scan ends within `scanTimeoutMs + latencyMsMax` of its start, and a
 * scan that never ended had not yet exceeded that budget when the round ended. And the walk the
 * core reports is the walk the world served: every `page_read` names a page the world served to
 * that scan earlier in the trace (same scanId, cursorIn, cursorOut and pageDigest), reporting the
 * revision the read says (`reported`, null on an unversioned server), so the core's account of a
 * scan cannot be invented.
 *
 * Codes: `PAGE_LIMIT_EXCEEDED`, `CURSOR_REQUESTED_TWICE`, `EXTRA_CURSORLESS_REQUEST` (anchored at
 * the offending request), `SCAN_TOO_LONG` (anchored at `scan_ended`), `SCAN_NEVER_ENDED`
 * (anchored at `scan_started`), each at most once per scan; `PAGE_NOT_SERVED` (anchored at each
 * `page_read` without its served page).
 * Work count: scans seen by the world, scans started by the core, pages the core read.
 *
 * Byte limits (`bounds.byteCountMax`) are not judged: the trace does not record page sizes.
 */
import type { ScanRequests } from '../ground-truth.ts';
import type { PageReadEvent, PageRefusedEvent, PageServedEvent, ScanStartedEvent } from '../trace.ts';
import { shortHex, showCursor } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Page 1 and the final recheck are the only cursorless requests a scan needs. */
const CURSORLESS_REQUESTS_MAX = 2;

/** Checks I13 over every scan the world saw and every scan the core started. */
export function checkScanTermination(context: CheckContext, findings: Findings): void {
  for (const scan of [...context.truth.scans.values(), ...context.truth.unlabelledWalks.walks]) {
    findings.count('I13');
    checkRequests(scan, context.bounds.pageCountMax, findings);
  }
  for (const start of context.observed.scanStarts.values()) {
    findings.count('I13');
    checkDuration(context, start, findings);
  }
  for (const read of context.observed.pageReads) {
    findings.count('I13');
    checkRead(context, read, findings);
  }
}

/** A page the core read was served to its scan before it, reporting the revision it says. */
function checkRead(context: CheckContext, read: PageReadEvent, findings: Findings): void {
  const served = context.truth.scans.get(read.scanId)?.firstMatch(read, read.seq) ?? null;
  if (served !== null && served.reported === read.revision) return;
  const page = `page ${showCursor(read.cursorIn)} → ${showCursor(read.cursorOut)} (${shortHex(read.pageDigest)}, revision ${read.revision ?? 'none'})`;
  const why =
    served === null
      ? 'which the world never served to that scan before it'
      : `but the world served it (seq ${served.seq}) reporting revision ${served.reported ?? 'none'}`;
  findings.add(
    'I13',
    read.seq,
    'PAGE_NOT_SERVED',
    `scan "${read.scanId}" read${read.recheck ? ' as its recheck' : ''} ${page} at seq ${read.seq}, ${why}`,
  );
}

type Request = PageServedEvent | PageRefusedEvent;

/** Walks one scan's requests in order, reporting the first request that breaks each rule. */
function checkRequests(scan: ScanRequests, pageCountMax: number, findings: Findings): void {
  const firstSeqByCursor = new Map<string, number>();
  let repeatReported = false;
  let withCursor = 0;
  let cursorless = 0;
  for (const request of scan.requests) {
    if (request.cursorIn === null) {
      cursorless += 1;
      if (cursorless === CURSORLESS_REQUESTS_MAX + 1) reportExtraCursorless(scan, request, findings);
      continue;
    }
    withCursor += 1;
    if (withCursor === pageCountMax + 1) reportPageLimit(scan, request, pageCountMax, findings);
    const firstSeq = firstSeqByCursor.get(request.cursorIn);
    if (firstSeq === undefined) firstSeqByCursor.set(request.cursorIn, request.seq);
    else if (!repeatReported) repeatReported = reportRepeat(scan, request, firstSeq, findings);
  }
}

function where(scan: ScanRequests, request: Request): string {
  return `${scan.label} (${request.server} ${request.audience})`;
}

function reportExtraCursorless(scan: ScanRequests, request: Request, findings: Findings): void {
  findings.add(
    'I13',
    request.seq,
    'EXTRA_CURSORLESS_REQUEST',
    `${where(scan, request)} requested page 1 a third time at seq ${request.seq}`,
  );
}

function reportPageLimit(scan: ScanRequests, request: Request, pageCountMax: number, findings: Findings): void {
  findings.add(
    'I13',
    request.seq,
    'PAGE_LIMIT_EXCEEDED',
    `${where(scan, request)} made cursor request ${pageCountMax + 1} at seq ${request.seq}, over pageCountMax ${pageCountMax}`,
  );
}

function reportRepeat(scan: ScanRequests, request: Request, firstSeq: number, findings: Findings): true {
  findings.add(
    'I13',
    request.seq,
    'CURSOR_REQUESTED_TWICE',
    `${where(scan, request)} requested cursor ${showCursor(request.cursorIn)} at seq ${firstSeq} and again at seq ${request.seq}`,
  );
  return true;
}

/** A scan may last the scan timeout plus one reply's worst latency, and no longer. */
function checkDuration(context: CheckContext, start: ScanStartedEvent, findings: Findings): void {
  const budgetMs = context.bounds.scanTimeoutMs + context.bounds.latencyMsMax;
  const end = context.observed.scanEnds.get(start.scanId);
  // A scan whose host died (F18) ended with it: only the time it ran before the crash is judged.
  const crash = end === undefined ? context.truth.hostCrashes.find((event) => event.seq > start.seq) : undefined;
  const roundEnd = crash ?? context.truth.roundEnd;
  if (end !== undefined) {
    if (end.t - start.t <= budgetMs) return;
    findings.add(
      'I13',
      end.seq,
      'SCAN_TOO_LONG',
      `scan "${start.scanId}" ran ${end.t - start.t} ms (seq ${start.seq} to ${end.seq}), over the ${budgetMs} ms budget`,
    );
  } else if (roundEnd !== null && roundEnd !== undefined && roundEnd.t - start.t > budgetMs) {
    findings.add(
      'I13',
      start.seq,
      'SCAN_NEVER_ENDED',
      `scan "${start.scanId}" started at seq ${start.seq} never ended; ${crash === undefined ? 'the round ended' : 'its host died'} ${roundEnd.t - start.t} ms later, over the ${budgetMs} ms budget`,
    );
  }
}
