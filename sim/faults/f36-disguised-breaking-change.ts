/**
 * F36: a breaking change disguised as compatible. Mid-round a server lists one of its tools with
 * a truly breaking contract (a new required input, a tightened enum or type, a removed property,
 * or `additionalProperties` closed on its input) while everything a naive host reads as a version
 * claim says "compatible": the same name, the same description, and the semver string the server
 * puts in the tool's `_meta` (`dev.catsim/toolVersion`) bumped as a patch or minor release. MCP
 * has no tool version on the wire (tool versioning, SEP-1575, is still open), so a server that
 * versions its tools today writes such a string under its own `_meta` prefix and sets the bump by
 * its own judgement, which is what is wrong here. As a control, another tool of the same server
 * gets a truly compatible change (a new optional output field, or an output schema where it
 * declared none) under the same claim, so a core that refuses every change is told apart from one
 * that judges by the contract. The plan records each change's true class by SPEC section 9's
 * rules (`contractChanges`, never derived from the claim); the world writes it in
 * `contract_changed` when the server starts listing the new contract, and I39
 * (oracle/invariants/disguised-changes.ts) judges from it that no call of a run that pinned the
 * old contract executes against a breaking new one once the core's active generation lists it,
 * whatever the claim said.
 *
 * Models seed 004 ("diff 分类按规则而不是按 semver"; "Run 固定精确版本 ... 不看到定义漂移") and
 * issue 30 items 3 and 5 ("a call whose pinned version is ... incompatible is refused with its own
 * code"; "the world plants a breaking change disguised as compatible").
 *
 * How often: on a share of the servers of a round that enables F36 (serverFraction 0.75), two
 * tools from the pool whose names the server lists nowhere are placed in one audience's first view
 * (so no other fault edits them), each with a version claim; the breaking change of the first and
 * the compatible change of the second come at two distinct seeded times in the middle half of
 * [1, T_heal). The planners call F36's tools on contractCallFraction 0.5 of their calls when a
 * disclosure shows one, and send lateFraction 0.5 of those late by lateDelayMs [400, 1200], so
 * that runs bound before a change still call after the core has published it.
 */
import type { Rng } from '../random.ts';
import type { CallsPlan, RoundPlan, ServerPlan, ToolDescriptor } from '../plan/types.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import type { FaultDefinition } from './fault.ts';
import { fraction, msRange } from './rates.ts';
import { arrayOf, fractionSchema, ms, object, pair, string, strings } from '../plan/schema-parts.ts';
import { CHOICE_ORDER, type LatenessRule, type ToolChoiceRule } from '../planner-rules.ts';

/** The `_meta` key under which F36's servers claim a tool's version (a semver string). */
export const TOOL_VERSION_KEY = 'dev.catsim/toolVersion';

/** The true class of a planted change by SPEC section 9's rules. */
export type ContractChangeClass = 'compatible' | 'breaking';

/** One planted contract change (F36): the plan's ground truth, written in `contract_changed`. */
export interface ContractChangePlan {
  atMs: number;
  tool: string;
  change: ContractChangeClass;
  /** The rule of SPEC section 9 it falls under (`new required input`, ...). */
  rule: string;
  claimFrom: string;
  claimTo: string;
}

/** F36: the planners call F36's tools on a share of their calls and send some of those late. */
export interface ContractCalls {
  tools: string[];
  fraction: number;
  lateFraction: number;
  lateDelayMs: [number, number];
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F36: the contract changes this server plants, in time order, each with its true class (absent or empty: none). */
    contractChanges?: ContractChangePlan[];
  }
  interface CallsPlan {
    /** F36: the changed tools the planners call on a share of their calls, some sent late (absent: none). */
    contractCalls?: ContractCalls;
  }
}

/** How often F36 acts (scenario `faultRates.F36`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F36 that change two contracts.'),
  contractCallFraction: fraction(
    0.5,
    "Share of the planned calls from a disclosure that shows one of F36's tools that call one of them.",
  ),
  lateFraction: fraction(0.5, "Share of the calls of F36's tools sent late on purpose (across a change)."),
  lateDelayMs: msRange(400, 1200, "How late a late call of F36's tools is sent, ms."),
};

/**
 * One breaking rule: its name, whether it applies to an input schema whose calls carry `args`
 * (the pool's sample arguments of the tool, which every planned call sends), and the new schema.
 * Each keeps `args` valid under both contracts, so a correct core's probes of the new contract are
 * admitted and what tells the cores apart is the contract, not the arguments; what the change
 * breaks is what other callers may send.
 */
