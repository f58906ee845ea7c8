// The command reference in docs/commands/ and the man page docs/mailctl.1, made from the
// command declarations themselves: the tree comes from each noun's own registration
// (commands/index.ts) and every page's text is that command's `--help` as mailctl prints it.
// test/docs-reference.test.ts fails when a checked-in page drifts from `--help`;
// `npm run docs` rewrites them.
import { Command } from 'commander';
import { NOUNS } from '../../commands/index.js';
import { HELP_TOPICS } from '../../src/cli/root-help.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli.js';

const installDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CommandPage {
  /** The words after `mailctl`: ['campaign', 'create']. */
  words: string[];
  summary: string;
  /** Subcommands: a noun's page lists its verbs. */
  hasVerbs: boolean;
}

/** Every command of the tree, nouns first then their verbs, depth first, in declaration order. */
export function commandTree(): CommandPage[] {
  const program = new Command('mailctl');
  for (const noun of NOUNS) noun.register(program, () => async () => {});
  const pages: CommandPage[] = [];
  const walk = (c: Command, words: string[]) => {
    for (const sub of c.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const w = [...words, sub.name()];
      pages.push({ words: w, summary: sub.description(), hasVerbs: sub.commands.length > 0 });
      walk(sub, w);
    }
  };
  walk(program, []);
  return pages;
}

/** `mailctl WORDS --help` as a user sees it piped (80 columns, no colour). */
export async function helpText(words: string[]): Promise<string> {
  const r = await runCli([...words, '--help'], { env: { NO_COLOR: '1', COLUMNS: '80' } });
  if (r.exitCode !== 0) throw new Error(`mailctl ${words.join(' ')} --help exited ${r.exitCode}: ${r.stderr}`);
  return r.stdout;
}

export function pageName(words: string[]): string {
  return `${words.length ? words.join('-') : 'mailctl'}.md`;
}

const GENERATED = '<!-- Generated from the command declarations by `npm run docs`; do not edit by hand. -->';

export function markdownPage(words: string[], help: string): string {
  return `${GENERATED}\n# mailctl ${words.join(' ')}\n\n\`\`\`text\n${help.trimEnd()}\n\`\`\`\n`;
}

export function indexPage(pages: CommandPage[]): string {
  const lines = [
    GENERATED,
    '# Command reference',
    '',
    'Each page is the command\'s own `--help`, made from the same declarations, so the two never differ.',
    'The whole reference is also a man page: `man ./docs/mailctl.1`.',
    '',
    `- [mailctl](${pageName([])}) — global flags, help topics and the common workflows`,
  ];
  for (const p of pages) lines.push(`${'  '.repeat(p.words.length - 1)}- [mailctl ${p.words.join(' ')}](${pageName(p.words)}) — ${p.summary.replace(/\s+/g, ' ')}`);
  return `${lines.join('\n')}\n`;
}

/** roff: a backslash doubled; a line that starts with . or ' is protected by \& */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

export function manPage(version: string, root: string, pages: Array<{ words: string[]; help: string }>, topics: Array<{ name: string; text: string }>): string {
  const out = [
    '.\\" Generated from the command declarations by `npm run docs`; do not edit by hand.',
    `.TH MAILCTL 1 "" "mailctl ${version}" "User Commands"`,
    '.SH NAME',
    'mailctl \\- drive the campaign and notification email services from the terminal',
    '.SH SYNOPSIS',
    '.B mailctl',
    '[\\fIglobal flags\\fR] \\fIcommand\\fR [\\fIflags\\fR]',
    '.SH DESCRIPTION',
    '.nf',
    roff(root.trimEnd()),
    '.fi',
    '.SH COMMANDS',
  ];
  for (const p of pages) {
    out.push(`.SS mailctl ${roff(p.words.join(' '))}`, '.nf', roff(p.help.trimEnd()), '.fi');
  }
  for (const t of topics) out.push(`.SH ${roff(t.name.toUpperCase().replace(/-/g, ' '))}`, '.nf', roff(t.text.trimEnd()), '.fi');
  return `${out.join('\n')}\n`;
}

/** Every generated file: path under docs/ → content. */
export async function referenceFiles(version: string): Promise<Map<string, string>> {
  const tree = commandTree();
  const files = new Map<string, string>();
  const root = await helpText([]);
  files.set(`commands/${pageName([])}`, markdownPage([], root));
  const helps: Array<{ words: string[]; help: string }> = [];
  for (const p of tree) {
    const help = await helpText(p.words);
    helps.push({ words: p.words, help });
    files.set(`commands/${pageName(p.words)}`, markdownPage(p.words, help));
  }
  files.set('commands/README.md', indexPage(tree));
  const topics: Array<{ name: string; text: string }> = [];
  for (const name of Object.keys(HELP_TOPICS)) {
    const r = await runCli(['help', name], { env: { NO_COLOR: '1' } });
    // `help examples` names the folder mailctl runs from: the same page on every clone.
    topics.push({ name, text: r.stdout.split(installDir).join('<mailctl install dir>') });
  }
  files.set('mailctl.1', manPage(version, root, helps, topics));
  return files;
}
