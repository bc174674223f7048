/**
 * Peer clients run as cores, unchanged, so that the comparison with the reference core is on the
 * same work (SPEC section 12). A peer adapter only reports what the peer did in the observation
 * format (its catalogs as `published` events, unversioned and with no bound revision); it adds no
 * defence the peer lacks. Peers have no admission gate: each is judged under the lease convention
 * of a host without one (`GatelessCalls`, api/gateless-calls.ts, the same code the templates
 * use): a call the peer sends is its ADMIT, carries the testbed's lease and has its receipt; a
 * call it does not send is its refusal.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { GatelessCalls, type NotSent } from '../../api/gateless-calls.ts';
import type { WireWatch } from '../../api/wire-watch.ts';
import { pageDigest, pageRoot, descriptorDigest } from '../../src/snapshot/digests.ts';
import { domainDigest } from '../../src/snapshot/canonical.ts';
import { THREAD_MEMOS } from '../thread-memos.ts';
import type {
  CoreAdapter,
  CoreEnvironment,
  DisclosureResult,
  PolicyUpdate,
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

/** How a peer's library sends one call by name: resolves or rejects as the library does. */
export type PeerSend = (name: string, args: Record<string, unknown>) => Promise<unknown>;

/** What a peer holds for a key: the watch on its connection and the library's call path. */
interface Held extends HeldOptions {
  wire: WireWatch;
  send: PeerSend;
}

/** How a peer's call path differs from the default one. */
export interface HeldOptions {
  /** The decision on a call the library did not send (default GatelessCalls'). */
  notSent?: NotSent;
  /** The served name of a tool the library shows under another name (default: the same). */
  servedName?: (shownName: string) => string;
}

/** One open session of an adapter: its audience, its connection's identity now, its host. */
interface Session<H> {
  audience: string;
  identity: () => string;
  host: H;
}

/**
 * The sessions of an adapter (one library client per catalog key), found by the catalog key their
 * connection presents now. Keying a client by the identity its connection opened with loses it at
 * the first rotation: a turn-driven adapter runs no turn for the key at the new identity, and no
 * call at the new identity is sent, which no user of the library would see.
 */
export class Sessions<H> {
  readonly #open: Session<H>[] = [];

  /** Adds a session once its connection is open; `identity` is the connection's `identity()`. */
  add(tenant: string, role: string, identity: () => string, host: H): void {
    this.#open.push({ audience: `${tenant}.${role}`, identity, host });
  }

  /** The host of the latest session whose connection presents `identity` now for `tenant.role`, if any. */
  find(tenant: string, role: string, identity: string): H | undefined {
    for (let index = this.#open.length - 1; index >= 0; index -= 1) {
      const session = this.#open[index]!;
      if (session.audience === `${tenant}.${role}` && session.identity() === identity) return session.host;
    }
    return undefined;
  }
}

/** The catalog key a connection presents now: `identity()|tenant.role` (docs/CORE-API.md). */
export function keyNow(identity: () => string, tenant: string, role: string): string {
  return `${identity()}|${tenant}.${role}`;
}

/** What every peer adapter shares: publishing in the observation format, disclosure, calls. */
export abstract class PeerHost implements CoreAdapter {
  readonly #catalogs = new Map<string, PeerCatalog>();
  readonly #held = new Map<string, Held>();
  /** The call paths of sessions remembered by the identity their connection presents now. */
  readonly #live = new Sessions<Held>();
  readonly #calls: GatelessCalls;
  #scans = 0;

  constructor(protected readonly env: CoreEnvironment) {
    const boot = env.disk === undefined || env.disk.boot === 0 ? '' : `b${env.disk.boot}-`;
    this.#calls = new GatelessCalls(env, { leaseIdPrefix: `peer-lease-${boot}` });
  }

  createClient?(): Client;

  /** Starts serving one catalog key: the adapter polls the audience's policy (for valid leases), the peer connects. */
  attach(session: SessionSpec): void {
    this.#calls.watchPolicy(session.tenant, session.role);
    this.open(session);
  }

  /** Connects the peer's library for one catalog key (through `session.connector`). */
  protected abstract open(session: SessionSpec): void;

  /**
   * A fresh scan id for a listing the peer makes itself. A boot after a host restart (F18) puts
   * its number in it (`peer-b<N>-<i>`), as the contract asks: ids are unique in a round across
   * boots (docs/CORE-API.md); boot 0's ids are unchanged.
   */
  protected nextScanId(): string {
    const boot = this.env.disk === undefined || this.env.disk.boot === 0 ? '' : `b${this.env.disk.boot}-`;
    return `peer-${boot}${this.#scans++}`;
  }

  /**
   * Remembers how the library calls for a key: the watch on its connection and its call path
   * (`options`: how it decides a call it did not send, and which served name a shown name stands for).
   */
  protected remember(key: string, wire: WireWatch, send: PeerSend, options: HeldOptions = {}): void {
    this.#held.set(key, { wire, send, ...options });
  }

  /**
   * Remembers how the library calls for one session of `tenant.role`, found by the identity its
   * connection presents at the call (`identity`, the connection's `identity()`): after the server
   * rotates its identity (F7) a call at the new identity goes through the same connection and
   * library client, as it would for any user of the library; none is sent at the old identity.
   */
  protected rememberSession(
    tenant: string,
    role: string,
    identity: () => string,
    wire: WireWatch,
    send: PeerSend,
    options: HeldOptions = {},
  ): void {
    this.#live.add(tenant, role, identity, { wire, send, ...options });
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

  /** Calls through the library's call path, under the lease convention of a host without a gate. */
  async call(request: SimCallRequest): Promise<void> {
    const key = `${request.identity}|${request.tenant}.${request.role}`;
    const held = this.#live.find(request.tenant, request.role, request.identity) ?? this.#held.get(key);
    const target = { key, wire: held?.wire, catalog: this.#catalogs.get(key), servedName: held?.servedName };
    await this.#calls.call(
      request,
      target,
      async () => held?.send(request.plan.toolName, request.arguments),
      held?.notSent,
    );
  }

  /** The adapter notes the epoch for its leases; the library knows nothing of policy. */
  pushPolicy(update: PolicyUpdate): void {
    this.#calls.notePolicy(update);
  }

  stop(): void {
    this.#calls.stop();
  }
}

/** The SDK 1.x `Client`'s plain `tools/call` by name, with no gate (the home-made peers' call path). */
export function sdkSend(client: Client): PeerSend {
  return (name, args) =>
    client.request({ method: 'tools/call', params: { name, arguments: args } }, PermissiveResult, { timeout: 30_000 });
}

/** Any result object: the peer does not look at it. */
const PermissiveResult = z.looseObject({});
