/**
 * At-call admission on a 1,000-tool catalog (SPEC section 14), against a bare SDK round trip to
 * the same server measured in the same run.
 *
 * Setup: a reference {@link CatalogHost} on a virtual clock and a no-op scheduler discovers 1,000
 * tools (10 pages of 100) from a scripted SDK `Server` over the SDK's `InMemoryTransport`,
 * publishes generation 1, discloses it to session `s1`, then publishes generation 2 (one tool
 * changed) and discloses that too. Measured, one sample per operation:
 * - `gate.decide` alone, for an ADMIT (arguments validated by the pinned schema) and for a
 *   STALE_CATALOG refusal (a plan bound to generation 1's descriptor of the changed tool);
 * - `host.call` for the same two requests: an ADMIT is gate + lease (HMAC) + receipt + the SDK
 *   `tools/call`; a refusal sends nothing;
 * - the baselines, on the same Client and server: `client.callTool` (the SDK's own call, result
 *   validated by `CallToolResultSchema`) and `client.request('tools/call')` with the core's
 *   lenient result schema (the transport path `host.call` uses, without the gate).
 * Ratios divide by the `client.callTool` figure.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Bench } from 'tinybench';
import { LenientCallToolResultSchema } from '../src/admission/dispatch.ts';
import type { CallPlan, CallRequest } from '../src/admission/gate.ts';
import { ConnectedPageSource } from '../src/discovery/connected-source.ts';
import type { CatalogRefresher } from '../src/discovery/refresher.ts';
import { CatalogHost } from '../src/host.ts';
import type { AudienceClass } from '../src/keys.ts';
import { InMemoryRegistryStore, type GenerationRecord } from '../src/registry/store.ts';
import { DEFAULT_TRUST } from '../src/validation/trust.ts';
import { scriptedPair, type ScriptedPair } from '../test/support/scripted-server.ts';
import type { BenchOptions } from './lib/args.ts';
import { benchTool, benchTools, pagedScript, type ServedCatalog } from './lib/catalog.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { CountingSink, NoopScheduler, VirtualClock } from './lib/ports.ts';
import { latencyOf, type Latency } from './lib/stats.ts';
import { micros, times, type BenchTable } from './lib/table.ts';

const TOOL_COUNT = 1_000;
const PAGE_SIZE = 100;
const IDENTITY = 'fp:bench';
const AUDIENCE: AudienceClass = { tenant: 'acme', role: 'dev' };
/** The tool the ADMIT requests call (unchanged between generations 1 and 2). */
const ADMIT_INDEX = 500;
/** The tool that changes in generation 2: plans bound to generation 1 are STALE_CATALOG. */
const STALE_INDEX = 501;

/** The baseline is measured first and last; ratios divide by the mean of the two (drift shows). */
const BARE_FIRST = 'bare SDK client.callTool';
const BARE_LAST = 'bare SDK client.callTool (again, last)';
/** Untimed calls of every operation before measuring, so the first task does not pay for JIT warm-up. */
const PRIME_ITERATIONS = 500;

/** A host with a published, disclosed 1,000-tool catalog, and the requests to measure. */
interface AdmissionSetup {
  host: CatalogHost;
  client: Client;
  pair: ScriptedPair;
  admit: CallRequest;
  stale: CallRequest;
  close(): Promise<void>;
}

/** Runs the admission benchmark and returns its table. */
export async function admissionBench(options: BenchOptions): Promise<BenchTable[]> {
  const loadBefore = loadAverage();
  const setup = await startAdmissionHost();
  try {
    checkSetup(setup);
    const bench = new Bench({
      time: options.quick ? 300 : 1_500,
      iterations: 200,
      warmupTime: options.quick ? 100 : 300,
      warmupIterations: 50,
      throws: true,
    });
    addAdmissionTasks(bench, setup);
    await prime(setup, PRIME_ITERATIONS);
    await bench.run();
    return [admissionTable(bench, loadBefore)];
  } finally {
    await setup.close();
  }
}

