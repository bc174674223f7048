/**
 * Plan files (`catsim.plan.v1`, what `catsim shrink` writes and `catsim replay --plan FILE` runs):
 * the JSON Schema (draft 2020-12) of a RoundPlan (types.ts), and the rules it cannot state.
 *
 * A plan is executed as it stands, so its shape is checked before the round runs: a field of the
 * wrong type would otherwise fail deep inside the simulator, as a testbed failure. Descriptors
 * (`views`, `planted[].descriptor`) only have to be objects: adversarial ones are the point.
 * Every `title` below is the phrase error messages use after "must be" (schema-problem.ts).
 * The base of each part of a plan is written here; the fields the faults add to it come from the
 * registry's slices (sim/faults/slices.ts), each with the schema its fault file states.
 */
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FAULT_ID_RANGE, FAULT_IDS } from '../faults/index.ts';
import { sliceFields } from '../faults/slices.ts';
import type { PlanPart } from '../faults/fault.ts';
import { schemaProblem } from './schema-problem.ts';
import { descriptor, fractionSchema, ms, object, pair, positive, string, strings } from './schema-parts.ts';
import type { RoundPlan } from './types.ts';

/**
 * The closed object `base` with the registry's fault fields of `part` besides: those with a
 * healthy value required, the others optional (plan files written before them stay valid).
 */
function withSlices(base: Record<string, unknown>, part: PlanPart): Record<string, unknown> {
  const fields = sliceFields(part);
  return {
    ...base,
    required: [
      ...(base.required as string[]),
      ...fields.filter(([, field]) => 'healthy' in field).map(([name]) => name),
    ],
    properties: {
      ...(base.properties as Record<string, unknown>),
      ...Object.fromEntries(fields.map(([name, field]) => [name, field.schema])),
    },
  };
}

const SERVER = withSlices(
  object(
    {
      id: { type: 'string', title: 'a non-empty string', minLength: 1 },
      identity: string,
      audiences: {
        type: 'array',
        title: 'an array of audiences',
        uniqueItems: true,
        items: { $ref: '#/$defs/audience' },
      },
      history: {
        type: 'array',
        title: 'an array of revision steps',
        minItems: 1,
        items: object(
          {
            atMs: ms,
            revision: {
              type: 'integer',
              title: 'an integer from -2147483647 to 2147483647',
              minimum: -2147483647,
              maximum: 2147483647,
            },
            views: {
              type: 'object',
              title: 'an object of views by audience',
              propertyNames: { $ref: '#/$defs/audience' },
              additionalProperties: {
                type: 'array',
                title: 'an array of tool descriptors',
                items: descriptor,
              },
            },
            cause: string,
          },
          'a revision step {atMs, revision, views, cause}',
        ),
      },
      pageSizeMin: positive,
      pageSizeMax: positive,
      latencyMsMin: ms,
      latencyMsMax: ms,
      planted: {
        type: 'array',
        title: 'an array of planted defects',
        items: object({
          defect: {
            title: 'a defect label',
            enum: [
              'UNKNOWN_DIALECT',
              'UNRESOLVED_REF',
              'REMOTE_REF',
              'OVERSIZED_DESCRIPTOR',
              'NON_OBJECT_ROOT',
              'BAD_NAME',
              'DUPLICATE_NAME',
            ],
          },
          descriptor,
        }),
      },
    },
    'a server plan (an object)',
  ),
  'server',
);

/** `base` with one more property that is not required (a field older plan files lack). */
function withOptional(base: Record<string, unknown>, name: string, schema: unknown): Record<string, unknown> {
  return { ...base, properties: { ...(base.properties as Record<string, unknown>), [name]: schema } };
}

