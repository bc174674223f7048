/**
 * I36 on hand-built traces: s0 answers read_file (lease l0) with structured content under F33's
 * schema (a required string `status`, a required integer `count`, `additionalProperties: false`),
 * and the core writes the outcome of l0 after it. A violating content (each of F33's three kinds)
 * reported `conforms`, or `ok`, fails; reported `violates` with outcome `error`, holds; a
 * conforming one reported `violates` fails the other way. Outcomes without `output`, `unknown`
 * ones, missing ones and schemas the oracle cannot read judge nothing; the first are counted as
 * unchecked in the metrics, which makes the round NOT JUDGED on `results`.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { unjudgedIn } from '../not-judged.ts';
import { digestOf, ID0, TraceBuilder } from '../testing/trace-builder.ts';

const SCHEMA = {
  type: 'object',
  properties: { status: { type: 'string' }, count: { type: 'integer' } },
  required: ['status', 'count'],
  additionalProperties: false,
};

interface Case {
  content: unknown;
  outcome?: { outcome: 'ok' | 'error' | 'unknown'; output?: 'conforms' | 'violates' };
  schema?: unknown;
}

/** The trace of one structured result and its outcome; returns the outcome's seq (-1 without one). */
function round(c: Case): { verdict: ReturnType<typeof checkTrace>; outcomeSeq: number } {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.emit('world', 'result_sent', {
    server: 's0',
    audience: 'acme.dev',
    tool: 'read_file',
    leaseId: 'l0',
    descriptorDigest: digestOf('read_file'),
    outputSchema: c.schema ?? SCHEMA,
    structuredContent: c.content,
  });
  const outcomeSeq = c.outcome === undefined ? -1 : b.emit('core', 'receipt_outcome', { leaseId: 'l0', ...c.outcome });
  b.roundEnd();
  return { verdict: checkTrace(b.build()), outcomeSeq };
}

function i36(c: Case): { found: string[]; checked: number; unchecked: number | undefined } {
  const { verdict, outcomeSeq } = round(c);
  return {
    found: verdict.violations
      .filter((v) => v.invariant === 'I36')
      .map((v) => `${v.seq === outcomeSeq ? 'outcome' : v.seq} ${v.code}: ${v.evidence}`),
    checked: verdict.checked.I36,
    unchecked: verdict.metrics.results?.unchecked,
  };
}

const PASSED = (errors: string, outcome: string, output: string) =>
  `outcome INVALID_RESULT_PASSED: the result of "read_file" on s0 for acme.dev (lease l0, result_sent seq 1) breaks its output schema (${errors}), but receipt_outcome seq 2 passed it on as ${outcome}, output ${output}`;

describe('I36: a result that breaks its output schema is never passed on as valid', () => {
  it('each of F33 kinds reported conforms fails, with the errors the oracle found itself', () => {
    expect(i36({ content: { status: 'done' }, outcome: { outcome: 'ok', output: 'conforms' } })).toEqual({
      found: [PASSED('# required', 'ok', 'conforms')],
      checked: 1,
      unchecked: 0,
    });
    expect(
      i36({ content: { status: 'done', count: '3' }, outcome: { outcome: 'ok', output: 'conforms' } }).found,
    ).toEqual([PASSED('#/count type', 'ok', 'conforms')]);
    expect(
      i36({ content: { status: 'done', count: 3, note: 'x' }, outcome: { outcome: 'ok', output: 'conforms' } }).found,
    ).toEqual([PASSED('# additionalProperties', 'ok', 'conforms')]);
  });

  it('flagged violates but still ok fails; violates with error holds', () => {
    expect(i36({ content: { status: 'done' }, outcome: { outcome: 'ok', output: 'violates' } }).found).toEqual([
      PASSED('# required', 'ok', 'violates'),
    ]);
    expect(i36({ content: { status: 'done' }, outcome: { outcome: 'error', output: 'violates' } })).toEqual({
      found: [],
      checked: 1,
      unchecked: 0,
    });
  });

  it('a conforming result reported violates fails; reported conforms holds', () => {
    expect(
      i36({ content: { status: 'done', count: 3 }, outcome: { outcome: 'error', output: 'violates' } }).found,
    ).toEqual([
      'outcome VALID_RESULT_REFUSED: the result of "read_file" on s0 for acme.dev (lease l0, result_sent seq 1) conforms to its output schema, but receipt_outcome seq 2 says it violates it',
    ]);
    expect(i36({ content: { status: 'done', count: 3 }, outcome: { outcome: 'ok', output: 'conforms' } })).toEqual({
      found: [],
      checked: 1,
      unchecked: 0,
    });
  });

  it('an outcome without output is not judged but counted unchecked: NOT JUDGED on results', () => {
    const judged = i36({ content: { status: 'done' }, outcome: { outcome: 'ok' } });
    expect(judged).toEqual({ found: [], checked: 0, unchecked: 1 });
    expect(unjudgedIn(round({ content: { status: 'done' }, outcome: { outcome: 'ok' } }).verdict.metrics)).toEqual({
      results: 1,
    });
  });

  it('no outcome, an unknown one, or a schema the oracle cannot read: nothing judged, nothing unchecked', () => {
    expect(i36({ content: { status: 'done' } })).toEqual({ found: [], checked: 0, unchecked: 0 });
    expect(i36({ content: { status: 'done' }, outcome: { outcome: 'unknown' } })).toEqual({
      found: [],
      checked: 0,
      unchecked: 0,
    });
    const unknownDialect = { ...SCHEMA, $schema: 'https://example.com/my-dialect' };
    expect(
      i36({ content: { status: 'done' }, outcome: { outcome: 'ok', output: 'conforms' }, schema: unknownDialect }),
    ).toEqual({ found: [], checked: 0, unchecked: 0 });
  });

  it('a draft-07 schema is validated as draft-07', () => {
    const draft07 = { ...SCHEMA, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(
      i36({ content: { status: 'done', count: 1.5 }, outcome: { outcome: 'ok', output: 'conforms' }, schema: draft07 })
        .found,
    ).toEqual([PASSED('#/count type', 'ok', 'conforms')]);
  });
});