interface BreakingRule {
  name: string;
  applies(schema: InputSchema, args: Args): boolean;
  apply(schema: InputSchema, args: Args): InputSchema;
}

type Args = Readonly<Record<string, unknown>>;

type InputSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] } & Record<
  string,
  unknown
>;

const propertyNames = (schema: InputSchema): string[] => Object.keys(schema.properties ?? {}).sort();

/** SPEC section 9's breaking rules F36 plants, in draw order. */
export const BREAKING_RULES: readonly BreakingRule[] = [
  {
    name: 'new required input',
    applies: (schema, args) => optionalSent(schema, args) !== undefined,
    apply: (schema, args) => ({
      ...schema,
      required: [...(schema.required ?? []), optionalSent(schema, args) as string],
    }),
  },
  {
    name: 'tightened enum',
    applies: (schema, args) => enumProperty(schema, args) !== undefined,
    apply: (schema, args) => {
      const name = enumProperty(schema, args) as string;
      const property = schema.properties?.[name] as { enum: unknown[] };
      const dropped = property.enum.findLast((value) => value !== args[name]);
      return {
        ...schema,
        properties: {
          ...schema.properties,
          [name]: { ...property, enum: property.enum.filter((value) => value !== dropped) },
        },
      };
    },
  },
  {
    name: 'tightened type',
    applies: (schema, args) => numberProperty(schema, args) !== undefined,
    apply: (schema, args) => {
      const name = numberProperty(schema, args) as string;
      return {
        ...schema,
        properties: { ...schema.properties, [name]: { ...schema.properties?.[name], type: 'integer' } },
      };
    },
  },
  {
    name: 'removed property',
    applies: (schema, args) => unsentOptional(schema, args) !== undefined,
    apply: (schema, args) => {
      const name = unsentOptional(schema, args) as string;
      const { [name]: _, ...properties } = schema.properties ?? {};
      return { ...schema, properties };
    },
  },
  {
    name: 'additionalProperties closed',
    applies: (schema, args) =>
      schema['additionalProperties'] !== false && Object.keys(args).every((name) => name in (schema.properties ?? {})),
    apply: (schema) => ({ ...schema, additionalProperties: false }),
  },
];

/** The first property (by name) the calls send that the schema does not require. */
function optionalSent(schema: InputSchema, args: Args): string | undefined {
  return propertyNames(schema).find((name) => name in args && !(schema.required ?? []).includes(name));
}

/** The first property (by name) the calls do not send and the schema does not require. */
function unsentOptional(schema: InputSchema, args: Args): string | undefined {
  return propertyNames(schema).find((name) => !(name in args) && !(schema.required ?? []).includes(name));
}

/** The first property (by name) with an `enum` of two values or more. */
function enumProperty(schema: InputSchema, _args: Args): string | undefined {
  return propertyNames(schema).find((name) => {
    const values = schema.properties?.[name]?.['enum'];
    return Array.isArray(values) && values.length >= 2;
  });
}

/** The first property (by name) of type `number` whose sent value, if any, is an integer. */
function numberProperty(schema: InputSchema, args: Args): string | undefined {
  return propertyNames(schema).find(
    (name) => schema.properties?.[name]?.['type'] === 'number' && (!(name in args) || Number.isInteger(args[name])),
  );
}

/** The compatible change: a new optional output field, or an output schema where the tool declared none. */
function compatibleOutput(tool: ToolDescriptor): { rule: string; outputSchema: Record<string, unknown> } {
  const field = { auditId: { type: 'string', description: 'The audit record of the run.' } };
  const output = tool['outputSchema'] as { properties?: Record<string, unknown> } | undefined;
  if (output === undefined) return { rule: 'output schema added', outputSchema: { type: 'object', properties: field } };
  return {
    rule: 'new optional output field',
    outputSchema: { ...output, properties: { ...output.properties, ...field } },
  };
}

/** `descriptor` with its version claim set to `claim`. */
export function claimed(descriptor: ToolDescriptor, claim: string): ToolDescriptor {
  const meta = (descriptor['_meta'] ?? {}) as Record<string, unknown>;
  return { ...descriptor, _meta: { ...meta, [TOOL_VERSION_KEY]: claim } };
}

