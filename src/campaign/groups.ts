// Group names or codes → codes, checked against the account. A group whose import is still
// running (PROCESSING) is refused: spec section 3 rule 3, "Create the campaign only after the
// import into the chosen groups has finished".
import type { Group } from '../api/campaign-types.js';

export interface GroupResolution {
  codes: string[];
  problems: string[];
}

/** Matches a code exactly first, then a name (case-insensitive); several names alike is a problem. */
export function resolveGroups(wanted: string[], all: Group[], role: 'send' | 'exclude'): GroupResolution {
  const codes: string[] = [];
  const problems: string[] = [];
  const flag = role === 'send' ? '--group' : '--exclude';
  for (const w of wanted) {
    const byCode = all.find((g) => g.sn === w);
    const byName = byCode ? [byCode] : all.filter((g) => g.name.trim().toLowerCase() === w.trim().toLowerCase());
    if (!byName.length) {
      problems.push(`There is no group named or coded "${w}" (${flag}); list the groups with \`mailctl groups list --all\`.`);
      continue;
    }
    if (byName.length > 1) {
      problems.push(`Several groups are named "${w}" (${byName.map((g) => g.sn).join(', ')}); pass ${flag} with the code of the one you mean.`);
      continue;
    }
    const g = byName[0];
    if (g.status === 'PROCESSING') {
      problems.push(
        role === 'send'
          ? `Group "${g.name}" (${g.sn}) is still importing contacts (PROCESSING) and cannot be sent to yet; wait for the import to finish, then run this again.`
          : `Group "${g.name}" (${g.sn}) is still importing contacts (PROCESSING), so people who must be excluded may be missing from it; wait for the import to finish, then run this again.`,
      );
      continue;
    }
    if (!codes.includes(g.sn)) codes.push(g.sn);
  }
  return { codes, problems };
}
