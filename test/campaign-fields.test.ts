// The table of campaign fields (src/campaign/fields.ts) is the one declaration of a campaign's
// fields; these tests hold what is derived from it to the table, row by row, so a new row is
// checked without touching this file: every flag row is an option of create, preflight, proof and preview
// (as declared, parsed into the draft key), every flat key is read from a flat --file and named in
// the help, every spec path is read from a spec-shaped --file and is where compose puts the value
// (draft → request → spec-shaped file → draft is the identity, for each kind of A/B test), the
// writer's file reads back to the same draft, and the A/B fields and limits are checked with the
// flag's name. End to end, the same campaign as flags, as a flat file and as the spec's own body
// makes the same request.
import fs from 'node:fs';
import path from 'node:path';
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { compose } from '../src/campaign/compose.js';
import { draftFromFlags } from '../src/campaign/draft.js';
import { DRAFT_KEYS, FIELD_KEYS, field, flagName, keysWhere, longFlag, type AbDimension, type Draft, type DraftKey } from '../src/campaign/fields.js';
import { draftDocument, parseCampaignDoc } from '../src/campaign/file.js';
import { flatFileHelp } from '../src/campaign/options.js';
import { offeredFor } from '../src/run/offer.js';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { FUTURE_YEAR } from './helpers/campaign-setup.js';

const NOW = Date.UTC(2030, 0, 1);
const MODES: Array<AbDimension | undefined> = [undefined, 'subject', 'sender', 'content'];
const dir = tempDir('mailctl-fields-');
const htmlFile = (name: string) => {
  const p = path.join(dir, `${name}.html`);
  fs.writeFileSync(p, `<p>${name}</p>`);
  return p;
};
const listFile = path.join(dir, 'people.csv');
fs.writeFileSync(listFile, 'EMAIL,NAME\nann@example.org,Ann\n');

/** A valid value of each field, by its type (a new row gets one without an entry here). */
function sample(k: DraftKey, mode?: AbDimension): NonNullable<Draft[DraftKey]> {
  const special: Partial<Record<DraftKey, NonNullable<Draft[DraftKey]>>> = {
    ab: mode ?? 'subject', footerLang: 1, testPercent: 20, testTime: 4, testUnit: 1, timezoneCode: 72,
    scheduleDate: `${FUTURE_YEAR}-06-01T13:00:00Z`, at: `${FUTURE_YEAR}-06-01 09:00`, timezone: 'Asia/Taipei', testDuration: '4h', list: listFile,
  };
  if (special[k] !== undefined) return special[k];
  switch (field(k).type) {
    case 'email': return `${k.toLowerCase()}@example.com`;
    case 'html': return `<p>${k}</p>`;
    case 'file': return htmlFile(k);
    case 'list': return [`LS_${k}`];
    case 'switch': return true;
    case 'numberish': case 'number': return 1;
    default: return `${k} value`;
  }
}

/** Whether a field goes into a campaign of this kind (no test, or one A/B test). */
function applies(k: DraftKey, mode: AbDimension | undefined): boolean {
  const f = field(k);
  if (f.ab) return f.ab === mode;
  if ((f.step === 'ab' || f.step === 'test') && !mode) return false;
  return !keysWhere((v) => v.variantOf === k).some((v) => field(v).ab === mode);
}

/** Every field the request carries as it is (a spec path), for a campaign of this kind. */
function specDraft(mode: AbDimension | undefined): Draft {
  return Object.fromEntries(keysWhere((f, k) => f.spec !== undefined && applies(k, mode)).map((k) => [k, sample(k, mode)])) as Draft;
}

function program(capture?: (opts: Record<string, unknown>) => void): Command {
  const p = new Command('mailctl').exitOverride();
  // Registered through the noun registry, as main() does (it takes commander's own Command too).
  NOUNS.find((n) => n.name === 'campaign')!.register(p, () => async (...args: unknown[]) => capture?.((args.at(-1) as Command).opts()));
  return p;
}
const campaignCommand = (p: Command, name: string) => p.commands.find((c) => c.name() === 'campaign')!.commands.find((c) => c.name() === name)!;
const FLAG_ROWS = keysWhere((f) => f.flag !== undefined);

