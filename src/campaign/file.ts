// `campaign create --file campaign.json`. Two shapes are accepted:
//  1. the spec's request structure as is: {"form": {...}, "content": {...}, "config": {...}}
//     (endpoints 7-10; `content` nested inside `config`, as one spec sample shows, is read too);
//  2. a flat form whose keys are the flags in camelCase: {"name", "groups", "exclude", "subject",
//     "from", "fromName", "htmlFile", "at", "timezone", "ab", "subjectA", "testPercent", ...}.
// Both may be mixed (e.g. a spec-shaped body plus "list" for a one-time upload). File paths in the
// file are relative to the file itself. The wizard writes its answers back in the flat form
// (saveDraftFile) when a campaign is refused, so nothing typed is lost.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli/errors.js';
import { DRAFT_KEYS, type Draft } from './draft.js';
import { fileProblem } from '../cli/file-problem.js';
import { forTerminal } from '../output/sanitize.js';
import { PRIVATE_DIR_MODE, writeFileAtomic } from '../fs/safe-write.js';
import { safeFileName } from '../fs/safe-name.js';

const SPEC_KEYS = new Set(['form', 'content', 'config']);
const PATH_KEYS = ['htmlFile', 'htmlFileA', 'htmlFileB', 'list'] as const;
const STRING_KEYS = new Set([
  'name', 'list', 'subject', 'preheader', 'from', 'fromName', 'html', 'htmlFile', 'template', 'at', 'timezone', 'utmCampaign',
  'utmContent', 'ab', 'subjectA', 'subjectB', 'preheaderA', 'preheaderB', 'fromNameA', 'fromNameB', 'fromA', 'fromB', 'htmlA',
  'htmlB', 'htmlFileA', 'htmlFileB', 'testDuration',
]);
const BOOL_KEYS = new Set(['once', 'ga', 'ecommerce']);

const SCHEMA_HINT = 'See `mailctl campaign create --help` for both accepted shapes of the campaign file.';

export function readCampaignFile(file: string): Draft {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new UsageError(fileProblem(e, file, 'campaign file', '--file'));
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`The campaign file ${file} is not valid JSON: ${(e as Error).message}.`, SCHEMA_HINT);
  }
  if (!isObj(doc)) throw new UsageError(`The campaign file ${file} must hold one JSON object.`, SCHEMA_HINT);
  const problems: string[] = [];
  const draft = parseCampaignDoc(doc, problems);
  if (problems.length) {
    throw new UsageError(`The campaign file ${file} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n  ${problems.join('\n  ')}`, SCHEMA_HINT);
  }
  const dir = path.dirname(path.resolve(file));
  for (const k of PATH_KEYS) if (typeof draft[k] === 'string') draft[k] = path.resolve(dir, draft[k] as string);
  return draft;
}

/** The document (either shape) as a draft; type problems are pushed as sentences. */
export function parseCampaignDoc(doc: Record<string, unknown>, problems: string[]): Draft {
  const d: Draft = {};
  for (const [k, v] of Object.entries(doc)) {
    if (SPEC_KEYS.has(k)) continue;
    if (!DRAFT_KEYS.has(k)) {
      problems.push(`"${k}" is not a campaign file key (known keys: form, content, config, ${[...DRAFT_KEYS].join(', ')}).`);
      continue;
    }
    setFlat(d, k, v, problems);
  }
  if ([...SPEC_KEYS].some((k) => k in doc)) Object.assign(d, fromSpecShape(doc, problems), withoutUndefined(d));
  return d;
}

function setFlat(d: Draft, k: string, v: unknown, problems: string[]): void {
  const rec = d as Record<string, unknown>;
  if (STRING_KEYS.has(k)) {
    if (typeof v === 'string') rec[k] = v;
    else problems.push(wrongType(k, v, 'a string'));
  } else if (BOOL_KEYS.has(k)) {
    if (typeof v === 'boolean') rec[k] = v;
    else problems.push(wrongType(k, v, 'true or false'));
  } else if (k === 'groups' || k === 'exclude') {
    const list = stringList(v);
    if (list) rec[k] = list;
    else problems.push(wrongType(k, v, 'a list of group names or codes, e.g. ["Newsletter"]'));
  } else if (k === 'testPercent') {
    if (typeof v === 'number' || typeof v === 'string') rec[k] = v;
    else problems.push(wrongType(k, v, 'a number from 0 to 100'));
  } else if (k === 'footerLang') {
    if (typeof v === 'number' || typeof v === 'string') rec[k] = v;
    else problems.push(wrongType(k, v, '"en", "zh", 0 or 1'));
  }
}

