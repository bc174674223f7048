/**
 * The rules a fault gives the model turns (sim/turns/model-turn.ts): what each host extension of
 * the plan's turns does to the request, turmoil-style, one behaviour per hook kind and per late
 * stage, and which turns leave the surface as admitted. A fault exports them as its `turnRules`
 * (sim/faults/fault.ts); the registry merges them (`TURN_RULES` in sim/faults/index.ts) and the
 * planner hands them to each turn, so the turns import neither a fault file nor the registry.
 *
 * Order of calls for one turn: `harmless` once, when the turn is written (`model_turn`); then the
 * core runs the plan's hooks in order, each through its behaviour; then, `lateMs` later, the late
 * stage's behaviour.
 */
import type { TurnRequest, TurnTool } from '../guard/adapter.ts';
import type { SurfaceHookKind, SurfaceLateStep, TurnPlan } from '../plan/types.ts';

/** The hooks a hook kind may use besides the request: virtual time, a tool to add, the turn's draw. */
export interface HookEnv {
  /** Runs `fn` `ms` virtual ms from now (work a hook leaves running). */
  after(ms: number, fn: () => void): void;
  /** Resolves `ms` virtual ms from now. */
  wait(ms: number): Promise<void>;
  /** A real tool of the server that is not on the request, as a logical tool, or null. */
  unlistedTool(present: readonly string[]): TurnTool | null;
  /** The turn's draw in [0, 1). */
  readonly pick: number;
  /** What the late stage `restore` undoes (filled by `launder`). */
  readonly restores: (() => void)[];
}

/** What one hook kind or late stage does to the request (it may edit it in place, and may wait). */
export type TurnBehaviour = (request: TurnRequest, env: HookEnv) => void | Promise<void>;

/** The turn rules of one fault, or of the registry merged. */
export interface TurnRules {
  /** The behaviour of each hook kind the fault plans. */
  readonly hooks: Readonly<Partial<Record<SurfaceHookKind, TurnBehaviour>>>;
  /** The behaviour of each late stage the fault plans. */
  readonly late: Readonly<Partial<Record<SurfaceLateStep, TurnBehaviour>>>;
  /** Whether a turn's hooks and late stage all leave the surface as admitted (ground truth for I26). */
  harmless(turn: Pick<TurnPlan, 'hooks' | 'late'>): boolean;
}

/**
 * The turn rules of several faults as one: every hook kind and late stage any of them defines,
 * and a turn harmless when each of them says so.
 */
export function mergeTurnRules(all: readonly TurnRules[]): TurnRules {
  return {
    hooks: Object.assign({}, ...all.map((rules) => rules.hooks)),
    late: Object.assign({}, ...all.map((rules) => rules.late)),
    harmless: (turn) => all.every((rules) => rules.harmless(turn)),
  };
}

/** The behaviour of hook kind or late stage `kind` (a plan names only kinds some fault defines: an error otherwise). */
export function behaviourOf(table: Readonly<Partial<Record<string, TurnBehaviour>>>, kind: string): TurnBehaviour {
  const behaviour = table[kind];
  if (behaviour === undefined) throw new Error(`no fault defines the model-turn behaviour "${kind}"`);
  return behaviour;
}
