/**
 * `peer:openai-agents`: the OpenAI Agents SDK's MCP support, `@openai/agents-core` 0.20.0 (which
 * drives `@modelcontextprotocol/client` 2.4.0 inside), run as an agent host uses it: one
 * `MCPServerStdio` per catalog key with `cacheToolsList: true`, an `Agent` with
 * `mcpServers: [server]`, `server.connect()`, and at every turn what the runner does before it
 * asks the model: `agent.getAllTools(runContext)` (which is `getAllMcpTools`). A call is the
 * runner's: the function tool of that name from the turn's list, through `invokeFunctionTool`.
 *
 * What the library does (read in dist/mcp.mjs, dist/mcpToolCache.mjs and
 * dist/shims/mcp-server/node.mjs):
 * - the walk is agents-core's own `listAllMcpTools` (node.mjs) on a 2025-era connection: it
 *   follows `nextCursor` until there is none, throws on a cursor it has seen before in the walk
 *   ("MCP server returned a repeated cursor") and after `maxListPages` pages (default 64), and
 *   throws on a failed continuation page;
 * - with `cacheToolsList`, the first complete list is kept twice, on the instance and in a
 *   module-level map keyed by server name (`cachedMcpTools`), and served from there at every
 *   later turn; nothing in the library ever drops it except `connect()`, `close()` and
 *   `invalidateToolsCache()`: it installs no `list_changed` handler;
 * - `getAllMcpTools` renames each tool with `toFunctionToolName` (every character outside
 *   [A-Za-z0-9] becomes "_") and throws a `UserError` when two tools end up with one name, so a
 *   server with names equal after that normalisation yields no tools at all;
 * - `connect()` negotiates with `versionNegotiation: { mode: 'auto' }`: a `server/discover`
 *   probe, which the SDK 1.32.2 servers refuse (-32601), then the 2025 `initialize`.
 * Timers (`setTimeout` in the v2 client) and `Date` are read at call time and run on virtual
 * time. The one real timer, the trace export loop that importing the package starts, is shut
 * down when this module loads (see below); with tracing disabled no span is ever made.
 *
 * Wrapped, the narrowest part: `NodeMCPServerStdio.connect()` (dist/shims/mcp-server/node.mjs,
 * exported from '@openai/agents-core/_shims' as `MCPServerStdio`), the one method that spawns a
 * process (`new StdioClientTransport`). `SimulatedStdio` overrides it with the same body on the
 * simulated transport: the same `Client` from '@modelcontextprotocol/client' with the same
 * options (`versionNegotiation: { mode: 'auto' }`, `listMaxPages`), the same 5 s request
 * timeout, the same `serverInitializeResult` and the same cleanup on failure (its log lines left
 * out). It is installed as the `underlying` of the public `MCPServerStdio` (a private field in
 * the typings, set through a cast); every other method of both classes, the lifecycle guard,
 * both caches and the walk run unchanged. The transport reaches it through
 * `connector.connectTransport` and the exported wire tap (`WireWatch.tap`). A call goes to the
 * server under the name the server gave the tool (the function tool's name may be renamed), so
 * its lease and receipt name that tool.
 *
 * Global state across rounds: the module-level cache is keyed by server name; the servers here
 * are named `<endpoint>/<tenant>.<role>`, unique within a round, and each round's `connect()`
 * drops that name's entry before anything lists, so no round can see another's tools.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Client as V2Client, type Transport as V2Transport } from '@modelcontextprotocol/client';
import {
  Agent,
  MCPServerStdio,
  RunContext,
  invokeFunctionTool,
  setTraceProcessors,
  setTracingDisabled,
  type FunctionTool,
  type Tool,
} from '@openai/agents-core';
import { MCPServerStdio as NodeMCPServerStdio } from '@openai/agents-core/_shims';
import { toFunctionToolName } from '@openai/agents-core/utils';
import type { WireWatch } from '../../api/wire-watch.ts';
import type { SessionSpec, TransportConnection } from '../../sim/guard/adapter.ts';
import type { PeerSend } from './peer-host.ts';
import { keyNow, Sessions, TappedPeer, type ListedTool } from './tapped-peer.ts';

// Importing '@openai/agents-core' registers its default trace processor, whose constructor starts
// an export loop on a real, unref'd 5 s `setTimeout` (dist/tracing/processor.mjs,
// `BatchTraceProcessor.#runExportLoop`). Each time it fires it re-arms through whatever
// `setTimeout` is global then: during a round, the world's virtual one, so a real-time event
// would put a timer on the world's queue and change the round (seen as a round ending at its
// horizon instead of quiet, in 1 of about 40 rounds). The host here exports no traces, as a host
// without a tracing backend is configured: replacing the processors shuts the default one down,
// which clears its timer, before any round runs; and tracing is disabled, so no span is made.
setTraceProcessors([]);
setTracingDisabled(true);

/** The options of `MCPServerStdio` (the type is not exported by name). */
type MCPServerStdioOptions = ConstructorParameters<typeof MCPServerStdio>[0];

/** Opens the key's connection, handing its transport to the library's client. */
type Opener = (use: (transport: Transport) => Promise<void>) => Promise<TransportConnection>;

/**
 * The library's fields that its `connect()` sets or reads: private in the typings, and `session`
 * and `serverInitializeResult` typed against the CommonJS build of the v2 client.
 */
interface StdioPrivates {
  _name: string;
  maxListPages: number | undefined;
  transport: unknown;
  session: unknown;
  serverInitializeResult: unknown;
}

/** `NodeMCPServerStdio` with `connect()` on the simulated transport instead of a child process. */
class SimulatedStdio extends NodeMCPServerStdio {
  constructor(
    options: MCPServerStdioOptions,
    private readonly open: Opener,
  ) {
    super(options);
  }

