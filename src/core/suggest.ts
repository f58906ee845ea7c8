// The one builder of suggested commands (hints, resume lines). A hint is a command the user can
// paste: it carries the global flags that chose this run's account and services, quotes what a
// shell would split, and notes choices made only through the environment.
//
// The rule, for every call site:
// - The profile in use goes in as --profile P whenever a flag OR MAILCTL_PROFILE chose it:
//   naming it is always correct, and the line then reaches the same account pasted in any shell.
//   (A profile chosen by the config file's default needs no flag: the same config folder chooses
//   it again.) --sandbox goes in when it was given.
// - suggest(): a hint to act on now, in this shell: the fix for an error, the next step, a
//   synopsis. The environment that chose the config folder, base URLs and keys is still set
//   there, so no note: on every hint it would only drown the sentence.
// - suggestWithNote(): a line to run LATER or ELSEWHERE, i.e. in a shell that may not have this
//   one's environment: resume (send/automation --resume, webhook replay --from-line, contacts
//   clean after a partial run), keep waiting (import/campaign status --wait), follow up (the
//   lines after `campaign create`, `report links` after an export started), a saved draft, and
//   storing a key (often done from another terminal; it must land in the folder this run reads).
//   It adds a note naming the environment variables that chose the config folder and base URLs
//   (with their values) and the keys (by name only: a key is never printed):
//     mailctl --profile p import status IM1 --wait  (with MAILCTL_CONFIG_DIR=/x set, as now)
//   Under --sandbox only the config folder counts (it holds the sandbox's state). A line printed
//   inside backticks gets the note after the closing backtick: envNote().
import type { Env } from './env.js';

/** Environment variables, other than MAILCTL_PROFILE, that change which account or service a command talks to. */
const ENV_NOTED = ['MAILCTL_CONFIG_DIR', 'MAILCTL_CAMPAIGN_URL', 'MAILCTL_NOTIFY_URL'] as const;
/** Keys: named in the note, their values never shown. */
const ENV_KEYS = ['MAILCTL_API_KEY', 'MAILCTL_CAMPAIGN_API_KEY', 'MAILCTL_NOTIFY_API_KEY'] as const;

/**
 * What a suggestion needs of a run: the two global flags that choose its account, and its
 * environment. A Context is one (its globals carry more); so is what main.ts reads from argv
 * before a Context exists. Typed here, not from the Context, so this builder depends on nothing.
 */
export interface SuggestRun {
  globals: { profile?: string; sandbox: boolean };
  env: Env;
}

/** `mailctl [--profile P] [--sandbox] ARGS…`, each word quoted for a POSIX shell where needed. */
export function suggest(run: SuggestRun, ...args: Array<string | number>): string {
  const words = ['mailctl'];
  const profile = run.globals.profile ?? (run.env.MAILCTL_PROFILE || undefined);
  if (profile !== undefined) words.push('--profile', profile);
  if (run.globals.sandbox) words.push('--sandbox');
  words.push(...args.map(String));
  return words.map(shellQuote).join(' ');
}

/** A suggested command to run later and, when the environment chose the folder, URLs or keys, a note saying so. */
export function suggestWithNote(run: SuggestRun, ...args: Array<string | number>): string {
  return `${suggest(run, ...args)}${envNote(run)}`;
}

/**
 * The note alone ("  (with MAILCTL_CONFIG_DIR=/x set, as now)", or ''), for a later-run command
 * printed inside backticks: the note goes after the closing backtick.
 */
export function envNote(run: SuggestRun): string {
  const env = run.env;
  const valued = ENV_NOTED.filter((k) => env[k] && (!run.globals.sandbox || k === 'MAILCTL_CONFIG_DIR')).map((k) => `${k}=${shellQuote(env[k]!)}`);
  const keys = run.globals.sandbox ? [] : ENV_KEYS.filter((k) => env[k]);
  const parts = [valued.length ? `${valued.join(' ')} set` : '', keys.length ? `the key${keys.length > 1 ? 's' : ''} in ${keys.join(' and ')}` : ''].filter(Boolean);
  return parts.length ? `  (with ${parts.join(' and ')}, as now)` : '';
}

/** What `sameCommand` needs: a run and its own words (Context.commandLine). */
export interface RerunRun extends SuggestRun {
  commandLine: readonly string[];
}

/**
 * This run's own command line, to run it again (after a full disk, say): its words as given,
 * with --profile and --sandbox as suggest() puts them. A run that read standard input (a `-`
 * word) is noted as needing the same input again.
 */
export function sameCommand(run: RerunRun): string {
  const line = suggest(run, ...run.commandLine);
  return run.commandLine.includes('-') ? `${line}  (given the same standard input)` : line;
}

/** A suggested-command builder already bound to a run, for code that has no Context. */
export type Suggest = (...args: Array<string | number>) => string;

/** suggest() bound to this run's globals: hand it to code that builds messages without a Context. */
export function suggester(run: SuggestRun): Suggest {
  return (...args) => suggest(run, ...args);
}

/** For a caller with no run at all (a unit test, a library use): the command as is. */
export const plainSuggest: Suggest = (...args) => suggest({ globals: { sandbox: false }, env: {} }, ...args);

export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  // A word with control or reordering characters (a code a service chose) is written in bash/zsh
  // $'…' quoting: the line stays safe to print and pastes back as exactly that word.
  if (CONTROL.test(word)) return `$'${word.replace(/[\\']/g, '\\$&').replace(CONTROL_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const CONTROL_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u180e\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u206f\\ufeff]';
const CONTROL = new RegExp(CONTROL_CLASS);
const CONTROL_ALL = new RegExp(CONTROL_CLASS, 'g');
