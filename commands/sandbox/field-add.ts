// Custom fields are made in the service's back office, which the API does not offer; the
// sandbox has its own route for it (/_sandbox/fields, not part of the spec). This works with
// --sandbox and against `mailctl sandbox serve`; a real service answers 404.
import { ServiceError, UsageError } from '../../src/core/errors.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareFieldAdd } from './index.js';

export const run: Verb<typeof declareFieldAdd> = async (ctx, opts, name, type) => {
  const t = type.trim().toLowerCase();
  if (t !== 'string' && t !== 'number' && t !== 'date') throw new UsageError(`The type is string, number or date; got "${type}".`);
  // Same rule as the sandbox route, checked here so a bad name is exit 2 (nothing sent), not a refusal.
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name.trim())) {
    throw new UsageError(`"${name}" is not a field name: it must start with a letter and hold only letters, digits and _ (at most 64).`, `For example: ${suggest({ env: ctx.env, globals: { ...ctx.globals, sandbox: true } }, 'sandbox', 'field', 'add', 'TIER', 'string')}`);
  }
  const client = await ctx.campaign();
  let field: { name: string; type: string };
  try {
    field = await client.sandboxAddField(name.trim(), t);
  } catch (e) {
    throw notSandbox(e);
  }
  if (opts.dryRun) return printDryRun(ctx); // recorded, not sent
  if (ctx.io.json) ctx.io.printJson(field);
  else ctx.io.info(`Field ${field.name} (${field.type}) is defined; import columns named ${field.name} are now checked as ${field.type}.`);
};

export function notSandbox(e: unknown): unknown {
  if (e instanceof ServiceError && e.status === 404) {
    return new ServiceError('This service has no sandbox field route: custom fields of the real service are made in its back office.', { status: 404, hint: 'Use --sandbox, or point MAILCTL_CAMPAIGN_URL at `mailctl sandbox serve`.' });
  }
  return e;
}