  /** The library's `connect()`, line for line, with the transport swapped (see the header). */
  override async connect(): Promise<void> {
    this._toolsCacheGeneration += 1;
    this._cacheDirty = true;
    this._toolsList = [];
    const own = this as unknown as StdioPrivates;
    try {
      await this.open(async (transport) => {
        own.transport = transport;
        const session = new V2Client(
          { name: own._name, version: '1.0.0' },
          { versionNegotiation: { mode: 'auto' }, listMaxPages: own.maxListPages ?? 0 },
        );
        own.session = session;
        await session.connect(transport as unknown as V2Transport, {
          timeout: (this.clientSessionTimeoutSeconds ?? 5) * 1000,
        });
      });
      own.serverInitializeResult = { serverInfo: { name: own._name, version: '1.0.0' } };
    } catch (error) {
      await this.close();
      throw error;
    }
  }
}

/** One catalog key as the agent host holds it. */
interface AgentKey {
  agent: Agent;
  /** The connection's identity now (set when it opened). */
  identity?: () => string;
  wire?: WireWatch;
  /** The runner's call path (set when the connection opened). */
  send?: PeerSend;
  /** The function tools of the latest turn, by the name the model sees. */
  tools: Map<string, FunctionTool>;
  /** The served name of each function tool of the latest turn. */
  servedNames: Map<string, string>;
  turnRunning: boolean;
}

/** The OpenAI Agents SDK as a peer. */
export class OpenAiAgentsPeer extends TappedPeer {
  readonly #sessions = new Sessions<AgentKey>();
  readonly #runContext = new RunContext();

  protected override open(session: SessionSpec): void {
    const host: AgentKey = {
      agent: new Agent({ name: 'catsim-host' }),
      tools: new Map(),
      servedNames: new Map(),
      turnRunning: false,
    };
    const server = this.#server(session, host);
    host.agent.mcpServers = [server];
    void server.connect().then(
      () => this.#turn(host, session),
      () => undefined,
    );
  }

  /**
   * Every disclosure is a turn of the agent loop: the runner lists the agent's tools again, the
   * agent whose connection presents `identity` now (the same agent after a rotation).
   */
  override disclose(
    session: string,
    tenant: string,
    role: string,
    identity: string,
  ): ReturnType<TappedPeer['disclose']> {
    const host = this.#sessions.find(tenant, role, identity);
    if (host !== undefined && !host.turnRunning) void this.#turn(host, { tenant, role });
    return super.disclose(session, tenant, role, identity);
  }

  /** The public `MCPServerStdio`, with its process-spawning part replaced. */
  #server(session: SessionSpec, host: AgentKey): MCPServerStdio {
    const options: MCPServerStdioOptions = {
      name: `${session.endpointDigest}/${session.tenant}.${session.role}`,
      command: 'catsim-simulated-server',
      cacheToolsList: true,
    };
    const open: Opener = async (use) => {
      const connection = await session.connector.connectTransport(async (transport) => {
        host.wire = this.tap(transport);
        await use(host.wire.transport);
      });
      host.identity = connection.identity;
      // The runner's call path: the turn's function tool of that name, or nothing (unknown tool).
      host.send = async (name, args) => {
        const tool = host.tools.get(name);
        if (tool !== undefined)
          await invokeFunctionTool({ tool, runContext: this.#runContext, input: JSON.stringify(args) });
      };
      if (host.wire !== undefined) this.#remember(host, keyNow(connection.identity, session.tenant, session.role));
      this.#sessions.add(session.tenant, session.role, connection.identity, host);
      return connection;
    };
    const server = new MCPServerStdio(options);
    (server as unknown as { underlying: NodeMCPServerStdio }).underlying = new SimulatedStdio(options, open);
    return server;
  }

  /** Remembers the host's call path under `key`. */
  #remember(host: AgentKey, key: string): void {
    if (host.wire === undefined || host.send === undefined) return;
    this.remember(key, host.wire, host.send, { servedName: (name) => host.servedNames.get(name) ?? name });
  }

  /**
   * One turn's discovery: `agent.getAllTools`, published when it read the server, under the
   * catalog key the connection presented when the turn began (none before it opened).
   */
  async #turn(host: AgentKey, audience: { tenant: string; role: string }): Promise<void> {
    const key = host.identity === undefined ? undefined : keyNow(host.identity, audience.tenant, audience.role);
    host.turnRunning = true;
    const tools = await host.agent.getAllTools(this.#runContext).catch(() => undefined);
    host.turnRunning = false;
    if (tools === undefined || key === undefined || host.wire === undefined || !this.hasNewWalk(key, host.wire)) return;
    const functions = tools.filter((tool): tool is FunctionTool => tool.type === 'function');
    const listed = listedAs(functions, host.wire);
    host.tools = new Map(functions.map((tool) => [tool.name, tool]));
    host.servedNames = new Map(listed.map((tool) => [tool.name, tool.servedName]));
    this.#remember(host, key);
    this.publishWalk(key, host.wire, listed);
  }
}

/** Pairs each function tool with the served tool at its position, checking the library's renaming. */
function listedAs(functions: readonly Tool[], wire: WireWatch): ListedTool[] {
  const served = wire.latestWalk()?.pages.flatMap((page) => page.tools) ?? [];
  return functions.map((tool, index) => {
    const servedName = String((served[index] as { name?: unknown } | undefined)?.name ?? '');
    if (toFunctionToolName(servedName) !== tool.name)
      throw new Error(
        `peer adapter bug: agents-core tool ${index} is "${tool.name}" but the walk's is "${servedName}"`,
      );
    return { name: tool.name, servedName };
  });
}
