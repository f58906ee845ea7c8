// The one builder of suggested commands (hints, resume lines). A hint is a command the user can
// paste: it carries the global flags that chose this run's account and services (--profile,
// --sandbox), quotes what a shell would split, and notes choices made only through the
// environment, which a pasted line in another shell would not have.
import type { Context } from './context.js';

/** Environment variables that change which account or service a command talks to. */
const ENV_CHOICES = ['MAILCTL_PROFILE', 'MAILCTL_CONFIG_DIR', 'MAILCTL_CAMPAIGN_URL', 'MAILCTL_NOTIFY_URL'] as const;

type Globals = Pick<Context['globals'], 'profile' | 'sandbox'>;

/** `mailctl [--profile P] [--sandbox] ARGS…`, each word quoted for a POSIX shell where needed. */
export function suggest(ctx: { globals: Globals }, ...args: Array<string | number>): string {
  const words = ['mailctl'];
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.sandbox) words.push('--sandbox');
  words.push(...args.map(String));
  return words.map(shellQuote).join(' ');
}

/** A suggested command and, when the environment chose the account, a note saying so. */
export function suggestWithNote(ctx: { globals: Globals; env: Record<string, string | undefined> }, ...args: Array<string | number>): string {
  const line = suggest(ctx, ...args);
  const set = ENV_CHOICES.filter((k) => ctx.env[k] && !(k === 'MAILCTL_PROFILE' && ctx.globals.profile));
  return set.length ? `${line}  (with ${set.map((k) => `${k}=${shellQuote(ctx.env[k]!)}`).join(' ')} set, as now)` : line;
}

/** A suggested-command builder already bound to a run, for code that has no Context. */
export type Suggest = (...args: Array<string | number>) => string;

/** suggest() bound to this run's globals: hand it to code that builds messages without a Context. */
export function suggester(ctx: { globals: Globals }): Suggest {
  return (...args) => suggest(ctx, ...args);
}

/** For a caller with no run at all (a unit test, a library use): the command as is. */
export const plainSuggest: Suggest = (...args) => suggest({ globals: { sandbox: false } }, ...args);

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
