// A campaign as the user describes it, before it becomes the spec's request: flags, a JSON file
// and the wizard all fill this one flat shape, so one set of checks and one builder serve all
// three. Every field is optional here; compose.ts says what is missing.

export type AbDimension = 'subject' | 'sender' | 'content';
export const AB_DIMENSIONS: readonly AbDimension[] = ['subject', 'sender', 'content'];

export interface Draft {
  name?: string;
  /** Group names or codes to send to (resolved against the account before sending). */
  groups?: string[];
  /** Group names or codes whose members never get this campaign. */
  exclude?: string[];
  /** One-time upload (endpoints 8/10): no groups, the list file is PUT after creation. */
  once?: boolean;
  list?: string;
  subject?: string;
  preheader?: string;
  from?: string;
  fromName?: string;
  html?: string;
  htmlFile?: string;
  /** Template id whose html becomes the content (fetched with endpoint 19). */
  template?: string;
  /** en, zh, 0 or 1 (decisions row 19). */
  footerLang?: string | number;
  /** Wall-clock time in `timezone`, or an absolute ISO time. */
  at?: string;
  timezone?: string;
  /** A spec-shaped file's schedule, already in UTC with a code. */
  scheduleDate?: string;
  timezoneCode?: number;
  ga?: boolean;
  utmCampaign?: string;
  utmContent?: string;
  ecommerce?: boolean;
  ab?: string;
  subjectA?: string;
  subjectB?: string;
  preheaderA?: string;
  preheaderB?: string;
  fromNameA?: string;
  fromNameB?: string;
  fromA?: string;
  fromB?: string;
  htmlA?: string;
  htmlB?: string;
  htmlFileA?: string;
  htmlFileB?: string;
  testPercent?: string | number;
  /** "4h" or "2d". */
  testDuration?: string;
  /** A spec-shaped file's testing.time / testing.unit. */
  testTime?: number;
  testUnit?: number;
}

/** The keys a flat JSON file may use: the flags in camelCase. */
export const DRAFT_KEYS: ReadonlySet<string> = new Set<keyof Draft>([
  'name', 'groups', 'exclude', 'once', 'list', 'subject', 'preheader', 'from', 'fromName', 'html', 'htmlFile', 'template',
  'footerLang', 'at', 'timezone', 'ga', 'utmCampaign', 'utmContent', 'ecommerce', 'ab', 'subjectA', 'subjectB',
  'preheaderA', 'preheaderB', 'fromNameA', 'fromNameB', 'fromA', 'fromB', 'htmlA', 'htmlB', 'htmlFileA', 'htmlFileB',
  'testPercent', 'testDuration',
]);

/** Flag values commander hands over (only those given are defined). */
export interface CreateFlags {
  name?: string;
  group?: string[];
  exclude?: string[];
  once?: boolean;
  list?: string;
  subject?: string;
  preheader?: string;
  from?: string;
  fromName?: string;
  html?: string;
  htmlFile?: string;
  template?: string;
  footerLang?: string;
  at?: string;
  timezone?: string;
  ga?: boolean;
  utmCampaign?: string;
  utmContent?: string;
  ecommerce?: boolean;
  ab?: string;
  subjectA?: string;
  subjectB?: string;
  preheaderA?: string;
  preheaderB?: string;
  fromNameA?: string;
  fromNameB?: string;
  fromA?: string;
  fromB?: string;
  htmlFileA?: string;
  htmlFileB?: string;
  testPercent?: string;
  testDuration?: string;
}

export function draftFromFlags(f: CreateFlags): Draft {
  const d: Draft = {
    name: f.name, groups: f.group, exclude: f.exclude, once: f.once, list: f.list, subject: f.subject, preheader: f.preheader,
    from: f.from, fromName: f.fromName, html: f.html, htmlFile: f.htmlFile, template: f.template, footerLang: f.footerLang,
    at: f.at, timezone: f.timezone, ga: f.ga, utmCampaign: f.utmCampaign, utmContent: f.utmContent, ecommerce: f.ecommerce,
    ab: f.ab, subjectA: f.subjectA, subjectB: f.subjectB, preheaderA: f.preheaderA, preheaderB: f.preheaderB,
    fromNameA: f.fromNameA, fromNameB: f.fromNameB, fromA: f.fromA, fromB: f.fromB, htmlFileA: f.htmlFileA, htmlFileB: f.htmlFileB,
    testPercent: f.testPercent, testDuration: f.testDuration,
  };
  return defined(d);
}

/** Flags win over the file. A flag that picks a content source replaces the file's other sources. */
export function mergeDrafts(file: Draft, flags: Draft): Draft {
  const out: Draft = { ...file, ...flags };
  const sources = ['html', 'htmlFile', 'template'] as const;
  if (sources.some((k) => flags[k] !== undefined)) for (const k of sources) if (flags[k] === undefined) delete out[k];
  if (flags.htmlFileA !== undefined) delete out.htmlA;
  if (flags.htmlFileB !== undefined) delete out.htmlB;
  // A new --at replaces a schedule the file already had in UTC.
  if (flags.at !== undefined) {
    delete out.scheduleDate;
    delete out.timezoneCode;
  }
  if (flags.testDuration !== undefined) {
    delete out.testTime;
    delete out.testUnit;
  }
  return out;
}

/** Values the profile supplies when neither flags nor file did. */
export function withProfileDefaults(d: Draft, p: { fromAddress?: string; fromName?: string; footerLang?: string; timezone?: string }): Draft {
  return {
    ...d,
    from: d.from ?? p.fromAddress,
    fromName: d.fromName ?? p.fromName,
    footerLang: d.footerLang ?? p.footerLang ?? 'en',
    timezone: d.timezone ?? (d.at !== undefined ? p.timezone : undefined),
  };
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
