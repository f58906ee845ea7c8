// The dashboard's charts as inline SVG: no library, no script, nothing fetched, so the page works
// offline from a file and stays small. Every label goes through escapeHtml (SVG inside HTML
// parses text and attributes alike). Elements carry classes and data- attributes (pt, line,
// ab-bar; data-series, data-version) that say what they draw, for a person reading the source
// and for the tests that count them.
import { escapeHtml } from '../../core/html.js';
import type { AbResult } from '../ab.js';
import { ratesOf, type Rates } from '../metrics.js';

export interface Series {
  label: string;
  colour: string;
  /** Time (ms) and rate (0–1, or null where the figures gave none). */
  points: Array<{ t: number; v: number | null }>;
}

const W = 640;
const H = 220;
const M = { left: 44, right: 12, top: 10, bottom: 26 };
const usable = (v: number | null): v is number => typeof v === 'number' && Number.isFinite(v);
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const stamp = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
const n = (x: number) => Math.round(x * 10) / 10;

/** Rates (0–100 %) against time: a line per series, a dot per reading, a tooltip on each dot. */
export function lineChart(series: Series[], title: string): string {
  const times = series.flatMap((s) => s.points.map((p) => p.t));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => n(t1 === t0 ? (M.left + W - M.right) / 2 : M.left + ((t - t0) / (t1 - t0)) * (W - M.left - M.right));
  const y = (v: number) => n(H - M.bottom - Math.max(0, Math.min(1, v)) * (H - M.top - M.bottom));
  const grid = [0, 0.25, 0.5, 0.75, 1].map((g) => `<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${y(g)}" y2="${y(g)}"/><text class="axis" x="${M.left - 6}" y="${y(g) + 4}" text-anchor="end">${g * 100}%</text>`);
  const xLabels = [`<text class="axis" x="${M.left}" y="${H - 6}">${escapeHtml(stamp(t0))}</text>`];
  if (t1 !== t0) xLabels.push(`<text class="axis" x="${W - M.right}" y="${H - 6}" text-anchor="end">${escapeHtml(stamp(t1))}</text>`);
  const drawn = series.map((s) => {
    const pts = s.points.filter((p): p is { t: number; v: number } => usable(p.v));
    const line = pts.length > 1 ? `<polyline class="line" data-series="${escapeHtml(s.label)}" fill="none" stroke="${s.colour}" stroke-width="2" points="${pts.map((p) => `${x(p.t)},${y(p.v)}`).join(' ')}"/>` : '';
    const dots = pts.map((p) => `<circle class="pt" data-series="${escapeHtml(s.label)}" cx="${x(p.t)}" cy="${y(p.v)}" r="3" fill="${s.colour}"><title>${escapeHtml(`${s.label} ${pct(p.v)} at ${stamp(p.t)} UTC`)}</title></circle>`);
    return line + dots.join('');
  });
  return `<svg class="chart" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>${grid.join('')}${xLabels.join('')}${drawn.join('')}</svg>`;
}

export const RATE_SERIES: ReadonlyArray<{ label: string; rate: keyof Rates; colour: string }> = [
  { label: 'delivered', rate: 'deliveryRate', colour: '#2e7d32' },
  { label: 'opened', rate: 'openRate', colour: '#1565c0' },
  { label: 'clicked', rate: 'clickRate', colour: '#ef8f00' },
  { label: 'bounced', rate: 'bounceRate', colour: '#c62828' },
];

/** Version A and B side by side, a pair of bars per rate, the winner's drawn strong. */
export function abBars(ab: AbResult): string {
  const rowH = 34;
  const barX = 90;
  const barW = 420;
  const h = RATE_SERIES.length * rowH + 8;
  const rows = RATE_SERIES.map((s, i) => {
    const top = 4 + i * rowH;
    const bars = (['A', 'B'] as const).map((v, j) => {
      const r = ratesOf(v === 'A' ? ab.a : ab.b)[s.rate];
      const w = usable(r) ? n(Math.max(0, Math.min(1, r)) * barW) : 0;
      const yy = top + j * 14;
      const strong = ab.winner === v;
      return `<text class="axis" x="${barX - 6}" y="${yy + 10}" text-anchor="end">${v}</text><rect class="ab-bar" data-version="${v}" data-series="${s.label}" x="${barX}" y="${yy}" width="${w}" height="12" fill="${s.colour}" fill-opacity="${strong ? 1 : 0.45}"><title>${escapeHtml(`${s.label}, version ${v}: ${usable(r) ? pct(r) : 'not given'}`)}</title></rect><text class="val" x="${barX + w + 6}" y="${yy + 10}">${usable(r) ? pct(r) : 'n/a'}</text>`;
    });
    return `<text class="label" x="0" y="${top + 17}">${s.label}</text>${bars.join('')}`;
  });
  return `<svg class="ab" role="img" aria-label="A/B versions" viewBox="0 0 ${barX + barW + 70} ${h}" width="${barX + barW + 70}" height="${h}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`;
}
