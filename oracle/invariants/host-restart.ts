/**
 * Host restart, I14-I17 (F18; the catalog-admission report's first timing window, "the process
 * restarts while pagination has only fetched half the pages"): what a new core instance may do
 * with what the dead one left.
 *
 * What the oracle reads across boots is the world's and the core's record, never the host's disk:
 * whatever schema a core keeps, it is judged on what it does. Ground truth: each `host_crashed`
 * (where the process died, and for a crash inside the publish transaction the publish it cut), the
 * `host_restarted` that follows it, and the calls servers executed with their lease ids; from the
 * core: the `published` it reported before the crash (written once the commit is on the disk) and
 * the `receipt`s, publishes and disclosures of the new boot. A boot's span runs from its
 * `host_restarted` to the next `host_crashed` (or the end).
 * - I14, no unfinished scan survives: after a crash, no `published` carries a scan started before
 *   it (`SCAN_RESUMED_AFTER_RESTART`; a scan starts at its `scan_started` or at the first request
 *   of it the world answered, whichever is earlier), and every page of a snapshot published after
 *   it was read after it by the publishing scan itself, as a page of its walk, not as its final
 *   recheck (`PAGE_FROM_BEFORE_RESTART`; for a core that reports no page reads of the scan: served
 *   to it after the crash). Rollbacks republish an earlier scan's content by design and are not
 *   judged here.
 * - I15, committed publishes survive and nothing uncommitted appears: the new boot numbers no
 *   publish of a key at or below the last generation a dead boot reported `published` for it
 *   (`COMMITTED_PUBLISH_LOST`, once per key and restart); its first publish of the key the crash
 *   cut is not numbered past the cut generation while no boot reported that one
 *   (`CUT_PUBLISH_COMMITTED`); no disclosure of the new boot shows a key older than the last
 *   generation reported before the crash, or that generation with other content
 *   (`STALE_GENERATION_SERVED`, not for a key whose loss a publish showed); and none shows the cut publish unless a boot after the crash
 *   published it again (`UNCOMMITTED_PUBLISH_SERVED`).
 * - I16, no receipt is lost: after the restart no server executes a call with a lease that was
 *   spent before the crash: one a `receipt` before it named (`RECEIPT_LOST`), or one a server
 *   executed before it with no receipt naming it (`EXECUTED_WITHOUT_RECEIPT`).
 * - I17, no lease outlives its boot's facts: a `receipt` written after a restart names no lease a
 *   receipt before the crash named or a server executed before it (`LEASE_REUSED_AFTER_RESTART`),
 *   and binds a generation some boot reported `published` before it
 *   (`LEASE_FOR_UNCOMMITTED_GENERATION`).
 *
 * Work counts: I14 publishes after a crash; I15 restarts plus disclosures after one; I16 calls
 * executed with a lease after a restart; I17 receipts after a restart. A round without restarts has
 * nothing to judge (all zero).
 */
