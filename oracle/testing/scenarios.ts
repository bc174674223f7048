/**
 * The standard fixture world of the oracle's tests: one versioned server `s0` presenting `ID0`,
 * true revision 3 with two audiences, a core session for each, and the clean scans a correct core
 * performs against it.
 * Tests start from these and change one thing, so each test shows exactly what it breaks.
 */
import { ID0, TraceBuilder, type WalkResult, type WalkSpec } from './trace-builder.ts';
import type { RoundStatus } from '../trace.ts';

/** The audience whose catalog spans two pages. */
export const DEV = 'acme.dev';
/** The audience whose catalog fits one page. */
export const OPS = 'acme.ops';
/** The catalog key of `DEV` on `s0` before any rotation. */
export const DEV_KEY = `${ID0}|${DEV}`;
/** The catalog key of `OPS` on `s0` before any rotation. */
export const OPS_KEY = `${ID0}|${OPS}`;

/** The truth at revision 3: acme.dev sees a, b, c (two pages); acme.ops sees a (one page). */
export const VIEWS_R3: Record<string, readonly string[]> = { [DEV]: ['a', 'b', 'c'], [OPS]: ['a'] };

/** The audiences the simulated core connects to `s0` as (each gets a `session_opened`). */
export const SESSION_AUDIENCES: readonly string[] = [DEV, OPS];

/**
 * Brings `s0` up with `ID0`, logs revision 3, then opens a core session for each of
 * `SESSION_AUDIENCES`, in the simulator's order (server_up and revision at start, sessions once the
 * clients connected, before any page): seq 0 server_up, 1 revision, 2 acme.dev session, 3
 * acme.ops session; the first scan starts at seq 4.
 */
export function standardWorld(builder: TraceBuilder, traits: string[] = []): void {
  builder.serverUp('s0', ID0, { traits });
  builder.revision('s0', 3, VIEWS_R3);
  openSessions(builder, SESSION_AUDIENCES);
}

/** One `session_opened` per audience, in order (server `s0`, identity `ID0` unless told). */
export function openSessions(builder: TraceBuilder, audiences: readonly string[], server = 's0', identity = ID0): void {
  for (const audience of audiences) builder.sessionOpened(server, audience, identity);
}

/** A correct scan and publish of acme.dev at revision 3 (pages [a, b] and [c]), with overrides. */
export function devWalk(builder: TraceBuilder, overrides: Partial<WalkSpec> = {}): WalkResult {
  return builder.walk({ audience: DEV, scanId: 'sc-dev', revision: 3, pages: [['a', 'b'], ['c']], ...overrides });
}

/** A correct scan and publish of acme.ops at revision 3 (one page [a]), with overrides. */
export function opsWalk(builder: TraceBuilder, overrides: Partial<WalkSpec> = {}): WalkResult {
  return builder.walk({ audience: OPS, scanId: 'sc-ops', revision: 3, pages: [['a']], ...overrides });
}

/** The quiet tail and the round end. */
export function finish(builder: TraceBuilder, status: RoundStatus = 'settled'): void {
  builder.quiet();
  builder.roundEnd(status);
}

/** The clean round: both audiences scanned and published correctly, round settled. */
export function cleanRound(): TraceBuilder {
  const builder = new TraceBuilder();
  standardWorld(builder);
  devWalk(builder);
  opsWalk(builder);
  finish(builder);
  return builder;
}
