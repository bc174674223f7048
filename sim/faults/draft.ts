/**
 * What a fault's plan generator edits: the draft of one server's plan, or of the round's plan,
 * while sim/plan/generate.ts builds it (SPEC section 10, "Seed -> plan -> run").
 *
 * Order of calls for one server (GENERATION_PHASES): the base server is drawn from the stream
 * `server/<id>` (identity, audiences, first views, first revision, page size, latency and the
 * base edits); then, for the faults that act on the server, in registry order, phase by phase:
 * `audiences` (add an audience and its first view), `plant` (place descriptors into a first view,
 * with `place`), `episodes` (add history changes, rotations, restarts); then the history is built
 * from the changes in time order (each change drawn from its own fault's stream); then `history`
 * (rewrite the built history, e.g. its revision numbers), then `shape` (the server's other
 * fields: notifications, cursors, revision, links). Every hook draws only from the stream it is
 * given (`server/<id>/<fault id>`) or from streams it names through `stream`.
 */
import type { Rng } from '../random.ts';
import type { Scenario } from '../plan/scenario-types.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import type { RoundPlan, ServerPlan, ToolDescriptor } from '../plan/types.ts';

/** The phases of generating one server's plan, in order. */
export const GENERATION_PHASES = ['audiences', 'plant', 'episodes', 'history', 'shape'] as const;

/** One phase of GENERATION_PHASES. */
export type GenerationPhase = (typeof GENERATION_PHASES)[number];

/**
 * One planned change of a server's revision history: an edit of one audience's view (`edit`), of
 * the internal audience only (`internal`: the revision moves alone), of every audience at a
 * rotation (`rotate`), a new description of one tool wherever it is listed and nothing else
 * (`describe`, F32), a new contract of one named tool wherever it is listed (`contract`, F36: `edit`
 * gives the new descriptor), or a revert to the content before the paired edit at `of` (A-B-A).
 * `rng` draws what the edit does (which tool, which kind), at build time, in time order.
 */
export type HistoryChange =
  | {
      readonly atMs: number;
      readonly cause: string;
      readonly kind: 'edit' | 'internal' | 'rotate' | 'describe';
      readonly rng: Rng;
    }
  | { readonly atMs: number; readonly cause: string; readonly kind: 'revert'; readonly of: number }
  | {
      readonly atMs: number;
      readonly cause: string;
      readonly kind: 'contract';
      /** The tool whose contract changes, by name, wherever it is listed. */
      readonly tool: string;
      /** The new descriptor from the one listed before (F36: a schema change and a bumped version claim). */
      readonly edit: (descriptor: ToolDescriptor) => ToolDescriptor;
    };

/** One server's plan while it is generated. */
export interface ServerDraft {
  readonly scenario: Scenario;
  readonly pool: readonly PoolTool[];
  /**
   * The server plan so far, with healthy values in every fault field until a fault sets it;
   * `history` holds only the first step until the history is built (after `episodes`).
   */
  readonly server: ServerPlan;
  /** Changes of the revision history, added in the `episodes` phase. */
  readonly changes: HistoryChange[];
  /**
   * Places descriptors into one audience's first view: the audience and each position are drawn
   * from `rng`. Placed descriptors are never edited afterwards, so a planted defect keeps its label.
   */
  place(rng: Rng, descriptors: readonly ToolDescriptor[]): void;
  /** The stream `server/<server id>/<name>` of the round (a fault names its own, e.g. `F15/acme.dev`). */
  stream(name: string): Rng;
}

/** The round's plan while its round-level faults are generated (after every server). */
export interface RoundDraft {
  readonly scenario: Scenario;
  /**
   * The plan so far: servers, the base policy (grants, effect classes, no change, no loss), calls
   * without stale or guessing planners, sample arguments, one refresher per key.
   */
  readonly plan: RoundPlan;
}
