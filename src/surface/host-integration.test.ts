/**
 * The stage embedded beside the reference catalog host, end to end through a real SDK pair
 * (src/admission/testing/host-harness.ts): facts from `host.disclose` and `host.policy`, a
 * surface dispatched to a scripted model, and the model's pick called through `host.call`, the
 * gate admitting it. The stage reads the host and changes nothing in it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, startHarness, toolWith, type Harness } from '../admission/testing/host-harness.ts';
import { admissionFacts } from './admission-facts-of.ts';
import { InMemoryRequestLedger } from './in-memory-request-ledger.ts';
import type { DispatchedRequest } from './model-request.ts';
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });
const WRITE = toolWith('write_file', { path: { type: 'string' }, content: { type: 'string' } });

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** One model turn for session s1: facts now, prepare, dispatch to a model that records what it saw. */
async function turn(h: Harness, stage: ToolSurfaceStage, ledger: InMemoryRequestLedger, requestId: string) {
  const served = h.host.disclose('s1', ACME, h.world.identity);
  const facts = admissionFacts({ session: 's1', served, audience: ACME, policy: h.host.policy });
  if (!facts.ok) throw new Error(`nothing served: ${facts.code}`);
  const owner = { ledger, reservation: ledger.reserve({ requestId, session: 's1' }) };
  const prepared = await stage.prepare({ owner, facts: facts.facts, context: null });
  if (!prepared.ok) throw new Error(`refused: ${JSON.stringify(prepared.rejection)}`);
  let seen: { request: DispatchedRequest; seal: SealedDispatchRecord } | undefined;
  const result = await stage.dispatch(prepared.preparation, prepared.request, (request, seal) => {
    seen = { request, seal };
    return 'ok';
  });
  if (!result.ok || seen === undefined) throw new Error('not dispatched');
  return seen;
}

describe('the stage beside CatalogHost', () => {
  it("shows the granted tools of the served generation; the model's pick is admitted by the gate", async () => {
    const h = (harness = await startHarness({
      tools: [READ, WRITE],
      effectClasses: { read_file: 'READ', write_file: 'WRITE' },
    }));
    h.grant(['read_file']);
    await h.time.advance(0);
    const ledger = new InMemoryRequestLedger();
    const seen = await turn(h, new ToolSurfaceStage(), ledger, 'turn-1');
    expect(seen.request.tools).toEqual([
      { name: 'read_file', description: 'read_file tool.', inputSchema: READ.inputSchema },
    ]);
    const record = h.host.registry.active({ identity: h.world.identity, ...ACME });
    expect(seen.seal).toEqual({
      requestId: 'turn-1',
      session: 's1',
      key: 'fp:a|acme.dev',
      generation: 1,
      snapshotDigest: record?.snapshotDigest,
      policyEpoch: 1,
      tools: [{ name: 'read_file', descriptorDigest: record?.snapshot.tools[0]?.descriptorDigest }],
      checks: ['early', 'final'],
    });
    // The model calls what it was shown, bound to the seal's generation and descriptor digest.
    const plan = {
      planId: 'p1',
      key: { identity: h.world.identity, ...ACME },
      generation: seen.seal.generation,
      snapshotDigest: seen.seal.snapshotDigest,
      toolName: 'read_file',
      descriptorDigest: seen.seal.tools[0]?.descriptorDigest as string,
    };
    const call = await h.host.call(h.request(plan, { arguments: { path: '/a' } }));
    expect(call).toMatchObject({ admitted: true, outcome: 'ok' });
  });

  it('the next turn follows the grant as the policy holds it then (a revocation narrows the baseline, never a hook)', async () => {
    const h = (harness = await startHarness({ tools: [READ, WRITE] }));
    h.grant(['read_file', 'write_file']);
    await h.time.advance(0);
    const stage = new ToolSurfaceStage();
    const ledger = new InMemoryRequestLedger();
    expect((await turn(h, stage, ledger, 'turn-1')).request.tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'write_file',
    ]);
    h.grant(['write_file']);
    const second = await turn(h, stage, ledger, 'turn-2');
    expect(second.request.tools.map((tool) => tool.name)).toEqual(['write_file']);
    expect(second.seal.policyEpoch).toBe(2);
    expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched', 'dispatched']);
  });

  it('a key that serves nothing gives no facts (no baseline, no request to prepare)', async () => {
    const h = (harness = await startHarness({ tools: [READ] }));
    const served = h.host.disclose('s1', ACME, 'fp:someone-else');
    expect(admissionFacts({ session: 's1', served, audience: ACME, policy: h.host.policy })).toEqual({
      ok: false,
      code: 'INCOMPLETE_DISCOVERY',
    });
  });
});
