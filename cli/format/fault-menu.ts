/**
 * The fault menu as `catsim run --help` prints it, from the fault registry (sim/faults/index.ts).
 */
import { FAULTS, SCENARIO_FAULTS } from '../../sim/faults/index.ts';

/**
 * The fault menu for `catsim run --help`, from the registry: one line per fault, id and title
 * (a scenario's `faults` lists ids; each round enables a seeded subset).
 */
export function faultMenuHelp(): string {
  const width = Math.max(...[...FAULTS, ...SCENARIO_FAULTS].map((fault) => fault.id.length));
  const entry = (fault: { id: string; title: string }) => hangingLines(`  ${fault.id.padEnd(width)}  `, fault.title);
  return [
    'Faults (a scenario\'s "faults"; each round enables a seeded subset, sim/faults/):',
    ...FAULTS.flatMap(entry),
    ...SCENARIO_FAULTS.flatMap(entry),
  ].join('\n');
}

/** `text` after `lead`, wrapped at HELP_COLUMNS with its continuation lines under the text (yargs would not indent them). */
function hangingLines(lead: string, text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && lead.length + line.length + 1 + word.length > HELP_COLUMNS) {
      lines.push(line);
      line = '';
    }
    line += line === '' ? word : ` ${word}`;
  }
  return [...lines, line].map((part, i) => `${i === 0 ? lead : ' '.repeat(lead.length)}${part}`);
}

/** Help lines stay within the 80 columns yargs wraps at. */
const HELP_COLUMNS = 79;
