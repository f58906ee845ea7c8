// `report metrics` on a terminal: each campaign's delivered / opened / clicked / bounced rates as
// bars of Unicode blocks (eighths, so a bar grows in steps of 1/8 of a character), and an A/B
// test's versions side by side with the winner named (src/report/ab.ts). Drawn only for a person
// at a terminal, after the table; the table, TSV, CSV and --json are what scripts read and are
// left as they are. Kept apart from the table's columns (metrics.ts), which say how figures print.
import type { CampaignMetrics } from '../api/campaign-types.js';
import { forTerminal } from '../core/sanitize.js';
import { abResult, byCampaign } from './ab.js';
import { ratesOf, type Rates } from './metrics.js';

type Colour = 'green' | 'cyan' | 'yellow' | 'red' | 'dim' | 'bold';

export interface ChartOptions {
  /** The terminal's width in columns. */
  width: number;
  /** Colour (or not: the caller's paint decides, NO_COLOR and a pipe included). */
  paint(style: Colour, text: string): string;
}

/** The four rates drawn, each with its rate field and colour. */
export const CHART_RATES: ReadonlyArray<{ label: string; rate: keyof Rates; colour: Colour }> = [
  { label: 'delivered', rate: 'deliveryRate', colour: 'green' },
  { label: 'opened', rate: 'openRate', colour: 'cyan' },
  { label: 'clicked', rate: 'clickRate', colour: 'yellow' },
  { label: 'bounced', rate: 'bounceRate', colour: 'red' },
];

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const LABEL = 13; // "  delivered  "
const PCT = 7; // " 100.0%"

/** A bar `width` characters wide filled to `fraction` (0–1; beyond is drawn full, below empty). */
export function bar(fraction: number, width: number): string {
  const eighths = Math.round(Math.max(0, Math.min(1, fraction)) * width * 8);
  const full = Math.floor(eighths / 8);
  const drawn = '█'.repeat(full) + EIGHTHS[eighths % 8];
  return drawn + ' '.repeat(width - full - (eighths % 8 ? 1 : 0));
}

const usable = (r: number | null): r is number => typeof r === 'number' && Number.isFinite(r);
const pct = (r: number | null) => (usable(r) ? `${(r * 100).toFixed(1)}%` : 'n/a').padStart(PCT - 1);

function cell(m: CampaignMetrics, rate: keyof Rates, colour: Colour, width: number, o: ChartOptions): string {
  const r = ratesOf(m)[rate];
  return `${o.paint(colour, bar(usable(r) ? r : 0, width))} ${pct(r)}`;
}

/** The lines to print: a note on what the bars are, then one block per campaign. */
export function metricChart(rows: CampaignMetrics[], o: ChartOptions): string[] {
  const lines: string[] = [o.paint('dim', 'Rates: delivered and bounced per recipient; opened and clicked per delivered.')];
  for (const { sn, rows: own } of byCampaign(rows)) {
    const name = own.find((r) => typeof r.name === 'string' && r.name)?.name;
    const title = `${o.paint('bold', forTerminal(sn, 60))}${name ? `  ${forTerminal(name, 80)}` : ''}`;
    const ab = abResult(own);
    lines.push('');
    if (!ab) {
      const total = own.find((r) => r.reportType === 'TOTAL') ?? own[0];
      const width = Math.max(10, Math.min(50, o.width - LABEL - PCT));
      lines.push(title);
      for (const k of CHART_RATES) lines.push(`  ${k.label.padEnd(LABEL - 2)}${cell(total, k.rate, k.colour, width, o)}`);
      continue;
    }
    const width = Math.max(6, Math.min(30, Math.floor((o.width - LABEL - 2 * PCT - 3) / 2)));
    const verdict = ab.winner ? `winner ${o.paint('bold', ab.winner)} (${ab.basis})` : `no winner named (${ab.basis})`;
    lines.push(`${title}  A/B test: ${verdict}`);
    const head = (l: 'A' | 'B') => (ab.winner === l ? o.paint('bold', `${l} ★ winner`) : l).padEnd(width + PCT + 3 + (ab.winner === l ? o.paint('bold', '').length : 0));
    lines.push(`${' '.repeat(LABEL)}${head('A')}${head('B')}`.trimEnd());
    for (const k of CHART_RATES) {
      lines.push(`  ${k.label.padEnd(LABEL - 2)}${cell(ab.a, k.rate, k.colour, width, o)}   ${cell(ab.b, k.rate, k.colour, width, o)}`);
    }
  }
  return lines;
}
