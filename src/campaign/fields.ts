// Every field of a campaign, declared once. A row says how the field is given (its flag, its key
// in a flat --file), where it stands in the spec's request body (section 4, endpoints 7-10), its
// A/B test, its limit (section 8) and what messages and the wizard call it. Everything that used
// to list the fields by hand is derived from this table: the Draft type and the flags' type
// (draft.ts), the flags → draft conversion, the commander options of create/preflight/proof and
// the help's key list (options.ts), the A/B checks and limits (compose.ts), the flat and the
// spec-shaped --file reader and the draft writer (file.ts), the wizard's field groups, the
// review's rows and the refusal's steps. A new field is a new row (plus whatever it does that no
// field did before). test/campaign-fields.test.ts holds the table, the options and the spec paths
// together. This module is data and a few lookups only: the CLI loads it to register commands.

import { TIME_ZONE_CODES } from '../spec/timezones.js';

export type AbDimension = 'subject' | 'sender' | 'content';
export const AB_DIMENSIONS = ['subject', 'sender', 'content'] as const satisfies readonly AbDimension[];

/** The wizard's steps, in question order; every field belongs to one. */
export const STEPS = ['name', 'audience', 'ab', 'subject', 'sender', 'content', 'footer', 'schedule', 'analytics', 'test'] as const;
export type StepId = (typeof STEPS)[number];

/**
 * What a value is, in the draft, on the command line and in a flat file:
 * text, email, html and choice are strings (an email is checked as an address, a choice against
 * its offered values by compose); file is a path (relative to the JSON file that names it);
 * list is repeatable (`--group a --group b`, `"groups": ["a"]` or `"a"`); switch a flag without a
 * value (true/false in a file); numberish a number or a string (the flag's text, or a file's 20);
 * number only comes from the spec shape.
 */
export type FieldType = 'text' | 'email' | 'html' | 'file' | 'choice' | 'list' | 'switch' | 'numberish' | 'number';

/** How a spec-shaped file's value is read (file.ts); by default the type's own reading. */
export type SpecRead =
  | 'text' // a string; null is "not given"
  | 'list' // a string or a list of strings
  | 'flag' // true/false, or the older revision's "true"/"false" (section 9); null is "not given"
  | 'any' // a number or a string
  | 'numeric' // a number, or a string holding one
  | 'whole' // a whole number above 0
  | 'number' // a number (one of `values` when given)
  | 'code'; // one of the numbers in `codes` (also as a string of digits), read as what it stands for

export interface SpecPlace {
  /** The JSON path in the request body, read and written as it is. */
  path: string;
  read?: SpecRead;
  /** read 'code': the spec's number → the draft's value. */
  codes?: Readonly<Record<number, string | number>>;
  /** read 'number': the numbers allowed. */
  values?: readonly number[];
  /** What the value must be, in a sentence's words, when not the reading's own. */
  expected?: string;
  /** Read only when config.schedule.type is 1, and then required. */
  scheduled?: true;
}

export interface FieldDef {
  type: FieldType;
  /** The flag as commander declares it ('--subject <text>'); none: only a file gives it. */
  flag?: string;
  /** The flag's help line. */
  help?: string;
  /** Values shell completion offers for the flag (compose checks the value itself). */
  offer?: readonly string[];
  /** false: not a key of the flat file (only the spec shape gives it). Otherwise the key is the draft key. */
  flat?: false;
  /** What a wrong flat-file value must be, when not the type's own words. */
  expected?: string;
  /** Where the value stands in the request body, as it is. */
  spec?: SpecPlace;
  /** Where it ends up when it is turned into something else first (no `spec` then). */
  becomes?: string;
  /** The request needs a value whenever the field applies (starred in the spec's field table). */
  required?: true;
  /** Most characters (spec section 8, and endpoint 9 for the versions). */
  max?: number;
  /** Used only in this A/B test; refused in any other. */
  ab?: AbDimension;
  /** The single-version field this is version A or B of. */
  variantOf?: string;
  /** Giving one field of a group by flag drops the others a file gave (one content source, one schedule). */
  oneOf?: 'content' | 'contentA' | 'contentB' | 'schedule' | 'testing';
  /** What messages call it ("The campaign has no subject of version A"). */
  label: string;
  /** How messages name it when it has no flag of its own. */
  says?: string;
  /** The wizard step that asks it. */
  step: StepId;
  /** Its value in the help's example of a flat file. */
  example?: string | number | boolean | readonly string[];
}

const SCHEDULED = 'when config.schedule.type is 1';
const GROUP_LIST = 'a list of group names or codes, e.g. ["Newsletter"]';

