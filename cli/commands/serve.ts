/**
 * `catsim serve --case NAME [--agent NAME] [--transport http|stdio] [--port N] [--stdio-port N] [--out DIR] [--stall-ms N] [--model-endpoint]`:
 * keeps one case's simulated servers and driver up on loopback for a host started separately (a
 * desktop app, a gateway). Prints the environment the host needs (`CATSIM_SERVERS`,
 * `CATSIM_DRIVER_URL`, `CATSIM_CASE`; with `--model-endpoint`, `CATSIM_MODEL_URL`: catsim answers
 * as the host's model, blackbox/model-endpoint.ts) as shell `export` lines, waits until the host has taken the
 * `end` step (or SIGINT/SIGTERM, or the case timeout counted from the host's first contact: a session, a step asked or a model request, or the stall
 * window as host-test has it: blackbox/stall.ts), then judges the wire record and writes the
 * reports as host-test does.
 */
import { CaseError, caseTransports, loadCases, type BlackBoxCase } from '../../blackbox/case.ts';
import { CaseWorld } from '../../blackbox/case-world.ts';
import { Driver } from '../../blackbox/driver.ts';
import { Hosting, LOOPBACK } from '../../blackbox/hosting.ts';
import { ReportFolder, writeReports } from '../../blackbox/reports.ts';
import { ModelEndpoint } from '../../blackbox/model-endpoint.ts';
import { finishCase, modelUrl, serversEnv, type CaseRun } from '../../blackbox/run-case.ts';
import { STALL_MS_DEFAULT, StallWatch, stallLine } from '../../blackbox/stall.ts';
import { EXIT, InputError } from '../errors.ts';
import { assertWritableDirectory, exitAfterWrites, lockFolder, REPORT_FILES } from '../output.ts';
import { assertAgentName } from './host-test.ts';

/** Arguments of `catsim serve`. */
export interface ServeArgs {
  case: string;
  agent: string;
  transport: 'http' | 'stdio';
  /** Loopback ports; 0: any free one. */
  port: number;
  stdioPort: number;
  out: string;
  /**
   * The stall window, ms (default STALL_MS_DEFAULT; 0: off): once the next step is held for a
   * precondition while the host's adapter long-polls it and the host sends nothing to the case's
   * servers this long, the case ends UNDECIDED at once (blackbox/stall.ts). serve started no host,
   * so it kills nothing: it ends the case and closes its servers.
   */
  stallMs?: number;
  /** Answer as the host's model too (`--model-endpoint`): prints `CATSIM_MODEL_URL`. */
  modelEndpoint?: boolean;
}

/** The largest TCP port. */
const PORT_MAX = 65_535;

/** How often serve checks whether the host took the end step, ms. */
const WATCH_MS = 50;

/**
 * Serves one case until the host ends it; exit as host-test for that one case.
 * @throws InputError (exit 2) for a bad agent name, a port past 65535, an unknown case, a case of another transport, an `--out` folder that
 *   cannot be written (checked before the servers start) or that another catsim is writing (its lock), or a port in use.
 *   Reports that cannot be written go to a fallback folder named on stderr, and the exit code is then 2.
 */
