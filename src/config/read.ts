// Reading the config file without loading its writer. Resolving settings is all most commands
// need from it, and conf (with ajv, semver and atomically behind it) costs a one-request
// command more start-up time than the request itself, and writes its defaults into a new file
// even when nothing is being set. conf stays the one writer (src/config/store.ts); this reads
// the same file, in the same shape, and never creates it.
import fs from 'node:fs';
import path from 'node:path';
import { AuthError } from '../core/errors.js';
import { invalidUtf8At, notUtf8Sentence } from '../core/utf8.js';
import { jsonType, readStored, SETTINGS, type Profile } from './keys.js';
import { profileNameProblem } from './profile-name.js';
import { keyProblem } from './key-shape.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

/** The file conf keeps (`configName: 'config'`, JSON) inside the config directory. */
export const CONFIG_FILE_NAME = 'config.json';

export interface ConfigShape {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** What settings resolution needs of the config file. */
export interface ConfigReader {
  currentProfile(): string | undefined;
  /** The profile, each stored value checked (checkProfile): a wrong one is exit 3. */
  getProfile(name: string): Profile | undefined;
  /** The profile as stored, unchecked: for the writers, so `config set`/`unset` can repair it. */
  storedProfile(name: string): Profile | undefined;
  profileNames(): string[];
}

/**
 * The config file's text, undefined when there is none. Strict: a hand-edited value with a byte
 * that is not UTF-8 would otherwise be read as U+FFFD and used (or saved back by `config set`)
 * changed. A config problem, so exit 3 like the file's other faults, naming the byte's offset.
 */
export function readConfigText(file: string): string | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new AuthError(`The config file ${file} cannot be read: ${(e as Error).message}.`, 'Check its permissions, or set MAILCTL_CONFIG_DIR to another directory.');
    }
    return undefined;
  }
  const at = invalidUtf8At(buf);
  if (at >= 0) throw new AuthError(notUtf8Sentence({ name: `the config file ${file}` }, at, false), 'Save the file as UTF-8 in your editor (or fix the value there).');
  // A byte-order mark is kept: conf, the file's writer, does not read past one either.
  return buf.toString('utf8');
}

export function readConfig(dir: string, cmd: Suggest = plainSuggest): ConfigReader {
  const file = path.join(dir, CONFIG_FILE_NAME);
  let data: ConfigShape = { profiles: {} };
  const text = readConfigText(file);
  if (text !== undefined && text.trim() !== '') {
    try {
      const parsed = JSON.parse(text) as Partial<ConfigShape>;
      data = { currentProfile: typeof parsed.currentProfile === 'string' ? parsed.currentProfile : undefined, profiles: isRecord(parsed.profiles) ? (parsed.profiles as ConfigShape['profiles']) : {} };
    } catch (e) {
      throw new AuthError(`The config file in ${dir} cannot be read: ${(e as Error).message}.`, `Fix or remove the file, then run \`${cmd('config', 'set-key')}\` again.`);
    }
  }
  // Own properties only: a profile named like an Object.prototype member is not a profile.
  const stored = (name: string) => (Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined);
  return {
    currentProfile: () => data.currentProfile,
    getProfile: (name) => checkProfile(file, name, stored(name), cmd),
    storedProfile: stored,
    // Names the one rule refuses (a hand-edited "__proto__") are not offered anywhere.
    profileNames: () => Object.keys(data.profiles).filter((n) => !profileNameProblem(n)).sort(),
  };
}

const KEY_FIELDS = ['apiKey', 'campaignKey', 'notifyKey'] as const;

/**
 * A profile as read from the file, each value checked against the one key table (the parser
 * `config set` uses, src/config/keys.ts): a hand-edited `"campaignUrl": 5` or `"sandbox": "yes"`
 * is a config error (exit 3) naming the file, profile and key, never a crash later or a value
 * silently ignored (a "yes" that doctor shows as on while commands go to the real service).
 * Keys mailctl does not know are left alone. Returns the parsed values.
 */
export function checkProfile(file: string, name: string, raw: unknown, cmd: Suggest = plainSuggest): Profile | undefined {
  if (raw === undefined) return undefined;
  const fail = (what: string, problem: string, fix: string): never => {
    throw new AuthError(`In the config file ${file}, ${what} of profile "${name}" is wrong: ${problem}.`, `${fix}, or edit the file.`);
  };
  if (!isRecord(raw)) return fail('the entry', `it should be an object, not ${jsonType(raw)}`, `Remove it with \`${cmd('config', 'delete-profile', name, '--yes')}\``);
  const out: Record<string, unknown> = { ...raw };
  for (const k of KEY_FIELDS) {
    if (out[k] !== undefined && typeof out[k] !== 'string') fail(`"${k}"`, `it should be text in quotes, not ${jsonType(out[k])}`, `Store the key again with \`${cmd('config', 'set-key')}\``);
    // A hand-edited key holding a control character, a space or a non-ASCII character: refused, never shown.
    const problem = typeof out[k] === 'string' && out[k] !== '' ? keyProblem(out[k] as string) : undefined;
    if (problem) fail(`"${k}"`, `it ${problem}`, `Store the key again with \`${cmd('config', 'set-key', '--service', k === 'apiKey' ? 'both' : k === 'campaignKey' ? 'campaign' : 'notify')}\``);
  }
  for (const spec of SETTINGS) {
    if (out[spec.name] === undefined) continue;
    try {
      out[spec.name] = readStored(spec, out[spec.name]);
    } catch (e) {
      fail(`"${spec.name}" (${spec.flag})`, (e as Error).message, `Set it with \`${cmd('config', 'set', spec.flag, 'VALUE')}\``);
    }
  }
  return out as Profile;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
