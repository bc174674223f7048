/**
 * Regenerates the field tables of docs/TRACE.md from the contract (contract/trace/doc.ts).
 * `npx tsx contract/scripts/trace-doc.ts --write` rewrites the document; with `--check` (or no
 * option) it only compares, printing which file is stale and exiting 1 when it differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withGeneratedTables } from '../trace/doc.ts';

const path = fileURLToPath(new URL('../../docs/TRACE.md', import.meta.url));
const current = readFileSync(path, 'utf8');
const generated = withGeneratedTables(current);
if (process.argv.includes('--write')) {
  if (generated !== current) writeFileSync(path, generated);
  console.log(generated === current ? 'docs/TRACE.md is up to date' : 'docs/TRACE.md rewritten from contract/trace/');
} else if (generated !== current) {
  console.error('docs/TRACE.md differs from contract/trace/: run npx tsx contract/scripts/trace-doc.ts --write');
  process.exitCode = 1;
} else {
  console.log('docs/TRACE.md is up to date');
}
