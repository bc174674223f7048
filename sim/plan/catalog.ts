/**
 * Catalog files: the pages of a real server's `tools/list`, captured once (`catsim capture`) and
 * replayed under faults (`catsim run --catalog FILE`). The simulated servers' revision histories
 * are then built from those real descriptors instead of the built-in pool.
 *
 * File format `catsim.catalog.v1` (JSON, UTF-8):
 *
 * ```json
 * {
 *   "schema": "catsim.catalog.v1",
 *   "source": {
 *     "command": "npx mcp-server-memory",            // the --stdio line it was captured from
 *     "serverInfo": { "name": "memory-server", "version": "0.6.3" },  // verbatim from initialize
 *     "protocolVersion": "2025-11-25",                // negotiated at initialize
 *     "capturedAt": "2026-09-01T10:00:00.000Z"        // optional, informational: never read
 *   },
 *   "pages": [                                        // in walk order, at least one
 *     { "cursorIn": null, "nextCursor": null, "tools": [ { "name": "...", "inputSchema": {...}, ... } ] }
 *   ]
 * }
 * ```
 *
 * `cursorIn` is the cursor the page was requested with (`null` for the first page, and an empty
 * string is a cursor); `nextCursor` is what the page returned (`null` when absent, which ends the
 * walk). Each page's `cursorIn` equals the previous page's `nextCursor`, no cursor repeats, and
 * the last page's `nextCursor` is null. Tools are verbatim descriptors; each must be an object
 * with a non-empty string `name` and an object `inputSchema`, and names are unique across pages.
 * `source` may carry more fields; the top level and pages may not.
 */
import { basename } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { loneSurrogateProblem, readInputJson } from './input-file.ts';
import { sampleArgs } from './sample-args.ts';
import { ScenarioError } from './scenario.ts';
import type { PoolTool } from './tool-pool.ts';
import type { ToolDescriptor } from './types.ts';

/** The `schema` value of a catalog file. */
export const CATALOG_SCHEMA = 'catsim.catalog.v1';

/** One `tools/list` page as captured. */
export interface CatalogPage {
  /** The cursor the page was requested with; null for the first page. */
  cursorIn: string | null;
  /** The page's `nextCursor`; null when the page had none (the last page). */
  nextCursor: string | null;
  /** The page's tools, verbatim. */
  tools: ToolDescriptor[];
}

/** A `catsim.catalog.v1` file. */
export interface CatalogFile {
  schema: typeof CATALOG_SCHEMA;
  source: {
    /** The `--stdio` command line the server was started with. */
    command: string;
    /** The server's `serverInfo` from `initialize`, verbatim. */
    serverInfo: { name: string; version: string } & Record<string, unknown>;
    /** The protocol version negotiated at `initialize`. */
    protocolVersion: string;
    /** When it was captured (ISO 8601); informational, the loader ignores it. */
    capturedAt?: string;
  };
  pages: CatalogPage[];
}

/** A loaded catalog: its tools in page order, and the same tools as a descriptor pool. */
export interface LoadedCatalog {
  /** The file's base name without `.json` (`filesystem`), used in scenario labels. */
  name: string;
  /** The path it was loaded from, as given. */
  path: string;
  tools: ToolDescriptor[];
  /** One entry per tool, in page order, with deterministic sample arguments (see sample-args.ts). */
  pool: PoolTool[];
}

const nullableString = { type: ['string', 'null'] };

/** JSON Schema (draft-07) of the file format; cross-field rules are checked after it. */
const FILE_SCHEMA = {
  type: 'object',
  required: ['schema', 'source', 'pages'],
  additionalProperties: false,
  properties: {
    schema: { const: CATALOG_SCHEMA },
    source: {
      type: 'object',
      required: ['command', 'serverInfo', 'protocolVersion'],
      properties: {
        command: { type: 'string' },
        serverInfo: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string' }, version: { type: 'string' } },
        },
        protocolVersion: { type: 'string' },
        capturedAt: { type: 'string' },
      },
    },
    pages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['cursorIn', 'nextCursor', 'tools'],
        additionalProperties: false,
        properties: {
          cursorIn: nullableString,
          nextCursor: nullableString,
          tools: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'inputSchema'],
              properties: { name: { type: 'string', minLength: 1 }, inputSchema: { type: 'object' } },
            },
          },
        },
      },
    },
  },
} as const;

