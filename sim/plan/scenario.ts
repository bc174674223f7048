/**
 * Scenarios: named fault mixes as data (`scenarios/<name>.json`). A scenario fixes the bounds
 * the oracle judges with, the core's timings, and the ranges the plan generator draws from.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import canonicalize from 'canonicalize';
import { readInputJson } from './input-file.ts';
import { schemaProblem } from './schema-problem.ts';
import { ROUND_SIZE_MAX, SCENARIO_SCHEMA } from './scenario-schema.ts';
import type { Bounds } from './types.ts';
import { DEFAULT_CATALOG_BYTES_MAX, DEFAULT_TOOL_COUNT_MAX, type Range, type Scenario } from './scenario-types.ts';
import { PROBES } from '../../oracle/probes/index.ts';

export type { Range, Scenario } from './scenario-types.ts';

/** A scenario or catalog file that cannot be used; the message names the file and the problem. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

const SCENARIO_DIR = scenarioDirectory(fileURLToPath(new URL('.', import.meta.url)));
/** Where the scenario schema is written out for editors and readers (`npm run schema`). */
export const SCENARIO_SCHEMA_PATH = join(SCENARIO_DIR, 'scenario.schema.json');

/**
 * True when `--scenario` names a file rather than a built-in scenario: it holds a `/` or a `\`
 * (a directory separator) or ends in `.json`. Anything else (`default`, `equivocation`) is the name
 * of a file `scenarios/NAME.json` that ships with catsim.
 */
export function isScenarioPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');
}

/**
 * The package's `scenarios/` directory, found from this module's directory `here` by walking up
 * to the first ancestor that holds `scenarios/scenario.schema.json`: two levels up from the
 * TypeScript sources (`sim/plan/`), three from the compiled CLI (`dist/sim/plan/`). The JSON
 * files are data read at run time, never copied into `dist/`, so both find the same files.
 * @throws Error when no ancestor holds it (a broken installation, not an input error).
 */
