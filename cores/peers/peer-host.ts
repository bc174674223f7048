/**
 * Peer clients run as cores, unchanged, so that the comparison with the reference core is on the
 * same work (SPEC section 12). A peer adapter only reports what the peer did in the observation
 * format (its catalogs as `published` events, unversioned and with no bound revision); it adds no
 * defence the peer lacks. Peers have no admission gate: their calls go straight to the server
 * (which refuses them for want of a lease) and no `gate_decision` is written.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { pageDigest, pageRoot, descriptorDigest } from '../../src/snapshot/digests.ts';
import { domainDigest } from '../../src/snapshot/canonical.ts';
import { THREAD_MEMOS } from '../thread-memos.ts';
import type {
  CoreAdapter,
  CoreEnvironment,
  DisclosureResult,
  SessionSpec,
  SimCallRequest,
} from '../../sim/guard/adapter.ts';

/** One catalog as a peer holds it. */
interface PeerCatalog {
  key: string;
  generation: number;
  snapshotDigest: string;
  tools: { name: string; descriptorDigest: string }[];
}

/** A page as a peer read it. */
export interface PeerPage {
  cursorIn: string | null;
  cursorOut: string | null;
  /** The revision the page reported in `_meta` (the page's digest covers it), or null. */
  revision?: number | null;
  tools: unknown[];
}

/** One tool as a peer shows it to the model: its name there and the descriptor as served. */
export interface ShownTool {
  name: string;
  descriptor: unknown;
}

/** What every peer adapter shares: publishing in the observation format, disclosure, calls. */
export abstract class PeerHost implements CoreAdapter {
  readonly #catalogs = new Map<string, PeerCatalog>();
  readonly #clients = new Map<string, Client>();
  #scans = 0;

  constructor(protected readonly env: CoreEnvironment) {}

  abstract createClient(): Client;
  abstract attach(session: SessionSpec): void;

  /**
   * A fresh scan id for a listing the peer makes itself. A boot after a host restart (F18) puts
   * its number in it (`peer-b<N>-<i>`), as the contract asks: ids are unique in a round across
   * boots (docs/CORE-API.md); boot 0's ids are unchanged.
   */
  protected nextScanId(): string {
    const boot = this.env.disk === undefined || this.env.disk.boot === 0 ? '' : `b${this.env.disk.boot}-`;
    return `peer-${boot}${this.#scans++}`;
  }

  /** Remembers the client of a key, for calls. */
  protected remember(key: string, client: Client): void {
    this.#clients.set(key, client);
  }

  /**
   * Reports a catalog the peer now uses for `key` (as the reference core's `published`): the
   * pages its walk read and, by default, their tools; a library that shows the model something
   * other than the concatenated pages (it dropped a page, renamed or filtered tools) passes
   * `shown`, the tools as the library returns them, each with its descriptor as served.
   */
  protected publish(key: string, scanId: string, pages: readonly PeerPage[], shown?: readonly ShownTool[]): void {
    const previous = this.#catalogs.get(key);
    const generation = (previous?.generation ?? 0) + 1;
    const read = pages.map((page) => ({
      cursorIn: page.cursorIn,
      cursorOut: page.cursorOut,
      pageDigest: pageDigest(
        { cursorIn: page.cursorIn, cursorOut: page.cursorOut, revision: page.revision ?? null, tools: page.tools },
        THREAD_MEMOS,
      ),
    }));
    const digests = read.map((page) => page.pageDigest);
    const listed =
      shown ??
      pages
        .flatMap((page) => page.tools)
        .map((tool) => ({ name: String((tool as { name?: unknown }).name ?? ''), descriptor: tool }));
    const tools = listed.map((tool) => ({
      name: tool.name,
      descriptorDigest: descriptorDigest(tool.descriptor, THREAD_MEMOS),
    }));
    const snapshotDigest = domainDigest('catsim.peer-snapshot.v1', { key, generation, tools });
    this.#catalogs.set(key, { key, generation, snapshotDigest, tools });
    this.env.sink.emit({
      type: 'published',
      key,
      scanId,
      generation,
      status: 'UNVERSIONED_OBSERVATION',
      sourceRevision: null,
      snapshotDigest,
      pageRoot: pageRoot(digests, THREAD_MEMOS),
      pages: read,
      tools: tools.map((tool) => ({ ...tool, verdict: 'ok' })),
      expiresAt: Number.MAX_SAFE_INTEGER,
      rolledBackFrom: null,
    });
  }

  /** A peer shows whatever it holds for the key: no expiry, no disabling, no quarantine. */
  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const catalog = this.#catalogs.get(`${identity}|${tenant}.${role}`);
    if (catalog === undefined) return { ok: false, code: 'INCOMPLETE_DISCOVERY' };
    return {
      ok: true,
      key: catalog.key,
      generation: catalog.generation,
      snapshotDigest: catalog.snapshotDigest,
      tools: catalog.tools,
    };
  }

  /** Calls by name, as the model asked, with no gate. */
  async call(request: SimCallRequest): Promise<void> {
    const client = this.#clients.get(`${request.identity}|${request.tenant}.${request.role}`);
    if (client === undefined) return;
    await client
      .request(
        { method: 'tools/call', params: { name: request.plan.toolName, arguments: request.arguments } },
        PermissiveResult,
        { timeout: 30_000 },
      )
      .catch(() => undefined);
  }

  /** Peers know nothing of policy pushes. */
  pushPolicy(): void {}

  stop(): void {}
}

/** Any result object: the peer does not look at it. */
const PermissiveResult = z.looseObject({});
