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
 * acme.ops session; the first scan starts at seq 4. Each entry of `defects` (fixture tool name →
 * defect label) adds one `defect_planted` between server_up and revision, shifting later seqs.
 */
export function standardWorld(builder: TraceBuilder, traits: string[] = [], defects: Readonly<Record<string, string>> = {}): void {
  builder.serverUp('s0', ID0, { traits });
  for (const [name, defect] of Object.entries(defects)) builder.defectPlanted('s0', name, defect);
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

/** What `disclosureRound` built: the seq of each publish and disclosure, in trace order. */
export interface DisclosureRoundSeqs {
  readonly devPublish: number;
  readonly opsPublish: number;
  readonly dev4Publish: number;
  readonly rollback: number;
  readonly dev4bPublish: number;
  readonly disclosures: readonly number[];
}

/**
 * A clean round exercising every event of the trace format a correct core and world produce:
 * tool `c` is planted with REMOTE_REF and always published with that verdict; a planner is
 * refused before the first publish, then shown each new generation; the acme.dev session is cut
 * and reopened; revision 4 gives acme.dev tool `d`; acme.dev is published at 4 (generation 2),
 * rolled back to generation 1 (generation 3, revision 3, marked), then published at 4 again
 * (generation 4); the round settles.
 */
export function disclosureRound(): { builder: TraceBuilder; seqs: DisclosureRoundSeqs } {
  const b = new TraceBuilder();
  const quarantineC = { verdicts: { c: 'REMOTE_REF' } };
  standardWorld(b, [], { c: 'REMOTE_REF' });
  b.disclosureRefused('s0', DEV, 'INCOMPLETE_DISCOVERY');
  const devPublish = devWalk(b, { publish: quarantineC }).publishSeq ?? -1;
  const opsPublish = opsWalk(b).publishSeq ?? -1;
  const disclosures = [b.disclosure(devPublish), b.disclosure(opsPublish)];
  b.disconnected('s0', DEV);
  b.sessionOpened('s0', DEV, ID0);
  b.revision('s0', 4, { [DEV]: ['a', 'b', 'c', 'd'], [OPS]: ['a'] });
  const pagesR4 = [['a', 'b'], ['c', 'd']];
  const dev4Publish = devWalk(b, { scanId: 'sc-dev-4', revision: 4, pages: pagesR4, publish: quarantineC }).publishSeq ?? -1;
  const rollback = b.rollback(DEV_KEY, 1);
  disclosures.push(b.disclosure(rollback));
  const dev4bPublish = devWalk(b, { scanId: 'sc-dev-4b', revision: 4, pages: pagesR4, publish: quarantineC }).publishSeq ?? -1;
  disclosures.push(b.disclosure(dev4bPublish));
  finish(b);
  return { builder: b, seqs: { devPublish, opsPublish, dev4Publish, rollback, dev4bPublish, disclosures } };
}
