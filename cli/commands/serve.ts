/**
 * `catsim serve --case NAME [--agent NAME] [--transport http|stdio] [--port N] [--stdio-port N] [--out DIR] [--model-endpoint]`:
 * keeps one case's simulated servers and driver up on loopback for a host started separately (a
 * desktop app, a gateway). Prints the environment the host needs (`CATSIM_SERVERS`,
 * `CATSIM_DRIVER_URL`, `CATSIM_CASE`; with `--model-endpoint`, `CATSIM_MODEL_URL`: catsim answers
 * as the host's model, blackbox/model-endpoint.ts) as shell `export` lines, waits until the host has taken the
 * `end` step (or SIGINT/SIGTERM, or the case timeout counted from the first session), then judges
 * the wire record and writes the reports as host-test does.
 */
import { CaseError, caseTransports, loadCases, type BlackBoxCase } from '../../blackbox/case.ts';
import { CaseWorld } from '../../blackbox/case-world.ts';
import { Driver } from '../../blackbox/driver.ts';
import { Hosting, LOOPBACK } from '../../blackbox/hosting.ts';
import { writeReports } from '../../blackbox/reports.ts';
import { ModelEndpoint } from '../../blackbox/model-endpoint.ts';
import { finishCase, modelUrl, serversEnv, type CaseRun } from '../../blackbox/run-case.ts';
import { EXIT, InputError } from '../errors.ts';

/** Arguments of `catsim serve`. */
export interface ServeArgs {
  case: string;
  agent: string;
  transport: 'http' | 'stdio';
  /** Loopback ports; 0: any free one. */
  port: number;
  stdioPort: number;
  out: string;
  /** Answer as the host's model too (`--model-endpoint`): prints `CATSIM_MODEL_URL`. */
  modelEndpoint?: boolean;
}

/** How often serve checks whether the host took the end step, ms. */
const WATCH_MS = 50;

/**
 * Serves one case until the host ends it; exit as host-test for that one case.
 * @throws InputError (exit 2) for an unknown case, a case of another transport, or a port in use.
 */
export async function serveCommand(args: ServeArgs): Promise<number> {
  const spec = oneCase(args.case);
  if (caseTransports(spec, [args.transport]).length === 0)
    throw new InputError(
      `--case ${spec.name} runs on ${(spec.transports ?? []).join(', ')} only, not ${args.transport}`,
    );
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
  const failure = await waitForEnd(spec, world, driver, model);
  await hosting.close();
  const run: CaseRun = finishCase(spec, world, driver, args.transport, model?.failure ?? failure, '', null, model);
  writeReports(
    args.out,
    [run],
    () => `catsim serve --case ${spec.name} --transport ${args.transport}${model === null ? '' : ' --model-endpoint'}`,
  );
  process.stdout.write(`${run.outcome} ${run.line}\nreports in ${args.out}/\n`);
  return run.outcome === 'OK' || run.outcome === 'NON-STRICT' ? EXIT.clean : EXIT.violation;
}

function oneCase(name: string): BlackBoxCase {
  if (/[*?]/.test(name)) throw new InputError(`--case ${JSON.stringify(name)}: serve takes one case name, not a glob`);
  try {
    return loadCases(name)[0] as BlackBoxCase;
  } catch (error) {
    if (error instanceof CaseError) throw new InputError(error.message);
    throw error;
  }
}

/** Resolves null once the end step is taken; a one-line host failure on a signal or past the timeout after the first session. */
function waitForEnd(
  spec: BlackBoxCase,
  world: CaseWorld,
  driver: Driver,
  model: ModelEndpoint | null,
): Promise<string | null> {
  return new Promise((resolve) => {
    let firstSessionAt: number | null = null;
    const stop = (why: string): void => {
      clearInterval(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(why === '' ? null : why);
    };
    const onSignal = (): void =>
      stop(
        `HOST_FAILED: serve was stopped before the host took the end step (${driver.results.length} of ${spec.steps.length} steps done)`,
      );
    const timer = setInterval(() => {
      if (driver.ended || model?.failure != null) return stop('');
      const opened = spec.servers.some((server) => world.count('session_opened', server.name) > 0);
      if (opened && firstSessionAt === null) firstSessionAt = Date.now();
      if (firstSessionAt !== null && Date.now() - firstSessionAt > spec.timeoutMs)
        stop(`HOST_FAILED: the host did not finish within ${spec.timeoutMs} ms of its first session`);
    }, WATCH_MS);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
