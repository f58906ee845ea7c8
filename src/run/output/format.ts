// Lists and records print one of four ways (the run's output choice, src/run/output/choice.ts), one
// convention for every command (issue 20.6), as gh's table printer does it: commands hand the
// printer raw values and say what each column holds — a count, a rate, a date, or text — and
// the printer formats them for the output:
//
//              table (a person)          TSV, CSV (scripts, spreadsheets)   --json
//   count      12,345                    12345                              the command's document,
//   rate       23.1%                     0.231 (a fraction 0–1)             as the service sent it
//   date       3 hours ago (local)       2026-11-28T21:03:31Z (UTC)         (rates as fractions)
//
// Columns have one name: "OPEN RATE" in a table is open_rate in TSV and CSV, whose first line is
// that header, also for an empty list; a table has no rules, only aligned columns, and an empty
// one is a sentence on stderr naming what is empty. A column may be for the table only (a count
// with its rate in one cell) or for the data outputs only (every field of the service).
// Values come from the services, so each way is made safe (src/core/sanitize.ts):
// - table cells and record values: control characters shown as escapes, long text shortened;
// - TSV cells: control characters escaped (a tab or newline would break the row), never
//   shortened: scripts get whole values;
// - CSV (src/run/output/csv.ts): cells that start like a formula written as text. Piped, the data is
//   exact (csv-stringify quotes what needs it); to a terminal, control characters in cells are
//   shown as escapes like TSV and long cells shortened like table cells, because nothing but a
//   person reads it there;
// - --json: exact (JSON escapes them; safeJson adds \u escapes for what JSON leaves raw).
// Nothing is guessed from the values: a code of digits stays text unless its column says count.
import type { IO } from '../io.js';
import { forTerminal, forTsvCell } from '../../core/sanitize.js';
import type { Cell } from './csv.js';
import { isoUtc, localTime, readServiceTime, relativeTime } from './time.js';
import { displayWidth, padTo } from './width.js';

/** The widest a table cell gets on a terminal; the whole value is in TSV and --json. */
export const TABLE_CELL_MAX = 120;
/** For a column of links: whole (a shortened link is useless), but a runaway value is still cut. */
export const LINK_CELL_MAX = 4000;
/** The widest a record's value gets on a terminal ("key  value" lines, or its CSV row there). */
const RECORD_VALUE_MAX = 300;

/** What a column holds, so each output can show it its own way (the table above). */
export type Kind = 'text' | 'count' | 'rate' | 'date';

/** How this output writes a count or a rate, for a cell that composes text: `${f.count(n)} (${f.rate(r)})`. */
export interface Cells {
  count(v: unknown): string;
  rate(v: unknown): string;
}

type Style = Parameters<IO['paint']>[0];

export interface Column<T> {
  /** The column's one name, in capitals: "OPEN RATE" heads a table; open_rate heads TSV and CSV. */
  header: string;
  /** The raw value (a rate as a fraction, a date as the service sent it). */
  value: (row: T, f: Cells) => unknown;
  /** Default text. */
  kind?: Kind;
  /** A column only the table shows (composed for a person), or only TSV and CSV show (every field). */
  only?: 'table' | 'data';
  /** The widest this column's cells get in a table (default TABLE_CELL_MAX): a link must stay whole to be usable. */
  max?: number;
  /** A colour for the cell on a terminal, applied after the value is made safe. */
  paint?: (row: T) => Style | undefined;
}

export interface ListOptions {
  /**
   * The sentence for an empty list, naming what is empty ("No campaigns finished between … and
   * …"): on stderr, after the header in TSV and CSV, instead of an empty table on a terminal.
   */
  empty?: string;
}

export async function printList<T>(io: IO, rows: T[], columns: Column<T>[], json: unknown = rows, o: ListOptions = {}): Promise<void> {
  if (io.output === 'json') {
    io.printJson(json);
    return;
  }
  if (io.output === 'table') {
    if (rows.length === 0) io.info(o.empty ?? 'No results.');
    else printTable(io, rows, columns.filter((c) => c.only !== 'data'));
    return;
  }
  const data = columns.filter((c) => c.only !== 'table');
  const header = data.map((c) => snake(c.header));
  const cells = rows.map((row) => data.map((c) => dataCell(c, row)));
  if (io.output === 'csv') await writeCsv(io, header, cells, data.map((c) => c.max ?? TABLE_CELL_MAX));
  else for (const line of [header, ...cells]) io.out(line.map((v) => forTsvCell(v)).join('\t'));
  if (rows.length === 0) io.info(o.empty ?? 'No results.');
}

