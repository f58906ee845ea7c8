// `campaign create --file campaign.json`. Two shapes are accepted:
//  1. the spec's request structure as is: {"form": {...}, "content": {...}, "config": {...}}
//     (endpoints 7-10; `content` nested inside `config`, as one spec sample shows, is read too);
//  2. a flat form whose keys are the flags in camelCase: {"name", "groups", "exclude", "subject",
//     "from", "fromName", "htmlFile", "at", "timezone", "ab", "subjectA", "testPercent", ...}.
// Both may be mixed (e.g. a spec-shaped body plus "list" for a one-time upload). File paths in the
// file are relative to the file itself. The wizard writes its answers back in the flat form
// (saveDraftFile) when a campaign is refused, so nothing typed is lost. Which keys there are, what
// each must hold and where each stands in the spec shape is the field table's (fields.ts).
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { DRAFT_KEYS, FIELD_KEYS, SCHEDULE_TYPE, field, keysWhere, type Draft, type DraftKey, type FieldType, type SpecPlace, type SpecRead } from './fields.js';
import { forTerminal } from '../core/sanitize.js';
import { PRIVATE_DIR_MODE, writeFileAtomic } from '../fs/safe-write.js';
import { asDiskError } from '../fs/append-whole.js';
import { safeFileName } from '../fs/safe-name.js';
import { readTextFile } from '../fs/read-text.js';

// Which keys are what comes from the table of campaign fields (fields.ts).
const SPEC_KEYS = new Set(['form', 'content', 'config']);
const PATH_KEYS = keysWhere((f) => f.type === 'file');

const SCHEMA_HINT = 'See `mailctl campaign create --help` for both accepted shapes of the campaign file.';

export function readCampaignFile(file: string): Draft {
  const text = readTextFile(file, 'campaign file', '--file');
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
  for (const k of PATH_KEYS) if (typeof draft[k] === 'string') (draft as Record<string, unknown>)[k] = path.resolve(dir, draft[k]);
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
    setFlat(d, k as DraftKey, v, problems); // a flat key is a draft key
  }
  if ([...SPEC_KEYS].some((k) => k in doc)) Object.assign(d, fromSpecShape(doc, problems), withoutUndefined(d));
  return d;
}

/** A flat file's value of each type: the value, or undefined when it is not one. */
const FLAT: Record<FieldType, { read: (v: unknown) => unknown; expected: string }> = {
  text: { read: stringOf, expected: 'a string' },
  email: { read: stringOf, expected: 'a string' },
  html: { read: stringOf, expected: 'a string' },
  file: { read: stringOf, expected: 'a string' },
  choice: { read: stringOf, expected: 'a string' },
  switch: { read: (v) => (typeof v === 'boolean' ? v : undefined), expected: 'true or false' },
  list: { read: stringList, expected: 'a list of strings' },
  numberish: { read: (v) => (typeof v === 'number' || typeof v === 'string' ? v : undefined), expected: 'a number or a string' },
  number: { read: (v) => (typeof v === 'number' ? v : undefined), expected: 'a number' },
};

function setFlat(d: Draft, k: DraftKey, v: unknown, problems: string[]): void {
  const f = field(k);
  const value = FLAT[f.type].read(v);
  if (value === undefined) problems.push(wrongType(k, v, f.expected ?? FLAT[f.type].expected));
  else (d as Record<string, unknown>)[k] = value;
}

/** null where the spec shape may leave a value out (a string, a flag): read as not given. */
const NOT_GIVEN = Symbol('not given');

/** A spec-shaped file's value, read the way its row says: the value, NOT_GIVEN, or undefined when wrong. */
const SPEC_READ: Record<SpecRead, { read: (v: unknown, s: SpecPlace) => unknown; expected: string }> = {
  text: { read: (v) => (v === null ? NOT_GIVEN : stringOf(v)), expected: 'a string' },
  list: { read: stringList, expected: 'a list of strings' },
  flag: { read: flag, expected: 'true or false' },
  any: { read: (v) => (typeof v === 'number' || typeof v === 'string' ? v : undefined), expected: 'a number or a string' },
  numeric: {
    read: (v) => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) ? v : undefined),
    expected: 'a number',
  },
  whole: { read: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined), expected: 'a whole number above 0' },
  number: { read: (v, s) => (typeof v === 'number' && (!s.values || s.values.includes(v)) ? v : undefined), expected: 'a number' },
  code: { read: (v, s) => codeOf(v, s.codes ?? {}), expected: 'one of the codes the spec lists' },
};
const DEFAULT_READ: Record<FieldType, SpecRead> = {
  text: 'text', email: 'text', html: 'text', file: 'text', choice: 'text', switch: 'flag', list: 'list', numberish: 'any', number: 'number',
};

