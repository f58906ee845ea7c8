// The offline rules of `campaign preflight`: everything that can be judged from the campaign's
// own text and settings, without a request. Each finding says what to fix in one sentence.
import type { CampaignConfig } from '../../api/campaign-types.js';
import { placeholders } from '../../send/variables.js';
import { finding, type Finding } from './findings.js';
import { classify, linksOf, scanTags, type Tag } from './html.js';
import { partsOf, whereOf, type Part, type Version } from './versions.js';
import { plainSuggest, type Suggest } from '../../core/suggest.js';

/**
 * Gmail clips a message whose html is over 102 KB (it shows "[Message clipped] View entire
 * message", hiding the rest, footer and unsubscribe link included). Not in the spec: decisions
 * row P1.
 */
export const CLIP_BYTES = 102 * 1024;

/** Contact columns every contact has (spec 000 section 2, Import: "Column 1 is EMAIL, column 2 is NAME"). */
export const BUILTIN_FIELDS = ['EMAIL', 'NAME'] as const;

export interface KnownFields {
  /** Upper-case names (custom fields are matched case-insensitively, as on import). */
  names: Set<string>;
  /** Where they came from, for messages: "profile field-types", "--field", "contacts.csv". */
  sources: string[];
}

export interface RuleInput {
  versions: Version[];
  ga: CampaignConfig['ga'];
  /** Undefined: nothing says which custom fields exist, so the field check is skipped. */
  known?: KnownFields;
  /** The flag that sets the preheader, per version label ("--preheader-a"). */
  preheaderFlag(label?: 'A' | 'B'): string;
  /** Builds the commands findings suggest, with the run's --profile/--sandbox. */
  cmd?: Suggest;
}

const FIELD = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function offlineFindings(input: RuleInput): Finding[] {
  const parts = partsOf(input.versions);
  const cmd = input.cmd ?? plainSuggest;
  return [
    ...fieldRule(parts, input.known, cmd),
    ...notifySyntaxRule(parts),
    ...parts.filter((p) => p.kind === 'preheader').flatMap((p) => preheaderRule(p, input.preheaderFlag(p.label))),
    ...parts.filter((p) => p.kind === 'html' && p.text).flatMap((p) => htmlRules(p, input.ga, cmd)),
  ];
}

function fieldRule(parts: Part[], known: KnownFields | undefined, cmd: Suggest): Finding[] {
  const used = new Map<string, string[]>(); // field as written → where
  for (const p of parts) {
    for (const m of (p.text ?? '').matchAll(FIELD)) {
      const where = whereOf(p.kind, p.label);
      const list = used.get(m[1]) ?? [];
      if (!list.includes(where)) list.push(where);
      used.set(m[1], list);
    }
  }
  const custom = [...used.keys()].filter((n) => !(BUILTIN_FIELDS as readonly string[]).includes(n.toUpperCase()));
  if (!custom.length) return [];
  if (!known) {
    return [finding('field-check-skipped', custom.map((n) => used.get(n)!).flat().filter((w, i, a) => a.indexOf(w) === i).join(', '),
      `${custom.map((n) => `\${${n}}`).join(', ')} not checked against your custom fields (the API cannot list them); ` +
      `declare them with --field NAME:TYPE, --contacts contacts.csv, or \`${cmd('config', 'set', 'field-types', 'AGE:number,PLAN:string')}\`.`)];
  }
  const knownList = [...known.names].sort().join(', ') || 'none';
  return custom
    .filter((n) => !known.names.has(n.toUpperCase()))
    .map((n) => finding('field-unknown', used.get(n)!.join(', '),
      `\${${n}} is not a known custom field (known from ${known.sources.join(' and ')}: ${knownList}; NAME and EMAIL always exist), ` +
      'so contacts have no value for it; fix the name, or create the field in the back office and declare it.'));
}

/** decisions row 18: {{name}} is the notification service's syntax; the campaign service sends it as written. */
function notifySyntaxRule(parts: Part[]): Finding[] {
  const out: Finding[] = [];
  for (const p of parts) {
    const { names, invalid } = placeholders(p.text);
    const shown = [...names.map((n) => `{{${n}}}`), ...invalid];
    if (!shown.length) continue;
    const example = names[0] ? `\${${names[0].toUpperCase()}}` : '${FIELD}';
    out.push(finding('notify-syntax', whereOf(p.kind, p.label),
      `${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ` and ${shown.length - 3} more` : ''} will be sent as written: ` +
      `the campaign service fills \${FIELD} variables, not {{name}}; write ${example} instead.`));
  }
  return out;
}

function preheaderRule(p: Part, flag: string): Finding[] {
  if (p.text?.trim()) return [];
  return [finding('preheader-missing', whereOf('preheader', p.label),
    `No preheader: inboxes show the first words of the body as the preview line instead; add one with ${flag} (at most 60 characters).`)];
}

function htmlRules(p: Part, ga: CampaignConfig['ga'], cmd: Suggest): Finding[] {
  const html = p.text!;
  const where = whereOf('html', p.label);
  const out: Finding[] = [];
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > CLIP_BYTES) {
    out.push(finding('html-size', where,
      `The html is ${kb(bytes)} KB; Gmail clips messages over 102 KB and hides the rest, the unsubscribe footer included ` +
      '(the service adds its footer and tracking links on top); move images and styles out, or shorten it.'));
  }
  const tags = scanTags(html);
  for (const t of tags) {
    if (t.name === 'img' && !('alt' in t.attrs)) {
      out.push(finding('img-alt', `${where}: ${t.attrs.src ?? short(t)}`,
        'An image has no alt text, so clients that block images show nothing in its place; add alt="…" (alt="" for a decorative image).'));
    }
  }
  const links = linksOf(tags);
  const web = links.filter((l) => classify(l.url) === 'web');
  const anyHttps = web.some((l) => /^https:/i.test(l.url));
  const seen = new Set<string>();
  for (const l of links) {
    const key = `${l.kind} ${l.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const at = `${where}: ${l.url}`;
    const cls = classify(l.url);
    if (cls === 'relative') {
      out.push(finding('link-relative', at, `This ${l.kind === 'image' ? 'image address' : 'link'} has no host, so in a mail it leads nowhere; give the full https:// address.`));
    } else if (cls === 'variable') {
      out.push(finding('link-variable', at, `Not checked: the address holds a \${FIELD} filled per contact; look at it in a proof (\`${cmd('campaign', 'proof', '--contacts', 'contacts.csv')}\`).`));
    } else if (cls === 'web') {
      if (anyHttps && /^http:/i.test(l.url)) {
        out.push(finding('link-http', at, `Plain http ${l.kind === 'image' ? 'image' : 'link'} in an otherwise https mail: clients may warn about it and the visit is not encrypted; use https:// if the site has it.`));
      }
      if (ga.enable && l.kind === 'link' && !hasUtm(l.url)) {
        out.push(finding('utm-missing', at,
          `Analytics is on (utm_campaign "${ga.utmCampaign ?? ''}"), but this link carries no utm_ tags and the spec does not say the service adds them; ` +
          `add ?utm_source=…&utm_medium=email&utm_campaign=${encodeURIComponent(ga.utmCampaign ?? '')}&utm_content=${encodeURIComponent(ga.utmContent ?? '')}, or check a proof.`));
      }
    }
  }
  return out;
}

function hasUtm(url: string): boolean {
  try {
    return [...new URL(url).searchParams.keys()].some((k) => k.toLowerCase().startsWith('utm_'));
  } catch {
    return false;
  }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const short = (t: Tag) => (t.raw.length > 60 ? `${t.raw.slice(0, 57)}…` : t.raw);
