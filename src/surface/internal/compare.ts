/**
 * The comparison both surface checks run: the request's tools against the expected surface, by
 * the rules of `surface-mismatch.ts` (count, unadmitted, name, order, then description and
 * inputSchema per position). It reads the request's tools once each and never throws, whatever
 * a hook left there (non-arrays, non-objects, throwing getters).
 *
 * The passing path, the one every dispatched request takes, is one pass over the positions:
 * names by `===`, descriptions by `===`, schemas by {@link jsonEqual}; the name bookkeeping of
 * the other rules runs only once a position differs.
 *
 * With `issued` (the stage's frozen mode, `hookTools: 'frozen'`): the deep-frozen copy of the
 * expected surface the stage handed this request's hooks. A request whose tools are that very
 * array, or whose tool at a position is that array's tool at the same position, is equal there
 * by construction (a frozen copy of an equal value cannot have changed since), so only what a
 * hook replaced is read and compared. Every other position is compared as without `issued`, so
 * the mismatch found (and its classification) is the same in both modes.
 *
 * With a {@link WriteTracker} as `issued` (the tracked mode, `hookTools: 'tracked'`): a request
 * whose tools are still the issued array proxy, with nothing written or exposed, is equal (one
 * test, whatever the size); the issued array never written but some tools written: only those
 * positions are compared (they hold their issued tools, in order; the tracker is asked again
 * after each, since reading one may run a hook's getter that writes more); otherwise every position is
 * read as without `issued`, and one holding this request's clean proxy of the tool issued for
 * that very position is equal there. Anything else (a written tool, a new object, a proxy of
 * another request, a tool moved to another position) is compared in full, so the mismatch is the
 * one the plain mutable mode finds for the same tools.
 */
import type { SurfaceCheck, SurfaceMismatch } from '../surface-mismatch.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import { firstDifference, jsonEqual, valueAt } from './json-value.ts';
import { WriteTracker } from './write-tracker.ts';

/** A value that could not be read (a getter threw); equal to nothing, and not an array. */
export const UNREADABLE: unique symbol = Symbol('unreadable');
type Read = unknown;

/**
 * The first mismatch of `actual` against `expected` in `check`, or undefined when they are equal.
 * `issued`, when given, must be a deep-frozen deep copy of `expected` made for this request and
 * shared with nothing else (the caller's guarantee; the stage's frozen mode makes it so): then
 * `actual === issued`, and `actual[i] === issued[i]` at a position, are equal without reading
 * further (see the file header). `issued` may instead be the {@link WriteTracker} of the
 * working copy made for this request from `expected` (tracked mode): then what it saw unwritten
 * is equal without being read.
 * @throws TypeError when `issued` does not have as many tools as `expected` (a caller's error;
 *   never because of what a hook did).
 */
