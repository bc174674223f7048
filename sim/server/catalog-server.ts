/**
 * An adversarial MCP server on the SDK's low-level `Server` (which does not validate its own
 * `tools/list` output, so it can misbehave), serving one revision history to several sessions.
 *
 * Fault model, all from the round plan:
 * - F1/F2/F4: the history changes at planned times, between or within scans; every change bumps
 *   the revision (F4 changes only an audience no client holds, so the revision moves alone).
 * - F3: `list_changed` sent without being declared, never sent, duplicated, sent after page 2 of
 *   a scan, or delivered late (extra latency) until T_heal.
 * - F5 (trait): cursors repeat, cycle, are always "", never end, are ignored, or an empty page
 *   with a next cursor is inserted between real pages (legal; a correct core walks through it).
 * - F11: restarts at planned times: cursors of earlier boots get -32602; the revision survives.
 * - F12 (trait): pages carry no revision at all.
 * - F6/F13 (traits): planted defective descriptors (labelled in `defect_planted` for I5).
 * - F7: the server presents a new identity (certificate rotation) at planned times, mid-scan or
 *   between scans; some rotations come with a new catalog (a revision step at the same time).
 * - F15: a fraction of `list_changed` notifications is lost until T_heal (1: a stateless gateway).
 * - Equivocation (dedicated scenario, trait EQUIV): some changes keep the revision number.
 * Ground truth (revisions, pages served and refused, notifications) goes to the trace recorder.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolRequest, type CallToolResult, type ListToolsRequest, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ServerLeaseCheck } from './lease-check.ts';
import type { Rng } from '../random.ts';
import type { World } from '../runtime/world.ts';
import type { RevisionStep, ServerPlan, ToolDescriptor } from '../plan/types.ts';
import { worldDescriptorDigest, worldPageDigest } from '../trace/digests.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import type { WorldFields } from '../../contract/trace/types.ts';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.ts';

/** `_meta` keys of SPEC section 2. */
export const REVISION_KEY = 'dev.catsim/catalogRevision';
export const SCAN_ID_KEY = 'dev.catsim/scanId';
export const LEASE_KEY = 'dev.catsim/lease';

/** JSON-RPC codes by which this server refuses a call: a stale revision pin, a bad lease. */
export const STALE_PIN_CODE = -32050;
export const BAD_LEASE_CODE = -32051;

interface Session {
  server: Server;
  audience: string;
}

type PageResult = { tools: ToolDescriptor[]; nextCursor?: string; _meta?: Record<string, unknown> };
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One simulated server and all its sessions. */
export class SimCatalogServer {
  #boot = 0;
  #identity: string;
  #step: RevisionStep;
  readonly #sessions: Session[] = [];
  readonly #pagesPerScan = new Map<string, number>();

  constructor(
    readonly plan: ServerPlan,
    private readonly world: World,
    private readonly recorder: TraceRecorder,
    private readonly rng: Rng,
    private readonly notifyRng: Rng,
    private readonly tHealMs: number,
    leaseKey: string,
    private readonly policyEpoch: (audience: string) => number = () => 0,
  ) {
    this.#step = plan.history[0] as RevisionStep;
    this.#identity = plan.identity;
    this.#leases = new ServerLeaseCheck(leaseKey);
  }

  readonly #leases: ServerLeaseCheck;

  /** The views of the current revision (read-only: descriptors are never mutated). */
  currentViews(): Readonly<Record<string, readonly ToolDescriptor[]>> {
    return this.#step.views;
  }

  /** Whether a persistent trait exempts this server from liveness (cursor misbehaviour, equivocation). */
  disqualified(): boolean {
    return this.traits().some((trait) => trait.startsWith('F5') || trait.startsWith('EQUIV'));
  }

  /** The identity the server presents now (changes on F7 rotations). */
  identity(): string {
    return this.#identity;
  }

