/**
 * The files a command reads, as `[option, path]` pairs, so that an output option naming one of
 * them is refused before any work (cli/output.ts `assertNotInputs`).
 */
import { isCoreModulePath } from '../cores/module-core.ts';
import { scenarioFile } from '../sim/plan/scenario.ts';

/** The input options of a command, as typed; any may be absent. */
export interface InputOptions {
  /** `--scenario`: a built-in name (its file in the package's `scenarios/`) or a path. */
  scenario?: string;
  /** `--catalog` file. */
  catalog?: string;
  /** `--core`: a built-in core name (no file) or a core module path. */
  core?: string;
  /** `--plan` file (`replay`). */
  plan?: string;
}

/** The `[option, path]` pairs of the files `options` name; built-in cores name no file. */
export function inputFiles(options: InputOptions): [option: string, path: string | undefined][] {
  return [
    [
      '--scenario',
      options.scenario === undefined || options.scenario === '' ? undefined : scenarioFile(options.scenario),
    ],
    ['--catalog', options.catalog],
    ['--core', options.core !== undefined && isCoreModulePath(options.core) ? options.core : undefined],
    ['--plan', options.plan],
  ];
}
