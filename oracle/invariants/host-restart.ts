/**
 * Host restart, I14-I17 (F18; the catalog-admission report's first timing window, "the process
 * restarts while pagination has only fetched half the pages"): what a new core instance may do
 * with what the dead one left.
 *
 * Ground truth: each `host_crashed` (where the process died, and for a crash inside the publish
 * transaction the publish it cut) and the `host_restarted` that follows it (the pointers and the
 * call receipt lease ids the disk held when the new boot started, read by the world with plain
 * SQL). A boot's span runs from its `host_restarted` to the next `host_crashed` (or the end).
 * - I14, no unfinished scan survives: after a crash, no `published` carries a scan started before
 *   it (`SCAN_RESUMED_AFTER_RESTART`; a scan starts at its `scan_started` or at the first request
 *   of it the world answered, whichever is earlier), and every page of a snapshot published after
 *   it was read after it by the publishing scan itself, as a page of its walk, not as its final
 *   recheck (`PAGE_FROM_BEFORE_RESTART`; for a core that reports no page reads of the scan: served
 *   to it after the crash). Rollbacks republish an
 *   earlier scan's content by design and are not judged here.
 * - I15, committed publishes survive and nothing uncommitted appears: the disk of a restart does
 *   not hold the publish the crash cut (`CUT_PUBLISH_COMMITTED`); it holds, for every key, at least
 *   the last generation the dead boots reported `published` (`COMMITTED_PUBLISH_LOST`); during the
 *   new boot no disclosure shows a key older than the disk held, or that generation with other
 *   content (`STALE_GENERATION_SERVED`); and no disclosure shows the cut publish unless a boot
 *   after the crash published it again (`UNCOMMITTED_PUBLISH_SERVED`).
 * - I16, no receipt is lost: every lease that a `receipt` before a crash names, and every lease a
 *   server executed a call with before it, has its call receipt on the disk of the restart
 *   (`RECEIPT_LOST`, `EXECUTED_WITHOUT_RECEIPT`).
 * - I17, no lease outlives its boot's facts: a `receipt` written after a restart names no lease a
 *   receipt before it named or the disk held (`LEASE_REUSED_AFTER_RESTART`), and binds a
 *   generation the new boot can know was committed: one the disk held, or one published after the
 *   restart (`LEASE_FOR_UNCOMMITTED_GENERATION`).
 *
 * Work counts: I14 publishes after a crash; I15 restarts plus disclosures after one; I16 receipts
 * and executed calls before a crash; I17 receipts after a restart. A round without restarts has
 * nothing to judge (all zero).
 */
