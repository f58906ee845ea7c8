// DIR/index.html of `report sync`: one static page over what the sync state knows — every synced
// campaign with its latest metrics, its rates over time (snapshots kept by history.ts) as an
// inline SVG chart, an A/B test's versions with the winner (ab.ts, decisions row P14), and
// relative links to its downloaded CSV files. No script, nothing fetched: it opens from the disk,
// offline, and every value from the service is escaped text (src/core/html.ts).
import { escapeHtml, htmlPage } from '../../core/html.js';
import { abResult } from '../ab.js';
import { ratesOf } from '../metrics.js';
import { REPORT_TYPES } from '../download.js';
import { asMetrics, type MetricSnapshot } from '../sync/history.js';
import type { CampaignRecord, SyncState } from '../sync/state.js';
import { MANIFEST_FILE } from '../sync/manifest.js';
import { abBars, lineChart, RATE_SERIES } from './svg.js';

export const DASHBOARD_FILE = 'index.html';

export interface DashboardInput {
  /** The sync directory as the user named it (shown in the heading). */
  dir: string;
  generatedAt: string;
  /** Set when this run could not read the metrics: the page says its figures may be old. */
  metricsError?: string;
}

const usable = (v: number | null): v is number => typeof v === 'number' && Number.isFinite(v);
const pct = (v: number | null) => (usable(v) ? `${(v * 100).toFixed(1)}%` : 'n/a');
const count = (v: number | null) => (usable(v) ? v.toLocaleString('en-US') : 'n/a');
/** A relative link to a file the state lists: each segment percent-encoded (no scheme, no query can appear). */
const href = (rel: string) => rel.split('/').map(encodeURIComponent).join('/');

export function dashboardPage(state: SyncState, o: DashboardInput): string {
  const campaigns = [...state.campaigns]
    .filter(([, c]) => !c.goneAt || Object.keys(c.files).length)
    .sort(([a, x], [b, y]) => y.sentEndDate.localeCompare(x.sentEndDate) || a.localeCompare(b));
  const rows = campaigns.map(([sn, c], i) => summaryRow(sn, c, i));
  const sections = campaigns.map(([sn, c], i) => section(sn, c, i));
  const body = `
<header>
  <h1>Campaign reports</h1>
  <p class="meta">${escapeHtml(o.dir)} — updated ${escapeHtml(o.generatedAt)} by <code>mailctl report sync</code>; ${campaigns.length} campaign${campaigns.length === 1 ? '' : 's'}. Every file: <a href="${MANIFEST_FILE}">${MANIFEST_FILE}</a>.</p>
  ${o.metricsError ? `<p class="warn" id="metrics-error">This run could not read the metrics, so the figures below may be older than this page: ${escapeHtml(o.metricsError)}</p>` : ''}
  <p class="meta">Rates: delivered and bounced per recipient; opened and clicked per delivered.</p>
</header>
<table class="summary">
<thead><tr><th>Finished</th><th>Campaign</th><th>Name</th><th class="num">Recipients</th><th class="num">Delivered</th><th class="num">Opened</th><th class="num">Clicked</th><th class="num">Bounced</th><th>Files</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${sections.join('\n')}`;
  return htmlPage({ title: `Campaign reports — ${o.dir}`, style: STYLE, body });
}

function latestTotal(sn: string, c: CampaignRecord) {
  const last = c.metrics?.at(-1);
  const total = last?.rows.find((r) => r.reportType === 'TOTAL') ?? last?.rows[0];
  return total ? asMetrics(sn, c.name, total) : undefined;
}

function summaryRow(sn: string, c: CampaignRecord, i: number): string {
  const m = latestTotal(sn, c);
  const r = m ? ratesOf(m) : undefined;
  const files = Object.keys(c.files).length;
  return `<tr data-sn="${escapeHtml(sn)}"><td>${escapeHtml(c.sentEndDate.slice(0, 10))}</td><td><a href="#c${i + 1}"><code>${escapeHtml(sn)}</code></a></td><td>${escapeHtml(c.name)}</td>`
    + `<td class="num">${m ? count(m.recipientCnt) : 'n/a'}</td><td class="num">${pct(r?.deliveryRate ?? null)}</td><td class="num">${pct(r?.openRate ?? null)}</td><td class="num">${pct(r?.clickRate ?? null)}</td><td class="num">${pct(r?.bounceRate ?? null)}</td>`
    + `<td>${files} of ${REPORT_TYPES.length}</td></tr>`;
}

