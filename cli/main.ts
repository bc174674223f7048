/**
 * The `catsim` command line (SPEC section 13), built with yargs. `main(argv)` returns the exit
 * code instead of exiting, so tests can call it. Known errors print one line (never a stack
 * trace): usage and input errors exit 2, testbed failures exit 3.
 */
import yargs, { type Argv } from 'yargs';
import { COUNT_MAX, countOption, originalCountError, refuseRepeats, verdictIdOption } from './counts.ts';
import { EXIT, InputError } from './errors.ts';
import { NOT_JUDGED_HELP, parseNotJudged } from './not-judged.ts';

/** Help of `--model-endpoint` (serve, host-test). */
const MODEL_ENDPOINT_HELP =
  "Answer on loopback as the host's model too (OpenAI Chat Completions, OpenAI Responses and Anthropic Messages, streamed or not): the case's steps become model turns, each request's tools are judged as a disclosure; the host gets CATSIM_MODEL_URL";
import { parseShard } from './shard.ts';
import { EXIT_CODES_LINE } from '../runner/exit-codes.ts';

// Each command's module (and what it pulls in: the SDK, ajv, zod, the simulator) is imported
// only when that command runs, or when its options are built for it (`catsim run --help`):
// `catsim --help` and a usage error load yargs alone, and each command loads only its own part.
const commands = {
  capture: () => import('./commands/capture.ts'),
  check: () => import('./commands/check.ts'),
  discover: () => import('./commands/discover.ts'),
  hostTest: () => import('./commands/host-test.ts'),
  judge: () => import('./commands/judge.ts'),
  manifests: () => import('./commands/manifests.ts'),
  merge: () => import('./commands/merge.ts'),
  peers: () => import('./commands/peers.ts'),
  prove: () => import('./commands/prove.ts'),
  replay: () => import('./commands/replay.ts'),
  run: () => import('./commands/run.ts'),
  serve: () => import('./commands/serve.ts'),
  shrink: () => import('./commands/shrink.ts'),
};

/** Thrown by the yargs failure handler to stop before any command runs. */
class UsageStop extends Error {}

const EPILOGUE = EXIT_CODES_LINE;

/**
 * Guards the process while a command runs: an exit nobody in catsim asked for (code under test
 * calling `process.exit`, e.g. a core module's top level, which runs in this thread when the
 * command checks `--core`) must never pass for a clean run, so it ends the process with exit 3 and one line instead of the
 * code it was given. Node 20 sets `process.exitCode` from `process.exit(code)`, emits 'exit', and
 * then ends with `process.exitCode`, so an 'exit' listener decides the code. Returns the undo.
 */
function guardUnaskedExit(): () => void {
  const onExit = (code: number): void => {
    process.stderr.write(
      `catsim: testbed failure: process.exit(${code}) was called while the command ran (by a core under test?), so its results are incomplete\n`,
    );
    process.exitCode = EXIT.testbed;
  };
  process.on('exit', onExit);
  return () => process.off('exit', onExit);
}

/** Parses `argv` (without node and script), runs the command, returns its exit code. */
export async function main(argv: string[]): Promise<number> {
  const unguard = guardUnaskedExit();
  try {
    return await runCommandLine(argv);
  } finally {
    unguard();
  }
}

/** {@link main} without the exit guard. */
async function runCommandLine(argv: string[]): Promise<number> {
  let code: number = EXIT.clean;
  let usageError: string | undefined;
  const fail = (message: string | null | undefined, error: Error | null | undefined): never => {
    // Throwing stops yargs before the command's handler runs: a mistyped or missing option
    // must not start a 100,000-round campaign and only complain afterwards.
    const original = originalCountError(error);
    if (original !== undefined) throw original;
    // yargs' own errors (a YError, e.g. "Not enough arguments following: rounds") are usage errors.
    if (error !== undefined && error !== null && error.name !== 'YError') throw error;
    // yargs words some errors over several lines ("Invalid values:\n  Argument: transport, Given: ..."): one line.
    usageError = (message ?? error?.message ?? 'usage error').replace(/\s*\n\s*/g, ' ');
    throw new UsageStop(usageError);
  };
  const parser = build(
    yargs(argv),
    (result) => {
      code = result;
    },
    argv,
  )
    .exitProcess(false)
    .fail(fail);
  try {
    await parser.parseAsync();
  } catch (error) {
    // A command whose builder is async (it imports a module first) rejects with yargs' YError
    // instead of calling fail(): route it through fail() all the same.
    const routed =
      error instanceof Error && error.name === 'YError' ? thrownBy(() => fail(error.message, error)) : error;
    if (!(routed instanceof UsageStop)) return await report(routed);
  }
  if (usageError !== undefined) {
    process.stderr.write(`catsim: ${usageError}\nRun "catsim --help" for usage.\n`);
    return EXIT.usage;
  }
  return code;
}

