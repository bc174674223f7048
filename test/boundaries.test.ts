/**
 * The boundaries the house rules draw, checked on the source (parsed with the TypeScript
 * compiler API, test/support/source-scan.ts):
 * - src/ is a library a host embeds: it imports nothing from sim/, oracle/ or cli/ (the neutral
 *   contract/ folder, the trace format every part shares, is allowed);
 * - inside src/, sim/ and oracle/ time, randomness and timers come only through the ports: no
 *   file outside the explicit allow-list below reads the clock, draws randomness or arms a timer.
 * Tests (`*.test.ts`) are not scanned for ambient uses: they may wait on a real SDK timeout, and
 * no test code runs inside a simulated round.
 */
import { readFileSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ambientUses, moduleSpecifiers, typeScriptFiles } from './support/source-scan.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Top-level folders src/ must not import from. */
const FORBIDDEN_FROM_SRC = ['sim', 'oracle', 'cli'];

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
  'sim/campaign/campaign.ts': 'performance.now for throughput only',
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

describe('src/ is a library: it imports nothing from sim/, oracle/ or cli/', () => {
  it('no file under src/ (tests included) imports from sim/, oracle/ or cli/', () => {
    const files = typeScriptFiles(REPO_ROOT, 'src');
    expect(files.length).toBeGreaterThan(50);
    const offences = files.flatMap((file) => forbiddenImports(read(file), file, FORBIDDEN_FROM_SRC).map((specifier) => `${file}: ${specifier}`));
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
      "const text = \"import x from '../../sim/world.ts'\";",
    ].join('\n');
    expect(forbiddenImports(source, file, FORBIDDEN_FROM_SRC)).toEqual([]);
  });
});

describe('src/, sim/ and oracle/ reach time, randomness and timers only through the ports', () => {
  const scanned = ['src', 'sim', 'oracle'].flatMap((dir) => typeScriptFiles(REPO_ROOT, dir)).filter((file) => !file.endsWith('.test.ts'));

  it('no file outside the allow-list uses the clock, randomness or timers directly', () => {
    expect(scanned.length).toBeGreaterThan(100);
    const offences = scanned
      .filter((file) => !Object.hasOwn(AMBIENT_ALLOWED, file))
      .flatMap((file) => ambientUses(read(file), file).map((use) => `${file}:${use.line}: ${use.what}`));
    expect(offences).toEqual([]);
  });

  it('every allow-listed file exists and still holds a use (the list cannot rot)', () => {
    const idle = Object.keys(AMBIENT_ALLOWED).filter((file) => !scanned.includes(file) || ambientUses(read(file), file).length === 0);
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
      '1 Date.now', '2 new Date()', '3 Date()', '4 Math.random', '5 performance.now', '6 process.hrtime',
      '7 crypto.randomUUID', '8 crypto.randomBytes', '9 setTimeout', '10 setInterval', '11 setImmediate',
      '12 setTimeout', '13 Date.now', '14 import randomUUID from node:crypto', '15 import from node:timers/promises', '16 new Date()',
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