/** The spec's {form, content, config} → draft fields. */
function fromSpecShape(doc: Record<string, unknown>, problems: string[]): Draft {
  const d: Draft = {};
  const form = objAt(doc, 'form', problems);
  const config = objAt(doc, 'config', problems);
  // One spec sample nests `content` inside `config` (endpoint 9); read it from either place.
  const content = { ...(isObj(config.content) ? config.content : {}), ...objAt(doc, 'content', problems) };
  const str = (o: Record<string, unknown>, k: string, where: string): string | undefined => {
    const v = o[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    problems.push(wrongType(`${where}.${k}`, v, 'a string'));
    return undefined;
  };
  // A number the spec lists (a code such as testingOn or schedule.type), also as a string of
  // digits as the code has always read it; never a boolean, which Number() would make 1 or 0.
  const code = (v: unknown, path: string, allowed: number[], expected: string): number | undefined => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (allowed.includes(n)) return n;
    problems.push(wrongType(path, v, expected));
    return undefined;
  };
  d.name = str(form, 'name', 'form');
  for (const [k, to] of [['selectedLists', 'groups'], ['excludeLists', 'exclude']] as const) {
    if (form[k] === undefined) continue;
    const list = stringList(form[k]);
    if (list) d[to] = list;
    else problems.push(wrongType(`form.${k}`, form[k], 'a list of group codes'));
  }
  const map: Array<[string, keyof Draft]> = [
    ['subject', 'subject'], ['preheader', 'preheader'], ['fromName', 'fromName'], ['fromAddress', 'from'], ['htmlContent', 'html'],
    ['subjectA', 'subjectA'], ['subjectB', 'subjectB'], ['preheaderA', 'preheaderA'], ['preheaderB', 'preheaderB'],
    ['fromNameA', 'fromNameA'], ['fromNameB', 'fromNameB'], ['fromAddressA', 'fromA'], ['fromAddressB', 'fromB'],
    ['htmlContentA', 'htmlA'], ['htmlContentB', 'htmlB'],
  ];
  for (const [from, to] of map) (d as Record<string, unknown>)[to] = str(content, from, 'content');
  if (content.footerLang !== undefined) {
    if (typeof content.footerLang === 'number' || typeof content.footerLang === 'string') d.footerLang = content.footerLang;
    else problems.push(wrongType('content.footerLang', content.footerLang, '0 (English) or 1 (Chinese)'));
  }
  if (content.testingOn !== undefined) {
    const n = code(content.testingOn, 'content.testingOn', [1, 2, 3], '1 (subject), 2 (sender) or 3 (content)');
    if (n !== undefined) d.ab = ({ 1: 'subject', 2: 'sender', 3: 'content' } as const)[n as 1 | 2 | 3];
  }
  if (content.testing !== undefined) {
    if (!isObj(content.testing)) problems.push(wrongType('content.testing', content.testing, 'an object {proportion, time, unit}'));
    else {
      const t = content.testing;
      if (t.proportion !== undefined) {
        if (typeof t.proportion === 'number' || (typeof t.proportion === 'string' && t.proportion.trim() !== '' && !Number.isNaN(Number(t.proportion)))) d.testPercent = t.proportion;
        else problems.push(wrongType('content.testing.proportion', t.proportion, 'a number from 0 to 100'));
      }
      if (t.time !== undefined) {
        if (typeof t.time === 'number' && Number.isInteger(t.time) && t.time >= 1) d.testTime = t.time;
        else problems.push(wrongType('content.testing.time', t.time, 'a whole number above 0 (of hours or days, as unit says)'));
      }
      if (t.unit !== undefined) {
        if (t.unit === 0 || t.unit === 1) d.testUnit = t.unit;
        else problems.push(wrongType('content.testing.unit', t.unit, '0 (hours) or 1 (days)'));
      }
    }
  }
  const schedule = isObj(config.schedule) ? config.schedule : undefined;
  if (config.schedule !== undefined && !schedule) problems.push(wrongType('config.schedule', config.schedule, 'an object {type, timezone, scheduleDate}'));
  const type = schedule?.type === undefined ? undefined : code(schedule.type, 'config.schedule.type', [0, 1], '0 (send now) or 1 (scheduled)');
  if (schedule && type === 1) {
    if (typeof schedule.scheduleDate === 'string') d.scheduleDate = schedule.scheduleDate;
    else problems.push(wrongType('config.schedule.scheduleDate', schedule.scheduleDate, 'a UTC ISO 8601 date-time when config.schedule.type is 1'));
    if (typeof schedule.timezone === 'number') d.timezoneCode = schedule.timezone;
    else problems.push(wrongType('config.schedule.timezone', schedule.timezone, 'a time zone code (a number from 0 to 87) when config.schedule.type is 1'));
  }
  const ga = isObj(config.ga) ? config.ga : undefined;
  if (config.ga !== undefined && !ga) problems.push(wrongType('config.ga', config.ga, 'an object {enable, ecommerceEnable, utmCampaign, utmContent}'));
  if (ga) {
    d.ga = flag(ga.enable, 'config.ga.enable', problems);
    d.ecommerce = flag(ga.ecommerceEnable, 'config.ga.ecommerceEnable', problems);
    d.utmCampaign = str(ga, 'utmCampaign', 'config.ga');
    d.utmContent = str(ga, 'utmContent', 'config.ga');
  }
  return withoutUndefined(d);
}

