/**
 * `catsim manifests FILE...`: checks operator manifest files (`catsim.manifests.v1`, the part of a
 * tool version MCP does not carry: owner, risk, permissions, side effect, retries, confirmation,
 * data classification, error codes; docs/EMBEDDING.md "Operator manifests", DESIGN.md section 9)
 * before a host embedding the reference core loads them into `CatalogHost`'s `manifestFiles`.
 */
import { MANIFEST_FILE_SCHEMA, ManifestFileError, parseManifestFile } from '../../src/capability/manifest-file.ts';
import { readInputText } from '../../sim/plan/input-file.ts';
import { InputError } from '../errors.ts';

/**
 * Checks each file in order and prints one line per valid file, `ok PATH: server S, N tools
 * described (T1, T2, ...)`; a tool the file does not name gets the safest defaults when its
 * manifest is built. Returns 0 when every file is valid.
 * @throws InputError (exit 2) with the first bad file's one line: `manifest file PATH: PROBLEM`
 *   (not JSON, a field the JSON Schema refuses, retries of a tool that may act twice, an error code
 *   or tool id given twice), or `PATH: no such file` and the other read problems.
 */
export function manifestsCommand(files: readonly string[]): number {
  for (const path of files) {
    const text = readInputText(path, (message) => new InputError(`manifest file ${message}`));
    let names: string[];
    let server: string;
    try {
      const file = parseManifestFile(text, path);
      names = Object.keys(file.tools);
      server = file.server;
    } catch (error) {
      if (error instanceof ManifestFileError) throw new InputError(error.message);
      throw error;
    }
    const listed = names.length === 0 ? '' : ` (${names.join(', ')})`;
    process.stdout.write(
      `ok ${path}: ${MANIFEST_FILE_SCHEMA}, server ${server}, ${names.length} tool${names.length === 1 ? '' : 's'} described${listed}\n`,
    );
  }
  return 0;
}
