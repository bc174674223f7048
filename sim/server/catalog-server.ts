/**
 * A simulated MCP server on the SDK's low-level `Server` (which does not validate its own
 * `tools/list` output, so it can misbehave), serving one revision history to several sessions.
 * A legacy-era server (MCP 2025-11-25) serves each session on the SDK 1.x `Server`; a modern-era
 * one (2026-07-28, `plan.era`, sim/faults/eras.ts) on the SDK v2 package's `Server` behind its
 * stdio entry (modern-session.ts): no `initialize`, `ttlMs` and `cacheScope` on every page,
 * `list_changed` only on `subscriptions/listen` streams. A modern server behind a legacy-era gateway
 * (`era: 'gateway'`) is reached by the host as a legacy session on the SDK 1.x `Server` (the
 * gateway's side), whose pages pass the modern server's `ttlMs` and `cacheScope` through, and whose
 * sessions hear the changes the gateway relays from its listen stream to the server (F29's gateway
 * relays none). All serve the same handlers below.
 *
 * Fault model: none of its own. It is a plain server: it serves its plan's revision history
 * (the revision steps the faults planned, F1, F2, F4, F7 and equivocation among them), pages the
 * current view with cursors bound to its boot (a cursor of an earlier boot is refused with
 * -32602), reports the revision, notifies on every change, checks leases and revision pins. What
 * goes wrong is the fault rules the registry built from the plan (sim/server/rules.ts, one file
 * per fault under sim/faults/): they change capabilities, cursors, pages, notifications and pins,
 * and plan rotations and restarts. Ground truth (revisions, pages served and refused,
 * notifications, calls) goes to the trace recorder.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsRequest,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ServerLeaseCheck } from './lease-check.ts';
import { BACKUP_BUILD, backupDescriptor } from './backup-face.ts';
import { serveModernHttp, serveModernSession, type ModernSession } from './modern-session.ts';
import type { HttpServerEnd } from '../transport/http-link.ts';
import type { Rng } from '../random.ts';
import type { World } from '../runtime/world.ts';
import type { RevisionStep, ServerPlan, ToolDescriptor } from '../plan/types.ts';

/** `public` | `private` (2026-07-28 `CacheableResult.cacheScope`). */
type CacheScope = 'public' | 'private';
import { worldDescriptorBytes, worldDescriptorDigest, worldPageDigest } from '../trace/digests.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import type { WorldFields } from '../../contract/trace/types.ts';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.ts';
import {
  EPISODE_ORDER,
  NO_RULES,
  type PageRequest,
  type ServedPage,
  type ServerControl,
  type ServerEpisode,
  type ExecutedCall,
  type ServerRules,
} from './rules.ts';

/**
 * One JSON Schema validator for every simulated server session of the process. The SDK's
 * `Server` builds a fresh Ajv instance per session otherwise (about 2.5% of a default round's
 * cpu), and uses it only to check elicitation replies, which the simulated servers never request.
 */
const SHARED_SERVER_VALIDATOR = new AjvJsonSchemaValidator();
/** `_meta` keys of SPEC section 2. */
export const REVISION_KEY = 'dev.catsim/catalogRevision';
export const SCAN_ID_KEY = 'dev.catsim/scanId';
export const LEASE_KEY = 'dev.catsim/lease';

/** JSON-RPC codes by which this server refuses a call: a stale revision pin, a bad lease. */
export const STALE_PIN_CODE = -32050;
export const BAD_LEASE_CODE = -32051;

interface Session {
  /** Sends one `list_changed` on this session (a modern session: to its open listen streams). */
  sendToolListChanged(): void;
  audience: string;
  /** A modern session's listen streams (F27); absent on a legacy session. */
  modern?: ModernSession;
}

