/**
 * One scan (walk) of `tools/list` for one catalog key: the state machine of SPEC section 3.
 *
 * Order of calls: {@link runScan} walks page 1 without a cursor, follows `nextCursor` while it
 * is not `undefined` (an empty string is a cursor), binds every page to page 1's revision, and,
 * for a versioned source, requests page 1 again (the final recheck) before declaring the walk
 * SNAPSHOT_PROVEN. Once the last page is read, before the recheck, the whole catalog is held to
 * the limits of SPEC section 5 (tool count, descriptor bytes): a catalog over one ends the scan
 * QUARANTINED (`TOO_MANY_TOOLS`, `CATALOG_TOO_LARGE`), so it is never published. The caller runs
 * the per-tool content checks and publishes.
 */
import type { Clock, ObservationSink } from '../ports.ts';
import { pageDigest, type DigestMemos } from '../snapshot/digests.ts';
import { catalogLimitProblem, type CatalogLimits } from '../validation/catalog-limits.ts';
import type { ScanLimits } from './config.ts';
import type { PageCache, PageFailure, PageReply, PageSource } from './page-source.ts';
import type { IncompleteReason, QuarantineReason, ScanEndState, ScanReason } from './states.ts';
import type { RevisionWatch } from './revision-watch.ts';

/** One page of a walk, as recorded in the snapshot. */
export interface PageRecord {
  cursorIn: string | null;
  cursorOut: string | null;
  revision: number | null;
  pageDigest: string;
  tools: unknown[];
  /** `JSON.stringify` of each tool as received, when the page source gave them (PageReply.toolTexts). */
  toolTexts?: readonly string[];
}

/** What a scan needs besides its page source. */
export interface ScanContext {
  scanId: string;
  /** The catalog key as written in observations: `<identity>|<tenant>.<role>`. */
  key: string;
  expectedGeneration: number;
  /** Reads the policy epoch of the scan's audience class now. */
  policyEpoch: () => number;
  clock: Clock;
  sink: ObservationSink;
  limits: ScanLimits;
  /**
   * The whole-catalog limits of the trust configuration (SPEC section 5): most tools, most bytes
   * of descriptors (compact UTF-8 JSON) in one catalog.
   */
  catalogLimits: CatalogLimits;
  /** Cross-scan revision memory of this key (backwards revisions, equivocation). */
  watch: RevisionWatch;
  /** The host's digest memos (src/memos.ts); without them every page digest is computed afresh. */
  memos?: DigestMemos;
}

/** The end of a scan. `pages` and `tools` are complete only for the two good states. */
export interface ScanOutcome {
  scanId: string;
  state: ScanEndState;
  reason: ScanReason;
  startedAt: number;
  identity: string;
  policyEpoch: number;
  revision: number | null;
  pages: PageRecord[];
  /** The one `cacheScope` every page of the walk carried (MCP 2026-07-28); absent for legacy pages. */
  cacheScope?: 'public' | 'private';
  /**
   * The server's JSON-RPC error when the scan ended on one (REQUEST_FAILED, CURSOR_INVALID), for
   * messages to a person. Never written into observations: traces carry reason codes only.
   */
  serverError?: { code: number; message: string };
}

type Stop = { state: 'INCOMPLETE'; reason: IncompleteReason } | { state: 'QUARANTINED'; reason: QuarantineReason };

/**
 * How a walk ends early: thrown by the checks, always caught by {@link runScan}. Not an `Error`:
 * it is control flow that never leaves the scan, and an `Error` would capture a stack trace on
 * every scan a notification or a limit stops.
 */
class ScanStop {
  constructor(
    readonly stop: Stop,
    readonly serverError?: { code: number; message: string },
  ) {}
}

/** Ends the walk INCOMPLETE (retried with back-off). */
export const incomplete = (reason: IncompleteReason): never => {
  throw new ScanStop({ state: 'INCOMPLETE', reason });
};
/** Ends the walk QUARANTINED (operator attention). */
export const quarantined = (reason: QuarantineReason): never => {
  throw new ScanStop({ state: 'QUARANTINED', reason });
};

/**
 * The end of a scan whose page request failed. A page longer than the transport reads is over
 * the byte limit whatever the limit says (QUARANTINED BYTE_LIMIT, SPEC section 3: more bytes than
 * the limits); every other failure may pass and is retried (INCOMPLETE).
 */
const FAILURE_STOPS: Record<PageFailure['kind'], Stop> = {
  cursor_invalid: { state: 'INCOMPLETE', reason: 'CURSOR_INVALID' },
  // Refused for authorization: the catalog is unknown (never an empty one); retried, since a
  // token may be renewed or a grant come back.
  unauthorized: { state: 'INCOMPLETE', reason: 'AUTH_REQUIRED' },
  timeout: { state: 'INCOMPLETE', reason: 'TIMEOUT' },
  disconnected: { state: 'INCOMPLETE', reason: 'DISCONNECTED' },
  too_large: { state: 'QUARANTINED', reason: 'BYTE_LIMIT' },
  malformed: { state: 'INCOMPLETE', reason: 'MALFORMED_PAGE' },
  error: { state: 'INCOMPLETE', reason: 'REQUEST_FAILED' },
};