describe('the flags', () => {
  const p = program();
  it.each(['create', 'preflight', 'proof', 'preview'])('every row with a flag is an option of campaign %s, as the row declares it', (name) => {
    const cmd = campaignCommand(p, name);
    for (const k of FLAG_ROWS) {
      const f = field(k);
      const o = cmd.options.find((x) => x.long === longFlag(f.flag!)) as Option | undefined;
      expect(o, `${name} ${f.flag}`).toBeDefined();
      expect([o!.flags, o!.description]).toEqual([f.flag, f.help]);
      expect(o!.required || o!.optional, `${f.flag} takes a value`).toBe(f.type !== 'switch');
      expect(offeredFor(o!, { flags: new Set(), args: [], campaignCodes: () => [] })?.values).toEqual(f.offer);
    }
  });

  it('create declares no campaign field outside the table', () => {
    const longs = campaignCommand(p, 'create').options.map((o) => o.long);
    expect(longs.filter((l) => !FLAG_ROWS.some((k) => longFlag(field(k).flag!) === l))).toEqual(['--file', '--wizard', '--dry-run', '--yes', '--strict', '--no-links']);
  });

  it('every flag, parsed by commander, becomes its row in the draft (repeatable ones as lists)', async () => {
    let opts: Record<string, unknown> = {};
    const argv: string[] = [];
    const expected: Record<string, unknown> = {};
    for (const k of FLAG_ROWS) {
      const f = field(k);
      const flag = longFlag(f.flag!);
      if (f.type === 'switch') argv.push(flag);
      else if (f.type === 'list') argv.push(flag, `${k}-1`, flag, `${k}-2`);
      else argv.push(flag, `${k} value`);
      expected[k] = f.type === 'switch' ? true : f.type === 'list' ? [`${k}-1`, `${k}-2`] : `${k} value`;
    }
    await program((o) => (opts = o)).parseAsync(['campaign', 'create', ...argv], { from: 'user' });
    expect(draftFromFlags(opts)).toEqual(expected);
  });
});

describe('the flat --file', () => {
  it('takes every flat key with a value of its type, and names the key when the type is wrong', () => {
    for (const k of FIELD_KEYS) {
      const problems: string[] = [];
      const d = parseCampaignDoc({ [k]: sample(k) }, problems);
      if (field(k).flat === false) {
        expect(problems, k).toEqual([expect.stringContaining(`"${k}" is not a campaign file key`)]);
        continue;
      }
      expect([problems, d], k).toEqual([[], { [k]: sample(k) }]);
      parseCampaignDoc({ [k]: {} }, problems);
      expect(problems, k).toEqual([expect.stringMatching(new RegExp(`^${k} is \\{\\} \\(an object\\); it must be `))]);
    }
    expect([...DRAFT_KEYS]).toEqual(FIELD_KEYS.filter((k) => field(k).flat !== false));
  });

  it('the help shows every flat key (in the example or the "also" list) and nothing else', () => {
    const help = flatFileHelp();
    const shown = [...help.matchAll(/"(\w+)":/g)].map((m) => m[1]);
    const also = /\(also: ([^)]*)\)/.exec(help)![1].split(', ').flatMap((k) => (k.endsWith('A/B') ? [k.slice(0, -2), `${k.slice(0, -3)}B`] : [k]));
    expect([...shown, ...also].sort()).toEqual([...DRAFT_KEYS].sort());
    expect(JSON.parse(`${help.slice(0, help.lastIndexOf('}') + 1)}`)).toEqual(Object.fromEntries(shown.map((k) => [k, field(k as DraftKey).example])));
  });

  it('what the wizard saves (draftDocument) reads back to the same draft', () => {
    const everyFlatKey = Object.fromEntries(keysWhere((f) => f.flat !== false).map((k) => [k, sample(k)])) as Draft;
    for (const d of [everyFlatKey, ...MODES.map(specDraft)]) {
      const problems: string[] = [];
      expect(parseCampaignDoc(JSON.parse(JSON.stringify(draftDocument(d, dir))), problems)).toEqual(d);
      expect(problems).toEqual([]);
    }
  });
});