/** The spec's {form, content, config} → draft fields: every row of the table with a spec path. */
function fromSpecShape(doc: Record<string, unknown>, problems: string[]): Draft {
  const d: Record<string, unknown> = {};
  const objectAt = specObjects(doc, problems);
  const schedule = objectAt(parentOf(SCHEDULE_TYPE.path));
  let scheduled = false;
  if (schedule.type !== undefined) {
    const type = codeOf(schedule.type, SCHEDULE_TYPE.codes);
    if (type === undefined) problems.push(wrongType(SCHEDULE_TYPE.path, schedule.type, SCHEDULE_TYPE.expected));
    else scheduled = type === 1;
  }
  for (const k of FIELD_KEYS) {
    const s: SpecPlace | undefined = field(k).spec;
    if (!s || (s.scheduled && !scheduled)) continue;
    const v = objectAt(parentOf(s.path))[nameOf(s.path)];
    // A scheduled send needs its date and zone; anything else may be left out.
    if (v === undefined && !s.scheduled) continue;
    const how = SPEC_READ[s.read ?? DEFAULT_READ[field(k).type]];
    const value = v === undefined || (v === null && s.scheduled) ? undefined : how.read(v, s);
    if (value === NOT_GIVEN) continue;
    if (value === undefined) problems.push(wrongType(s.path, v, s.expected ?? how.expected));
    else d[k] = value;
  }
  return d as Draft;
}

/**
 * The objects of the spec shape by path ('content.testing'): {} when absent, and a sentence when
 * something else stands there. One spec sample nests `content` inside `config` (endpoint 9), so
 * `content` is read from either place.
 */
function specObjects(doc: Record<string, unknown>, problems: string[]): (path: string) => Record<string, unknown> {
  const form = objAt(doc, 'form', problems);
  const config = objAt(doc, 'config', problems);
  const content = { ...(isObj(config.content) ? config.content : {}), ...objAt(doc, 'content', problems) };
  const known = new Map<string, Record<string, unknown>>([['form', form], ['config', config], ['content', content]]);
  const at = (p: string): Record<string, unknown> => {
    const have = known.get(p);
    if (have) return have;
    const v = at(parentOf(p))[nameOf(p)];
    let o: Record<string, unknown> = {};
    if (isObj(v)) o = v;
    else if (v !== undefined) problems.push(wrongType(p, v, `an object {${membersOf(p).join(', ')}}`));
    known.set(p, o);
    return o;
  };
  return at;
}

/** The names the spec shape holds in the object at `p` (the rows' spec paths under it). */
function membersOf(p: string): string[] {
  const paths = [SCHEDULE_TYPE.path, ...FIELD_KEYS.flatMap((k) => field(k).spec?.path ?? [])];
  return [...new Set(paths.filter((x) => x.startsWith(`${p}.`)).map((x) => x.slice(p.length + 1).split('.')[0]))];
}

const parentOf = (p: string) => p.slice(0, p.lastIndexOf('.'));
const nameOf = (p: string) => p.slice(p.lastIndexOf('.') + 1);

/** One of the spec's numbered codes (also as a string of digits, as the code has always read it; never a boolean) → what it stands for. */
function codeOf<T>(v: unknown, codes: Readonly<Record<number, T>>): T | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  return Object.hasOwn(codes, n) ? codes[n] : undefined;
}

/**
 * true or false. Section 9: an older revision of the spec sent these as the strings "true" and
 * "false", so those are read too; anything else ("yes", 1) is refused, never taken as false.
 */
function flag(v: unknown): boolean | typeof NOT_GIVEN | undefined {
  if (v === null) return NOT_GIVEN;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return undefined;
}

/** One sentence: the JSON path, the value found (shortened) or that none was, and what it must be. */
function wrongType(path: string, v: unknown, expected: string): string {
  if (v === undefined) return `${path} is missing; it must be ${expected}.`; // a scheduled send's date or zone
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

function stringOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
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
 * The draft as a document `readCampaignFile` reads back to the same draft: the flat keys (file
 * paths made absolute: the file may live in another folder than the one they were given in), and
 * what only the spec shape holds (a schedule already in UTC, a test's time and unit) at its spec
 * path, unless a flat key that replaces it (--at, --test-duration) is there.
 */
export function draftDocument(d: Draft, cwd = process.cwd()): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  const replaced = new Set(FIELD_KEYS.filter((k) => field(k).flat !== false && d[k] !== undefined).map((k) => field(k).oneOf));
  for (const k of FIELD_KEYS) {
    const v = d[k];
    const f = field(k);
    if (v === undefined) continue;
    if (f.flat !== false) doc[k] = f.type === 'file' && typeof v === 'string' ? path.resolve(cwd, v) : v;
    else if (f.spec && !(f.oneOf && replaced.has(f.oneOf))) {
      if (f.spec.scheduled) setAt(doc, SCHEDULE_TYPE.path, 1);
      setAt(doc, f.spec.path, v);
    }
  }
  return doc;
}

function setAt(doc: Record<string, unknown>, p: string, v: unknown): void {
  const names = p.split('.');
  let o = doc;
  for (const n of names.slice(0, -1)) o = (isObj(o[n]) ? o[n] : (o[n] = {})) as Record<string, unknown>;
  o[names.at(-1)!] = v;
}

/** The folder of saved drafts, under the config folder (local state): `campaign preview --draft` reads it. */
export const DRAFT_DIR = 'drafts';

/**
 * Saves the draft where `campaign create --file` can read it: DIR/campaign-STAMP-NAME.json,
 * private (0600, in a 0700 folder), written whole or not at all, never over another file.
 */
export async function saveDraftFile(dir: string, d: Draft, now: number): Promise<string> {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    throw asDiskError(e, dir);
  }
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
