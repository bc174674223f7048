/**
 * A core that lies: it reads each catalog honestly (its pages tagged with scan id `walk-N`), then
 * claims it proved it, publishing an ELIGIBLE snapshot bound to the revision the pages carried
 * under a scan id it never used (`proof-N`: no final recheck, no page ever requested under it),
 * and shows the planner that snapshot. The observations are well formed and self-consistent, the
 * tools are even the true ones; only the world's record contradicts them. It must fail I1
 * (NO_FINAL_RECHECK: the world served that scan nothing, let alone a recheck) and I2
 * (PAGE_NOT_SERVED: no published page was served to the claimed scan), test/untrusted-cores.test.ts.
 * It sends no calls, so its probes are never decided (I12) either.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  REVISION_META,
  SCAN_ID_META,
  catalogKey,
  defineCore,
  descriptorDigest,
  pageDigest,
  pageRoot,
  type CoreAdapter,
  type CoreEnvironment,
  type DisclosureResult,
  type PublishedCatalog,
  type SessionSpec,
} from 'catsim';
import { z } from 'zod';

const ListResult = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  _meta: z.looseObject({}).optional(),
});

interface Page {
  cursorIn: string | null;
  cursorOut: string | null;
  revision: number | null;
  tools: unknown[];
}

class LyingCore implements CoreAdapter {
  readonly #catalogs = new Map<string, PublishedCatalog>();
  #walks = 0;

  constructor(private readonly env: CoreEnvironment) {}

  attach(spec: SessionSpec): void {
    void spec.connector
      .connect()
      .then(async ({ client, identity }) => {
        const walk = this.#walks++;
        const pages = await readAll(client, `walk-${walk}`, this.env.bounds.pageCountMax);
        this.#claim(catalogKey(identity(), spec.tenant, spec.role), `proof-${walk}`, pages);
      })
      .catch(() => undefined);
  }

  /** Publishes `pages` as an ELIGIBLE snapshot of scan `scanId`, which never ran. */
  #claim(key: string, scanId: string, pages: Page[]): void {
    const digests = pages.map((page) => pageDigest(page));
    const tools = pages
      .flatMap((page) => page.tools)
      .map((tool) => ({
        name: String((tool as { name?: unknown }).name),
        descriptorDigest: descriptorDigest(tool),
        verdict: 'ok' as const,
      }));
    const snapshotDigest = pageRoot(digests);
    this.env.sink.emit({
      type: 'published',
      key,
      scanId,
      generation: 1,
      status: 'ELIGIBLE',
      sourceRevision: pages[0]?.revision ?? 0,
      snapshotDigest,
      pageRoot: pageRoot(digests),
      pages: pages.map((page, i) => ({
        cursorIn: page.cursorIn,
        cursorOut: page.cursorOut,
        pageDigest: digests[i] ?? '',
      })),
      tools,
      expiresAt: Number.MAX_SAFE_INTEGER,
      rolledBackFrom: null,
    });
    this.#catalogs.set(key, {
      key,
      generation: 1,
      snapshotDigest,
      tools: tools.map(({ name, descriptorDigest: digest }) => ({ name, descriptorDigest: digest })),
    });
  }

  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const catalog = this.#catalogs.get(catalogKey(identity, tenant, role));
    return catalog === undefined ? { ok: false, code: 'INCOMPLETE_DISCOVERY' } : { ok: true, ...catalog };
  }

  call(): Promise<void> {
    return Promise.resolve();
  }

  pushPolicy(): void {}

  stop(): void {}
}

/** Every page of one walk, each tagged with `scanId`, at most `pagesMax`. */
async function readAll(client: Client, scanId: string, pagesMax: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const params = { _meta: { [SCAN_ID_META]: scanId }, ...(cursor === undefined ? {} : { cursor }) };
    const result = await client.request({ method: 'tools/list', params }, ListResult);
    const revision = result._meta?.[REVISION_META];
    pages.push({
      cursorIn: cursor ?? null,
      cursorOut: result.nextCursor ?? null,
      revision: typeof revision === 'number' ? revision : null,
      tools: result.tools,
    });
    // Stop at a repeated cursor: the lie is in what is claimed, not in how the pages were read.
    cursor = pages.some((page) => page.cursorIn === result.nextCursor) ? undefined : result.nextCursor;
  } while (cursor !== undefined && pages.length < pagesMax);
  return pages;
}

export default defineCore({ name: 'lying', create: (env) => new LyingCore(env) });
