import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { captureCommand } from '../cli/commands/capture.ts';
import { InputError } from '../cli/errors.ts';
import { runMain } from './support/run-main.ts';

// Output paths are checked before any work starts: a typo in a directory name must cost a usage
// error up front, not the result of a shrink of 400 rounds or a capture of a slow server.
describe('output paths are checked before any work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-out-'));
  const missing = join(dir, 'no-such-dir');

  // Round 5 of seed 1 passes on the reference core: had the round run first, the error would be
  // "nothing to shrink", so the --out message shows the path was checked before it.
  it('shrink: an --out prefix in a missing directory is exit 2 with one line, before any round runs', async () => {
    const prefix = join(missing, 'x');
    const { code, stdout, stderr } = await runMain(['shrink', '--seed', '1', '--round', '5', '--out', prefix]);
    expect(stderr).toBe(
      `catsim: --out ${prefix}.plan.json: cannot write there (the directory ${missing} does not exist)\n`,
    );
    expect(stdout).toBe('');
    expect(code).toBe(2);
    expect(existsSync(missing)).toBe(false);
  });

  it('shrink: an --out prefix whose diagram path is a directory is refused too', async () => {
    const prefix = join(dir, 'taken');
    mkdirSync(`${prefix}.mmd`);
    const { code, stderr } = await runMain(['shrink', '--seed', '1', '--round', '5', '--out', prefix]);
    expect(stderr).toBe(`catsim: --out ${prefix}.mmd: cannot write there (it is a directory)\n`);
    expect(code).toBe(2);
  });

  it('capture: an --out file in a missing directory is refused before the server is started', async () => {
    const out = join(missing, 'catalog.json');
    // The command does not exist either: the path is checked first, so that is not what is reported.
    await expect(
      captureCommand({ stdio: 'no-such-command-catsim', timeoutMs: 2_000, pageCountMax: 10, out }),
    ).rejects.toThrow(new InputError(`--out ${out}: cannot write there (the directory ${missing} does not exist)`));
  });

  it('capture: with --out the catalog goes to the file and nothing to stdout', async () => {
    const out = join(dir, 'catalog.json');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const code = await captureCommand({
        stdio: `${process.execPath} test/support/raw-stdio-server.mjs ok`,
        timeoutMs: 10_000,
        pageCountMax: 10,
        out,
      });
      expect(code).toBe(0);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
    const catalog = JSON.parse(readFileSync(out, 'utf8'));
    expect(catalog.schema).toBe('catsim.catalog.v1');
    expect(catalog.pages).toEqual([
      { cursorIn: null, nextCursor: null, tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
    ]);
  });
});
