/**
 * The world of one black-box case: catsim's simulated catalog servers (sim/server) on the wire
 * clock, with the case's page sizes, cursor behaviour and triggers as server rules, and a tap on
 * every session that writes the wire record (catsim.trace.v1 world events) the oracle judges.
 *
 * Fault model: what the case plans, nothing else. A `change` trigger moves a server to its next
 * revision and notifies every live session; a `silent-change` moves it without a notification; a
 * `restart` counts its boot up, so the cursors it handed out before are refused with -32602; an
 * `expire-session` ends every HTTP session of the server (written as `disconnected`);
 * the cursor behaviour is a persistent trait (`""` cursor, repeated cursor, cycle, endless pages). Every
 * trigger fires on a wire event (the page count of a walk), never on the wall clock, and each
 * page's size is a function of (seed, server, revision, offset), so the same requests get the
 * same answers in any timing. A host that floods a server gets -32603 past `floodPagesMax`
 * pages, so that a looping host cannot run the machine out of memory.
 *
 * Calls: a black-box host holds no catsim lease, so the tap stamps every `tools/call` with a
 * lease the server accepts; the server's own checks that remain are the name (UNKNOWN_TOOL) and
 * the revision pin. Before them the tap checks the arguments against the tool's input schema, as
 * an MCP server MUST validate its inputs: a call whose arguments fail it is refused with -32602
 * (`call_refused_by_server` INVALID_ARGUMENTS). `call_sent` is written when the call arrives,
 * before any check. A server may send a burst (`notificationCopies` per change) and serve planted
 * defects (`defects`, written as `defect_planted`, built as F13 builds them).
 */
import { createHash, createHmac } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LEASE_KEY, SimCatalogServer } from '../sim/server/catalog-server.ts';
import { decodeCursor, encodeCursor } from '../sim/server/cursor.ts';
import {
  sortRules,
  type ChangeRule,
  type CursorRule,
  type PageRequest,
  type PageRule,
  type ServedPage,
  type ServerControl,
} from '../sim/server/rules.ts';
import { createRng } from '../sim/random.ts';
import type { RevisionStep, ServerPlan, ToolDescriptor } from '../sim/plan/types.ts';
import { worldDescriptorDigest } from '../sim/trace/digests.ts';
import { TraceRecorder, type TraceEvent, type TraceHeader } from '../sim/trace/recorder.ts';
import { TRACE_SCHEMA } from '../contract/trace/schema.ts';
import type { BlackBoxCase, CaseDefect, CaseServer, CaseTrigger } from './case.ts';
import { WireClock } from './wire-clock.ts';

/** Most `tools/list` requests one server answers in a case; past it, -32603 (a flooding host). */
export const FLOOD_PAGES_MAX = 500;

/** One message on the wire, for the report's wire log. `n`: order of arrival over the whole case. */
export interface WireEntry {
  readonly n: number;
  readonly server: string;
  readonly session: number;
  readonly dir: 'host->server' | 'server->host';
  readonly message: JSONRPCMessage;
}

/** How a session's transport can tell whether a server-initiated notification reached the host. */
export type DeliveryProbe = () => boolean;

interface HostedServer {
  readonly spec: CaseServer;
  /** This server's own wire clock: tick k runs its revision k + 1. */
  readonly clock: WireClock;
  readonly sim: SimCatalogServer;
  readonly identity: string;
  walks: number;
  pagesInWalk: number;
  pagesTotal: number;
  /** `tools/call` requests answered (result or error), over all sessions. */
  callsAnswered: number;
  silentNext: boolean;
  /** The server's control (restart), handed to the page-served rule after the first page. */
  control: ServerControl | null;
}

/** One entry of `CATSIM_SERVERS`: a server as one audience sees it, with that audience's credential. */
export interface CaseEntry {
  /** The entry's name: the server's own, or its twin's. */
  readonly name: string;
  /** The simulated server behind it. */
  readonly server: string;
  readonly audience: string;
  readonly token: string;
}

/** The servers, clock and wire record of one case. Order: construct, `start()`, `connect()` per session, `finish()`. */
export class CaseWorld {
  readonly recorder: TraceRecorder;
  readonly wireLog: WireEntry[] = [];
  readonly #servers = new Map<string, HostedServer>();
  readonly #entries = new Map<string, CaseEntry>();
  readonly #leaseKey: string;
  /** Validates call arguments as a server that checks its inputs (schemas are not cached: a case has a handful of calls). */
  readonly #ajv = new Ajv({ strict: false, addUsedSchema: false });
  #arrivals = 0;
  #sessions = 0;
  #leases = 0;
  #expire: (server: string) => void = () => undefined;

