// Each setting a run uses, its value and where it came from (a flag, the environment, the
// profile, the built-in default, or the sandbox), for `config list` and `doctor`. Keys are
// shown masked. The order of precedence is src/config/settings.ts's; this only reports it.
import { SETTINGS } from './keys.js';
import { maskKey, type Settings } from './settings.js';

export interface SettingRow {
  setting: string;
  value: string;
  source: string;
}

interface Run {
  globals: { profile?: string; sandbox: boolean };
  env: Record<string, string | undefined>;
}

/** Which profile, and why: --profile, MAILCTL_PROFILE, the config file's choice, or the default. */
function profileSource(s: Settings, run: Run): string {
  if (run.globals.profile) return '--profile';
  if (run.env.MAILCTL_PROFILE) return 'MAILCTL_PROFILE';
  return s.profileName === 'default' ? 'default' : 'config use';
}

export function settingRows(s: Settings, run: Run, o: { keys?: boolean } = {}): SettingRow[] {
  const url = (envName: string, own: string | undefined) => (s.sandbox ? 'sandbox' : run.env[envName] ? envName : own ? 'profile' : 'default');
  const rows: SettingRow[] = [{ setting: 'profile', value: s.profileName, source: profileSource(s, run) }];
  if (o.keys !== false) {
    rows.push(
      { setting: 'campaign-key', value: maskKey(s.campaignKey) || '(not set)', source: s.keySource.campaign ?? '' },
      { setting: 'notify-key', value: maskKey(s.notifyKey) || '(not set)', source: s.keySource.notify ?? '' },
    );
  }
  rows.push(
    { setting: 'campaign-url', value: s.campaignUrl, source: url('MAILCTL_CAMPAIGN_URL', s.profile.campaignUrl) },
    { setting: 'notify-url', value: s.notifyUrl, source: url('MAILCTL_NOTIFY_URL', s.profile.notifyUrl) },
  );
  for (const spec of SETTINGS) {
    if (spec.name === 'campaignUrl' || spec.name === 'notifyUrl') continue;
    const v = s.profile[spec.name];
    if (v === undefined) continue;
    rows.push({ setting: spec.flag, value: typeof v === 'object' ? Object.entries(v).map(([k, t]) => `${k}:${t}`).join(',') : String(v), source: s.sandboxDefaults?.includes(spec.name) ? 'sandbox' : 'profile' });
  }
  return rows;
}
