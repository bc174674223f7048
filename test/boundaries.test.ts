/**
 * The boundaries the house rules draw, checked on the source (parsed with the TypeScript
 * compiler API, test/support/source-scan.ts):
 * - src/ is a library a host embeds: it imports nothing from sim/, cores/, runner/, oracle/ or
 *   cli/ (the neutral contract/ folder, the trace format every part shares, is allowed);
 * - each part of the testbed imports only what its role needs (issue 31, item 3): sim/ (the world)
 *   imports neither cores/ nor runner/, and from src/ only what the world itself runs; cores/
 *   (the cores under test) imports src/ and, of sim/, only the world's side of the core API
 *   (sim/guard/); runner/ (what composes world, cores and oracle) imports no src/ and no cli/;
 *   oracle/ imports none of them (oracle/independence.test.ts);
 * - inside src/, sim/ and oracle/ time, randomness and timers come only through the ports: no
 *   file outside the explicit allow-list below reads the clock, draws randomness or arms a timer;
 * - a folder's `internal/` is its own: no file outside the folder that holds an `internal/`
 *   imports from it, but for the commented allow-list below (issue 31, item 5);
 * - src/ keeps no process-wide mutable state: no module-level memo, pool, cache or `let` (a host's
 *   memos are its own, sized through `HostConfig.memoSizes`: src/memos.ts; issue 31, item 5).
 * Tests (`*.test.ts`) are not scanned for ambient uses: they may wait on a real SDK timeout, and
 * no test code runs inside a simulated round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ambientUses, moduleSpecifiers, moduleState, typeScriptFiles } from './support/source-scan.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Top-level folders src/ must not import from. */
const FORBIDDEN_FROM_SRC = ['sim', 'cores', 'runner', 'oracle', 'cli', 'blackbox'];

/**
 * The files that ARE ports or real-world adapters, each with why it may touch real time. Every
 * entry must still hold such a use (so the list cannot rot), and nothing else may.
 */
const AMBIENT_ALLOWED: Record<string, string> = {
  // The wall-clock Clock a real host passes in (realClock).
  'src/ports.ts': 'the real Clock port',
  // Real-server connectors: the host's real-world ports, never used inside simulated rounds.
  'src/connect/child-process-transport.ts': 'the kill grace between SIGTERM and SIGKILL of a real server',
  'src/connect/url-server.ts': 'the initialize deadline and the bounded wait for a session to end',
  // Test support inside src/: drains the in-memory SDK pair between virtual-time steps; reads no time.
  'src/admission/testing/virtual-time.ts': 'setImmediate to drain the I/O of an in-memory SDK pair',
  // The world keeps the real setImmediate to drain promise jobs between virtual events.
  'sim/runtime/world.ts': 'the real setImmediate, saved before the virtual globals go in',
  // Wall time of a whole campaign for the rounds/s figure; never read inside a round.
  'runner/campaign.ts': 'performance.now for throughput only',
  // The per-round time limit of worker threads (issue 35 item 3): a watchdog on the main thread, where no round runs.
  'runner/worker-pool.ts': 'setInterval and performance.now for the per-round time limit of worker threads',
  // The same limit for replay and shrink, whose rounds run on one worker thread (issue 35 item 3).
  'runner/plan-thread.ts': 'setTimeout for the per-round time limit of the replay and shrink worker thread',
};

/** Where `specifier` (in `file`, repo-relative) lands, repo-relative, or null for a package or builtin. */
function repoPathOf(specifier: string, file: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return posix.normalize(posix.join(posix.dirname(file), specifier));
}

/** The imports of `source` (the text of repo-relative `file`) that reach a forbidden top-level folder. */
export function forbiddenImports(source: string, file: string, forbidden: readonly string[]): string[] {
  return moduleSpecifiers(source, file).filter((specifier) => {
    const target = repoPathOf(specifier, file);
    return target !== null && forbidden.includes(target.split('/')[0] as string);
  });
}

const read = (file: string): string => readFileSync(resolve(REPO_ROOT, file), 'utf8');

