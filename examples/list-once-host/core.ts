/**
 * A catsim core for a Client-based MCP host: the template to copy (docs/CORE-API.md).
 *
 *   npx catsim run --core ./examples/list-once-host/core.ts --rounds 200
 *
 * To test YOUR host, copy this file next to your host and change the three lines marked 1, 2, 3
 * below: (1) import your host class, (2) name it for reports, (3) build it on the connected SDK
 * `Client` the world hands over, as an object with `listTools()` (how your host discovers tools,
 * however it pages) and `callTool(name, args)` (how it calls one by name). Nothing else needs to
 * change: this adapter never looks inside the host, it watches the host's `Client` on the wire.
 *
 * What the adapter does, per catalog key the world offers (attach):
 * - connects through the world's connector, watches the Client's wire (WireWatch: every
 *   `tools/list` request is tagged with a scan id, every page recorded as sent), builds the host,
 *   and asks it for its tools once; the pages the host read are then reported as the catalog it
 *   uses (`published`, unversioned: the host binds no revision), and `disclose` shows exactly that;
 * - for each call the world's planner sends, asks the host to call it by name and writes the host's
 *   decision under the lease convention every core without a gate is judged by (GatelessCalls,
 *   docs/CORE-API.md): the host has no gate, so the call it sends is admitted (`gate_decision`
 *   ADMIT), and the adapter adds the lease the world's servers require to that `tools/call` on the
 *   wire and writes the `receipt` when it leaves. The lease is the testbed's ticket to the simulated
 *   server, not a defence of the host: the oracle judges the ADMIT (I3, I7, I8, I9, I11) either way.
 * It adds no defence the host lacks, and reports nothing the host did not do.
 *
 * Expected result on the default scenario: exit 1. The oracle's findings (test/example-core.test.ts
 * keeps them exact on seed 1) are the host's real defects: planted defects used (I5), calls to
 * tools never disclosed (I9), revoked tools admitted (I7), unconfirmed writes (I3), stale plans
 * admitted (I8), a catalog that never converges after a change (I12), cursor loops walked past
 * every bound (I13), calls sent after a list_changed without a fresh list (I18), catalogs over
 * the whole-catalog limits shown and called from (I27).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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
} from 'catsim';
import { ListOnceHost } from './host.js'; // 1. your host class (host.ts, imported by its .js name as NodeNext does)

const NAME = 'list-once-host'; // 2. its name in reports

/** What the adapter needs of a host: how it discovers tools, and how it calls one by name. */
interface Host {
  listTools(): Promise<unknown>;
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}

const buildHost = (client: Client): Host => new ListOnceHost(client); // 3. your host on the connected Client

/** One catalog key the host serves: its host, its wire, and the catalog it uses. */
interface Served {
  host: Host;
  wire: WireWatch;
  catalog?: PublishedCatalog;
}

class HostAdapter implements CoreAdapter {
  readonly #served = new Map<string, Served>();
  /** The host's calls under the lease convention of a host without a gate (GatelessCalls). */
  readonly #calls: GatelessCalls;
  #connections = 0;

  /**
   * What this boot's ids start with: nothing in the first boot, `b<N>-` in boot N after a host
   * restart (F18), so that a scan or lease id names one thing in the whole round (docs/CORE-API.md).
   */
  readonly #boot: string;

  constructor(private readonly env: CoreEnvironment) {
    this.#boot = env.disk === undefined || env.disk.boot === 0 ? '' : `b${env.disk.boot}-`;
    this.#calls = new GatelessCalls(env, { leaseIdPrefix: `lease-${this.#boot}` });
  }

  attach(spec: SessionSpec): void {
    this.#calls.watchPolicy(spec.tenant, spec.role);
    // One connection for the session; a host that lists once never reconnects after a cut.
    void spec.connector
      .connect()
      .then(async (connection) => {
        const key = catalogKey(connection.identity(), spec.tenant, spec.role);
        const wire = WireWatch.watch(connection.client, { scanIdPrefix: `${this.#boot}c${this.#connections++}-` });
        const served: Served = { host: buildHost(connection.client), wire };
        this.#served.set(key, served);
        await served.host.listTools();
        this.#publish(key, served);
      })
      .catch(() => undefined); // the host failed to connect or to list: it has no catalog, and says nothing
  }

  /** Reports the pages of the host's latest walk as the catalog it now uses. */
  #publish(key: string, served: Served): void {
    const walk = served.wire.latestWalk();
    if (walk === undefined || walk.pages.length === 0) return;
    const generation = (served.catalog?.generation ?? 0) + 1;
    const { observation, catalog } = publishedSnapshot({ key, scanId: walk.scanId, generation, pages: walk.pages });
    this.env.sink.emit(observation);
    served.catalog = catalog;
  }

  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const catalog = this.#served.get(catalogKey(identity, tenant, role))?.catalog;
    return catalog === undefined ? { ok: false, code: 'INCOMPLETE_DISCOVERY' } : { ok: true, ...catalog };
  }

  async call(request: CallRequest): Promise<void> {
    const key = catalogKey(request.identity, request.tenant, request.role);
    const served = this.#served.get(key);
    const target = { key, wire: served?.wire, catalog: served?.catalog };
    await this.#calls.call(request, target, async () =>
      served?.host.callTool(request.plan.toolName, request.arguments),
    );
  }

  pushPolicy(update: PolicyUpdate): void {
    this.#calls.notePolicy(update);
  }

  stop(): void {
    this.#calls.stop();
  }
}

export default defineCore({ name: NAME, create: (env) => new HostAdapter(env) });
