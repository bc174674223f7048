/**
 * Mutant walks: the reference walk with exactly one defence removed (SPEC section 12). Each is
 * as small as possible, so that what the oracle catches is that one missing defence.
 */
import { incomplete, Walk, type ScanContext } from '../../src/discovery/scan.ts';
import type { PageReply, PageSource } from '../../src/discovery/page-source.ts';

/** No final recheck: publishes right after the last page, without asking page 1 again. */
export class NoFinalRecheckWalk extends Walk {
  protected override async finalRecheck(): Promise<void> {}
}

/** First page only: treats page 1 as the whole catalog (what the SDK's own auto-refresh does). */
export class FirstPageOnlyWalk extends Walk {
  protected override checkCursor(): void {}
  protected override advance(cursorIn: string | undefined, read: Parameters<Walk['advance']>[1]): undefined {
    super.advance(cursorIn, { ...read, reply: { ...read.reply, nextCursor: undefined } });
    return undefined;
  }
}

/** No whole-catalog limits: a catalog with too many tools or descriptor bytes is proven and published. */
export class NoCatalogLimitsWalk extends Walk {
  protected override checkCatalogLimits(): void {}
}

/** No cache-scope check: a walk whose pages disagree on `cacheScope` (MCP 2026-07-28, F24) is proven and published. */
export class IgnoreCacheScopeWalk extends Walk {
  protected override checkCacheScope(): void {}
}

/** No cursor-loop detection: follows a repeated cursor (only the page limit stops it). */
export class NoCursorLoopDetectionWalk extends Walk {
  protected override checkCursor(): void {}
}

/** Binds only the last page's revision: every page overwrites the bound revision, nothing is compared. */
export class LastPageRevisionWalk extends Walk {
  protected override checkRevision(page: PageReply): void {
    if (page.revision === 'invalid') return incomplete('MALFORMED_PAGE');
    this.revision = page.revision;
  }
}

/**
 * Two equal scans taken as complete: no revision binding; instead a second full walk, and the
 * catalog counts as proven when both walks returned the same tools (blind to A-B-A changes).
 */
export class TwoEqualScansWalk extends Walk {
  protected override checkRevision(page: PageReply): void {
    if (page.revision === 'invalid') return incomplete('MALFORMED_PAGE');
    this.revision ??= page.revision;
  }

  protected override async finalRecheck(): Promise<void> {
    const first = JSON.stringify(this.pages.flatMap((page) => page.tools));
    const second: unknown[] = [];
    let cursor: string | undefined;
    do {
      const reply = await this.source.listPage(cursor, `${this.ctx.scanId}/second`, this.remainingMs());
      if (!reply.ok) return incomplete('REQUEST_FAILED');
      second.push(...reply.tools);
      cursor = reply.nextCursor;
    } while (cursor !== undefined && second.length < 10_000);
    if (JSON.stringify(second) !== first) incomplete('REVISION_MOVED');
  }
}

/** Ignores identity rotation inside a walk: only the policy epoch is re-checked per page. */
export class IgnoreIdentityWalk extends Walk {
  protected override checkIdentityAndEpoch(): void {
    if (this.ctx.policyEpoch() !== this.policyEpoch) incomplete('POLICY_EPOCH_CHANGED');
  }
}

/**
 * Takes a listing refused for authorization as an empty last page without a revision (the field
 * report: "a listing refused for authorization shown as an empty complete catalog"): a refused
 * page 1 becomes an empty catalog, observed as it stands.
 */
function authAsEmpty(source: PageSource): PageSource {
  return {
    identity: () => source.identity(),
    changeCount: () => source.changeCount(),
    listPage: async (cursor, scanId, timeoutMs) => {
      const reply = await source.listPage(cursor, scanId, timeoutMs);
      if (reply.ok || reply.kind !== 'unauthorized') return reply;
      return { ok: true, tools: [], nextCursor: undefined, revision: null, byteLength: 2 };
    },
  };
}

/** An authorization refusal read as an empty, complete listing. */
export class AuthAsEmptyWalk extends Walk {
  constructor(source: PageSource, ctx: ScanContext) {
    super(authAsEmpty(source), ctx);
  }
}

/**
 * Keeps the pages of a walk whose cursor the server refused as invalid (MCP 2026-07-28: "the
 * client SHOULD discard all cached pages and re-fetch from the beginning"): it does re-fetch from
 * page 1, under the same scan, but appends the new walk's pages to those it already read, the bug
 * of an accumulator that is not cleared on restart. At most 3 restarts per scan.
 */
export class KeepInvalidCursorPagesWalk extends Walk {
  #invalid = false;

  constructor(source: PageSource, ctx: ScanContext) {
    super(
      noteInvalidCursor(source, () => (this.#invalid = true)),
      ctx,
    );
  }

  override async run(): ReturnType<Walk['run']> {
    for (let restarts = 0; ; restarts += 1) {
      try {
        return await super.run();
      } catch (stop) {
        if (!this.#invalid || restarts >= 3) throw stop;
        this.#invalid = false;
        // The defence removed: `this.pages` is not cleared; only the cursors asked are forgotten.
        this.requested.clear();
      }
    }
  }
}

/** `source`, telling `invalid` of every page request the server refused as an invalid cursor. */
function noteInvalidCursor(source: PageSource, invalid: () => void): PageSource {
  return {
    identity: () => source.identity(),
    changeCount: () => source.changeCount(),
    listPage: async (cursor, scanId, timeoutMs) => {
      const reply = await source.listPage(cursor, scanId, timeoutMs);
      if (!reply.ok && reply.kind === 'cursor_invalid') invalid();
      return reply;
    },
  };
}
/** How many walks in a row {@link LateEmptyPublishWalk} lets end the same before it empties one. */
export const LATE_EMPTY_SAME_WALKS = 5;

/**
 * Per key (its revision memory, one per host and key: `ScanContext.watch`), the content of the
 * last walk that ended well (its revision and tools) and how many walks before it in a row ended
 * with the same.
 */
const sameWalks = new WeakMap<object, { content: string; same: number }>();

/**
 * A defect that shows only late in a quiet tail (issue 32): the walk that ends with the same
 * revision and tools as the {@link LATE_EMPTY_SAME_WALKS} walks of its key before it (the sixth
 * in a row that found nothing new; a quiet round of the default scenario reaches it some 4 s in,
 * after a round that may end early has ended) drops its pages, so the refresher publishes an
 * empty catalog bound to the server's revision. Every other walk is the reference walk.
 */
export class LateEmptyPublishWalk extends Walk {
  override async run(): ReturnType<Walk['run']> {
    const end = await super.run();
    // The tools, not the pages: a server may split the same list into other pages on every walk.
    const content = `${this.revision}|${JSON.stringify(this.pages.flatMap((page) => page.tools))}`;
    const last = sameWalks.get(this.ctx.watch);
    const same = last?.content === content ? last.same + 1 : 0;
    sameWalks.set(this.ctx.watch, { content, same });
    if (same === LATE_EMPTY_SAME_WALKS) this.pages.length = 0;
    return end;
  }
}
