/**
 * One ajv error in plain words, for the input files catsim reads against a JSON Schema (scenario
 * files, plan files): `"pageSize.min" must be an integer from 1 to 2147483647, got 1.5`, `unknown field
 * "pageSizee"`, `missing field "calls.confirmFraction"`.
 *
 * The schema's `title` of the failing value, when it has one, is the phrase after "must be" (so a
 * schema says in its own words what a value must be); otherwise the phrase is built from the
 * failing keyword. The error must come from a validator compiled with `verbose: true` (it needs the
 * error's `parentSchema` and `data`).
 */
import type { ErrorObject } from 'ajv';

/** Keywords about one value, reported as `WHERE must be WHAT, got VALUE`. */
const VALUE_KEYWORDS = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'multipleOf',
]);

/**
 * The first ajv error of a failed validation as one line; `'invalid'` when there is none.
 * Paths read like property accesses (`servers[0].history`, `views['acme.dev']`), quoted.
 */
export function schemaProblem(error: ErrorObject | undefined): string {
  if (error === undefined) return 'invalid';
  const path = pathOf(error.instancePath);
  if (error.keyword === 'required') return `missing field "${join(path, String(error.params.missingProperty))}"`;
  if (error.keyword === 'additionalProperties')
    return `unknown field "${join(path, String(error.params.additionalProperty))}"`;
  const where = error.propertyName !== undefined ? `the key "${error.propertyName}" of ${quoted(path)}` : quoted(path);
  if (VALUE_KEYWORDS.has(error.keyword))
    return `${where} must be ${expected(error)}${error.propertyName !== undefined ? '' : got(error.data)}`;
  if (error.keyword === 'minItems') return `${where} must have at least ${plural(Number(error.params.limit), 'item')}`;
  if (error.keyword === 'maxItems' || error.keyword === 'items')
    return `${where} must have at most ${plural(Number(error.params.limit), 'item')}`;
  if (error.keyword === 'uniqueItems')
    return `${quoted(join(path, String(error.params.i)))} repeats ${quoted(join(path, String(error.params.j)))}${got((error.data as unknown[])[Number(error.params.i)]).replace(', got', ':')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

/** What the value must be: the failing schema's `title`, or words for the keyword. */
function expected(error: ErrorObject): string {
  const title = (error.parentSchema as { title?: unknown } | undefined)?.title;
  if (typeof title === 'string') return title;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return String(params.type).split(',').map(typeWords).join(' or ');
    case 'minimum':
      return `at least ${String(params.limit)}`;
    case 'maximum':
      return `at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `less than ${String(params.limit)}`;
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'pattern':
      return `a string matching /${String(params.pattern)}/`;
    case 'minLength':
      return `at least ${plural(Number(params.limit), 'character')} long`;
    case 'maxLength':
      return `at most ${plural(Number(params.limit), 'character')} long`;
    default:
      return `a multiple of ${String(params.multipleOf)}`;
  }
}

function typeWords(type: string): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** `, got VALUE` for a scalar, `, got an object` / `, got an array` for the others. */
function got(data: unknown): string {
  if (Array.isArray(data)) return ', got an array';
  if (typeof data === 'object' && data !== null) return ', got an object';
  return data === undefined ? '' : `, got ${JSON.stringify(data)}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A JSON pointer as a property path: `/servers/0/views/acme.dev` -> `servers[0].views['acme.dev']`. */
function pathOf(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(join, '');
}

function join(path: string, key: string): string {
  if (/^\d+$/.test(key)) return `${path}[${key}]`;
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}['${key}']`;
  return path === '' ? key : `${path}.${key}`;
}

function quoted(path: string): string {
  return path === '' ? 'the top level' : `"${path}"`;
}