const validateFile = new Ajv({ allErrors: false, strict: true }).compile(FILE_SCHEMA);

/**
 * Loads and validates a catalog file and builds its descriptor pool.
 * @throws ScenarioError `PATH: PROBLEM` (one line) when the file is missing, a directory,
 *   unreadable, not JSON, or not a valid `catsim.catalog.v1` file, e.g. `x.json: /pages/0/tools/3 must be object`.
 */
export function loadCatalog(path: string): LoadedCatalog {
  const data = readInputJson(path, (message) => new ScenarioError(message));
  const problem = catalogProblem(data);
  if (problem !== undefined) throw new ScenarioError(`${path}: ${problem}`);
  const tools = (data as CatalogFile).pages.flatMap((page) => page.tools);
  return {
    name: basename(path).replace(/\.json$/i, ''),
    path,
    tools,
    pool: tools.map((descriptor) => ({ descriptor, sampleArgs: sampleArgs(descriptor.inputSchema) })),
  };
}

/** The first problem of a parsed catalog file (`/pages/1/cursorIn must ...`), or undefined when it is valid. */
export function catalogProblem(data: unknown): string | undefined {
  if (!validateFile(data)) return describe((validateFile.errors ?? [])[0]);
  const { pages } = data as CatalogFile;
  return loneSurrogateProblem(data) ?? cursorProblem(pages) ?? nameProblem(pages);
}

/** An ajv error as `WHERE PROBLEM`, with the allowed value or the unexpected property spelled out. */
function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return 'invalid';
  const where = error.instancePath === '' ? 'the top level' : error.instancePath;
  if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === 'additionalProperties')
    return `${where} must not have the property "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'type') return `${where} must be ${String(error.params.type).split(',').join(' or ')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

/** The pages must form one walk: null first, each cursor in = the previous cursor out, no cursor twice, null last. */
function cursorProblem(pages: readonly CatalogPage[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [index, page] of pages.entries()) {
    if (index === 0 && page.cursorIn !== null)
      return '/pages/0/cursorIn must be null (the first page is read without a cursor)';
    if (index > 0 && page.cursorIn !== (pages[index - 1] as CatalogPage).nextCursor)
      return `/pages/${index}/cursorIn must equal /pages/${index - 1}/nextCursor`;
    if (page.cursorIn !== null && seen.has(page.cursorIn))
      return `/pages/${index}/cursorIn repeats /pages/${seen.get(page.cursorIn)}/cursorIn (a cursor loop)`;
    if (page.cursorIn !== null) seen.set(page.cursorIn, index);
  }
  const last = pages.length - 1;
  return (pages[last] as CatalogPage).nextCursor === null
    ? undefined
    : `/pages/${last}/nextCursor must be null (the last page ends the walk)`;
}

/** Tool names must be unique across pages (the generator tells tools apart by name), and there must be one. */
function nameProblem(pages: readonly CatalogPage[]): string | undefined {
  const first = new Map<string, string>();
  for (const [p, page] of pages.entries()) {
    for (const [t, tool] of page.tools.entries()) {
      const name = tool.name as string;
      const earlier = first.get(name);
      if (earlier !== undefined) return `/pages/${p}/tools/${t}/name ${JSON.stringify(name)} repeats ${earlier}/name`;
      first.set(name, `/pages/${p}/tools/${t}`);
    }
  }
  return first.size === 0 ? 'the catalog has no tools' : undefined;
}
