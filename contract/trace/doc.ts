/**
 * docs/TRACE.md's field tables come from the contract: each generated block sits between two
 * markers, `<!-- BEGIN GENERATED name -->` and `<!-- END GENERATED name -->`, and everything else
 * in the document is prose written by hand. `npx tsx contract/scripts/trace-doc.ts --write`
 * rewrites the blocks; contract/trace-doc.test.ts fails when the document differs from what the
 * contract generates, so the tables cannot drift from the definition.
 */
import { docBlocks } from '../internal/doc-tables.ts';

/** The markers around block `name`. */
function markers(name: string): { begin: string; end: string } {
  return {
    begin: `<!-- BEGIN GENERATED ${name} (npx tsx contract/scripts/trace-doc.ts --write) -->`,
    end: `<!-- END GENERATED ${name} -->`,
  };
}

/**
 * `doc` with every generated block replaced by what the contract generates now.
 * @throws Error naming the block when its markers are missing, out of order or repeated.
 */
export function withGeneratedTables(doc: string): string {
  let text = doc;
  for (const [name, block] of docBlocks()) {
    const { begin, end } = markers(name);
    const start = text.indexOf(begin);
    const stop = text.indexOf(end);
    if (start < 0 || stop < start || text.indexOf(begin, start + 1) >= 0) {
      throw new Error(`docs/TRACE.md: the generated block "${name}" needs exactly one "${begin}" followed by "${end}"`);
    }
    text = `${text.slice(0, start + begin.length)}\n${block}\n${text.slice(stop)}`;
  }
  return text;
}