/**
 * true or false. Section 9: an older revision of the spec sent these as the strings "true" and
 * "false", so those are read too; anything else ("yes", 1) is refused, never taken as false.
 */
function flag(v: unknown, path: string, problems: string[]): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  problems.push(wrongType(path, v, 'true or false'));
  return undefined;
}

/** One sentence: the JSON path, the value found (shortened) and what it must be. */
function wrongType(path: string, v: unknown, expected: string): string {
  const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  let shown = JSON.stringify(v) ?? String(v);
  if (shown.length > 40) shown = `${shown.slice(0, 39)}…`;
  return `${path} is ${v === null ? 'null' : `${forTerminal(shown, 40)} (${kind})`}; it must be ${expected}.`;
}

function objAt(doc: Record<string, unknown>, k: string, problems: string[]): Record<string, unknown> {
  const v = doc[k];
  if (v === undefined) return {};
  if (isObj(v)) return v;
  problems.push(wrongType(k, v, 'an object'));
  return {};
}

function stringList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The draft as a document `readCampaignFile` reads back to the same draft: the flat keys, file
 * paths made absolute (the file may live in another folder than the one they were given in), and
 * a schedule already in UTC (from a spec-shaped file) in the spec's own `config.schedule`.
 */
export function draftDocument(d: Draft, cwd = process.cwd()): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (v === undefined || !DRAFT_KEYS.has(k)) continue;
    doc[k] = (PATH_KEYS as readonly string[]).includes(k) && typeof v === 'string' ? path.resolve(cwd, v) : v;
  }
  if (d.testDuration === undefined && d.testTime !== undefined) doc.testDuration = `${d.testTime}${d.testUnit === 1 ? 'd' : 'h'}`;
  if (d.at === undefined && d.scheduleDate !== undefined) doc.config = { schedule: { type: 1, timezone: d.timezoneCode, scheduleDate: d.scheduleDate } };
  return doc;
}

/**
 * Saves the draft where `campaign create --file` can read it: DIR/campaign-STAMP-NAME.json,
 * private (0600, in a 0700 folder), written whole or not at all, never over another file.
 */
export async function saveDraftFile(dir: string, d: Draft, now: number): Promise<string> {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stamp = new Date(now).toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  let slug = 'campaign';
  try {
    slug = safeFileName(d.name ?? '', 'campaign name').slice(0, 40);
  } catch {
    /* a name with no letters or digits: keep the plain stem */
  }
  const text = JSON.stringify(draftDocument(d), null, 2) + '\n';
  for (let n = 1; ; n++) {
    const file = path.join(dir, `campaign-${stamp}-${slug}${n > 1 ? `-${n}` : ''}.json`);
    try {
      await writeFileAtomic(file, text, { replace: false });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