function section(sn: string, c: CampaignRecord, i: number): string {
  const history = c.metrics ?? [];
  const files = REPORT_TYPES.filter((t) => c.files[t]).map((t) => `<li><a class="file" href="${href(c.files[t].path)}">${escapeHtml(t)}.csv</a> <span class="meta">${count(c.files[t].rows)} rows</span></li>`);
  const missing = REPORT_TYPES.filter((t) => !c.files[t]);
  return `<section class="campaign" id="c${i + 1}" data-sn="${escapeHtml(sn)}">
  <h2>${escapeHtml(c.name || sn)} <code>${escapeHtml(sn)}</code></h2>
  <p class="meta">Sent ${escapeHtml(c.sentBeginDate ?? '(start not given)')} – ${escapeHtml(c.sentEndDate)}.${c.metricsCheckedAt ? ` Metrics read ${escapeHtml(c.metricsCheckedAt)}; ${history.length} change${history.length === 1 ? '' : 's'} kept.` : ' No metrics read yet.'}${c.lastError ? ` Last run failed: ${escapeHtml(c.lastError.message)}` : ''}</p>
  ${history.length ? overTime(sn, c.name, history) : ''}
  ${abPart(sn, c.name, history.at(-1))}
  <ul class="files">${files.join('')}</ul>
  ${missing.length ? `<p class="meta">Not downloaded yet: ${missing.map(escapeHtml).join(', ')}.</p>` : ''}
</section>`;
}

function overTime(sn: string, name: string, history: MetricSnapshot[]): string {
  const series = RATE_SERIES.map((s) => ({
    label: s.label,
    colour: s.colour,
    points: history.flatMap((snap) => {
      const row = snap.rows.find((r) => r.reportType === 'TOTAL') ?? snap.rows[0];
      return row ? [{ t: Date.parse(snap.at), v: ratesOf(asMetrics(sn, name, row))[s.rate] }] : [];
    }),
  }));
  const legend = RATE_SERIES.map((s) => `<span class="key"><i style="background:${s.colour}"></i>${s.label}</span>`).join(' ');
  return `<figure class="over-time"><figcaption>Rates over time ${legend}</figcaption>${lineChart(series, `Rates of ${name || sn} over time`)}</figure>`;
}

function abPart(sn: string, name: string, last: MetricSnapshot | undefined): string {
  const ab = last ? abResult(last.rows.map((r) => asMetrics(sn, name, r))) : undefined;
  if (!ab) return '';
  const verdict = ab.winner ? `Winner: <strong class="winner" data-winner="${ab.winner}">${ab.winner}</strong> (${escapeHtml(ab.basis)})` : `No winner named (${escapeHtml(ab.basis)})`;
  const subjects = [ab.a.subject, ab.b.subject].every((s) => typeof s === 'string') ? ` A: “${escapeHtml(ab.a.subject)}”, B: “${escapeHtml(ab.b.subject)}”.` : '';
  return `<figure class="ab-test"><figcaption>A/B test. ${verdict}.${subjects}</figcaption>${abBars(ab)}</figure>`;
}

const STYLE = `
:root { color-scheme: light; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2330; background: #f3f5f8; }
body { margin: 0 auto; padding: 16px 20px 40px; max-width: 1100px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 4px; }
code { font: 12px/1.3 ui-monospace, Menlo, Consolas, monospace; background: #e4e8ee; padding: 1px 4px; border-radius: 3px; }
.meta { color: #566; margin: 2px 0; }
.warn { color: #8a5300; background: #fff4de; border-radius: 4px; padding: 6px 10px; }
table.summary { border-collapse: collapse; width: 100%; background: #fff; margin: 12px 0 20px; box-shadow: 0 1px 3px #0002; }
.summary th, .summary td { padding: 6px 8px; border-bottom: 1px solid #e4e8ee; text-align: left; }
.summary th { background: #e9edf2; font-weight: 600; }
.num { text-align: right !important; font-variant-numeric: tabular-nums; }
section.campaign { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0002; padding: 14px 16px; margin-bottom: 16px; }
figure { margin: 10px 0; }
figcaption { font-weight: 600; margin-bottom: 4px; }
.key { font-weight: 400; margin-left: 10px; color: #445; }
.key i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
svg { max-width: 100%; height: auto; }
svg .grid { stroke: #e1e5ea; }
svg .axis, svg .val, svg .label { font: 11px system-ui, sans-serif; fill: #566; }
svg .label { font-size: 12px; fill: #1d2330; }
.files { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 6px 16px; }
.winner { color: #1b7a3a; }
`;
