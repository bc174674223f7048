/**
 * The building blocks of the plan schema (plan-schema.ts), shared with the fault files, which
 * state the schema of their own plan fields with them (sim/faults/fault.ts `PlanSlice`). Every
 * `title` is the phrase error messages use after "must be" (schema-problem.ts); `$ref`s name the
 * plan schema's `$defs`.
 */

/** A JSON Schema (draft 2020-12) fragment, as plain data. */
export type SchemaFragment = Readonly<Record<string, unknown>>;

/** A time or count: an integer from 0 to 2^31 - 1. */
export const ms: SchemaFragment = { $ref: '#/$defs/nonNegativeInteger' };
/** An integer from 1 to 2^31 - 1. */
export const positive: SchemaFragment = { $ref: '#/$defs/positiveInteger' };
/** A number in [0, 1]. */
export const fractionSchema: SchemaFragment = { $ref: '#/$defs/fraction' };
/** An audience `tenant.role`. */
export const audience: SchemaFragment = { $ref: '#/$defs/audience' };
/** A tool descriptor: any object (adversarial ones are the point). */
export const descriptor: SchemaFragment = { $ref: '#/$defs/descriptor' };
/** A boolean. */
export const boolean: SchemaFragment = { type: 'boolean', title: 'a boolean' };
/** Any string. */
export const string: SchemaFragment = { type: 'string', title: 'a string' };
/** An array of strings. */
export const strings: SchemaFragment = { type: 'array', title: 'an array of strings', items: string };

/** A closed object: every listed property required, no other allowed. */
export function object(properties: Record<string, unknown>, title = 'an object'): Record<string, unknown> {
  return { type: 'object', title, required: Object.keys(properties), additionalProperties: false, properties };
}

/** An array of `items`, titled `title` ("an array of ..."). */
export function arrayOf(items: unknown, title: string): SchemaFragment {
  return { type: 'array', title, items };
}

/** An inclusive `[min, max]` pair; min <= max is checked after the schema. */
export function pair(item: unknown, title: string): SchemaFragment {
  return { type: 'array', title, prefixItems: [item, item], minItems: 2, items: false };
}
