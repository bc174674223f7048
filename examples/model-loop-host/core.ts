/**
 * A catsim core for a host whose agent loop lists tools, runs a model turn and calls what the
 * model picked, over an MCP client the host brings itself: the second template to copy
 * (docs/CORE-API.md, "A host with an agent loop").
 *
 *   npx catsim run --core ./examples/model-loop-host/core.ts --rounds 200
 *
 * To test YOUR host, copy this file next to your host and change the lines marked 1, 2, 3: (1)
 * import your host, (2) name it, (3) build it: an object that connects its own client over a plain
 * MCP `Transport` (resolving when the initialize handshake is done), lists its tools, and runs one
 * turn with a model it is given (list, model, call the pick).
 *
 * How the loop maps onto the world's calls (docs/CORE-API.md explains what each choice means for
 * I8, I9 and I12):
 * - a session starts with the loop's first list (attach: connect through
 *   `connector.connectTransport`, tap the transport with `WireWatch.tap`, list): what it read is
 *   the catalog the host shows (`published`, unversioned), and `disclose` shows the latest one;
 * - each call the world's planner sends is one turn of the loop: the host lists again (a new
 *   catalog when the server answered a new walk), then the model turn, whose model is the planner:
 *   it picks the planned tool and arguments; the host calls the pick if its fresh list holds it;
 * - the host has no gate, so the call it sends is its ADMIT and a pick it does not call is its
 *   refusal, under the lease convention every core without a gate is judged by (GatelessCalls).
 * It adds no defence the host lacks, and reports nothing the host did not do.
 */
import {
  GatelessCalls,
  WireWatch,
  catalogKey,
  defineCore,
  publishedSnapshot,
  type CallRequest,
  type CoreAdapter,
  type CoreEnvironment,
  type DisclosureResult,
  type PolicyUpdate,
  type PublishedCatalog,
  type SessionSpec,
  type Transport,
} from 'catsim';
import { AgentLoopHost, type Model } from './host.js'; // 1. your host (host.ts, imported by its .js name as NodeNext does)

const NAME = 'model-loop-host'; // 2. its name in reports

/** What the adapter needs of a host: connect over a transport, list, and run one turn with a model. */
interface Host {
  connect(transport: Transport): Promise<void>;
  listTools(): Promise<unknown>;
  turn(model: Model): Promise<unknown>;
}

const buildHost = (): Host => new AgentLoopHost(); // 3. your host, not connected yet

/** One catalog key the host serves: its host, its wire, the catalog it shows, and the answers published. */
interface Served {
  host: Host;
  wire: WireWatch;
  catalog?: PublishedCatalog;
  /** `wire.answers` when the catalog was last published (a turn whose list read nothing new publishes nothing). */
  answersAtPublish?: number;
}

class LoopAdapter implements CoreAdapter {
  readonly #served = new Map<string, Served>();
  readonly #calls: GatelessCalls;
  /** What this boot's ids start with: `b<N>-` in boot N > 0 after a host restart (F18). */
  readonly #boot: string;
  #connections = 0;

  constructor(private readonly env: CoreEnvironment) {
    this.#boot = env.disk === undefined || env.disk.boot === 0 ? '' : `b${env.disk.boot}-`;
    this.#calls = new GatelessCalls(env, { leaseIdPrefix: `lease-${this.#boot}` });
  }

  attach(spec: SessionSpec): void {
    this.#calls.watchPolicy(spec.tenant, spec.role);
    const host = buildHost();
    let wire: WireWatch | undefined;
    // One connection for the session; the loop never reconnects after a cut.
    void spec.connector
      .connectTransport(async (transport) => {
        wire = WireWatch.tap(transport, { scanIdPrefix: `${this.#boot}c${this.#connections++}-` });
        await host.connect(wire.transport); // resolves after notifications/initialized: the session is open
      })
      .then(async ({ identity }) => {
        if (wire === undefined) return;
        const key = catalogKey(identity(), spec.tenant, spec.role);
        const served: Served = { host, wire };
        this.#served.set(key, served);
        await host.listTools(); // the first turn's list
        this.#publish(key, served);
      })
      .catch(() => undefined); // the host failed to connect or to list: it has no catalog, and says nothing
  }

  /** Reports the host's latest walk as the catalog it now shows, when the server answered a new one. */
  #publish(key: string, served: Served): void {
    const walk = served.wire.latestWalk();
    if (walk === undefined || walk.pages.length === 0 || served.answersAtPublish === served.wire.answers) return;
    const generation = (served.catalog?.generation ?? 0) + 1;
    const { observation, catalog } = publishedSnapshot({ key, scanId: walk.scanId, generation, pages: walk.pages });
    this.env.sink.emit(observation);
    served.catalog = catalog;
    served.answersAtPublish = served.wire.answers;
  }

  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const catalog = this.#served.get(catalogKey(identity, tenant, role))?.catalog;
    return catalog === undefined ? { ok: false, code: 'INCOMPLETE_DISCOVERY' } : { ok: true, ...catalog };
  }

  /** One turn of the loop: list, the model (the planner's pick), the call. */
  async call(request: CallRequest): Promise<void> {
    const key = catalogKey(request.identity, request.tenant, request.role);
    const served = this.#served.get(key);
    if (served === undefined) {
      await this.#calls.call(request, { key, wire: undefined, catalog: undefined }, async () => undefined);
      return;
    }
    let decided: Promise<void> | undefined;
    let turn: Promise<unknown> | undefined;
    const model: Model = async () => {
      this.#publish(key, served); // the list the model is shown
      decided = this.#calls.call(
        request,
        { key, wire: served.wire, catalog: served.catalog },
        () => turn ?? Promise.resolve(),
      );
      return { name: request.plan.toolName, arguments: request.arguments };
    };
    turn = served.host.turn(model);
    await turn.catch(() => undefined); // a refused call is the server's answer, not a failure
    // The turn's list failed before the model ran: the host had no list to pick from.
    await (decided ?? this.#calls.call(request, { key, wire: served.wire, catalog: undefined }, async () => undefined));
  }

  pushPolicy(update: PolicyUpdate): void {
    this.#calls.notePolicy(update);
  }

  stop(): void {
    this.#calls.stop();
  }
}

export default defineCore({ name: NAME, create: (env) => new LoopAdapter(env) });
