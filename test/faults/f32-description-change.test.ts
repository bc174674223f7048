/**
 * F32: a description-only change, on the hand plan of test/mutants/plans.ts
 * (`descriptionChangePlan`): one server (latency 5 ms, pages of 2) shows acme.dev five tools at
 * revision 7, every planned call is made, and at 600 the server lists `read_file` with a new
 * description, nothing else changed (revision 8). The operator described `s0` in a manifest file,
 * so the world writes `operator_manifest` (seq 0, before the core starts) and hands the core the
 * file under s0's identity.
 *
 * On the reference the call at 111 names `s0.read_file` v1 and the quiet tail's probe at 2,038
 * (against the new description, published after the change) names v2: another manifest digest,
 * another descriptor digest. `mutant:version-by-claim` names v1 for both, which I35 catches at the
 * second receipt (seq 133). `peer:list-once`, which names no version in its receipts, leaves
 * I35 its 14 receipts of s0 to judge and nothing judged: the round is NOT JUDGED on `versions`.
 * The generator's F32 steps change one description and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import type { RevisionStep, ToolDescriptor } from '../../sim/plan/types.ts';
import { operatorManifestsOf } from '../../sim/host/operator-manifests.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { descriptionChangePlan } from '../mutants/plans.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** read_file's receipts as `t version-number descriptor-prefix`. */
function versionTrail(run: Run): string[] {
  return run.events.flatMap((event) =>
    event.type === 'receipt' && event.tool === 'read_file'
      ? [
          `${event.t} ${event.version?.toolId} v${event.version?.version} ${String(event.descriptorDigest).slice(0, 12)}`,
        ]
      : [],
  );
}

describe('F32: a description-only change is a new version', () => {
  it('the world hands the core the manifest file and writes operator_manifest before anything else', () => {
    const plan = descriptionChangePlan();
    expect(operatorManifestsOf(plan)).toEqual({
      files: { 'fp:0000000000000001': '{"schema":"catsim.manifests.v1","server":"s0","tools":{}}' },
      servers: [{ server: 's0', identities: ['fp:0000000000000001'], toolIdPrefix: 's0.' }],
    });
    expect(
      operatorManifestsOf({ ...plan, servers: plan.servers.map((s) => ({ ...s, operatorManifest: false })) }),
    ).toBe(undefined);
  });

  it('the reference names v1 before the change and v2 after it', async () => {
    const run = await runHand(descriptionChangePlan());
    expect(run.verdict.violations).toEqual([]);
    expect(run.events[0]).toMatchObject({ seq: 0, type: 'operator_manifest', server: 's0', toolIdPrefix: 's0.' });
    expect(versionTrail(run)).toEqual(['111 s0.read_file v1 038162adfa1d', '2038 s0.read_file v2 3d9fc27e6d2c']);
    // What the server ran, by lease: the definition each receipt names.
    const ran = run.events.flatMap((event) =>
      event.type === 'call_executed' && event.tool === 'read_file'
        ? [`${event.t} ${event.descriptorDigest?.slice(0, 12)}`]
        : [],
    );
    expect(ran).toEqual(['116 038162adfa1d', '2043 3d9fc27e6d2c']);
    // Every receipt of the round is of s0, which the operator described: 14 judged.
    expect(run.verdict.checked.I35).toBe(14);
    expect(probesHit(run.events)).toContain('version-changed-called');
  });

  it('mutant:version-by-claim keeps v1 after the change: I35', async () => {
    const run = await runHand(descriptionChangePlan(), resolveCore('mutant:version-by-claim'));
    expect(versionTrail(run)).toEqual(['111 s0.read_file v1 038162adfa1d', '2038 s0.read_file v1 3d9fc27e6d2c']);
    expect(run.verdict.violations.map(({ invariant, seq, code }) => `${invariant}@${seq} ${code}`)).toEqual([
      'I35@133 ONE_VERSION_TWO_DEFINITIONS',
    ]);
    expect(probesHit(run.events)).not.toContain('version-changed-called');
  });

  it('a core that names no version in its receipts (peer:list-once) is not judged on versions, never passed', async () => {
    const run = await runHand(descriptionChangePlan(), resolveCore('peer:list-once'), 'peer:list-once');
    const receipts = run.events.filter((event) => event.type === 'receipt');
    expect(receipts.every((receipt) => receipt.type === 'receipt' && receipt.version === undefined)).toBe(true);
    // The same 14 calls to s0 the reference receipts (each a tool-version check I35 could not
    // make), none of them judged.
    expect(receipts.length).toBe(14);
    expect(run.verdict.checked.I35).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ versions: 14 });
  });

  it("the generator's F32 steps change one tool's description and nothing else (capability-versions, seed 1, rounds 0..19)", () => {
    const scenario = loadScenario('capability-versions');
    let steps = 0;
    let changed = 0;
    for (let round = 0; round < 20; round += 1) {
      for (const server of generatePlan('1', round, scenario).servers) {
        server.history.forEach((step, index) => {
          if (step.cause !== 'F32') return;
          steps += 1;
          expect(server.operatorManifest).toBe(true);
          changed += descriptionChanges(server.history[index - 1] as RevisionStep, step);
        });
      }
    }
    // 23 steps in 9 of the 20 rounds (counted from the plans when the fault took the id F32, whose
    // seeded stream `round/F32` draws other steps than `round/F35` did); each changed one descriptor.
    expect([steps, changed]).toEqual([23, 23]);
  });
});

/**
 * How many distinct descriptors changed from `before` to `after`, failing the test if any change
 * touches more than the description or moves a tool.
 */
function descriptionChanges(before: RevisionStep, after: RevisionStep): number {
  const changed = new Set<string>();
  expect(Object.keys(after.views)).toEqual(Object.keys(before.views));
  for (const [audience, tools] of Object.entries(after.views)) {
    const old = before.views[audience] as ToolDescriptor[];
    expect(tools.map((tool) => tool.name)).toEqual(old.map((tool) => tool.name));
    tools.forEach((tool, i) => {
      const { description: _new, ...rest } = tool;
      const { description: _old, ...restOld } = old[i] as ToolDescriptor;
      expect(rest).toEqual(restOld);
      if (JSON.stringify(tool) !== JSON.stringify(old[i])) changed.add(JSON.stringify(old[i]));
    });
  }
  return changed.size;
}
