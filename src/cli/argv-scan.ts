// What main.ts must know of the command line before commander parses it, read in one pass:
// which noun to register in full (commands/nouns.ts loads and builds only that one), `mailctl help …`,
// shell completion, and the global flags a usage error's hint and its --json document depend
// on (commander has not parsed them when it refuses the line). It reads argv as commander will:
// a global option that takes a value takes the next word whatever it is (`--profile --json` is
// the profile "--json"), and nothing after `--` is a flag or a command word. Pure: argv in,
// facts out; loaded at every start-up, so it imports nothing.

/** The global options that take a value (src/run/root-options.ts), so their value is not taken for a word or a flag. */
export const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(['--profile', '--output', '--query']);

export interface ArgvScan {
  /** The noun the line runs: its first word, or the word after `help` (`help groups` → groups). */
  noun?: string;
  /**
   * `mailctl [flags] help WORD [more…]`: WORD is a help topic or a command. `before` holds the
   * words ahead of `help` (global flags), `after` every word after it, WORD first; main turns the
   * ones that name commands into `[flags] WORD more --help` (commander's own help command reads
   * one word only).
   */
  help?: { word: string; before: string[]; after: string[] };
  /** `mailctl __complete [--] WORDS…`: the words the shell has so far (at least one, maybe empty). */
  complete?: string[];
  /** --profile NAME or --profile=NAME (the last one given). */
  profile?: string;
  sandbox: boolean;
  /** --json, --query, or --output json: the line asks for one JSON document, errors included. */
  asksJson: boolean;
}

export function scanArgv(argv: readonly string[]): ArgvScan {
  const scan: ArgvScan = { sandbox: false, asksJson: false };
  if (argv[0] === '__complete') {
    const words = argv.slice(argv[1] === '--' ? 2 : 1);
    return { ...scan, complete: words.length ? words : [''] };
  }
  /** The first two words that are not flags or their values, with where each stands. */
  const words: Array<{ word: string; at: number }> = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (!a.startsWith('-')) {
      if (words.length < 2) words.push({ word: a, at: i });
      continue;
    }
    if (a === '--sandbox') scan.sandbox = true;
    else if (a === '--json' || a === '--output=json' || a.startsWith('--query=')) scan.asksJson = true;
    else if (a.startsWith('--profile=')) scan.profile = a.slice('--profile='.length);
    else if (GLOBAL_VALUE_OPTIONS.has(a)) {
      if (a === '--query') scan.asksJson = true;
      if (i + 1 >= argv.length) break;
      const value = argv[++i];
      if (a === '--profile') scan.profile = value;
      else if (a === '--output' && value === 'json') scan.asksJson = true;
    }
  }
  const [first, second] = words;
  if (first?.word === 'help') {
    scan.noun = second?.word;
    if (second) scan.help = { word: second.word, before: argv.slice(0, first.at), after: argv.slice(first.at + 1) };
  } else {
    scan.noun = first?.word;
  }
  return scan;
}

/**
 * argv less the flags suggest() puts back as the run chose them (--profile P, --sandbox): the
 * words of Context.commandLine. `valued` names the options that take the next word as their
 * value whatever it is (`--subject --sandbox` keeps its subject): the global ones, and once the
 * command is known, its own.
 */
export function commandLineOf(argv: readonly string[], valued: ReadonlySet<string> = GLOBAL_VALUE_OPTIONS): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a === '--sandbox' || a.startsWith('--profile=')) continue;
    if (a === '--profile') {
      i++;
      continue;
    }
    out.push(a);
    if (valued.has(a) && i + 1 < argv.length) out.push(argv[++i]);
  }
  return out;
}
