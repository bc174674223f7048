/**
 * Runs one case against a host command: builds the case world, hosts it on loopback, spawns the
 * host once (its own process group) with `CATSIM_SERVERS`, `CATSIM_DRIVER_URL` and `CATSIM_CASE`
 * in its environment, waits for it to exit or for the case timeout, kills whatever of its group
 * is left, closes every listener, and judges the wire record with the oracle.
 *
 * Outcomes: HOST_FAILED (never connected, crashed, exited before `end`, timed out, flooded),
 * else the wire verdict FAILED, else UNDECIDED when the host timed out or stalled (blackbox/stall.ts)
 * while a step waited for a precondition it never brought about, else UNSUPPORTED (a step the host
 * answered `unsupported`), else UNDECIDED / NON-STRICT / OK. The real clock decides only when the
 * host is cut off (the timeout, the stall window); the servers' answers and the verdict are
 * functions of the case and the requests sent.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { judgeHostWire, type HostViolation } from '../oracle/host-wire.ts';
import type { TraceEvent, TraceHeader } from '../sim/trace/recorder.ts';
import type { BlackBoxCase } from './case.ts';
import { CaseWorld, type WireEntry } from './case-world.ts';
import { Driver, type StepResult } from './driver.ts';
import { Hosting, LOOPBACK } from './hosting.ts';
import { ModelEndpoint, type ModelRequest } from './model-endpoint.ts';
import { HOST_MARK_VAR, killHostTree, leftBehind, newHostMark } from './host-tree.ts';
import { packagePath } from './package-path.ts';
import { STALL_MS_DEFAULT, StallWatch, stallLine } from './stall.ts';

/** Every outcome a case can end with (Autobahn's, plus HOST_FAILED and UNDECIDED). */
export type CaseOutcome = 'OK' | 'NON-STRICT' | 'FAILED' | 'UNSUPPORTED' | 'HOST_FAILED' | 'UNDECIDED';

/** Which transport the case's servers are offered on. */
export type CaseTransport = 'http' | 'stdio';

/** The stdio shim a host launches as its MCP server command. */
export const SHIM_PATH = packagePath(join('blackbox', 'stdio-shim.mjs'));

/** What one case run found. */
export interface CaseRun {
  readonly agent: string;
  readonly case: string;
  readonly transport: CaseTransport;
  readonly outcome: CaseOutcome;
  /** One line: the first violation, the host failure, or what passed. */
  readonly line: string;
  readonly violations: HostViolation[];
  readonly hostFailure: string | null;
  readonly steps: StepResult[];
  readonly header: TraceHeader;
  readonly events: TraceEvent[];
  readonly wireLog: WireEntry[];
  /** With `--model-endpoint`: every request to the model endpoint, as `model_request` records (absent without it). */
  readonly modelRequests?: ModelRequest[];
  /** The host's stderr, last 2000 characters (for the report). */
  readonly stderr: string;
  /** With `--repeat N`: how many runs, their outcomes, and whether the wire differed between them. */
  readonly repeat?: { readonly runs: number; readonly outcomes: CaseOutcome[]; readonly wireDiffers: boolean };
}

/** The entries of `CATSIM_SERVERS` for a hosting: a tenant twin has its server's URL (or shim target) and its own token. */
export function serversEnv(
  world: CaseWorld,
  ports: { http: number; stdio: number },
  transport: CaseTransport,
): unknown[] {
  return world.entries().map((entry) =>
    transport === 'http'
      ? {
          name: entry.name,
          transport,
          url: `http://${LOOPBACK}:${ports.http}/mcp/${entry.server}`,
          credentials: { type: 'bearer', token: entry.token },
        }
      : {
          name: entry.name,
          transport,
          command: process.execPath,
          args: [SHIM_PATH, `${LOOPBACK}:${ports.stdio}`, entry.server],
          env: { CATSIM_TOKEN: entry.token },
          credentials: { type: 'bearer', token: entry.token },
        },
  );
}

/** Options of one case run. */
export interface RunCaseOptions {
  /**
   * The stall window, ms (blackbox/stall.ts; default STALL_MS_DEFAULT, 0: off): a case whose next
   * step is held while the adapter long-polls it and the host sends nothing to its servers for
   * this long ends UNDECIDED at once, through the same kill as the timeout.
   */
  readonly stallMs?: number;
  /**
   * Answer on loopback as the host's model too (blackbox/model-endpoint.ts): the host finds the
   * base URL in `CATSIM_MODEL_URL` (`http://127.0.0.1:PORT`; OpenAI clients take it with `/v1`).
   */
  readonly modelEndpoint?: boolean;
  /**
   * Aborting it cuts the host off at once, through the same kill as the timeout (its process group
   * and every marked process), and a case begun after it was aborted starts no host. host-test
   * aborts it on Ctrl-C, SIGTERM or SIGHUP and reports none of the cases it cut.
   */
  readonly interrupt?: AbortSignal;
}

/** The model base URL a host is given (`CATSIM_MODEL_URL`): Anthropic clients take it as is, OpenAI clients with `/v1` appended. */
export function modelUrl(port: number): string {
  return `http://${LOOPBACK}:${port}`;
}

