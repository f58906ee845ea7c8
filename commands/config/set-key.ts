import { AuthError, UsageError } from '../../src/core/errors.js';
import { keyProblem } from '../../src/config/key-shape.js';
import { dryRunTarget, profileInUse, reportDryRun } from './common.js';
import { readAllBytes } from '../../src/run/stdin.js';
import { suggest } from '../../src/core/suggest.js';
import { maskKey } from '../../src/config/settings.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareSetKey } from './index.js';

export const run: Verb<typeof declareSetKey> = async (ctx, opts) => {
  const service = opts.service.toLowerCase();
  if (!['campaign', 'notify', 'both'].includes(service)) throw new UsageError(`--service is campaign, notify or both; got "${opts.service}".`);
  let key: string;
  if (opts.withKeyStdin) {
    // A key is printable ASCII (src/config/key-shape.ts), so its bytes are its characters: any
    // byte above 0x7f, UTF-8 or not, is refused below as the key rule refuses it (exit 3, unshown).
    key = (await readAllBytes(ctx.io.stdin)).toString('latin1').trim();
  } else {
    if (!ctx.io.canPrompt) {
      throw new UsageError('No terminal to type the key into.', `Pipe it in instead: \`printenv MY_KEY | ${suggest(ctx, 'config', 'set-key', '--with-key-stdin')}\`.`);
    }
    const label = service === 'both' ? 'API key (both services)' : `API key for the ${service === 'campaign' ? 'campaign' : 'notification'} service`;
    key = (await ctx.prompter.password(`${label}:`)).trim();
  }
  if (!key) throw new UsageError('The key is empty; nothing was saved.');
  // Checked as it enters (src/config/key-shape.ts): exit 3, the key never shown, nothing saved.
  const problem = keyProblem(key);
  if (problem) throw new AuthError(`The key ${problem}; nothing was saved.`, 'Give only the key, as the service\'s console shows it (a line break at the end is fine).');
  const which = service === 'both' ? 'shared' : service;
  if (opts.dryRun) {
    const t = dryRunTarget(ctx);
    return reportDryRun(ctx, `the ${which} key is well-formed and would be saved in profile "${t.profile}" (${t.file}).`, { profile: t.profile, service });
  }
  const store = await ctx.config();
  const profile = await profileInUse(ctx);
  const p = { ...store.storedProfile(profile) };
  if (service === 'both') p.apiKey = key;
  else if (service === 'campaign') p.campaignKey = key;
  else p.notifyKey = key;
  store.setProfile(profile, p);
  if (!store.currentProfile()) store.setCurrentProfile(profile);
  // --json: one document like the other config verbs; the key masked as `config list` shows it.
  if (ctx.io.json) ctx.io.printJson({ profile, service, key: maskKey(key), path: store.path });
  else ctx.io.info(`Saved the ${which} key in profile "${profile}" (${store.path}).`);
};