describe('src/ is a library: it imports nothing from sim/, cores/, runner/, oracle/ or cli/', () => {
  it('no file under src/ (tests included) imports from sim/, cores/, runner/, oracle/ or cli/', () => {
    const files = typeScriptFiles(REPO_ROOT, 'src');
    expect(files.length).toBeGreaterThan(50);
    const offences = files.flatMap((file) =>
      forbiddenImports(read(file), file, FORBIDDEN_FROM_SRC).map((specifier) => `${file}: ${specifier}`),
    );
    expect(offences).toEqual([]);
  });

  it('flags every kind of import into a forbidden folder, so the check can fail', () => {
    const file = 'src/registry/registry.ts';
    const source = [
      "import { world } from '../../sim/runtime/world.ts';",
      "import type { Trace } from '../../oracle/trace.ts';",
      "export { main } from '../../cli/main.ts';",
      "import '../../sim/random.ts';",
      "const m = await import('../../oracle/check.ts');",
      "const r = require('../../cli/errors.ts');",
      "type T = import('../../sim/plan/types.ts').Plan;",
    ].join('\n');
    expect(forbiddenImports(source, file, FORBIDDEN_FROM_SRC)).toHaveLength(7);
  });

  it('lets packages, builtins, src/ itself and the neutral contract/ folder through; comments and strings never count', () => {
    const file = 'src/registry/registry.ts';
    const source = [
      "import { z } from 'zod';",
      "import { createHash } from 'node:crypto';",
      "import { keyName } from '../keys.ts';",
      "import type { TraceEvent } from '../../contract/trace-events.ts';",
      "// import { world } from '../../sim/runtime/world.ts';",
      'const text = "import x from \'../../sim/world.ts\'";',
    ].join('\n');
    expect(forbiddenImports(source, file, FORBIDDEN_FROM_SRC)).toEqual([]);
  });
});

describe('blackbox/ (real-clock hosting of the world) sits beside the world, not inside it (issue 28)', () => {
  it('nothing under sim/ or oracle/ imports from blackbox/ or cli/, and blackbox/ imports nothing from src/ (a host is only ever a process on the wire)', () => {
    const inward = ['sim', 'oracle']
      .flatMap((dir) => typeScriptFiles(REPO_ROOT, dir))
      .flatMap((file) =>
        forbiddenImports(read(file), file, ['blackbox', 'cli']).map((specifier) => `${file}: ${specifier}`),
      );
    const blackbox = typeScriptFiles(REPO_ROOT, 'blackbox');
    expect(blackbox.length).toBeGreaterThan(6);
    const outward = blackbox.flatMap((file) =>
      forbiddenImports(read(file), file, ['src', 'cli']).map((specifier) => `${file}: ${specifier}`),
    );
    expect([...inward, ...outward]).toEqual([]);
  });
});

/**
 * What each part of the testbed may not import, as repo-relative folders (a top-level folder or a
 * deeper one), and the folders inside those it may import all the same. Tests are held to it too.
 * Packages, builtins and the folders not named here (contract/, test/support/, ...) are free.
 */
const PART_RULES: Record<
  'sim' | 'cores' | 'runner',
  { forbidden: readonly string[]; except?: readonly string[]; why: string }
> = {
  // The world: servers, transport, policy service, host process, planner, plans and faults, turns,
  // trace recording. It drives a core only through the core API and its guard (sim/guard/).
  sim: {
    forbidden: ['cores', 'runner', 'cli', 'src'],
    why: 'the world serves and records; the cores it runs are handed to it',
  },
  // The cores under test: the reference wrapper, mutants, peers, core modules, the core names.
  cores: {
    forbidden: ['sim', 'runner', 'oracle', 'cli'],
    except: ['sim/guard'],
    why: 'a core sees the world only through the core API',
  },
  // The runner: campaigns, batches and workers, the round check, determinism replay, shrinking,
  // reports and merging. It reaches src/ only through a core of cores/.
  runner: { forbidden: ['src', 'cli'], why: 'the runner composes world, cores and oracle; cli/ calls it' },
};

