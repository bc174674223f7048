/**
 * The standard fixture world of the oracle's tests: one versioned server `s0` presenting `ID0`,
 * true revision 3 with two audiences, a core session for each, and the clean scans a correct core
 * performs against it.
 * Tests start from these and change one thing, so each test shows exactly what it breaks.
 */
import { ID0, TraceBuilder, type CallSeqs, type WalkResult, type WalkSpec } from './trace-builder.ts';
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
export function standardWorld(
  builder: TraceBuilder,
  traits: string[] = [],
  defects: Readonly<Record<string, string>> = {},
): void {
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
  const pagesR4 = [
    ['a', 'b'],
    ['c', 'd'],
  ];
  const dev4Publish =
    devWalk(b, { scanId: 'sc-dev-4', revision: 4, pages: pagesR4, publish: quarantineC }).publishSeq ?? -1;
  const rollback = b.rollback(DEV_KEY, 1);
  disclosures.push(b.disclosure(rollback));
  const dev4bPublish =
    devWalk(b, { scanId: 'sc-dev-4b', revision: 4, pages: pagesR4, publish: quarantineC }).publishSeq ?? -1;
  disclosures.push(b.disclosure(dev4bPublish));
  finish(b);
  return { builder: b, seqs: { devPublish, opsPublish, dev4Publish, rollback, dev4bPublish, disclosures } };
}

/** The trusted effect classes of the admission fixtures: a is READ, b WRITE, c (unlisted) WRITE. */
export const EFFECT_CLASSES: Readonly<Record<string, string>> = { a: 'READ', b: 'WRITE' };

/** The planner session that is shown acme.dev's catalog. */
export const DEV_SESSION = `planner-${DEV}`;

/**
 * The admission world: the effect policy and epoch 1 of both audiences (acme.dev holds a, b and
 * c, acme.ops holds a), then `standardWorld` with `versioned` s0, and the core's first poll of
 * both epochs. Seq 0 effect_policy, 1-2 policy_changed, 3-6 standard world, 7-8 policy_seen.
 */
export function admissionWorld(builder: TraceBuilder, versioned = true): void {
  builder.effectPolicy(EFFECT_CLASSES);
  builder.policyChanged(DEV, 1, ['a', 'b', 'c']);
  builder.policyChanged(OPS, 1, ['a']);
  builder.serverUp('s0', ID0, { versioned });
  builder.revision('s0', 3, VIEWS_R3);
  openSessions(builder, SESSION_AUDIENCES);
  builder.policySeen(DEV, 1);
  builder.policySeen(OPS, 1);
}

/** What `admissionRound` built, by seq. */
export interface AdmissionRoundSeqs {
  readonly devPublish: number;
  readonly disclosure: number;
  readonly write: CallSeqs;
  readonly revocation: number;
  readonly revocationSeen: number;
  readonly revoked: CallSeqs;
  readonly probeDisclosure: number;
  readonly probe: CallSeqs;
  readonly roundEnd: number;
}

/**
 * A clean round of admission at call time, on `admissionWorld` with both audiences scanned and
 * published: acme.dev's planner is shown generation 1 and calls b (WRITE, versioned source: no
 * confirmation needed), which is admitted, receipted and executed; acme.dev's policy moves to
 * epoch 2 revoking c, which the core sees 40 ms later and then refuses c POLICY_REVOKED; in the
 * quiet tail the planner is shown the catalog again and probes a, which must be admitted and is.
 */
export function admissionRound(): { builder: TraceBuilder; seqs: AdmissionRoundSeqs } {
  const b = new TraceBuilder();
  admissionWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  const disclosure = b.disclosure(devPublish, { session: DEV_SESSION });
  const write = b.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
  const revocation = b.policyChanged(DEV, 2, ['a', 'b'], { revoked: ['c'] });
  b.policyPush(DEV, 2, false);
  b.at(b.now() + 20);
  const revocationSeen = b.policySeen(DEV, 2);
  const revoked = b.call({
    session: DEV_SESSION,
    planId: 'p1',
    key: DEV_KEY,
    tool: 'c',
    decision: 'POLICY_REVOKED',
    policyEpoch: 2,
  });
  b.quiet();
  const probeDisclosure = b.disclosure(devPublish, { session: DEV_SESSION });
  const probe = b.call({ session: DEV_SESSION, planId: 'p2', key: DEV_KEY, tool: 'a', kind: 'probe', policyEpoch: 2 });
  const roundEnd = b.roundEnd();
  return {
    builder: b,
    seqs: { devPublish, disclosure, write, revocation, revocationSeen, revoked, probeDisclosure, probe, roundEnd },
  };
}
