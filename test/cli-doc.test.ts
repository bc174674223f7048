/**
 * docs/CLI.md documents every command and every flag: for each command `catsim --help` lists, the
 * flags its `--help` prints are exactly those in the first column of its section's table (a
 * `## catsim NAME` section), and the flags every command has (`--help`, `--version`) are in the
 * "Every command" section. A flag added to the command line without a line in docs/CLI.md fails
 * here, and so does a documented flag that no longer exists.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catsim } from './support/run-cli.ts';

const DOC = readFileSync('docs/CLI.md', 'utf8');

/** The flags a `--help` text lists in its Options section, e.g. `--seed`, `--page-count-max`. */
export function helpFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(--[a-z][a-z-]*)\b/gm)].map((match) => match[1] as string).sort();
}

/** The commands `catsim --help` lists. */
export function helpCommands(help: string): string[] {
  return [...help.matchAll(/^ {2}catsim ([a-z][a-z-]*)\b/gm)].map((match) => match[1] as string);
}

/** The body of the `## TITLE` section of a markdown text (to the next `## `), or undefined. */
export function section(markdown: string, title: string): string | undefined {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return undefined;
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The flags in the first column of a section's tables: `` | `--seed S` | `` gives `--seed`. */
export function documentedFlags(body: string): string[] {
  return [...body.matchAll(/^\| `(--[a-z][a-z-]*)[^`]*` \|/gm)].map((match) => match[1] as string).sort();
}

/** The commands `--help` of catsim names, in its order. */
const COMMANDS = [
  'run',
  'merge',
  'replay',
  'shrink',
  'prove',
  'check',
  'host-test',
  'serve',
  'judge',
  'manifests',
  'discover',
  'capture',
];
// The real command line, once per command, in parallel: yargs prints help through console.log.
const [top, ...helps] = await Promise.all([
  catsim(['--help']),
  ...COMMANDS.map((command) => catsim([command, '--help'])),
]);
const commands = helpCommands(top?.stdout ?? '');

describe('docs/CLI.md', () => {
  it('has a section for every command catsim --help lists, and none for a command that does not exist', () => {
    expect(commands).toEqual(COMMANDS);
    const documented = [...DOC.matchAll(/^## catsim ([a-z][a-z-]*)$/gm)].map((match) => match[1]);
    expect(documented).toEqual(commands);
  });

  it('lists the flags every command has in "Every command"', () => {
    expect(helpFlags(top?.stdout ?? '')).toEqual(['--help', '--version']);
    expect(documentedFlags(section(DOC, 'Every command') ?? '')).toEqual(['--help', '--version']);
  });

  it.each(COMMANDS.map((command, index) => [command, index] as const))(
    'lists exactly the flags of catsim %s --help',
    (command, index) => {
      const help = helps[index];
      expect(help?.code, help?.stderr).toBe(0);
      const flags = helpFlags(help?.stdout ?? '').filter((flag) => flag !== '--help' && flag !== '--version');
      expect(documentedFlags(section(DOC, `catsim ${command}`) ?? '')).toEqual(flags);
    },
  );

  it('reads flags the way --help and the tables write them, so the comparison can fail', () => {
    expect(
      helpFlags(
        'Options:\n  --help     Show help\n  --page-count-max  Quarantine a scan\n  --seed  Campaign seed\n      --not-an-option-line\n',
      ),
    ).toEqual(['--help', '--page-count-max', '--seed']);
    expect(
      documentedFlags(
        '| flag | default |\n| --- | --- |\n| `--seed S` | `1` |\n| `--scenario NAME\\|PATH` | x |\n| `--quiet` | off |\n| text with `--inline` | x |\n',
      ),
    ).toEqual(['--quiet', '--scenario', '--seed']);
    expect(section('# t\n\n## catsim run\nA\n### sub\nB\n## catsim merge\nC\n', 'catsim run')).toBe(
      '\n## catsim run\nA\n### sub\nB',
    );
  });
});