/** The JSON Schema (draft 2020-12) of a `catsim.plan.v1` file. */
export const PLAN_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  ...withOptional(
    withSlices(
      object(
        {
          schema: { title: '"catsim.plan.v1"', const: 'catsim.plan.v1' },
          seed: string,
          round: ms,
          roundSeed: string,
          scenario: string,
          faults: {
            type: 'array',
            title: `an array of fault ids ${FAULT_ID_RANGE}`,
            uniqueItems: true,
            items: { title: `a fault id ${FAULT_ID_RANGE}`, enum: FAULT_IDS },
          },
          bounds: object({
            pageCountMax: positive,
            byteCountMax: positive,
            scanTimeoutMs: positive,
            latencyMsMax: ms,
            tHealMs: ms,
            tEndMs: ms,
            generationTtlMs: positive,
            retryBackoffMsMax: ms,
            revocationBoundMs: positive,
            toolCountMax: positive,
            catalogBytesMax: positive,
          }),
          timings: object({
            refreshIntervalMs: ms,
            retryBackoffMsBase: ms,
            retryBackoffMsMax: ms,
            listChangedDelayMs: ms,
          }),
          nominalLatencyMs: pair(ms, 'a pair [min, max] of non-negative integers'),
          eventBudget: positive,
          plannerIntervalMs: pair(positive, 'a pair [min, max] of positive integers'),
          leaseKey: { type: 'string', title: '64 lowercase hex digits', pattern: '^[0-9a-f]{64}$' },
          policy: withSlices(
            object({
              effectClasses: {
                type: 'object',
                title: 'an object of effect classes by tool name',
                additionalProperties: {
                  title: 'one of "READ", "RESERVATION", "WRITE", "DESTRUCTIVE"',
                  enum: ['READ', 'RESERVATION', 'WRITE', 'DESTRUCTIVE'],
                },
              },
              grants: {
                type: 'object',
                title: 'an object of tool names by audience',
                propertyNames: { $ref: '#/$defs/audience' },
                additionalProperties: strings,
              },
              pushLatencyMs: pair(ms, 'a pair [min, max] of non-negative integers'),
              pollIntervalMs: positive,
            }),
            'policy',
          ),
          calls: withSlices(
            object({
              callFraction: fractionSchema,
              invalidArgsFraction: fractionSchema,
              confirmFraction: fractionSchema,
              probeAtMs: ms,
            }),
            'calls',
          ),
          sampleArgs: {
            type: 'object',
            title: 'an object of arguments by tool name',
            additionalProperties: { type: 'object', title: 'an object of arguments' },
          },
          servers: { type: 'array', title: 'an array of server plans', items: SERVER },
        },
        'a catsim.plan.v1 plan (an object)',
      ),
      'round',
    ),
    'earlyEnd',
    { type: 'boolean', title: 'true or false' },
  ),
  $defs: {
    // Counts and times (ms) stop at 2^31 - 1: every value stays an exact integer in the simulator.
    nonNegativeInteger: { type: 'integer', title: 'an integer from 0 to 2147483647', minimum: 0, maximum: 2147483647 },
    positiveInteger: { type: 'integer', title: 'an integer from 1 to 2147483647', minimum: 1, maximum: 2147483647 },
    fraction: { type: 'number', title: 'a number in [0, 1]', minimum: 0, maximum: 1 },
    audience: {
      type: 'string',
      title: 'an audience "tenant.role" (two non-empty parts, no other "." and no "|")',
      pattern: '^[^.|]+\\.[^.|]+$',
    },
    descriptor: { type: 'object', title: 'a tool descriptor (an object)' },
  },
} as const;

let compiled: ValidateFunction | undefined;

/**
 * The first problem of a parsed plan file in plain words (`"servers[0].history" must be an array
 * of revision steps, got "x"`), or undefined when it is a plan the round runner can run: first
 * PLAN_SCHEMA, then what it cannot state (every `[min, max]` pair and min/max field pair in
 * order, server ids unique).
 */
export function planProblem(data: unknown): string | undefined {
  compiled ??= new Ajv2020({ strict: true, verbose: true, allErrors: false }).compile(PLAN_SCHEMA);
  if (!compiled(data)) return schemaProblem(compiled.errors?.[0]);
  return pairProblem(data as RoundPlan) ?? serverProblem((data as RoundPlan).servers);
}

function pairProblem(plan: RoundPlan): string | undefined {
  const pairs: [string, readonly [number, number]][] = [
    ['nominalLatencyMs', plan.nominalLatencyMs],
    ['plannerIntervalMs', plan.plannerIntervalMs],
    ['policy.pushLatencyMs', plan.policy.pushLatencyMs],
    ...slicePairs(plan),
  ];
  for (const [path, [min, max]] of pairs)
    if (min > max) return `"${path}" must be [min, max] with min <= max, got [${min}, ${max}]`;
  return undefined;
}

/** The `[min, max]` pairs among the faults' round, policy and calls fields that `plan` holds (F10's `calls.staleDelayMs`). */
function slicePairs(plan: RoundPlan): [string, readonly [number, number]][] {
  const parts: [PlanPart, string, object][] = [
    ['round', '', plan],
    ['policy', 'policy.', plan.policy],
    ['calls', 'calls.', plan.calls],
  ];
  return parts.flatMap(([part, prefix, fields]) =>
    sliceFields(part)
      .filter(([name, field]) => 'prefixItems' in field.schema && name in fields)
      .map(([name]): [string, readonly [number, number]] => [
        `${prefix}${name}`,
        (fields as Record<string, [number, number]>)[name] as [number, number],
      ]),
  );
}

function serverProblem(servers: RoundPlan['servers']): string | undefined {
  const ids = new Map<string, number>();
  for (const [i, server] of servers.entries()) {
    const where = `servers[${i}]`;
    if (ids.has(server.id))
      return `"${where}.id" repeats "servers[${ids.get(server.id)}].id": ${JSON.stringify(server.id)}`;
    ids.set(server.id, i);
    if (server.pageSizeMin > server.pageSizeMax)
      return `"${where}.pageSizeMin" must be at most "${where}.pageSizeMax", got ${server.pageSizeMin} > ${server.pageSizeMax}`;
    if (server.latencyMsMin > server.latencyMsMax)
      return `"${where}.latencyMsMin" must be at most "${where}.latencyMsMax", got ${server.latencyMsMin} > ${server.latencyMsMax}`;
  }
  return undefined;
}
