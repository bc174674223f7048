/**
 * A black-box case (issue 28): data in `scenarios/cases/*.json`, seeded and named. It says which
 * simulated servers the host gets (their tools per revision, page sizes, cursor behaviour), which
 * wire events change the catalog ("after page 2 of walk 1 of alpha"), and the driver's steps.
 * Nothing here reads a clock: a case is a function of its file.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packagePath } from './package-path.ts';

/** How a server's cursors behave: `honest`; `empty-string`: page 1 hands out `""` (more pages follow); `repeat`: page 2 hands out the cursor it was asked with; `cycle`: page 2 hands out a cursor back to page 1, whose answer hands out page 2's cursor again (c1 -> c0 -> c1); `endless`: every page hands out a new cursor, past the last tool with empty pages. */
export type CaseCursor = 'honest' | 'empty-string' | 'repeat' | 'cycle' | 'endless';

/** One simulated server of a case. */
export interface CaseServer {
  /** The name the host sees in `CATSIM_SERVERS`, and the server id in the trace. */
  readonly name: string;
  /** The audience (`tenant.role`) the credential proves. */
  readonly audience: string;
  /** Page sizes, inclusive: each page's size is a function of (seed, server, revision, offset). */
  readonly pageSize: readonly [number, number];
  readonly cursor: CaseCursor;
  /** Tool names per revision, in list order: revision 1 first; each `change` trigger moves to the next. */
  readonly revisions: readonly (readonly string[])[];
  /**
   * A tenant twin: a second entry in `CATSIM_SERVERS` for the same server (same URL or shim
   * target) with its own credential, proving another audience that sees the same names with
   * different descriptors.
   */
  readonly twin?: { readonly name: string; readonly audience: string };
  /** How many `list_changed` notifications each change sends to each session (a burst); default 1. */
  readonly notificationCopies?: number;
  /**
   * Planted defects by tool name: the descriptor of that name is served defective in every
   * revision that lists it, and written as `defect_planted` (I5 judges it).
   */
  readonly defects?: Readonly<Record<string, CaseDefect>>;
}

/** The defects a case can plant (F13's content defects, as blackbox/case-world.ts builds them). */
export const CASE_DEFECTS = ['UNKNOWN_DIALECT', 'UNRESOLVED_REF', 'REMOTE_REF', 'NON_OBJECT_ROOT', 'BAD_NAME'] as const;

/** One defect a case can plant. */
export type CaseDefect = (typeof CASE_DEFECTS)[number];

/**
 * A catalog change fired on a wire event: after the server served page `page` of walk `walk`
 * (both from 1, counted over all sessions of that server), or, with `call`, after it answered its
 * `call`-th `tools/call` (from 1).
 */
export interface CaseTrigger {
  readonly server: string;
  readonly walk?: number;
  readonly page?: number;
  readonly call?: number;
  /**
   * `change`: next revision and a `list_changed` to every session; `silent-change`: next revision,
   * no notification; `restart`: the server restarts (its boot counts up, so every cursor it handed
   * out before is refused with -32602); `expire-session`: every HTTP session of the server ends
   * (a request naming it gets 404, and the host must initialize anew; http cases only).
   */
  readonly do: 'change' | 'silent-change' | 'restart' | 'expire-session';
}

/** What must hold on the wire before a step is released. */
export interface StepPrecondition {
  /** A world event type that must be in the record for `server` (e.g. `notification_delivered`, `revision`). */
  readonly event: 'notification_delivered' | 'revision' | 'page_served' | 'disconnected';
  readonly server: string;
  /** How many such events (default 1; for `revision`, 2 means the first change happened). */
  readonly count?: number;
}

/** One driver step (contract/driver: catsim.driver.v1). */
export type CaseStep =
  | {
      readonly kind: 'call';
      readonly server: string;
      readonly tool: string;
      readonly arguments: Record<string, unknown>;
      readonly after?: StepPrecondition;
    }
  | { readonly kind: 'disclose'; readonly after?: StepPrecondition }
  | { readonly kind: 'sleep'; readonly ms: number; readonly after?: StepPrecondition }
  | { readonly kind: 'end'; readonly after?: StepPrecondition };

/** A whole case. */
export interface BlackBoxCase {
  readonly name: string;
  readonly seed: string;
  /** One sentence: what the case checks. */
  readonly description: string;
  readonly servers: readonly CaseServer[];
  readonly triggers: readonly CaseTrigger[];
  readonly steps: readonly CaseStep[];
  /** Real-clock limit for the whole case, ms: past it the host is HOST_FAILED. */
  readonly timeoutMs: number;
  /** Most pages one walk may ask for before I13 calls it endless. */
  readonly pageCountMax: number;
  /** The transports the case applies to (default both); host-test skips the others. */
  readonly transports?: ReadonlyArray<'http' | 'stdio'>;
}

/** The transports `spec` runs on, of those asked for, in the order asked. */
export function caseTransports(spec: BlackBoxCase, asked: ReadonlyArray<'http' | 'stdio'>): Array<'http' | 'stdio'> {
  return asked.filter((transport) => spec.transports === undefined || spec.transports.includes(transport));
}

/** A case file that is not a case: one line, exit 2. */
export class CaseError extends Error {
  override readonly name = 'CaseError';
}

/** The folder the shipped cases live in. */
export const CASES_DIR = packagePath(join('scenarios', 'cases'));

/**
 * Loads the cases whose name matches `glob` (`*` any run of characters, `?` one), sorted by name
 * (every `.json` file of `dir` but its JSON Schema, `case.schema.json`).
 * @throws CaseError when a file is not a valid case or no case matches.
 */