export function compareSurface(
  expected: readonly Readonly<SurfaceTool>[],
  actual: unknown,
  check: SurfaceCheck,
  issued?: readonly Readonly<SurfaceTool>[] | WriteTracker,
): SurfaceMismatch | undefined {
  if (issued instanceof WriteTracker) return compareTracked(expected, actual, check, issued);
  if (issued !== undefined && issued.length !== expected.length)
    throw new TypeError(
      `compareSurface: the issued copy has ${issued.length} tools, the expected surface ${expected.length}`,
    );
  if (issued !== undefined && actual === issued) return undefined;
  if (!isArray(actual))
    return mismatch(check, 'count', { tool: null, index: null, expected: expected.length, actual: null });
  const length = readLength(actual);
  if (length < 0) return mismatch(check, 'count', { tool: null, index: null, expected: expected.length, actual: null });
  if (length !== expected.length) return countMismatch(expected, readNames(actual, length), check);
  const start = issued === undefined ? 0 : issuedPrefix(actual, issued, length);
  for (let index = start; index < length; index += 1) {
    const tool = readIndex(actual, index);
    if (issued !== undefined && tool === issued[index]) continue;
    const want = expected[index] as Readonly<SurfaceTool>;
    const name = readField(tool, 'name');
    if (name !== want.name) return nameMismatch(expected, readNames(actual, length), index, name, check);
    const found = fieldMismatch(want, tool, index, check);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** {@link compareSurface} against the write tracker of this request (see the file header). */
function compareTracked(
  expected: readonly Readonly<SurfaceTool>[],
  actual: unknown,
  check: SurfaceCheck,
  tracker: WriteTracker,
): SurfaceMismatch | undefined {
  if (tracker.length !== expected.length)
    throw new TypeError(
      `compareSurface: the tracker issued ${tracker.length} tools, the expected surface has ${expected.length}`,
    );
  if (actual !== tracker.tools) return comparePositions(expected, actual, check, tracker, 0);
  if (tracker.untouched) return undefined;
  if (!tracker.arrayIntact) return comparePositions(expected, actual, check, tracker, 0);
  // The issued array, never written: each position holds the tool issued there, so only the
  // written ones can differ. They are taken in ascending order, each once, asking the tracker
  // again after each (reading a written tool may run a hook's getter, which may write another
  // tool or the array): the mutable mode's position loop would see those writes too.
  let done = -1;
  while (tracker.arrayIntact) {
    const index = tracker.nextDirty(done);
    if (index < 0) return undefined;
    const tool = tracker.toolAt(index);
    const want = expected[index] as Readonly<SurfaceTool>;
    const name = readField(tool, 'name');
    if (name !== want.name)
      return nameMismatch(expected, readNames(actual as readonly unknown[], tracker.length), index, name, check);
    const found = fieldMismatch(want, tool, index, check);
    if (found !== undefined) return found;
    done = index;
  }
  // The array was written while the written tools were read: on from the next position, as the
  // mutable mode reads them.
  // The mutable mode read the length before its loop, when the array was still the issued one.
  return comparePositions(expected, actual, check, tracker, done + 1, tracker.length);
}

/**
 * The mutable mode's position loop from `start` (positions before it are equal), where a
 * position holding the clean tool issued for it is equal without being read. `knownLength`: the
 * length the mutable mode would have read before its loop (then not read again).
 */
function comparePositions(
  expected: readonly Readonly<SurfaceTool>[],
  actual: unknown,
  check: SurfaceCheck,
  tracker: WriteTracker,
  start: number,
  knownLength?: number,
): SurfaceMismatch | undefined {
  if (knownLength === undefined && !isArray(actual))
    return mismatch(check, 'count', { tool: null, index: null, expected: expected.length, actual: null });
  const length = knownLength ?? readLength(actual as readonly unknown[]);
  if (length < 0) return mismatch(check, 'count', { tool: null, index: null, expected: expected.length, actual: null });
  // The issued array, written: its own positions are read without traps (see readPosition).
  const list = actual as readonly unknown[];
  const read =
    list === tracker.tools
      ? (index: number): Read => readTracked(tracker, index)
      : (index: number): Read => readIndex(list, index);
  const names = (): Read[] => Array.from({ length }, (_, index) => readField(tracker.readable(read(index)), 'name'));
  if (length !== expected.length) return countMismatch(expected, names(), check);
  for (let index = start; index < length; index += 1) {
    const found = read(index);
    if (tracker.intactAt(index, found)) continue;
    const tool = tracker.readable(found);
    const want = expected[index] as Readonly<SurfaceTool>;
    const name = readField(tool, 'name');
    if (name !== want.name) return nameMismatch(expected, names(), index, name, check);
    const differs = fieldMismatch(want, tool, index, check);
    if (differs !== undefined) return differs;
  }
  return undefined;
}

function readTracked(tracker: WriteTracker, index: number): Read {
  try {
    return tracker.readPosition(index);
  } catch {
    return UNREADABLE;
  }
}

/** How many leading positions of `actual` hold the issued tool itself (0 when reading them throws). */
function issuedPrefix(actual: readonly unknown[], issued: readonly unknown[], length: number): number {
  let index = 0;
  try {
    while (index < length && actual[index] === issued[index]) index += 1;
    return index;
  } catch {
    return 0; // a throwing getter or proxy trap: the position loop reads (and classifies) again
  }
}

function fieldMismatch(
  want: Readonly<SurfaceTool>,
  tool: Read,
  index: number,
  check: SurfaceCheck,
): SurfaceMismatch | undefined {
  const description = readField(tool, 'description');
  if (description !== want.description)
    return mismatch(check, 'description', {
      tool: want.name,
      index,
      expected: want.description,
      actual: scalar(description),
    });
  const schema = readField(tool, 'inputSchema');
  if (schema !== UNREADABLE && jsonEqual(want.inputSchema, schema)) return undefined;
  const schemaPath = schema === UNREADABLE ? '' : (firstDifference(want.inputSchema, schema) ?? '');
  const actual = schema === UNREADABLE ? null : scalar(valueAt(schema, schemaPath));
  return mismatch(check, 'inputSchema', {
    tool: want.name,
    index,
    expected: scalar(valueAt(want.inputSchema, schemaPath)),
    actual,
    schemaPath,
  });
}

/** Another number of tools: `unadmitted` if a name is not the baseline's, else `count`. */
function countMismatch(
  expected: readonly Readonly<SurfaceTool>[],
  names: readonly Read[],
  check: SurfaceCheck,
): SurfaceMismatch {
  const admitted = new Set(expected.map((tool) => tool.name));
  const added = names.findIndex((name) => typeof name !== 'string' || !admitted.has(name));
  if (added >= 0) {
    const name = scalar(names[added]);
    return mismatch(check, 'unadmitted', {
      tool: typeof name === 'string' ? name : null,
      index: added,
      expected: null,
      actual: name,
    });
  }
  const present = new Set(names as string[]);
  const missing = expected.find((tool) => !present.has(tool.name))?.name;
  const twice = (names as string[]).find((name, index) => names.indexOf(name) !== index);
  return mismatch(check, 'count', {
    tool: missing ?? twice ?? null,
    index: null,
    expected: expected.length,
    actual: names.length,
  });
}

/**
 * As many tools, and the name at `index` (read there as `name`) differs: `order` when the names
 * are the same multiset, else `name`. The names are read again for the multiset; the one the
 * position loop read stands for `index`, so a getter that changes its answer cannot move it.
 */
function nameMismatch(
  expected: readonly Readonly<SurfaceTool>[],
  names: Read[],
  index: number,
  name: Read,
  check: SurfaceCheck,
): SurfaceMismatch {
  names[index] = name;
  const want = (expected[index] as Readonly<SurfaceTool>).name;
  const field = sameMultiset(
    expected.map((tool) => tool.name),
    names,
  )
    ? 'order'
    : 'name';
  return mismatch(check, field, { tool: want, index, expected: want, actual: scalar(name) });
}

function sameMultiset(expected: readonly string[], names: readonly Read[]): boolean {
  const counts = new Map<Read, number>();
  for (const name of expected) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const name of names) {
    const left = counts.get(name);
    if (left === undefined || left === 0) return false;
    counts.set(name, left - 1);
  }
  return true;
}

type MismatchDetail = Pick<SurfaceMismatch, 'tool' | 'index' | 'expected' | 'actual'> & { schemaPath?: string };

function mismatch(check: SurfaceCheck, field: SurfaceMismatch['field'], detail: MismatchDetail): SurfaceMismatch {
  return {
    check,
    field,
    tool: detail.tool,
    index: detail.index,
    expected: detail.expected,
    actual: detail.actual,
    schemaPath: detail.schemaPath ?? null,
  };
}

/** A read value as a mismatch can carry it: strings and numbers as they are, anything else null. */
function scalar(value: Read): string | number | null {
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}

function isArray(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false; // a revoked proxy
  }
}

function readLength(list: readonly unknown[]): number {
  try {
    const length = list.length;
    return Number.isSafeInteger(length) && length >= 0 ? length : -1;
  } catch {
    return -1;
  }
}

function readIndex(list: readonly unknown[], index: number): Read {
  try {
    return list[index];
  } catch {
    return UNREADABLE;
  }
}

function readField(tool: Read, field: keyof SurfaceTool): Read {
  if (typeof tool !== 'object' || tool === null) return UNREADABLE;
  try {
    return (tool as Record<string, unknown>)[field];
  } catch {
    return UNREADABLE;
  }
}

function readNames(list: readonly unknown[], length: number): Read[] {
  const names: Read[] = [];
  for (let index = 0; index < length; index += 1) names.push(readField(readIndex(list, index), 'name'));
  return names;
}
