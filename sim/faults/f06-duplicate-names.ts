/**
 * F6 (trait): the same tool name twice with different schemas, or two names equal after the
 * normalisation hosts apply (case, `-` and `_`). Both members are planted and labelled
 * DUPLICATE_NAME (`defect_planted`), and a core must quarantine both (SPEC section 5, I5).
 *
 * Models the catalog-admission report ("same-name tools with differing schemas").
 *
 * How often: on 3 servers in 4 of a round that enables F6, one pair in one audience's first view;
 * half the pairs differ only after normalisation (`read_file` and `READ-FILE`).
 */
import type { Rng } from '../random.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import type { PlantedDefect, RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { plantedCopy, schemaOf } from './internal/planted.ts';
import { fraction } from './rates.ts';

/** How often F6 acts (scenario `faultRates.F6`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F6 that get a duplicate-name pair.'),
  normalisedTwinFraction: fraction(
    0.5,
    'Chance that the second name differs from the first only after normalisation (case, - and _).',
  ),
};

/**
 * One F6 pair: the same name twice with different schemas, or (with `normalisedTwinFraction`) two
 * names equal after the normalisation hosts apply (case, `-` and `_`). Both are labelled
 * DUPLICATE_NAME.
 */
export function plantF6(
  rng: Rng,
  pool: readonly PoolTool[],
  id: string,
  normalisedTwinFraction: number,
): PlantedDefect[] {
  const first = plantedCopy(rng, pool, id);
  const second = structuredClone(first);
  second.description = `${String(first.description)} (second)`;
  schemaOf(second).properties = { ...(schemaOf(second).properties as object), variant: { type: 'integer' } };
  if (rng.chance(normalisedTwinFraction)) second.name = String(first.name).toUpperCase().replaceAll('_', '-');
  return [
    { defect: 'DUPLICATE_NAME', descriptor: first },
    { defect: 'DUPLICATE_NAME', descriptor: second },
  ];
}

const isDuplicate = (planted: PlantedDefect) => planted.defect === 'DUPLICATE_NAME';

/** F6: duplicate names. */
export const F6: FaultDefinition<'F6', typeof RATES> = {
  id: 'F6',
  rates: RATES,
  title: 'same name twice with different schemas; names equal after normalisation',
  lifetime: 'trait',
  probes: ['defect-quarantined', 'quarantined-tool-refused'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.planted.some((p) => p.defect === 'DUPLICATE_NAME')),
  generate: {
    plant(draft, rng, rates) {
      const pair = plantF6(rng, draft.pool, `${draft.server.id}t`, rates.normalisedTwinFraction);
      draft.server.planted.push(...pair);
      draft.place(
        rng,
        pair.map((planted) => planted.descriptor),
      );
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.planted.filter(isDuplicate)),
  traits: (server) => (server.planted.some((p) => p.defect === 'DUPLICATE_NAME') ? ['PLANTED:F6'] : []),
};
