/**
 * F16: two tenants with the same role (acme.dev, globex.dev) on one server see the same tool
 * names with different descriptors. Each audience has its own session and its own key; both walks
 * run in parallel (latency 5 ms, pages of 2, 5 tools) and publish at 50. The planners (every
 * 100 ms) are each shown their own key's generation.
 */
import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../sim/plan/types.ts';
import { digestOf, handPlan, handServer, runHand, step, tools, toolsOf } from '../support/hand-plan.ts';

const FP = 'fp:0000000000000001';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('F16: tenant twins', () => {
  it('each key publishes its own descriptors and each session is disclosed its own key', async () => {
    const acme = tools(...FIVE);
    const globex: ToolDescriptor[] = acme.map((t) => ({
      ...t,
      description: `${String(t.description)} (globex edition)`,
    }));
    const plan = handPlan({
      faults: ['F16'],
      servers: [
        handServer({
          audiences: ['acme.dev', 'globex.dev'],
          history: [step(0, 7, { 'acme.dev': acme, 'globex.dev': globex })],
        }),
      ],
    });
    const run = await runHand(plan);

    const first = new Map(
      run
        .of('published')
        .filter((e) => e.generation === 1)
        .map((e) => [e.key as string, e]),
    );
    expect([...first.keys()].sort()).toEqual([`${FP}|acme.dev`, `${FP}|globex.dev`]);
    const acmePublish = first.get(`${FP}|acme.dev`)!;
    const globexPublish = first.get(`${FP}|globex.dev`)!;
    expect([acmePublish.t, globexPublish.t]).toEqual([50, 50]);
    expect(toolsOf(acmePublish).map((t) => [t.name, t.descriptorDigest, t.verdict])).toEqual(
      acme.map((t) => [t.name, digestOf(t), 'ok']),
    );
    expect(toolsOf(globexPublish).map((t) => [t.name, t.descriptorDigest, t.verdict])).toEqual(
      globex.map((t) => [t.name, digestOf(t), 'ok']),
    );
    // Same names, no digest in common.
    const acmeDigests = new Set(toolsOf(acmePublish).map((t) => t.descriptorDigest));
    expect(toolsOf(globexPublish).filter((t) => acmeDigests.has(t.descriptorDigest))).toEqual([]);

    const at100 = run
      .of('disclosure')
      .filter((e) => e.t === 100)
      .map((e) => [e.session, e.audience, e.key, e.generation, e.snapshotDigest, e.tools]);
    expect(at100).toEqual([
      ['s0/acme.dev', 'acme.dev', `${FP}|acme.dev`, 1, acmePublish.snapshotDigest, acme.map(digestOf)],
      ['s0/globex.dev', 'globex.dev', `${FP}|globex.dev`, 1, globexPublish.snapshotDigest, globex.map(digestOf)],
    ]);
    // Every disclosure of the round names the session's own key.
    for (const e of run.of('disclosure')) expect(e.key).toBe(`${FP}|${String(e.audience)}`);
    expect(run.of('disclosure_refused')).toEqual([]);
    expect(run.verdict.violations).toEqual([]);
  });
});