/**
 * Imports across the parts' lines that are there by design, each with why. Every entry must still
 * be made (the list cannot rot), and nothing else may cross.
 */
const PART_ALLOWED: Record<string, string> = {
  // F18's host disk is one real in-memory SQLite database per round; the world loads the driver
  // the way the durable store does, so both fail alike (NO_DRIVER) where the native build is missing.
  'sim/host/host-disk.ts -> src/registry/sqlite-driver.ts': 'the SQLite driver of the host disk',
};

/** Whether repo-relative `target` lies in `folder` (a repo-relative folder path). */
const within = (target: string, folder: string): boolean => target === folder || target.startsWith(`${folder}/`);

/**
 * The imports of `source` (the text of repo-relative `file`, in the part `rule` governs) that
 * cross the part's line, as the paths they land on.
 */
export function partCrossings(
  source: string,
  file: string,
  rule: { forbidden: readonly string[]; except?: readonly string[] },
): string[] {
  return moduleSpecifiers(source, file).flatMap((specifier) => {
    const target = repoPathOf(specifier, file);
    if (target === null || !rule.forbidden.some((folder) => within(target, folder))) return [];
    return (rule.except ?? []).some((folder) => within(target, folder)) ? [] : [target];
  });
}

describe('each part of the testbed imports only what its role needs', () => {
  const found = Object.entries(PART_RULES).flatMap(([part, rule]) =>
    typeScriptFiles(REPO_ROOT, part).flatMap((file) =>
      partCrossings(read(file), file, rule).map((target) => ({ crossing: `${file} -> ${target}`, why: rule.why })),
    ),
  );
  const crossings = found.map(({ crossing }) => crossing);

  it('sim/ imports neither cores/ nor runner/, cores/ sees only sim/guard/ of the world, runner/ imports no src/: but the allow-listed crossings', () => {
    expect(
      Object.keys(PART_RULES)
        .map((part) => typeScriptFiles(REPO_ROOT, part).length)
        .every((count) => count > 10),
    ).toBe(true);
    expect(
      found
        .filter(({ crossing }) => PART_ALLOWED[crossing] === undefined)
        .map(({ crossing, why }) => `${crossing} (${why})`),
    ).toEqual([]);
  });

  it('every allow-listed crossing is still made (the list cannot rot)', () => {
    expect(Object.keys(PART_ALLOWED).filter((crossing) => !crossings.includes(crossing))).toEqual([]);
  });

  it('sim/ imports from src/ nothing but the SQLite driver of the host disk', () => {
    const fromSrc = typeScriptFiles(REPO_ROOT, 'sim').flatMap((file) =>
      partCrossings(read(file), file, { forbidden: ['src'] }).map((target) => `${file} -> ${target}`),
    );
    expect(fromSrc).toEqual(['sim/host/host-disk.ts -> src/registry/sqlite-driver.ts']);
  });

  it('catches each crossing, lets the exceptions and the free folders through', () => {
    const source = [
      "import { referenceCore } from '../../cores/reference.ts';",
      "import { runCampaign } from '../../runner/campaign.ts';",
      "import type { CoreFactory } from '../guard/adapter.ts';",
      "import { CatalogHost } from '../../src/host.ts';",
      "import type { TraceEvent } from '../../contract/trace-events.ts';",
      "import { checkEvents } from '../../oracle/index.ts';",
    ].join('\n');
    expect(partCrossings(source, 'sim/turns/x.ts', PART_RULES.sim)).toEqual([
      'cores/reference.ts',
      'runner/campaign.ts',
      'src/host.ts',
    ]);
    const core = [
      "import type { CoreFactory } from '../../sim/guard/adapter.ts';",
      "import { generatePlan } from '../../sim/plan/generate.ts';",
      "import { CatalogHost } from '../../src/host.ts';",
      "import { runAndCheck } from '../../runner/round-check.ts';",
      "import { checkEvents } from '../../oracle/index.ts';",
    ].join('\n');
    expect(partCrossings(core, 'cores/peers/x.ts', PART_RULES.cores)).toEqual([
      'sim/plan/generate.ts',
      'runner/round-check.ts',
      'oracle/index.ts',
    ]);
    // sim/guardian/ is not sim/guard/: an exception is a folder, not a prefix of a name.
    expect(partCrossings("import { x } from '../sim/guardian/x.ts';", 'cores/x.ts', PART_RULES.cores)).toEqual([
      'sim/guardian/x.ts',
    ]);
    expect(
      partCrossings(
        "import { main } from '../cli/main.ts';\nimport { host } from '../src/host.ts';\nimport { runRound } from '../sim/round.ts';",
        'runner/x.ts',
        PART_RULES.runner,
      ),
    ).toEqual(['cli/main.ts', 'src/host.ts']);
  });
});