/** The version claim of a descriptor F36 placed, or undefined for any other. */
function claimOf(descriptor: ToolDescriptor): string | undefined {
  const claim = (descriptor['_meta'] as Record<string, unknown> | undefined)?.[TOOL_VERSION_KEY];
  return typeof claim === 'string' ? claim : undefined;
}

/** A compatible-looking bump of `claim` (`major.minor.patch`): the patch or the minor number. */
function bump(rng: Rng, claim: string): string {
  const [major = 1, minor = 0, patch = 0] = claim.split('.').map(Number);
  return rng.chance(0.5) ? `${major}.${minor}.${patch + 1}` : `${major}.${minor + 1}.0`;
}

/** The tools of the pool whose names the server lists in no first view, in pool order. */
function unlisted(server: ServerPlan, pool: readonly PoolTool[]): PoolTool[] {
  const first = server.history[0];
  const listed = new Set(Object.values(first?.views ?? {}).flatMap((view) => view.map((tool) => String(tool.name))));
  return pool.filter((entry) => !listed.has(String(entry.descriptor.name)));
}

/** The breaking rules that apply to a pool tool and its sample arguments, in draw order. */
function rulesFor(entry: PoolTool): BreakingRule[] {
  const schema = (entry.descriptor['inputSchema'] ?? {}) as InputSchema;
  return BREAKING_RULES.filter((rule) => rule.applies(schema, entry.sampleArgs));
}

/**
 * The edit of a contract change: applied only to the descriptor F36 placed (the one carrying a
 * claim): `rule` on its input schema (`args`: the calls' sample arguments), or, for null, the
 * compatible output change; the claim becomes `claimTo`.
 */
export function editOf(
  rule: BreakingRule | null,
  args: Args,
  claimTo: string,
): (descriptor: ToolDescriptor) => ToolDescriptor {
  return (descriptor) => {
    if (claimOf(descriptor) === undefined) return descriptor;
    if (rule === null)
      return { ...claimed(descriptor, claimTo), outputSchema: compatibleOutput(descriptor).outputSchema };
    const inputSchema = rule.apply((descriptor['inputSchema'] ?? {}) as InputSchema, args);
    return { ...claimed(descriptor, claimTo), inputSchema };
  };
}

/**
 * The planners' tool-choice rule: with `contractCalls.fraction`, one of F36's tools the disclosure
 * shows. Draws nothing in a plan without `contractCalls` or when none is shown.
 */
const CONTRACT_TOOLS: ToolChoiceRule = {
  order: CHOICE_ORDER.contract,
  choose(call) {
    const calls = call.calls.contractCalls;
    if (calls === undefined) return undefined;
    const shown = call.shown.filter((tool) => calls.tools.includes(tool.name));
    if (shown.length === 0 || !call.rng.chance(calls.fraction)) return undefined;
    return { tool: call.rng.pick(shown), guessed: false };
  },
};

/** The planners' lateness rule: a call of one of F36's tools sent `lateDelayMs` late with `lateFraction`. */
const LATE_CONTRACT_CALLS: LatenessRule = {
  late(call, tool) {
    const calls = call.calls.contractCalls;
    if (calls === undefined || !calls.tools.includes(tool.name) || !call.rng.chance(calls.lateFraction))
      return undefined;
    return () => call.rng.int(calls.lateDelayMs[0], calls.lateDelayMs[1]);
  },
};

const changeSchema = object({
  atMs: ms,
  tool: string,
  change: { enum: ['compatible', 'breaking'], title: 'compatible or breaking' },
  rule: string,
  claimFrom: string,
  claimTo: string,
});

/** `calls` without F36's calls. */
function withoutContractCalls(calls: CallsPlan): CallsPlan {
  const { contractCalls: _, ...rest } = calls;
  return rest;
}

/** The names of the tools F36 changes on any server of `plan`, sorted. */
function changedTools(plan: RoundPlan): string[] {
  const names = plan.servers.flatMap((server) => (server.contractChanges ?? []).map((change) => change.tool));
  return [...new Set(names)].sort();
}