  constructor(
    readonly spec: BlackBoxCase,
    readonly agent: string,
  ) {
    this.recorder = new TraceRecorder(() => this.#arrivals);
    this.#leaseKey = createHash('sha256').update(`lease|${spec.seed}`).digest('hex');
    for (const server of spec.servers) this.#servers.set(server.name, this.#host(server));
    for (const server of spec.servers) {
      this.#entries.set(server.name, {
        name: server.name,
        server: server.name,
        audience: server.audience,
        token: this.#token(server.name),
      });
      if (server.twin !== undefined)
        this.#entries.set(server.twin.name, {
          name: server.twin.name,
          server: server.name,
          audience: server.twin.audience,
          token: this.#token(server.twin.name),
        });
    }
  }

  /** Logs every server's boot and first revision, in case order. */
  start(): void {
    for (const hosted of this.#servers.values()) hosted.sim.start();
  }

  /** How many messages the host has sent to the case's servers so far, over every server, session and transport. */
  hostMessages(): number {
    return this.#arrivals;
  }

  /** The entries of `CATSIM_SERVERS`, in case order (a server, then its twin). */
  entries(): CaseEntry[] {
    return [...this.#entries.values()];
  }

  /** The audience `token` proves on `server`, or null when it is no credential of that server. */
  audienceFor(server: string, token: string | undefined): string | null {
    return (
      [...this.#entries.values()].find((entry) => entry.server === server && entry.token === token)?.audience ?? null
    );
  }

  /** Whether the entry has had a session opened (`session_opened` of its server and audience). */
  entryOpened(name: string): boolean {
    const entry = this.#entries.get(name);
    return this.recorder.events.some(
      (event) =>
        event.type === 'session_opened' && event.server === entry?.server && event.audience === entry?.audience,
    );
  }

  /** Serves one host session of `server` for `audience` on `transport`; `delivered` says whether a notification sent now reaches the host. */
  async connect(server: string, audience: string, transport: Transport, delivered: DeliveryProbe): Promise<void> {
    const hosted = this.#servers.get(server);
    if (hosted === undefined) throw new Error(`unknown server ${server}`);
    this.#sessions += 1;
    await hosted.sim.connect(this.#tap(hosted, audience, this.#sessions, transport, delivered), audience);
  }

  /** Tells the world how to end every HTTP session of a server (the hosting does it; an `expire-session` trigger calls it). */
  onExpire(expire: (server: string) => void): void {
    this.#expire = expire;
  }

  /** Whether some server answered more `tools/list` requests than FLOOD_PAGES_MAX (a flooding host). */
  flooded(): string | null {
    const server = [...this.#servers.values()].find((hosted) => hosted.pagesTotal > FLOOD_PAGES_MAX);
    return server === undefined ? null : server.spec.name;
  }

  /** How many world events of `type` the record holds for `server`. */
  count(type: TraceEvent['type'], server: string): number {
    return this.recorder.events.filter(
      (event) => event.type === type && (event as { server?: string }).server === server,
    ).length;
  }

  /** Whether the case has an entry (a server or a twin) of this name. */
  hasServer(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Writes the host's disclosure of entry `name` (tool names as the host reported them) as a `disclosure` world event; an entry the case lacks is ignored (the driver refuses it first). */
  disclose(name: string, names: readonly string[], generation: number): void {
    const entry = this.#entries.get(name);
    const hosted = entry === undefined ? undefined : this.#servers.get(entry.server);
    if (entry === undefined || hosted === undefined) return;
    const digests = names.map((tool) => this.#digestOfName(hosted, tool, entry.audience));
    const snapshotDigest = createHash('sha256').update(JSON.stringify(digests)).digest('hex');
    this.recorder.world('disclosure', {
      session: `${this.agent}/${this.spec.name}`,
      server: entry.server,
      audience: entry.audience,
      key: `${hosted.identity}|${entry.audience}`,
      generation,
      snapshotDigest,
      tools: digests,
    });
  }

  /** Ends the record and returns the trace: header and events (world events only). */
  finish(status: 'settled' | 'undecided'): { header: TraceHeader; events: TraceEvent[] } {
    this.recorder.world('round_end', { status, reason: status === 'settled' ? 'quiet' : 'horizon' });
    return { header: this.header(), events: this.recorder.events };
  }

  /** The trace header: the case as scenario, the agent as core, the planned triggers as faults. */
  header(): TraceHeader {
    return {
      type: 'header',
      schema: TRACE_SCHEMA,
      seed: this.spec.seed,
      round: 0,
      scenario: `blackbox:${this.spec.name}`,
      core: `host:${this.agent}`,
      bounds: {
        pageCountMax: this.spec.pageCountMax,
        byteCountMax: 0,
        scanTimeoutMs: 0,
        latencyMsMax: 0,
        tHealMs: 0,
        tEndMs: 0,
        generationTtlMs: 0,
        retryBackoffMsMax: 0,
      },
      faults: this.spec.triggers.map(
        (t) => `trigger:${t.server}:${t.call === undefined ? `walk${t.walk}:page${t.page}` : `call${t.call}`}:${t.do}`,
      ),
    } as TraceHeader;
  }

  #host(spec: CaseServer): HostedServer {
    const identity = createHash('sha256').update(`identity|${this.spec.seed}|${spec.name}`).digest('hex');
    const hosted = {
      spec,
      clock: new WireClock(),
      identity,
      walks: 0,
      pagesInWalk: 0,
      pagesTotal: 0,
      callsAnswered: 0,
      silentNext: false,
      control: null,
    } as HostedServer;
    const plan = this.#plan(spec, identity);
    const rules = sortRules([
      this.#pageRule(hosted),
      this.#cursorRule(hosted),
      this.#changeRule(hosted),
      {
        afterPage: (_served: unknown, control: ServerControl) => {
          hosted.control = control;
        },
      },
    ]);
    (hosted as { sim: SimCatalogServer }).sim = new SimCatalogServer(plan, hosted.clock, this.recorder, {
      pageRng: createRng(`${this.spec.seed}/${spec.name}/unused`),
      rules,
      leaseKey: this.#leaseKey,
    });
    return hosted;
  }

  /** The bearer token of entry `name` (a server or a twin), seeded. */
  #token(name: string): string {
    return createHash('sha256').update(`token|${this.spec.seed}|${name}`).digest('hex').slice(0, 32);
  }

  #plan(spec: CaseServer, identity: string): ServerPlan {
    const audiences = spec.twin === undefined ? [spec.audience] : [spec.audience, spec.twin.audience];
    const history: RevisionStep[] = spec.revisions.map((names, index) => ({
      atMs: index,
      revision: index + 1,
      cause: index === 0 ? 'base' : 'trigger',
      views: Object.fromEntries(
        audiences.map((audience) => [audience, names.map((name) => this.#descriptor(spec, name, audience))]),
      ),
    }));
    return {
      id: spec.name,
      identity,
      versioned: true,
      audiences,
      history,
      pageSizeMin: spec.pageSize[0],
      pageSizeMax: spec.pageSize[1],
      cursorTrait: null,
      restartsAtMs: [],
      notifications: { declared: true, sendOnChange: true, afterPage2: false, lateByMs: 0, copies: 1 },
      latencyMsMin: 0,
      latencyMsMax: 0,
      rotations: [],
      planted: Object.entries(spec.defects ?? {}).flatMap(([name, defect]) =>
        audiences.map((audience) => ({ defect, descriptor: this.#descriptor(spec, name, audience) })),
      ),
      linkFaults: { reorder: false, notificationLossFraction: 0, disconnectsAtMs: {} },
      equivocates: false,
      overLimitCatalog: null,
    };
  }

  /**
   * A tool's descriptor: the description is seeded (a twin's audience gets its own), the schema
   * takes one optional string; a planted defect makes it defective as F13 does
   * (sim/faults/f13-planted-defects.ts). A BAD_NAME tool's name is the case's, as written.
   */
  #descriptor(spec: CaseServer, name: string, audience: string): ToolDescriptor {
    const twin = audience === spec.audience ? '' : `|${audience}`;
    const tag = createHash('sha256').update(`${this.spec.seed}|${spec.name}|${name}${twin}`).digest('hex').slice(0, 8);
    return {
      name,
      description: `${name}${twin === '' ? '' : ` for ${audience}`} (${tag})`,
      inputSchema: defectiveSchema(spec.defects?.[name]),
    };
  }

  /** The page size at (revision, offset): a function of the request, never of timing. */
  #pageSize(spec: CaseServer, revision: number, offset: number): number {
    const [min, max] = spec.pageSize;
    const draw = createHash('sha256')
      .update(`${this.spec.seed}|${spec.name}|${revision}|${offset}`)
      .digest()
      .readUInt32BE(0);
    return min + (draw % (max - min + 1));
  }

  /** Serves every page from the view at the cursor's offset, with the case's cursor behaviour, and fires triggers on the count. */
  #pageRule(hosted: HostedServer): PageRule {
    return {
      onPage: (request: PageRequest): ServedPage => {
        hosted.pagesTotal += 1;
        if (hosted.pagesTotal > FLOOD_PAGES_MAX)
          throw Object.assign(new Error('catsim: too many tools/list requests in this case'), { code: -32603 });
        const view = hosted.sim.currentViews()[request.audience] ?? [];
        const start = request.position.offset;
        const size = this.#pageSize(hosted.spec, request.revision, start);
        const more = start + size < view.length || hosted.spec.cursor === 'endless';
        const next = more ? this.#nextCursor(hosted.spec, request, start + size) : undefined;
        this.#countPage(hosted, request.cursor === undefined);
        return {
          tools: view.slice(start, start + size),
          nextCursor: next,
          reported: request.revision,
          nextOffset: start + size,
        };
      },
    };
  }

  #nextCursor(spec: CaseServer, request: PageRequest, offset: number): string {
    const honest = encodeCursor({ boot: request.boot, offset, empty: false });
    if (spec.cursor === 'empty-string' && request.position.offset === 0) return '';
    if (spec.cursor === 'repeat' && request.cursor !== undefined) return request.cursor;
    if (spec.cursor === 'cycle' && request.position.offset > 0)
      return encodeCursor({ boot: request.boot, offset: 0, empty: false });
    return honest;
  }

  /** Maps the `""` cursor to page 2 of the current revision (where page 1 ended). */
  #cursorRule(hosted: HostedServer): CursorRule {
    return {
      onCursor: (cursor, position, boot) => {
        if (cursor !== '' || hosted.spec.cursor !== 'empty-string')
          return position ?? (cursor === undefined ? undefined : decodeCursor(cursor));
        return { boot, offset: this.#pageSize(hosted.spec, hosted.clock.now() + 1, 0), empty: false };
      },
    };
  }

  /** A silent change sends no notification; any other sends `notificationCopies` (default 1) per session. */
  #changeRule(hosted: HostedServer): ChangeRule {
    return {
      onChange: (copies) => {
        const silent = hosted.silentNext;
        hosted.silentNext = false;
        return silent ? 0 : copies * (hosted.spec.notificationCopies ?? 1);
      },
    };
  }

  /** Counts walks and pages of `hosted`; after the page a trigger names, fires it once the answer is on its way. */
  #countPage(hosted: HostedServer, fresh: boolean): void {
    if (fresh) {
      hosted.walks += 1;
      hosted.pagesInWalk = 0;
    }
    hosted.pagesInWalk += 1;
    const trigger = this.spec.triggers.find(
      (t) => t.server === hosted.spec.name && t.walk === hosted.walks && t.page === hosted.pagesInWalk,
    );
    if (trigger !== undefined) setImmediate(() => this.#fire(hosted, trigger));
  }

  /** Counts the calls `hosted` answered; after the one a trigger names, fires it (the answer is written). */
  #countCall(hosted: HostedServer): void {
    hosted.callsAnswered += 1;
    const trigger = this.spec.triggers.find((t) => t.server === hosted.spec.name && t.call === hosted.callsAnswered);
    if (trigger !== undefined) this.#fire(hosted, trigger);
  }

  #fire(hosted: HostedServer, trigger: CaseTrigger): void {
    if (trigger.do === 'restart') return hosted.control?.restart();
    if (trigger.do === 'expire-session') {
      for (const entry of this.#entries.values())
        if (entry.server === hosted.spec.name)
          this.recorder.world('disconnected', { server: entry.server, audience: entry.audience });
      return this.#expire(hosted.spec.name);
    }
    hosted.silentNext = trigger.do === 'silent-change';
    hosted.clock.advance();
  }

  #digestOfName(hosted: HostedServer, name: string, audience: string): string {
    for (const names of hosted.spec.revisions) {
      if (names.includes(name)) return worldDescriptorDigest(this.#descriptor(hosted.spec, name, audience));
    }
    return createHash('sha256').update(`never-served|${name}`).digest('hex');
  }

  /** Wraps a session's transport: writes `session_opened`, `call_sent`, `notification_delivered`, the wire log, and stamps leases. */
  #tap(hosted: HostedServer, audience: string, session: number, inner: Transport, delivered: DeliveryProbe): Transport {
    const world = this;
    const log = (dir: WireEntry['dir'], message: JSONRPCMessage): void => {
      world.wireLog.push({ n: world.wireLog.length, server: hosted.spec.name, session, dir, message });
    };
    const calls = new Set<string | number>();
    const tap: Transport = {
      start: () => inner.start(),
      close: () => inner.close(),
      send: async (message, options) => {
        log('server->host', message);
        const notice = 'method' in message && message.method === 'notifications/tools/list_changed';
        const reaches = notice ? delivered() : false;
        const answer =
          !('method' in message) && 'id' in message && message.id !== undefined && calls.delete(message.id);
        await inner.send(message, options);
        if (reaches) world.recorder.world('notification_delivered', { server: hosted.spec.name, audience });
        if (answer) world.#countCall(hosted);
      },
    };
    inner.onmessage = (message, extra) => {
      world.#arrivals += 1;
      log('host->server', message);
      if ('method' in message && message.method === 'notifications/initialized') {
        world.recorder.world('session_opened', { server: hosted.spec.name, audience, identity: hosted.identity });
      }
      if ('method' in message && 'id' in message && message.method === 'tools/call') {
        const params = (message.params ?? {}) as Record<string, unknown>;
        const tool = typeof params.name === 'string' ? params.name : '';
        world.recorder.world('call_sent', { server: hosted.spec.name, audience, tool });
        const invalid = world.#argumentsProblem(hosted, audience, tool, params.arguments);
        if (invalid !== null) {
          // As a server that validates its inputs: refused before the tool runs, -32602.
          world.recorder.world('call_refused_by_server', {
            server: hosted.spec.name,
            audience,
            tool,
            leaseId: null,
            code: 'INVALID_ARGUMENTS',
          });
          calls.add(message.id);
          const error = {
            jsonrpc: '2.0' as const,
            id: message.id,
            error: { code: -32602, message: `Invalid arguments for tool ${tool}: ${invalid}` },
          };
          void tap.send(error).catch(() => undefined);
          return;
        }
        world.#stampLease(params);
        calls.add(message.id);
      }
      tap.onmessage?.(message, extra);
    };
    inner.onclose = () => tap.onclose?.();
    inner.onerror = (error) => tap.onerror?.(error);
    Object.defineProperty(tap, 'sessionId', { get: () => inner.sessionId });
    return tap;
  }

  /**
   * Why a call's arguments fail the input schema of the tool of that name in the audience's
   * current view (ajv's first error), or null: valid, no such tool (the server refuses it by
   * name), or a schema ajv cannot compile (a planted defect: the server cannot check it either).
   */
  #argumentsProblem(hosted: HostedServer, audience: string, tool: string, args: unknown): string | null {
    const descriptor = hosted.sim.currentViews()[audience]?.find((candidate) => candidate.name === tool);
    if (descriptor === undefined) return null;
    let validate: ValidateFunction;
    try {
      validate = this.#ajv.compile(descriptor.inputSchema as object);
    } catch {
      return null;
    }
    if (validate(args ?? {})) return null;
    const first = validate.errors?.[0];
    return `${first?.instancePath || '(root)'} ${first?.message ?? 'is invalid'}`;
  }

  /** Puts a lease the server accepts into a call's `_meta` (a black-box host has none). */
  #stampLease(params: Record<string, unknown>): void {
    this.#leases += 1;
    const fields = {
      leaseId: `blackbox-${this.#leases}`,
      tool: params.name,
      notAfter: Number.MAX_SAFE_INTEGER,
      policyEpoch: 0,
    };
    const mac = createHmac('sha256', Buffer.from(this.#leaseKey, 'utf8'))
      .update(canonicalize(fields) ?? '', 'utf8')
      .digest('hex');
    params._meta = { ...((params._meta ?? {}) as Record<string, unknown>), [LEASE_KEY]: { ...fields, mac } };
  }
}

/** The input schema of a case tool, with its planted defect (none: one optional string `text`). */
function defectiveSchema(defect: CaseDefect | undefined): ToolDescriptor['inputSchema'] {
  const properties = { text: { type: 'string' } };
  switch (defect) {
    case 'UNKNOWN_DIALECT':
      return { $schema: 'https://example.com/private-dialect', type: 'object', properties };
    case 'UNRESOLVED_REF':
      return { type: 'object', properties: { ...properties, extra: { $ref: '#/$defs/missing' } } };
    case 'REMOTE_REF':
      return {
        type: 'object',
        properties: { ...properties, extra: { $ref: 'https://schemas.example.com/extra.json' } },
      };
    case 'NON_OBJECT_ROOT':
      return { type: 'array', items: { type: 'string' } } as unknown as ToolDescriptor['inputSchema'];
    default:
      return { type: 'object', properties };
  }
}