/** Ends the walk on a failed page request, keeping the server's error for the outcome. */
const failed = (failure: PageFailure): never => {
  throw new ScanStop(FAILURE_STOPS[failure.kind], failure.serverError);
};

/** A walk implementation: {@link Walk} or a subclass with one defence removed. */
export type WalkConstructor = new (source: PageSource, ctx: ScanContext) => Walk;

/**
 * Runs one scan to its end state and emits `scan_started`, `page_read` and `scan_ended`.
 * Never rejects: every failure is an end state with a reason code. `WalkClass` is an internal
 * seam (src/internal/seams.ts): the reference {@link Walk} unless a checker-validation mutant's
 * host passes its own.
 */
export async function runScan(
  source: PageSource,
  ctx: ScanContext,
  WalkClass: WalkConstructor = Walk,
): Promise<ScanOutcome> {
  const walk = new WalkClass(source, ctx);
  ctx.sink.emit({
    type: 'scan_started',
    key: ctx.key,
    scanId: ctx.scanId,
    expectedGeneration: ctx.expectedGeneration,
    policyEpoch: walk.policyEpoch,
  });
  let end: { state: ScanEndState; reason: ScanReason };
  let serverError: { code: number; message: string } | undefined;
  try {
    end = await walk.run();
  } catch (error) {
    if (!(error instanceof ScanStop)) throw error;
    end = error.stop;
    serverError = error.serverError;
  }
  ctx.sink.emit({ type: 'scan_ended', scanId: ctx.scanId, state: end.state, reason: end.reason });
  const outcome: ScanOutcome = {
    scanId: ctx.scanId,
    ...end,
    startedAt: walk.startedAt,
    identity: walk.identity,
    policyEpoch: walk.policyEpoch,
    revision: walk.revision ?? null,
    pages: walk.pages,
    ...(walk.cacheScope == null ? {} : { cacheScope: walk.cacheScope }),
  };
  return serverError === undefined ? outcome : { ...outcome, serverError };
}

/**
 * The mutable state of one walk; every check throws a stop. Each defence is a protected method,
 * so a checker-validation mutant (cores/mutants) can remove exactly one by overriding it.
 */
export class Walk {
  readonly startedAt: number;
  readonly identity: string;
  readonly policyEpoch: number;
  readonly pages: PageRecord[] = [];
  /** `undefined` until page 1 arrives; `null` for an unversioned source. */
  revision: number | null | undefined;
  readonly #changesAtStart: number;
  protected readonly requested = new Set<string>();
  protected bytes = 0;
  /** Page 1's `cacheScope` (null: a legacy page); `undefined` until page 1 arrives. */
  cacheScope: PageCache['cacheScope'] | null | undefined;

  constructor(
    protected readonly source: PageSource,
    protected readonly ctx: ScanContext,
  ) {
    this.startedAt = ctx.clock.now();
    this.identity = source.identity();
    this.policyEpoch = ctx.policyEpoch();
    this.#changesAtStart = source.changeCount();
  }

  async run(): Promise<{ state: ScanEndState; reason: ScanReason }> {
    let cursor: string | undefined;
    do {
      cursor = this.advance(cursor, await this.read(cursor, false));
    } while (cursor !== undefined);
    this.checkCatalogLimits();
    if (this.revision === null) return { state: 'UNVERSIONED_OBSERVATION', reason: 'OK' };
    await this.finalRecheck();
    this.checkEquivocation();
    return { state: 'SNAPSHOT_PROVEN', reason: 'OK' };
  }

  /** VALIDATING: page 1 again; only its revision is compared (page sizes may legally differ). */
  protected async finalRecheck(): Promise<void> {
    await this.read(undefined, true);
  }

  /**
   * Requests one page and runs the per-page checks. A notification counted now arrived before
   * this reply, so it wins over the page's own conditions (first in event order); within the
   * page the order is identity, backwards revision, other revision (SPEC section 3).
   */
  protected async read(cursor: string | undefined, recheck: boolean): Promise<{ reply: PageReply; digest: string }> {
    if (cursor !== undefined) this.requested.add(cursor);
    const sent = this.ctx.watch.requestSent();
    const reply = await this.source.listPage(cursor, this.ctx.scanId, this.remainingMs());
    if (!reply.ok) return failed(reply);
    this.checkNotifications();
    this.checkIdentityAndEpoch();
    this.checkRevision(reply, sent, recheck);
    this.checkCacheScope(reply);
    if (this.ctx.clock.now() - this.startedAt > this.ctx.limits.scanTimeoutMs) incomplete('TIMEOUT');
    const digest = pageDigest(
      {
        cursorIn: cursor ?? null,
        cursorOut: reply.nextCursor ?? null,
        revision: this.revision ?? null,
        tools: reply.tools,
        toolTexts: reply.toolTexts,
      },
      this.ctx.memos,
    );
    this.ctx.sink.emit({
      type: 'page_read',
      scanId: this.ctx.scanId,
      cursorIn: cursor ?? null,
      cursorOut: reply.nextCursor ?? null,
      revision: this.revision ?? null,
      pageDigest: digest,
      toolCount: reply.tools.length,
      recheck,
      ...(reply.cache == null ? {} : { ttlMs: reply.cache.ttlMs, cacheScope: reply.cache.cacheScope }),
    });
    return { reply, digest };
  }