/** F36: a breaking change disguised as compatible, beside a truly compatible control. */
export const F36: FaultDefinition<'F36', typeof RATES> = {
  id: 'F36',
  rates: RATES,
  plan: {
    server: { contractChanges: { schema: arrayOf(changeSchema, 'an array of contract changes') } },
    calls: {
      contractCalls: {
        schema: object(
          {
            tools: strings,
            fraction: fractionSchema,
            lateFraction: fractionSchema,
            lateDelayMs: pair(ms, 'a pair [min, max] of non-negative integers'),
          },
          "F36's calls",
        ),
      },
    },
  },
  title:
    "a server changes a tool's contract in a breaking way under a compatible-looking version claim (beside a truly compatible change): no run that pinned the old contract executes against the new one",
  lifetime: 'episode',
  probes: ['disguised-break-listed', 'disguised-break-refused'],
  plannerRules: [CONTRACT_TOOLS, LATE_CONTRACT_CALLS],
  // Its revision steps, not `contractChanges`: the shrinker drops the steps (the world writes
  // `contract_changed` only on a step caused by F36) and keeps the list, so a plan shrunk past them
  // holds nothing of F36 and must not claim it.
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F36')),
  generate: {
    // Placing and timing in one hook: the changes name the placed tools, and only F36 edits them.
    plant(draft, rng) {
      // F36's own draws come first, so what other faults put in the views never moves them.
      const claims = [`1.${rng.int(0, 9)}.${rng.int(0, 9)}`, `2.${rng.int(0, 9)}.${rng.int(0, 9)}`] as const;
      const breakingTo = bump(rng, claims[0]);
      const quarter = Math.floor(draft.scenario.tHealMs / 4);
      const times = rng.shuffle([rng.int(quarter, 2 * quarter), rng.int(2 * quarter + 1, 3 * quarter)]);
      const [breakAt = quarter, controlAt = 3 * quarter] = times;
      const candidates = unlisted(draft.server, draft.pool);
      const breakable = candidates.filter((entry) => rulesFor(entry).length > 0);
      if (breakable.length === 0 || candidates.length < 2 || quarter < 2) return;
      const broken = rng.pick(breakable);
      const control = rng.pick(candidates.filter((entry) => entry !== broken));
      const rule = rng.pick(rulesFor(broken));
      draft.place(rng, [
        claimed(structuredClone(broken.descriptor), claims[0]),
        claimed(structuredClone(control.descriptor), claims[1]),
      ]);
      const output = compatibleOutput(control.descriptor);
      const planned: ContractChangePlan[] = [
        {
          atMs: breakAt,
          tool: String(broken.descriptor.name),
          change: 'breaking',
          rule: rule.name,
          claimFrom: claims[0],
          claimTo: breakingTo,
        },
        {
          atMs: controlAt,
          tool: String(control.descriptor.name),
          change: 'compatible',
          rule: output.rule,
          claimFrom: claims[1],
          claimTo: claims[1],
        },
      ];
      draft.server.contractChanges = planned.sort((a, b) => a.atMs - b.atMs);
      for (const change of draft.server.contractChanges)
        draft.changes.push({
          atMs: change.atMs,
          cause: 'F36',
          kind: 'contract',
          tool: change.tool,
          edit: editOf(change.change === 'breaking' ? rule : null, broken.sampleArgs, change.claimTo),
        });
    },
  },
  generateRound({ plan }, _rng, rates) {
    const tools = changedTools(plan);
    if (tools.length === 0) return;
    plan.calls.contractCalls = {
      tools,
      fraction: rates.contractCallFraction,
      lateFraction: rates.lateFraction,
      lateDelayMs: [rates.lateDelayMs.min, rates.lateDelayMs.max],
    };
  },
  // Which tools and times follow the pool and T_heal; the classes and rules are F36's own draws.
  // Which tools change, and so which rule, follow the pool and the views (other faults' data): the
  // times and claims are F36's own draws.
  fragment: (plan) =>
    plan.servers.map((server) =>
      (server.contractChanges ?? []).map(({ atMs, change, claimFrom, claimTo }) => ({
        atMs,
        change,
        claimFrom,
        claimTo,
      })),
    ),
  reductions: (plan) =>
    plan.calls.contractCalls === undefined
      ? []
      : [{ name: 'no contract calls', plan: { ...plan, calls: withoutContractCalls(plan.calls) } }],
};
