/**
 * Lets each benchmark file run alone (`npx tsx bench/admission.bench.ts`): when the file is the
 * process's entry script, run it with the command-line options and print its tables.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BenchArgumentError, parseBenchArgs, type BenchOptions } from './args.ts';
import { machineLines } from './machine.ts';
import { printTable, type BenchTable } from './table.ts';

/** Whether the module at `moduleUrl` is the script node was started with. */
export function isEntry(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Runs `bench` with the process's options and prints the machine and its tables, if `moduleUrl`
 * is the entry script. `--no-header` leaves the machine lines out (`bench/run.ts` printed them). A
 * {@link BenchArgumentError} is one line on stderr and exit code 2.
 */
export async function runIfEntry(
  moduleUrl: string,
  bench: (options: BenchOptions) => Promise<BenchTable[]>,
): Promise<void> {
  if (!isEntry(moduleUrl)) return;
  try {
    const options = parseBenchArgs(process.argv.slice(2));
    if (!process.argv.includes('--no-header')) for (const line of machineLines()) console.log(line);
    for (const table of await bench(options)) printTable(table);
  } catch (error) {
    if (!(error instanceof BenchArgumentError)) throw error;
    console.error(`bench: ${error.message}`);
    process.exitCode = 2;
  }
}