import type { CallExecutedEvent, DisclosureEvent, HostCrashedEvent, HostRestartedEvent, PublishedEvent, ReceiptEvent } from '../trace.ts';
import { disclosureLabel, publishLabel, shortHex, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** One restart: the crash, the boot that followed (null when the round ended first), and its span. */
interface Restart {
  crash: HostCrashedEvent;
  restarted: HostRestartedEvent | null;
  /** Seq of the next crash, or +Infinity: the new boot's span is (restarted.seq, until). */
  until: number;
}

/** Checks I14-I17 over every host restart of the round. */
export function checkHostRestart(context: CheckContext, findings: Findings): void {
  for (const restart of restartsOf(context)) {
    checkUnfinishedScans(context, restart, findings);
    if (restart.restarted === null) continue;
    checkCommitted(context, restart as Restart & { restarted: HostRestartedEvent }, findings);
    checkReceiptsKept(context, restart as Restart & { restarted: HostRestartedEvent }, findings);
    checkLeasesAfter(context, restart as Restart & { restarted: HostRestartedEvent }, findings);
  }
}

function restartsOf(context: CheckContext): Restart[] {
  const { hostCrashes, hostRestarts } = context.truth;
  return hostCrashes.map((crash, index) => ({
    crash,
    restarted: hostRestarts.find((event) => event.seq > crash.seq && event.seq < (hostCrashes[index + 1]?.seq ?? Infinity)) ?? null,
    until: hostCrashes[index + 1]?.seq ?? Infinity,
  }));
}

/** I14: publishes after the crash come from scans that started, and read every page, after it. */
function checkUnfinishedScans(context: CheckContext, restart: Restart, findings: Findings): void {
  const { crash } = restart;
  for (const publish of context.observed.published) {
    if (publish.seq < crash.seq || publish.seq > restart.until || (publish.rolledBackFrom ?? null) !== null) continue;
    findings.count('I14');
    const start = scanStartSeq(context, publish.scanId);
    if (start === null || start < crash.seq) {
      const when = start === null ? 'never started (no scan_started, no page served to it)' : `started at seq ${start}`;
      findings.add('I14', publish.seq, 'SCAN_RESUMED_AFTER_RESTART',
        `${publishLabel(publish)} publishes scan "${publish.scanId}", ${when}, before the host crash at seq ${crash.seq}: a walk the dead process began must not be finished by the new one`);
      continue;
    }
    const missing = publish.pages.find((page) => !readAfter(context, publish.scanId, page, crash.seq));
    if (missing !== undefined) {
      findings.add('I14', publish.seq, 'PAGE_FROM_BEFORE_RESTART',
        `${publishLabel(publish)} holds page ${shortHex(missing.pageDigest)} which scan "${publish.scanId}" never read after the host crash at seq ${crash.seq}`);
    }
  }
}

/**
 * When a scan began: the earlier of the core's `scan_started` and the first request of that scan
 * the world answered (ground truth: a core that reports no scans is judged by the pages it asked
 * for), or null when there is neither.
 */
function scanStartSeq(context: CheckContext, scanId: string): number | null {
  const reported = context.observed.scanStarts.get(scanId)?.seq ?? Infinity;
  const served = context.truth.scans.get(scanId)?.requests[0]?.seq ?? Infinity;
  const start = Math.min(reported, served);
  return Number.isFinite(start) ? start : null;
}

/**
 * Whether `scanId` got `page` after `afterSeq`, not as its final recheck: the core read it then,
 * or the world served it to that scan then (a core that reports no page reads is judged by what
 * the world served it).
 */
function readAfter(context: CheckContext, scanId: string, page: { cursorIn: string | null; pageDigest: string }, afterSeq: number): boolean {
  if (context.observed.pageReads.some((read) => read.seq > afterSeq && !read.recheck && read.scanId === scanId && read.cursorIn === page.cursorIn && read.pageDigest === page.pageDigest)) return true;
  const requests = context.truth.scans.get(scanId)?.requests ?? [];
  return !context.observed.pageReads.some((read) => read.scanId === scanId)
    && requests.some((served) => served.type === 'page_served' && served.seq > afterSeq && served.cursorIn === page.cursorIn && served.pageDigest === page.pageDigest);
}

/** I15: the disk of the restart, and what the new boot serves from it. */
function checkCommitted(context: CheckContext, restart: Restart & { restarted: HostRestartedEvent }, findings: Findings): void {
  const { crash, restarted } = restart;
  findings.count('I15');
  const onDisk = new Map(restarted.committed.map((pointer) => [pointer.key, pointer]));
  const cut = crash.cut;
  if (cut !== null && onDisk.get(cut.key)?.generation === cut.generation && onDisk.get(cut.key)?.snapshotDigest === cut.snapshotDigest) {
    findings.add('I15', restarted.seq, 'CUT_PUBLISH_COMMITTED',
      `the disk of host_restarted seq ${restarted.seq} holds generation ${cut.generation} of ${shortKey(cut.key)} as active, the publish the crash at seq ${crash.seq} cut inside its transaction`);
  }
  for (const [key, reported] of lastReportedBefore(context.observed.published, crash.seq)) {
    const held = onDisk.get(key)?.generation ?? 0;
    if (held >= reported.generation) continue;
    findings.add('I15', restarted.seq, 'COMMITTED_PUBLISH_LOST',
      `${publishLabel(reported)} reported generation ${reported.generation} of ${shortKey(key)} committed before the crash at seq ${crash.seq}, but the disk of host_restarted seq ${restarted.seq} holds ${held === 0 ? 'no pointer for it' : `generation ${held}`}`);
  }
  for (const disclosure of context.truth.disclosures) {
    if (disclosure.seq < restarted.seq || disclosure.seq > restart.until) continue;
    findings.count('I15');
    checkDisclosure(context, restart, onDisk.get(disclosure.key), disclosure, findings);
  }
}

/** The last `published` per key before `seq`. */
function lastReportedBefore(published: readonly PublishedEvent[], seq: number): Map<string, PublishedEvent> {
  const last = new Map<string, PublishedEvent>();
  for (const publish of published) if (publish.seq < seq && (last.get(publish.key)?.generation ?? 0) < publish.generation) last.set(publish.key, publish);
  return last;
}

function checkDisclosure(context: CheckContext, restart: Restart & { restarted: HostRestartedEvent }, held: { generation: number; snapshotDigest: string } | undefined, disclosure: DisclosureEvent, findings: Findings): void {
  const { crash, restarted } = restart;
  const cut = crash.cut;
  if (cut !== null && disclosure.key === cut.key && disclosure.generation === cut.generation && disclosure.snapshotDigest === cut.snapshotDigest
    && !publishedBetween(context, disclosure.key, disclosure.generation, disclosure.snapshotDigest, crash.seq, disclosure.seq)) {
    findings.add('I15', disclosure.seq, 'UNCOMMITTED_PUBLISH_SERVED',
      `${disclosureLabel(disclosure)} shows generation ${cut.generation} (${shortHex(cut.snapshotDigest)}), the publish the crash at seq ${crash.seq} cut before its commit, and no boot published it since`);
    return;
  }
  if (held === undefined) return;
  const older = disclosure.generation < held.generation;
  const other = disclosure.generation === held.generation && disclosure.snapshotDigest !== held.snapshotDigest;
  if (!older && !other) return;
  findings.add('I15', disclosure.seq, 'STALE_GENERATION_SERVED',
    `${disclosureLabel(disclosure)} shows generation ${disclosure.generation} (${shortHex(disclosure.snapshotDigest)}) of ${shortKey(disclosure.key)}, but the disk of host_restarted seq ${restarted.seq} held generation ${held.generation} (${shortHex(held.snapshotDigest)}) committed`);
}

function publishedBetween(context: CheckContext, key: string, generation: number, digest: string, fromSeq: number, toSeq: number): boolean {
  return context.observed.published.some((publish) => publish.seq > fromSeq && publish.seq < toSeq && publish.key === key && publish.generation === generation && publish.snapshotDigest === digest);
}

/** I16: every receipt and every executed lease from before the crash is on the disk. */
function checkReceiptsKept(context: CheckContext, restart: Restart & { restarted: HostRestartedEvent }, findings: Findings): void {
  const { crash, restarted } = restart;
  const onDisk = new Set(restarted.receipts);
  for (const receipt of context.observed.receipts) {
    if (receipt.seq > crash.seq) continue;
    findings.count('I16');
    if (!onDisk.has(receipt.leaseId)) {
      findings.add('I16', restarted.seq, 'RECEIPT_LOST',
        `the receipt of lease ${receipt.leaseId} (seq ${receipt.seq}) was written before the crash at seq ${crash.seq}, but the disk of host_restarted seq ${restarted.seq} does not hold it`);
    }
  }
  for (const call of context.truth.callsExecuted) {
    if (call.seq > crash.seq || call.leaseId === null) continue;
    findings.count('I16');
    if (!onDisk.has(call.leaseId)) reportExecutedWithout(call, restart, findings);
  }
}

function reportExecutedWithout(call: CallExecutedEvent, restart: Restart & { restarted: HostRestartedEvent }, findings: Findings): void {
  findings.add('I16', restart.restarted.seq, 'EXECUTED_WITHOUT_RECEIPT',
    `${call.server} executed ${call.tool} with lease ${call.leaseId} at seq ${call.seq}, before the crash at seq ${restart.crash.seq}, but the disk of host_restarted seq ${restart.restarted.seq} holds no receipt for it`);
}

/** I17: the leases the new boot sends calls with are its own, for generations it knows committed. */
function checkLeasesAfter(context: CheckContext, restart: Restart & { restarted: HostRestartedEvent }, findings: Findings): void {
  const { crash, restarted } = restart;
  const before = new Set([...restarted.receipts, ...context.observed.receipts.filter((receipt) => receipt.seq < crash.seq).map((receipt) => receipt.leaseId)]);
  for (const receipt of context.observed.receipts) {
    if (receipt.seq < restarted.seq || receipt.seq > restart.until) continue;
    findings.count('I17');
    if (before.has(receipt.leaseId)) {
      findings.add('I17', receipt.seq, 'LEASE_REUSED_AFTER_RESTART',
        `receipt seq ${receipt.seq} sends a call with lease ${receipt.leaseId}, which was consumed before the crash at seq ${crash.seq}`);
      continue;
    }
    if (!knownCommitted(context, restarted, receipt)) {
      findings.add('I17', receipt.seq, 'LEASE_FOR_UNCOMMITTED_GENERATION',
        `receipt seq ${receipt.seq} (lease ${receipt.leaseId}) binds generation ${String(receipt.generation)} of ${shortKey(receipt.key)}, which the disk of host_restarted seq ${restarted.seq} did not hold and no boot published since`);
    }
  }
}

function knownCommitted(context: CheckContext, restarted: HostRestartedEvent, receipt: ReceiptEvent): boolean {
  if (restarted.committed.some((pointer) => pointer.key === receipt.key && pointer.generation === receipt.generation)) return true;
  return context.observed.published.some((publish) => publish.seq > restarted.seq && publish.seq < receipt.seq && publish.key === receipt.key && publish.generation === receipt.generation);
}
