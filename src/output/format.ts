// Lists and records print one of four ways (the run's output choice, src/output/choice.ts): a
// table for a person, tab-separated rows with ISO dates for scripts, CSV for spreadsheets, and
// the raw objects under --json. Commands describe columns once.
// Values come from the services, so each way is made safe (src/core/sanitize.ts):
// - table cells and record values: control characters shown as escapes, long text shortened;
// - TSV cells: control characters escaped (a tab or newline would break the row), never
//   shortened: scripts get whole values;
// - CSV (src/output/csv.ts): cells that start like a formula written as text. Piped, the data is
//   exact (csv-stringify quotes what needs it); to a terminal, control characters in cells are
//   shown as escapes like TSV and long cells shortened like table cells, because nothing but a
//   person reads it there;
// - --json: exact (JSON escapes them; safeJson adds \u escapes for what JSON leaves raw).
// Counts (columns marked `count`, record fields marked so) are grouped in a table (12,345) and
// raw everywhere else; nothing is guessed from the values, so codes and numbers stay as they are.
import type { IO } from '../cli/io.js';
import { forTerminal, forTsvCell } from '../core/sanitize.js';
import type { Cell } from './csv.js';

/** The widest a table cell gets on a terminal; the whole value is in TSV and --json. */
export const TABLE_CELL_MAX = 120;
/** For a column of links: whole (a shortened link is useless), but a runaway value is still cut. */
export const LINK_CELL_MAX = 4000;
/** The widest a record's value gets on a terminal ("key  value" lines, or its CSV row there). */
const RECORD_VALUE_MAX = 300;

/** How a count reads in this output: grouped in a table, raw for scripts and spreadsheets. */
export type CountFormat = (n: unknown) => string;

export interface Column<T> {
  header: string;
  /** The cell; `n` formats a count inside composed text (`${n(x)} (12.5%)`). */
  value: (row: T, n: CountFormat) => unknown;
  /** The value is a count: 12,345 in a table, 12345 in TSV, CSV and JSON. */
  count?: boolean;
  /** Dates render relative on a terminal and ISO when piped. */
  date?: boolean;
  /** The widest this column's cells get in a table (default TABLE_CELL_MAX): a link must stay whole to be usable. */
  max?: number;
  /** A colour for the cell on a terminal, applied after the value is made safe. */
  paint?: (row: T) => Parameters<IO['paint']>[0] | undefined;
  /** The CSV header when the table's would not do (default: the header in snake_case). */
  csvHeader?: string;
}

/** A CSV column of its own, for lists whose spreadsheet form carries other fields than the table. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => unknown;
  /** The widest a cell gets when the CSV goes to a terminal (default TABLE_CELL_MAX); piped, it is whole. */
  max?: number;
}

export interface ListOptions<T> {
  /** The CSV columns (default: the table's, raw). */
  csv?: CsvColumn<T>[];
  /** Said on stderr for an empty list in a table (default "No results."). */
  empty?: string;
}

export async function printList<T>(io: IO, rows: T[], columns: Column<T>[], json: unknown = rows, o: ListOptions<T> = {}): Promise<void> {
  switch (io.output) {
    case 'json':
      io.printJson(json);
      return;
    case 'csv': {
      const csv: CsvColumn<T>[] = o.csv ?? columns.map((c) => ({ header: c.csvHeader ?? snake(c.header), value: (row: T) => rawCell(c, row), max: c.max }));
      await writeCsv(io, csv.map((c) => c.header), rows.map((row) => csv.map((c) => c.value(row))), csv.map((c) => c.max ?? TABLE_CELL_MAX));
      return;
    }
    case 'tsv':
      for (const row of rows) io.out(columns.map((c) => forTsvCell(cell(c, row, false))).join('\t'));
      return;
    case 'table':
      break;
  }
  if (rows.length === 0) {
    io.info(o.empty ?? 'No results.');
    return;
  }
  const { default: Table } = await import('cli-table3');
  // Colour is decided by IO alone (the run's env and terminal): cli-table3's own styling asks
  // the colors package, which reads process-wide state (CI, process.stdout) instead. A table
  // asked for on a pipe (--output table) carries no colour codes into the file.
  const paint: IO['paint'] = (style, text) => (io.isTTY ? io.paint(style, text) : text);
  const table = new Table({
    head: columns.map((c) => paint('cyan', c.header)),
    style: { head: [], border: [] },
  });
  for (const row of rows) {
    table.push(columns.map((c) => {
      const safe = forTsvCell(cell(c, row, true), c.max ?? TABLE_CELL_MAX);
      const style = c.paint?.(row);
      return style ? paint(style, safe) : safe;
    }));
  }
  io.out(table.toString());
}

