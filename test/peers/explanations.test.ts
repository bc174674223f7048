/**
 * The explanations of the side-by-side table (cores/peers/explanations.ts) stay in step with what
 * the peers are found to do: every (peer, invariant) a campaign finds has its sentence, every
 * sentence names a peer and an invariant that exist, and each library's pinned version is the one
 * installed. A finding without a sentence fails here, listed by name, instead of printing "no
 * explanation written yet" in the README for good.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_FAILED, INVARIANT_IDS } from '../../oracle/index.ts';
import { runCampaign } from '../../runner/campaign.ts';
import { coreNames } from '../../cores/index.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { explanationOf, PEER_EXPLANATIONS } from '../../cores/peers/explanations.ts';
import { PEER_LIBRARIES } from '../../cores/peers/index.ts';

const PEERS = coreNames().filter((name) => name.startsWith('peer:'));
/**
 * Rounds 0..9 of seed 1 hold the first finding of every (peer, invariant) of docs/PEERS.md's 100
 * rounds of the default scenario but one kind: I33 of the peers that reach modern servers only
 * through a gateway or not at all, first found in round 14 (round 15 before the AI SDK peer
 * discovered protocol versions). Those sentences were written from replays of round 14; running
 * fifteen rounds here for them would double this file's time.
 */
const ROUNDS = 10;

describe('peer explanations', () => {
  it('name only registered peers and known verdict ids, one sentence each', () => {
    const verdicts = new Set<string>([...INVARIANT_IDS, CORE_FAILED]);
    for (const [core, byInvariant] of Object.entries(PEER_EXPLANATIONS)) {
      expect(PEERS, core).toContain(core);
      for (const [invariant, text] of Object.entries(byInvariant)) {
        expect(verdicts.has(invariant), `${core} ${invariant}`).toBe(true);
        expect(text, `${core} ${invariant}`).toMatch(/^[A-Z`][^\n]*[.)]$/);
      }
    }
  });

  it('pin the versions of the libraries installed', () => {
    for (const [core, library] of Object.entries(PEER_LIBRARIES)) {
      expect(PEERS, core).toContain(core);
      const installed = JSON.parse(readFileSync(`node_modules/${library.packageName}/package.json`, 'utf8')) as {
        version: string;
      };
      expect(installed.version, library.packageName).toBe(library.version);
    }
  });

  it(`cover every (peer, invariant) that seed 1's rounds 0..${ROUNDS - 1} find`, async () => {
    const missing: string[] = [];
    for (const core of PEERS) {
      const report = await runCampaign({
        seed: '1',
        scenario: loadScenario('default'),
        core,
        firstRound: 0,
        rounds: ROUNDS,
        workers: 0,
        determinismEvery: 0,
      });
      const found = new Set(
        report.failingRounds.flatMap((round) => round.violations.map((violation) => violation.invariant)),
      );
      for (const invariant of found)
        if (explanationOf(core, invariant) === undefined) missing.push(`${core} ${invariant}`);
    }
    expect(missing, 'findings without an explanation in cores/peers/explanations.ts').toEqual([]);
  }, 240_000);
});
