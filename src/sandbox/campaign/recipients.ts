// Who a campaign goes to. Group campaigns: members of any selected group, minus members of any
// excluded group ("never sent to even if in selectedLists"), minus contacts with a bounce,
// unsubscribe or complaint on record, plus the members the store could not keep (see
// contacts.ts; they cannot be excluded). Once-campaigns: the rows of the uploaded list, which
// "is not validated for format or duplicates" — every non-empty row after the header counts.
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { hash32 } from './common.js';
import { contactKey } from './contacts.js';
import type { CampaignState, SbCampaign } from './state.js';

export interface Recipient {
  email: string;
  name: string;
}

export function listRecipients(st: CampaignState, c: Pick<SbCampaign, 'selectedLists' | 'excludeLists'>): Recipient[] {
  const sel = new Set(c.selectedLists);
  const exc = new Set(c.excludeLists);
  return Object.values(st.contacts)
    .filter((x) => !x.suppressed && x.lists.some((l) => sel.has(l)) && !x.lists.some((l) => exc.has(l)))
    .map((x) => ({ email: x.email, name: x.name }));
}

export function recipientCount(st: CampaignState, c: Pick<SbCampaign, 'selectedLists' | 'excludeLists'>): number {
  const unstored = st.groups.filter((g) => c.selectedLists.includes(g.sn)).reduce((n, g) => n + g.unstored, 0);
  return listRecipients(st, c).length + unstored;
}

/** Recipients in the campaign's own hash order: rank decides A/B share and events. */
export function ranked(sn: string, rs: Recipient[]): Recipient[] {
  return rs
    .map((r) => ({ r, h: hash32(`${sn}:${contactKey(r.email)}`) }))
    .sort((a, b) => a.h - b.h)
    .map((x) => x.r);
}

/** Reads rows of an uploaded list (streaming): the count, and the first `keep` addresses. */
export async function readList(file: string, keep = 0): Promise<{ rows: number; first: Recipient[] }> {
  const first: Recipient[] = [];
  let rows = 0;
  let header = true;
  const source = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true }));
  source.on('error', (e) => parser.destroy(e));
  for await (const rec of parser as AsyncIterable<string[]>) {
    if (rec.length === 1 && !rec[0].trim()) continue;
    if (header) {
      header = false;
      continue;
    }
    rows += 1;
    if (first.length < keep) first.push({ email: (rec[0] ?? '').trim(), name: (rec[1] ?? '').trim() });
  }
  return { rows, first };
}

/** Made-up addresses for recipients the sandbox does not know by name (unstored members). */
export function placeholder(sn: string, i: number): Recipient {
  return { email: `recipient-${sn.toLowerCase()}-${i + 1}@example.net`, name: '' };
}
