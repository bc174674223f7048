/**
 * Coverage probes of the tool surface (F22; SPEC section 8, seed 003): one per hook kind and per
 * check, and the two capacity outcomes. A harmful kind is exercised when a turn that ran it was
 * refused SURFACE_MISMATCH; a harmless kind when a turn whose extensions were all harmless and ran
 * it reached the model; a check when it refused a request; a capacity when a short one ended in
 * CAPACITY_EXCEEDED, or a fitting one (of at least one tool) let the request through.
 */
import { HARMFUL_SURFACE_HOOKS, HARMLESS_SURFACE_HOOKS } from '../../contract/trace/codes.ts';
import { buildSurfaceTurns, type SurfaceTurn } from '../surface-turns.ts';
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** A probe hit when some turn of the round satisfies `turnHits`. */
function turnProbe(name: string, description: string, turnHits: (turn: SurfaceTurn) => boolean): Probe {
  return {
    name,
    description,
    basis: 'reference',
    hit: (events: readonly KnownEvent[]) => buildSurfaceTurns(events).turns.some(turnHits),
  };
}

const refusedMismatch = (turn: SurfaceTurn): boolean => turn.settlements[0]?.code === 'SURFACE_MISMATCH';
const dispatched = (turn: SurfaceTurn): boolean =>
  turn.settlements[0]?.settlement === 'dispatched' && turn.received.length > 0;

/** Every surface probe, in report order. */
export const SURFACE_PROBES: readonly Probe[] = [
  ...HARMFUL_SURFACE_HOOKS.map((kind) =>
    turnProbe(
      `surface-refused-${kind}`,
      `a model turn with a ${kind} hook refused SURFACE_MISMATCH`,
      (turn) => turn.turn.hooks.includes(kind) && refusedMismatch(turn),
    ),
  ),
  ...HARMLESS_SURFACE_HOOKS.map((kind) =>
    turnProbe(
      `surface-dispatched-${kind}`,
      `a harmless model turn with a ${kind} hook reached the model`,
      (turn) => turn.turn.harmless && turn.turn.hooks.includes(kind) && dispatched(turn),
    ),
  ),
  turnProbe(
    'surface-refused-early',
    'the early check refused a model request',
    (turn) => refusedMismatch(turn) && turn.settlements[0]?.check === 'early',
  ),
  turnProbe(
    'surface-refused-final',
    'the final check refused a model request (a late edit)',
    (turn) => refusedMismatch(turn) && turn.settlements[0]?.check === 'final',
  ),
  turnProbe(
    'surface-capacity-exceeded',
    'a capacity short of the baseline ended in CAPACITY_EXCEEDED',
    (turn) =>
      turn.turn.capacity !== null &&
      turn.turn.capacity.requiredMin > turn.turn.capacity.available &&
      turn.settlements[0]?.code === 'CAPACITY_EXCEEDED',
  ),
  turnProbe(
    'surface-capacity-fits',
    'a capacity exactly holding a non-empty baseline let the request through',
    (turn) =>
      turn.turn.capacity !== null &&
      turn.turn.capacity.requiredMax === turn.turn.capacity.available &&
      turn.turn.capacity.available > 0 &&
      dispatched(turn),
  ),
];
