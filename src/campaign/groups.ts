// Group names or codes → codes, checked against the account. A group whose import is still
// running (PROCESSING) is refused: spec section 3 rule 3, "Create the campaign only after the
// import into the chosen groups has finished".
import type { Group } from '../api/campaign-types.js';
import { matchGroup } from '../groups/find.js';
import { forTerminal } from '../core/sanitize.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

export interface GroupResolution {
  codes: string[];
  problems: string[];
}

/** Each name or code through matchGroup (src/groups/find.ts); every problem is collected, not just the first. */
export function resolveGroups(wanted: string[], all: Group[], role: 'send' | 'exclude', cmd: Suggest = plainSuggest): GroupResolution {
  const codes: string[] = [];
  const problems: string[] = [];
  const flag = role === 'send' ? '--group' : '--exclude';
  for (const w of wanted) {
    const m = matchGroup(all, w);
    if ('none' in m) {
      problems.push(`There is no group named or coded "${forTerminal(w, 100)}" (${flag}); list the groups with \`${cmd('groups', 'list', '--all')}\`.`);
      continue;
    }
    if ('several' in m) {
      problems.push(`Several groups are named "${forTerminal(w, 100)}" (${m.several.map((g) => forTerminal(g.sn, 60)).join(', ')}); pass ${flag} with the code of the one you mean.`);
      continue;
    }
    const g = m.group;
    if (g.status === 'PROCESSING') {
      problems.push(
        role === 'send'
          ? `Group "${forTerminal(g.name, 100)}" (${forTerminal(g.sn, 60)}) is still importing contacts (PROCESSING) and cannot be sent to yet; wait for the import to finish, then run this again.`
          : `Group "${forTerminal(g.name, 100)}" (${forTerminal(g.sn, 60)}) is still importing contacts (PROCESSING), so people who must be excluded may be missing from it; wait for the import to finish, then run this again.`,
      );
      continue;
    }
    if (!codes.includes(g.sn)) codes.push(g.sn);
  }
  return { codes, problems };
}