type PageResult = {
  tools: ToolDescriptor[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: CacheScope;
  _meta?: Record<string, unknown>;
};

/** The cache fields a modern server puts on each `tools/list` page. */
interface CacheFields {
  /** Freshness hint, ms (0: stale at once). */
  ttlMs: number;
  cacheScope: CacheScope;
}
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a server needs of its world: a clock and a scheduler (the virtual World, or black-box mode's wire clock). */
export type ServerWorld = Pick<World, 'now' | 'schedule' | 'after'>;

/** How a server is built besides its plan. */
export interface ServerOptions {
  /** Draws each page's size (`run/<id>/pages`). */
  pageRng: Rng;
  /** The fault rules built from the plan (default: none, an honest server). */
  rules?: ServerRules;
  /** Persistent traits written in `server_up` (from the registry: `serverTraits`). */
  traits?: readonly string[];
  /** Whether a trait exempts the server from liveness (its probe calls are then owed nothing). */
  disqualified?: boolean;
  /** HMAC key for leases (hex). */
  leaseKey: string;
  /** The current policy epoch of an audience, for the lease check. */
  policyEpoch?: (audience: string) => number;
  /** Told of every executed call, after its `call_executed` (the policy service's mid-call revocations, F8). */
  onCallExecuted?: (audience: string, tool: string) => void;
}

/** One simulated server and all its sessions. */
export class SimCatalogServer {
  #boot = 0;
  #identity: string;
  #step: RevisionStep;
  readonly #sessions: Session[] = [];
  readonly #rules: ServerRules;
  readonly #leases: ServerLeaseCheck;
  readonly #control: ServerControl = {
    rotate: (identity) => this.#rotate(identity),
    restart: () => this.#restart(),
    notifySoon: (audience) => this.#notifySoon(audience),
    silenceListens: () => this.#endListens('silence'),
    completeListens: () => this.#endListens('complete'),
  };

  constructor(
    readonly plan: ServerPlan,
    private readonly world: ServerWorld,
    private readonly recorder: TraceRecorder,
    private readonly options: ServerOptions,
  ) {
    this.#step = plan.history[0] as RevisionStep;
    this.#identity = plan.identity;
    this.#rules = options.rules ?? NO_RULES;
    this.#leases = new ServerLeaseCheck(options.leaseKey);
  }

  /** The views of the current revision (read-only: descriptors are never mutated). */
  currentViews(): Readonly<Record<string, readonly ToolDescriptor[]>> {
    return this.#step.views;
  }

  /** Whether a persistent trait exempts this server from liveness (cursor misbehaviour, equivocation). */
  disqualified(): boolean {
    return this.options.disqualified ?? false;
  }

  /** The identity the server presents now (changes on F7 rotations). */
  identity(): string {
    return this.#identity;
  }

  /** Traits that persist for the whole round, as written in `server_up`. */
  traits(): string[] {
    return [...(this.options.traits ?? [])];
  }

  /** Logs the first boot and revision, and schedules the history and the rules' episodes. */
  start(): void {
    this.#logUp();
    for (const planted of this.plan.planted) {
      this.recorder.world('defect_planted', {
        server: this.plan.id,
        digest: worldDescriptorDigest(planted.descriptor),
        defect: planted.defect,
      });
    }
    this.#logRevision();
    const steps: ServerEpisode[] = this.plan.history
      .slice(1)
      .map((step) => ({ atMs: step.atMs, order: EPISODE_ORDER.revision, run: () => this.#advance(step) }));
    const episodes = [...steps, ...this.#rules.episodes.flatMap((rule) => rule.episodes())];
    // Stable: at one instant, episodes of one order keep their plan order.
    episodes.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
    for (const episode of episodes) this.world.schedule(episode.atMs, () => episode.run(this.#control));
  }

  #rotate(identity: string): void {
    this.#identity = identity;
    this.recorder.world('identity_rotated', { server: this.plan.id, identity, boot: this.#boot });
    this.#logUp();
  }

  /**
   * Serves one session for `audience` on `transport` (the server end of a link), in the server's
   * era: a legacy session on the SDK 1.x `Server`, a modern one on the SDK v2 package
   * (modern-session.ts).
   */
  async connect(transport: Transport, audience: string): Promise<void> {
    const tools = this.#capabilities();
    if (this.plan.era === 'modern') return this.#connectModern(transport, audience, tools.listChanged);
    const server = new Server(
      { name: `catsim-${this.plan.id}`, version: '1.0.0' },
      { capabilities: { tools }, jsonSchemaValidator: SHARED_SERVER_VALIDATOR },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
      this.#listTools(request.params, audienceOf(extra, audience), audience),
    );
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.#callTool(request.params, audienceOf(extra, audience)),
    );
    const session: Session = {
      sendToolListChanged: () => void server.sendToolListChanged().catch(() => undefined),
      audience,
    };
    this.#sessions.push(session);
    // A cut connection ends its session: notifications go only to live sessions.
    server.onclose = () => this.#end(session);
    await server.connect(transport);
  }

  /**
   * F37: serves one session of the server's backup endpoint for `audience` on `transport`: the
   * audience's current view in one page, each tool as the backup serves it
   * (sim/server/backup-face.ts), under build {@link BACKUP_BUILD}, and its calls, each executed
   * call written with `endpoint: 'backup'`. It logs no page (it is not the catalog the core scans)
   * and sends no notification.
   */
  async connectBackup(transport: Transport, audience: string): Promise<void> {
    const server = new Server(
      { name: `catsim-${this.plan.id}-backup`, version: BACKUP_BUILD },
      { capabilities: { tools: {} }, jsonSchemaValidator: SHARED_SERVER_VALIDATOR },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: (this.#step.views[audience] ?? []).map((tool) => backupDescriptor(this.plan, tool)) as [],
      _meta: { [REVISION_KEY]: this.#step.revision },
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.#callTool(request.params, audienceOf(extra, audience), true),
    );
    await server.connect(transport);
  }

  /** What the server declares under `capabilities.tools`: `listChanged` unless a capability rule (F3) says otherwise. */
  #capabilities(): { listChanged?: boolean } {
    return this.#rules.capabilities.reduce((declared, rule) => rule.onCapabilities(declared), {
      listChanged: true,
    } as { listChanged?: boolean });
  }

  /** Whether the server declares `tools.listChanged` (the same on every connection: capability rules read no state). */
  declaresListChanged(): boolean {
    return this.#capabilities().listChanged === true;
  }

  /** A modern session: no `initialize`; the audience is the session's (the entry reads no `authInfo`). */
  #connectModern(transport: Transport, audience: string, listChanged: boolean | undefined): void {
    const modern = serveModernSession(
      transport,
      `catsim-${this.plan.id}`,
      listChanged,
      {
        listTools: (params) => this.#listTools(params as ListToolsRequest['params'], audience, audience),
        callTool: (params) => this.#callTool(params as CallToolRequest['params'], audience),
      },
      () => this.#rules.listens.some((rule) => rule.onListen() === 'hold'),
    );
    const session: Session = { sendToolListChanged: () => modern.sendToolListChanged(), audience, modern };
    this.#sessions.push(session);
    modern.onclose = () => this.#end(session);
  }

  /**
   * F27: every live modern session silences its listen streams, or ends its acknowledged ones
   * (the core's client then sees their results: `listen_ended`). A silenced stream is ground
   * truth of its own (`listen_silenced`): nothing on the wire shows it.
   */
  #endListens(how: 'silence' | 'complete'): void {
    for (const session of this.#sessions) {
      if (session.modern === undefined) continue;
      if (how === 'complete') {
        session.modern.complete();
        continue;
      }
      for (const subscriptionId of session.modern.silence())
        this.recorder.world('listen_silenced', { server: this.plan.id, audience: session.audience, subscriptionId });
    }
  }

  /**
   * Serves one session for `audience` over Streamable HTTP (a modern server whose plan says
   * `transport: 'http'`): the handler that answers its requests (sim/transport/http-link.ts
   * carries them) and the session's end.
   */
  connectHttp(audience: string): HttpServerEnd {
    const modern = serveModernHttp(`catsim-${this.plan.id}`, this.#capabilities().listChanged, {
      listTools: (params) => this.#listTools(params as ListToolsRequest['params'], audience, audience),
      callTool: (params) => this.#callTool(params as CallToolRequest['params'], audience),
    });
    const session: Session = { sendToolListChanged: () => modern.sendToolListChanged(), audience };
    this.#sessions.push(session);
    modern.onclose = () => this.#end(session);
    return modern;
  }

  #end(session: Session): void {
    const index = this.#sessions.indexOf(session);
    if (index >= 0) this.#sessions.splice(index, 1);
  }

  #logUp(): void {
    this.recorder.world('server_up', {
      server: this.plan.id,
      identity: this.#identity,
      boot: this.#boot,
      versioned: this.plan.versioned,
      traits: this.traits(),
    });
  }

  #logRevision(): void {
    const views: Record<string, { name: string; digest: string; bytes: number }[]> = {};
    for (const [audience, tools] of Object.entries(this.#step.views)) {
      views[audience] = tools.map((tool) => ({
        name: String(tool.name),
        digest: worldDescriptorDigest(tool),
        bytes: worldDescriptorBytes(tool),
      }));
    }
    this.recorder.world('revision', { server: this.plan.id, revision: this.#step.revision, views });
  }

  #advance(step: RevisionStep): void {
    const before = this.#step;
    this.#step = step;
    this.#logRevision();
    if (step.cause === 'F36') this.#logContractChanges(before, step);
    this.#notifyAll(this.#rules.changes.reduce((copies, rule) => rule.onChange(copies), 1));
  }

  /**
   * F36: the ground truth of a planted contract change, one `contract_changed` per distinct
   * (before, after) descriptor of the changed tool across the views, in view order.
   */
  #logContractChanges(before: RevisionStep, step: RevisionStep): void {
    for (const change of this.plan.contractChanges ?? []) {
      if (change.atMs !== step.atMs) continue;
      const logged = new Set<string>();
      for (const [audience, tools] of Object.entries(step.views)) {
        const then = before.views[audience]?.find((tool) => tool.name === change.tool);
        const now = tools.find((tool) => tool.name === change.tool);
        if (then === undefined || now === undefined) continue;
        const [from, to] = [worldDescriptorDigest(then), worldDescriptorDigest(now)];
        if (from === to || logged.has(`${from}/${to}`)) continue;
        logged.add(`${from}/${to}`);
        const { tool, change: changeClass, rule, claimFrom, claimTo } = change;
        this.recorder.world('contract_changed', {
          server: this.plan.id,
          tool,
          from,
          to,
          change: changeClass,
          rule,
          claimFrom,
          claimTo,
        });
      }
    }
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

  /** Sends one `list_changed` unless a notification rule loses it on the way. */
  #notify(session: Session): void {
    const lost =
      this.#rules.notifications.some((rule) => rule.onNotification(session.audience) === 'drop') ||
      session.modern?.pushes() === false;
    this.recorder.world('notification_sent', { server: this.plan.id, audience: session.audience, delivered: !lost });
    if (!lost) session.sendToolListChanged();
  }

  /** One notification to the latest session of `audience`, after the current step of this instant. */
  #notifySoon(audience: string): void {
    const session = this.#sessions.findLast((candidate) => candidate.audience === audience);
    if (session !== undefined) this.world.after(0, () => this.#notify(session));
  }

  #listTools(params: ListToolsRequest['params'], audience: string, sessionAudience: string): PageResult {
    const scanId = scanIdOf(params);
    const cursor = params?.cursor;
    const refusal = this.#rules.refusals.map((rule) => rule.onList(audience)).find((code) => code !== null);
    if (refusal !== undefined && refusal !== null) {
      this.recorder.world('page_refused', {
        server: this.plan.id,
        audience,
        scanId,
        cursorIn: cursor ?? null,
        code: refusal,
      });
      throw new McpError(refusal, 'listing not authorized for this audience');
    }
    const position = this.#resolve(cursor);
    if (position === undefined || position.boot !== this.#boot) {
      this.recorder.world('page_refused', {
        server: this.plan.id,
        audience,
        scanId,
        cursorIn: cursor ?? null,
        code: ErrorCode.InvalidParams,
      });
      throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    }
    const serve = this.#rules.pages.reduce<(request: PageRequest) => ServedPage>(
      (inner, rule) => (req) => rule.onPage(req, inner),
      (req) => this.#page(req),
    );
    const page = serve({ audience, scanId, cursor, position, boot: this.#boot, revision: this.#step.revision });
    const tools = [...page.tools];
    const cache = this.#cacheOf(page);
    this.#logPage(audience, scanId, cursor, page.nextCursor, page.reported, tools, cache);
    for (const rule of this.#rules.served) rule.afterPage({ scanId, sessionAudience }, this.#control);
    // No copy here: the link copies every message it carries (structured clone at send).
    const result: PageResult = { tools };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    if (cache !== null) Object.assign(result, cache);
    if (page.reported !== null) result._meta = { [REVISION_KEY]: page.reported };
    return result;
  }

  /**
   * Executes a call if its lease is good and, on a versioned server, its revision pin is not
   * older than the last change of the tool. Like many real servers it executes any tool it has,
   * whether or not it was listed to this audience (F17 relies on that): visibility is the host's
   * job, so calls the core should have refused locally show up here as executed. With `backup`
   * (F37) the server's backup endpoint executes it: the tool as the backup serves it
   * (sim/server/backup-face.ts), and `call_executed` says `endpoint: 'backup'`.
   */
  #callTool(params: CallToolRequest['params'], audience: string, backup = false): CallToolResult {
    const name = params.name;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const listed = this.#findTool(name, audience);
    const found = backup && listed !== undefined ? backupDescriptor(this.plan, listed) : listed;
    const refuse = (
      code: WorldFields<'call_refused_by_server'>['code'],
      leaseId: string | null,
      jsonRpc: number,
      reason: string,
    ): never => {
      this.recorder.world('call_refused_by_server', { server: this.plan.id, audience, tool: name, leaseId, code });
      throw new McpError(jsonRpc, reason, { reason });
    };
    if (found === undefined) return refuse('UNKNOWN_TOOL', null, ErrorCode.InvalidParams, 'unknown tool');
    const lease = this.#leases.check(
      meta[LEASE_KEY],
      name,
      this.world.now(),
      this.options.policyEpoch?.(audience) ?? 0,
    );
    if (lease.problem !== null) return refuse('BAD_LEASE', lease.leaseId, BAD_LEASE_CODE, lease.problem);
    const pin = typeof meta[REVISION_KEY] === 'number' ? (meta[REVISION_KEY] as number) : null;
    const checked = this.#rules.pins.reduce((p, rule) => rule.onPin(p), pin);
    if (checked !== null && this.#pinIsStale(checked, name, audience))
      return refuse('STALE_PIN', lease.leaseId, STALE_PIN_CODE, 'stale revision pin');
    this.recorder.world('call_executed', {
      server: this.plan.id,
      audience,
      tool: name,
      descriptorDigest: worldDescriptorDigest(found),
      leaseId: lease.leaseId,
      pin,
      revision: this.#step.revision,
      ...(backup ? { endpoint: 'backup' as const } : {}),
    });
    this.options.onCallExecuted?.(audience, name);
    return this.#resultOf({ audience, tool: name, descriptor: found }, lease.leaseId);
  }

  /**
   * The result of an executed call: a text block, or, when a result rule gives one (F33), the
   * structured content with its JSON as the text block (MCP 2025-11-25 `tools.mdx`: "a tool that
   * returns structured content SHOULD also return the serialized JSON in a TextContent block"),
   * written in `result_sent` with the tool's output schema as listed.
   */
  #resultOf(call: ExecutedCall, leaseId: string | null): CallToolResult {
    const structured = this.#rules.results.reduce<Record<string, unknown> | null>(
      (given, rule) => given ?? rule.onResult(call),
      null,
    );
    if (structured === null) return { content: [{ type: 'text', text: `${call.tool}: done` }] };
    this.recorder.world('result_sent', {
      server: this.plan.id,
      audience: call.audience,
      tool: call.tool,
      leaseId,
      descriptorDigest: worldDescriptorDigest(call.descriptor),
      outputSchema: structuredClone(call.descriptor.outputSchema ?? null),
      structuredContent: structuredClone(structured),
    });
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
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

  /** Where a cursor points: page 1 without one, else its decoding, as the cursor rules change it. */
  #resolve(cursor: string | undefined): CursorPosition | undefined {
    const decoded = cursor === undefined ? { boot: this.#boot, offset: 0, empty: false } : decodeCursor(cursor);
    return this.#rules.cursors.reduce((position, rule) => rule.onCursor(cursor, position, this.#boot), decoded);
  }

  /** The honest page at the request's position: a drawn number of tools, and a next cursor while more remain. */
  #page(request: PageRequest): ServedPage {
    const view = this.#step.views[request.audience] ?? [];
    const start = request.position.offset;
    const size = this.options.pageRng.int(this.plan.pageSizeMin, this.plan.pageSizeMax);
    const more = start + size < view.length;
    const nextCursor = more ? encodeCursor({ boot: request.boot, offset: start + size, empty: false }) : undefined;
    return { tools: view.slice(start, start + size), nextCursor, reported: request.revision, nextOffset: start + size };
  }

  /**
   * A modern server's cache fields of every `tools/list` page (2026-07-28 `CacheableResult`), the
   * ones a gateway passes through included; null on a legacy server.
   */
  #cacheOf(page: ServedPage): CacheFields | null {
    if (this.plan.era !== 'modern' && this.plan.era !== 'gateway') return null;
    return {
      ttlMs: page.ttlMs ?? this.plan.cacheTtlMs ?? 0,
      cacheScope: page.cacheScope ?? this.plan.cacheScope ?? 'private',
    };
  }

  #logPage(
    audience: string,
    scanId: string | null,
    cursor: string | undefined,
    nextCursor: string | undefined,
    reported: number | null,
    tools: ToolDescriptor[],
    cache: CacheFields | null,
  ): void {
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
      ...(cache === null ? {} : cache),
    });
  }
}

function scanIdOf(params: ListToolsRequest['params']): string | null {
  const value = (params?._meta as Record<string, unknown> | undefined)?.[SCAN_ID_KEY];
  return typeof value === 'string' ? value : null;
}

/** The audience proved by the transport (authInfo), falling back to the session's own. */
function audienceOf(extra: Extra, fallback: string): string {
  const value = (extra.authInfo?.extra as Record<string, unknown> | undefined)?.audience;
  return typeof value === 'string' ? value : fallback;
}