  /** A `tools/list_changed` received after the scan started ends it. */
  protected checkNotifications(): void {
    if (this.source.changeCount() !== this.#changesAtStart) incomplete('LIST_CHANGED');
  }

  protected checkIdentityAndEpoch(): void {
    if (this.source.identity() !== this.identity) incomplete('IDENTITY_CHANGED');
    if (this.ctx.policyEpoch() !== this.policyEpoch) incomplete('POLICY_EPOCH_CHANGED');
  }

  protected checkRevision(page: PageReply, sent: number, recheck: boolean): void {
    if (page.revision === 'invalid') return incomplete('MALFORMED_PAGE');
    if (page.revision !== null && this.ctx.watch.observe(page.revision, sent) === 'backwards')
      quarantined('REVISION_BACKWARDS');
    if (this.revision === undefined) {
      this.revision = page.revision;
      return;
    }
    if (page.revision !== null && this.revision !== null && page.revision < this.revision)
      quarantined('REVISION_BACKWARDS');
    if (page.revision !== this.revision) incomplete(recheck ? 'RECHECK_REVISION_MOVED' : 'REVISION_MOVED');
  }

  /**
   * Every page of one walk, the final recheck included, carries page 1's `cacheScope` (2026-07-28:
   * "Servers MUST use the same cacheScope on all pages of a list"); a legacy page carries none. A
   * walk whose pages disagree is not one list: it ends INCOMPLETE and nothing of it is admitted.
   */
  protected checkCacheScope(page: PageReply): void {
    const scope = page.cache?.cacheScope ?? null;
    if (this.cacheScope === undefined) this.cacheScope = scope;
    else if (scope !== this.cacheScope) incomplete('CACHE_SCOPE_MIXED');
  }

  /** Records the page, then decides the next cursor: repeated cursors and limits end the walk. */
  protected advance(cursorIn: string | undefined, read: { reply: PageReply; digest: string }): string | undefined {
    const { reply, digest } = read;
    this.bytes += reply.byteLength;
    const cursorOut = reply.nextCursor;
    this.pages.push({
      cursorIn: cursorIn ?? null,
      cursorOut: cursorOut ?? null,
      revision: this.revision ?? null,
      pageDigest: digest,
      tools: reply.tools,
      ...(reply.toolTexts === undefined ? {} : { toolTexts: reply.toolTexts }),
    });
    this.checkCursor(cursorOut);
    this.checkLimits(cursorOut);
    return cursorOut;
  }

  /** A cursor requested before in this scan (including a repeated empty string) is a loop. */
  protected checkCursor(cursorOut: string | undefined): void {
    if (cursorOut !== undefined && this.requested.has(cursorOut)) quarantined('CURSOR_REPEATED');
  }

  protected checkLimits(cursorOut: string | undefined): void {
    if (cursorOut !== undefined && this.pages.length >= this.ctx.limits.pageCountMax) quarantined('PAGE_LIMIT');
    if (this.bytes > this.ctx.limits.byteCountMax) quarantined('BYTE_LIMIT');
  }

  /**
   * The whole catalog the walk read is within the trust's tool count and byte limits (SPEC
   * section 5: "Limits over the whole catalog quarantine the snapshot"). Checked once, after the
   * last page: the counts only grow page by page, and a walk that never ends is stopped by the
   * page and byte limits of the scan.
   */
  protected checkCatalogLimits(): void {
    const problem = catalogLimitProblem(
      this.pages.flatMap((page) => page.tools),
      this.ctx.catalogLimits,
    );
    if (problem !== null) quarantined(problem);
  }

  /** Equivocation: this key already proved this revision with another set of descriptors. */
  protected checkEquivocation(): void {
    const texts = this.pages.flatMap(
      (page): readonly (string | undefined)[] => page.toolTexts ?? page.tools.map(() => undefined),
    );
    if (
      this.ctx.watch.equivocates(
        this.revision as number,
        this.pages.flatMap((page) => page.tools),
        texts,
      )
    )
      quarantined('EQUIVOCATION');
  }

  protected remainingMs(): number {
    return Math.max(1, this.ctx.limits.scanTimeoutMs - (this.ctx.clock.now() - this.startedAt));
  }
}