/** A field of a record: its label, its value, and whether the value is a count. */
export type Field = [label: string, value: unknown, kind?: { count?: boolean }];

/** One record as "key: value" lines in a table, key<TAB>value piped, a header and a row in CSV, or the object under --json. */
export async function printRecord(io: IO, pairs: Field[], json: unknown): Promise<void> {
  switch (io.output) {
    case 'json':
      io.printJson(json);
      return;
    case 'csv':
      await writeCsv(io, pairs.map(([k]) => snake(k)), [pairs.map(([, v]) => csvCell(v))], pairs.map(() => RECORD_VALUE_MAX));
      return;
    case 'tsv':
      for (const [k, v] of pairs) io.out(`${forTsvCell(k)}\t${forTsvCell(display(v))}`);
      return;
    case 'table': {
      const width = Math.max(...pairs.map(([k]) => k.length));
      for (const [k, v, kind] of pairs) io.out(`${forTerminal(k).padEnd(width)}  ${forTerminal(kind?.count ? grouped(v) : display(v), RECORD_VALUE_MAX)}`);
    }
  }
}

/**
 * Rows as CSV on stdout (src/output/csv.ts, formula-safe). Piped: exact and whole, for a
 * spreadsheet or a script. On a terminal a person reads it: cells sanitised and cut at their
 * column's `max` (a 200 KB name would otherwise flood the screen).
 */
async function writeCsv(io: IO, header: string[], rows: unknown[][], max: number[]): Promise<void> {
  const { toCsv } = await import('./csv.js');
  const tty = io.isTTY;
  const cells = rows.map((r) => r.map((v, i) => {
    const c = csvCell(v);
    return tty && typeof c === 'string' ? forTsvCell(c, max[i] ?? TABLE_CELL_MAX) : c;
  }));
  io.stdout.write(toCsv(cells, tty ? header.map((h) => forTsvCell(h)) : header));
}

/** "MESSAGE ID" → message_id, "Rows in file" → rows_in_file. */
function snake(header: string): string {
  return header.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A CSV cell: numbers and booleans stay typed, lists and objects read as in TSV. */
function csvCell(v: unknown): Cell {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return v;
  return display(v);
}

const RAW: CountFormat = (n) => display(n);

/** A column's value for scripts: dates in ISO, counts raw. */
function rawCell<T>(c: Column<T>, row: T): unknown {
  const v = c.value(row, RAW);
  if (c.date && typeof v === 'string' && v) return isoDate(v);
  return v;
}

function cell<T>(c: Column<T>, row: T, table: boolean): string {
  const v = c.value(row, table ? grouped : RAW);
  if (c.date && typeof v === 'string' && v) return table ? relativeTime(v) : isoDate(v);
  if (c.count && table) return grouped(v);
  return display(v);
}

let groups: Intl.NumberFormat | undefined;

/**
 * 12345 → "12,345" (a number, or a string of digits from a service that Number() keeps exact);
 * anything else as it is. Always this grouping, whatever the locale: a table reads the same on
 * every machine.
 */
export function grouped(v: unknown): string {
  groups ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });
  if (typeof v === 'number' && Number.isFinite(v)) return groups.format(v);
  if (typeof v === 'bigint') return groups.format(v);
  if (typeof v === 'string' && /^-?\d{1,15}(\.\d+)?$/.test(v.trim())) return groups.format(Number(v.trim()));
  return display(v);
}

function display(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(display).join(',');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function isoDate(v: string): string {
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
}

export function relativeTime(v: string, now = Date.now()): string {
  const t = Date.parse(v);
  if (Number.isNaN(t)) return v;
  const s = Math.round((now - t) / 1000);
  const future = s < 0;
  const a = Math.abs(s);
  const [n, unit] =
    a < 60 ? [a, 'second'] : a < 3600 ? [Math.floor(a / 60), 'minute'] : a < 86400 ? [Math.floor(a / 3600), 'hour'] : a < 86400 * 60 ? [Math.floor(a / 86400), 'day'] : [0, ''];
  if (!unit) return new Date(t).toISOString().slice(0, 10);
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${text}` : `${text} ago`;
}
