/**
 * The base of a planted descriptor (F6, F13): a copy of a pool tool, renamed and described after
 * its plant tag, so that every planted descriptor is unique to its round and a label never marks
 * an ordinary descriptor.
 */
import type { Rng } from '../../random.ts';
import type { PoolTool } from '../../plan/tool-pool.ts';
import type { ToolDescriptor } from '../../plan/types.ts';

/** A fresh copy of a drawn pool tool, named `<name>_<tag>` and described `... [planted <tag>]`. */
export function plantedCopy(rng: Rng, pool: readonly PoolTool[], tag: string): ToolDescriptor {
  const tool = structuredClone(rng.pick(pool).descriptor);
  return {
    ...tool,
    name: `${String(tool.name)}_${tag}`,
    description: `${String(tool.description ?? '')} [planted ${tag}]`,
  };
}

/** The input schema of a descriptor, as an object to edit. */
export function schemaOf(tool: ToolDescriptor): Record<string, unknown> {
  return tool.inputSchema as Record<string, unknown>;
}
