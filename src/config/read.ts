// Reading the config file without loading its writer. Resolving settings is all most commands
// need from it, and conf (with ajv, semver and atomically behind it) costs a one-request
// command more start-up time than the request itself, and writes its defaults into a new file
// even when nothing is being set. conf stays the one writer (src/config/store.ts); this reads
// the same file, in the same shape, and never creates it.
import fs from 'node:fs';
import path from 'node:path';
import { AuthError } from '../cli/errors.js';
import type { Profile } from './keys.js';
import { profileNameProblem } from './profile-name.js';
import { plainSuggest, type Suggest } from '../cli/suggest.js';

/** The file conf keeps (`configName: 'config'`, JSON) inside the config directory. */
export const CONFIG_FILE_NAME = 'config.json';

export interface ConfigShape {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** What settings resolution needs of the config file. */
export interface ConfigReader {
  currentProfile(): string | undefined;
  getProfile(name: string): Profile | undefined;
  profileNames(): string[];
}

export function readConfig(dir: string, cmd: Suggest = plainSuggest): ConfigReader {
  const file = path.join(dir, CONFIG_FILE_NAME);
  let data: ConfigShape = { profiles: {} };
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new AuthError(`The config file ${file} cannot be read: ${(e as Error).message}.`, 'Check its permissions, or set MAILCTL_CONFIG_DIR to another directory.');
    }
  }
  if (text !== undefined && text.trim() !== '') {
    try {
      const parsed = JSON.parse(text) as Partial<ConfigShape>;
      data = { currentProfile: typeof parsed.currentProfile === 'string' ? parsed.currentProfile : undefined, profiles: isRecord(parsed.profiles) ? (parsed.profiles as ConfigShape['profiles']) : {} };
    } catch (e) {
      throw new AuthError(`The config file in ${dir} cannot be read: ${(e as Error).message}.`, `Fix or remove the file, then run \`${cmd('config', 'set-key')}\` again.`);
    }
  }
  return {
    currentProfile: () => data.currentProfile,
    // Own properties only: a profile named like an Object.prototype member is not a profile.
    getProfile: (name) => (Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined),
    // Names the one rule refuses (a hand-edited "__proto__") are not offered anywhere.
    profileNames: () => Object.keys(data.profiles).filter((n) => !profileNameProblem(n)).sort(),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
