// The wizard's last screen before it sends: every field of the request as it will go out
// (spec section 4, endpoints 7-10), A and B versions side by side in their own rows, groups by
// name and code, the schedule in the campaign's own time zone and in UTC. Text from files or
// the service is shown only through forTerminal.
import type { Group } from '../api/campaign-types.js';
import type { IO } from '../run/io.js';
import { forTerminal } from '../core/sanitize.js';
import type { Composed } from './compose.js';
import type { Draft } from './draft.js';
import { field, keysWhere, type DraftKey } from './fields.js';
import { groupLabel } from './group-picker.js';

const ENDPOINT_KIND = { 7: 'campaign to groups', 8: 'campaign to a one-time list', 9: 'A/B test to groups', 10: 'A/B test to a one-time list' } as const;
const TEST_KIND = { 1: 'subject test (versions A and B differ in subject and preheader)', 2: 'sender test (versions A and B differ in sender)', 3: 'content test (versions A and B differ in html)' } as const;

/**
 * The request's text fields (content.subject, content.fromAddress, …), each followed by its A and
 * B versions, from the field table; html and the coded fields have rows of their own below.
 */
const TEXT_FIELDS: DraftKey[] = keysWhere((f) => (f.type === 'text' || f.type === 'email') && !f.variantOf && !!f.spec?.path.startsWith('content.'))
  .flatMap((base) => [base, ...keysWhere((f) => f.variantOf === base)]);

/** Whether a field goes into this campaign's request: an A/B version in its own test, a single-version field outside the test of its versions. */
function applies(k: DraftKey, ab: Composed['ab']): boolean {
  const own = field(k).ab;
  return own ? own === ab : !keysWhere((f) => f.variantOf === k).some((v) => field(v).ab === ab);
}

/** [field, value] rows in the order of the spec's table. */
export function reviewRows(c: Composed, draft: Draft, groups: Group[]): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const r = c.request;
  const text = (v: string) => forTerminal(v, 200);
  rows.push(['endpoint', `POST ${c.path} (${ENDPOINT_KIND[c.endpoint]})`]);
  rows.push(['form.name', text(r.form.name)]);
  const named = (codes: string[] | undefined) =>
    codes?.length ? codes.map((sn) => { const g = groups.find((x) => x.sn === sn); return g ? groupLabel(g) : forTerminal(sn, 40); }).join('\n') : '(none)';
  if (!c.once) {
    rows.push(['form.selectedLists', named(r.form.selectedLists)]);
    rows.push(['form.excludeLists', named(r.form.excludeLists)]);
  } else {
    rows.push(['list file (uploaded after creation)', text(draft.list ?? '')]);
  }
  const k = r.content;
  const html = (v: string | undefined, file: string | undefined, inline: string | undefined) => {
    if (v === undefined) return '';
    const source = file ? `from ${text(file)}` : draft.template !== undefined && !inline ? `from template ${text(draft.template)}` : 'given inline';
    const flat = v.replace(/\s+/g, ' ').trim();
    const preview = forTerminal(flat.slice(0, 70)) + (flat.length > 70 ? '…' : '');
    return `${[...v].length.toLocaleString('en-US')} characters ${source}\n${preview}`;
  };
  if (k.testingOn !== undefined) rows.push(['content.testingOn', `${k.testingOn}: ${TEST_KIND[k.testingOn]}`]);
  for (const f of TEXT_FIELDS) {
    const path = field(f).spec!.path;
    const v = (k as unknown as Record<string, unknown>)[path.slice('content.'.length)];
    // An optional field that this campaign could carry but does not is shown as (none).
    if (typeof v === 'string') rows.push([path, text(v)]);
    else if (!field(f).required && applies(f, c.ab)) rows.push([path, '(none)']);
  }
  if (k.htmlContent !== undefined) rows.push(['content.htmlContent', html(k.htmlContent, draft.htmlFile, draft.html)]);
  if (k.htmlContentA !== undefined) rows.push(['content.htmlContentA', html(k.htmlContentA, draft.htmlFileA, draft.htmlA)]);
  if (k.htmlContentB !== undefined) rows.push(['content.htmlContentB', html(k.htmlContentB, draft.htmlFileB, draft.htmlB)]);
  rows.push(['content.footerLang', `${k.footerLang} (${k.footerLang === 1 ? 'Chinese' : 'English'})`]);
  if (k.testing) {
    rows.push(['content.testing.proportion', `${k.testing.proportion}% of the contacts get A or B; the rest get the better one`]);
    rows.push(['content.testing.time / unit', `${k.testing.time} ${k.testing.unit === 1 ? 'day' : 'hour'}${k.testing.time === 1 ? '' : 's'} (unit ${k.testing.unit})`]);
  }
  const s = r.config.schedule;
  if (s.type === 1 && c.schedule) {
    rows.push(['config.schedule.type', '1 (scheduled)']);
    rows.push(['config.schedule.timezone', `${s.timezone} (${c.schedule.zone.city})`]);
    rows.push(['config.schedule.scheduleDate', `${s.scheduleDate} (UTC)\n= ${c.schedule.label}`]);
  } else {
    rows.push(['config.schedule.type', '0 (send now)']);
  }
  const ga = r.config.ga;
  rows.push(['config.ga.enable', String(ga.enable)]);
  rows.push(['config.ga.ecommerceEnable', String(ga.ecommerceEnable)]);
  if (ga.utmCampaign !== undefined) rows.push(['config.ga.utmCampaign', text(ga.utmCampaign)]);
  if (ga.utmContent !== undefined) rows.push(['config.ga.utmContent', text(ga.utmContent)]);
  return rows;
}

/** The review as a table on stderr (where the prompts are), sized to the terminal. */
export async function printReview(io: IO, c: Composed, draft: Draft, groups: Group[]): Promise<void> {
  const rows = reviewRows(c, draft, groups);
  const { default: Table } = await import('cli-table3');
  const columns = (io.stderr as { columns?: number }).columns;
  const total = columns && columns > 40 ? columns : 100;
  const first = Math.min(32, Math.max(...rows.map(([f]) => f.length)) + 2);
  const table = new Table({
    head: [io.paint('cyan', 'Field'), io.paint('cyan', 'Will be sent as')],
    colWidths: [first, Math.max(20, total - first - 3)],
    wordWrap: true,
    wrapOnWordBoundary: false,
    style: { head: [], border: [] },
    // One rule under the heading only: a line between every row would double the table's height.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(row);
  // Printed even under --quiet: the confirmation that follows is about this table.
  io.error(`\nReview: this is the whole request.\n${table.toString()}`);
}
