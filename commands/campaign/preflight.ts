// mailctl campaign preflight — the same inputs as `campaign create`, checked without creating
// anything: what create would refuse (errors), and what would go out wrong (warnings): unknown
// ${FIELD}s, {{var}}s, clipping size, images without alt, no preheader, links without the utm
// tags analytics asks for, and every link asked for (broken, redirected elsewhere, plain http).
import type { Context } from '../../src/run/context.js';
import type { OptsOf } from '../../src/cli/declared.js';
import type { declarePreflight } from './index.js';
import { ExitCode, SilentExit } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import type { CreateFlags } from '../../src/campaign/draft.js';
import { counts, finding, summaryLine, type Finding } from '../../src/campaign/preflight/findings.js';
import { buildCampaign, knownFields } from '../../src/campaign/preflight/input.js';
import { preflight } from '../../src/campaign/preflight/run.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { printList, type Column } from '../../src/run/output/format.js';

/** The declaration's own options, and the campaign's fields (derived from the same field table). */
type Opts = OptsOf<typeof declarePreflight> & CreateFlags;

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const linkTimeoutMs = opts.linkTimeout === undefined ? undefined : parseDuration(opts.linkTimeout, '--link-timeout', { positive: true });
  const known = await knownFields(ctx, { field: opts.field, contacts: opts.contacts });
  const { composed, problems } = await buildCampaign(ctx, opts, 'preflight');
  const result = await preflight(ctx, composed, { links: opts.links !== false, linkTimeoutMs, known });
  const findings: Finding[] = [
    ...problems.map((p) => finding('campaign-invalid', 'input', p)),
    ...composed.warnings.map((w) => finding('campaign-warning', 'input', w)),
    ...result.findings,
  ];
  await print(ctx, findings, result.linksChecked, !!opts.strict);
  const c = counts(findings);
  if (c.error) throw new SilentExit(ExitCode.USAGE);
  if (c.warning && opts.strict) throw new SilentExit(ExitCode.PARTIAL);
}

/** The findings as a list: TSV rows piped, CSV rows with --csv (cells whole: printList makes them safe). */
const COLUMNS: Column<Finding>[] = [
  { header: 'SEVERITY', value: (f) => f.severity },
  { header: 'RULE', value: (f) => f.rule },
  { header: 'WHERE', value: (f) => f.where },
  { header: 'MESSAGE', value: (f) => f.message },
];

async function print(ctx: Context, findings: Finding[], linksChecked: number, strict: boolean): Promise<void> {
  const c = counts(findings);
  const links = linksChecked ? ` (${linksChecked} link${linksChecked === 1 ? '' : 's'} checked)` : '';
  if (ctx.io.output !== 'table') {
    // --json: the whole report as one document; TSV and CSV: one finding a row.
    await printList(ctx.io, findings, COLUMNS, { ok: c.error === 0 && !(strict && c.warning > 0), counts: c, linksChecked, findings }, { empty: `${ctx.io.paint('green', '✓')} Nothing to fix${links}.` });
    if (!ctx.io.json && findings.length) ctx.io.info(`Preflight: ${summaryLine(findings)}${links}.`);
    return;
  }
  // For a person, one line per finding rather than a table: the messages are sentences, which a
  // table's columns would cut or stretch past the terminal's width.
  const paint = { error: 'red', warning: 'yellow', info: 'cyan' } as const;
  for (const f of findings) {
    ctx.io.out(`${ctx.io.paint(paint[f.severity], f.severity === 'info' ? 'note' : f.severity)} ${ctx.io.paint('dim', `[${f.rule}]`)} ${forTerminal(f.where, 300)}: ${forTerminal(f.message, 1000)}`);
  }
  // Nothing to list: the sentence goes where every empty list's goes, stderr (stdout carries data).
  if (!findings.length) ctx.io.info(`${ctx.io.paint('green', '✓')} Nothing to fix${links}.`);
  else ctx.io.info(`Preflight: ${summaryLine(findings)}${links}.${c.warning && !strict && !c.error ? ' Warnings do not stop a send; --strict makes them count (exit 5).' : ''}`);
}
