// `mailctl contacts remove --group G (--email … | --emails-file F | --where "…")`: spec 000
// endpoint 6. Removes membership in one group only ("does not delete the contact elsewhere").
// Destructive, so it asks first on a terminal and needs --yes anywhere else.
import type { Context } from '../../src/run/context.js';
import { CliError, ExitCode, UsageError } from '../../src/core/errors.js';
import type { RemovalBody } from '../../src/api/campaign-types.js';
import { isValidEmail } from '../../src/core/email.js';
import { readAll } from '../../src/run/stdin.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { resolveGroup } from '../../src/groups/find.js';
import { describeFilter, parseWhere } from './filters.js';
import { readTextFile } from '../../src/fs/read-text.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { count as n, plural } from '../../src/core/human.js';
import type { OptsOf, Verb } from '../../src/cli/declared.js';
import type { declareRemove } from './index.js';

type Opts = OptsOf<typeof declareRemove>;

export const run: Verb<typeof declareRemove> = async (ctx, opts) => {
  const given = opts.group?.trim();
  if (!given) throw new UsageError('Say which group to remove contacts from with --group NAME_OR_CODE.');
  const byEmail = !!(opts.email?.length || opts.emailsFile);
  const byFilter = !!opts.where?.length;
  if (byEmail && byFilter) throw new UsageError('Give either addresses (--email / --emails-file) or filters (--where), not both: the service takes one or the other.');
  if (!byEmail && !byFilter) throw new UsageError('Say which contacts to remove.', 'Use --email ADDRESS (repeatable), --emails-file FILE (one address per line), or --where "DOMAIN like example.com".');

  let body: RemovalBody;
  let what: string;
  if (byEmail) {
    const keys = await collectEmails(ctx, opts);
    body = { keys };
    what = keys.length === 1 ? keys[0] : `${keys.length} contacts`;
  } else {
    const fieldTypes = (await ctx.settings()).profile.fieldTypes;
    const filters = opts.where!.map((w) => parseWhere(w, fieldTypes));
    body = { filters };
    what = `every contact where ${filters.map(describeFilter).join(' and ')}`;
  }

  // A dry run records the group lookup and keeps the group as given (src/groups/find.ts).
  const group = await resolveGroup(ctx, given);
  if (!opts.yes && !opts.dryRun) {
    ctx.requirePrompt('Removing contacts from a group', '--yes');
    const ok = await ctx.prompter.confirm(`Remove ${what} from group "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)})?`, false);
    if (!ok) throw new CliError('Cancelled; nothing was removed.', ExitCode.USAGE);
  }
  const client = await ctx.campaign();
  const r = await client.removeContacts(group.sn, body);
  if (opts.dryRun) return printDryRun(ctx);
  const count = r.updated_count;
  // After a lost answer the count is the retry's alone: what the first attempt removed is not in
  // it, so an address it leaves out is "already gone", never "not in the group" as a fact.
  const retried = r.retriedAfterLostAnswer;
  const notRemoved = 'keys' in body ? Math.max(0, body.keys.length - count) : 0;
  if (ctx.io.json) {
    ctx.io.printJson({
      group: { sn: group.sn, name: group.name },
      updated_count: count,
      retriedAfterLostAnswer: retried,
      ...('keys' in body ? { requested: body.keys.length, ...(retried ? { alreadyGone: notRemoved } : { notInGroup: notRemoved }) } : { filters: body.filters }),
    });
    return;
  }
  if (ctx.io.isTTY) ctx.io.out(`${ctx.io.paint('green', '✓')} Removed ${plural(count, 'contact')} from group "${forTerminal(group.name, 100)}" (${forTerminal(group.sn, 60)}).`);
  else ctx.io.out(String(count));
  if (retried) {
    ctx.io.info('keys' in body
      ? `${n(count)} removed; ${n(notRemoved)} ${notRemoved === 1 ? 'was' : 'were'} already gone (removed by the first attempt, whose answer was lost, or never in the group).`
      : `${n(count)} removed by the retry; the first attempt's answer was lost, and the contacts it removed are not counted.`);
  } else if ('keys' in body && count < body.keys.length) {
    ctx.io.info(`${n(notRemoved)} of the ${n(body.keys.length)} addresses were not in the group.`);
  }
};

/** --email (repeatable, commas allowed) and --emails-file (one per line, or a CSV whose first column is the address). */
async function collectEmails(ctx: Context, opts: Opts): Promise<string[]> {
  const found: Array<{ email: string; where: string }> = [];
  for (const e of opts.email ?? []) for (const part of e.split(',')) if (part.trim()) found.push({ email: part.trim(), where: `--email ${part.trim()}` });
  if (opts.emailsFile) {
    const f = opts.emailsFile;
    const text = f === '-' ? await readAll(ctx.io.stdin, '--emails-file -') : readTextFile(f, 'emails file', '--emails-file', true);
    text.split(/\r?\n/).forEach((line, i) => {
      const first = line.split(',')[0].replace(/^"|"$/g, '').trim();
      if (!first || first.startsWith('#') || (i === 0 && first.toUpperCase() === 'EMAIL')) return;
      found.push({ email: first, where: `${f === '-' ? 'standard input' : f} line ${i + 1}` });
    });
  }
  const bad = found.filter((x) => !isValidEmail(x.email));
  if (bad.length) {
    const shown = bad.slice(0, 5).map((x) => `"${x.email}" (${x.where})`).join(', ');
    throw new UsageError(`${bad.length} address${bad.length === 1 ? ' is' : 'es are'} not valid: ${shown}${bad.length > 5 ? ', …' : ''}.`, 'Correct or remove them and run again; nothing was sent.');
  }
  const seen = new Set<string>();
  const keys = found.map((x) => x.email).filter((e) => !seen.has(e.toLowerCase()) && !!seen.add(e.toLowerCase()));
  if (!keys.length) throw new UsageError(`${opts.emailsFile} holds no addresses.`, 'Put one address per line.');
  return keys;
}
