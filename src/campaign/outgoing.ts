// What a campaign about to be created will send, in the few lines a person checks before saying
// yes: who (each group with its valid members, from the group list the run already read; the
// excluded groups), what (subject or A/B subjects, sender), and when — in the campaign's zone,
// in the operator's own zone and in UTC. `campaign create` shows it on a terminal and asks first
// when the campaign sends now or is scheduled to groups; --yes, or no terminal, skips it.
// Text from files or the service goes through forTerminal.
import fs from 'node:fs';
import type { Group } from '../api/campaign-types.js';
import { forTerminal } from '../core/sanitize.js';
import { bytes, count } from '../core/human.js';
import type { Composed } from './compose.js';
import type { Draft } from './draft.js';
import { localZone, offsetLabel, wallTime } from '../spec/timezones.js';

/** Whether creating this campaign asks first on a terminal: it sends now, or is scheduled to groups. */
export function asksFirst(c: Composed): boolean {
  return !c.schedule || !c.once;
}

/** When, three ways: "now (…)" or the schedule in its zone, then the operator's zone and UTC. */
export function whenLine(c: Composed, now: number, zone = localZone()): string {
  const at = c.schedule ? Date.parse(c.schedule.scheduleDate) : now;
  const mine = `${wallTime(at, zone)} your time (${zone}, UTC${offsetLabel(zone, at)})`;
  const utc = `${new Date(at).toISOString().slice(0, 19)}Z UTC`;
  if (!c.schedule) return `now: ${mine} = ${utc}`;
  return `${c.schedule.label} = ${mine} = ${utc}`;
}

/** The summary lines (no question). */
export function outgoingLines(c: Composed, draft: Draft, groups: readonly Group[], now: number, zone = localZone()): string[] {
  const lines: string[] = [];
  const r = c.request;
  const name = (sn: string) => {
    const g = groups.find((x) => x.sn === sn);
    return g ? `${forTerminal(g.name, 60)} (${forTerminal(sn, 40)})` : forTerminal(sn, 40);
  };
  const how = c.schedule ? 'is scheduled' : 'goes out now';
  const kind = c.ab ? `A/B ${c.ab} test` : 'Campaign';
  lines.push(`${kind} "${forTerminal(r.form.name, 100)}" ${how}${c.once ? ' to a one-time list' : ''}:`);
  if (c.once) {
    const size = draft.list ? fs.statSync(draft.list, { throwIfNoEntry: false })?.size : undefined;
    lines.push(`  To:       the list in ${forTerminal(draft.list ?? '', 200)}${size === undefined ? '' : ` (${bytes(size)})`}, uploaded after creation`);
  } else {
    const selected = r.form.selectedLists ?? [];
    const members = selected.map((sn) => groups.find((g) => g.sn === sn)?.subscribedCnt);
    const known = members.every((m) => typeof m === 'number');
    const total = known ? (members as number[]).reduce((a, b) => a + b, 0) : undefined;
    const upTo = total === undefined ? '' : ` — up to ${count(total)} valid member${total === 1 ? '' : 's'}${selected.length > 1 ? ' (a contact in two groups gets one mail)' : ''}`;
    lines.push(`  To:       ${selected.length} group${selected.length === 1 ? '' : 's'}${upTo}`);
    selected.forEach((sn, i) => {
      const m = members[i];
      lines.push(`              ${name(sn)}: ${typeof m === 'number' ? `${count(m)} valid member${m === 1 ? '' : 's'}` : 'members not given'}`);
    });
    const excluded = r.form.excludeLists ?? [];
    if (excluded.length) lines.push(`  Not to:   anyone also in ${excluded.map(name).join(', ')}`);
  }
  const k = r.content;
  const text = (v: string | undefined) => `"${forTerminal(v ?? '', 150)}"`;
  if (c.ab === 'subject') lines.push(`  Subject:  A ${text(k.subjectA)} / B ${text(k.subjectB)}`);
  else lines.push(`  Subject:  ${text(k.subject)}`);
  const sender = (nm: string | undefined, addr: string | undefined) => `${forTerminal(nm ?? '', 60)} <${forTerminal(addr ?? '', 100)}>`;
  if (c.ab === 'sender') lines.push(`  Sender:   A ${sender(k.fromNameA, k.fromAddressA)} / B ${sender(k.fromNameB, k.fromAddressB)}`);
  else lines.push(`  Sender:   ${sender(k.fromName, k.fromAddress)}`);
  if (k.testing) lines.push(`  Test:     ${k.testing.proportion}% get A or B; after ${k.testing.time} ${k.testing.unit === 1 ? 'day' : 'hour'}${k.testing.time === 1 ? '' : 's'} the better one goes to the rest`);
  lines.push(`  When:     ${whenLine(c, now, zone)}`);
  return lines;
}