  /** Traits that persist for the whole round, as written in `server_up`. */
  traits(): string[] {
    const traits: string[] = [];
    if (this.plan.cursorTrait !== null && this.plan.cursorTrait !== 'empty-page-with-next') traits.push(`F5:${this.plan.cursorTrait}`);
    if (this.plan.cursorTrait === 'empty-page-with-next') traits.push('PAGING:empty-page-with-next');
    if (!this.plan.versioned) traits.push('F12');
    if (this.plan.planted.some((p) => p.defect === 'DUPLICATE_NAME')) traits.push('PLANTED:F6');
    if (this.plan.planted.some((p) => p.defect !== 'DUPLICATE_NAME')) traits.push('PLANTED:F13');
    if (this.plan.equivocates) traits.push('EQUIV');
    return traits;
  }

  /** Logs the first boot and revision, and schedules the history and restarts. */
  start(): void {
    this.#logUp();
    for (const planted of this.plan.planted) {
      this.recorder.world('defect_planted', { server: this.plan.id, digest: worldDescriptorDigest(planted.descriptor), defect: planted.defect });
    }
    this.#logRevision();
    for (const rotation of this.plan.rotations) this.world.schedule(rotation.atMs, () => this.#rotate(rotation.identity));
    for (const step of this.plan.history.slice(1)) this.world.schedule(step.atMs, () => this.#advance(step));
    for (const atMs of this.plan.restartsAtMs) this.world.schedule(atMs, () => this.#restart());
  }

  #rotate(identity: string): void {
    this.#identity = identity;
    this.recorder.world('identity_rotated', { server: this.plan.id, identity, boot: this.#boot });
    this.#logUp();
  }

  /** Serves one session for `audience` on `transport` (the server end of a link). */
  async connect(transport: Transport, audience: string): Promise<void> {
    const capabilities = { tools: this.plan.notifications.declared ? { listChanged: true } : {} };
    const server = new Server({ name: `catsim-${this.plan.id}`, version: '1.0.0' }, { capabilities });
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) => this.#listTools(request, extra, audience));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.#callTool(request, extra, audience));
    const session = { server, audience };
    this.#sessions.push(session);
    // A cut connection ends its session: notifications go only to live sessions.
    server.onclose = () => {
      const index = this.#sessions.indexOf(session);
      if (index >= 0) this.#sessions.splice(index, 1);
    };
    await server.connect(transport);
  }

  #logUp(): void {
    this.recorder.world('server_up', { server: this.plan.id, identity: this.#identity, boot: this.#boot, versioned: this.plan.versioned, traits: this.traits() });
  }

  #logRevision(): void {
    const views: Record<string, { name: string; digest: string }[]> = {};
    for (const [audience, tools] of Object.entries(this.#step.views)) {
      views[audience] = tools.map((tool) => ({ name: String(tool.name), digest: worldDescriptorDigest(tool) }));
    }
    this.recorder.world('revision', { server: this.plan.id, revision: this.#step.revision, views });
  }

  #advance(step: RevisionStep): void {
    this.#step = step;
    this.#logRevision();
    if (this.plan.notifications.sendOnChange) this.#notifyAll(this.plan.notifications.copies);
  }

  #restart(): void {
    this.#boot += 1;
    this.#logUp();
  }

  #notifyAll(copies: number): void {
    for (const session of this.#sessions) {
      for (let i = 0; i < copies; i += 1) this.#notify(session);
    }
  }

  /** Sends one `list_changed`; until T_heal a planned fraction is lost on the way (F15). */
  #notify(session: Session): void {
    const healed = this.world.now() >= this.tHealMs;
    const lost = !healed && this.notifyRng.chance(this.plan.linkFaults.notificationLossFraction);
    this.recorder.world('notification_sent', { server: this.plan.id, audience: session.audience, delivered: !lost });
    if (!lost) void session.server.sendToolListChanged().catch(() => undefined);
  }

  #listTools(request: ListToolsRequest, extra: Extra, audience: string): PageResult {
    const scanId = scanIdOf(request);
    const cursor = request.params?.cursor;
    const position = this.#resolve(cursor);
    if (position === undefined || position.boot !== this.#boot) {
      this.recorder.world('page_refused', { server: this.plan.id, audience: audienceOf(extra, audience), scanId, cursorIn: cursor ?? null, code: ErrorCode.InvalidParams });
      throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    }
    const view = this.#step.views[audienceOf(extra, audience)] ?? [];
    const { tools, nextCursor } = this.#page(view, cursor, position);
    const reported = this.plan.versioned ? this.#step.revision : null;
    this.#logPage(audienceOf(extra, audience), scanId, cursor, nextCursor, reported, tools);
    this.#maybeNotifyAfterPage2(scanId, audience);
    // No copy here: the link copies every message it carries (structured clone at send).
    const result: PageResult = { tools };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    if (reported !== null) result._meta = { [REVISION_KEY]: reported };
    return result;
  }

  /**
   * Executes a call if its lease is good and, on a versioned server, its revision pin is not
   * older than the last change of the tool. Like many real servers it executes any tool it has,
   * whether or not it was listed to this audience (F17 relies on that): visibility is the host's
   * job, so calls the core should have refused locally show up here as executed.
   */
  #callTool(request: CallToolRequest, extra: Extra, sessionAudience: string): CallToolResult {
    const audience = audienceOf(extra, sessionAudience);
    const name = request.params.name;
    const meta = (request.params._meta ?? {}) as Record<string, unknown>;
    const found = this.#findTool(name, audience);
    const refuse = (code: WorldFields<'call_refused_by_server'>['code'], leaseId: string | null, jsonRpc: number, reason: string): never => {
      this.recorder.world('call_refused_by_server', { server: this.plan.id, audience, tool: name, leaseId, code });
      throw new McpError(jsonRpc, reason, { reason });
    };
    if (found === undefined) return refuse('UNKNOWN_TOOL', null, ErrorCode.InvalidParams, 'unknown tool');
    const lease = this.#leases.check(meta[LEASE_KEY], name, this.world.now(), this.policyEpoch(audience));
    if (lease.problem !== null) return refuse('BAD_LEASE', lease.leaseId, BAD_LEASE_CODE, lease.problem);
    const pin = typeof meta[REVISION_KEY] === 'number' ? (meta[REVISION_KEY] as number) : null;
    if (this.plan.versioned && pin !== null && this.#pinIsStale(pin, name, audience)) return refuse('STALE_PIN', lease.leaseId, STALE_PIN_CODE, 'stale revision pin');
    this.recorder.world('call_executed', { server: this.plan.id, audience, tool: name, descriptorDigest: worldDescriptorDigest(found), leaseId: lease.leaseId, pin, revision: this.#step.revision });
    return { content: [{ type: 'text', text: `${name}: done` }] };
  }

  /** The tool by name: in the audience's view first, else in any view of the current revision. */
  #findTool(name: string, audience: string): ToolDescriptor | undefined {
    const own = this.#step.views[audience]?.find((tool) => tool.name === name);
    if (own !== undefined) return own;
    for (const view of Object.values(this.#step.views)) {
      const other = view.find((tool) => tool.name === name);
      if (other !== undefined) return other;
    }
    return undefined;
  }

  /**
   * Whether the tool changed (for this audience) after the pinned revision. A tool outside the
   * audience's view has no pin history for it, so only the lease guards it.
   */
  #pinIsStale(pin: number, name: string, audience: string): boolean {
    const now = this.#step.views[audience]?.find((tool) => tool.name === name);
    if (now === undefined) return false;
    const pinned = this.plan.history.filter((step) => step.revision <= pin && step.atMs <= this.world.now()).at(-1);
    const then = pinned?.views[audience]?.find((tool) => tool.name === name);
    return then === undefined || worldDescriptorDigest(then) !== worldDescriptorDigest(now);
  }

  /** Where a cursor points; the always-empty trait's "" is the second page. */
  #resolve(cursor: string | undefined): CursorPosition | undefined {
    if (cursor === undefined) return { boot: this.#boot, offset: 0, empty: false };
    if (cursor === '' && this.plan.cursorTrait === 'always-empty') return { boot: this.#boot, offset: this.plan.pageSizeMax, empty: false };
    return decodeCursor(cursor);
  }

  /** The page at `position`, with the cursor trait applied to its next cursor. */
  #page(view: ToolDescriptor[], cursor: string | undefined, position: CursorPosition): { tools: ToolDescriptor[]; nextCursor: string | undefined } {
    const trait = this.plan.cursorTrait;
    if (position.empty) return { tools: [], nextCursor: encodeCursor({ ...position, empty: false }) };
    const start = trait === 'ignored' ? 0 : position.offset;
    const size = this.rng.int(this.plan.pageSizeMin, this.plan.pageSizeMax);
    const tools = view.slice(start, start + size);
    const more = start + size < view.length;
    const next = { boot: this.#boot, offset: start + size, empty: false };
    switch (trait) {
      case 'always-empty': return { tools, nextCursor: '' };
      case 'never-ending': return { tools, nextCursor: encodeCursor(next) };
      case 'repeat': return { tools, nextCursor: cursor ?? (more ? encodeCursor(next) : undefined) };
      case 'cycle': return { tools, nextCursor: this.#cycleCursor(position) };
      case 'empty-page-with-next': return { tools, nextCursor: more ? encodeCursor({ ...next, empty: true }) : undefined };
      default: return { tools, nextCursor: more ? encodeCursor(next) : undefined };
    }
  }

  /** F5 cycle A -> B -> A: A points at offset pageSizeMax, B at twice that. */
  #cycleCursor(position: CursorPosition): string {
    const a = { boot: this.#boot, offset: this.plan.pageSizeMax, empty: false };
    const atA = position.offset === a.offset && position.offset !== 0;
    return encodeCursor(atA ? { ...a, offset: 2 * a.offset } : a);
  }

  #logPage(audience: string, scanId: string | null, cursor: string | undefined, nextCursor: string | undefined, reported: number | null, tools: ToolDescriptor[]): void {
    this.recorder.world('page_served', {
      server: this.plan.id,
      audience,
      scanId,
      cursorIn: cursor ?? null,
      cursorOut: nextCursor ?? null,
      revision: this.#step.revision,
      reported,
      tools: tools.map(worldDescriptorDigest),
      pageDigest: worldPageDigest(cursor ?? null, nextCursor ?? null, reported, tools),
    });
  }

  /** F3: an extra notification right after page 2 of a scan, until T_heal. */
  #maybeNotifyAfterPage2(scanId: string | null, audience: string): void {
    if (!this.plan.notifications.afterPage2 || scanId === null || this.world.now() >= this.tHealMs) return;
    const served = (this.#pagesPerScan.get(scanId) ?? 0) + 1;
    this.#pagesPerScan.set(scanId, served);
    if (served !== 2) return;
    const session = this.#sessions.findLast((candidate) => candidate.audience === audience);
    if (session !== undefined) this.world.after(0, () => this.#notify(session));
  }
}

function scanIdOf(request: ListToolsRequest): string | null {
  const value = (request.params?._meta as Record<string, unknown> | undefined)?.[SCAN_ID_KEY];
  return typeof value === 'string' ? value : null;
}

/** The audience proved by the transport (authInfo), falling back to the session's own. */
function audienceOf(extra: Extra, fallback: string): string {
  const value = (extra.authInfo?.extra as Record<string, unknown> | undefined)?.audience;
  return typeof value === 'string' ? value : fallback;
}
