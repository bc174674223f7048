/**
 * The pinned-schema argument check of the gate (SPEC section 7, ARGS_INVALID): the arguments of
 * a `tools/call` are validated by the ajv class of the tool's pinned dialect, with
 * `addUsedSchema: false` (servers reuse `$id`s), compiled once per descriptor digest.
 *
 * Workflow: construct once per trust configuration, then call `validate` for every call. The
 * gate only asks about tools whose content checks passed, so the errors this class throws mark
 * a broken invariant in the caller, not a bad server.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { pinSchema } from './internal/pinned-schema.ts';
import { validationDigest, type TrustConfig } from './trust.ts';
import type { ValidationMemos } from './validation-memos.ts';

/** The outcome of one argument check. */
export type ArgumentVerdict = { ok: true } | { ok: false; errors: string[] };

const OK: ArgumentVerdict = Object.freeze({ ok: true });

/** Validates `tools/call` arguments against pinned input schemas. */
export class ArgumentValidator {
  readonly #trust: TrustConfig;
  readonly #memos: ValidationMemos;

  /**
   * `trust`: the configuration whose accepted dialects pin the schemas (SPEC section 5).
   * `memos`: where compiled validators are kept, keyed by `${validationDigest}:${descriptorDigest}`
   * (a validator is a pure function of the pinned schema, so hosts that share their memos, as a
   * campaign's per-round hosts do, share the compile of a descriptor seen before).
   */
  constructor(trust: TrustConfig, memos: ValidationMemos) {
    this.#trust = trust;
    this.#memos = memos;
  }

  /**
   * Validates `args` (the call's `arguments`; pass `{}` when the call has none) against
   * `inputSchema`, the input schema of the descriptor whose digest is `descriptorDigest`. The
   * validator is compiled on the first call for a digest and reused: a different schema under
   * the same digest is not looked at. `args` is never modified.
   *
   * Errors are short stable strings, `#<instancePath> <keyword>` (the JSON-pointer fragment of
   * the failing value, RFC 6901 section 6, and the failing JSON Schema keyword), e.g.
   * `# required` or `#/pair/1 type`. `allErrors` is off, so ajv stops at the first failing
   * keyword (plus the branch errors of a failing `anyOf`/`oneOf`): the list is short.
   * @throws TypeError when `inputSchema` is not a JSON object pinned to an accepted dialect.
   * @throws the ajv compile error when the schema does not compile (an invalid schema, a
   *   reference outside the document: ajv never fetches, it throws).
   */
  validate(descriptorDigest: string, inputSchema: unknown, args: unknown): ArgumentVerdict {
    const check = this.#memos.argumentValidators.get(`${validationDigest(this.#trust)}:${descriptorDigest}`, () =>
      this.#compile(descriptorDigest, inputSchema),
    );
    return check(args) ? OK : { ok: false, errors: describeErrors(check.errors ?? []) };
  }

  #compile(descriptorDigest: string, inputSchema: unknown): ValidateFunction {
    const isObject = typeof inputSchema === 'object' && inputSchema !== null && !Array.isArray(inputSchema);
    const pinned = isObject ? pinSchema(inputSchema as Record<string, unknown>, this.#trust) : null;
    if (pinned === null)
      throw new TypeError(`descriptor ${descriptorDigest}: input schema has no accepted JSON Schema dialect`);
    return this.#memos.schemas.compilePinned(pinned.schema, pinned.dialect, this.#trust);
  }
}

/** `#<instancePath> <keyword>` per error, without duplicates, in ajv's order. */
function describeErrors(errors: readonly ErrorObject[]): string[] {
  return [...new Set(errors.map((error) => `#${error.instancePath} ${error.keyword}`))];
}
