import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.ts';
import { sampleArgs } from './sample-args.ts';

const CATALOGS = ['everything', 'filesystem', 'memory'];
// The SDK's own validator (ajv with ajv-formats), so `format` is checked too.
const validator = new AjvJsonSchemaValidator();

describe('sampleArgs', () => {
  it('fills required properties only, per type', () => {
    const schema = {
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer', minimum: 3 },
        b: { type: 'boolean' },
        a: { type: 'array', items: { type: 'string' } },
        optional: { type: 'string' },
      },
      required: ['s', 'n', 'i', 'b', 'a'],
    };
    expect(sampleArgs(schema)).toEqual({ s: 'x', n: 1, i: 3, b: true, a: [] });
  });

  it('takes the first enum value, const, and a value of a known format', () => {
    const schema = {
      type: 'object',
      properties: {
        e: { type: 'string', enum: ['b', 'a'] },
        c: { const: 7 },
        mail: { type: 'string', format: 'email' },
        at: { type: 'string', format: 'date-time' },
        link: { type: 'string', format: 'uri' },
      },
      required: ['e', 'c', 'mail', 'at', 'link'],
    };
    expect(sampleArgs(schema)).toEqual({
      e: 'b',
      c: 7,
      mail: 'a@example.com',
      at: '2026-01-01T00:00:00Z',
      link: 'https://example.com/',
    });
    expect(validator.getValidator(schema)(sampleArgs(schema)).valid).toBe(true);
  });

  it('honours minItems, minLength and numeric bounds, and recurses into nested objects', () => {
    const schema = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          minItems: 2,
          items: {
            type: 'object',
            properties: { k: { type: 'string', minLength: 3 }, o: { type: 'number' } },
            required: ['k'],
          },
        },
        low: { type: 'number', exclusiveMinimum: 0, maximum: 0.5 },
        capped: { type: 'integer', maximum: -4 },
      },
      required: ['list', 'low', 'capped'],
    };
    const args = sampleArgs(schema);
    expect(args).toEqual({ list: [{ k: 'xxx' }, { k: 'xxx' }], low: 0.5, capped: -4 });
    expect(validator.getValidator(schema)(args).valid).toBe(true);
  });

  it('follows local $ref and takes the first branch of anyOf, merges allOf', () => {
    const schema = {
      type: 'object',
      $defs: {
        window: { type: 'object', properties: { minutes: { type: 'integer', minimum: 1 } }, required: ['minutes'] },
      },
      properties: {
        w: { $ref: '#/$defs/window' },
        u: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        m: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'boolean' } }, required: ['b'] },
          ],
        },
      },
      required: ['w', 'u', 'm'],
    };
    expect(sampleArgs(schema)).toEqual({ w: { minutes: 1 }, u: 1, m: { a: 'x', b: true } });
  });

  it('is total: a schema that is not an object schema gives {}, a recursive $ref ends', () => {
    expect(sampleArgs(undefined)).toEqual({});
    expect(sampleArgs({ type: 'string' })).toEqual({});
    const recursive = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
    expect(() => sampleArgs(recursive)).not.toThrow();
  });

  it('gives arguments that pass the input schema of every tool of the shipped catalogs', () => {
    for (const name of CATALOGS) {
      const { pool } = loadCatalog(`scenarios/catalogs/${name}.json`);
      expect(pool.length).toBeGreaterThan(0);
      for (const { descriptor, sampleArgs: args } of pool) {
        const result = validator.getValidator(descriptor.inputSchema as Record<string, unknown>)(args);
        expect(result.valid, `${name}/${String(descriptor.name)}: ${result.errorMessage ?? ''}`).toBe(true);
      }
    }
  });
});
