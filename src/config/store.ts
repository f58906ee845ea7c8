// The per-profile config file, kept by conf. Created 0600 in a 0700 directory (an existing wider
// one is tightened) because it holds API keys. Loaded only by commands that need it, so --help stays fast.
import fs from 'node:fs';
import path from 'node:path';
import type { Profile } from './keys.js';
import { AuthError } from '../core/errors.js';
import { keepPrivate } from './private-dir.js';
import { profileNameProblem } from './profile-name.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writeFileAtomicSync } from '../fs/safe-write.js';
import { DiskError, isDiskProblem } from '../fs/append-whole.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';
import { checkProfile, CONFIG_FILE_NAME, readConfig, readConfigText } from './read.js';

interface FileShape {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export interface ConfigStore {
  readonly path: string;
  currentProfile(): string | undefined;
  setCurrentProfile(name: string): void;
  profileNames(): string[];
  /** Checked as every reader checks it (src/config/read.ts checkProfile): a wrong value is exit 3. */
  getProfile(name: string): Profile | undefined;
  /** As stored, unchecked: what a write starts from, so a write can repair a wrong value. */
  storedProfile(name: string): Profile | undefined;
  setProfile(name: string, profile: Profile): void;
  deleteProfile(name: string): void;
}

/** `warn` is told (once) when the directory is open to other users and cannot be made private. */
export async function openConfig(dir: string, warn: (message: string) => void = () => {}, cmd: Suggest = plainSuggest): Promise<ConfigStore> {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    if (isDiskProblem(e)) throw new DiskError(dir, e.code!);
    throw new AuthError(`Cannot create the config directory ${dir}: ${(e as Error).message}.`, 'Set MAILCTL_CONFIG_DIR to a writable directory.');
  }
  keepPrivate(dir, warn);
  const file = path.join(dir, CONFIG_FILE_NAME);
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return linkedConfig(dir, file, cmd);
  // conf reads the file with Node's lenient decoder and writes what it read back on every change.
  readConfigText(file);
  const Conf = await importConfKeepingCtrlC();
  let conf: InstanceType<typeof Conf<FileShape>>;
  try {
    conf = new Conf<FileShape>({
      cwd: dir,
      configName: 'config',
      projectName: 'mailctl',
      configFileMode: PRIVATE_FILE_MODE,
      defaults: { profiles: {} },
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (e) {
    // A new config file is written with its defaults as conf opens it.
    if (isDiskProblem(e)) throw new DiskError(path.join(dir, CONFIG_FILE_NAME), e.code!);
    throw new AuthError(`The config file in ${dir} cannot be read: ${(e as Error).message}.`, `Fix or remove the file, then run \`${cmd('config', 'set-key')}\` again.`);
  }
  // A null-prototype copy: a key such as "__proto__" or "constructor" is then an ordinary entry,
  // never the object's prototype or an inherited member (names are checked before they get here;
  // this keeps a hand-edited file from misleading the code too).
  const profiles = (): Record<string, Profile> => Object.assign(Object.create(null), conf.get('profiles') ?? {});
  // Changes are written here, not by conf.set: conf's writer (atomically) writes its temporary
  // file in one call without checking how much reached the disk, so a nearly full disk could
  // rename a torn config over the keys. writeFileAtomicSync writes it whole or not at all (a
  // DiskError naming the config file), in conf's own format; conf reads the file on every get.
  const write = (next: Partial<FileShape>): void => writeFileAtomicSync(conf.path, JSON.stringify(next, undefined, '\t'));
  return {
    path: conf.path,
    currentProfile: () => {
      const c: unknown = conf.get('currentProfile');
      return typeof c === 'string' ? c : undefined;
    },
    setCurrentProfile: (name) => write({ ...conf.store, currentProfile: name }),
    profileNames: () => Object.keys(profiles()).filter((n) => !profileNameProblem(n)).sort(),
    getProfile: (name) => {
      const all = profiles();
      return checkProfile(conf.path, name, Object.hasOwn(all, name) ? all[name] : undefined, cmd);
    },
    storedProfile: (name) => {
      const all = profiles();
      return Object.hasOwn(all, name) ? all[name] : undefined;
    },
    setProfile(name, profile) {
      const all = profiles();
      all[name] = dropUndefined(profile);
      write({ ...conf.store, profiles: all });
    },
    deleteProfile(name) {
      const all = profiles();
      delete all[name];
      const { currentProfile, ...rest } = conf.store;
      write({ ...rest, profiles: all, ...(currentProfile !== undefined && currentProfile !== name ? { currentProfile } : {}) });
    },
  };
}

/**
 * A config file that is a symbolic link: conf would write the keys through it, wherever it
 * points. It is read (as every command reads it), but any change is refused (exit 3) until the
 * user replaces the link with a file.
 */
function linkedConfig(dir: string, file: string, cmd: Suggest): ConfigStore {
  const reader = readConfig(dir, cmd);
  const refuse = (): never => {
    throw new AuthError(`The config file ${file} is a symbolic link, and mailctl does not write API keys and settings through links; nothing was changed.`, 'Replace the link with a copy of the file it points to, or set MAILCTL_CONFIG_DIR to another directory.');
  };
  return {
    path: file,
    currentProfile: () => reader.currentProfile(),
    setCurrentProfile: refuse,
    profileNames: () => reader.profileNames(),
    getProfile: (name) => reader.getProfile(name),
    storedProfile: (name) => reader.storedProfile(name),
    setProfile: refuse,
    deleteProfile: refuse,
  };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * conf writes through atomically, whose when-exit dependency hooks SIGINT (and SIGTERM, SIGHUP)
 * on import and, after its clean-up, sends the process the same signal again: one Ctrl-C would
 * arrive twice, and a second one means "leave now" (bin/mailctl.js), so commands never got to
 * stop cleanly and print how to resume. The hooks it adds for the signals bin/mailctl.js
 * handles are dropped; its 'exit' hook, which does the clean-up on every normal exit (including
 * after Ctrl-C), stays.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function importConfKeepingCtrlC() {
  const before = new Map(STOP_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: Conf } = await import('conf');
  for (const s of STOP_SIGNALS) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  return Conf;
}
