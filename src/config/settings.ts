// Resolves what a run uses: profile name, keys, base URLs and defaults.
// Order: flags > environment > profile > built-in defaults ("environment beats profile").
import type { ConfigReader } from './read.js';
import { AuthError, UsageError } from '../core/errors.js';
import { profileNameMessage, profileNameProblem } from './profile-name.js';
import { urlProblem } from '../core/url.js';
import type { Profile } from './keys.js';
import { keyProblem } from './key-shape.js';
import { plainSuggest, type Suggest } from '../core/suggest.js';

type Env = Record<string, string | undefined>;

export const DEFAULT_CAMPAIGN_URL = 'https://api.newsleopard.com'; // decisions row 1
export const DEFAULT_NOTIFY_URL = 'https://mail.surenotifyapi.com'; // decisions row 1

// The services' names and the key mask live in ./service.ts (the API layer needs them too).
import type { Service } from './service.js';
export { maskKey, SERVICE_LABEL, type Service } from './service.js';

export interface Settings {
  profileName: string;
  profile: Profile;
  sandbox: boolean;
  campaignKey?: string;
  notifyKey?: string;
  /** Where each key came from, for `config list` and error hints. */
  keySource: Record<Service, string | undefined>;
  campaignUrl: string;
  notifyUrl: string;
  /** Profile settings a --sandbox run filled in because the profile has none (the sandbox sender). */
  sandboxDefaults?: Array<keyof Profile>;
}

/**
 * --profile, else MAILCTL_PROFILE (empty counts as unset, like every MAILCTL_ variable), else the
 * file's current profile, else "default" — each checked by the one profile-name rule. A bad flag
 * or variable is a usage error (exit 2); a bad name in the file is a config error (exit 3).
 */
export function profileNameFor(flag: string | undefined, env: Env, store?: ConfigReader, cmd: Suggest = plainSuggest): string {
  const given = (where: string, name: string) => {
    const problem = profileNameProblem(name);
    if (problem) throw new UsageError(profileNameMessage(where, name, problem));
    return name;
  };
  if (flag !== undefined) return given('--profile', flag);
  if (env.MAILCTL_PROFILE) return given('MAILCTL_PROFILE', env.MAILCTL_PROFILE);
  const current = store?.currentProfile();
  if (current === undefined) return 'default';
  const problem = profileNameProblem(current);
  if (problem) throw new AuthError(profileNameMessage("The config file's current profile", current, problem), `Choose another with \`${cmd('config', 'use', 'NAME')}\`, or pass --profile NAME.`);
  return current;
}

export function resolveSettings(opts: { profileFlag?: string; sandboxFlag?: boolean; env: Env; store: ConfigReader; cmd?: Suggest }): Settings {
  const { env, store } = opts;
  const cmd = opts.cmd ?? plainSuggest;
  const profileName = profileNameFor(opts.profileFlag, env, store, cmd);
  const profile = store.getProfile(profileName) ?? {};
  // A key from the environment is checked as it enters (src/config/key-shape.ts): one holding a
  // control character, a space or a non-ASCII character is exit 3, and never shown. (The file's
  // keys are checked when the profile is read: src/config/read.ts.)
  const fromEnv = (name: string): [string, string] => {
    const problem = keyProblem(env[name]!);
    if (problem) throw new AuthError(`${name} ${problem}, so it is not used.`, `Set ${name} again to the key alone (copy it from the service's console), or unset it.`);
    return [env[name]!, name];
  };
  const pick = (service: Service): [string | undefined, string | undefined] => {
    const specific = service === 'campaign' ? 'MAILCTL_CAMPAIGN_API_KEY' : 'MAILCTL_NOTIFY_API_KEY';
    if (env[specific]) return fromEnv(specific);
    if (env.MAILCTL_API_KEY) return fromEnv('MAILCTL_API_KEY');
    const own = service === 'campaign' ? profile.campaignKey : profile.notifyKey;
    if (own) return [own, `profile "${profileName}"`];
    if (profile.apiKey) return [profile.apiKey, `profile "${profileName}" (shared key)`];
    return [undefined, undefined];
  };
  const [campaignKey, cs] = pick('campaign');
  const [notifyKey, ns] = pick('notify');
  const sandbox = !!opts.sandboxFlag || profile.sandbox === true;
  // The one URL check (src/core/url.ts) for a base URL from the environment or a hand-edited
  // file: a config error (exit 3) in one sentence, not "Cannot reach the service" (exit 4).
  // The sandbox replaces both URLs, so they are not looked at then.
  const baseUrl = (envName: string, own: string | undefined, fallback: string): string => {
    const [value, where] = env[envName] ? [env[envName]!, envName] : own ? [own, `The ${envName === 'MAILCTL_CAMPAIGN_URL' ? 'campaign' : 'notify'}-url of profile "${profileName}"`] : [fallback, ''];
    // The same rule as `config set campaign-url`: a base URL ending in /v1 is refused, not trimmed.
    const problem = sandbox || !where ? undefined : urlProblem(value.trim(), { name: where, example: fallback, base: true });
    if (problem) throw new AuthError(problem, env[envName] ? `Fix or unset ${envName}.` : `Fix it with \`${cmd('config', 'set', envName === 'MAILCTL_CAMPAIGN_URL' ? 'campaign-url' : 'notify-url', 'URL')}\`.`);
    return value.trim().replace(/\/+$/, '');
  };
  return {
    profileName,
    profile,
    sandbox,
    campaignKey,
    notifyKey,
    keySource: { campaign: cs, notify: ns },
    campaignUrl: baseUrl('MAILCTL_CAMPAIGN_URL', profile.campaignUrl, DEFAULT_CAMPAIGN_URL),
    notifyUrl: baseUrl('MAILCTL_NOTIFY_URL', profile.notifyUrl, DEFAULT_NOTIFY_URL),
  };
}

