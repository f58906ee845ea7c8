// The wizard's group question: a checkbox list of the account's groups as they are NOW (read
// when the question is asked, and again on "Refresh"), so a group whose import finishes while
// the question is open becomes selectable without starting over. A group still importing
// (PROCESSING) is shown but cannot be checked: spec section 3, "a PROCESSING group cannot be
// chosen for sending". "Find" narrows a long list by typing part of a name or code.
import type { Group } from '../api/campaign-types.js';
import type { Choice, ChoiceOrSeparator, Prompter } from '../run/prompter.js';
import { forTerminal } from '../core/sanitize.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

/** The picker's own entries; a NUL keeps them apart from any group code the service could give. */
export const PICKER_ACTIONS = { refresh: '\u0000refresh', find: '\u0000find', back: '\u0000back' } as const;
const { refresh: REFRESH, find: FIND, back: BACK } = PICKER_ACTIONS;

export interface PickOptions {
  role: 'send' | 'exclude';
  /** Codes checked when the list opens (earlier answers, flags). */
  checked: string[];
  /** Codes that may not be picked in this role, with the reason (the groups chosen to send to, when excluding). */
  unavailable?: Map<string, string>;
  warn: (line: string) => void;
  /** Builds a suggested command with the run's --profile/--sandbox. */
  cmd?: Suggest;
}

/** A group as one line: the name (from the service, so made safe), its code and size. */
export function groupLabel(g: Group): string {
  const members = g.subscribedCnt ?? 0;
  return `${forTerminal(g.name, 60)} (${forTerminal(g.sn, 40)}) · ${members.toLocaleString('en-US')} member${members === 1 ? '' : 's'}`;
}

function whyNot(g: Group, o: PickOptions): string | undefined {
  if (g.status === 'PROCESSING') return o.role === 'send' ? 'importing: not selectable until the import ends; then Refresh' : 'importing: its members are not all known yet; Refresh once it ends';
  return o.unavailable?.get(g.sn);
}

/** The codes picked. Send needs at least one; exclude may be empty. */
export async function pickGroups(p: Prompter, listGroups: () => Promise<Group[]>, o: PickOptions): Promise<string[]> {
  let chosen = [...o.checked];
  const message = o.role === 'send'
    ? 'Groups to send to (space checks, Enter accepts):'
    : 'Groups to exclude: their members never get this mail (optional; Enter with none checked skips):';
  for (;;) {
    const groups = await listGroups();
    const usable = new Set(groups.filter((g) => !whyNot(g, o)).map((g) => g.sn));
    const dropped = chosen.filter((sn) => !usable.has(sn));
    for (const sn of dropped) {
      const g = groups.find((x) => x.sn === sn);
      o.warn(g ? `${groupLabel(g)} cannot be picked now (${whyNot(g, o)}), so it was unchecked.` : `Group ${forTerminal(sn, 40)} no longer exists, so it was unchecked.`);
    }
    chosen = chosen.filter((sn) => usable.has(sn));
    if (!groups.length) o.warn(`The account has no groups yet: create one with \`${(o.cmd ?? plainSuggest)('groups', 'create', 'NAME')}\` and import contacts into it, then Refresh.`);
    const importing = groups.filter((g) => g.status === 'PROCESSING').length;
    const choices: Array<ChoiceOrSeparator<string>> = [
      { name: `↻ Refresh the list${importing ? ` (${importing} importing)` : ''}: check this and press Enter`, value: REFRESH },
      { name: '⌕ Find a group by typing part of its name or code: check this and press Enter', value: FIND },
      { separator: '──────' },
      ...groups.map((g) => ({ name: groupLabel(g), value: g.sn, checked: chosen.includes(g.sn), disabled: whyNot(g, o) })),
    ];
    const answer = await p.checkbox(message, choices, {
      validate: (values) => {
        // "a" (all) or "i" (invert) check both actions at once; which one was meant is unknown.
        if (values.includes(REFRESH) && values.includes(FIND)) return 'Refresh and Find are both checked: uncheck one of them (or both, to accept the groups checked).';
        if (o.role === 'exclude' || values.some((v) => v === REFRESH || v === FIND || usable.has(v))) return true;
        return groups.length ? 'Check at least one group (space), or check Refresh to read the list again.' : 'There is no group to pick yet; check Refresh once one exists (Ctrl-C stops).';
      },
    });
    chosen = answer.filter((v) => usable.has(v));
    if (answer.includes(FIND)) {
      const found = await p.search('Find a group (type part of its name or code):', (term) => findChoices(groups, term, o));
      if (found !== BACK && usable.has(found) && !chosen.includes(found)) chosen.push(found);
      continue;
    }
    if (answer.includes(REFRESH)) continue;
    return chosen;
  }
}

function findChoices(groups: Group[], term: string, o: PickOptions): Array<Choice<string>> {
  const t = term.trim().toLowerCase();
  const hits = groups.filter((g) => !t || g.name.toLowerCase().includes(t) || g.sn.toLowerCase().includes(t));
  return [
    ...hits.map((g) => ({ name: groupLabel(g), value: g.sn, disabled: whyNot(g, o) })),
    { name: hits.length ? '(back to the list)' : `(no group matches "${forTerminal(term, 40)}"; back to the list)`, value: BACK },
  ];
}
