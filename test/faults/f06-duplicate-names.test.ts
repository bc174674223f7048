/**
 * F6: duplicate tool names. Two descriptors with the same name and different schemas, or with
 * names equal after the normalisation hosts apply (case folded, `-` = `_`), are both quarantined
 * inside the snapshot (verdict DUPLICATE_NAME); the other tools stay `ok` and the snapshot is
 * published. Both members are labelled `defect_planted` DUPLICATE_NAME, so the oracle's I5
 * checks that neither is admitted. 5 tools, pages of 2, latency 5 ms: proven and published at 50.
 */
import { describe, expect, it } from 'vitest';
import type { PlantedDefect, ToolDescriptor } from '../../sim/plan/types.ts';
import {
  digestOf,
  handPlan,
  handServer,
  runHand,
  scanEnds,
  step,
  tools,
  toolsOf,
  type HandRun,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';

function userTool(name: string, properties: Record<string, unknown>): ToolDescriptor {
  return {
    name,
    description: `Look up a user (${name}).`,
    inputSchema: { type: 'object', properties, required: Object.keys(properties) },
  };
}

async function runWithPair(first: ToolDescriptor, second: ToolDescriptor): Promise<HandRun> {
  const [a, b, c] = tools('read_file', 'list_directory', 'echo');
  const view = [a!, first, b!, second, c!];
  const planted: PlantedDefect[] = [
    { defect: 'DUPLICATE_NAME', descriptor: first },
    { defect: 'DUPLICATE_NAME', descriptor: second },
  ];
  return runHand(
    handPlan({ faults: ['F6'], servers: [handServer({ history: [step(0, 7, { 'acme.dev': view })], planted })] }),
  );
}

function expectPairQuarantined(run: HandRun, first: ToolDescriptor, second: ToolDescriptor): void {
  expect(run.of('defect_planted').map((e) => [e.digest, e.defect])).toEqual([
    [digestOf(first), 'DUPLICATE_NAME'],
    [digestOf(second), 'DUPLICATE_NAME'],
  ]);
  expect(scanEnds(run)[0]).toEqual([50, 'SNAPSHOT_PROVEN', 'OK']);
  const published = run.of('published')[0]!;
  expect([published.t, published.key, published.generation, published.sourceRevision]).toEqual([50, KEY, 1, 7]);
  expect(toolsOf(published).map((t) => [t.name, t.descriptorDigest, t.verdict])).toEqual([
    ['read_file', digestOf(tools('read_file')[0]!), 'ok'],
    [first.name, digestOf(first), 'DUPLICATE_NAME'],
    ['list_directory', digestOf(tools('list_directory')[0]!), 'ok'],
    [second.name, digestOf(second), 'DUPLICATE_NAME'],
    ['echo', digestOf(tools('echo')[0]!), 'ok'],
  ]);
  // Every later publish (refreshes) keeps the same verdicts.
  for (const later of run.of('published'))
    expect(toolsOf(later).map((t) => t.verdict)).toEqual(['ok', 'DUPLICATE_NAME', 'ok', 'DUPLICATE_NAME', 'ok']);
  expect(run.verdict.violations).toEqual([]);
}

describe('F6: duplicate names', () => {
  it('the same name twice with different schemas quarantines both (DUPLICATE_NAME) and keeps the others ok', async () => {
    const first = userTool('get_user', { id: { type: 'string' } });
    const second = userTool('get_user', { id: { type: 'integer' } });
    expectPairQuarantined(await runWithPair(first, second), first, second);
  });

  it('names equal after normalisation (get_user / GET-USER) quarantine both and keep the others ok', async () => {
    const first = userTool('get_user', { id: { type: 'string' } });
    const second = userTool('GET-USER', { id: { type: 'string' } });
    expectPairQuarantined(await runWithPair(first, second), first, second);
  });
});