/** What `run` throws (it always throws). */
function thrownBy(run: () => never): unknown {
  try {
    return run();
  } catch (error) {
    return error;
  }
}

async function report(error: unknown): Promise<number> {
  if (error instanceof InputError) {
    process.stderr.write(`catsim: ${error.message}\n`);
    return EXIT.usage;
  }
  // A command raised it, so these modules are loaded already: importing them costs nothing.
  const [
    { TestbedError },
    { UnknownCoreError },
    { CoreModuleError },
    { ScenarioError },
    { ConnectError },
    { CoreContractError },
  ] = await Promise.all([
    import('../runner/campaign.ts'),
    import('../cores/index.ts'),
    import('../cores/module-core.ts'),
    import('../sim/plan/scenario.ts'),
    import('../src/connect/connect-error.ts'),
    import('../sim/trace/core-contract-error.ts'),
  ]);
  if (
    error instanceof ScenarioError ||
    error instanceof UnknownCoreError ||
    error instanceof CoreModuleError ||
    error instanceof ConnectError
  ) {
    process.stderr.write(`catsim: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof CoreContractError) {
    // An adapter or core failure: its message already names the core, the event and the field.
    process.stderr.write(`catsim: ${error.message}\n`);
    return EXIT.testbed;
  }
  if (error instanceof TestbedError) {
    process.stderr.write(`catsim: testbed failure: ${error.message}\n`);
    return EXIT.testbed;
  }
  process.stderr.write(
    `catsim: testbed failure: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
  );
  return EXIT.testbed;
}

function build(parser: Argv, setCode: (code: number) => void, argv: readonly string[]): Argv {
  // yargs reads a lone `-` as an empty string: `check -` and `judge -` are told apart from `check ""` here.
  const checkStdin = argv[0] === 'check' && argv.includes('-');
  const judgeStdin = argv[0] === 'judge' && argv.includes('-');
  return (
    parser
      .scriptName('catsim')
      .usage(
        'catsim: deterministic simulation and fuzz testbed for MCP tool catalogs\n\nUsage: catsim <command> [options]',
      )
      .command(
        'run',
        'Run a seeded campaign and check every round with the oracle',
        async (y) => {
          const [{ coreNames }, { faultMenuHelp }] = await Promise.all([
            import('../cores/index.ts'),
            import('./format/fault-menu.ts'),
          ]);
          return y
            .option('seed', { type: 'string', default: '1', describe: 'Campaign seed (any string)' })
            .option('rounds', {
              coerce: countOption('rounds', 1),
              requiresArg: true,
              default: 100_000,
              describe: 'Number of rounds',
            })
            .option('from', {
              coerce: countOption('from', 0),
              requiresArg: true,
              default: 0,
              describe: 'First round (to resume an interrupted campaign)',
            })
            .option('scenario', {
              type: 'string',
              default: 'default',
              describe: 'Scenario name (scenarios/NAME.json) or path to a file (with a / or ending in .json)',
            })
            .option('catalog', {
              type: 'string',
              describe:
                'Build the servers from a captured catalog file (catsim capture), e.g. scenarios/catalogs/memory.json',
            })
            .option('core', {
              type: 'string',
              default: 'reference',
              describe: `Core under test: ${coreNames().join(' | ')} | a core module, e.g. ./my-core.ts (docs/CORE-API.md)`,
            })
            .option('workers', {
              coerce: countOption('workers', 0),
              requiresArg: true,
              describe: 'Worker threads (default: one per core; 0 = one worker thread, the same as 1)',
            })
            .option('report', { type: 'string', describe: 'Also write the report as JSON to this file' })
            .option('progress', {
              type: 'boolean',
              default: true,
              describe: 'Progress on stderr: a bar on a terminal, else a line at most every 10 s',
            })
            .option('quiet', {
              type: 'boolean',
              default: false,
              describe: 'No progress at all (the same as --no-progress); the summary is still printed',
            })
            .option('round-timeout', {
              coerce: countOption('round-timeout', 1),
              requiresArg: true,
              default: 120,
              describe:
                "Seconds a round may run in a worker thread before the worker is terminated and the round is the core's failure (CORE_FAILED TIMED_OUT); the shrink after the campaign too",
            })
            .option('determinism-every', {
              coerce: countOption('determinism-every', 0),
              requiresArg: true,
              default: 100,
              describe: 'Replay 1 in N rounds in a fresh world and compare traces (0: off)',
            })
            .option('shrink', {
              type: 'boolean',
              default: true,
              describe: 'Shrink the first failing round to its smallest plan (--no-shrink to skip)',
            })
            .option('shard', {
              type: 'string',
              describe:
                'Run only shard i of n contiguous blocks of the rounds (e.g. 2/4, or auto/4 to take i from JOB_COMPLETION_INDEX + 1 in a Kubernetes Indexed Job; needs --report; catsim merge folds the shards)',
            })
            .option('junit', {
              type: 'string',
              describe: 'Also write the verdict as JUnit XML to this file (one test case per invariant)',
            })
            .option('not-judged', { type: 'string', describe: NOT_JUDGED_HELP })
            .epilogue(faultMenuHelp())
            .check(
              (a) => checkRoundRange(a.from, a.rounds) && (a.shard === undefined || parseShard(a.shard) !== undefined),
            );
        },
        async (a) =>
          setCode(
            await (await commands.run()).runCommand({
              seed: a.seed,
              rounds: a.rounds,
              from: a.from,
              scenario: a.scenario,
              catalog: a.catalog,
              core: a.core,
              workers: a.workers,
              report: a.report,
              progress: a.progress && !a.quiet,
              determinismEvery: a['determinism-every'],
              roundTimeoutMs: a['round-timeout'] * 1000,
              shrink: a.shrink,
              shard: a.shard === undefined ? undefined : parseShard(a.shard),
              junit: a.junit,
              notJudged: parseNotJudged(a['not-judged']),
            }),
          ),
      )
      .command(
        'merge <shards..>',
        'Merge the reports of run --shard i/n into the verdict of the whole campaign',
        (y) =>
          y
            .positional('shards', {
              type: 'string',
              array: true,
              demandOption: true,
              describe: 'Shard reports (run --shard i/n --report FILE.json), in any order',
            })
            .option('report', { type: 'string', describe: 'Write the merged report as JSON to this file' })
            .option('junit', { type: 'string', describe: 'Write the merged verdict as JUnit XML to this file' })
            .option('not-judged', {
              type: 'string',
              describe: `${NOT_JUDGED_HELP}; added to what every report accepts`,
            }),
        async (a) =>
          setCode(
            (await commands.merge()).mergeCommand({
              files: a.shards as string[],
              report: a.report,
              junit: a.junit,
              notJudged: parseNotJudged(a['not-judged']),
            }),
          ),
      )
      .command(
        'replay',
        'Run one round of a campaign alone: trace, timeline, violations',
        (y) =>
          y
            .option('seed', { type: 'string', describe: 'Campaign seed' })
            .option('round', { coerce: countOption('round', 0), requiresArg: true, describe: 'Round number' })
            .option('plan', {
              type: 'string',
              describe: 'Run this plan file (catsim shrink writes one) instead of --seed/--round',
            })
            .option('scenario', { type: 'string', describe: 'Scenario name or path (default: default)' })
            .option('catalog', { type: 'string', describe: 'The catalog file the campaign ran with, if any' })
            .option('core', {
              type: 'string',
              default: 'reference',
              describe: 'Core under test (a name, or a path to a core module)',
            })
            .option('trace', {
              type: 'string',
              describe: 'Where to write the trace (JSON lines); default catsim-trace-SEED-ROUND.jsonl',
            })
            .option('timeline', { type: 'boolean', default: true, describe: 'Print the readable timeline' })
            .option('not-judged', { type: 'string', describe: NOT_JUDGED_HELP })
            .option('round-timeout', {
              coerce: countOption('round-timeout', 1),
              requiresArg: true,
              default: 120,
              describe:
                "Seconds the round may run in its worker thread before it is stopped as the core's failure (CORE_FAILED TIMED_OUT)",
            })
            .check((a) => needsRound(a)),
        async (a) =>
          setCode(
            await (await commands.replay()).replayCommand({
              seed: a.seed,
              round: a.round,
              plan: a.plan,
              scenario: a.scenario,
              catalog: a.catalog,
              core: a.core,
              trace: a.trace,
              timeline: a.timeline,
              notJudged: parseNotJudged(a['not-judged']),
              roundTimeoutMs: a['round-timeout'] * 1000,
            }),
          ),
      )
      .command(
        'shrink',
        'Shrink a failing round to the smallest plan that breaks the same invariant',
        (y) =>
          y
            .option('seed', { type: 'string', demandOption: true, describe: 'Campaign seed' })
            .option('round', {
              coerce: countOption('round', 0),
              requiresArg: true,
              demandOption: true,
              describe: 'Round number',
            })
            .option('scenario', { type: 'string', default: 'default', describe: 'Scenario name or path' })
            .option('catalog', { type: 'string', describe: 'The catalog file the campaign ran with, if any' })
            .option('core', {
              type: 'string',
              default: 'reference',
              describe: 'Core under test (a name, or a path to a core module)',
            })
            .option('out', {
              type: 'string',
              describe:
                'Prefix of the files written (PREFIX.plan.json, PREFIX.mmd); default catsim-shrunk-SEED-ROUND-CORE (the --core value, e.g. mutant_first-page-only)',
            })
            .option('attempts', {
              coerce: countOption('attempts', 1),
              requiresArg: true,
              default: 400,
              describe: 'Most rounds the shrinker may run',
            })
            .option('invariant', {
              type: 'string',
              requiresArg: true,
              coerce: verdictIdOption,
              describe:
                "Shrink for this invariant (I1..I40 or CORE_FAILED) instead of the round's first violation; a round that does not break it is refused in one line (exit 2)",
            })
            .option('timeline', { type: 'boolean', default: true, describe: 'Print the timeline of the shrunk round' })
            .option('round-timeout', {
              coerce: countOption('round-timeout', 1),
              requiresArg: true,
              default: 120,
              describe:
                "Seconds each round may run in its worker thread before it is stopped as the core's failure (CORE_FAILED TIMED_OUT)",
            }),
        async (a) =>
          setCode(
            await (await commands.shrink()).shrinkCommand({
              seed: a.seed,
              round: a.round,
              scenario: a.scenario,
              catalog: a.catalog,
              core: a.core,
              out: a.out,
              attemptsMax: a.attempts,
              invariant: a.invariant,
              timeline: a.timeline,
              roundTimeoutMs: a['round-timeout'] * 1000,
            }),
          ),
      )
      .command(
        'prove',
        'Show that the oracle catches every mutant core, with the peers beside the reference core (--peers: only the side-by-side table, as markdown)',
        (y) =>
          y
            .option('seed', { type: 'string', default: '1', describe: 'Campaign seed' })
            .option('scenario', { type: 'string', default: 'default', describe: 'Scenario name or path' })
            .option('cap', {
              coerce: countOption('cap', 1),
              requiresArg: true,
              default: 1000,
              describe: 'Most rounds per mutant before it counts as not caught',
            })
            .option('chunk', {
              coerce: countOption('chunk', 1),
              requiresArg: true,
              default: 50,
              describe: 'Rounds run at a time while looking for the first detection',
            })
            .option('peer-rounds', {
              coerce: countOption('peer-rounds', 0),
              requiresArg: true,
              default: 200,
              describe: 'Rounds for the peers and the reference core side by side',
            })
            .option('workers', {
              coerce: countOption('workers', 0),
              requiresArg: true,
              describe: 'Worker threads (default: one per core)',
            })
            .option('peers', {
              type: 'boolean',
              default: false,
              describe:
                'Only the side-by-side table: the reference core, every peer and each --core on the same --peer-rounds rounds, as markdown',
            })
            .option('core', {
              type: 'string',
              array: true,
              default: [],
              describe: 'Also put this core (a name, or a path to a core module) beside the peers; repeatable',
            })
            .option('shrink', {
              type: 'boolean',
              default: false,
              describe: 'With --peers: shrink the first round of each (core, invariant) and give its plan',
            })
            .option('invariant', {
              type: 'string',
              requiresArg: true,
              coerce: verdictIdOption,
              describe:
                'With --peers: list and shrink only the findings of this invariant (I1..I40 or CORE_FAILED); a core whose rounds do not break it says so in one line',
            })
            .option('peer', {
              type: 'string',
              array: true,
              default: [],
              describe:
                'With --peers: run only this peer (peer:NAME) beside the reference core; repeatable (default: every peer)',
            })
            .option('attempts', {
              coerce: countOption('attempts', 1),
              requiresArg: true,
              default: 60,
              describe: 'With --shrink: most rounds each shrink may run',
            })
            .option('out', {
              type: 'string',
              default: '.',
              describe: 'With --shrink: the directory the shrunk plans are written to',
            })
            .option('progress', {
              type: 'boolean',
              default: true,
              describe: 'Progress on stderr: a line at most every 10 s naming the mutant, core or shrink being run',
            })
            .option('quiet', {
              type: 'boolean',
              default: false,
              describe: 'No progress at all (the same as --no-progress)',
            }),
        async (a) =>
          setCode(
            a.peers
              ? await (await commands.peers()).peersCommand({
                  seed: a.seed,
                  scenario: a.scenario,
                  rounds: peerRounds(a['peer-rounds']),
                  cores: a.core as string[],
                  peers: a.peer as string[],
                  invariant: a.invariant,
                  shrink: a.shrink,
                  attemptsMax: a.attempts,
                  outDir: a.out,
                  workers: a.workers,
                  progress: a.progress && !a.quiet,
                })
              : await (await commands.prove()).proveCommand({
                  seed: a.seed,
                  scenario: a.scenario,
                  cap: a.cap,
                  chunk: a.chunk,
                  peerRounds: a['peer-rounds'],
                  workers: a.workers,
                  cores: a.core as string[],
                  progress: a.progress && !a.quiet,
                }),
          ),
      )
      .command(
        'check <trace>',
        'Run the oracle on a saved trace (catsim.trace.v1)',
        (y) =>
          y
            .positional('trace', { type: 'string', demandOption: true, describe: 'Trace file (JSON lines)' })
            .option('not-judged', { type: 'string', describe: NOT_JUDGED_HELP }),
        async (a) =>
          setCode((await commands.check()).checkCommand(checkStdin ? '-' : a.trace, parseNotJudged(a['not-judged']))),
      )
      .command(
        'host-test',
        "Put a host in any language under catsim's simulated servers: spawn it once per black-box case (after --) and judge its wire",
        (y) =>
          y
            .usage(
              "catsim host-test --agent NAME [options] -- CMD ARGS\n\nPut a host in any language under catsim's simulated servers: spawn CMD ARGS once per black-box case and judge its wire",
            )
            .option('agent', {
              type: 'string',
              demandOption: true,
              requiresArg: true,
              describe: "The host's name in the reports",
            })
            .option('cases', {
              type: 'string',
              default: '*',
              requiresArg: true,
              describe: 'Case-name glob over scenarios/cases/ (* and ?)',
            })
            .option('transport', {
              choices: ['stdio', 'http', 'both'] as const,
              default: 'both' as const,
              describe:
                'How the host reaches the servers: stdio through the shim, Streamable HTTP, or each case on both',
            })
            .option('out', {
              type: 'string',
              default: 'catsim-host-test',
              requiresArg: true,
              describe: 'Report folder (per case JSON and trace, index.json, summary.md, junit.xml)',
            })
            .option('repeat', {
              coerce: countOption('repeat', 1),
              requiresArg: true,
              default: 1,
              describe:
                'Run each case N times; a host whose wire differs between runs is reported (UNDECIDED unless a run failed)',
            })
            .option('baseline', {
              type: 'string',
              requiresArg: true,
              describe:
                'Expected failures, {"expected": {"CASE@TRANSPORT": "OUTCOME"}}: a case failing as expected passes; an entry whose case now passes fails the run',
            })
            .option('timeout-factor', {
              coerce: countOption('timeout-factor', 1),
              requiresArg: true,
              default: 1,
              describe:
                "Multiply each case's timeout by N, for a host whose every step is a slow process start (a CLI run per step)",
            })
            .option('stall-ms', {
              coerce: countOption('stall-ms', 0),
              requiresArg: true,
              describe:
                'Stall window, ms (default 3000, times --timeout-factor; 0: off): a case whose held step the adapter long-polls while the host sends its servers nothing this long ends UNDECIDED at once',
            })
            .option('jobs', {
              coerce: countOption('jobs', 1),
              requiresArg: true,
              default: 1,
              describe:
                'Run up to N cases at once, each on its own loopback ports (lines and reports in case order, as a serial run writes them)',
            })
            .option('model-endpoint', {
              type: 'boolean',
              default: false,
              describe: MODEL_ENDPOINT_HELP,
            }),
        async (a) =>
          setCode(
            await (await commands.hostTest()).hostTestCommand({
              agent: a.agent,
              cases: a.cases,
              transport: a.transport,
              out: a.out,
              repeat: a.repeat,
              timeoutFactor: a['timeout-factor'],
              stallMs: a['stall-ms'],
              jobs: a.jobs,
              modelEndpoint: a['model-endpoint'],
              baseline: a.baseline,
              command: a._.slice(1).map(String),
            }),
          ),
      )
      .command(
        'serve',
        "Keep one black-box case's servers and driver up on loopback for a host started separately",
        (y) =>
          y
            .option('case', {
              type: 'string',
              demandOption: true,
              requiresArg: true,
              describe: 'The case name (scenarios/cases/NAME.json)',
            })
            .option('agent', {
              type: 'string',
              default: 'served',
              requiresArg: true,
              describe: "The host's name in the reports",
            })
            .option('transport', {
              choices: ['stdio', 'http'] as const,
              default: 'http' as const,
              describe: 'The transport printed in CATSIM_SERVERS',
            })
            .option('port', {
              coerce: countOption('port', 0),
              requiresArg: true,
              default: 0,
              describe: 'Loopback port of the MCP endpoints and the driver (0: any free port)',
            })
            .option('stdio-port', {
              coerce: countOption('stdio-port', 0),
              requiresArg: true,
              default: 0,
              describe: 'Loopback port the stdio shim connects to (0: any free port)',
            })
            .option('out', {
              type: 'string',
              default: 'catsim-host-test',
              requiresArg: true,
              describe: 'Report folder',
            })
            .option('stall-ms', {
              coerce: countOption('stall-ms', 0),
              requiresArg: true,
              describe:
                'Stall window, ms (default 3000; 0: off): once the held step the adapter long-polls has had no host message for this long, the case ends UNDECIDED',
            })
            .option('model-endpoint', {
              type: 'boolean',
              default: false,
              describe: MODEL_ENDPOINT_HELP,
            }),
        async (a) =>
          setCode(
            await (await commands.serve()).serveCommand({
              case: a.case,
              agent: a.agent,
              transport: a.transport,
              port: a.port,
              stdioPort: a['stdio-port'],
              out: a.out,
              stallMs: a['stall-ms'],
              modelEndpoint: a['model-endpoint'],
            }),
          ),
      )
      .command(
        'judge <trace>',
        "Re-judge a black-box case's saved trace (host-test report .trace.jsonl) with the oracle's wire rules",
        (y) => y.positional('trace', { type: 'string', demandOption: true, describe: 'Trace file (JSON lines)' }),
        async (a) => setCode((await commands.judge()).judgeCommand(judgeStdin ? '-' : a.trace)),
      )
      .command(
        'manifests <files..>',
        'Check operator manifest files (catsim.manifests.v1: what MCP does not carry of a tool version) for a host embedding the reference core',
        (y) =>
          y.positional('files', { type: 'string', array: true, demandOption: true, describe: 'Manifest files (JSON)' }),
        async (a) => setCode((await commands.manifests()).manifestsCommand(a.files as string[])),
      )
      .command(
        'discover',
        'Discover the catalog of a real MCP server and print the snapshot',
        async (y) => {
          const { PAGE_COUNT_MAX_DEFAULT, serverTarget } = await import('./server-target.ts');
          return y
            .option('stdio', {
              type: 'string',
              describe: 'Command line that starts the server on stdio, e.g. "npx mcp-server-everything"',
            })
            .option('url', {
              type: 'string',
              describe:
                "URL of a remote server's MCP endpoint (Streamable HTTP, legacy HTTP+SSE after a 4xx), e.g. http://127.0.0.1:3001/mcp",
            })
            .option('tenant', { type: 'string', default: 'local', describe: 'Tenant of the audience class' })
            .option('role', { type: 'string', default: 'user', describe: 'Role of the audience class' })
            .option('timeout', {
              coerce: countOption('timeout', 1),
              requiresArg: true,
              default: 20_000,
              describe: 'Milliseconds to wait for initialize, and for the whole scan',
            })
            .option('page-count-max', {
              coerce: countOption('page-count-max', 1),
              requiresArg: true,
              default: PAGE_COUNT_MAX_DEFAULT,
              describe: 'Quarantine a scan of more pages than this (PAGE_LIMIT)',
            })
            .check((a) => Boolean(serverTarget('discover', a)));
        },
        async (a) =>
          setCode(
            await (await commands.discover()).discoverCommand({
              stdio: a.stdio,
              url: a.url,
              tenant: a.tenant,
              role: a.role,
              timeoutMs: a.timeout,
              pageCountMax: a['page-count-max'],
            }),
          ),
      )
      .command(
        'capture',
        "Save a real MCP server's tools/list pages as a catalog file (JSON on stdout) for run --catalog",
        async (y) => {
          const { PAGE_COUNT_MAX_DEFAULT, serverTarget } = await import('./server-target.ts');
          return y
            .option('stdio', {
              type: 'string',
              describe: 'Command line that starts the server on stdio, e.g. "npx mcp-server-memory"',
            })
            .option('url', {
              type: 'string',
              describe: "URL of a remote server's MCP endpoint (Streamable HTTP, legacy HTTP+SSE after a 4xx)",
            })
            .option('timeout', {
              coerce: countOption('timeout', 1),
              requiresArg: true,
              default: 20_000,
              describe: 'Milliseconds to wait for initialize and for each page',
            })
            .option('page-count-max', {
              coerce: countOption('page-count-max', 1),
              requiresArg: true,
              default: PAGE_COUNT_MAX_DEFAULT,
              describe: 'Give up after this many pages in one walk',
            })
            .option('out', {
              type: 'string',
              describe: 'Write the catalog file here instead of stdout (checked before the server starts)',
            })
            .check((a) => Boolean(serverTarget('capture', a)));
        },
        async (a) =>
          setCode(
            await (await commands.capture()).captureCommand({
              stdio: a.stdio,
              url: a.url,
              timeoutMs: a.timeout,
              pageCountMax: a['page-count-max'],
              out: a.out,
            }),
          ),
      )
      .demandCommand(1, 'Name a command.')
      // Counts are read from the text typed (cli/counts.ts), so that a message can quote it.
      .parserConfiguration({ 'parse-numbers': false })
      // `prove --core` is repeatable (each core goes beside the peers); everywhere else --core is one value.
      .check(
        (a) =>
          refuseRepeats(a, a._[0] === 'prove' ? ['shards', 'core', 'peer'] : ['shards', 'files']) &&
          refuseEmptyPaths(a),
      )
      .strict()
      .epilogue(EPILOGUE)
      .help()
      .version('0.1.0')
  );
}

/**
 * The rounds of `prove --peers`: its table needs at least one (without `--peers`, 0 skips the peers).
 * @throws InputError (exit 2) `--peer-rounds 0 with --peers: the table needs at least 1 round`.
 */
function peerRounds(rounds: number): number {
  if (rounds === 0) throw new InputError('--peer-rounds 0 with --peers: the table needs at least 1 round');
  return rounds;
}

/** `replay` runs either a plan file or a (seed, round). */
function needsRound(a: { plan?: string; seed?: string; round?: number }): true {
  if (a.plan === undefined && (a.seed === undefined || a.round === undefined))
    throw new InputError('replay needs --seed and --round, or --plan FILE');
  return true;
}

/**
 * `--from` and `--rounds` stay within the round numbers a plan can hold (0 .. {@link COUNT_MAX}).
 * @throws InputError (exit 2) `--from 2147483000 --rounds 1000 go past round 2147483647, the last round number`.
 */
function checkRoundRange(from: number, rounds: number): true {
  if (from + rounds - 1 > COUNT_MAX)
    throw new InputError(`--from ${from} --rounds ${rounds} go past round ${COUNT_MAX}, the last round number`);
  return true;
}

/** The options that name an input file or a scenario. */
const INPUT_PATHS = ['scenario', 'catalog', 'plan'] as const;

/**
 * An input path given as an empty string (an unset shell variable, `--catalog "$CATALOG"`) is
 * refused by name; output paths are checked the same way by cli/output.ts.
 * @throws InputError (exit 2) `--catalog: the path is empty`.
 */
function refuseEmptyPaths(a: Record<string, unknown>): true {
  for (const name of INPUT_PATHS) if (a[name] === '') throw new InputError(`--${name}: the path is empty`);
  return true;
}
