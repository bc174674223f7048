/**
 * The structured results of a round (F33, SPEC section 9), each with the oracle's own verdict on it
 * and what the core said of it: one entry per `result_sent` of the world, the content validated
 * here against the output schema the world wrote beside it (ajv, the dialect of the schema's
 * `$schema`: 2020-12 when absent, the MCP default; draft-07 when it says so), never from anything
 * the core reports. I36 (invariants/output-schema.ts) and the round's metrics (`results`, which
 * say how many the core left unchecked) both read it.
 *
 * Built once per round by check.ts; an ajv instance is made only for a round that has a
 * structured result, and compiles are kept for that round only (nothing outlives the check).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { GroundTruth } from './ground-truth.ts';
import type { Observations } from './observations.ts';
import type { ReceiptOutcomeEvent, ResultSentEvent } from './trace.ts';

/** One structured result the world sent, the oracle's verdict on it, and the core's outcome of its lease. */
export interface ResultJudgement {
  readonly sent: ResultSentEvent;
  /**
   * What breaks the schema, as `#<instancePath> <keyword>` (empty: the content conforms), or null
   * when the oracle cannot read the schema (not a JSON object, or a `$schema` it does not know):
   * such a result is not judged.
   */
  readonly errors: readonly string[] | null;
  /** The core's first `receipt_outcome` of the result's lease, if it wrote one. */
  readonly outcome: ReceiptOutcomeEvent | undefined;
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Every `result_sent` of the round with its verdict and outcome, in trace order (empty: none). */
export function judgeResults(truth: GroundTruth, observed: Observations): ResultJudgement[] {
  if (truth.resultsSent.length === 0) return [];
  const outcomes = new Map<string, ReceiptOutcomeEvent>();
  for (const outcome of observed.receiptOutcomes)
    if (!outcomes.has(outcome.leaseId)) outcomes.set(outcome.leaseId, outcome);
  const validators = new Validators();
  return truth.resultsSent.map((sent) => ({
    sent,
    errors: validators.errorsOf(sent.outputSchema, sent.structuredContent),
    outcome: sent.leaseId === null ? undefined : outcomes.get(sent.leaseId),
  }));
}

/** The round's ajv instances (one per dialect, made when first needed) and compiles by schema text. */
class Validators {
  #ajv2020: Ajv2020 | undefined;
  #ajv07: Ajv | undefined;
  readonly #compiled = new Map<string, ValidateFunction | null>();

  errorsOf(schema: unknown, content: unknown): string[] | null {
    const validate = this.#validatorOf(schema);
    if (validate === null) return null;
    if (validate(content)) return [];
    return [...new Set((validate.errors ?? []).map((error) => `#${error.instancePath} ${error.keyword}`))];
  }

  #validatorOf(schema: unknown): ValidateFunction | null {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
    const text = JSON.stringify(schema);
    if (!this.#compiled.has(text)) this.#compiled.set(text, this.#compile(schema as Record<string, unknown>));
    return this.#compiled.get(text) ?? null;
  }

  #compile(schema: Record<string, unknown>): ValidateFunction | null {
    const dialect = schema.$schema;
    const options = { strict: false, validateFormats: false, addUsedSchema: false, logger: false } as const;
    try {
      if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.test(dialect)))
        return (this.#ajv2020 ??= new Ajv2020(options)).compile(schema);
      if (typeof dialect === 'string' && DRAFT_07.test(dialect))
        return (this.#ajv07 ??= new Ajv(options)).compile(schema);
    } catch {
      return null;
    }
    return null;
  }
}