import type {
  CallExecutedEvent,
  DisclosureEvent,
  HostCrashedEvent,
  HostRestartedEvent,
  PublishedEvent,
  ReceiptEvent,
} from '../trace.ts';
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
    restarted:
      hostRestarts.find((event) => event.seq > crash.seq && event.seq < (hostCrashes[index + 1]?.seq ?? Infinity)) ??
      null,
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
      findings.add(
        'I14',
        publish.seq,
        'SCAN_RESUMED_AFTER_RESTART',
        `${publishLabel(publish)} publishes scan "${publish.scanId}", ${when}, before the host crash at seq ${crash.seq}: a walk the dead process began must not be finished by the new one`,
      );
      continue;
    }
    const missing = publish.pages.find((page) => !readAfter(context, publish.scanId, page, crash.seq));
    if (missing !== undefined) {
      findings.add(
        'I14',
        publish.seq,
        'PAGE_FROM_BEFORE_RESTART',
        `${publishLabel(publish)} holds page ${shortHex(missing.pageDigest)} which scan "${publish.scanId}" never read after the host crash at seq ${crash.seq}`,
      );
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
function readAfter(
  context: CheckContext,
  scanId: string,
  page: { cursorIn: string | null; pageDigest: string },
  afterSeq: number,
): boolean {
  if (
    context.observed.pageReads.some(
      (read) =>
        read.seq > afterSeq &&
        !read.recheck &&
        read.scanId === scanId &&
        read.cursorIn === page.cursorIn &&
        read.pageDigest === page.pageDigest,
    )
  )
    return true;
  const requests = context.truth.scans.get(scanId)?.requests ?? [];
  return (
    !context.observed.pageReads.some((read) => read.scanId === scanId) &&
    requests.some(
      (served) =>
        served.type === 'page_served' &&
        served.seq > afterSeq &&
        served.cursorIn === page.cursorIn &&
        served.pageDigest === page.pageDigest,
    )
  );
}

/**
 * I15: what the new boot shows of a key against what the dead boots reported published before the
 * crash (a `published` is written once the commit is on the disk), whatever schema keeps it.
 */
function checkCommitted(
  context: CheckContext,
  restart: Restart & { restarted: HostRestartedEvent },
  findings: Findings,
): void {
  const { crash, restarted } = restart;
  findings.count('I15');
  const reported = lastReportedBefore(context.observed.published, crash.seq);
  const lost = new Set<string>();
  for (const publish of context.observed.published) {
    if (publish.seq < restarted.seq || publish.seq > restart.until) continue;
    checkRepublish(context, restart, reported.get(publish.key), publish, lost, findings);
  }
  for (const disclosure of context.truth.disclosures) {
    if (disclosure.seq < restarted.seq || disclosure.seq > restart.until) continue;
    findings.count('I15');
    // A key whose loss a publish already showed is reported once, not once per disclosure of it.
    checkDisclosure(
      context,
      restart,
      lost.has(disclosure.key) ? undefined : reported.get(disclosure.key),
      disclosure,
      findings,
    );
  }
}

/**
 * A publish of the new boot: a generation number at or below one a dead boot reported committed
 * means the boot does not hold that commit (`COMMITTED_PUBLISH_LOST`, once per key and restart);
 * a first publish of the key numbered past the cut publish, which no boot reported, means the boot
 * counts the cut transaction as committed (`CUT_PUBLISH_COMMITTED`).
 */
function checkRepublish(
  context: CheckContext,
  restart: Restart,
  before: PublishedEvent | undefined,
  publish: PublishedEvent,
  lost: Set<string>,
  findings: Findings,
): void {
  const { crash } = restart;
  if (before !== undefined && publish.generation <= before.generation && !lost.has(publish.key)) {
    lost.add(publish.key);
    findings.add(
      'I15',
      publish.seq,
      'COMMITTED_PUBLISH_LOST',
      `${publishLabel(publish)} numbers generation ${publish.generation} of ${shortKey(publish.key)} after the crash at seq ${crash.seq}, but ${publishLabel(before)} reported generation ${before.generation} committed before it: the new boot does not hold that commit`,
    );
    return;
  }
  const cut = crash.cut;
  if (cut === null || publish.key !== cut.key || publish.generation <= cut.generation) return;
  const first = !context.observed.published.some(
    (other) => other.seq > crash.seq && other.seq < publish.seq && other.key === publish.key,
  );
  const cutReported = context.observed.published.some(
    (other) => other.seq < publish.seq && other.key === cut.key && other.generation >= cut.generation,
  );
  if (first && !cutReported) {
    findings.add(
      'I15',
      publish.seq,
      'CUT_PUBLISH_COMMITTED',
      `${publishLabel(publish)} numbers generation ${publish.generation} of ${shortKey(publish.key)}, past generation ${cut.generation}, the publish the crash at seq ${crash.seq} cut inside its transaction and no boot reported: the new boot counts it as committed`,
    );
  }
}

/** The last `published` per key before `seq`. */
function lastReportedBefore(published: readonly PublishedEvent[], seq: number): Map<string, PublishedEvent> {
  const last = new Map<string, PublishedEvent>();
  for (const publish of published)
    if (publish.seq < seq && (last.get(publish.key)?.generation ?? 0) < publish.generation)
      last.set(publish.key, publish);
  return last;
}

function checkDisclosure(
  context: CheckContext,
  restart: Restart & { restarted: HostRestartedEvent },
  held: PublishedEvent | undefined,
  disclosure: DisclosureEvent,
  findings: Findings,
): void {
  const { crash } = restart;
  const cut = crash.cut;
  if (
    cut !== null &&
    disclosure.key === cut.key &&
    disclosure.generation === cut.generation &&
    disclosure.snapshotDigest === cut.snapshotDigest &&
    !publishedBetween(
      context,
      disclosure.key,
      disclosure.generation,
      disclosure.snapshotDigest,
      crash.seq,
      disclosure.seq,
    )
  ) {
    findings.add(
      'I15',
      disclosure.seq,
      'UNCOMMITTED_PUBLISH_SERVED',
      `${disclosureLabel(disclosure)} shows generation ${cut.generation} (${shortHex(cut.snapshotDigest)}), the publish the crash at seq ${crash.seq} cut before its commit, and no boot published it since`,
    );
    return;
  }
  if (held === undefined) return;
  const older = disclosure.generation < held.generation;
  const other = disclosure.generation === held.generation && disclosure.snapshotDigest !== held.snapshotDigest;
  if (!older && !other) return;
  findings.add(
    'I15',
    disclosure.seq,
    'STALE_GENERATION_SERVED',
    `${disclosureLabel(disclosure)} shows generation ${disclosure.generation} (${shortHex(disclosure.snapshotDigest)}) of ${shortKey(disclosure.key)}, but ${publishLabel(held)} reported generation ${held.generation} (${shortHex(held.snapshotDigest)}) committed before the crash at seq ${crash.seq}`,
  );
}

function publishedBetween(
  context: CheckContext,
  key: string,
  generation: number,
  digest: string,
  fromSeq: number,
  toSeq: number,
): boolean {
  return context.observed.published.some(
    (publish) =>
      publish.seq > fromSeq &&
      publish.seq < toSeq &&
      publish.key === key &&
      publish.generation === generation &&
      publish.snapshotDigest === digest,
  );
}

/**
 * I16: a lease spent before the crash is not spent again after the restart, by the servers'
 * record (`call_executed`): one a `receipt` before the crash named (`RECEIPT_LOST`), or one a
 * server executed before it with no receipt naming it (`EXECUTED_WITHOUT_RECEIPT`). A boot that
 * kept its receipts refuses the lease, whatever table holds them.
 */
function checkReceiptsKept(
  context: CheckContext,
  restart: Restart & { restarted: HostRestartedEvent },
  findings: Findings,
): void {
  const { crash, restarted } = restart;
  const receipted = new Map(
    context.observed.receipts.filter((receipt) => receipt.seq < crash.seq).map((receipt) => [receipt.leaseId, receipt]),
  );
  const executed = new Map(
    context.truth.callsExecuted
      .filter((call) => call.seq < crash.seq && call.leaseId !== null)
      .map((call) => [call.leaseId!, call]),
  );
  for (const call of context.truth.callsExecuted) {
    if (call.seq < restarted.seq || call.seq > restart.until || call.leaseId === null) continue;
    findings.count('I16');
    const receipt = receipted.get(call.leaseId);
    if (receipt !== undefined) {
      findings.add(
        'I16',
        call.seq,
        'RECEIPT_LOST',
        `${call.server} executed ${call.tool} with lease ${call.leaseId} at seq ${call.seq}, after the restart at seq ${restarted.seq}; the receipt of that lease (seq ${receipt.seq}) was written before the crash at seq ${crash.seq}`,
      );
      continue;
    }
    const earlier = executed.get(call.leaseId);
    if (earlier !== undefined) reportExecutedWithout(call, earlier, restart, findings);
  }
}

function reportExecutedWithout(
  call: CallExecutedEvent,
  earlier: CallExecutedEvent,
  restart: Restart & { restarted: HostRestartedEvent },
  findings: Findings,
): void {
  findings.add(
    'I16',
    call.seq,
    'EXECUTED_WITHOUT_RECEIPT',
    `${call.server} executed ${call.tool} with lease ${call.leaseId} at seq ${call.seq}, after the restart at seq ${restart.restarted.seq}; a server had executed that lease at seq ${earlier.seq}, before the crash at seq ${restart.crash.seq}, with no receipt naming it`,
  );
}

/** I17: the leases the new boot sends calls with are its own, for generations it knows committed. */
function checkLeasesAfter(
  context: CheckContext,
  restart: Restart & { restarted: HostRestartedEvent },
  findings: Findings,
): void {
  const { crash, restarted } = restart;
  const before = new Set([
    ...context.observed.receipts.filter((receipt) => receipt.seq < crash.seq).map((receipt) => receipt.leaseId),
    ...context.truth.callsExecuted
      .filter((call) => call.seq < crash.seq && call.leaseId !== null)
      .map((call) => call.leaseId!),
  ]);
  for (const receipt of context.observed.receipts) {
    if (receipt.seq < restarted.seq || receipt.seq > restart.until) continue;
    findings.count('I17');
    if (before.has(receipt.leaseId)) {
      findings.add(
        'I17',
        receipt.seq,
        'LEASE_REUSED_AFTER_RESTART',
        `receipt seq ${receipt.seq} sends a call with lease ${receipt.leaseId}, which was consumed before the crash at seq ${crash.seq}`,
      );
      continue;
    }
    if (!knownCommitted(context, receipt)) {
      findings.add(
        'I17',
        receipt.seq,
        'LEASE_FOR_UNCOMMITTED_GENERATION',
        `receipt seq ${receipt.seq} (lease ${receipt.leaseId}) binds generation ${String(receipt.generation)} of ${shortKey(receipt.key)}, which no boot reported published before it`,
      );
    }
  }
}

/** Whether a boot reported `published` for the receipt's key and generation before it (a reported publish is committed; the cut one never is reported). */
function knownCommitted(context: CheckContext, receipt: ReceiptEvent): boolean {
  return context.observed.published.some(
    (publish) => publish.seq < receipt.seq && publish.key === receipt.key && publish.generation === receipt.generation,
  );
}