/** The measured operations, the baseline first and last. */
function addAdmissionTasks(bench: Bench, setup: AdmissionSetup): void {
  const name = setup.admit.plan.toolName;
  const args = setup.admit.arguments ?? {};
  const bare = async (): Promise<void> => {
    await setup.client.callTool({ name, arguments: args });
  };
  bench
    .add(BARE_FIRST, bare)
    .add('bare SDK client.request tools/call (lenient)', async () => {
      await setup.client.request(
        { method: 'tools/call', params: { name, arguments: args } },
        LenientCallToolResultSchema,
      );
    })
    .add('gate.decide ADMIT', () => {
      setup.host.gate.decide(setup.admit);
    })
    .add('gate.decide STALE_CATALOG', () => {
      setup.host.gate.decide(setup.stale);
    })
    .add(
      'host.call ADMIT (gate+lease+receipt+tools/call)',
      async () => {
        await setup.host.call(setup.admit);
      },
      {
        afterAll: () => {
          setup.pair.calls.length = 0;
        },
      },
    )
    .add('host.call STALE_CATALOG (refused, nothing sent)', async () => {
      await setup.host.call(setup.stale);
    })
    .add(BARE_LAST, bare);
}

function admissionTable(bench: Bench, loadBefore: string): BenchTable {
  const results = bench.tasks.map((task) => [task.name, latencyOf(task)] as const);
  const first = latencyOf(bench.getTask(BARE_FIRST));
  const last = latencyOf(bench.getTask(BARE_LAST));
  const baseline = { p50Ms: (first.p50Ms + last.p50Ms) / 2, p99Ms: (first.p99Ms + last.p99Ms) / 2 };
  return {
    title: `admission: at-call decision on a ${TOOL_COUNT.toLocaleString('en')}-tool catalog vs a bare SDK tools/call round trip (InMemoryTransport)`,
    columns: ['operation', 'samples', 'p50 µs', 'p99 µs', 'p50 / bare', 'p99 / bare'],
    rows: results.map(([name, latency]) => [
      name,
      String(latency.samples),
      micros(latency.p50Ms),
      micros(latency.p99Ms),
      times(latency.p50Ms / baseline.p50Ms),
      times(latency.p99Ms / baseline.p99Ms),
    ]),
    notes: [
      'bare = client.callTool to the same scripted SDK Server on the same Client, measured first and last in this run; ratios divide by the mean of the two.',
      'gate.decide is synchronous: its samples include one performance.now() pair (tens of ns); async rows include at least one promise turn.',
      'host.call ADMIT = barrier + gate + HMAC lease + receipt + the SDK tools/call (client.request with an abort signal) + outcome.',
      `load average before: ${loadBefore}; after: ${loadAverage()}.`,
    ],
  };
}

/** Runs every measured operation untimed (JIT warm-up for all of them before the first sample). */
async function prime(setup: AdmissionSetup, iterations: number): Promise<void> {
  const name = setup.admit.plan.toolName;
  const args = setup.admit.arguments ?? {};
  for (let i = 0; i < iterations; i += 1) {
    await setup.client.callTool({ name, arguments: args });
    await setup.client.request(
      { method: 'tools/call', params: { name, arguments: args } },
      LenientCallToolResultSchema,
    );
    setup.host.gate.decide(setup.admit);
    setup.host.gate.decide(setup.stale);
    await setup.host.call(setup.admit);
    await setup.host.call(setup.stale);
  }
  setup.pair.calls.length = 0;
}

/** The setup is the benchmark's premise; a wrong verdict would measure the wrong path. */
function checkSetup(setup: AdmissionSetup): void {
  const admit = setup.host.gate.decide(setup.admit).verdict;
  const stale = setup.host.gate.decide(setup.stale).verdict;
  if (admit !== 'ADMIT' || stale !== 'STALE_CATALOG')
    throw new Error(`admission setup: expected ADMIT and STALE_CATALOG, got ${admit} and ${stale}`);
}