export function loadCases(glob = '*', dir = CASES_DIR): BlackBoxCase[] {
  if (!/^[A-Za-z0-9_.*?-]+$/.test(glob))
    throw new CaseError(
      `--cases ${JSON.stringify(glob)}: a case glob uses letters, digits, '-', '_', '.', '*' and '?' only`,
    );
  const pattern = new RegExp(`^${glob.replace(/\./g, '\\.').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.json') && !file.endsWith('.schema.json'))
    .sort();
  const cases = files
    .map((file) => parseCase(readFileSync(join(dir, file), 'utf8'), basename(file, '.json')))
    .filter((c) => pattern.test(c.name));
  if (cases.length === 0) throw new CaseError(`--cases ${JSON.stringify(glob)} matches no case in ${dir}`);
  return cases;
}

/** Parses and checks one case file; `stem` is its file name without `.json`, which must be its name. */
export function parseCase(text: string, stem: string): BlackBoxCase {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CaseError(`case ${stem}: not JSON (${(error as Error).message})`);
  }
  const problem = caseProblem(value, stem);
  if (problem !== null) throw new CaseError(`case ${stem}: ${problem}`);
  return value as BlackBoxCase;
}

function caseProblem(value: unknown, stem: string): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const c = value as Record<string, unknown>;
  if (c.name !== stem) return `name ${JSON.stringify(c.name)} is not the file's name`;
  if (typeof c.seed !== 'string' || typeof c.description !== 'string') return 'seed and description must be strings';
  if (!Number.isSafeInteger(c.timeoutMs) || (c.timeoutMs as number) < 100) return 'timeoutMs must be an integer >= 100';
  if (!Number.isSafeInteger(c.pageCountMax) || (c.pageCountMax as number) < 1)
    return 'pageCountMax must be an integer >= 1';
  if (!Array.isArray(c.servers) || c.servers.length === 0) return 'servers must be a non-empty array';
  const names = new Set<string>();
  for (const server of c.servers as CaseServer[]) {
    if (typeof server.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(server.name) || names.has(server.name))
      return `server name ${JSON.stringify(server.name)} must be unique, lower case`;
    names.add(server.name);
    if (!Array.isArray(server.pageSize) || !(server.pageSize[0] >= 1 && server.pageSize[1] >= server.pageSize[0]))
      return `server ${server.name}: pageSize must be [min >= 1, max >= min]`;
    if (!['honest', 'empty-string', 'repeat', 'cycle', 'endless'].includes(server.cursor))
      return `server ${server.name}: unknown cursor ${JSON.stringify(server.cursor)}`;
    if (!Array.isArray(server.revisions) || server.revisions.length === 0)
      return `server ${server.name}: revisions must be a non-empty array`;
    if (
      server.notificationCopies !== undefined &&
      !(
        Number.isSafeInteger(server.notificationCopies) &&
        server.notificationCopies >= 1 &&
        server.notificationCopies <= 10
      )
    )
      return `server ${server.name}: notificationCopies must be an integer from 1 to 10`;
    for (const [tool, defect] of Object.entries(server.defects ?? {})) {
      if (!(CASE_DEFECTS as readonly string[]).includes(defect))
        return `server ${server.name}: defect ${JSON.stringify(defect)} of ${tool} is not one of ${CASE_DEFECTS.join(', ')}`;
      if (!server.revisions.some((names) => names.includes(tool)))
        return `server ${server.name}: defect of ${JSON.stringify(tool)}, a tool no revision lists`;
    }
    if (server.twin !== undefined) {
      if (
        typeof server.twin.name !== 'string' ||
        !/^[a-z][a-z0-9-]*$/.test(server.twin.name) ||
        names.has(server.twin.name)
      )
        return `server ${server.name}: twin name must be unique, lower case`;
      if (typeof server.twin.audience !== 'string' || server.twin.audience === server.audience)
        return `server ${server.name}: the twin's audience must differ from the server's`;
      names.add(server.twin.name);
    }
  }
  if (!Array.isArray(c.triggers) || !Array.isArray(c.steps)) return 'triggers and steps must be arrays';
  if (
    c.transports !== undefined &&
    (!Array.isArray(c.transports) ||
      c.transports.length === 0 ||
      !c.transports.every((t) => t === 'http' || t === 'stdio'))
  )
    return 'transports must be a non-empty array of http and stdio';
  const servers = new Set((c.servers as CaseServer[]).map((server) => server.name));
  for (const trigger of c.triggers as CaseTrigger[]) {
    if (!servers.has(trigger.server)) return `trigger names unknown server ${JSON.stringify(trigger.server)}`;
    if (!['change', 'silent-change', 'restart', 'expire-session'].includes(trigger.do))
      return 'trigger do must be change, silent-change, restart or expire-session';
    if (trigger.do === 'expire-session' && JSON.stringify(c.transports) !== '["http"]')
      return 'an expire-session trigger needs "transports": ["http"]';
    const onPage =
      Number.isSafeInteger(trigger.walk) && Number.isSafeInteger(trigger.page) && trigger.call === undefined;
    const onCall = Number.isSafeInteger(trigger.call) && trigger.walk === undefined && trigger.page === undefined;
    if (!onPage && !onCall) return 'a trigger names either walk and page, or call';
  }
  const steps = c.steps as CaseStep[];
  if (steps.at(-1)?.kind !== 'end') return 'the last step must be end';
  for (const step of steps) {
    if (!['call', 'disclose', 'sleep', 'end'].includes(step.kind))
      return `unknown step kind ${JSON.stringify(step.kind)}`;
    if (step.kind === 'call' && !names.has(step.server))
      return `call step names unknown server ${JSON.stringify(step.server)}`;
  }
  return null;
}
