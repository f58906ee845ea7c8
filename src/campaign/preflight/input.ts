// The campaign that `preflight` and `proof` look at, built from the very same inputs as
// `campaign create` (flags, --file, --template) by the very same code: draft.ts, file.ts,
// local-files.ts and compose.ts. Only the template's html needs a request (a read).
import type { Context } from '../../run/context.js';
import { UsageError } from '../../core/errors.js';
import { parseFieldTypes } from '../../config/keys.js';
import { compose, type Composed } from '../compose.js';
import { draftFromFlags, mergeDrafts, withProfileDefaults, type CreateFlags, type Draft } from '../draft.js';
import { keysWhere } from '../fields.js';
import { readCampaignFile } from '../file.js';
import { checkListFile, loadHtmlFiles } from '../local-files.js';
import { readContact } from './contacts.js';
import { lookup } from '../../run/output/dry-run.js';
import type { Template } from '../../api/campaign-types.js';
import type { KnownFields } from './rules.js';
import { suggester } from '../../core/suggest.js';

export interface CampaignInput {
  draft: Draft;
  composed: Composed;
  /** What `create` would refuse, one sentence each. */
  problems: string[];
}

/**
 * `purpose` 'proof' leaves out what only the campaign send needs (name, groups, one-time list,
 * schedule, test share): a proof is one message, and those must not stand in its way.
 */
export async function buildCampaign(ctx: Context, opts: CreateFlags & { file?: string }, purpose: 'preflight' | 'proof'): Promise<CampaignInput> {
  const settings = await ctx.settings();
  let draft: Draft = mergeDrafts(opts.file ? readCampaignFile(opts.file) : {}, draftFromFlags(opts));
  draft = withProfileDefaults(draft, settings.profile);
  const problems: string[] = [];
  draft = loadHtmlFiles(draft, problems);
  const composed = compose(purpose === 'proof' ? messageOnly(draft) : draft, ctx.clock.now(), suggester(ctx));
  problems.push(...composed.problems);
  if (purpose === 'preflight' && composed.once && draft.list) checkListFile(draft.list, problems);
  if (draft.template !== undefined && composed.request.content.htmlContent === '' && draft.template.trim()) {
    composed.request.content.htmlContent = await templateHtml(ctx, draft.template.trim());
  }
  return { draft, composed, problems };
}

/** What only the campaign send needs: when it goes, and a one-time list (the groups are stood in for). */
const SEND_ONLY = keysWhere((f, k) => f.step === 'schedule' || (f.step === 'audience' && k !== 'groups' && k !== 'exclude'));

function messageOnly(d: Draft): Draft {
  const out: Draft = { ...d, name: d.name ?? 'proof', groups: ['proof'], exclude: [] };
  for (const k of SEND_ONLY) delete out[k];
  if (out.ab !== undefined) {
    if (out.testPercent === undefined) out.testPercent = 50;
    if (out.testDuration === undefined && out.testTime === undefined) out.testDuration = '1h';
  }
  return out;
}

const PLACEHOLDER_START = '(dry run: the html of template ';

/** What stands for a template's html in a dry run, which records the lookup and reads nothing. */
export function templatePlaceholder(id: string): string {
  return `${PLACEHOLDER_START}${id}, which a real run reads first)`;
}

export function isTemplatePlaceholder(html: string | undefined): boolean {
  return !!html?.startsWith(PLACEHOLDER_START);
}

/** A template's html (endpoint 19): the one read `create`, `preflight` and `proof` need for --template. */
export async function templateHtml(ctx: Context, id: string): Promise<string> {
  const client = await ctx.campaign();
  const t = await lookup(ctx, `template ${id}, for its html; a placeholder stands for it below`, () => client.getTemplate(id), (): Template => ({ id, name: id, template: templatePlaceholder(id) }));
  if (!t.template?.trim()) throw new UsageError(`Template ${id} has no html content.`, 'Choose another with --template, or give --html-file.');
  return t.template;
}

/**
 * The custom fields known to exist. The API cannot list them (spec 000: they are "created
 * beforehand in the back office"), so they come from what the user declares: the profile's
 * field-types, --field NAME[:TYPE], and the header of a contacts file (--contacts).
 * Undefined when none of these says anything.
 */
export async function knownFields(ctx: Context, o: { field?: string[]; contacts?: string }): Promise<KnownFields | undefined> {
  const names = new Set<string>();
  const sources: string[] = [];
  const profileTypes = (await ctx.settings()).profile.fieldTypes;
  if (profileTypes && Object.keys(profileTypes).length) {
    Object.keys(profileTypes).forEach((n) => names.add(n.toUpperCase()));
    sources.push("the profile's field-types");
  }
  if (o.field?.length) {
    let parsed: Record<string, string>;
    try {
      parsed = parseFieldTypes(o.field.flatMap((f) => f.split(',')).map((f) => (f.includes(':') ? f : `${f}:string`)));
    } catch (e) {
      throw new UsageError(`--field ${(e as Error).message}`, 'For example: --field PLAN:string --field AGE:number');
    }
    Object.keys(parsed).forEach((n) => names.add(n));
    sources.push('--field');
  }
  if (o.contacts !== undefined) {
    const row = await readContact(o.contacts, 'header');
    row.customFields.forEach((n) => names.add(n.toUpperCase()));
    sources.push(o.contacts);
  }
  return sources.length ? { names, sources } : undefined;
}
