/**
 * F13 (trait): planted defective descriptors: an unknown `$schema` dialect, an unresolved or
 * remote `$ref`, an oversized descriptor, a non-object input schema root, or a bad tool name. Each
 * is labelled (`defect_planted`) so the oracle can tell whether the core admitted it (I5).
 *
 * Models the catalog-admission report's gate ("acceptance of unknown schema dialects is zero") and
 * SPEC section 5's content checks.
 *
 * How often: on 3 servers in 4 of a round that enables F13, 1 or 2 defects, each drawn uniformly
 * from the six kinds, in one audience's first view.
 */
import type { Rng } from '../random.ts';
import { drawIn } from '../plan/draws.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import type { PlantedDefect, RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { plantedCopy, schemaOf } from './internal/planted.ts';
import { fraction, counts } from './rates.ts';

/** How often F13 acts (scenario `faultRates.F13`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F13 that get planted defects.'),
  defectsPerServer: counts(1, 2, 'Planted defects per such server.'),
};

type Defect = PlantedDefect['defect'];

const F13_DEFECTS: readonly Defect[] = [
  'UNKNOWN_DIALECT',
  'UNRESOLVED_REF',
  'REMOTE_REF',
  'OVERSIZED_DESCRIPTOR',
  'NON_OBJECT_ROOT',
  'BAD_NAME',
];

/** Size of the description that makes a descriptor oversized (over the 64 KiB default limit). */
const OVERSIZED_DESCRIPTION_CHARS = 70 * 1024;

/** One F13 defect: unknown dialect, unresolved or remote `$ref`, oversized, non-object root, bad name. */
export function plantF13(rng: Rng, pool: readonly PoolTool[], id: string): PlantedDefect {
  const defect = rng.pick(F13_DEFECTS);
  const tool = plantedCopy(rng, pool, id);
  const schema = { ...schemaOf(tool) };
  switch (defect) {
    case 'UNKNOWN_DIALECT':
      schema.$schema = rng.pick(['http://json-schema.org/draft-04/schema#', 'https://example.com/private-dialect']);
      break;
    case 'UNRESOLVED_REF':
      schema.properties = { ...(schema.properties as object), extra: { $ref: '#/$defs/missing' } };
      break;
    case 'REMOTE_REF':
      schema.properties = {
        ...(schema.properties as object),
        extra: { $ref: 'https://schemas.example.com/extra.json' },
      };
      break;
    case 'OVERSIZED_DESCRIPTOR':
      tool.description = `${String(tool.description)} ${'x'.repeat(OVERSIZED_DESCRIPTION_CHARS)}`;
      break;
    case 'NON_OBJECT_ROOT':
      tool.inputSchema = { type: 'array', items: { type: 'string' } };
      return { defect, descriptor: tool };
    case 'BAD_NAME':
      tool.name = `bad name ${id}`;
      break;
    default:
      break;
  }
  tool.inputSchema = schema;
  return { defect, descriptor: tool };
}

const isContentDefect = (planted: PlantedDefect) => planted.defect !== 'DUPLICATE_NAME';

/** F13: planted content defects. */
export const F13: FaultDefinition<'F13', typeof RATES> = {
  id: 'F13',
  rates: RATES,
  title: 'unknown `$schema` dialect, unresolved or remote `$ref`, oversized descriptor, non-object root',
  lifetime: 'trait',
  probes: ['defect-quarantined', 'quarantined-tool-refused'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.planted.some((p) => p.defect !== 'DUPLICATE_NAME')),
  generate: {
    plant(draft, rng, rates) {
      const planted = Array.from({ length: drawIn(rng, rates.defectsPerServer) }, (_, i) =>
        plantF13(rng, draft.pool, `${draft.server.id}d${i}`),
      );
      draft.server.planted.push(...planted);
      draft.place(
        rng,
        planted.map((p) => p.descriptor),
      );
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.planted.filter(isContentDefect)),
  traits: (server) => (server.planted.some((p) => p.defect !== 'DUPLICATE_NAME') ? ['PLANTED:F13'] : []),
};
