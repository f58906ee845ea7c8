// Numbers for a person reading stderr or a terminal summary: sizes in B/KB/MB/GB with the
// precision a reader can use, counts with thousands separators, and "1 row" / "2 rows". Data
// (TSV, --json) keeps raw numbers; only sentences go through here.

// A whole count is grouped here: a process's first Intl.NumberFormat costs 20–70 ms of ICU
// set-up, paid by every command that prints a count (issue 24.7: toLocaleString, which makes a
// new one on every call, was 40 ms of a 1M-row import check, counting rows for its progress
// line). Anything else — fractions, negatives, beyond 2⁵³ — goes to the one format, made once.
let grouped: Intl.NumberFormat | undefined;

/** A count with thousands separators: 1234567 → "1,234,567". */
export function count(n: number): string {
  if (Number.isSafeInteger(n) && (n > 0 || Object.is(n, 0))) {
    const digits = String(n);
    let out = digits.slice(0, digits.length % 3 || 3);
    for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
    return out;
  }
  return Number.isFinite(n) ? (grouped ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })).format(n) : String(n);
}

/** "1 row", "1,234 rows": the count grouped, the noun in the number it takes. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size in bytes as a person reads it (units of 1024): "512 B", "4.0 KB", "12 KB", "1.5 MB".
 * One decimal below 10 of a unit, none from there on, so the figure never claims more
 * precision than a glance needs, and 4 KB never shows as "0.0 MB".
 */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 1024) return `${count(n)} B`;
  let v = n;
  let unit: (typeof UNITS)[number] = 'KB';
  for (const u of UNITS) {
    v /= 1024;
    unit = u;
    if (v < 1024 || u === 'TB') break;
  }
  // Rounding 1023.96 up would print "1024 KB": say "1.0 MB" instead.
  if (v >= 1023.95 && unit !== 'TB') return `1.0 ${UNITS[UNITS.indexOf(unit) + 1]}`;
  return `${v < 9.95 ? v.toFixed(1) : count(Math.round(v))} ${unit}`;
}

/** "4.0 KB of 1.2 MB": the progress of a transfer, both in the unit of the total. */
export function bytesOf(done: number, total: number): string {
  if (total < 1024) return `${count(done)} of ${count(total)} B`;
  const [, unit] = bytes(total).split(' ');
  const scale = 1024 ** (UNITS.indexOf(unit as (typeof UNITS)[number]) + 1);
  const v = done / scale;
  return `${v < 9.95 ? v.toFixed(1) : count(Math.round(v))} of ${bytes(total)}`;
}
