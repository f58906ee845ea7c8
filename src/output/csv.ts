// The one CSV writer for files a person opens in a spreadsheet (rejects, report metrics, event
// lists, manifests): csv-stringify, with cells that start like a formula (= + - @, tab, CR and
// their full-width forms) prefixed with ' so a spreadsheet shows them as text instead of running
// them. Numbers stay numbers. The cleaned import upload is NOT written here: it must carry the
// contact data unchanged (src/import/csv-writer.ts).
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | bigint | boolean | null | undefined;

const OPTIONS = { escape_formulas: true, record_delimiter: '\n', cast: { boolean: (b: boolean) => String(b) } } as const;

/** Rows (and an optional header row) as CSV text, each line ending in \n. */
export function toCsv(rows: readonly (readonly Cell[])[], header?: readonly string[]): string {
  const all = header ? [header, ...rows] : rows;
  return stringify(all as Cell[][], OPTIONS);
}

/** One row as a CSV line ending in \n, for writers that stream. */
export function csvLine(cells: readonly Cell[]): string {
  return stringify([cells as Cell[]], OPTIONS);
}

/** Any value from a service as a cell: objects as JSON, nothing as an empty cell. */
export function toCell(v: unknown): Cell {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return typeof v === 'function' || typeof v === 'symbol' ? '' : (v as Cell);
}
