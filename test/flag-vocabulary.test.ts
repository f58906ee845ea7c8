// docs/flags.md, the table of flags more than one command shares, kept true over the declarations
// (issue 20.5): the command tree is walked and each declaration compared with its row — the value
// it takes, what its help says it is, and which commands declare it. A name the table keeps for
// one meaning cannot be declared for another, and one meaning does not get a second name (a time
// is --since/--until, a folder --out-dir, a file of recipients --recipients-file).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { declareRoot } from '../src/run/root-options.js';
import { FIELD_KEYS, field, longFlag } from '../src/campaign/fields.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = fs.readFileSync(path.join(root, 'docs/flags.md'), 'utf8');

interface Row {
  flag: string;
  /** The value names allowed ('' for a switch). */
  values: string[];
  means: string;
  /** Exact, sorted; undefined for the global table. */
  declaredBy?: string[];
}

/** The markdown table under a heading, as rows of cells (header and rule left out). */
function table(heading: string): string[][] {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/flags.md has a "## ${heading}" section`).toBeGreaterThan(-1);
  const lines = DOC.slice(start).split('\n').slice(2);
  const rows: string[][] = [];
  for (const line of lines) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('| `')) continue;
    rows.push(line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const longOf = (flags: string) => flags.split(/[ ,]+/).find((f) => f.startsWith('--'))!;

function rows(heading: string, withCommands: boolean): Row[] {
  return table(heading).map(([flag, value, means, by]) => ({
    flag: longOf(code(flag)[0]),
    values: code(value).length ? code(value) : [''],
    means,
    declaredBy: withCommands ? by.split(',').map((s) => s.trim()).filter(Boolean).sort() : undefined,
  }));
}

const SHARED = rows('Shared flags', true);
const GLOBAL = rows('Global flags', false);

/**
 * What each flag's help must say it is, in the words of its kind: the table's "Means" is for
 * people; these keep every declaration's own description of the same kind.
 */
const SAYS: Record<string, RegExp> = {
  '--to': /recipient|number|who gets/i,
  '--to-name': /name of the --to recipient/,
  '--recipients-file': /recipients/i,
  '--emails-file': /address/i,
  '--contacts': /contact/i,
  '--contact': /address.*line/i,
  '--email': /address/i,
  '--var': /variable|\$\{FIELD\}/,
  '--allow-missing': /no value/,
  '--from': /sender address/,
  '--from-name': /sender name/,
  '--subject': /subject/,
  '--html': /html/,
  '--html-file': /html.*file/,
  '--name': /campaign name/,
  '--file': /campaign from a JSON file/,
  '--at': /schedule/,
  '--no-links': /link/,
  '--group': /group/,
  '--field': /field/,
  '--since': /\bsince\b|start/,
  '--until': /\bend\b|up to|stop at|\buntil\b/,
  '--sms': /SMS/,
  '--id': /message id/,
  '--recipient': /address|number/,
  '--country-code': /calling code/,
  '--status': /status/,
  '--all': /every|all|also/,
  '--workflow': /workflow/,
  '--journal': /journal/,
  '--resume': /continue/,
  '--concurrency': /in flight/,
  '--settle-after': /in-doubt/,
  '--forecast': /forecast/,
  '--ignore-balance': /balance/,
  '--strict': /refuse|exit \d|nothing/,
  '--wait': /wait|poll/,
  '--timeout': /give up/,
  '--out': /file|write/,
  '--out-dir': /directory/,
  '--force': /overwrite|replace/,
  '--download-failures': /failure file/,
  '--webhook-url': /POST/,
  '--url': /webhook consumer/,
  '--signature-header': /header/,
  '--port': /port to listen on/,
  '--history': /event store/,
  '--store': /sqlite:PATH or postgres:/,
  '--link-timeout': /give up on a link/,
  '--web': /browser/,
};

interface Declared {
  command: string;
  option: Option;
}

/** Every option of every runnable command, with the command's name ("report sync"). */
function declarations(): Declared[] {
  const program = new Command('mailctl');
  for (const n of NOUNS) n.register(program, () => async () => {});
  const out: Declared[] = [];
  const walk = (c: Command, names: string[]) => {
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler) for (const option of c.options) out.push({ command: names.join(' '), option });
    for (const s of c.commands) walk(s, [...names, s.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

/** The value as the table writes it: '<address...>' (repeatable) is '<address>'; a switch ''. */
function valueOf(o: Option): string {
  const v = o.flags.slice(o.flags.indexOf(o.long!) + o.long!.length).trim();
  return v.replace(/\.\.\.([>\]])$/, '$1');
}

const ALL = declarations();
const byFlag = new Map<string, Declared[]>();
for (const d of ALL) byFlag.set(d.option.long!, [...(byFlag.get(d.option.long!) ?? []), d]);

/** The flags the campaign field table declares, and the commands that take them all from there (create, preflight, proof, preview). */
const FIELD_FLAGS = new Set(FIELD_KEYS.flatMap((k) => (field(k).flag ? [longFlag(field(k).flag!)] : [])));
const FIELD_COMMANDS = [...new Set(ALL.map((d) => d.command))].filter((c) => [...FIELD_FLAGS].every((f) => ALL.some((d) => d.command === c && d.option.long === f)));

describe('docs/flags.md: the shared flags', () => {
  it('has rows, each flag once, each with the words its help must use', () => {
    expect(SHARED.length).toBeGreaterThan(30);
    expect(new Set(SHARED.map((r) => r.flag)).size).toBe(SHARED.length);
    for (const r of SHARED) expect(SAYS[r.flag], `add what ${r.flag}'s help must say to SAYS in this test`).toBeInstanceOf(RegExp);
  });

  it.each(SHARED.map((r) => [r.flag, r] as const))('%s: every declaration takes the value the table names and says the same thing; "Declared by" is exact', (flag, row) => {
    const found = byFlag.get(flag) ?? [];
    for (const { command, option } of found) {
      const value = valueOf(option);
      expect(row.values, `${command} declares ${option.flags}: docs/flags.md gives ${flag} the value ${row.values.join(' or ') || '(none)'} — rename the flag or its value`).toContain(value);
      expect(option.description, `${command} ${flag}: its help must be about "${row.means}"`).toMatch(SAYS[flag]);
    }
    const by = [...new Set(found.map((d) => d.command))].sort();
    expect(row.declaredBy, `docs/flags.md row ${flag}: "Declared by" should read: ${by.join(', ')}`).toEqual(by);
  });

  it('every flag two commands share has a row (the campaign fields, declared once for the campaign commands, have their own table)', () => {
    expect(FIELD_COMMANDS).toEqual(expect.arrayContaining(['campaign create', 'campaign preflight', 'campaign proof']));
    const missing = [...byFlag].filter(([flag, ds]) => {
      const commands = new Set(ds.map((d) => d.command));
      if (commands.size < 2 || SHARED.some((r) => r.flag === flag) || GLOBAL.some((r) => r.flag === flag)) return false;
      return !(FIELD_FLAGS.has(flag) && [...commands].every((c) => FIELD_COMMANDS.includes(c)));
    }).map(([flag, ds]) => `${flag} (${ds.map((d) => d.command).join(', ')})`);
    expect(missing, 'add these to docs/flags.md').toEqual([]);
  });
});

describe('docs/flags.md: the global flags', () => {
  it('are the root\'s options, with the same values', () => {
    const program = declareRoot(new Command('mailctl') as never) as unknown as Command;
    const declared = program.options.map((o) => [o.long!, valueOf(o)]);
    expect(GLOBAL.map((r) => [r.flag, r.values[0]])).toEqual(declared);
  });

  it('a command repeats a global flag only to take it (--csv, --dry-run, --yes), as the same switch', () => {
    const globals = new Set(GLOBAL.map((r) => r.flag));
    const redeclared = ALL.filter((d) => globals.has(d.option.long!));
    expect([...new Set(redeclared.map((d) => d.option.long))].sort()).toEqual(['--csv', '--dry-run', '--yes']);
    for (const d of redeclared) expect(valueOf(d.option), `${d.command} ${d.option.flags}`).toBe('');
  });
});

describe('one meaning, one name', () => {
  it('no hidden options: a renamed flag has no old spelling left behind', () => {
    expect(ALL.filter((d) => d.option.hidden).map((d) => `${d.command} ${d.option.flags}`)).toEqual([]);
  });

  it('a time range is only --since/--until (never --from/--to, which are the sender and the recipient)', () => {
    const times = ALL.filter((d) => valueOf(d.option) === '<time>').map((d) => d.option.long);
    expect(new Set(times)).toEqual(new Set(['--since', '--until']));
  });

  it('a folder is only --out-dir; --out is always a file', () => {
    expect(new Set(ALL.filter((d) => /^[<[]dir/.test(valueOf(d.option))).map((d) => d.option.long))).toEqual(new Set(['--out-dir']));
  });

  it('a file of recipients is only --recipients-file; a webhook consumer only --url', () => {
    const recipientFiles = ALL.filter((d) => valueOf(d.option) !== '' && /recipients/i.test(d.option.description) && /file|csv|json/i.test(`${valueOf(d.option)} ${d.option.description}`));
    expect(new Set(recipientFiles.map((d) => d.option.long))).toEqual(new Set(['--recipients-file']));
    expect(new Set(ALL.filter((d) => /webhook consumer/.test(d.option.description)).map((d) => d.option.long))).toEqual(new Set(['--url']));
  });

  it('the guard catches a stray meaning: a --to that takes a URL is refused by its row', () => {
    const to = SHARED.find((r) => r.flag === '--to')!;
    expect(to.values).not.toContain('<url>');
    expect('your webhook consumer').not.toMatch(SAYS['--to']);
  });
});
