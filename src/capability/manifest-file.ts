/**
 * The operator's manifest file, `catsim.manifests.v1` (SPEC section 9; seed 004: what MCP does not
 * carry, "read_only=true 不能只写在 description": side effect, permissions, retries and the rest are
 * structural fields an operator writes down, not text a server sends).
 *
 * Format (JSON, UTF-8), one file per server:
 *
 * ```json
 * {
 *   "schema": "catsim.manifests.v1",
 *   "server": "jobs",                          // the operator's stable name of the server
 *   "tools": {
 *     "rerun": {                               // the MCP tool name, as the server lists it
 *       "toolId": "jobs.rerun",                // default: "<server>.<tool name>"
 *       "owner": "team-ci",
 *       "riskLevel": "high",                   // low | medium | high | critical
 *       "riskText": "Reruns a job: it may deploy again.",
 *       "requiredPermissions": ["jobs:rerun"], // default: ["invoke:<toolId>"]
 *       "sideEffect": "WRITE",                 // READ | RESERVATION | WRITE | DESTRUCTIVE
 *       "idempotency": "keyed",                // none | keyed | idempotent
 *       "timeoutMs": 5000,
 *       "retry": { "maxAttempts": 3, "backoffMs": 200 },
 *       "confirmation": { "required": true, "schema": null },
 *       "dataClassification": "internal",      // public | internal | confidential | restricted
 *       "errors": [
 *         { "code": "OBJECT_AMBIGUOUS", "meaning": "Several jobs match.", "retryable": false, "recovery": ["ask_user"] }
 *       ]
 *     }
 *   }
 * }
 * ```
 *
 * Every field of a tool is optional: a missing one takes the safest default (`SAFEST_DEFAULTS` in
 * manifest.ts), and a tool the file does not name gets every default. Unknown fields are refused.
 * Rules beyond the JSON Schema: a tool with `maxAttempts` above 1 must be READ or not `none` in
 * idempotency (a retry must never act twice); error codes are unique per tool; tool ids are unique
 * in the file. The file is validated with ajv against {@link MANIFEST_FILE_JSON_SCHEMA}; every
 * problem is reported as one line naming the file and the field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { OperatorEntry } from './manifest.ts';
import { DATA_CLASSIFICATIONS, IDEMPOTENCIES, RISK_LEVELS, SIDE_EFFECTS } from './manifest.ts';

/** The `schema` value of a manifest file. */
export const MANIFEST_FILE_SCHEMA = 'catsim.manifests.v1';

/** A parsed `catsim.manifests.v1` file. */
export interface ManifestFile {
  schema: typeof MANIFEST_FILE_SCHEMA;
  /** The operator's stable name of the server the file describes. */
  server: string;
  /** The operator's entry per MCP tool name. */
  tools: Record<string, OperatorEntry>;
}

/**
 * A manifest file that cannot be used. `message` is one line: `manifest file PATH: PROBLEM`,
 * e.g. `manifest file jobs.json: tools.rerun.riskLevel must be one of low, medium, high, critical, got "severe"`.
 */
export class ManifestFileError extends Error {
  override readonly name = 'ManifestFileError';
  /** The path as the caller gave it. */
  readonly path: string;
  /** The problem alone, without the path. */
  readonly problem: string;

  /** An error for the file at `path` (as the caller named it) with `problem`, one line. */
  constructor(path: string, problem: string) {
    super(`manifest file ${path}: ${problem}`);
    this.path = path;
    this.problem = problem;
  }
}

const nonEmptyString = { type: 'string', minLength: 1 };
const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });
const count = (minimum: number) => ({ type: 'integer', minimum, maximum: 2_147_483_647 });

/** The JSON Schema (draft-07) of a manifest file; the cross-field rules of the header are checked after it. */
export const MANIFEST_FILE_JSON_SCHEMA = Object.freeze({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['schema', 'server', 'tools'],
  properties: {
    schema: { const: MANIFEST_FILE_SCHEMA },
    server: nonEmptyString,
    tools: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          toolId: nonEmptyString,
          owner: nonEmptyString,
          riskLevel: enumOf(RISK_LEVELS),
          riskText: { type: 'string' },
          requiredPermissions: { type: 'array', items: nonEmptyString, uniqueItems: true },
          sideEffect: enumOf(SIDE_EFFECTS),
          idempotency: enumOf(IDEMPOTENCIES),
          timeoutMs: count(1),
          retry: {
            type: 'object',
            additionalProperties: false,
            required: ['maxAttempts', 'backoffMs'],
            properties: { maxAttempts: count(1), backoffMs: count(0) },
          },
          confirmation: {
            type: 'object',
            additionalProperties: false,
            required: ['required', 'schema'],
            properties: { required: { type: 'boolean' }, schema: { type: ['object', 'null'] } },
          },
          dataClassification: enumOf(DATA_CLASSIFICATIONS),
          errors: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'meaning', 'retryable', 'recovery'],
              properties: {
                code: nonEmptyString,
                meaning: nonEmptyString,
                retryable: { type: 'boolean' },
                recovery: { type: 'array', items: nonEmptyString },
              },
            },
          },
        },
      },
    },
  },
});

/**
 * Parses and validates the text of a manifest file read from `path` (the caller reads it: the core
 * does no I/O of its own). Returns a deep copy the caller owns.
 * @throws ManifestFileError (one line) when the text is not JSON, breaks the JSON Schema, or breaks
 *   a rule of the file header (retries of a tool that may act twice, a repeated error code or tool id).
 */
