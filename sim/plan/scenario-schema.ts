/**
 * The JSON Schema (draft 2020-12) of a scenario file, built from the fault registry: the list of
 * fault ids comes from `sim/faults/index.ts`, so it is written nowhere else. The committed
 * `scenarios/scenario.schema.json` (for editors and for readers) is this object written out by
 * `npm run schema`; a test checks that the two are equal.
 *
 * Every `title` is the short phrase error messages use (`"pageSize.min" must be a positive
 * integer`). Rules JSON Schema cannot state are checked after it by sim/plan/scenario.ts: in every
 * range, min <= max.
 */
import { ALL_FAULTS, FAULT_ID_RANGE, FAULT_IDS } from '../faults/index.ts';
import { COUNT_MAX, rateSchema } from '../faults/rates.ts';
import { CAPABILITIES } from '../../oracle/not-judged.ts';

const ref = (name: string, description?: string) => ({
  $ref: `#/$defs/${name}`,
  ...(description === undefined ? {} : { description }),
});

const TIMINGS = {
  type: 'object',
  title: 'an object',
  description: "The core's timings, ms.",
  required: ['refreshIntervalMs', 'retryBackoffMsBase', 'retryBackoffMsMax', 'listChangedDelayMs'],
  additionalProperties: false,
  properties: {
    refreshIntervalMs: ref('nonNegativeInteger'),
    retryBackoffMsBase: ref('nonNegativeInteger'),
    retryBackoffMsMax: ref('nonNegativeInteger'),
    listChangedDelayMs: ref('nonNegativeInteger'),
  },
};

const CALLS = {
  type: 'object',
  title: 'an object',
  description:
    "How the sessions' planners call tools (stale and guessing planners are F10's and F17's rates, in faultRates).",
  required: ['callFraction', 'invalidArgsFraction', 'confirmFraction'],
  additionalProperties: false,
  properties: {
    callFraction: ref('fraction', 'Chance that a planner tick also plans a call.'),
    invalidArgsFraction: ref('fraction', 'Share of the planned calls sent with arguments that fail the input schema.'),
    confirmFraction: ref('fraction', 'Share of the non-READ calls on unversioned sources a human confirms.'),
  },
};

/** `faultRates`: for each fault of the registry, its rates (all optional, each with its default). */
const FAULT_RATES = {
  type: 'object',
  title: 'an object of rates by fault id',
  description:
    "How often each fault acts when a round enables it: every field is optional and defaults to the value in the fault's file (sim/faults/).",
  additionalProperties: false,
  properties: Object.fromEntries(
    ALL_FAULTS.map((fault) => [
      fault.id,
      {
        type: 'object',
        title: `an object of ${fault.id} rates`,
        description: `${fault.id}: ${fault.title}.`,
        additionalProperties: false,
        properties: Object.fromEntries(Object.entries(fault.rates).map(([name, spec]) => [name, rateSchema(spec)])),
      },
    ]),
  ),
};

/** An inclusive `{min, max}` range whose ends are both the definition `bound`; min <= max is checked after the schema. */
function rangeSchema(title: string, bound: string, description?: string): object {
  return {
    type: 'object',
    title,
    ...(description === undefined ? {} : { description }),
    required: ['min', 'max'],
    additionalProperties: false,
    properties: { min: ref(bound), max: ref(bound) },
  };
}

/**
 * What one round can hold (issue 35 item 6: a scenario of 1,000,000 servers passed validation,
 * then grew to 3.5 GB in one round, deaf to SIGTERM). The shipped scenarios use a few of each.
 */
export const ROUND_SIZE_MAX = {
  /** Servers in one round. */
  servers: 64,
  /** Audiences a server serves, and audience classes a scenario lists. */
  audiences: 64,
  /** Tools in one audience's first view (the core's default catalog limit is 10,000 tools). */
  toolsPerView: 10_000,
  /** Tools on one `tools/list` page. */
  pageSize: 10_000,
  /** Events one round may take (each is kept in its trace). */
  eventBudget: 10_000_000,
  /** Tools in all first views of a round: servers.max x audiencesPerServer.max x toolsPerView.max (checked after the schema). */
  tools: 100_000,
} as const;

/** An integer definition from `min` to `max`, titled for messages. */
function bounded(min: number, max: number): object {
  return { type: 'integer', title: `an integer from ${min} to ${max}`, minimum: min, maximum: max };
}