describe('src/, sim/ and oracle/ reach time, randomness and timers only through the ports', () => {
  const scanned = ['src', 'sim', 'cores', 'runner', 'oracle']
    .flatMap((dir) => typeScriptFiles(REPO_ROOT, dir))
    .filter((file) => !file.endsWith('.test.ts'));

  it('no file outside the allow-list uses the clock, randomness or timers directly', () => {
    expect(scanned.length).toBeGreaterThan(100);
    const offences = scanned
      .filter((file) => !Object.hasOwn(AMBIENT_ALLOWED, file))
      .flatMap((file) => ambientUses(read(file), file).map((use) => `${file}:${use.line}: ${use.what}`));
    expect(offences).toEqual([]);
  });

  it('every allow-listed file exists and still holds a use (the list cannot rot)', () => {
    const idle = Object.keys(AMBIENT_ALLOWED).filter(
      (file) => !scanned.includes(file) || ambientUses(read(file), file).length === 0,
    );
    expect(idle).toEqual([]);
  });

  it('a Date.now() added to src/registry/registry.ts is caught, at its line', () => {
    const lines = read('src/registry/registry.ts').split('\n');
    expect(ambientUses(lines.join('\n'))).toEqual([]);
    const at = lines.length;
    const changed = [...lines, 'export const stampedAt = Date.now();'].join('\n');
    expect(ambientUses(changed)).toEqual([{ line: at + 1, what: 'Date.now' }]);
  });

  it('flags each form of ambient time, randomness and timers', () => {
    const source = [
      'const a = Date.now();',
      'const b = new Date();',
      'const c = Date();',
      'const d = Math.random();',
      'const e = performance.now();',
      'const f = process.hrtime.bigint();',
      'const g = crypto.randomUUID();',
      'const h = crypto.randomBytes(8);',
      'setTimeout(() => undefined, 5);',
      'setInterval(tick, 5);',
      'setImmediate(tick);',
      'const i = globalThis.setTimeout;',
      'const j = globalThis.Date.now();',
      "import { randomUUID as uuid } from 'node:crypto';",
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'const k = new globalThis.Date();',
    ].join('\n');
    expect(ambientUses(source).map((use) => `${use.line} ${use.what}`)).toEqual([
      '1 Date.now',
      '2 new Date()',
      '3 Date()',
      '4 Math.random',
      '5 performance.now',
      '6 process.hrtime',
      '7 crypto.randomUUID',
      '8 crypto.randomBytes',
      '9 setTimeout',
      '10 setInterval',
      '11 setImmediate',
      '12 setTimeout',
      '13 Date.now',
      '14 import randomUUID from node:crypto',
      '15 import from node:timers/promises',
      '16 new Date()',
    ]);
  });

  it('lets through what reads no clock: comments, strings, types, methods of the same name, new Date(ms), ports', () => {
    const source = [
      '// Date.now() and setTimeout in a comment',
      "const s = 'Math.random() in a string';",
      'let timer: ReturnType<typeof setTimeout> | undefined;',
      'socket.setTimeout(1000, onIdle);',
      'const when = new Date(1_796_000_000_000).toISOString();',
      'const now = clock.now();',
      'const r = random.next();',
      'const fake = { setTimeout: arm, Date: VirtualDate };',
      'scheduler.after(5, fn);',
      "import { createHash } from 'node:crypto';",
      'interface Timers { setInterval(fn: () => void): void }',
    ].join('\n');
    expect(ambientUses(source)).toEqual([]);
  });
});

