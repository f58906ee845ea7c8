// Every command's `--help` screen, rendered when mailctl is built (scripts/bundle.mjs) into
// dist/cli/help-screens.json and .txt, so that `mailctl … --help` with stdout not a terminal is
// answered by bin/help-screen.cjs without loading commander and the registrations (issue 24.6:
// a help screen within 1.25× of bare node). Each screen is what main() itself prints for that
// line, run through the built bundle: the build renders them, it does not write them.
// test/help-screens.test.ts holds every served screen equal to main()'s.
//
// The format bin/help-screen.cjs reads: help-screens.json is
//   { "version": 1, "width": 80, "screens": { "<words>": [start, end], … } }
// where <words> are the command words as typed, joined by one space ("" for `mailctl --help`,
// "groups list", "group ls" — every alias spelling is a key of its own), and [start, end) the
// screen's bytes in help-screens.txt. Only screens as printed for a stdout that is not a
// terminal (80 columns, no colour): a terminal's width changes the wrapping, so a terminal gets
// main() itself.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { NOUNS } from './index.js';

export const HELP_SCREENS_VERSION = 1;
/** The width commander lays help out in when stdout is not a terminal. */
export const HELP_SCREENS_WIDTH = 80;

/** A line of words that names one command, and that command's words by their names (aliases resolved). */
export interface CommandWords {
  typed: string[];
  canonical: string[];
}

/** Every way to name every command (`[]` is mailctl itself): each name or alias at each level. */
export function commandWords(): CommandWords[] {
  const program = new Command('mailctl') as unknown as CommandUnknownOpts;
  for (const noun of NOUNS) noun.register(program, () => async () => {});
  const out: CommandWords[] = [];
  const walk = (cmd: CommandUnknownOpts, typed: string[], canonical: string[]) => {
    out.push({ typed, canonical });
    for (const sub of cmd.commands) {
      for (const word of [sub.name(), ...sub.aliases()]) walk(sub, [...typed, word], [...canonical, sub.name()]);
    }
  };
  walk(program, [], []);
  return out;
}

/** How a screen is rendered: main() run on `argv`, its stdout returned (a non-zero exit is a failure). */
export type RenderHelp = (argv: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

export interface HelpScreens {
  index: { version: number; width: number; screens: Record<string, [number, number]> };
  text: Buffer;
}

/** Every command's screen, once per command, and the index naming it under every spelling. */
export async function renderHelpScreens(render: RenderHelp): Promise<HelpScreens> {
  const parts: Buffer[] = [];
  let at = 0;
  const byCommand = new Map<string, [number, number]>();
  const screens: Record<string, [number, number]> = {};
  for (const { typed, canonical } of commandWords()) {
    const key = canonical.join(' ');
    let range = byCommand.get(key);
    if (!range) {
      const r = await render([...canonical, '--help']);
      if (r.code !== 0 || r.stderr !== '' || r.stdout === '') throw new Error(`mailctl ${key} --help: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 200))}`);
      const bytes = Buffer.from(r.stdout, 'utf8');
      range = [at, at + bytes.length];
      parts.push(bytes);
      at += bytes.length;
      byCommand.set(key, range);
    }
    screens[typed.join(' ')] = range;
  }
  return { index: { version: HELP_SCREENS_VERSION, width: HELP_SCREENS_WIDTH, screens }, text: Buffer.concat(parts) };
}
