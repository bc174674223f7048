/**
 * F26: an operator emergency-disables a tool while calls are in flight, on the hand plan of
 * test/mutants/plans.ts (`emergencyDisablePlan`): one server (latency 5 ms, pages of 2) shows
 * acme.dev five tools at revision 7, every planned call is made, and the operator disables
 * `read_file` at 500. The planners call `read_file` once before the order (admitted and sent at
 * 111) and once after it, the quiet tail's probe at 2,038.
 *
 * On the reference the order emergency-disables `s0`'s `read_file` version 1 in the host's
 * capability registry and the probe is refused VERSION_EMERGENCY_DISABLED: nothing of it is sent,
 * and the world does not expect it admitted (I12). On `mutant:emergency-disable-ignored` the order
 * is accepted and applied to nothing: the probe leaves the core at 2,038, which I30 catches from
 * the world's `call_sent` alone. With the server editing `read_file`'s description at 600 (a new
 * version of a disabled tool), the probe is for the edited descriptor, and refused all the same.
 * A core without `emergencyDisable` gets the order `unsupported`: not judged, never a pass.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { emergencyDisablePlan } from '../mutants/plans.ts';
import { referenceKeeping } from '../support/reference-keeping.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The order and the read_file calls, as `t what` lines: gate decisions and calls sent. */
function readFileTrail(run: Run): string[] {
  return run.events.flatMap((event) => {
    if (event.type === 'emergency_disabled') return [`${event.t} order ${event.tool} ${event.delivery}`];
    if (event.type === 'gate_decision' && event.tool === 'read_file') return [`${event.t} decision ${event.decision}`];
    if (event.type === 'call_sent' && event.tool === 'read_file') return [`${event.t} sent`];
    return [];
  });
}

/** The reference core without `emergencyDisable` (its other methods bound one by one). */
const withoutVersions = referenceKeeping(['createClient']);

describe('F26: emergency disable while calls are in flight', () => {
  it('the reference refuses the read_file call after the order VERSION_EMERGENCY_DISABLED and sends nothing of it', async () => {
    const run = await runHand(emergencyDisablePlan({ atMs: 500 }));
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT',
      '111 sent',
      '500 order read_file delivered',
      '2038 decision VERSION_EMERGENCY_DISABLED',
    ]);
    expect(run.verdict.checked.I30).toBe(1);
    expect(probesHit(run.events).filter((name) => name.startsWith('emergency-'))).toEqual([
      'emergency-disable-ordered',
      'emergency-disable-call-refused',
    ]);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({});
  });

  it('mutant:emergency-disable-ignored sends the call after the order: I30', async () => {
    const run = await runHand(emergencyDisablePlan({ atMs: 500 }), resolveCore('mutant:emergency-disable-ignored'));
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT',
      '111 sent',
      '500 order read_file delivered',
      '2038 decision ADMIT',
      '2038 sent',
    ]);
    expect(run.verdict.violations.map(({ invariant, code, evidence }) => ({ invariant, code, evidence }))).toEqual([
      {
        invariant: 'I30',
        code: 'EXECUTED_AFTER_EMERGENCY_DISABLE',
        evidence:
          '1 call of "read_file" left the core for server s0 after its emergency disable (seq 46, t=500 ms), the first at seq 120 (t=2038 ms, audience acme.dev)',
      },
    ]);
  });

  it('a new version registered after the order (the description edited at 600) is disabled with the tool', async () => {
    const run = await runHand(emergencyDisablePlan({ atMs: 500, editAtMs: 600 }));
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT',
      '111 sent',
      '500 order read_file delivered',
      '2038 decision VERSION_EMERGENCY_DISABLED',
    ]);
    const digests = run.events.flatMap((event) =>
      event.type === 'published' ? [event.tools.find((tool) => tool.name === 'read_file')?.descriptorDigest] : [],
    );
    const refused = run.events.find(
      (event) => event.type === 'gate_decision' && event.decision === 'VERSION_EMERGENCY_DISABLED',
    );
    // Generation 1 (revision 7), 2 (revision 8, edited), 3 (the next refresh of revision 8).
    expect(digests).toHaveLength(3);
    expect(digests[0]).not.toBe(digests[1]);
    expect(digests[2]).toBe(digests[1]);
    expect(refused?.type === 'gate_decision' ? refused.planDescriptorDigest : null).toBe(digests[1]);
  });

  it('a core without emergencyDisable gets the order unsupported: the round judges no I30 and is not judged on versions', async () => {
    const run = await runHand(emergencyDisablePlan({ atMs: 500 }), withoutVersions);
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT',
      '111 sent',
      '500 order read_file unsupported',
      '2038 decision ADMIT',
      '2038 sent',
    ]);
    expect(run.verdict.violations).toEqual([]);
    expect(run.verdict.checked.I30).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ versions: 1 });
  });
});
