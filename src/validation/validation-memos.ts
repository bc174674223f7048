/**
 * The memos of the content checks (SPEC section 5) and the argument check (SPEC section 7) of one
 * owner: a host's, through its `CoreMemos` (src/memos.ts), or a caller's that checks descriptors
 * without a host. Every value is a pure function of its key, so a memo only saves work: it never
 * changes an answer, and two owners share nothing.
 */
import type { ValidateFunction } from 'ajv';
import { BoundedMemo } from '../bounded-memo.ts';
import { SchemaCompiler } from './internal/schema-compiler.ts';
import type { ToolVerdict } from './verdicts.ts';

/**
 * Workflow: construct with the entries a generation of each family (descriptor-keyed, compiled
 * validators), hand the object to `checkTools` and `ArgumentValidator`, `resize` when the working
 * set changes (a smaller size takes effect at each memo's next rotation, never all at once).
 */
export class ValidationMemos {
  /**
   * Per-tool verdicts by `${validationDigest}:${descriptorDigest}`: a verdict is a function of the
   * descriptor and the trust configuration. Duplicate names depend on the whole list and are never
   * memoised. Descriptor-keyed: `descriptorEntries` a generation.
   */
  readonly verdicts: BoundedMemo<ToolVerdict>;
  /** Compiled argument validators by `${validationDigest}:${descriptorDigest}`: half of `validatorEntries` a generation. */
  readonly argumentValidators: BoundedMemo<ValidateFunction>;
  /** The ajv instances and the schema compiles by schema text: `validatorEntries` a generation. */
  readonly schemas: SchemaCompiler;

  /**
   * `descriptorEntries`, `validatorEntries`: entries a generation (each memo holds at most twice
   * as many), as in `MemoSizes` (src/memos.ts).
   * @throws RangeError when either is not a positive safe integer.
   */
  constructor(descriptorEntries: number, validatorEntries: number) {
    this.verdicts = new BoundedMemo(descriptorEntries);
    this.argumentValidators = new BoundedMemo(half(validatorEntries));
    this.schemas = new SchemaCompiler(validatorEntries);
  }

  /** Sets the entries a generation of every memo here, in the constructor's proportions. @throws RangeError as the constructor. */
  resize(descriptorEntries: number, validatorEntries: number): void {
    this.verdicts.resize(descriptorEntries);
    this.argumentValidators.resize(half(validatorEntries));
    this.schemas.resize(validatorEntries);
  }
}

/** Half of `entries`, at least 1; a RangeError for what is not a positive safe integer. */
function half(entries: number): number {
  if (!Number.isSafeInteger(entries) || entries < 1)
    throw new RangeError(`memo generation size must be a positive integer, got ${entries}`);
  return Math.max(1, Math.round(entries / 2));
}
