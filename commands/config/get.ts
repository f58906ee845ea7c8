import { forTerminal } from '../../src/core/sanitize.js';
import { profileInUse, settingOrThrow } from './common.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareGet } from './index.js';

export const run: Verb<typeof declareGet> = async (ctx, _opts, name) => {
  const spec = settingOrThrow(ctx, name);
  const store = await ctx.config();
  const value = store.getProfile(await profileInUse(ctx))?.[spec.name];
  if (ctx.io.json) {
    ctx.io.printJson({ [spec.flag]: value ?? null });
    return;
  }
  // Unset: nothing printed, exit 0 as under --json (null). Exit 1 means the service refused or
  // failed (docs/exit-codes.md); an unset setting is neither.
  if (value === undefined) return;
  const text = typeof value === 'object' ? Object.entries(value).map(([k, v]) => `${k}:${v}`).join(',') : String(value);
  // The file is hand-editable: a terminal gets escapes made visible; a pipe (and --json) the exact value.
  ctx.io.out(ctx.io.isTTY ? forTerminal(text, 2000) : text);
};
