// One way to find a group by what an operator typed (src/groups/find.ts), for import, contacts
// remove and campaign create alike.
import { describe, expect, it } from 'vitest';
import { matchGroup } from '../src/groups/find.js';
import { resolveGroups } from '../src/campaign/groups.js';
import type { Group } from '../src/api/campaign-types.js';

const all: Group[] = [
  { sn: 'LS1', name: 'News' },
  { sn: 'LS2', name: 'news' },
  { sn: 'LS3', name: 'VIP ' },
  { sn: 'LS4', name: 'Twins' },
  { sn: 'LS5', name: 'Twins' },
];

describe('matchGroup', () => {
  it('a code first, then the exact name, then the name ignoring case and spaces', () => {
    expect(matchGroup(all, 'LS4')).toEqual({ group: all[3] });
    expect(matchGroup(all, 'news')).toEqual({ group: all[1] });
    expect(matchGroup(all, 'vip')).toEqual({ group: all[2] });
  });
  it('a name two groups share is never guessed; an unknown one is none', () => {
    expect(matchGroup(all, 'Twins')).toEqual({ several: [all[3], all[4]] });
    expect(matchGroup(all, 'NEWS')).toEqual({ several: [all[0], all[1]] });
    expect(matchGroup(all, 'Nope')).toEqual({ none: true });
  });
  it('campaign create resolves the same way (an exact-case name is not ambiguous)', () => {
    expect(resolveGroups(['news', 'LS4'], all, 'send')).toEqual({ codes: ['LS2', 'LS4'], problems: [] });
    expect(resolveGroups(['Twins'], all, 'exclude').problems[0]).toContain('LS4, LS5');
  });
});