/** How often the stall rule samples the case, ms (real clock). */
const STALL_SAMPLE_MS = 100;

/** Runs `spec` once against `command` (program and arguments). Never throws for anything the host does. */
export async function runCase(
  spec: BlackBoxCase,
  agent: string,
  transport: CaseTransport,
  command: readonly string[],
  options: RunCaseOptions = {},
): Promise<CaseRun> {
  const world = new CaseWorld(spec, agent);
  world.start();
  const driver = new Driver(spec, world);
  const model = options.modelEndpoint === true ? new ModelEndpoint(spec, world, driver) : null;
  const hosting = await Hosting.start(world, driver, undefined, model);
  const ports = hosting.ports();
  const env = {
    ...process.env,
    CATSIM_SERVERS: JSON.stringify(serversEnv(world, ports, transport)),
    CATSIM_DRIVER_URL: `http://${LOOPBACK}:${ports.http}/driver/v1`,
    CATSIM_CASE: spec.name,
    ...(model === null ? {} : { CATSIM_MODEL_URL: modelUrl(ports.http) }),
  };
  const stallMs = options.stallMs ?? STALL_MS_DEFAULT;
  const watch = new StallWatch(stallMs, Date.now());
  // A call step the model endpoint could not map ends the case at once (the same kill as a stall).
  const exit = await spawnHost(
    command,
    env,
    spec.timeoutMs,
    () =>
      model?.failure != null
        ? model.failure
        : watch.sample(Date.now(), {
            seq: driver.results.length + 1,
            held: driver.blockedOn(),
            polling: driver.polling(),
            hostMessages: world.hostMessages(),
          }),
    () => {
      if (model !== null) model.cutOff = true;
    },
    options.interrupt,
  );
  await hosting.close();
  await model?.idle();
  const blocked = exit.timedOut ? driver.blockedOn() : null;
  const stalled =
    exit.stalled !== null
      ? stallLine(
          exit.stalled,
          stallMs,
          'its process group was killed',
          model === null ? 'its adapter' : 'its model request',
        )
      : blocked === null
        ? null
        : `the host did not finish within ${spec.timeoutMs} ms: ${blocked}, so the case could not go on (its process group was killed)`;
  const hostFailure =
    model?.failure ??
    neverCalled(model, exit, world, driver, spec) ??
    (stalled === null ? failureOf(exit, world, driver, spec) : null);
  return finishCase(
    spec,
    world,
    driver,
    transport,
    hostFailure,
    exit.stderr,
    hostFailure === null ? stalled : null,
    model,
  );
}

/**
 * Ends the case's record and judges it: the host's failure (or null) decides HOST_FAILED (`model`:
 * the model endpoint, whose requests the run keeps); a case
 * that `stalled` (a step's precondition never held) is UNDECIDED unless the wire already failed;
 * the oracle decides the rest.
 */
export function finishCase(
  spec: BlackBoxCase,
  world: CaseWorld,
  driver: Driver,
  transport: CaseTransport,
  hostFailure: string | null,
  stderr: string,
  stalled: string | null = null,
  model: ModelEndpoint | null = null,
): CaseRun {
  const { header, events } = world.finish(hostFailure === null && stalled === null ? 'settled' : 'undecided');
  const verdict = judgeHostWire({ header, events });
  const unsupported = driver.results.find((result) => result.status === 'unsupported');
  const outcome: CaseOutcome =
    hostFailure !== null
      ? 'HOST_FAILED'
      : verdict.outcome === 'FAILED'
        ? 'FAILED'
        : stalled !== null
          ? 'UNDECIDED'
          : unsupported !== undefined
            ? 'UNSUPPORTED'
            : verdict.outcome;
  const first = verdict.violations.find((v) => v.level === 'MUST') ?? verdict.violations[0];
  const line =
    hostFailure ??
    (outcome === 'UNDECIDED' && stalled !== null ? stalled : undefined) ??
    first?.evidence ??
    (unsupported !== undefined
      ? `step ${unsupported.seq} (${spec.steps[unsupported.seq - 1]?.kind}) is unsupported by the host`
      : verdict.outcome === 'UNDECIDED'
        ? `${verdict.triggersFired} of ${verdict.triggersPlanned} planned triggers fired: the host never walked far enough`
        : 'no violation');
  return {
    agent: world.agent,
    case: spec.name,
    transport,
    outcome,
    line: `${spec.name}: ${line}`,
    violations: verdict.violations,
    hostFailure,
    steps: driver.results,
    header,
    events,
    wireLog: world.wireLog,
    ...(model === null ? {} : { modelRequests: model.requests }),
    stderr: stderr.slice(-2000),
  };
}

interface HostExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** What the held step waited for when the stall rule cut the host off, or null. */
  readonly stalled: string | null;
  readonly spawnError: string | null;
  readonly stderr: string;
  /** How many of its processes the host left running after it exited (before catsim killed them). */
  readonly leftBehind: number;
}

