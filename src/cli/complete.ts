// `mailctl __complete -- WORD…`: the candidates for the last word of a command line, read from
// the commander tree itself (so nouns, verbs, flags and their choices never drift from what the
// CLI accepts), plus group names and codes from the completion cache and profile names from
// the config file. It never calls a service: a Tab must answer at once.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { groupCacheScope, readCampaignCache, readGroupCache } from '../config/completion-cache.js';
import { resolveSettings } from '../config/settings.js';
import { configDir } from '../config/paths.js';
import { readConfig } from '../config/read.js';
import type { Env } from '../run/context.js';
import { DECLARED_GLOBALS } from '../run/write-flags.js';
import { offeredFor } from '../run/offer.js';

const ROOT_ONLY_WHERE_DECLARED = new Set<string>(DECLARED_GLOBALS.map((g) => g.flag));

/** Flags whose value is a group, by name or code. */
const GROUP_FLAGS = new Set(['--group', '--exclude']);

export function completions(program: CommandUnknownOpts, rawWords: string[], env: Env): string[] {
  // The shells hand the words as typed (bash and zsh keep quotes and backslashes): `--group "My G`
  // completes the group "My Group".
  const words = rawWords.map(shellWord);
  let current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  let cmd = program;
  let sandbox = false;
  let profile: string | undefined;
  let pendingValue: Option | undefined;
  const flags = new Set<string>();
  let args: string[] = [];
  for (const w of before) {
    if (pendingValue) {
      // bash splits `--flag=value` at the "=" (it is in COMP_WORDBREAKS): the value comes next.
      if (w === '=') continue;
      if (pendingValue.long === '--profile') profile = w;
      pendingValue = undefined;
      continue;
    }
    if (w.startsWith('-')) {
      if (w === '--sandbox') sandbox = true;
      if (w.startsWith('--profile=')) profile = w.slice('--profile='.length);
      const opt = findOption(cmd, w.split('=')[0]);
      if (opt?.long) flags.add(opt.long);
      if (opt && (opt.required || opt.optional) && !w.includes('=')) pendingValue = opt;
      continue;
    }
    const sub = args.length ? undefined : cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (sub) cmd = sub;
    else args = [...args, w];
  }
  const scope = () => cacheScope(env, profile, sandbox);
  const ctx = { flags, args, campaignCodes: () => readCampaignCache(configDir(env), scope()).map((c) => c.sn) };
  // `--flag=value` as one word (zsh, fish; bash when "=" is not a word break): complete the value,
  // keeping `--flag=` in front. In bash the cursor right after the "=" is a word of its own.
  let keep = '';
  if (pendingValue && current === '=') current = '';
  else if (!pendingValue && /^--[^=]+=/.test(current)) {
    const opt = findOption(cmd, current.slice(0, current.indexOf('=')));
    if (opt && (opt.required || opt.optional)) {
      pendingValue = opt;
      keep = current.slice(0, current.indexOf('=') + 1);
      current = current.slice(keep.length);
    }
  }
  let out: string[];
  let list = false;
  if (pendingValue) {
    const offered = offeredFor(pendingValue, ctx);
    if (pendingValue.argChoices) out = pendingValue.argChoices;
    else if (offered) [out, list] = [[...offered.values], offered.list];
    else if (GROUP_FLAGS.has(pendingValue.long ?? '')) out = readGroupCache(configDir(env), scope()).flatMap((g) => [g.name, g.sn]);
    else if (pendingValue.long === '--profile') out = profileNames(env);
    else out = [];
  } else if (current.startsWith('-')) {
    out = optionsOf(cmd);
  } else if (cmd.commands.length && !args.length) {
    out = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => c.name());
  } else {
    // A variadic last argument (`<codes...>`) takes every word after it.
    const last = cmd.registeredArguments.at(-1);
    const arg = cmd.registeredArguments[args.length] ?? (last?.variadic ? last : undefined);
    const offered = arg && offeredFor(arg, ctx);
    if (arg?.argChoices) out = arg.argChoices;
    // A variadic argument's values already typed are not offered again (campaign delete A B …).
    else if (offered) [out, list] = [[...offered.values].filter((v) => !(arg.variadic && args.includes(v))), offered.list];
    else if (arg?.name() === 'profile') out = profileNames(env);
    else out = [];
  }
  if (list) {
    // A comma-separated list: complete its last item, keeping what is already typed.
    const done = current.slice(0, current.lastIndexOf(',') + 1);
    const taken = new Set(done.split(',').filter(Boolean));
    out = out.filter((v) => !taken.has(v)).map((v) => done + v);
  }
  return [...new Set(out)].filter((c) => c.startsWith(current)).sort().map((c) => keep + c);
}

/**
 * A word as a POSIX shell would pass it on: quotes and backslashes taken off. The word under the
 * cursor may still be open (`"My G`, a trailing backslash): what is typed so far counts.
 */
export function shellWord(raw: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && '"\\$`'.includes(raw[i + 1] ?? 'x')) out += raw[++i];
      else out += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') out += raw[++i] ?? '';
    else out += c;
  }
  return out;
}

function findOption(cmd: CommandUnknownOpts, flag: string): Option | undefined {
  const dflt = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  const sub = dflt ? cmd.commands.find((c) => c.name() === dflt) : undefined;
  for (let c: CommandUnknownOpts | null = sub ?? cmd; c; c = c.parent) {
    const o = c.options.find((x) => x.long === flag || x.short === flag || (x.negate && x.long === flag));
    if (o) return o;
  }
  return undefined;
}

function optionsOf(cmd: CommandUnknownOpts): string[] {
  const out: string[] = ['--help'];
  // `mailctl send --subject …` runs send's default verb (email): its flags belong here too.
  const dflt = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  const sub = dflt ? cmd.commands.find((c) => c.name() === dflt) : undefined;
  if (sub) for (const o of sub.options) if (o.long && !o.hidden) out.push(o.long);
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      // The root's --dry-run/--yes count only where a command declares them (it then lists its own).
      if (!c.parent && ROOT_ONLY_WHERE_DECLARED.has(o.long ?? '')) continue;
      if (o.long && !o.hidden) out.push(o.long);
    }
  }
  return out;
}

/**
 * The run's own choice (resolveSettings: --profile, MAILCTL_PROFILE, the file's current profile;
 * --sandbox or the profile's `sandbox true`) through the one scope rule the writer uses. A config
 * the run would refuse still completes, from what was typed.
 */
function cacheScope(env: Env, profileFlag: string | undefined, sandboxFlag: boolean): string {
  try {
    return groupCacheScope(resolveSettings({ profileFlag, sandboxFlag, env, store: readConfig(configDir(env)) }));
  } catch {
    return groupCacheScope({ sandbox: sandboxFlag, profileName: profileFlag || env.MAILCTL_PROFILE || safeCurrentProfile(env) || 'default' });
  }
}

function safeCurrentProfile(env: Env): string | undefined {
  try {
    return readConfig(configDir(env)).currentProfile();
  } catch {
    return undefined;
  }
}

function profileNames(env: Env): string[] {
  try {
    return readConfig(configDir(env)).profileNames();
  } catch {
    return [];
  }
}
