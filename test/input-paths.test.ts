import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// A path that names a directory says so (not "not valid JSON", not "no such file"), and a
// --scenario value is a built-in name only when it has no "/" and does not end in .json.
describe('input paths say what they name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-inputs-'));
  const folder = join(dir, 'looks-like.json');
  mkdirSync(folder);
  const refused = (stderr: string) => ({ code: 2, stdout: '', stderr });

  it('--scenario: a directory is a directory, with or without .json, and a slash makes it a path', async () => {
    expect(await runMain(['run', '--rounds', '1', '--scenario', dir])).toEqual(
      refused(`catsim: ${dir}: is a directory, not a file\n`),
    );
    expect(await runMain(['run', '--rounds', '1', '--scenario', folder])).toEqual(
      refused(`catsim: ${folder}: is a directory, not a file\n`),
    );
    expect(await runMain(['run', '--rounds', '1', '--scenario', './default'])).toEqual(
      refused('catsim: ./default: no such file\n'),
    );
    expect(await runMain(['run', '--rounds', '1', '--scenario', 'tmp'])).toEqual(
      refused(
        'catsim: no built-in scenario "tmp" (there are: capability-versions, default, equivocation, host-restart, modern); a scenario file is named by a path with a "/" or ending in .json, e.g. ./tmp.json\n',
      ),
    );
    expect(await runMain(['run', '--rounds', '1', '--scenario', ''])).toEqual(
      refused('catsim: --scenario: the path is empty\n'),
    );
  });

  it('--catalog, replay --plan, check TRACE and merge REPORT: a directory is named as one', async () => {
    expect(await runMain(['run', '--rounds', '1', '--catalog', folder])).toEqual(
      refused(`catsim: ${folder}: is a directory, not a file\n`),
    );
    expect(await runMain(['replay', '--plan', folder])).toEqual(
      refused(`catsim: ${folder}: is a directory, not a file\n`),
    );
    expect(await runMain(['check', folder])).toEqual(refused(`catsim: ${folder}: is a directory, not a file\n`));
    expect(await runMain(['merge', folder])).toEqual(refused(`catsim: ${folder}: is a directory, not a file\n`));
    expect(await runMain(['run', '--rounds', '1', '--catalog', join(dir, 'none.json')])).toEqual(
      refused(`catsim: ${join(dir, 'none.json')}: no such file\n`),
    );
    expect(await runMain(['run', '--rounds', '1', '--catalog', ''])).toEqual(
      refused('catsim: --catalog: the path is empty\n'),
    );
    expect(await runMain(['check', ''])).toEqual(refused('catsim: "": the path is empty\n'));
  });
});
