/**
 * A reference host over one real SDK Client/Server pair (test/support/scripted-server.ts), on
 * virtual time, for the admission tests. The server lists `world.tools` at `world.revision`
 * (omitted when `versioned` is false) in one page and answers calls through `onCall`; its identity
 * is `world.identity`, read at call time (so a test can rotate it). Every connect opens a fresh
 * pair, so a test can cut the connection (`h.pair.close()`) and watch the core reconnect.
 *
 * Order of use: `await startHarness(...)` (attaches `acme.dev` and starts its refresher; the first
 * scan publishes generation 1), `h.grant(...)`, `h.disclose(session)`, `h.request(...)`,
 * `await h.host.call(request)`, `await h.close()`. Not part of the library.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CapabilityStore } from '../../capability/capability-store.ts';
import { scriptedPair, type CallScript, type ScriptedPair } from '../../../test/support/scripted-server.ts';
import { ConnectedPageSource } from '../../discovery/connected-source.ts';
import type { CatalogRefresher } from '../../discovery/refresher.ts';
import { CatalogHost, type HostConfig } from '../../host.ts';
import type { AudienceClass, CatalogKey } from '../../keys.ts';
import type { CoreMemos } from '../../memos.ts';
import type { Observation } from '../../ports.ts';
import { InMemoryRegistryStore, type GenerationRecord, type RegistryStore } from '../../registry/store.ts';
import { DEFAULT_TRUST, type EffectClass } from '../../validation/trust.ts';
import type { CallPlan, CallRequest } from '../gate.ts';
import { VirtualTime } from './virtual-time.ts';

/** The lease key of every harness host. */
export const TEST_LEASE_KEY = 'catsim-test-lease-key';

/** The audience every harness attaches first. */
export const ACME: AudienceClass = { tenant: 'acme', role: 'dev' };

/** The server's mutable state. */
export interface World {
  identity: string;
  revision: number;
  versioned: boolean;
  tools: Record<string, unknown>[];
  /** True while the server cannot be reached: every connect fails (a call then finds no live connection). */
  down?: boolean;
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  tools: Record<string, unknown>[];
  versioned?: boolean;
  revision?: number;
  onCall?: CallScript;
  effectClasses?: Record<string, EffectClass>;
  /** Overrides of the host configuration. */
  config?: Partial<HostConfig>;
  /**
   * The host's store; the harness never closes it. Default: a fresh in-memory one, unless
   * `config.storePath` is set (the host then opens, and on `stop()` closes, the SQLite store there).
   */
  store?: RegistryStore;
  /** Memos shared with other hosts (`HostPorts.memos`). Default: none, the host builds its own. */
  memos?: CoreMemos;
  /** The host's capability store (`HostPorts.capabilities`). Default: none (no capability registry). */
  capabilities?: CapabilityStore;
}

/** A started harness. */
export interface Harness {
  time: VirtualTime;
  world: World;
  /** The latest connection's pair (the connector opens a new pair on every connect). */
  readonly pair: ScriptedPair;
  /** Every pair opened so far, oldest first. */
  pairs: ScriptedPair[];
  host: CatalogHost;
  source: ConnectedPageSource;
  refreshers: CatalogRefresher[];
  /** Every observation the core emitted, in order, with the virtual time `t`. */
  events: (Observation & { t: number })[];
  /** Events of one type, in order. */
  of<T extends Observation['type']>(type: T): (Extract<Observation, { type: T }> & { t: number })[];
  /** Pushes the next policy epoch for `audience` (default acme.dev) granting exactly `tools`. */
  grant(tools: string[], audience?: AudienceClass): void;
  /** Discloses acme.dev's catalog to `session`; throws when nothing is served. */
  disclose(session: string, audience?: AudienceClass): GenerationRecord;
  /** A plan for `toolName` from generation `record` (its digest there, or `descriptorDigest`). */
  plan(record: GenerationRecord, toolName: string, descriptorDigest?: string): CallPlan;
  /** A request for `plan` by alice in session s1 on acme.dev at the server's identity now. */
  request(plan: CallPlan, overrides?: Partial<CallRequest>): CallRequest;
  /** Attaches another audience to the same connection (its refresher is not started). */
  attach(audience: AudienceClass): CatalogRefresher;
  /** Runs one scan of acme.dev now and lets it settle. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** A minimal valid tool descriptor with the given input schema properties, all required. */
export function toolWith(
  name: string,
  properties: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    description: `${name} tool.`,
    inputSchema: { type: 'object', properties, required: Object.keys(properties) },
    ...extra,
  };
}

