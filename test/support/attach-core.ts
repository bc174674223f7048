/**
 * Throwaway core modules for the tests of what catsim does when a core misbehaves inside a round
 * (a stuck loop, a heap it exhausts, a throw from its own timer): each module is a plain `.mjs`
 * file whose `attach` runs one statement and which otherwise discloses nothing and refuses every
 * call (`INCOMPLETE_DISCOVERY`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A directory of such modules under the system temp directory (`<prefix>XXXXXX`, with a
 * `package.json` of `"type": "module"`), and `core(name, body)`, which writes `<name>.mjs` there
 * (its `attach` runs `body`; its probe build, `create` alone, is left alone) and returns its path.
 */
export function attachCores(prefix: string): { dir: string; core: (name: string, body: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const core = (name: string, body: string): string => {
    const path = join(dir, `${name}.mjs`);
    writeFileSync(
      path,
      `export default { name: '${name}', create() {
  return {
    attach() { ${body} },
    disclose() { return { ok: false, code: 'INCOMPLETE_DISCOVERY' }; },
    call() { return Promise.resolve({ ok: false, code: 'INCOMPLETE_DISCOVERY' }); },
    pushPolicy() {}, stop() {},
  };
} };\n`,
    );
    return path;
  };
  return { dir, core };
}
