import { describe, expect, it } from 'vitest';
import { worldContentDefect, DESCRIPTOR_BYTES_MAX } from './content-defects.ts';
import { generatePlan } from './generate.ts';
import { loadScenario } from './scenario.ts';
import { TOOL_POOL } from './tool-pool.ts';

const ok = {
  name: 'read_file',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const alone = (tool: unknown) => worldContentDefect(tool, [tool]);
const withSchema = (inputSchema: unknown) => alone({ ...ok, inputSchema });

describe('worldContentDefect: the world reading of SPEC section 5', () => {
  it('accepts a plain tool, a draft-07 tool, local references and recursion', () => {
    expect(alone(ok)).toBeNull();
    expect(withSchema({ ...ok.inputSchema, $schema: 'http://json-schema.org/draft-07/schema#' })).toBeNull();
    expect(withSchema({ ...ok.inputSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBeNull();
    expect(
      withSchema({
        type: 'object',
        $defs: { p: { type: 'string' } },
        properties: { a: { $ref: '#/$defs/p' }, self: { $ref: '#' } },
      }),
    ).toBeNull();
  });

  it('names each defect a correct core must quarantine', () => {
    expect(alone('read_file')).toBe('MALFORMED_DESCRIPTOR');
    expect(alone({ name: 'x' })).toBe('MALFORMED_DESCRIPTOR');
    expect(alone({ ...ok, name: 'read file' })).toBe('BAD_NAME');
    expect(alone({ ...ok, name: 'a'.repeat(129) })).toBe('BAD_NAME');
    expect(alone({ ...ok, name: 'a'.repeat(128) })).toBeNull();
    expect(alone({ ...ok, description: 'x'.repeat(DESCRIPTOR_BYTES_MAX) })).toBe('OVERSIZED_DESCRIPTOR');
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 31; i += 1) deep = { type: 'object', properties: { n: deep } };
    // Each level adds two objects (the schema and its `properties`): depth 63.
    expect(withSchema(deep)).toBe('SCHEMA_TOO_DEEP');
    expect(withSchema({ type: 'array', items: { type: 'string' } })).toBe('NON_OBJECT_ROOT');
    expect(withSchema({ properties: {} })).toBe('NON_OBJECT_ROOT');
    expect(alone({ ...ok, outputSchema: { type: 'string' } })).toBe('NON_OBJECT_ROOT');
    expect(withSchema({ ...ok.inputSchema, $schema: 'http://json-schema.org/draft-04/schema#' })).toBe(
      'UNKNOWN_DIALECT',
    );
    expect(withSchema({ ...ok.inputSchema, $schema: 'https://example.com/private-dialect' })).toBe('UNKNOWN_DIALECT');
    expect(withSchema({ type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } })).toBe(
      'REMOTE_REF',
    );
    expect(withSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toBe('UNRESOLVED_REF');
    expect(withSchema({ type: 'object', required: true })).toBe('INVALID_SCHEMA');
    expect(withSchema({ type: 'object', properties: { a: { type: 'strin' } } })).toBe('INVALID_SCHEMA');
  });

  it('marks names equal after case folding and - = _ when the descriptors differ', () => {
    const twin = { ...ok, name: 'Read-File', description: 'another' };
    expect(worldContentDefect(ok, [ok, twin])).toBe('DUPLICATE_NAME');
    expect(worldContentDefect(twin, [ok, twin])).toBe('DUPLICATE_NAME');
    expect(worldContentDefect(ok, [ok, structuredClone(ok)])).toBeNull();
  });

  it('finds nothing in the built-in pool, nor in any unplanted descriptor of 300 generated rounds', () => {
    for (const entry of TOOL_POOL) expect(alone(entry.descriptor)).toBeNull();
    const scenario = loadScenario('default');
    const flagged: string[] = [];
    for (let round = 0; round < 300; round += 1) {
      for (const server of generatePlan('content-defects', round, scenario).servers) {
        const planted = new Set(server.planted.map((p) => JSON.stringify(p.descriptor)));
        for (const step of server.history) {
          for (const view of Object.values(step.views)) {
            for (const tool of view) {
              if (planted.has(JSON.stringify(tool))) continue;
              const defect = worldContentDefect(
                tool,
                view.filter((t) => !planted.has(JSON.stringify(t))),
              );
              if (defect !== null) flagged.push(`${round} ${String(tool.name)} ${defect}`);
            }
          }
        }
      }
    }
    expect(flagged).toEqual([]);
  });
});
