/**
 * The output check of a call's result (SPEC section 9; MCP 2025-11-25 `server/tools.mdx`: "Clients
 * SHOULD validate structured results against this schema"): a result's `structuredContent` is
 * validated by the ajv class of the output schema's pinned dialect, the schema of the version the
 * host admitted (its manifest's `outputSchema`, which is the admitted descriptor's). The compile is
 * memoised by the schema's text in the host's memos, as the argument check's is.
 *
 * Workflow: construct once per trust configuration, then call `validate` for each result that
 * carries `structuredContent` of a tool that declares an output schema.
 */
import type { ErrorObject } from 'ajv';
import type { ArgumentVerdict } from './argument-validator.ts';
import { pinSchema } from './internal/pinned-schema.ts';
import type { TrustConfig } from './trust.ts';
import type { ValidationMemos } from './validation-memos.ts';

/** The outcome of one output check: `ok`, or the errors (`#<instancePath> <keyword>`), as an argument check's. */
export type OutputVerdict = ArgumentVerdict;

const OK: OutputVerdict = Object.freeze({ ok: true });

/** Validates results' `structuredContent` against pinned output schemas. */
export class OutputValidator {
  readonly #trust: TrustConfig;
  readonly #memos: ValidationMemos;

  /** `trust`: the configuration whose accepted dialects pin the schemas; `memos`: where compiles are kept. */
  constructor(trust: TrustConfig, memos: ValidationMemos) {
    this.#trust = trust;
    this.#memos = memos;
  }

  /**
   * Validates `structuredContent` against `outputSchema`. Never throws: a schema that is not a
   * JSON object pinned to an accepted dialect gives `# $schema`, one ajv cannot compile gives
   * `# schema` (the result cannot be shown valid, so it is not). Errors as the argument check's:
   * `#<instancePath> <keyword>`, e.g. `# required`, `#/count type`, `# additionalProperties`.
   */
  validate(outputSchema: unknown, structuredContent: unknown): OutputVerdict {
    const isObject = typeof outputSchema === 'object' && outputSchema !== null && !Array.isArray(outputSchema);
    const pinned = isObject ? pinSchema(outputSchema as Record<string, unknown>, this.#trust) : null;
    if (pinned === null) return { ok: false, errors: ['# $schema'] };
    let check: ReturnType<ValidationMemos['schemas']['compilePinned']>;
    try {
      check = this.#memos.schemas.compilePinned(pinned.schema, pinned.dialect, this.#trust);
    } catch {
      return { ok: false, errors: ['# schema'] };
    }
    return check(structuredContent) ? OK : { ok: false, errors: describeErrors(check.errors ?? []) };
  }
}

/** `#<instancePath> <keyword>` per error, without duplicates, in ajv's order. */
function describeErrors(errors: readonly ErrorObject[]): string[] {
  return [...new Set(errors.map((error) => `#${error.instancePath} ${error.keyword}`))];
}
