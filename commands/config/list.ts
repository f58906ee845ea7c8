import type { Context } from '../../src/cli/context.js';
import { SETTINGS } from '../../src/config/keys.js';
import { maskKey } from '../../src/config/settings.js';
import { printList } from '../../src/output/format.js';

interface Row {
  setting: string;
  value: string;
  source: string;
}

export async function run(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const store = await ctx.config();
  const rows: Row[] = [
    { setting: 'profile', value: s.profileName, source: ctx.globals.profile ? '--profile' : ctx.env.MAILCTL_PROFILE ? 'MAILCTL_PROFILE' : 'config' },
    { setting: 'campaign-key', value: maskKey(s.campaignKey) || '(not set)', source: s.keySource.campaign ?? '' },
    { setting: 'notify-key', value: maskKey(s.notifyKey) || '(not set)', source: s.keySource.notify ?? '' },
    { setting: 'campaign-url', value: s.campaignUrl, source: s.sandbox ? 'sandbox' : ctx.env.MAILCTL_CAMPAIGN_URL ? 'MAILCTL_CAMPAIGN_URL' : s.profile.campaignUrl ? 'profile' : 'default' },
    { setting: 'notify-url', value: s.notifyUrl, source: s.sandbox ? 'sandbox' : ctx.env.MAILCTL_NOTIFY_URL ? 'MAILCTL_NOTIFY_URL' : s.profile.notifyUrl ? 'profile' : 'default' },
  ];
  for (const spec of SETTINGS) {
    if (spec.name === 'campaignUrl' || spec.name === 'notifyUrl') continue;
    const v = s.profile[spec.name];
    if (v === undefined) continue;
    rows.push({ setting: spec.flag, value: typeof v === 'object' ? Object.entries(v).map(([k, t]) => `${k}:${t}`).join(',') : String(v), source: s.sandboxDefaults?.includes(spec.name) ? 'sandbox' : 'profile' });
  }
  await printList(ctx.io, rows, [
    { header: 'SETTING', value: (r) => r.setting },
    { header: 'VALUE', value: (r) => r.value },
    { header: 'SOURCE', value: (r) => r.source },
  ], { profile: s.profileName, path: store.path, settings: Object.fromEntries(rows.map((r) => [r.setting, { value: r.value, source: r.source }])) });
}
