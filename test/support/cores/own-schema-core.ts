/**
 * Cores with their own schema on the host's disk (F18, issue 27.4), for
 * test/own-schema-restart.test.ts: the list-once template (examples/list-once-host/core.ts),
 * except that each catalog it publishes is also written to a table of its own,
 * `host_catalogs(key TEXT PRIMARY KEY, catalog TEXT)` holding the published catalog as JSON, never
 * catsim's registry tables. A new boot reads the table back, shows those catalogs until its own
 * walk publishes, and numbers its next publish of a key on from the stored generation.
 * - {@link keepingCore} keeps the table in the database file (`main`): its commits survive.
 * - {@link tempTableCore} keeps it in a TEMP table, which lives in the connection only: a new boot
 *   finds it empty, so it loses every commit, as a host that caches its catalog in memory would.
 * Its ids carry the boot (`b<N>-`), as the contract asks (docs/CORE-API.md).
 */
import type Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LEASE_META,
  LeaseIssuer,
  WireWatch,
  catalogKey,
  defineCore,
  publishedSnapshot,
  type CallRequest,
  type CoreAdapter,
  type CoreEnvironment,
  type CoreTask,
  type DisclosureResult,
  type PolicyUpdate,
  type PublishedCatalog,
  type SessionSpec,
} from 'catsim';
import { ListOnceHost } from '../../../examples/list-once-host/host.ts';

/** Which schema holds `host_catalogs`: the file (`main`) or the connection (`temp`). */
type Schema = 'main' | 'temp';

/** The core's own table of published catalogs, on the host's disk when the round has one. */
class CatalogTable {
  readonly #catalogs = new Map<string, PublishedCatalog>();
  readonly #save: ((key: string, json: string) => void) | undefined;

  constructor(env: CoreEnvironment, schema: Schema) {
    if (env.disk === undefined) return;
    // The contract types the connection as unknown; it is better-sqlite3's (docs/CORE-API.md).
    const db = env.disk.sqlite() as Database.Database;
    db.exec(`CREATE TABLE IF NOT EXISTS ${schema}.host_catalogs (key TEXT PRIMARY KEY, catalog TEXT NOT NULL)`);
    for (const row of db.prepare(`SELECT key, catalog FROM ${schema}.host_catalogs ORDER BY key`).all() as {
      key: string;
      catalog: string;
    }[]) {
      this.#catalogs.set(row.key, JSON.parse(row.catalog) as PublishedCatalog);
    }
    const insert = db.prepare(`INSERT OR REPLACE INTO ${schema}.host_catalogs (key, catalog) VALUES (?, ?)`);
    this.#save = (key, json) => {
      insert.run(key, json);
    };
  }

  get(key: string): PublishedCatalog | undefined {
    return this.#catalogs.get(key);
  }

  /** Writes the catalog first (a dead boot's write throws, and nothing is reported). */
  put(catalog: PublishedCatalog): void {
    this.#save?.(catalog.key, JSON.stringify(catalog));
    this.#catalogs.set(catalog.key, catalog);
  }
}

/** One catalog key the host serves: its host and its wire. */
interface Served {
  host: ListOnceHost;
  wire: WireWatch;
}

class OwnSchemaAdapter implements CoreAdapter {
  readonly #served = new Map<string, Served>();
  readonly #epochs = new Map<string, number>();
  readonly #polls: CoreTask[] = [];
  readonly #leases: LeaseIssuer;
  readonly #table: CatalogTable;
  readonly #boot: string;
  #connections = 0;

