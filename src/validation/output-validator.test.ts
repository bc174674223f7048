/**
 * The output check of a result (SPEC section 9): `structuredContent` against an output schema of
 * an accepted dialect, errors as `#<instancePath> <keyword>`; a schema the host cannot pin or
 * compile makes every result invalid (it cannot be shown valid).
 */
import { describe, expect, it } from 'vitest';
import { OutputValidator } from './output-validator.ts';
import { DEFAULT_TRUST, DIALECT_DRAFT_07 } from './trust.ts';
import { ValidationMemos } from './validation-memos.ts';

const SCHEMA = {
  type: 'object',
  properties: { status: { type: 'string' }, count: { type: 'integer' } },
  required: ['status', 'count'],
  additionalProperties: false,
};

describe('OutputValidator', () => {
  const validator = new OutputValidator(DEFAULT_TRUST, new ValidationMemos(16_384, 1_000));

  it('accepts a conforming result and names what breaks the schema', () => {
    expect(validator.validate(SCHEMA, { status: 'done', count: 2 })).toEqual({ ok: true });
    expect(validator.validate(SCHEMA, { status: 'done' })).toEqual({ ok: false, errors: ['# required'] });
    expect(validator.validate(SCHEMA, { status: 'done', count: '2' })).toEqual({ ok: false, errors: ['#/count type'] });
    expect(validator.validate(SCHEMA, { status: 'done', count: 2, note: 'x' })).toEqual({
      ok: false,
      errors: ['# additionalProperties'],
    });
    expect(validator.validate(SCHEMA, 'done')).toEqual({ ok: false, errors: ['# type'] });
  });

  it('validates under the dialect the schema declares', () => {
    const draft07 = { ...SCHEMA, $schema: DIALECT_DRAFT_07 };
    expect(validator.validate(draft07, { status: 'done', count: 1.5 })).toEqual({
      ok: false,
      errors: ['#/count type'],
    });
    expect(validator.validate(draft07, { status: 'done', count: 1 })).toEqual({ ok: true });
  });

  it('a schema of an unaccepted dialect, or one ajv cannot compile, makes the result invalid', () => {
    expect(
      validator.validate({ ...SCHEMA, $schema: 'https://example.com/dialect' }, { status: 'done', count: 1 }),
    ).toEqual({
      ok: false,
      errors: ['# $schema'],
    });
    expect(validator.validate([], {})).toEqual({ ok: false, errors: ['# $schema'] });
    expect(validator.validate({ type: 'object', $ref: '#/$defs/missing' }, {})).toEqual({
      ok: false,
      errors: ['# schema'],
    });
  });
});