/** The order is the order of the flags in `campaign create --help`. */
export const FIELDS = {
  name: {
    type: 'text', flag: '--name <name>', help: 'campaign name (never shown in the mail)',
    spec: { path: 'form.name' }, required: true, label: 'campaign name', step: 'name', example: 'December news',
  },
  groups: {
    type: 'list', flag: '--group <name-or-code>', help: 'group to send to (repeatable)', expected: GROUP_LIST,
    spec: { path: 'form.selectedLists', expected: 'a list of group codes' }, label: 'groups to send to', step: 'audience', example: ['Newsletter'],
  },
  exclude: {
    type: 'list', flag: '--exclude <name-or-code>', help: 'group whose members never get it (repeatable)', expected: GROUP_LIST,
    spec: { path: 'form.excludeLists', expected: 'a list of group codes' }, label: 'groups to exclude', step: 'audience', example: ['Bounced'],
  },
  subject: {
    type: 'text', flag: '--subject <text>', help: 'subject, at most 150 characters; may hold ${FIELD} variables',
    spec: { path: 'content.subject' }, required: true, max: 150, label: 'subject', step: 'subject', example: '...',
  },
  preheader: {
    type: 'text', flag: '--preheader <text>', help: 'preview line, at most 60 characters',
    spec: { path: 'content.preheader' }, max: 60, label: 'preheader', step: 'subject', example: '...',
  },
  from: {
    type: 'email', flag: '--from <address>', help: "sender address, verified in the back office (default: profile's from-address)",
    spec: { path: 'content.fromAddress' }, required: true, label: 'sender address', step: 'sender', example: 'news@example.com',
  },
  fromName: {
    type: 'text', flag: '--from-name <name>', help: "sender name, at most 50 characters (default: profile's from-name)",
    spec: { path: 'content.fromName' }, required: true, max: 50, label: 'sender name', step: 'sender', example: 'Acme',
  },
  html: {
    type: 'html', flag: '--html <html>', help: 'html content as a string',
    spec: { path: 'content.htmlContent' }, required: true, oneOf: 'content', label: 'html content', step: 'content',
  },
  htmlFile: {
    type: 'file', flag: '--html-file <file>', help: 'html content from a file',
    becomes: "content.htmlContent (the file's text)", oneOf: 'content', label: 'html file', step: 'content', example: 'mail.html',
  },
  template: {
    type: 'text', flag: '--template <id>', help: 'use a saved template as the html content',
    becomes: "content.htmlContent (the template's html, endpoint 19)", oneOf: 'content', label: 'template', step: 'content',
  },
  footerLang: {
    type: 'numberish', flag: '--footer-lang <lang>', help: "footer language: en or zh (default: profile's footer-lang, else en)", offer: ['en', 'zh'],
    expected: '"en", "zh", 0 or 1', spec: { path: 'content.footerLang', read: 'any', expected: '0 (English) or 1 (Chinese)' },
    label: 'footer language', step: 'footer', example: 'en',
  },
  at: {
    type: 'text', flag: '--at <datetime>', help: 'schedule: "YYYY-MM-DD HH:MM" in --timezone (absent: send now)',
    becomes: 'config.schedule.scheduleDate (in UTC) and config.schedule.type 1', oneOf: 'schedule', label: 'send time', step: 'schedule', example: '2026-12-01 09:00',
  },
  timezone: {
    type: 'text', flag: '--timezone <zone>', help: "time zone of --at: Asia/Taipei, TAIPEI or 21 (default: profile's timezone)",
    becomes: 'config.schedule.timezone (its code)', label: 'time zone', step: 'schedule', example: 'Asia/Taipei',
    // The 88 zones by their IANA names (a city or a code is accepted too, and not offered: one list is enough).
    offer: TIME_ZONE_CODES.map((z) => z.iana),
  },
  ga: {
    type: 'switch', flag: '--ga', help: 'turn on Google Analytics tracking (needs --utm-campaign and --utm-content)',
    spec: { path: 'config.ga.enable' }, label: 'traffic analytics', step: 'analytics', example: true,
  },
  utmCampaign: {
    type: 'text', flag: '--utm-campaign <value>', help: 'utm_campaign tag',
    spec: { path: 'config.ga.utmCampaign' }, label: 'utm_campaign tag', step: 'analytics', example: 'dec',
  },
  utmContent: {
    type: 'text', flag: '--utm-content <value>', help: 'utm_content tag',
    spec: { path: 'config.ga.utmContent' }, label: 'utm_content tag', step: 'analytics', example: 'mail',
  },
  ecommerce: {
    type: 'switch', flag: '--ecommerce', help: 'also track e-commerce transactions (needs --ga)',
    spec: { path: 'config.ga.ecommerceEnable' }, label: 'e-commerce analytics', step: 'analytics', example: false,
  },
  ab: {
    type: 'choice', flag: '--ab <dimension>', help: 'A/B test: subject, sender or content', offer: AB_DIMENSIONS,
    spec: { path: 'content.testingOn', read: 'code', codes: { 1: 'subject', 2: 'sender', 3: 'content' }, expected: '1 (subject), 2 (sender) or 3 (content)' },
    label: 'A/B test type', step: 'ab', example: 'subject',
  },
  subjectA: {
    type: 'text', flag: '--subject-a <text>', help: 'subject of version A (--ab subject)',
    spec: { path: 'content.subjectA' }, required: true, max: 150, ab: 'subject', variantOf: 'subject', label: 'subject of version A', step: 'subject', example: '...',
  },
  subjectB: {
    type: 'text', flag: '--subject-b <text>', help: 'subject of version B (--ab subject)',
    spec: { path: 'content.subjectB' }, required: true, max: 150, ab: 'subject', variantOf: 'subject', label: 'subject of version B', step: 'subject', example: '...',
  },
  preheaderA: {
    type: 'text', flag: '--preheader-a <text>', help: 'preheader of version A (--ab subject)',
    spec: { path: 'content.preheaderA' }, max: 60, ab: 'subject', variantOf: 'preheader', label: 'preheader of version A', step: 'subject',
  },
  preheaderB: {
    type: 'text', flag: '--preheader-b <text>', help: 'preheader of version B (--ab subject)',
    spec: { path: 'content.preheaderB' }, max: 60, ab: 'subject', variantOf: 'preheader', label: 'preheader of version B', step: 'subject',
  },
  fromNameA: {
    type: 'text', flag: '--from-name-a <name>', help: 'sender name of version A (--ab sender)',
    spec: { path: 'content.fromNameA' }, required: true, max: 50, ab: 'sender', variantOf: 'fromName', label: 'sender name of version A', step: 'sender',
  },
  fromNameB: {
    type: 'text', flag: '--from-name-b <name>', help: 'sender name of version B (--ab sender)',
    spec: { path: 'content.fromNameB' }, required: true, max: 50, ab: 'sender', variantOf: 'fromName', label: 'sender name of version B', step: 'sender',
  },
  fromA: {
    type: 'email', flag: '--from-a <address>', help: 'sender address of version A (--ab sender)',
    spec: { path: 'content.fromAddressA' }, required: true, ab: 'sender', variantOf: 'from', label: 'sender address of version A', step: 'sender',
  },
  fromB: {
    type: 'email', flag: '--from-b <address>', help: 'sender address of version B (--ab sender)',
    spec: { path: 'content.fromAddressB' }, required: true, ab: 'sender', variantOf: 'from', label: 'sender address of version B', step: 'sender',
  },
  htmlFileA: {
    type: 'file', flag: '--html-file-a <file>', help: 'html of version A (--ab content)',
    becomes: "content.htmlContentA (the file's text, as htmlA)", ab: 'content', oneOf: 'contentA', label: 'html file of version A', step: 'content',
  },
  htmlFileB: {
    type: 'file', flag: '--html-file-b <file>', help: 'html of version B (--ab content)',
    becomes: "content.htmlContentB (the file's text, as htmlB)", ab: 'content', oneOf: 'contentB', label: 'html file of version B', step: 'content',
  },
  htmlA: {
    type: 'html', spec: { path: 'content.htmlContentA' }, required: true, ab: 'content', variantOf: 'html', oneOf: 'contentA',
    label: 'html of version A', says: '--html-file-a', step: 'content',
  },
  htmlB: {
    type: 'html', spec: { path: 'content.htmlContentB' }, required: true, ab: 'content', variantOf: 'html', oneOf: 'contentB',
    label: 'html of version B', says: '--html-file-b', step: 'content',
  },
  testPercent: {
    type: 'numberish', flag: '--test-percent <n>', help: 'A/B: percent of contacts (0-100) that get version A or B', expected: 'a number from 0 to 100',
    spec: { path: 'content.testing.proportion', read: 'numeric', expected: 'a number from 0 to 100' }, label: 'test share', step: 'test', example: 20,
  },
  testDuration: {
    type: 'text', flag: '--test-duration <d>', help: 'A/B: how long the test runs, in hours or days: 4h, 2d',
    becomes: 'content.testing.time and content.testing.unit', oneOf: 'testing', label: 'test duration', step: 'test', example: '4h',
  },
  testTime: {
    type: 'number', flat: false, oneOf: 'testing', label: 'test duration', says: 'content.testing.time', step: 'test',
    spec: { path: 'content.testing.time', read: 'whole', expected: 'a whole number above 0 (of hours or days, as unit says)' },
  },
  testUnit: {
    type: 'number', flat: false, oneOf: 'testing', label: 'test duration unit', says: 'content.testing.unit', step: 'test',
    spec: { path: 'content.testing.unit', values: [0, 1], expected: '0 (hours) or 1 (days)' },
  },
  once: {
    type: 'switch', flag: '--once', help: 'send to a one-time uploaded list instead of groups (needs --recipients-file)',
    becomes: 'endpoint 8 or 10 instead of 7 or 9 (no group lists)', label: 'one-time list', step: 'audience', example: true,
  },
  list: {
    type: 'file', flag: '--recipients-file <file>', help: 'the recipients of a one-time campaign: CSV with the header EMAIL,NAME (implies --once)',
    becomes: 'the file PUT to the preSignedUrl that endpoint 8 or 10 answers', label: 'list file', step: 'audience', example: 'people.csv',
  },
  timezoneCode: {
    type: 'number', flat: false, oneOf: 'schedule', label: 'time zone', says: 'config.schedule.timezone', step: 'schedule',
    spec: { path: 'config.schedule.timezone', scheduled: true, expected: `a time zone code (a number from 0 to 87) ${SCHEDULED}` },
  },
  scheduleDate: {
    type: 'text', flat: false, oneOf: 'schedule', label: 'send time', says: 'config.schedule.scheduleDate', step: 'schedule',
    spec: { path: 'config.schedule.scheduleDate', scheduled: true, expected: `a UTC ISO 8601 date-time ${SCHEDULED}` },
  },
} as const satisfies Record<string, FieldDef>;

