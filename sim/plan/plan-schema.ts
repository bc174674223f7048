/**
 * Plan files (`catsim.plan.v1`, what `catsim shrink` writes and `catsim replay --plan FILE` runs):
 * the JSON Schema (draft 2020-12) of a RoundPlan (types.ts), and the rules it cannot state.
 *
 * A plan is executed as it stands, so its shape is checked before the round runs: a field of the
 * wrong type would otherwise fail deep inside the simulator, as a testbed failure. Descriptors
 * (`views`, `planted[].descriptor`) only have to be objects: adversarial ones are the point.
 * Every `title` below is the phrase error messages use after "must be" (schema-problem.ts).
 */
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FAULT_ID_RANGE, FAULT_IDS } from '../faults/index.ts';
import { SURFACE_HOOKS, SURFACE_LATE_STEPS } from '../../contract/trace/codes.ts';
import { schemaProblem } from './schema-problem.ts';
import type { RoundPlan } from './types.ts';

const ms = { $ref: '#/$defs/nonNegativeInteger' };
const positive = { $ref: '#/$defs/positiveInteger' };
const fraction = { $ref: '#/$defs/fraction' };
const boolean = { type: 'boolean', title: 'a boolean' };
const string = { type: 'string', title: 'a string' };
const strings = { type: 'array', title: 'an array of strings', items: string };

/** `schema` with properties `names` optional (a field added later: plan files without it stay valid). */
function optionalLast(schema: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  return { ...schema, required: (schema.required as string[]).filter((field) => !names.includes(field)) };
}

/** A closed object: every listed property required, no other allowed. */
function object(properties: Record<string, unknown>, title = 'an object'): Record<string, unknown> {
  return { type: 'object', title, required: Object.keys(properties), additionalProperties: false, properties };
}

/** A closed object with these properties besides, each optional (plan files written before them stay valid). */
function withOptional(closed: Record<string, unknown>, optional: Record<string, unknown>): Record<string, unknown> {
  return { ...closed, properties: { ...(closed.properties as Record<string, unknown>), ...optional } };
}

/** An inclusive `[min, max]` pair; min <= max is checked after the schema. */
function pair(item: unknown, title: string): Record<string, unknown> {
  return { type: 'array', title, prefixItems: [item, item], minItems: 2, items: false };
}

/** F22: one model turn (types.ts `TurnPlan`). */
const TURN = object(
  {
    atMs: ms,
    audience: { $ref: '#/$defs/audience' },
    hooks: {
      type: 'array',
      title: 'an array of hook kinds',
      items: { title: `one of ${SURFACE_HOOKS.map((kind) => `"${kind}"`).join(', ')}`, enum: [...SURFACE_HOOKS] },
    },
    late: {
      title: `null or one of ${SURFACE_LATE_STEPS.map((kind) => `"${kind}"`).join(', ')}`,
      enum: [null, ...SURFACE_LATE_STEPS],
    },
    lateMs: ms,
    capacity: {
      title: 'null or a capacity {limit, fit}',
      oneOf: [
        { type: 'null' },
        object({
          limit: { title: '"toolCountMax" or "surfaceBytesMax"', enum: ['toolCountMax', 'surfaceBytesMax'] },
          fit: { title: '"short" or "fits"', enum: ['short', 'fits'] },
        }),
      ],
    },
    pick: { type: 'number', title: 'a number in [0, 1)', minimum: 0, exclusiveMaximum: 1 },
  },
  'a model turn (an object)',
);

