// Lists print three ways: a table for a person at a terminal, tab-separated rows with ISO
// dates for pipes, and the raw objects under --json. Commands describe columns once.
// Values come from the services, so each way is made safe (src/output/sanitize.ts):
// - table cells and record values: control characters shown as escapes, long text shortened;
// - TSV cells: control characters escaped (a tab or newline would break the row), never
//   shortened: scripts get whole values;
// - --json: exact (JSON escapes them; safeJson adds \u escapes for what JSON leaves raw).
import type { IO } from '../cli/io.js';
import { forTerminal, forTsvCell } from './sanitize.js';

/** The widest a table cell gets on a terminal; the whole value is in TSV and --json. */
export const TABLE_CELL_MAX = 120;
/** For a column of links: whole (a shortened link is useless), but a runaway value is still cut. */
export const LINK_CELL_MAX = 4000;

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Dates render relative on a terminal and ISO when piped. */
  date?: boolean;
  /** The widest this column's cells get in a table (default TABLE_CELL_MAX): a link must stay whole to be usable. */
  max?: number;
  /** A colour for the cell on a terminal, applied after the value is made safe. */
  paint?: (row: T) => Parameters<IO['paint']>[0] | undefined;
}

export async function printList<T>(io: IO, rows: T[], columns: Column<T>[], json: unknown = rows): Promise<void> {
  if (io.json) {
    io.printJson(json);
    return;
  }
  if (!io.isTTY) {
    for (const row of rows) io.out(columns.map((c) => forTsvCell(cell(c, row, false))).join('\t'));
    return;
  }
  if (rows.length === 0) {
    io.info('No results.');
    return;
  }
  const { default: Table } = await import('cli-table3');
  // Colour is decided by IO alone (the run's env and terminal): cli-table3's own styling asks
  // the colors package, which reads process-wide state (CI, process.stdout) instead.
  const table = new Table({
    head: columns.map((c) => io.paint('cyan', c.header)),
    style: { head: [], border: [] },
  });
  for (const row of rows) {
    table.push(columns.map((c) => {
      const safe = forTsvCell(cell(c, row, true), c.max ?? TABLE_CELL_MAX);
      const style = c.paint?.(row);
      return style ? io.paint(style, safe) : safe;
    }));
  }
  io.out(table.toString());
}

/** One record as "key: value" lines on a terminal/pipe, or the object under --json. */
export function printRecord(io: IO, pairs: Array<[string, unknown]>, json: unknown): void {
  if (io.json) {
    io.printJson(json);
    return;
  }
  const width = Math.max(...pairs.map(([k]) => k.length));
  for (const [k, v] of pairs) {
    if (io.isTTY) io.out(`${k.padEnd(width)}  ${forTerminal(display(v))}`);
    else io.out(`${forTsvCell(k)}\t${forTsvCell(display(v))}`);
  }
}

function cell<T>(c: Column<T>, row: T, tty: boolean): string {
  const v = c.value(row);
  if (c.date && typeof v === 'string' && v) return tty ? relativeTime(v) : isoDate(v);
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