/** The spec's own switch between send-now and scheduled; not a field of the draft. */
export const SCHEDULE_TYPE = { path: 'config.schedule.type', codes: { 0: 0, 1: 1 }, expected: '0 (send now) or 1 (scheduled)' } as const;

// ---- types derived from the table ----

type Fields = typeof FIELDS;
export type DraftKey = keyof Fields;

interface DraftValue { text: string; email: string; html: string; file: string; choice: string; list: string[]; switch: boolean; numberish: string | number; number: number }
/** What commander hands over for a flag of each type. */
interface FlagValue { text: string; email: string; html: string; file: string; choice: string; list: string[]; switch: boolean; numberish: string; number: never }

/** A campaign as the user describes it (flags, a file, the wizard): every field optional. */
export type Draft = { [K in DraftKey]?: DraftValue[Fields[K]['type']] };

type FlagOf<K extends DraftKey> = Fields[K] extends { flag: infer F extends string } ? F : never;
type FlagKey = { [K in DraftKey]: [FlagOf<K>] extends [never] ? never : K }[DraftKey];
type LongName<F extends string> = F extends `--${infer N} ${string}` ? N : F extends `--${infer N}` ? N : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** Commander's name for a flag's value: '--from-name-a <name>' → fromNameA. */
type AttributeName<F extends string> = Camel<LongName<F>>;

