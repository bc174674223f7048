/**
 * The validation of line 1 of a `catsim.trace.v1` trace: the first problem as one sentence (e.g.
 * `header.bounds has no field "byteCountMax"`), or null when the header follows the contract.
 */
import { problemOf } from '../internal/fields.ts';
import { TRACE_HEADER } from './header.ts';
import { TRACE_SCHEMA } from './schema.ts';

/** Returns the first problem with the header object (line 1), or null. */
export function headerProblem(value: Readonly<Record<string, unknown>>): string | null {
  if (value['type'] !== 'header') {
    const found = typeof value['type'] === 'string' ? `type ${JSON.stringify(value['type'])}` : 'no "type"';
    return `missing header (expected type "header", found ${found})`;
  }
  const schema = value['schema'];
  if (schema !== TRACE_SCHEMA) {
    const found = typeof schema === 'string' ? JSON.stringify(schema) : 'none';
    return `unsupported schema ${found} (expected "${TRACE_SCHEMA}")`;
  }
  return problemOf(TRACE_HEADER, value, 'header');
}
