/**
 * F33: a result that breaks its output schema. One tool of a server declares an `outputSchema`
 * (F33's own, `OUTPUT_SCHEMA`: an object with a required string `status` and a required integer
 * `count`, `additionalProperties: false`) and the server answers each executed call of it with
 * `structuredContent`; the calls the plan names get content that violates the schema: a missing
 * required property (`count` left out), a wrong type (`count` as a string) or an extra property
 * where `additionalProperties` is false (`note`). The server writes what it sent in `result_sent`
 * (with the schema as it lists it), so the oracle validates the content itself; a core must not
 * pass a violating result on as a valid one (I36, oracle/invariants/output-schema.ts, judged from
 * `result_sent` and the core's `receipt_outcome.output`).
 *
 * Models issue 30 item 5 ("a result that breaks its output schema") and item 3 ("every receipt
 * records the exact version ... that ran"), and MCP 2025-11-25 `server/tools.mdx`: "If an output
 * schema is provided: Servers MUST provide structured results that conform to this schema. Clients
 * SHOULD validate structured results against this schema." Seed 004 lists an output schema with
 * its own hash in every version's manifest: the result of a call is judged by the version that ran.
 *
 * How often: on a share of the servers of a round that enables F33 (serverFraction 0.75), one
 * tool, drawn among the pool tools its first revision lists that declare no output schema, gets
 * the schema wherever the history lists it (planted descriptors are left as planted); of its first
 * `RESULT_CALLS_PLANNED` (8) executed calls on the server (in execution order, every audience),
 * each breaks the schema with probability `violationFraction` (0.5), in a kind drawn uniformly
 * from `kinds`. The plan names the calls by their ordinal, so a hand-built plan runs the same.
 */
import type { Rng } from '../random.ts';
import type { RoundPlan, ServerPlan, ToolDescriptor } from '../plan/types.ts';
import { pickAt } from '../plan/draws.ts';
import type { ExecutedCall, ResultRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { arrayOf, ms, object, string } from '../plan/schema-parts.ts';
import { choices, fraction } from './rates.ts';

/** The ways F33 breaks a result: a required property left out, a wrong type, an extra property. */
export const VIOLATION_KINDS = ['missing-required', 'wrong-type', 'extra-property'] as const;

/** One way of breaking the schema ({@link VIOLATION_KINDS}). */
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** How many of a tool's first executed calls the generator plans (ordinals 0 .. 7). */
export const RESULT_CALLS_PLANNED = 8;

/** The output schema F33 gives its tool (JSON Schema 2020-12, the MCP default dialect). */
export const OUTPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: { status: { type: 'string' }, count: { type: 'integer' } },
  required: ['status', 'count'],
  additionalProperties: false,
});

/** One planned violation: the `call`-th executed call (0-based) of the tool gets a result broken as `kind` says. */
export interface ResultViolation {
  call: number;
  kind: ViolationKind;
}

/** F33 on one server: the tool that answers with structured content, and which of its calls break the schema. */
export interface StructuredResultsPlan {
  /** The tool's name (`""`: the server lists no tool F33 may take, and nothing happens). */
  tool: string;
  /** In ascending `call` order; empty: every result conforms. */
  violations: ResultViolation[];
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /**
     * F33: the tool of this server that declares {@link OUTPUT_SCHEMA} and answers every executed
     * call with `structuredContent`, and the calls whose content breaks it; absent: none.
     */
    structuredResults?: StructuredResultsPlan;
  }
}

/** How often F33 acts (scenario `faultRates.F33`), with its defaults. */
export const RATES = {
  serverFraction: fraction(
    0.75,
    'Share of the servers of a round that enables F33 where one tool declares an output schema and answers with structured content.',
  ),
  violationFraction: fraction(
    0.5,
    `Chance that each of the tool's first ${RESULT_CALLS_PLANNED} executed calls gets a result that breaks its output schema.`,
  ),
  kinds: choices(VIOLATION_KINDS, 'The ways a result breaks the schema, drawn uniformly, one per violating call.'),
};

/**
 * The `structuredContent` of the `call`-th executed call: `{status: "done", count: call}`, or that
 * broken as `kind` says.
 */
export function resultContent(call: number, kind: ViolationKind | null): Record<string, unknown> {
  if (kind === 'missing-required') return { status: 'done' };
  if (kind === 'wrong-type') return { status: 'done', count: String(call) };
  if (kind === 'extra-property') return { status: 'done', count: call, note: 'unexpected' };
  return { status: 'done', count: call };
}

/** Whether a descriptor declares F33's output schema (the one a result rule answers for). */
function declaresSchema(descriptor: ToolDescriptor): boolean {
  return JSON.stringify(descriptor.outputSchema) === JSON.stringify(OUTPUT_SCHEMA);
}

