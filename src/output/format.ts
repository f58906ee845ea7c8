// Lists print three ways: a table for a person at a terminal, tab-separated rows with ISO
// dates for pipes, and the raw objects under --json. Commands describe columns once.
import type { IO } from '../cli/io.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Dates render relative on a terminal and ISO when piped. */
  date?: boolean;
}

export async function printList<T>(io: IO, rows: T[], columns: Column<T>[], json: unknown = rows): Promise<void> {
  if (io.json) {
    io.printJson(json);
    return;
  }
  if (!io.isTTY) {
    for (const row of rows) io.out(columns.map((c) => tsvCell(cell(c, row, false))).join('\t'));
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
  for (const row of rows) table.push(columns.map((c) => cell(c, row, true)));
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
    if (io.isTTY) io.out(`${k.padEnd(width)}  ${display(v)}`);
    else io.out(`${k}\t${tsvCell(display(v))}`);
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

function tsvCell(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
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