  constructor(
    private readonly env: CoreEnvironment,
    schema: Schema,
  ) {
    this.#boot = env.disk === undefined || env.disk.boot === 0 ? '' : `b${env.disk.boot}-`;
    this.#leases = new LeaseIssuer({
      key: env.leaseKey,
      ttlMs: 5_000,
      idPrefix: `lease-${this.#boot}`,
      clock: env.clock,
    });
    this.#table = new CatalogTable(env, schema);
  }

  attach(spec: SessionSpec): void {
    this.#pollPolicy(`${spec.tenant}.${spec.role}`);
    void spec.connector
      .connect()
      .then(async (connection) => {
        const key = catalogKey(connection.identity(), spec.tenant, spec.role);
        const wire = WireWatch.watch(connection.client as Client, {
          scanIdPrefix: `${this.#boot}c${this.#connections++}-`,
        });
        const served: Served = { host: new ListOnceHost(connection.client as Client), wire };
        this.#served.set(key, served);
        await served.host.listTools();
        this.#publish(key, served);
      })
      .catch(() => undefined);
  }

  /** Publishes the latest walk at the stored generation + 1: the row first, then the report. */
  #publish(key: string, served: Served): void {
    const walk = served.wire.latestWalk();
    if (walk === undefined || walk.pages.length === 0) return;
    const generation = (this.#table.get(key)?.generation ?? 0) + 1;
    const { observation, catalog } = publishedSnapshot({ key, scanId: walk.scanId, generation, pages: walk.pages });
    this.#table.put(catalog);
    this.env.sink.emit(observation);
  }

  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const catalog = this.#table.get(catalogKey(identity, tenant, role));
    return catalog === undefined ? { ok: false, code: 'INCOMPLETE_DISCOVERY' } : { ok: true, ...catalog };
  }

  async call(request: CallRequest): Promise<void> {
    const key = catalogKey(request.identity, request.tenant, request.role);
    const served = this.#served.get(key);
    const catalog = this.#table.get(key);
    const tool = request.plan.toolName;
    const listed = catalog?.tools.find((candidate) => candidate.name === tool);
    const policyEpoch = this.#epochs.get(`${request.tenant}.${request.role}`) ?? 1;
    const decision = catalog === undefined || served === undefined ? 'INCOMPLETE_DISCOVERY' : 'ADMIT';
    this.env.sink.emit({
      type: 'gate_decision',
      callId: request.callId,
      planId: request.planId,
      session: request.session,
      key,
      tool,
      planDescriptorDigest: request.plan.descriptorDigest,
      generation: catalog?.generation ?? null,
      descriptorDigest: listed?.descriptorDigest ?? null,
      policyEpoch,
      decision,
    });
    if (catalog === undefined || served === undefined) return;
    const { generation } = catalog;
    const descriptorDigest = listed?.descriptorDigest ?? request.plan.descriptorDigest;
    const lease = this.#leases.issue({
      key,
      principal: request.principal,
      session: request.session,
      tool,
      resourceScope: `session:${request.session}`,
      generation,
      descriptorDigest,
      policyEpoch,
    });
    const stamp = {
      meta: { [LEASE_META]: lease },
      onSent: () =>
        this.env.sink.emit({
          type: 'receipt',
          callId: request.callId,
          leaseId: lease.leaseId,
          key,
          tool,
          generation,
          descriptorDigest,
          policyEpoch,
          disclosure: { generation: request.plan.generation, snapshotDigest: request.plan.snapshotDigest },
          pin: null,
        }),
      onAnswer: (outcome: 'ok' | 'error') =>
        this.env.sink.emit({ type: 'receipt_outcome', leaseId: lease.leaseId, outcome }),
    };
    served.wire.stampCall({ name: tool, arguments: request.arguments }, stamp);
    await served.host.callTool(tool, request.arguments).catch(() => undefined);
    served.wire.cancelStamp(stamp);
  }

  pushPolicy(update: PolicyUpdate): void {
    this.#noteEpoch(update);
  }

  stop(): void {
    for (const task of this.#polls) this.env.scheduler.cancel(task);
  }

  #pollPolicy(audience: string): void {
    const poll = (): void => {
      void this.env.policySource.poll(audience).then((update) => this.#noteEpoch(update));
      this.#polls.push(this.env.scheduler.after(this.env.policyPollMs, poll));
    };
    poll();
  }

  #noteEpoch(update: PolicyUpdate): void {
    if (update.epoch > (this.#epochs.get(update.audience) ?? 0)) this.#epochs.set(update.audience, update.epoch);
  }
}

/** The core that keeps `host_catalogs` in the database file: what it published survives a restart. */
export const keepingCore = defineCore({
  name: 'own-schema-keeping',
  create: (env) => new OwnSchemaAdapter(env, 'main'),
});

/** The core that keeps `host_catalogs` in a TEMP table: a new boot finds it empty. */
export const tempTableCore = defineCore({
  name: 'own-schema-temp',
  create: (env) => new OwnSchemaAdapter(env, 'temp'),
});

export default keepingCore;
