// Runs the preflight rules over a composed campaign: the offline rules, then (unless turned
// off) the link check. Shared by `campaign preflight` and the check `campaign create` runs
// before it sends anything.
import type { Context } from '../../run/context.js';
import { UsageError } from '../../core/errors.js';
import { forTerminal } from '../../core/sanitize.js';
import { SANDBOX_BASE } from '../../sandbox/constants.js';
import type { Composed } from '../compose.js';
import { summaryLine, type Finding } from './findings.js';
import { classify, linksOf, scanTags } from './html.js';
import { isTemplatePlaceholder, knownFields } from './input.js';
import { checkLinks, type LinkTarget } from './links.js';
import { offlineFindings, type KnownFields } from './rules.js';
import { partsOf, versionsOf, whereOf, type Part } from './versions.js';
import { traceOf } from '../../run/transfer.js';
import { suggest, suggester } from '../../core/suggest.js';

export interface PreflightOptions {
  links: boolean;
  linkTimeoutMs?: number;
  known?: KnownFields;
}

export interface PreflightResult {
  findings: Finding[];
  /** Distinct web addresses asked for (0 with --no-links). */
  linksChecked: number;
  /** Distinct web addresses left unchecked (links off). */
  linksNotChecked: number;
}

export async function preflight(ctx: Context, c: Composed, o: PreflightOptions): Promise<PreflightResult> {
  const versions = versionsOf(c.request.content);
  const findings = offlineFindings({
    versions,
    ga: c.request.config.ga,
    known: o.known,
    preheaderFlag: (label) => (c.ab === 'subject' && label ? `--preheader-${label.toLowerCase()}` : '--preheader'),
    cmd: suggester(ctx),
  });
  const targets = linkTargets(partsOf(versions));
  if (!o.links || !targets.length) return { findings, linksChecked: 0, linksNotChecked: o.links ? 0 : targets.length };
  const spin = await ctx.io.spinner(`Checking ${targets.length} link${targets.length === 1 ? '' : 's'}…`);
  try {
    findings.push(...(await checkLinks(targets, { ...(await transportFor(ctx)), timeoutMs: o.linkTimeoutMs, signal: ctx.signal, trace: traceOf(ctx), onDone: (n, total) => spin.text(`Checked ${n} of ${total} links…`) })));
  } finally {
    spin.stop();
  }
  return { findings, linksChecked: targets.length, linksNotChecked: 0 };
}

/** Each distinct web address once, with the parts it appears in. */
function linkTargets(parts: Part[]): LinkTarget[] {
  const byUrl = new Map<string, LinkTarget>();
  for (const p of parts) {
    if (p.kind !== 'html' || !p.text) continue;
    for (const l of linksOf(scanTags(p.text))) {
      if (classify(l.url) !== 'web') continue;
      try {
        new URL(l.url);
      } catch {
        continue;
      }
      const where = whereOf('html', p.label);
      const t = byUrl.get(l.url) ?? { url: l.url, where: [] };
      if (!t.where.includes(where)) t.where.push(where);
      byUrl.set(l.url, t);
    }
  }
  return [...byUrl.values()];
}

/**
 * Under --sandbox the emulator's host (and names below it, which its redirect targets use) is
 * answered in this process; every other host over the network with node:http(s), to the
 * addresses the check approved. A transport given by a test replaces the network.
 */
async function transportFor(ctx: Context) {
  const s = await ctx.settings();
  const t = await ctx.transport();
  const host = new URL(SANDBOX_BASE).hostname;
  return {
    inProcess: s.sandbox ? { matches: (h: string) => h === host || h.endsWith(`.${host}`), fetch: t } : undefined,
    fetch: s.sandbox || t === globalThis.fetch ? undefined : t,
  };
}

/**
 * The check `campaign create` runs once the campaign is complete and before it sends anything:
 * warnings on stderr; with --strict any warning refuses the send (exit 2, nothing sent, as the
 * other --strict refusals: decisions row 26 and row P2).
 */
export async function preflightBeforeCreate(ctx: Context, c: Composed, opts: { strict?: boolean; links?: boolean }): Promise<void> {
  // A dry run makes no request of any kind: no link is asked for, and a template's html, which
  // it did not read, is not judged by its placeholder.
  const content = c.request.content;
  const unread = ctx.dryRun && isTemplatePlaceholder(content.htmlContent);
  const checked = unread ? { ...c, request: { ...c.request, content: { ...content, htmlContent: '' } } } : c;
  const { findings, linksNotChecked } = await preflight(ctx, checked, { links: opts.links !== false && !ctx.dryRun, known: await knownFields(ctx, {}) });
  if (ctx.dryRun && opts.links !== false && linksNotChecked) ctx.io.info(`Dry run: the ${linksNotChecked} link${linksNotChecked === 1 ? ' is' : 's are'} not checked (\`${suggest(ctx, 'campaign', 'preflight')}\` checks them).`);
  if (unread) ctx.io.info("Dry run: the template's html is not read, so the preflight check does not look at it.");
  const warnings = findings.filter((f) => f.severity === 'warning');
  for (const f of warnings) ctx.io.warn(`${forTerminal(f.where, 200)}: ${forTerminal(f.message, 600)} [${f.rule}]`);
  if (opts.strict && warnings.length) {
    throw new UsageError(
      `--strict: the preflight check found ${summaryLine(warnings)}; nothing was sent.`,
      `Fix them (\`${suggest(ctx, 'campaign', 'preflight')}\` with the same options lists each one), or leave out --strict to create the campaign anyway.`,
    );
  }
}