const SERVER = withOptional(
  object(
    {
      id: { type: 'string', title: 'a non-empty string', minLength: 1 },
      identity: string,
      versioned: boolean,
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
                items: { $ref: '#/$defs/descriptor' },
              },
            },
            cause: string,
          },
          'a revision step {atMs, revision, views, cause}',
        ),
      },
      pageSizeMin: positive,
      pageSizeMax: positive,
      cursorTrait: {
        title: 'null or one of "repeat", "cycle", "always-empty", "never-ending", "ignored", "empty-page-with-next"',
        enum: [null, 'repeat', 'cycle', 'always-empty', 'never-ending', 'ignored', 'empty-page-with-next'],
      },
      restartsAtMs: { type: 'array', title: 'an array of times (ms)', items: ms },
      notifications: object({
        declared: boolean,
        sendOnChange: boolean,
        afterPage2: boolean,
        lateByMs: ms,
        copies: positive,
      }),
      latencyMsMin: ms,
      latencyMsMax: ms,
      rotations: { type: 'array', title: 'an array of rotations', items: object({ atMs: ms, identity: string }) },
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
          descriptor: { $ref: '#/$defs/descriptor' },
        }),
      },
      linkFaults: object({
        reorder: boolean,
        notificationLossFraction: fraction,
        disconnectsAtMs: {
          type: 'object',
          title: 'an object of times (ms) by audience',
          propertyNames: { $ref: '#/$defs/audience' },
          additionalProperties: { type: 'array', title: 'an array of times (ms)', items: ms },
        },
      }),
      equivocates: boolean,
      overLimitCatalog: { title: 'null, "tools" or "bytes"', enum: [null, 'tools', 'bytes'] },
    },
    'a server plan (an object)',
  ),
  {
    notificationBursts: {
      type: 'array',
      title: 'an array of notification bursts',
      items: object({ atMs: ms, everyMs: positive, count: positive }),
    },
    authGated: {
      type: 'array',
      title: 'an array of authorization gates',
      items: object({ audience: { $ref: '#/$defs/audience' }, fromMs: ms, toMs: ms }),
    },
    turns: { type: 'array', title: 'an array of model turns', items: TURN },
  },
);

/** The JSON Schema (draft 2020-12) of a `catsim.plan.v1` file. */
export const PLAN_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  ...optionalLast(
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
        refreshersPerKey: positive,
        plannerIntervalMs: pair(positive, 'a pair [min, max] of positive integers'),
        leaseKey: { type: 'string', title: '64 lowercase hex digits', pattern: '^[0-9a-f]{64}$' },
        policy: withOptional(
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
            changes: {
              type: 'array',
              title: 'an array of policy changes',
              items: object({ atMs: ms, audience: { $ref: '#/$defs/audience' }, revoke: strings, grant: strings }),
            },
            pushLatencyMs: pair(ms, 'a pair [min, max] of non-negative integers'),
            pushLossFraction: fraction,
            pollIntervalMs: positive,
          }),
          { midCallRevocations: ms },
        ),
        calls: object({
          callFraction: fraction,
          staleFraction: fraction,
          staleDelayMs: pair(ms, 'a pair [min, max] of non-negative integers'),
          guessFraction: fraction,
          invalidArgsFraction: fraction,
          confirmFraction: fraction,
          probeAtMs: ms,
        }),
        sampleArgs: {
          type: 'object',
          title: 'an object of arguments by tool name',
          additionalProperties: { type: 'object', title: 'an object of arguments' },
        },
        servers: { type: 'array', title: 'an array of server plans', items: SERVER },
        hostRestarts: {
          type: 'array',
          title: 'an array of host restarts',
          items: object({
            atMs: ms,
            point: {
              title: 'one of "at_time", "in_publish", "after_commit", "after_lease"',
              enum: ['at_time', 'in_publish', 'after_commit', 'after_lease'],
            },
            downMs: positive,
          }),
        },
        rollbackTriggers: {
          type: 'array',
          title: 'an array of rollback triggers',
          items: object({
            atMs: ms,
            server: string,
            audience: { $ref: '#/$defs/audience' },
            kind: {
              title: 'one of "missing_tool_rate", "privilege_escalation"',
              enum: ['missing_tool_rate', 'privilege_escalation'],
            },
          }),
        },
      },
      'a catsim.plan.v1 plan (an object)',
    ),
    'hostRestarts',
    'rollbackTriggers',
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
    ['calls.staleDelayMs', plan.calls.staleDelayMs],
  ];
  for (const [path, [min, max]] of pairs)
    if (min > max) return `"${path}" must be [min, max] with min <= max, got [${min}, ${max}]`;
  return undefined;
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