/** The repository's top-level folders of code (every one but node_modules/, dist/ and .git/). */
const CODE_FOLDERS = [
  'api',
  'bench',
  'bin',
  'blackbox',
  'cli',
  'contract',
  'cores',
  'examples',
  'oracle',
  'runner',
  'scenarios',
  'scripts',
  'sim',
  'src',
  'test',
];

/** Every module file (`.ts`, `.mts`, `.mjs`, `.js`) under `dir`, repo-relative and `/`-separated; node_modules skipped. */
function moduleFiles(dir: string): string[] {
  return readdirSync(resolve(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : moduleFiles(path);
    return /\.(?:[cm]?ts|[cm]?js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The folder whose `internal/` the repo-relative `target` lies in (`src/surface` for
 * `src/surface/internal/parts.ts`), or null when it lies in none.
 */
export function internalOwner(target: string): string | null {
  const parts = target.split('/');
  const at = parts.lastIndexOf('internal', parts.length - 2);
  return at < 1 ? null : parts.slice(0, at).join('/');
}

/** The imports of `source` (the text of repo-relative `file`) that reach into another folder's `internal/`, as the paths they land on. */
export function internalReaches(source: string, file: string): string[] {
  return moduleSpecifiers(source, file).flatMap((specifier) => {
    const target = repoPathOf(specifier, file);
    const owner = target === null ? null : internalOwner(target);
    return owner === null || file.startsWith(`${owner}/`) ? [] : [target as string];
  });
}

/**
 * Reaches into another folder's `internal/` that are there by design, each with why. Every
 * entry must still be used (the list cannot rot), and nothing else may reach in.
 */
const INTERNAL_ALLOWED: Record<string, Record<string, string>> = {
  // Checker validation (DESIGN.md section 12): the reference core and its mutants are built from
  // src/'s internal seams, never through HostConfig, so no host can turn a defence off by
  // configuration. The simulator's reference wrapper and the mutants are the seams' only users.
  'cores/reference.ts': {
    'src/internal/seams.ts': "the core's parts a mutant replaces",
    'src/surface/internal/engine.ts': 'the tool surface stage built from replaceable parts',
    'src/surface/internal/parts.ts': "the surface stage's reference parts",
  },
  'cores/mutants/surface.ts': {
    'src/surface/internal/capacity-fit.ts': 'a surface mutant replaces the capacity fit',
    'src/surface/internal/compare.ts': 'surface mutants replace the comparisons',
    'src/surface/internal/parts.ts': "the surface stage's reference parts, one replaced per mutant",
    'src/surface/internal/projection.ts': 'a surface mutant replaces the projection',
  },
  // The surface benchmark times the stage's internal checks themselves (docs/SURFACE.md, "Cost"),
  // which no public entry runs alone.
  'bench/surface.bench.ts': {
    'src/surface/internal/compare.ts': 'the early and final checks, timed alone',
    'src/surface/internal/json-value.ts': 'the JSON walk the checks use, timed alone',
    'src/surface/internal/preparation.ts': 'a preparation built without a host',
    'src/surface/internal/write-tracker.ts': "the tracked mode's write tracker, timed alone",
  },
};

describe("a folder's internal/ is its own", () => {
  const files = CODE_FOLDERS.flatMap((dir) => moduleFiles(dir));
  const reaches = files.flatMap((file) => internalReaches(read(file), file).map((target) => ({ file, target })));

  it("no file reaches into another folder's internal/ but the allow-listed ones", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(
      reaches
        .filter(({ file, target }) => INTERNAL_ALLOWED[file]?.[target] === undefined)
        .map(({ file, target }) => `${file} -> ${target}`),
    ).toEqual([]);
  });

  it('every allow-listed reach is still made (the list cannot rot)', () => {
    const made = new Set(reaches.map(({ file, target }) => `${file} -> ${target}`));
    const listed = Object.entries(INTERNAL_ALLOWED).flatMap(([file, targets]) =>
      Object.keys(targets).map((target) => `${file} -> ${target}`),
    );
    expect(listed.filter((reach) => !made.has(reach))).toEqual([]);
  });

  it("tells a reach from the owner's own imports, at any depth", () => {
    const source = [
      "import { seams } from '../internal/seams.ts';",
      "import { parts } from './internal/parts.ts';",
      "import type { Memo } from '../validation/internal/memo.ts';",
      "import { z } from 'zod';",
      "import { clone } from '../../internal/plain-clone.ts';",
    ].join('\n');
    // src/surface/x.ts owns src/surface/internal/ and sits in src/, which owns src/internal/.
    expect(internalReaches(source, 'src/surface/x.ts')).toEqual(['src/validation/internal/memo.ts']);
    // sim/transport/internal/a.ts reaching sim/internal/ (its ancestor's) is the owner's own.
    expect(
      internalReaches("import { clone } from '../../internal/plain-clone.ts';", 'sim/transport/internal/a.ts'),
    ).toEqual([]);
    // sim/campaign/batch.ts owns sim/campaign/internal/ and sits in sim/, but not in sim/validation/.
    expect(internalReaches(source, 'sim/campaign/batch.ts')).toEqual(['sim/validation/internal/memo.ts']);
    // What sim/campaign/batch.ts did before issue 31: a memo of src/validation/internal/.
    expect(
      internalReaches(
        "import { setDescriptorMemoEntries } from '../../src/validation/internal/bounded-memo.ts';",
        'sim/campaign/batch.ts',
      ),
    ).toEqual(['src/validation/internal/bounded-memo.ts']);
    expect(internalOwner('src/validation/internal/bounded-memo.ts')).toBe('src/validation');
    expect(internalOwner('src/internal/seams.ts')).toBe('src');
    expect(internalOwner('src/validation/trust.ts')).toBeNull();
  });
});

describe('src/ keeps no process-wide mutable state', () => {
  const files = typeScriptFiles(REPO_ROOT, 'src').filter(
    (file) => !file.endsWith('.test.ts') && !file.includes('/testing/'),
  );

  it('no module of the library holds a memo, pool, cache, mutable collection or let at module level', () => {
    expect(files.length).toBeGreaterThan(70);
    expect(
      files.flatMap((file) => moduleState(read(file), file).map((state) => `${file}:${state.line}: ${state.what}`)),
    ).toEqual([]);
  });

  it('flags each kind of module-level state, and nothing inside functions, classes or types', () => {
    const source = [
      'let count = 0;',
      'export var flag = true;',
      'const memo = new BoundedMemo<string>(5);',
      'const seen = new Map<string, number>();',
      "const names = new Set(['a']);",
      'const verdicts = descriptorMemo<string>();',
      'const pending: string[] = [];',
      'const byKey: Record<string, number> = {};',
      'const pool = new Ajv(OPTIONS);',
    ].join('\n');
    expect(moduleState(source).map((state) => `${state.line} ${state.what}`)).toEqual([
      '1 count: a module-level let',
      '2 flag: a module-level var',
      '3 memo: new BoundedMemo()',
      '4 seen: new Map() (declare it ReadonlyMap<...> if it is constant)',
      '5 names: new Set() (declare it ReadonlySet<...> if it is constant)',
      '6 verdicts: descriptorMemo()',
      '7 pending: an empty array to fill',
      '8 byKey: an empty object to fill',
      '9 pool: new Ajv()',
    ]);
  });

  it('lets through constants, weak annotations, readonly views and everything inside a function or class', () => {
    const source = [
      "const NAME = 'catsim';",
      'const KNOWN = new WeakMap<object, string>();',
      "const KEYWORDS: ReadonlySet<string> = new Set(['items']);",
      "const DIALECTS: ReadonlyMap<string, number> = new Map([['a', 1]]);",
      'const DEFAULTS = Object.freeze({ entries: 512 });',
      'const LIMITS = { pageCountMax: 64 };',
      "const PATTERN = new RegExp('^a$');",
      'function f(): void { let local = 0; const m = new Map(); local += m.size; }',
      'class C { readonly #memo = new BoundedMemo<string>(5); static cache = new Map(); }',
    ].join('\n');
    expect(moduleState(source)).toEqual([]);
  });
});

/** A fault file's repo-relative path: `sim/faults/fNN-name.ts` or `sim/faults/equivocation.ts`. */
export function isFaultFile(path: string): boolean {
  return /^sim\/faults\/(f\d\d-[a-z0-9-]+|equivocation)\.ts$/.test(path);
}

/**
 * The imports of `source` (the text of repo-relative `file`) that name a fault file, when `file`
 * lies outside sim/faults/: the rest of the house reaches the faults through the registry
 * (sim/faults/index.ts) and the rule kinds, never one fault's file. A fault's own test
 * (`test/faults/<its name>.test.ts`) may import it.
 */
export function faultFileImports(source: string, file: string): string[] {
  if (file.startsWith('sim/faults/')) return [];
  return moduleSpecifiers(source, file).filter((specifier) => {
    const target = repoPathOf(specifier, file);
    return target !== null && isFaultFile(target) && file !== `test/faults/${posix.basename(target, '.ts')}.test.ts`;
  });
}

/** Imports of one fault's file from outside sim/faults/ that are there by design, each with why. */
const FAULT_FILE_IMPORTS_ALLOWED: Record<string, string> = {
  // The mutants' hand-built plans plant the very descriptors F13 and F14 generate (plantF13, lyingTool),
  // and declare the output schema F33 gives its tool (OUTPUT_SCHEMA).
  'test/mutants/plans.ts': "F13's and F14's planting helpers and F33's output schema, for hand-built plans",
};

describe('a fault is one file: nothing outside sim/faults/ imports a fault file (issue 31, item 4)', () => {
  const scanned = ['api', 'blackbox', 'cli', 'contract', 'cores', 'oracle', 'runner', 'sim', 'src', 'test'].flatMap(
    (dir) => typeScriptFiles(REPO_ROOT, dir),
  );

  it('no file outside sim/faults/ (tests included) imports a fault file, but its own test and the allow-list', () => {
    expect(scanned.filter(isFaultFile).length).toBeGreaterThanOrEqual(24);
    const offences = scanned
      .filter((file) => FAULT_FILE_IMPORTS_ALLOWED[file] === undefined)
      .flatMap((file) => faultFileImports(read(file), file).map((specifier) => `${file}: ${specifier}`));
    expect(offences).toEqual([]);
  });

  it('every allow-listed file still imports a fault file (the list cannot rot)', () => {
    for (const file of Object.keys(FAULT_FILE_IMPORTS_ALLOWED))
      expect(faultFileImports(read(file), file), file).not.toEqual([]);
  });

  it('catches an import of a fault file, lets the registry, the rule kinds and a fault’s own test through', () => {
    const source = [
      "import { GUESS_OWN_AUDIENCE_FRACTION } from './faults/f17-guessed-names.ts';",
      "import type { EQUIVOCATION } from './faults/equivocation.ts';",
      "import { PLANNER_RULES } from './faults/index.ts';",
      "import type { FaultDefinition } from './faults/fault.ts';",
      "import type { ToolChoiceRule } from './planner-rules.ts';",
    ].join('\n');
    expect(faultFileImports(source, 'sim/planner.ts')).toEqual([
      './faults/f17-guessed-names.ts',
      './faults/equivocation.ts',
    ]);
    expect(faultFileImports(source, 'sim/faults/index.ts')).toEqual([]);
    expect(
      faultFileImports(
        "import { plantF13 } from '../../sim/faults/f13-planted-defects.ts';",
        'test/faults/f13-planted-defects.test.ts',
      ),
    ).toEqual([]);
    expect(
      faultFileImports(
        "import { plantF13 } from '../../sim/faults/f13-planted-defects.ts';",
        'test/faults/f14-lying-annotations.test.ts',
      ),
    ).toEqual(['../../sim/faults/f13-planted-defects.ts']);
  });
});