describe('the spec shape', () => {
  it('every row says where it goes in the request: its spec path, or what it becomes', () => {
    for (const k of FIELD_KEYS) expect(!!field(k).spec !== !!field(k).becomes, k).toBe(true);
  });

  it.each(MODES.map((m) => [m ?? 'no', m] as const))('%s test: draft → compose → the request as a spec-shaped file → the same draft', (_, mode) => {
    const d = specDraft(mode);
    const c = compose(d, NOW);
    expect(c.problems).toEqual([]);
    expect(c.ab).toBe(mode);
    const problems: string[] = [];
    expect(parseCampaignDoc(JSON.parse(JSON.stringify(c.request)), problems)).toEqual(d);
    expect(problems).toEqual([]);
  });

  it('the four kinds of campaign carry every row with a spec path between them', () => {
    const carried = new Set(MODES.flatMap((m) => Object.keys(specDraft(m))));
    expect(keysWhere((f) => f.spec !== undefined).filter((k) => !carried.has(k))).toEqual([]);
  });

  it('a wrong value at a spec path is named by its path', () => {
    for (const k of keysWhere((f) => f.spec !== undefined)) {
      const s = field(k).spec!;
      const doc: Record<string, unknown> = s.scheduled ? { config: { schedule: { type: 1 } } } : {};
      let o = doc;
      for (const n of s.path.split('.').slice(0, -1)) o = (o[n] ??= {}) as Record<string, unknown>;
      o[s.path.split('.').at(-1)!] = {};
      const problems: string[] = [];
      parseCampaignDoc(doc, problems);
      expect(problems, k).toContainEqual(expect.stringMatching(new RegExp(`^${s.path.replace(/\./g, '\\.')} is \\{\\} \\(an object\\); it must be `)));
    }
  });
});

describe('compose reads its A/B fields and limits from the table', () => {
  it('a field of one A/B test is refused, with its flag, without a test and in another test', () => {
    for (const k of keysWhere((f) => f.ab !== undefined && f.spec !== undefined)) {
      const own = field(k).ab!;
      const other = MODES.find((m) => m && m !== own)!;
      expect(compose({ ...specDraft(undefined), [k]: sample(k) }, NOW).problems, k).toContain(`${flagName(k)} only applies to an A/B test; add --ab ${own}, or leave it out.`);
      expect(compose({ ...specDraft(other), [k]: sample(k) }, NOW).problems, k).toContain(`${flagName(k)} belongs to a ${own} test, but this is a ${other} test; leave it out or use --ab ${own}.`);
    }
  });

  it('a text over its limit is refused with its flag and the limit; the flag help states the limit', () => {
    const limited = keysWhere((f) => f.max !== undefined);
    expect(limited.length).toBeGreaterThan(0);
    for (const k of limited) {
      const { max } = field(k);
      const mode = MODES.find((m) => applies(k, m));
      expect(compose({ ...specDraft(mode), [k]: 'x'.repeat(max! + 1) }, NOW).problems, k).toContainEqual(
        expect.stringContaining(`(${flagName(k)}) is ${max! + 1} characters long; the service allows at most ${max}.`),
      );
      if (!field(k).variantOf) expect(field(k).help).toContain(`at most ${max} characters`);
    }
  });
});

describe('end to end: flags, a flat file and the spec body make one request', () => {
  const sb = useSandbox({ expect: [] }); // a dry run asks the service nothing

  /** Every flag row a campaign of this kind takes at once: one content source, groups or a one-time list. */
  function flagged(mode: AbDimension | undefined, once: boolean): Draft {
    const picked = FLAG_ROWS.filter((k) => {
      const f = field(k);
      if (!applies(k, mode)) return false;
      if (f.oneOf === 'content') return mode !== 'content' && k === 'htmlFile'; // a content test takes --html-file-a/-b
      if (f.step === 'audience') return once ? k !== 'groups' && k !== 'exclude' : k === 'groups' || k === 'exclude';
      return true;
    });
    return Object.fromEntries(picked.map((k) => [k, field(k).type === 'numberish' ? String(sample(k, mode)) : sample(k, mode)])) as Draft;
  }
  const argvOf = (d: Draft) => Object.entries(d).flatMap(([k, v]) => {
    const flag = longFlag(field(k as DraftKey).flag!);
    return v === true ? [flag] : Array.isArray(v) ? v.flatMap((x) => [flag, x]) : [flag, String(v)];
  });
  async function body(args: string[]): Promise<unknown> {
    const r = await runCli(['--json', 'campaign', 'create', ...args, '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout).requests.find((q: { method: string }) => q.method === 'POST').body;
  }
  const file = (name: string, doc: unknown) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, JSON.stringify(doc));
    return p;
  };

  it.each([...MODES.map((m) => [m ?? 'no', m, false] as const), ['no (one-time list)', undefined, true] as const])('%s test', async (label, mode, once) => {
    const d = flagged(mode, once);
    const fromFlags = await body(argvOf(d));
    expect(await body(['--file', file(`${label}-flat.json`, d)])).toEqual(fromFlags);
    expect(await body(['--file', file(`${label}-spec.json`, { ...(fromFlags as object), ...(once ? { list: d.list } : {}) })])).toEqual(fromFlags);
  });
});
