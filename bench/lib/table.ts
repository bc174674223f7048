/**
 * The printed form of a benchmark's result: one aligned text table with notes under it. Every
 * benchmark returns {@link BenchTable}s and never prints figures any other way, so `bench/run.ts`
 * and a benchmark run alone print the same thing.
 */

/** One benchmark's result: a title, a header row, data rows and free-text notes. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: string[][];
  notes: string[];
}

/** Prints a table: the first column left-aligned, the others right-aligned, notes indented. */
export function printTable(table: BenchTable, write: (line: string) => void = console.log): void {
  const widths = table.columns.map((column, index) =>
    Math.max(column.length, ...table.rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join('  ');
  write('');
  write(`== ${table.title}`);
  write(line(table.columns));
  write(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of table.rows) write(line(row));
  for (const note of table.notes) write(`  * ${note}`);
}

/** A number with `digits` significant digits (no exponent), e.g. 0.0123, 12.3, 12345. */
export function sig(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 6));
}

/** A ratio written `12.3x`. */
export function times(ratio: number): string {
  return `${sig(ratio)}x`;
}

/** Milliseconds written in microseconds, 3 significant digits. */
export function micros(ms: number): string {
  return sig(ms * 1000);
}

/** Bytes written in MiB with one decimal. */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
