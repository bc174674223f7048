/**
 * Planted defects (F6, F13): descriptors built to fail one content check of SPEC section 5,
 * each labelled so the oracle can tell whether the core admitted it (I5). Every planted
 * descriptor is unique to its round (its description names the plant), so a label never marks
 * an ordinary descriptor.
 */
import type { Rng } from '../random.ts';
import type { PoolTool } from './tool-pool.ts';
import type { PlantedDefect, ToolDescriptor } from './types.ts';

type Defect = PlantedDefect['defect'];

const F13_DEFECTS: readonly Defect[] = ['UNKNOWN_DIALECT', 'UNRESOLVED_REF', 'REMOTE_REF', 'OVERSIZED_DESCRIPTOR', 'NON_OBJECT_ROOT', 'BAD_NAME'];

/** Size of the description that makes a descriptor oversized (over the 64 KiB default limit). */
const OVERSIZED_DESCRIPTION_CHARS = 70 * 1024;

function base(rng: Rng, pool: readonly PoolTool[], tag: string): ToolDescriptor {
  const tool = structuredClone(rng.pick(pool).descriptor);
  return { ...tool, name: `${String(tool.name)}_${tag}`, description: `${String(tool.description ?? '')} [planted ${tag}]` };
}

function schemaOf(tool: ToolDescriptor): Record<string, unknown> {
  return tool.inputSchema as Record<string, unknown>;
}

/** One F13 defect: unknown dialect, unresolved or remote `$ref`, oversized, non-object root, bad name. */
export function plantF13(rng: Rng, pool: readonly PoolTool[], id: string): PlantedDefect {
  const defect = rng.pick(F13_DEFECTS);
  const tool = base(rng, pool, id);
  const schema = { ...schemaOf(tool) };
  switch (defect) {
    case 'UNKNOWN_DIALECT': schema.$schema = rng.pick(['http://json-schema.org/draft-04/schema#', 'https://example.com/private-dialect']); break;
    case 'UNRESOLVED_REF': schema.properties = { ...(schema.properties as object), extra: { $ref: '#/$defs/missing' } }; break;
    case 'REMOTE_REF': schema.properties = { ...(schema.properties as object), extra: { $ref: 'https://schemas.example.com/extra.json' } }; break;
    case 'OVERSIZED_DESCRIPTOR': tool.description = `${String(tool.description)} ${'x'.repeat(OVERSIZED_DESCRIPTION_CHARS)}`; break;
    case 'NON_OBJECT_ROOT': tool.inputSchema = { type: 'array', items: { type: 'string' } }; return { defect, descriptor: tool };
    case 'BAD_NAME': tool.name = `bad name ${id}`; break;
    default: break;
  }
  tool.inputSchema = schema;
  return { defect, descriptor: tool };
}

/**
 * One F6 pair: the same name twice with different schemas, or two names equal after the
 * normalisation hosts apply (case, `-` and `_`). Both members are labelled DUPLICATE_NAME.
 */
export function plantF6(rng: Rng, pool: readonly PoolTool[], id: string, normalisedTwinFraction: number): PlantedDefect[] {
  const first = base(rng, pool, id);
  const second = structuredClone(first);
  second.description = `${String(first.description)} (second)`;
  schemaOf(second).properties = { ...(schemaOf(second).properties as object), variant: { type: 'integer' } };
  if (rng.chance(normalisedTwinFraction)) second.name = String(first.name).toUpperCase().replaceAll('_', '-');
  return [{ defect: 'DUPLICATE_NAME', descriptor: first }, { defect: 'DUPLICATE_NAME', descriptor: second }];
}