/** Aligned columns, two spaces apart, a header in capitals and no rules (as gh prints them). */
function printTable<T>(io: IO, rows: T[], columns: Column<T>[]): void {
  // Colour is decided by IO alone (the run's env and terminal). A table asked for on a pipe
  // (--output table) carries no colour codes into the file.
  const paint = (style: Style | undefined, text: string) => (style && io.isTTY ? io.paint(style, text) : text);
  const body = rows.map((row) => columns.map((c) => forTsvCell(tableCell(io, c, row), c.max ?? TABLE_CELL_MAX)));
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...body.map((r) => displayWidth(r[i]))));
  const last = columns.length - 1;
  const line = (cells: string[], style: (i: number) => Style | undefined) =>
    cells.map((cell, i) => paint(style(i), i === last ? cell : padTo(cell, widths[i]))).join('  ').trimEnd();
  io.out(line(columns.map((c) => c.header), () => 'bold'));
  rows.forEach((row, r) => io.out(line(body[r], (i) => columns[i].paint?.(row))));
}

/** A field of a record: its label, its value, and what the value is (default text). */
export type Field = [label: string, value: unknown, kind?: Kind];

/** One record as "key  value" lines in a table, key<TAB>value piped, a header and a row in CSV, or the object under --json. */
export async function printRecord(io: IO, pairs: Field[], json: unknown): Promise<void> {
  switch (io.output) {
    case 'json':
      io.printJson(json);
      return;
    case 'csv':
      await writeCsv(io, pairs.map(([k]) => snake(k)), [pairs.map(([, v, kind]) => dataValue(kind, v))], pairs.map(() => RECORD_VALUE_MAX));
      return;
    case 'tsv':
      for (const [k, v, kind] of pairs) io.out(`${forTsvCell(k)}\t${forTsvCell(dataValue(kind, v))}`);
      return;
    case 'table': {
      const width = Math.max(...pairs.map(([k]) => displayWidth(forTerminal(k))));
      for (const [k, v, kind] of pairs) {
        const shown = kind === 'date' ? personTime(io, v, 'record') : kind === 'count' ? grouped(v) : kind === 'rate' ? percent(v) : display(v);
        io.out(`${padTo(forTerminal(k), width)}  ${forTerminal(shown, RECORD_VALUE_MAX)}`);
      }
    }
  }
}

/**
 * Rows as CSV on stdout (src/run/output/csv.ts, formula-safe). Piped: exact and whole, for a
 * spreadsheet or a script. On a terminal a person reads it: cells sanitised and cut at their
 * column's `max` (a 200 KB name would otherwise flood the screen).
 */
async function writeCsv(io: IO, header: string[], rows: Cell[][], max: number[]): Promise<void> {
  const { toCsv } = await import('./csv.js');
  const tty = io.isTTY;
  const cells = rows.map((r) => r.map((c, i) => (tty && typeof c === 'string' ? forTsvCell(c, max[i] ?? TABLE_CELL_MAX) : c)));
  io.stdout.write(toCsv(cells, tty ? header.map((h) => forTsvCell(h)) : header));
}

/** "MESSAGE ID" → message_id, "Rows in file" → rows_in_file: the one name, as scripts read it. */
export function snake(header: string): string {
  return header.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

const tableCells: Cells = {
  count: (v) => grouped(v),
  rate: (v) => percent(v),
};

const dataCells: Cells = {
  count: (v) => display(v),
  rate: (v) => display(fraction(v)),
};

function tableCell<T>(io: IO, c: Column<T>, row: T): string {
  const v = c.value(row, tableCells);
  switch (c.kind) {
    case 'count': return grouped(v);
    case 'rate': return percent(v);
    case 'date': return personTime(io, v, 'table');
    default: return display(v);
  }
}

function dataCell<T>(c: Column<T>, row: T): Cell {
  return dataValue(c.kind, c.value(row, dataCells));
}

/** A value for TSV and CSV: numbers and booleans stay typed, a rate a fraction, a date UTC ISO. */
function dataValue(kind: Kind | undefined, v: unknown): Cell {
  if (kind === 'rate') return fraction(v) ?? '';
  if (kind === 'date') {
    const t = readServiceTime(v);
    return t === undefined ? display(v) : isoUtc(t);
  }
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return v;
  return display(v);
}

/** A date for a person: relative in a table, local and relative in a record; as sent when unreadable. */
function personTime(io: IO, v: unknown, where: 'table' | 'record'): string {
  const t = readServiceTime(v);
  if (t === undefined) return display(v);
  return where === 'table' ? relativeTime(t, io.now(), io.timeZone) : localTime(t, io.now(), io.timeZone);
}

/** A rate as a number 0–1 (four decimals: 0.01 % is finer than any rate needs), or undefined. */
function fraction(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return Number(n.toFixed(4));
}

function percent(v: unknown): string {
  const n = fraction(v);
  if (n === undefined) return v === undefined || v === null ? '' : display(v);
  return `${(n * 100).toFixed(1)}%`;
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