const DEFS = {
  serverCount: bounded(1, ROUND_SIZE_MAX.servers),
  audienceCount: bounded(1, ROUND_SIZE_MAX.audiences),
  viewToolCount: bounded(0, ROUND_SIZE_MAX.toolsPerView),
  pageToolCount: bounded(1, ROUND_SIZE_MAX.pageSize),
  serverRange: rangeSchema(`a range {"min": n, "max": m} from 1 to ${ROUND_SIZE_MAX.servers}`, 'serverCount'),
  audienceRange: rangeSchema(`a range {"min": n, "max": m} from 1 to ${ROUND_SIZE_MAX.audiences}`, 'audienceCount'),
  viewToolRange: rangeSchema(`a range {"min": n, "max": m} from 0 to ${ROUND_SIZE_MAX.toolsPerView}`, 'viewToolCount'),
  pageToolRange: rangeSchema(`a range {"min": n, "max": m} from 1 to ${ROUND_SIZE_MAX.pageSize}`, 'pageToolCount'),
  faultId: { title: `a fault id ${FAULT_ID_RANGE}`, enum: FAULT_IDS },
  fraction: { type: 'number', title: 'a number in [0, 1]', minimum: 0, maximum: 1 },
  nonNegativeInteger: {
    type: 'integer',
    title: 'an integer from 0 to 2147483647',
    description:
      'Counts and times (ms) are bounded by 2^31 - 1 so that every value stays an exact integer in the simulator.',
    minimum: 0,
    maximum: 2147483647,
  },
  positiveInteger: { type: 'integer', title: 'an integer from 1 to 2147483647', minimum: 1, maximum: 2147483647 },
  range: rangeSchema(
    'a range {"min": n, "max": m}',
    'nonNegativeInteger',
    'An inclusive integer range; min <= max is checked after the schema.',
  ),
  countRange: rangeSchema(`a range {"min": n, "max": m} of counts from 0 to ${COUNT_MAX}`, 'count'),
  positiveCountRange: rangeSchema(`a range {"min": n, "max": m} of counts from 1 to ${COUNT_MAX}`, 'positiveCount'),
  count: { type: 'integer', title: `an integer from 0 to ${COUNT_MAX}`, minimum: 0, maximum: COUNT_MAX },
  positiveCount: { type: 'integer', title: `an integer from 1 to ${COUNT_MAX}`, minimum: 1, maximum: COUNT_MAX },
  positiveRange: rangeSchema(
    'a range {"min": n, "max": m}',
    'positiveInteger',
    'An inclusive integer range whose min is at least 1; min <= max is checked after the schema.',
  ),
};