/**
 * The result rule of one server: counts the executed calls of the tool that declare the schema
 * and answers each with its content. State: the count, for the round (a server restart keeps it).
 */
function resultRule(plan: StructuredResultsPlan): ResultRule {
  const kinds = new Map(plan.violations.map((violation) => [violation.call, violation.kind]));
  let executed = 0;
  return {
    onResult(call: ExecutedCall) {
      if (call.tool !== plan.tool || !declaresSchema(call.descriptor)) return null;
      const ordinal = executed;
      executed += 1;
      return resultContent(ordinal, kinds.get(ordinal) ?? null);
    },
  };
}

/** The names F33 may take: pool tools of the first revision that declare no output schema, sorted. */
function candidateNames(server: ServerPlan, pool: readonly { descriptor: ToolDescriptor }[]): string[] {
  const free = new Set(
    pool.filter(({ descriptor }) => descriptor.outputSchema === undefined).map(({ descriptor }) => descriptor.name),
  );
  const first = server.history[0];
  if (first === undefined) return [];
  const names = Object.values(first.views).flatMap((tools) => tools.map((tool) => tool.name));
  return [...new Set(names.filter((name): name is string => typeof name === 'string' && free.has(name)))].sort();
}

/** Gives every descriptor named `tool` in the history the schema, but planted ones (their labels name them as planted). */
function declareEverywhere(server: ServerPlan, tool: string): void {
  const planted = new Set(server.planted.map((entry) => JSON.stringify(entry.descriptor)));
  for (const step of server.history)
    for (const [audience, tools] of Object.entries(step.views))
      step.views[audience] = tools.map((descriptor) =>
        descriptor.name === tool && descriptor.outputSchema === undefined && !planted.has(JSON.stringify(descriptor))
          ? { ...descriptor, outputSchema: structuredClone(OUTPUT_SCHEMA) }
          : descriptor,
      );
}

/** The violations of the first {@link RESULT_CALLS_PLANNED} calls, drawn from F33's own stream. */
function drawViolations(rng: Rng, rates: { violationFraction: number; kinds: readonly ViolationKind[] }) {
  const violations: ResultViolation[] = [];
  for (let call = 0; call < RESULT_CALLS_PLANNED; call += 1) {
    const breaks = rng.chance(rates.violationFraction);
    const kind = rng.pick(rates.kinds);
    if (breaks) violations.push({ call, kind });
  }
  return violations;
}

/** F33: a result that breaks its output schema. */
export const F33: FaultDefinition<'F33', typeof RATES> = {
  id: 'F33',
  rates: RATES,
  plan: {
    server: {
      structuredResults: {
        schema: object({
          tool: string,
          violations: arrayOf(
            object({ call: ms, kind: { enum: [...VIOLATION_KINDS] } }),
            'an array of planned violations',
          ),
        }),
      },
    },
  },
  title: 'a result breaks its output schema (a missing required property, a wrong type, an extra property)',
  lifetime: 'episode',
  probes: ['output-violation-refused'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => (server.structuredResults?.tool ?? '') !== '' && hasViolation(server)),
  generate: {
    // After the history is built, so the schema reaches every revision that lists the tool. The
    // draws of the violations come first, from F33's stream alone; the tool is picked after them.
    history(draft, rng, rates) {
      const violations = drawViolations(rng, rates);
      const tool = pickAt(rng.next(), candidateNames(draft.server, draft.pool)) ?? '';
      draft.server.structuredResults = { tool, violations };
      if (tool !== '') declareEverywhere(draft.server, tool);
    },
  },
  serverRules: (server) =>
    server.structuredResults === undefined || server.structuredResults.tool === ''
      ? []
      : [resultRule(server.structuredResults)],
  // Which tool is picked among other faults' data: left out.
  fragment: (plan) => perServer(plan, (server) => server.structuredResults?.violations ?? null),
  size: (plan) => plan.servers.reduce((sum, server) => sum + (server.structuredResults?.violations.length ?? 0), 0),
  serverReductions: (server) => {
    const results = server.structuredResults;
    if (results === undefined || results.violations.length === 0) return [];
    return [
      { name: 'no violating result', server: { ...server, structuredResults: { ...results, violations: [] } } },
      ...results.violations.map((violation) => ({
        name: `no violating result at call ${violation.call} (${violation.kind})`,
        server: {
          ...server,
          structuredResults: { ...results, violations: results.violations.filter((other) => other !== violation) },
        },
      })),
    ];
  },
};

/** Whether a server's F33 plan breaks some result. */
function hasViolation(server: ServerPlan): boolean {
  return (server.structuredResults?.violations.length ?? 0) > 0;
}
