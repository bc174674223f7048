/**
 * The command line of a stdio server (`--stdio "CMD ARGS"`), split into the program and its
 * arguments without a shell.
 */
import { ConnectError } from './connect-error.ts';

/**
 * Splits a command line the way a POSIX shell would for simple cases: whitespace separates
 * words, single and double quotes group, backslash escapes the next character outside single
 * quotes. No expansion of variables, globs or substitutions, so nothing is run but the program.
 * @returns the words, program first; an empty array for a blank line.
 * @throws ConnectError `unterminated " quote in command line: LINE` (or `'`) on an open quote.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[(i += 1)];
      inWord = true;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) throw new ConnectError(`unterminated ${quote} quote in command line: ${line}`);
  if (inWord) words.push(word);
  return words;
}
