/**
 * `catsim manifests FILE...` (docs/CLI.md, docs/EMBEDDING.md "Operator manifests"): one `ok` line
 * per valid operator manifest file, and the first bad file's one line with exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catsim } from './support/run-cli.ts';

const EXAMPLE = 'examples/manifests/jobs.manifests.json';

describe('catsim manifests', () => {
  it('checks the example file: server jobs, its two tools', async () => {
    expect(await catsim(['manifests', EXAMPLE])).toEqual({
      code: 0,
      stdout: `ok ${EXAMPLE}: catsim.manifests.v1, server jobs, 2 tools described (rerun, status)\n`,
      stderr: '',
    });
  });

  it('stops at the first bad file with its one line and exit 2, after the good files before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-manifests-'));
    const retried = join(dir, 'retried.json');
    // A WRITE tool with no idempotency retried 3 times could act three times.
    writeFileSync(
      retried,
      JSON.stringify({
        schema: 'catsim.manifests.v1',
        server: 'jobs',
        tools: { rerun: { sideEffect: 'WRITE', retry: { maxAttempts: 3, backoffMs: 10 } } },
      }),
    );
    const run = await catsim(['manifests', EXAMPLE, retried, join(dir, 'never-read.json')]);
    expect(run).toEqual({
      code: 2,
      stdout: `ok ${EXAMPLE}: catsim.manifests.v1, server jobs, 2 tools described (rerun, status)\n`,
      stderr: `catsim: manifest file ${retried}: tools.rerun.retry.maxAttempts is above 1, but the tool is not READ and its idempotency is none (a retry could act twice)\n`,
    });
  });

  it('says a missing file, a directory and a file that is not JSON in one line each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-manifests-'));
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{"schema": ');
    const lines = [];
    for (const path of [join(dir, 'nope.json'), dir, notJson]) {
      const run = await catsim(['manifests', path]);
      lines.push([run.code, run.stdout, run.stderr]);
    }
    expect(lines).toEqual([
      [2, '', `catsim: manifest file ${join(dir, 'nope.json')}: no such file\n`],
      [2, '', `catsim: manifest file ${dir}: is a directory, not a file\n`],
      // V8 words the parse error itself (it differs between Node versions): one line, after this prefix.
      [2, '', expect.stringMatching(new RegExp(`^catsim: manifest file ${notJson}: not JSON: [^\\n]+\\n$`))],
    ]);
  });
});