async function startAdmissionHost(): Promise<AdmissionSetup> {
  const catalog: ServedCatalog = { tools: benchTools(TOOL_COUNT), revision: 1 };
  const pair = await scriptedPair(pagedScript(catalog, PAGE_SIZE));
  const host = new CatalogHost(
    {
      clock: new VirtualClock(),
      scheduler: new NoopScheduler(),
      random: { next: () => 0.5 },
      sink: new CountingSink(),
      store: new InMemoryRegistryStore(),
    },
    {
      limits: { pageCountMax: 64, byteCountMax: 64 * 1024 * 1024, scanTimeoutMs: 30_000 },
      refresh: {
        refreshIntervalMs: 3_600_000,
        retryBackoffMsBase: 500,
        retryBackoffMsMax: 30_000,
        listChangedDelayMs: 100,
        generationTtlMs: 86_400_000,
      },
      trust: { ...DEFAULT_TRUST, effectClasses: {} },
      leaseKey: 'catsim-bench-lease-key',
    },
  );
  const source = new ConnectedPageSource({
    connect: async () => ({ client: pair.client as Client, identity: () => IDENTITY }),
  });
  const refresher = host.attach(source, AUDIENCE, { endpointDigest: 'bench', protocolVersion: '2025-11-25' });
  await source.open();
  const first = await publish(refresher);
  host.policy.push({ audience: AUDIENCE, epoch: 1, grants: catalog.tools.map((tool) => String(tool.descriptor.name)) });
  host.disclose('s1', AUDIENCE, IDENTITY);
  catalog.tools[STALE_INDEX] = benchTool(STALE_INDEX, 'changed');
  catalog.revision = 2;
  const second = await publish(refresher);
  host.disclose('s1', AUDIENCE, IDENTITY);
  const admitTool = catalog.tools[ADMIT_INDEX];
  return {
    host,
    client: pair.client as Client,
    pair,
    admit: request(planFor(second, ADMIT_INDEX), 'call-admit', admitTool?.sampleArgs ?? {}),
    stale: request(planFor(first, STALE_INDEX), 'call-stale', catalog.tools[STALE_INDEX]?.sampleArgs ?? {}),
    close: async () => {
      host.stop();
      await pair.close();
    },
  };
}

/** Runs one scan now and returns the generation it published. */
async function publish(refresher: CatalogRefresher): Promise<GenerationRecord> {
  const outcome = await refresher.refreshNow();
  const published = refresher.lastPublish;
  if (outcome?.state !== 'SNAPSHOT_PROVEN' || published?.ok !== true)
    throw new Error(
      `admission setup: scan ended ${outcome?.state} ${outcome?.reason}, publish ${JSON.stringify(published)}`,
    );
  return published.record;
}

function planFor(record: GenerationRecord, index: number): CallPlan {
  const tool = record.snapshot.tools[index];
  if (tool === undefined || tool.verdict !== 'ok')
    throw new Error(`admission setup: tool ${index} missing or quarantined`);
  return {
    planId: `plan-${index}-${record.catalogGeneration}`,
    key: { identity: IDENTITY, ...AUDIENCE },
    generation: record.catalogGeneration,
    snapshotDigest: record.snapshotDigest,
    toolName: tool.name,
    descriptorDigest: tool.descriptorDigest,
  };
}

function request(plan: CallPlan, callId: string, args: Record<string, unknown>): CallRequest {
  return {
    callId,
    session: 's1',
    principal: 'alice',
    audience: AUDIENCE,
    identity: IDENTITY,
    plan,
    arguments: args,
    resourceScope: 'repo:acme/bench',
  };
}

await runIfEntry(import.meta.url, admissionBench);
