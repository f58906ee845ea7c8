// The one CSV writer for files a person opens in a spreadsheet (rejects, report metrics, event
// lists, manifests, every --csv output): csv-stringify, with cells that start like a formula (= + -
// @, tab, CR and their full-width forms) prefixed with ' so a spreadsheet shows them as text
// instead of running them, and every cell holding a line break (CR, LF or both) quoted, so one
// record is one row. Numbers stay numbers. The cleaned import upload is NOT written here: it must carry the
// contact data unchanged (src/import/csv-writer.ts).
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | bigint | boolean | null | undefined;

// csv-stringify quotes a cell holding the record delimiter (\n) but not a lone CR, which Python's
// csv module, Excel and LibreOffice all read as a line end: the row split in two, and what followed
// the CR — a formula the guard above never saw, as it starts mid-cell — became the first cell of a
// row of its own. So every cell holding CR or LF is quoted.
const OPTIONS = { escape_formulas: true, record_delimiter: '\n', quoted_match: /[\r\n]/, cast: { boolean: (b: boolean) => String(b) } } as const;

/** Rows (and an optional header row) as CSV text, each line ending in \n. */
export function toCsv(rows: readonly (readonly Cell[])[], header?: readonly string[]): string {
  const all = header ? [header, ...rows] : rows;
  return stringify(all as Cell[][], OPTIONS);
}

/** One row as a CSV line ending in \n, for writers that stream. */
export function csvLine(cells: readonly Cell[]): string {
  return stringify([cells as Cell[]], OPTIONS);
}