/** Starts the harness and runs the first scan to its publish. */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const time = new VirtualTime();
  const world: World = {
    identity: 'fp:a',
    revision: options.revision ?? 1,
    versioned: options.versioned ?? true,
    tools: options.tools,
  };
  const pairs: ScriptedPair[] = [];
  const connect = async (): Promise<ScriptedPair> => {
    if (world.down === true) throw new Error('the server cannot be reached');
    const pair = await scriptedPair(
      () => ({ tools: world.tools, ...(world.versioned ? { revision: world.revision } : {}) }),
      { onCall: options.onCall },
    );
    pairs.push(pair);
    return pair;
  };
  const events: (Observation & { t: number })[] = [];
  const host = new CatalogHost(
    {
      clock: time,
      scheduler: time,
      random: { next: () => 0.5 },
      sink: { emit: (event) => events.push({ ...event, t: time.now() }) },
      store: options.store ?? (options.config?.storePath === undefined ? new InMemoryRegistryStore() : undefined),
      ...(options.memos === undefined ? {} : { memos: options.memos }),
      ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
    },
    {
      limits: { pageCountMax: 8, byteCountMax: 1_000_000, scanTimeoutMs: 10_000 },
      refresh: {
        refreshIntervalMs: 1_000_000,
        retryBackoffMsBase: 10,
        retryBackoffMsMax: 10,
        listChangedDelayMs: 20,
        generationTtlMs: 100_000,
      },
      trust: { ...DEFAULT_TRUST, effectClasses: options.effectClasses ?? {} },
      leaseKey: TEST_LEASE_KEY,
      callTimeoutMs: 1_000,
      ...options.config,
    },
  );
  const refreshers: CatalogRefresher[] = [];
  const source = new ConnectedPageSource(
    { connect: async () => ({ client: (await connect()).client as Client, identity: () => world.identity }) },
    () => {
      for (const refresher of refreshers) refresher.onListChanged();
    },
  );
  const attach = (audience: AudienceClass): CatalogRefresher => {
    const refresher = host.attach(source, audience, { endpointDigest: 'endpoint', protocolVersion: '2025-11-25' });
    refreshers.push(refresher);
    return refresher;
  };
  const first = attach(ACME);
  await source.open();
  first.start();
  await time.advance(0);
  const harness: Harness = {
    time,
    world,
    host,
    source,
    refreshers,
    events,
    pairs,
    get pair() {
      return pairs.at(-1) as ScriptedPair;
    },
    of: <T extends Observation['type']>(type: T) =>
      events.filter((event): event is Extract<Observation, { type: T }> & { t: number } => event.type === type),
    grant: (tools, audience = ACME) => {
      host.policy.push({ audience, epoch: host.policy.epoch(audience) + 1, grants: tools });
    },
    disclose: (session, audience = ACME) => {
      const served = host.disclose(session, audience, world.identity);
      if (!served.ok) throw new Error(`nothing disclosed: ${served.code}`);
      return served.record;
    },
    plan: (record, toolName, descriptorDigest) => planFrom(record, toolName, descriptorDigest),
    request: (plan, overrides = {}) => ({
      callId: `call-${events.length}`,
      session: 's1',
      principal: 'alice',
      audience: ACME,
      identity: world.identity,
      plan,
      arguments: {},
      resourceScope: 'repo:acme/widgets',
      ...overrides,
    }),
    attach,
    refresh: async () => {
      await refreshers[0]?.refreshNow();
      await time.settle();
    },
    close: async () => {
      host.stop();
      for (const pair of pairs) await pair.close();
    },
  };
  return harness;
}

function planFrom(record: GenerationRecord, toolName: string, descriptorDigest?: string): CallPlan {
  const digest =
    descriptorDigest ??
    record.snapshot.tools.find((tool) => tool.name === toolName)?.descriptorDigest ??
    'f'.repeat(64);
  const key: CatalogKey = {
    identity: record.snapshot.serverIdentity,
    tenant: record.snapshot.tenant,
    role: record.snapshot.role,
  };
  return {
    planId: `plan-${toolName}-${record.catalogGeneration}`,
    key,
    generation: record.catalogGeneration,
    snapshotDigest: record.snapshotDigest,
    toolName,
    descriptorDigest: digest,
  };
}