export function parseManifestFile(text: string, path: string): ManifestFile {
  let value: unknown;
  // A UTF-8 byte order mark (some Windows editors write one) is not part of the JSON text.
  const json = text.startsWith('\ufeff') ? text.slice(1) : text;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new ManifestFileError(path, `not JSON: ${parseProblem(json, (error as Error).message)}`);
  }
  if (!validateManifestFile(value)) throw new ManifestFileError(path, problemOf(validateManifestFile.errors?.[0]));
  const file = value as unknown as ManifestFile;
  const problem = crossFieldProblem(file);
  if (problem !== undefined) throw new ManifestFileError(path, problem);
  return file;
}

/**
 * The file schema's validator, compiled once when the module loads (about 40 ms, ajv's metaschema
 * included): a function of the constant schema, not a cache, since nothing of any parse is kept
 * (`errors` is each call's own result). Compiling it at every parse cost more than the rest of a
 * simulated round, and every boot of a host parses its files.
 */
const validateManifestFile: ValidateFunction = new Ajv({ verbose: true, allowUnionTypes: true, logger: false }).compile(
  MANIFEST_FILE_JSON_SCHEMA,
);

/**
 * V8's JSON.parse message as one line: `at position N` becomes `at line L, column C`, and the text
 * V8 quotes (`Unexpected token 'o', "nonsense\n{" is not valid JSON`), which may hold newlines, is
 * left out.
 */
function parseProblem(json: string, message: string): string {
  const position = /^(.*) in JSON at position (\d+)/.exec(message);
  if (position !== null) {
    const before = json.slice(0, Number(position[2]));
    const lineStart = before.lastIndexOf('\n') + 1;
    return `${position[1]} at line ${before.split('\n').length}, column ${before.length - lineStart + 1}`;
  }
  return (message.replace(/, ".*" is not valid JSON$/s, '').split('\n')[0] as string).trim();
}

/** The longest quoted value a message shows; a longer one is cut, with `…`. */
const QUOTE_MAX = 80;

/** `value` as JSON for a message, cut to QUOTE_MAX characters (JSON escapes newlines, so it stays one line). */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= QUOTE_MAX ? text : `${text.slice(0, QUOTE_MAX)}…`;
}

/**
 * A field path as words: `tools.rerun.riskLevel`; a key that is not a plain name (a tool named
 * `a.b`, `a/b`, `""` or with a newline) is quoted, `tools["a.b"].riskLevel`, so every path is one
 * unambiguous line.
 */
function fieldPath(keys: readonly string[]): string {
  return keys
    .map((key, index) =>
      /^[A-Za-z0-9_-]+$/.test(key) ? `${index === 0 ? '' : '.'}${key}` : `[${JSON.stringify(key)}]`,
    )
    .join('');
}

/** The first rule beyond the JSON Schema that `file` breaks, or undefined. */
function crossFieldProblem(file: ManifestFile): string | undefined {
  const toolIds = new Map<string, string>();
  for (const [name, entry] of Object.entries(file.tools)) {
    const where = fieldPath(['tools', name]);
    const retries = (entry.retry?.maxAttempts ?? 1) > 1;
    if (retries && (entry.sideEffect ?? 'DESTRUCTIVE') !== 'READ' && (entry.idempotency ?? 'none') === 'none')
      return `${where}.retry.maxAttempts is above 1, but the tool is not READ and its idempotency is none (a retry could act twice)`;
    const codes = new Set<string>();
    for (const error of entry.errors ?? []) {
      if (codes.has(error.code)) return `${where}.errors repeats the code ${quotedIfOdd(error.code)}`;
      codes.add(error.code);
    }
    const toolId = entry.toolId ?? `${file.server}.${name}`;
    const other = toolIds.get(toolId);
    if (other !== undefined)
      return `tools ${quotedIfOdd(other)} and ${quotedIfOdd(name)} have the same toolId ${quotedIfOdd(toolId)}`;
    toolIds.set(toolId, name);
  }
  return undefined;
}

/** `text` as written when it is a plain name (letters, digits, `.`, `_`, `-`), else quoted as JSON (one line). */
function quotedIfOdd(text: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(text) ? text : JSON.stringify(text);
}

/** One ajv error as words: `tools.rerun.riskLevel must be one of ..., got "severe"`. */
function problemOf(error: ErrorObject | undefined): string {
  if (error === undefined) return 'invalid';
  const keys = error.instancePath
    .split('/')
    .slice(1)
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
  const path = error.instancePath === '' ? 'the file' : fieldPath(keys);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing field ${fieldPath([...keys, String(params.missingProperty)])}`;
    case 'additionalProperties':
      return `unknown field ${fieldPath([...keys, String(params.additionalProperty)])}`;
    case 'enum':
      return `${path} must be one of ${(params.allowedValues as unknown[]).join(', ')}, got ${quoted(error.data)}`;
    case 'const':
      return `${path} must be ${JSON.stringify(params.allowedValue)}, got ${quoted(error.data)}`;
    default:
      return `${path} ${error.message ?? 'is invalid'}, got ${quoted(error.data)}`;
  }
}

/** The operator's entry for MCP tool `toolName` in `file`, or undefined when the file has none. */
export function operatorEntryOf(file: ManifestFile, toolName: string): OperatorEntry | undefined {
  return Object.hasOwn(file.tools, toolName) ? file.tools[toolName] : undefined;
}