/** How long a host's children may take to end on their own after it exited, ms, before they count as left behind. */
const CHILDREN_GRACE_MS = 1_000;

/**
 * Spawns the host in its own process group, marked (host-tree.ts); at exit, at the timeout, or
 * once `stalled` (sampled every STALL_SAMPLE_MS) returns what a held step waits for, kills the
 * group and every marked process, setsid'd or orphaned ones included, and resolves once they are
 * gone. The timeout, the stall and `interrupt` cut the host off the same way, after `beforeCut`; a
 * host whose `interrupt` was aborted before it started is not started.
 */
function spawnHost(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  stalled: () => string | null,
  beforeCut: () => void = () => undefined,
  interrupt?: AbortSignal,
): Promise<HostExit> {
  return new Promise((resolve) => {
    if (interrupt?.aborted === true) {
      resolve({
        code: null,
        signal: null,
        timedOut: false,
        stalled: null,
        spawnError: 'interrupted before the host started',
        stderr: '',
        leftBehind: 0,
      });
      return;
    }
    let stderr = '';
    let timedOut = false;
    let stalledOn: string | null = null;
    const mark = newHostMark();
    const child = spawn(command[0] as string, command.slice(1), {
      env: { ...env, [HOST_MARK_VAR]: mark },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const cut = (): void => {
      beforeCut();
      clearTimeout(timer);
      clearInterval(sampler);
      void killHostTree(child.pid, mark);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      cut();
    }, timeoutMs);
    interrupt?.addEventListener('abort', cut, { once: true });
    const sampler = setInterval(() => {
      stalledOn = stalled();
      if (stalledOn !== null) cut();
    }, STALL_SAMPLE_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      clearInterval(sampler);
      interrupt?.removeEventListener('abort', cut);
      resolve({
        code: null,
        signal: null,
        timedOut: false,
        stalled: null,
        spawnError: error.message,
        stderr,
        leftBehind: 0,
      });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(sampler);
      interrupt?.removeEventListener('abort', cut);
      void (async () => {
        const left = timedOut || stalledOn !== null ? 0 : await leftBehind(mark, CHILDREN_GRACE_MS);
        await killHostTree(child.pid, mark);
        resolve({ code, signal, timedOut, stalled: stalledOn, spawnError: null, stderr, leftBehind: left });
      })();
    });
  });
}

/**
 * With the model endpoint: the one-line host failure of a host that never called the model (no
 * request reached CATSIM_MODEL_URL), with what ended it; else null.
 */
function neverCalled(
  model: ModelEndpoint | null,
  exit: HostExit,
  world: CaseWorld,
  driver: Driver,
  spec: BlackBoxCase,
): string | null {
  if (model === null || model.arrivals > 0) return null;
  const ended = failureOf(exit, world, driver, spec)?.replace(/^HOST_FAILED: /, '') ?? 'the host exited 0';
  return `HOST_FAILED: the host never called the model endpoint (no request reached CATSIM_MODEL_URL); ${ended}`;
}

/** The one-line host failure, or null when the host ran the case to its end and exited 0. */
function failureOf(exit: HostExit, world: CaseWorld, driver: Driver, spec: BlackBoxCase): string | null {
  const connected = spec.servers.filter((server) => world.count('session_opened', server.name) > 0).length;
  if (exit.spawnError !== null) return `HOST_FAILED: the host command could not start (${exit.spawnError})`;
  const flooded = world.flooded();
  if (flooded !== null) return `HOST_FAILED: the host flooded ${flooded} with tools/list requests`;
  if (exit.timedOut)
    return `HOST_FAILED: the host did not finish within ${spec.timeoutMs} ms (${connected === 0 ? 'it never connected' : `step ${driver.results.length + 1} of ${spec.steps.length} pending`}); its process group was killed`;
  if (exit.code !== 0)
    return `HOST_FAILED: the host exited with ${exit.signal ?? `code ${exit.code}`}${connected === 0 ? ' without connecting' : ''} at step ${driver.results.length + 1} of ${spec.steps.length}${lastLine(exit.stderr)}`;
  if (exit.leftBehind > 0)
    return `HOST_FAILED: the host exited and left ${exit.leftBehind} process${exit.leftBehind === 1 ? '' : 'es'} running ${CHILDREN_GRACE_MS} ms later (catsim killed ${exit.leftBehind === 1 ? 'it' : 'them'})`;
  if (!driver.ended)
    return `HOST_FAILED: the host exited before the end step (${driver.results.length} of ${spec.steps.length} steps done${connected === 0 ? ', never connected' : ''})`;
  return null;
}

/**
 * The last non-empty line of the host's stderr, as ` (stderr: ...)` cut to 160 characters, or '';
 * Node's trailer (`Node.js v20.1.0`, after an uncaught error) and lines of brackets only are passed over.
 */
function lastLine(stderr: string): string {
  const line = stderr
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text !== '' && !/^Node\.js v\d/.test(text) && !/^[\]\[{}()]+$/.test(text))
    .at(-1);
  return line === undefined ? '' : ` (stderr: ${line.slice(0, 160)})`;
}
