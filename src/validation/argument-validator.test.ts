import { Ajv, MissingRefError } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArgumentValidator } from './argument-validator.ts';
import { REFERENCE_TOOLS } from './testing/support.ts';
import { DEFAULT_TRUST, DIALECT_DRAFT_07 } from './trust.ts';
import { ValidationMemos } from './validation-memos.ts';

/** Every ajv class inherits `compile` from ajv's core class: spying there counts all compiles. */
const AJV_CORE_PROTOTYPE = Object.getPrototypeOf(Ajv.prototype) as { compile: (...args: unknown[]) => unknown };

const PAIR = {
  type: 'object',
  properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
  required: ['pair'],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ArgumentValidator', () => {
  it('validates against a draft-07 schema of a reference server (read_text_file)', () => {
    const readTextFile = REFERENCE_TOOLS.filesystem.find((tool) => tool.name === 'read_text_file') as {
      inputSchema: unknown;
    };
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const results = [
      { path: '/tmp/a.txt' },
      { path: '/tmp/a.txt', head: 3 },
      {},
      { path: 5 },
      { path: 'a', tail: 'x' },
    ].map((args) => validator.validate('read_text_file', readTextFile.inputSchema, args));
    expect(results).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, errors: ['# required'] },
      { ok: false, errors: ['#/path type'] },
      { ok: false, errors: ['#/tail type'] },
    ]);
  });

  it('enforces prefixItems under 2020-12 (absent $schema) and ignores it under draft-07', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const draft07 = { ...PAIR, $schema: DIALECT_DRAFT_07 };
    expect([
      validator.validate('pair-2020', PAIR, { pair: ['a', 1] }),
      validator.validate('pair-2020', PAIR, { pair: ['a', 'b'] }),
      validator.validate('pair-07', draft07, { pair: ['a', 'b'] }),
    ]).toEqual([{ ok: true }, { ok: false, errors: ['#/pair/1 type'] }, { ok: true }]);
  });

  it('follows recursion and reports each failing branch once', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const tree = {
      type: 'object',
      properties: { value: { anyOf: [{ type: 'string' }, { type: 'number' }] }, child: { $ref: '#' } },
    };
    expect([
      validator.validate('tree', tree, { child: { child: { value: 1 } } }),
      validator.validate('tree', tree, { child: { child: { value: true } } }),
    ]).toEqual([{ ok: true }, { ok: false, errors: ['#/child/child/value type', '#/child/child/value anyOf'] }]);
  });

  it('keeps two descriptors that share a root $id apart', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const first = { $id: 'urn:catsim:x', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const second = { $id: 'urn:catsim:x', type: 'object', properties: { b: { type: 'number' } }, required: ['b'] };
    expect([
      validator.validate('first', first, { a: 's' }),
      validator.validate('second', second, { a: 's' }),
      validator.validate('second', second, { b: 1 }),
      validator.validate('first', first, { b: 1 }),
    ]).toEqual([
      { ok: true },
      { ok: false, errors: ['# required'] },
      { ok: true },
      { ok: false, errors: ['# required'] },
    ]);
  });

  it('keeps two descriptors that embed the same sub-schema $id apart', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const embedding = (type: string) => ({
      type: 'object',
      $defs: { v: { $id: 'urn:catsim:v', type } },
      properties: { v: { $ref: 'urn:catsim:v' } },
    });
    expect([
      validator.validate('string', embedding('string'), { v: 's' }),
      validator.validate('number', embedding('number'), { v: 's' }),
      validator.validate('number', embedding('number'), { v: 1 }),
      validator.validate('string', embedding('string'), { v: 1 }),
    ]).toEqual([{ ok: true }, { ok: false, errors: ['#/v type'] }, { ok: true }, { ok: false, errors: ['#/v type'] }]);
  });

  it('refuses to compile $id "urn:x": ajv\'s URI library needs urn:NID:NSS (RFC 8141); the content checks quarantine it', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    expect(() => validator.validate('urn-x', { $id: 'urn:x', type: 'object' }, {})).toThrow(
      'URN without nid cannot be serialized',
    );
  });

  it('compiles once per descriptor digest, and once per schema across digests', () => {
    // A schema no other test uses, so the process-wide compile memo starts cold for it.
    const schema = { ...PAIR, title: 'compile-count-probe' };
    const compile = vi.spyOn(AJV_CORE_PROTOTYPE, 'compile');
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    for (let call = 0; call < 5; call += 1) validator.validate('c1', schema, { pair: ['a', call] });
    expect(compile).toHaveBeenCalledTimes(1);
    // Another descriptor (say a renamed tool) with the very same input schema reuses the compile.
    validator.validate('c2', schema, { pair: ['a', 1] });
    expect(compile).toHaveBeenCalledTimes(1);
    validator.validate('c3', { ...schema, title: 'compile-count-probe-2' }, { pair: ['a', 'b'] });
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('throws TypeError for a schema without an accepted dialect, every time', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const draft04 = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
    expect(() => validator.validate('d4', draft04, {})).toThrow(TypeError);
    expect(() => validator.validate('d4', draft04, {})).toThrow(TypeError);
    expect(() => validator.validate('none', undefined, {})).toThrow(TypeError);
    const mixed = { type: 'object', $defs: { x: { $id: 'https://example.com/x', $schema: DIALECT_DRAFT_07 } } };
    expect(() => validator.validate('mixed', mixed, {})).toThrow(TypeError);
  });

  it('throws MissingRefError for a remote reference, without fetching it', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    expect(() =>
      validator.validate('remote', { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }, {}),
    ).toThrow(MissingRefError);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('never modifies the arguments', () => {
    const validator = new ArgumentValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));
    const schema = { type: 'object', properties: { n: { type: 'number', default: 3 } }, additionalProperties: false };
    const args = { extra: 'x' };
    expect(validator.validate('defaults', schema, args)).toEqual({ ok: false, errors: ['# additionalProperties'] });
    expect(args).toEqual({ extra: 'x' });
  });
});