function scenarioDirectory(here: string): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, 'scenarios');
    if (existsSync(join(candidate, 'scenario.schema.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`no scenarios/scenario.schema.json above ${here}`);
  }
}

/** sha256 (64 hex digits) of the scenario's RFC 8785 canonical JSON: equal exactly when the scenarios are. */
export function scenarioDigest(scenario: Scenario): string {
  return createHash('sha256')
    .update(canonicalize(scenario) ?? 'null')
    .digest('hex');
}

/** The file a `--scenario` value names: itself when it is a path ({@link isScenarioPath}), else `scenarios/<name>.json` of the package. */
export function scenarioFile(nameOrPath: string): string {
  return isScenarioPath(nameOrPath) ? nameOrPath : join(SCENARIO_DIR, `${nameOrPath}.json`);
}

/**
 * Loads a scenario: the file `nameOrPath` when it is a path ({@link isScenarioPath}), else the
 * built-in `scenarios/<name>.json`.
 * @throws ScenarioError (one line) when the name is empty or no built-in scenario has it (the
 *   message lists them), or when the file is missing, a directory, not JSON, or fails validation,
 *   e.g. `scenarios/x.json: "pageSize.min" must be an integer from 1 to 2147483647, got 1.5`.
 */
export function loadScenario(nameOrPath: string): Scenario {
  if (nameOrPath === '')
    throw new ScenarioError(
      '--scenario: the name is empty (give a built-in scenario name or the path of a scenario file)',
    );
  const isPath = isScenarioPath(nameOrPath);
  const file = scenarioFile(nameOrPath);
  const builtIn = builtInScenarios();
  if (!isPath && !builtIn.includes(nameOrPath)) {
    throw new ScenarioError(
      `no built-in scenario "${nameOrPath}" (there are: ${builtIn.join(', ')}); a scenario file is named by a path with a "/" or ending in .json, e.g. ./${nameOrPath}.json`,
    );
  }
  const data = readInputJson(file, (message) => new ScenarioError(message));
  const problem = scenarioProblem(data);
  if (problem !== undefined) throw new ScenarioError(`${file}: ${problem}`);
  return data as Scenario;
}

/** The names of the scenarios that ship in `scenarios/`, sorted. */
export function builtInScenarios(): string[] {
  return readdirSync(SCENARIO_DIR)
    .filter((file) => file.endsWith('.json') && file !== 'scenario.schema.json')
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/**
 * The first problem of a parsed scenario file in plain words (`unknown field "pageSizee"`), or
 * undefined when it is valid: first the scenario schema, then what the schema cannot state (in
 * every range, min <= max; the tools of a round within `ROUND_SIZE_MAX.tools`).
 */
export function scenarioProblem(data: unknown): string | undefined {
  const validate = scenarioValidator();
  if (!validate(data)) return schemaProblem(validate.errors?.[0]);
  return (
    rangeProblem(data as Record<string, unknown>, '') ??
    sizeProblem(data as Scenario) ??
    probesProblem(data as Scenario)
  );
}

/** Too many tools for one round in the largest draw of servers, audiences and first views (schema `ROUND_SIZE_MAX.tools`). */
function sizeProblem(scenario: Scenario): string | undefined {
  const tools = scenario.servers.max * scenario.audiencesPerServer.max * scenario.toolsPerView.max;
  if (tools <= ROUND_SIZE_MAX.tools) return undefined;
  return `"servers.max" x "audiencesPerServer.max" x "toolsPerView.max" must be at most ${ROUND_SIZE_MAX.tools} (the tools one round can hold), got ${scenario.servers.max} x ${scenario.audiencesPerServer.max} x ${scenario.toolsPerView.max} = ${tools}`;
}

/** A `requiredProbes` entry that names no probe would fail the probe gate of every campaign, at its end. */
function probesProblem(scenario: Scenario): string | undefined {
  const known = new Set(PROBES.map((probe) => probe.name));
  const unknown = (scenario.requiredProbes ?? []).filter((name) => !known.has(name));
  if (unknown.length === 0) return undefined;
  return `"requiredProbes" names no such probe: ${unknown.map((name) => JSON.stringify(name)).join(', ')} (the probes are ${[...known].join(', ')})`;
}

let compiled: ValidateFunction | undefined;

/** Compiled on first use, so that importing this module (every worker does) compiles no schema. */
function scenarioValidator(): ValidateFunction {
  compiled ??= new Ajv2020({ strict: true, verbose: true, allErrors: false }).compile(SCENARIO_SCHEMA);
  return compiled;
}

/** The first range (`{"min", "max"}`, at any depth, in file order) whose min exceeds its max. */
function rangeProblem(object: Record<string, unknown>, prefix: string): string | undefined {
  for (const [key, value] of Object.entries(object)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const range = value as Partial<Range>;
    if (typeof range.min === 'number' && typeof range.max === 'number') {
      if (range.min > range.max)
        return `"${prefix}${key}.min" must be at most "${prefix}${key}.max", got ${range.min} > ${range.max}`;
      continue;
    }
    const inner = rangeProblem(value as Record<string, unknown>, `${prefix}${key}.`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The bounds of a scenario. The quiet tail L covers one refresh interval plus two rounds of
 * (maximum back-off + scan timeout), plus the latency bound, so a healthy server is always
 * reached again before T_end (SPEC section 10).
 */
export function boundsOf(scenario: Scenario): Bounds {
  const latencyMsMax = Math.max(scenario.latencyMs.max, scenario.nominalLatencyMs.max);
  const tailMs =
    Math.max(scenario.timings.refreshIntervalMs, scenario.policyPollMs) +
    2 * (scenario.timings.retryBackoffMsMax + scenario.scanTimeoutMs) +
    4 * latencyMsMax;
  return {
    pageCountMax: scenario.pageCountMax,
    byteCountMax: scenario.byteCountMax,
    scanTimeoutMs: scenario.scanTimeoutMs,
    latencyMsMax,
    tHealMs: scenario.tHealMs,
    tEndMs: scenario.tHealMs + tailMs,
    generationTtlMs: scenario.generationTtlMs,
    retryBackoffMsMax: scenario.timings.retryBackoffMsMax,
    revocationBoundMs: scenario.revocationBoundMs,
    toolCountMax: scenario.toolCountMax ?? DEFAULT_TOOL_COUNT_MAX,
    catalogBytesMax: scenario.catalogBytesMax ?? DEFAULT_CATALOG_BYTES_MAX,
  };
}