/** The scenario schema; `scenarios/scenario.schema.json` is this object as JSON. */
export const SCENARIO_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  description:
    'A scenario file (scenarios/NAME.json): the bounds the oracle judges with, the core\'s timings and the ranges the plan generator draws from. Times are virtual ms. Every `title` is the short phrase error messages use (`"pageSize.min" must be a positive integer`). Rules JSON Schema cannot state are checked after it by sim/plan/scenario.ts: in every range, min <= max. Generated from sim/plan/scenario-schema.ts by `npm run schema`: do not edit by hand.',
  type: 'object',
  required: [
    'name',
    'description',
    'faults',
    'faultEnableFraction',
    'servers',
    'audiencesPerServer',
    'audiences',
    'toolsPerView',
    'pageSize',
    'latencyMs',
    'nominalLatencyMs',
    'tHealMs',
    'timings',
    'scanTimeoutMs',
    'pageCountMax',
    'byteCountMax',
    'generationTtlMs',
    'eventBudget',
    'plannerIntervalMs',
    'policyPollMs',
    'revocationBoundMs',
    'pushLatencyMs',
    'calls',
  ],
  additionalProperties: false,
  properties: {
    name: { type: 'string', title: 'a string', description: "The scenario's name, used in reports and replay lines." },
    description: { type: 'string', title: 'a string' },
    faults: {
      type: 'array',
      title: `an array of fault ids ${FAULT_ID_RANGE}`,
      description: 'Fault kinds this scenario may enable, each at most once (the fault menu: sim/faults/index.ts).',
      items: ref('faultId'),
      uniqueItems: true,
    },
    faultEnableFraction: ref(
      'fraction',
      'Swarm testing: each listed fault is enabled in a round with this probability.',
    ),
    servers: ref(
      'serverRange',
      `Simulated servers per round, at least one (a round without a server tests nothing and would pass), at most ${ROUND_SIZE_MAX.servers}.`,
    ),
    audiencesPerServer: ref(
      'audienceRange',
      'Audiences each server serves, at least one (the plan generator builds each server around its first audience); more than the number of `audiences` means all of them.',
    ),
    audiences: {
      type: 'array',
      title: `a non-empty array of at most ${ROUND_SIZE_MAX.audiences} "tenant.role"`,
      description: 'The audience classes rounds draw from.',
      minItems: 1,
      maxItems: ROUND_SIZE_MAX.audiences,
      uniqueItems: true,
      items: {
        type: 'string',
        title: 'an audience "tenant.role" (two non-empty parts, no other "." and no "|")',
        pattern: '^[^.|]+\\.[^.|]+$',
      },
    },
    toolsPerView: ref(
      'viewToolRange',
      `Tools in each audience's first view; servers.max x audiencesPerServer.max x toolsPerView.max is at most ${ROUND_SIZE_MAX.tools} (what a round can hold).`,
    ),
    pageSize: ref('pageToolRange', 'Tools per `tools/list` page.'),
    latencyMs: ref('range', 'Message latency before T_heal, ms.'),
    nominalLatencyMs: ref('range', 'Message latency after T_heal, ms.'),
    tHealMs: {
      type: 'integer',
      title: 'an integer from 204 to 2147483647',
      description:
        'T_heal: fault episodes act before it, ms. At least 204: F8 places up to three policy changes at distinct whole ms in [1, tHealMs - 202], and with less room the plan generator would never finish.',
      minimum: 204,
      maximum: 2147483647,
    },
    timings: TIMINGS,
    scanTimeoutMs: ref('positiveInteger'),
    pageCountMax: ref('positiveInteger'),
    byteCountMax: ref('positiveInteger'),
    generationTtlMs: ref('positiveInteger'),
    eventBudget: {
      ...bounded(1, ROUND_SIZE_MAX.eventBudget),
      description: 'Events a round may take before it is UNDECIDED.',
    },
    plannerIntervalMs: ref('positiveRange', "Interval between a session planner's reads of its catalog, ms."),
    equivocation: {
      type: 'boolean',
      title: 'a boolean',
      description: 'Dedicated scenario: servers report the same revision for different content.',
    },
    eraMix: {
      type: 'array',
      title: 'an array of era mixes',
      description:
        'The era mixes a round draws from, uniformly: legacy (every server speaks MCP 2025-11-25), modern (every server speaks 2026-07-28), mixed (some of each), gateway (every server is a stateless 2026-07-28 server behind a gateway that speaks 2025-11-25 to the host). Absent: every server is legacy.',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['legacy', 'modern', 'mixed', 'gateway'], title: 'one of legacy, modern, mixed, gateway' },
    },
    probeGateRounds: ref(
      'positiveInteger',
      'A reference-core campaign of at least this many rounds fails when it misses a required probe.',
    ),
    requiredProbes: {
      type: 'array',
      title: 'an array of probe names',
      description: 'Probe names the gate requires; absent means every probe.',
      uniqueItems: true,
      items: { type: 'string', title: 'a probe name' },
    },
    notJudged: {
      type: 'array',
      title: 'an array of capability names',
      description: `Capabilities a core may leave out that this scenario accepts as not judged (shown as skipped, never passed): ${CAPABILITIES.join(', ')}. Absent: a core that leaves one out is NOT JUDGED (exit 1).`,
      uniqueItems: true,
      items: { enum: [...CAPABILITIES], title: `one of ${CAPABILITIES.join(', ')}` },
    },
    policyPollMs: ref('positiveInteger', 'The core polls the policy service this often, ms.'),
    revocationBoundMs: ref('positiveInteger', 'B of I7 (revocation propagation bound), ms.'),
    toolCountMax: ref('positiveInteger', 'Most tools in one catalog (SPEC section 5, judged by I27); absent: 10,000.'),
    catalogBytesMax: ref(
      'positiveInteger',
      'Most bytes of descriptors (compact UTF-8 JSON, summed) in one catalog (SPEC section 5, judged by I27); absent: 8,388,608.',
    ),
    pushLatencyMs: ref('range', 'Policy push latency, ms.'),
    calls: CALLS,
    fullTailFraction: ref(
      'fraction',
      "Share of the rounds that run the whole quiet tail to T_end; each other round ends as soon as its work is done (every owed key converged from ground truth, every probe decided, nothing in flight, no fault left to act; DESIGN.md section 10, 'The early end'). Drawn per round on its own stream (round/TAIL). Absent: every round runs the whole tail.",
    ),
    faultRates: FAULT_RATES,
  },
  $defs: DEFS,
};

/** The text of `scenarios/scenario.schema.json`: the schema as indented JSON, newline-terminated. */
export function scenarioSchemaText(): string {
  return `${JSON.stringify(SCENARIO_SCHEMA, null, 2)}\n`;
}
