/**
 * The token `prepare` hands back for a request that passed the early check, and that `dispatch`
 * requires. It carries the request's owner and its baseline from one call to the next, so the
 * stage itself keeps nothing between calls. It cannot be forged (only {@link mintPreparation}
 * makes one, and `dispatch` checks the brand), so a request refused early can never reach the
 * final check: the early refusal stands.
 */
import type { Baseline } from '../baseline.ts';
import type { RequestOwner } from '../request-ledger.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import type { WriteTracker } from './write-tracker.ts';

const MINT = Symbol('SurfacePreparation.mint');
/** Tracked mode: each preparation's write tracker (see {@link trackerOf}). */
const TRACKERS = new WeakMap<SurfacePreparation, WriteTracker>();

/** A prepared request's token (frozen). */
export class SurfacePreparation {
  readonly #genuine = true;
  readonly requestId: string;
  /** The deep-frozen baseline the request was prepared against. */
  readonly baseline: Baseline;
  readonly owner: RequestOwner;
  /** Whether the early check ran (always, in the reference stage). */
  readonly earlyChecked: boolean;
  /**
   * In frozen mode (`hookTools: 'frozen'`), the deep-frozen copy of the baseline's surface this
   * request's hooks received, which the final check accepts by identity; undefined in the other modes.
   */
  readonly issuedTools: readonly Readonly<SurfaceTool>[] | undefined;
  constructor(
    mint: symbol,
    owner: RequestOwner,
    baseline: Baseline,
    earlyChecked: boolean,
    issuedTools?: readonly Readonly<SurfaceTool>[],
    tracker?: WriteTracker,
  ) {
    if (mint !== MINT || !this.#genuine)
      throw new TypeError('a SurfacePreparation comes only from ToolSurfaceStage.prepare');
    this.requestId = owner.reservation.requestId;
    this.owner = Object.freeze({ ledger: owner.ledger, reservation: owner.reservation });
    this.baseline = baseline;
    this.earlyChecked = earlyChecked;
    this.issuedTools = issuedTools;
    // Not a property: the tracker can read the raw working copy, which nothing outside the stage may hold.
    if (tracker !== undefined) TRACKERS.set(this, tracker);
    Object.freeze(this);
  }

  /** Whether `value` was made by {@link mintPreparation} (a brand check, not `instanceof`). */
  static isGenuine(value: unknown): value is SurfacePreparation {
    return typeof value === 'object' && value !== null && #genuine in value;
  }
}

/** Makes a preparation token; only the stage engine calls it. `issuedTools`: frozen mode only; `tracker`: tracked mode only. */
export function mintPreparation(
  owner: RequestOwner,
  baseline: Baseline,
  earlyChecked: boolean,
  issuedTools?: readonly Readonly<SurfaceTool>[],
  tracker?: WriteTracker,
): SurfacePreparation {
  return new SurfacePreparation(MINT, owner, baseline, earlyChecked, issuedTools, tracker);
}

/**
 * In tracked mode (`hookTools: 'tracked'`, the default), the write tracker of the proxies the
 * request's hooks received (what the final check may skip); undefined in the other modes. Kept
 * off the token (which the host holds and may pass around) because the tracker reads the raw
 * working copy; only the stage engine, and tests and benches of it, call this.
 */
export function trackerOf(preparation: SurfacePreparation): WriteTracker | undefined {
  return TRACKERS.get(preparation);
}