export async function serveCommand(args: ServeArgs): Promise<number> {
  assertAgentName(args.agent);
  // Node's own refusal of a port past 65535 ("options.port should be >= 0 and < 65536. Received type number (99999).") read as a listen failure.
  for (const [option, port] of [
    ['--port', args.port],
    ['--stdio-port', args.stdioPort],
  ] as const)
    if (port > PORT_MAX) throw new InputError(`${option} is not a port: at most ${PORT_MAX}, got ${port}`);
  const spec = oneCase(args.case);
  if (caseTransports(spec, [args.transport]).length === 0)
    throw new InputError(
      `--case ${spec.name} runs on ${(spec.transports ?? []).join(', ')} only, not ${args.transport}`,
    );
  assertWritableDirectory(args.out, '--out');
  // One serve or host-test at a time per folder: a second one would replace this one's index.
  const unlock = lockFolder('--out', args.out);
  try {
    const world = new CaseWorld(spec, args.agent);
    world.start();
    const driver = new Driver(spec, world);
    const model = args.modelEndpoint === true ? new ModelEndpoint(spec, world, driver) : null;
    const hosting = await Hosting.start(world, driver, { http: args.port, stdio: args.stdioPort }, model).catch(
      (error: NodeJS.ErrnoException) => {
        throw new InputError(
          `cannot listen on ${LOOPBACK} (${error.code === 'EADDRINUSE' ? 'port in use' : error.message}): choose another --port / --stdio-port`,
        );
      },
    );
    const ports = hosting.ports();
    process.stdout.write(
      [
        `export CATSIM_SERVERS='${JSON.stringify(serversEnv(world, ports, args.transport))}'`,
        `export CATSIM_DRIVER_URL='http://${LOOPBACK}:${ports.http}/driver/v1'`,
        `export CATSIM_CASE='${spec.name}'`,
        ...(model === null ? [] : [`export CATSIM_MODEL_URL='${modelUrl(ports.http)}'`]),
        `# catsim serve: case ${spec.name} is up; start the host with the variables above (Ctrl-C ends the case)`,
      ].join('\n') + '\n',
    );
    const stallMs = args.stallMs ?? STALL_MS_DEFAULT;
    const end = await waitForEnd(spec, world, driver, model, stallMs);
    await hosting.close();
    const stalled =
      end.stalled === null
        ? null
        : stallLine(
            end.stalled,
            stallMs,
            'serve ended the case and closed its servers',
            model === null ? 'its adapter' : 'its model request',
          );
    const run: CaseRun = finishCase(
      spec,
      world,
      driver,
      args.transport,
      model?.failure ?? end.failure,
      '',
      model?.failure == null ? stalled : null,
      model,
    );
    const folder = new ReportFolder(args.out, (line) => process.stderr.write(`${line}\n`), REPORT_FILES);
    writeReports(
      folder,
      [run],
      () =>
        `catsim serve --case ${spec.name} --transport ${args.transport}${args.stallMs === undefined ? '' : ` --stall-ms ${args.stallMs}`}${model === null ? '' : ' --model-endpoint'}`,
    );
    process.stdout.write(`${run.outcome} ${run.line}\nreports in ${folder.folder ?? args.out}/\n`);
    return exitAfterWrites(
      run.outcome === 'OK' || run.outcome === 'NON-STRICT' ? EXIT.clean : EXIT.violation,
      folder.allWritten,
    );
  } finally {
    unlock();
  }
}

function oneCase(name: string): BlackBoxCase {
  if (/[*?]/.test(name)) throw new InputError(`--case ${JSON.stringify(name)}: serve takes one case name, not a glob`);
  try {
    return loadCases(name)[0] as BlackBoxCase;
  } catch (error) {
    // loadCases words its problems for host-test's --cases; serve's option is --case.
    if (error instanceof CaseError) throw new InputError(error.message.replace(/^--cases /, '--case '));
    throw error;
  }
}

/** How a served case ended: a one-line host failure, or what the held step waited for when the stall window cut it (both null: the end step was taken). */
interface ServeEnd {
  readonly failure: string | null;
  readonly stalled: string | null;
}

/**
 * Resolves once the end step is taken (both null); with a one-line host failure on a signal or
 * past the timeout after the host's first contact (a session, a driver step asked, a model request); with `stalled` once the stall window (`stallMs`, 0:
 * off) has passed with the next step held, the adapter long-polling it and the host silent.
 */
function waitForEnd(
  spec: BlackBoxCase,
  world: CaseWorld,
  driver: Driver,
  model: ModelEndpoint | null,
  stallMs: number,
): Promise<ServeEnd> {
  return new Promise((resolve) => {
    let firstContactAt: number | null = null;
    const watch = new StallWatch(stallMs, Date.now());
    const stop = (end: ServeEnd): void => {
      clearInterval(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(end);
    };
    const onSignal = (): void =>
      stop({
        failure: `HOST_FAILED: serve was stopped before the host took the end step (${driver.results.length} of ${spec.steps.length} steps done)`,
        stalled: null,
      });
    const timer = setInterval(() => {
      if (driver.ended || model?.failure != null) return stop({ failure: null, stalled: null });
      const stalled = watch.sample(Date.now(), {
        seq: driver.results.length + 1,
        held: driver.blockedOn(),
        polling: driver.polling(),
        hostMessages: world.hostMessages(),
      });
      if (stalled !== null) return stop({ failure: null, stalled });
      // The host's first contact: a session with a server, a step asked of the driver, or a model request.
      const contacted =
        spec.servers.some((server) => world.count('session_opened', server.name) > 0) ||
        driver.asked ||
        (model?.arrivals ?? 0) > 0;
      if (contacted && firstContactAt === null) firstContactAt = Date.now();
      if (firstContactAt !== null && Date.now() - firstContactAt > spec.timeoutMs)
        stop({
          failure: `HOST_FAILED: the host did not finish within ${spec.timeoutMs} ms of its first contact (a session, a step asked or a model request)`,
          stalled: null,
        });
    }, WATCH_MS);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