/** The flag values commander hands over (only those given are defined). */
export type CreateFlags = { [K in FlagKey as AttributeName<FlagOf<K>>]?: FlagValue[Fields[K]['type']] };

// A variant must name a field of the table (checked when this file compiles).
type VariantBase = { [K in DraftKey]: Fields[K] extends { variantOf: infer B } ? B : never }[DraftKey];
const variantsNameFields: [VariantBase] extends [DraftKey] ? true : never = true;
void variantsNameFields;

// ---- lookups ----

export const FIELD_KEYS = Object.keys(FIELDS) as DraftKey[];
export const field = (k: DraftKey): FieldDef => FIELDS[k];

/** The keys a flat JSON file may use: the flags in camelCase (and htmlA/htmlB). */
export const DRAFT_KEYS: ReadonlySet<string> = new Set(FIELD_KEYS.filter((k) => field(k).flat !== false));

/** The keys of the rows that satisfy `pick`, in table order. */
export function keysWhere(pick: (f: FieldDef, k: DraftKey) => boolean): DraftKey[] {
  return FIELD_KEYS.filter((k) => pick(field(k), k));
}

/** The long flag of a flag string: '--from-name <name>' → '--from-name'. */
export function longFlag(flag: string): string {
  return flag.split(/[ ,|]/)[0];
}

/** How messages name the field: its flag, or its `says`. */
export function flagName(k: DraftKey): string {
  const f = field(k);
  return f.says ?? (f.flag ? longFlag(f.flag) : k);
}

/** Commander's attribute name of a flag, as AttributeName does it for the type: '--html-file-a' → htmlFileA. */
export function attributeName(flag: string): string {
  return longFlag(flag).replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** [draft key, commander attribute] for every field that has a flag. */
export const FLAG_ATTRIBUTES: ReadonlyArray<readonly [DraftKey, string]> = FIELD_KEYS.flatMap((k) => {
  const f = field(k).flag;
  return f ? [[k, attributeName(f)] as const] : [];
});
