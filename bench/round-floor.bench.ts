/**
 * A round's cost against its SDK floor (issue 12, item 1): the exact JSON-RPC messages of real
 * rounds replayed over bare SDK Client/Server pairs, against catsim running the same rounds.
 *
 * Rounds 0..R-1 of seed 1, default scenario, reference core (R = 20, 5 under --quick). Each
 * round is first recorded once with a wire tap on its links (bench/lib/round-wire.ts; untimed).
 * Then, in one run, tinybench times per round:
 * - floor: the round's recorded messages over one bare SDK pair per recorded session on the
 *   SDK's `InMemoryTransport` (connect and initialize included, as every simulated session
 *   connects), each request answered by a handler returning the recorded result;
 * - catsim: `runAndCheck` of the same round (plan, world, servers, core, SDK, oracle, summary).
 * Each task runs R iterations after R warm-up ones, round i % R on iteration i, so its mean is the mean over the
 * same rounds; the floor runs before and after catsim and the ratio uses their average, so a
 * machine whose speed drifts during the run moves both sides.
 *
 * The floor replays every link over the legacy SDK (`@modelcontextprotocol/sdk`) on
 * `InMemoryTransport`, while the default scenario's modern-era servers (issue 29) answer on the
 * 2026-07-28 SDK packages, half of them over Streamable HTTP (requests and responses as fetch
 * `Request`/`Response` objects): their cost is counted on catsim's side. `--era legacy` runs the
 * default scenario with its `eraMix` set to that one mix (as `bench/build-ab.ts --era` does), so
 * both sides carry the same protocol and transport: that ratio is the like-for-like one.
 */
import { Bench } from 'tinybench';
import { resolveCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { ERA_MIXES, type EraMix } from '../sim/faults/eras.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { BenchArgumentError, type BenchOptions } from './lib/args.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { recordRound, replayRound, type RoundWire } from './lib/round-wire.ts';
import { latencyOf, type Latency } from './lib/stats.ts';
import { sig, times, type BenchTable } from './lib/table.ts';

const SEED = '1';
const CORE = 'reference';

/** Message kinds printed as columns, in this order; anything else is summed under "other". */
const KINDS: readonly (readonly [string, string])[] = [
  ['tools/list', 'tools/list'],
  ['tools/call', 'tools/call'],
  ['notifications/tools/list_changed', 'list_changed'],
  ['response', 'responses'],
  ['error response', 'error responses'],
  ['initialize', 'initialize'],
];

/** Runs the round-floor benchmark and returns its two tables (the messages, then the costs). */
export async function roundFloorBench(options: BenchOptions): Promise<BenchTable[]> {
  const rounds = options.quick ? 5 : 20;
  const era = eraArgument(process.argv);
  const scenario = era === undefined ? loadScenario('default') : { ...loadScenario('default'), eraMix: [era] };
  // What the tables' titles add after "default scenario".
  const eraNote = era === undefined ? '' : `, eraMix [${era}]`;
  const wires: RoundWire[] = [];
  for (let round = 0; round < rounds; round++) wires.push(await recordRound(SEED, round, scenario));
  const loadBefore = loadAverage();
  const core = resolveCore(CORE);
  const bench = new Bench({ time: 0, iterations: rounds, warmupIterations: rounds, warmupTime: 0, throws: true });
  let next = 0;
  const reset = (): void => {
    next = 0;
  };
  bench
    .add('floor (first)', () => replayRound(wires[next++ % rounds] as RoundWire), { beforeAll: reset })
    .add(
      'catsim',
      async () => {
        await runAndCheck(SEED, next++ % rounds, scenario, core, CORE);
      },
      { beforeAll: reset },
    )
    .add('floor (last)', () => replayRound(wires[next++ % rounds] as RoundWire), { beforeAll: reset });
  await bench.run();
  const [first, catsim, last] = bench.tasks.map((task) => latencyOf(task)) as [Latency, Latency, Latency];
  const load = `load average before: ${loadBefore}; after: ${loadAverage()}.`;
  return [messageTable(wires, eraNote), costTable(rounds, first, catsim, last, load, eraNote)];
}

/** The value of `--era MIX` in `argv`, or undefined without one. @throws BenchArgumentError for a mix the scenario schema does not know. */
function eraArgument(argv: readonly string[]): EraMix | undefined {
  const at = argv.indexOf('--era');
  if (at < 0) return undefined;
  const mix = argv[at + 1];
  if (!ERA_MIXES.includes(mix as EraMix))
    throw new BenchArgumentError(`--era: one of ${ERA_MIXES.join(', ')}, got ${mix ?? 'nothing'}`);
  return mix as EraMix;
}

function messageTable(wires: readonly RoundWire[], eraNote: string): BenchTable {
  const total = new Map<string, number>();
  for (const wire of wires) for (const [kind, count] of wire.kinds) total.set(kind, (total.get(kind) ?? 0) + count);
  const all = [...total.values()].reduce((sum, count) => sum + count, 0);
  const named = KINDS.reduce((sum, [kind]) => sum + (total.get(kind) ?? 0), 0);
  const perRound = (count: number): string => sig(count / wires.length);
  const sessions = wires.reduce((sum, wire) => sum + wire.links.length, 0);
  const unanswered = wires.reduce((sum, wire) => sum + wire.unanswered, 0);
  return {
    title: `messages per round: seed ${SEED} rounds 0..${wires.length - 1}, default scenario${eraNote}, ${CORE} core (delivered JSON-RPC messages, both directions)`,
    columns: ['rounds', 'sessions', ...KINDS.map(([, label]) => label), 'other', 'all'],
    rows: [
      [
        String(wires.length),
        perRound(sessions),
        ...KINDS.map(([kind]) => perRound(total.get(kind) ?? 0)),
        perRound(all - named),
        perRound(all),
      ],
    ],
    notes: [
      'per-round means; "other" is notifications/initialized, ping and any other method; a session is one link (a connect, reconnects included).',
      `${unanswered} request(s) in all had no delivered response (cut by a disconnect) and are not replayed.`,
    ],
  };
}

function costTable(
  rounds: number,
  first: Latency,
  catsim: Latency,
  last: Latency,
  load: string,
  eraNote: string,
): BenchTable {
  const floorMean = (first.meanMs + last.meanMs) / 2;
  const floorP50 = (first.p50Ms + last.p50Ms) / 2;
  const row = (name: string, latency: Latency): string[] => [
    name,
    String(latency.samples),
    sig(latency.meanMs),
    sig(latency.p50Ms),
    times(latency.meanMs / floorMean),
    times(latency.p50Ms / floorP50),
  ];
  return {
    title: `a round's cost against its SDK floor (the same ${rounds} rounds' messages over bare SDK pairs on InMemoryTransport)`,
    columns: ['task', 'samples', 'mean ms/round', 'p50 ms/round', 'mean / floor', 'p50 / floor'],
    rows: [
      row('floor: recorded messages, bare SDK pairs (before)', first),
      row('catsim: runAndCheck, same rounds', catsim),
      row('floor: recorded messages, bare SDK pairs (after)', last),
    ],
    notes: [
      `floor = the mean of the two floor runs; issue 32's goal is mean / floor <= 3x on the default scenario${eraNote}.`,
      "the floor is the legacy SDK on InMemoryTransport; modern-era links (the 2026-07-28 packages, Streamable HTTP) cost more on catsim's side than their floor: --era legacy compares like with like.",
      'rounds differ in size (1-2 servers, 1-3 audiences, faults): p50 is over rounds, not noise; read the means.',
      load,
    ],
  };
}

await runIfEntry(import.meta.url, roundFloorBench);
