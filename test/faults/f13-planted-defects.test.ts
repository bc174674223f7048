/**
 * F13: each planted defect kind, built by the generator's own `plantF13` (with a stub rng that
 * picks the wanted defect, the first pool tool and the first dialect URI), placed third in a
 * view of 5 tools (pages of 2, latency 5 ms: proven and published at 50). The defective tool's
 * verdict in `published` is the exact content-check reason (SPEC section 5); the other four stay
 * `ok`, the snapshot is published, and the oracle (I5) finds no admitted defect.
 */
import { describe, expect, it } from 'vitest';
import { plantF13 } from '../../sim/faults/f13-planted-defects.ts';
import { TOOL_POOL } from '../../sim/plan/tool-pool.ts';
import type { PlantedDefect } from '../../sim/plan/types.ts';
import {
  digestOf,
  handPlan,
  handServer,
  pickingRng,
  runHand,
  scanEnds,
  step,
  tools,
  toolsOf,
} from '../support/hand-plan.ts';

const CASES: { defect: PlantedDefect['defect']; verdict: string; preferred?: string }[] = [
  { defect: 'UNKNOWN_DIALECT', verdict: 'UNKNOWN_DIALECT' },
  { defect: 'UNKNOWN_DIALECT', verdict: 'UNKNOWN_DIALECT', preferred: 'https://example.com/private-dialect' },
  { defect: 'UNRESOLVED_REF', verdict: 'UNRESOLVED_REF' },
  { defect: 'REMOTE_REF', verdict: 'REMOTE_REF' },
  { defect: 'OVERSIZED_DESCRIPTOR', verdict: 'OVERSIZED_DESCRIPTOR' },
  { defect: 'NON_OBJECT_ROOT', verdict: 'NON_OBJECT_ROOT' },
  { defect: 'BAD_NAME', verdict: 'BAD_NAME' },
];

describe('F13: planted defects', () => {
  for (const { defect, verdict, preferred } of CASES) {
    it(`${defect}${preferred === undefined ? '' : ` (${preferred})`}: the planted tool is quarantined with ${verdict}, the others stay ok`, async () => {
      const planted = plantF13(pickingRng(defect, ...(preferred === undefined ? [] : [preferred])), TOOL_POOL, 'd0');
      expect(planted.defect).toBe(defect);
      const others = tools('write_file', 'list_directory', 'echo', 'get_weather');
      const view = [others[0]!, others[1]!, planted.descriptor, others[2]!, others[3]!];
      const run = await runHand(
        handPlan({
          faults: ['F13'],
          servers: [handServer({ history: [step(0, 7, { 'acme.dev': view })], planted: [planted] })],
        }),
      );

      expect(run.of('defect_planted').map((e) => [e.digest, e.defect])).toEqual([
        [digestOf(planted.descriptor), defect],
      ]);
      expect(run.of('server_up')[0]?.traits).toEqual(['PLANTED:F13']);
      expect(scanEnds(run)[0]).toEqual([50, 'SNAPSHOT_PROVEN', 'OK']);
      const published = run.of('published')[0]!;
      expect([published.t, published.generation, published.sourceRevision]).toEqual([50, 1, 7]);
      expect(toolsOf(published).map((t) => [t.descriptorDigest, t.verdict])).toEqual([
        [digestOf(others[0]!), 'ok'],
        [digestOf(others[1]!), 'ok'],
        [digestOf(planted.descriptor), verdict],
        [digestOf(others[2]!), 'ok'],
        [digestOf(others[3]!), 'ok'],
      ]);
      expect(run.verdict.violations).toEqual([]);
    });
  }
});
