// The settings a profile can hold, with their validation. API keys are deliberately not
// settable through `config set KEY VALUE` (that would put them in argv and shell history).

import { isValidEmail } from '../core/email.js';
import { resolveTimeZone } from '../spec/timezones.js';
import { checkUrl, type UrlPolicy } from '../core/url.js';
import { OUTPUT_FORMATS, type OutputSetting } from '../core/output-formats.js';

export const BASE_URL_POLICY: UrlPolicy = { name: '', example: 'https://api.example.com', base: true };

export type FooterLang = 'en' | 'zh';

export interface Profile {
  apiKey?: string;
  campaignKey?: string;
  notifyKey?: string;
  campaignUrl?: string;
  notifyUrl?: string;
  fromAddress?: string;
  fromName?: string;
  footerLang?: FooterLang;
  timezone?: string;
  /** How lists and records print when no flag says (src/run/output/choice.ts). */
  output?: OutputSetting;
  sandbox?: boolean;
  nameMaxLength?: number;
  /** Custom field types known for imports, e.g. {AGE: 'number'}. */
  fieldTypes?: Record<string, 'string' | 'number' | 'date'>;
}

export type SettingName = keyof Profile;

interface SettingSpec {
  name: SettingName;
  /** The spelling users type: kebab-case. */
  flag: string;
  description: string;
  /** How config.json holds what `parse` returns: checked when the file is read (readStored). */
  stored: StoredKind;
  parse(value: string): Profile[SettingName];
}

type StoredKind = 'text' | 'boolean' | 'number' | 'types';
const STORED_LABEL: Record<StoredKind, string> = { text: 'text in quotes', boolean: 'true or false without quotes', number: 'a number without quotes', types: 'an object such as {"AGE": "number"}' };

// The one URL check (src/core/url.ts), with the base-URL policy: no /v1, trailing slashes dropped.
const url = (v: string) => checkUrl(v, BASE_URL_POLICY);

export const SETTINGS: SettingSpec[] = [
  { name: 'campaignUrl', stored: 'text', flag: 'campaign-url', description: 'campaign service base URL (without /v1)', parse: url },
  { name: 'notifyUrl', stored: 'text', flag: 'notify-url', description: 'notification service base URL (without /v1)', parse: url },
  {
    name: 'fromAddress', stored: 'text', flag: 'from-address', description: 'default sender address',
    parse: (v) => {
      if (!isValidEmail(v)) throw new Error(`"${v}" is not an email address.`);
      return v;
    },
  },
  { name: 'fromName', stored: 'text', flag: 'from-name', description: 'default sender name (at most 50 characters)', parse: (v) => {
    if (v.length > 50) throw new Error('A sender name is at most 50 characters.');
    return v;
  } },
  { name: 'footerLang', stored: 'text', flag: 'footer-lang', description: 'campaign footer language: en or zh', parse: (v) => parseFooterLang(v) },
  // Checked now: a typo here would otherwise surface only at the next scheduled `campaign create`.
  { name: 'timezone', stored: 'text', flag: 'timezone', description: 'default time zone for schedules (IANA name such as Asia/Taipei, or a city code such as TAIPEI)', parse: (v) => {
    const zone = resolveTimeZone(v);
    if (zone instanceof Error) throw zone;
    return v.trim();
  } },
  // Read before each command runs (src/run/output/choice.ts); --json, --csv, --output and --query beat it.
  { name: 'output', stored: 'text', flag: 'output', description: 'how lists and records print when no flag says: auto (a table on a terminal, TSV piped), table, tsv, json or csv', parse: (v) => {
    const format = v.trim().toLowerCase();
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) throw new Error(`output "${v}" is not one of ${OUTPUT_FORMATS.join(', ')}.`);
    return format as OutputSetting;
  } },
  { name: 'sandbox', stored: 'boolean', flag: 'sandbox', description: 'true to always use the built-in sandbox for this profile', parse: (v) => {
    if (!/^(true|false)$/i.test(v)) throw new Error('sandbox is "true" or "false".');
    return v.toLowerCase() === 'true';
  } },
  { name: 'nameMaxLength', stored: 'number', flag: 'name-max-length', description: 'longest contact NAME accepted on import (default 100)', parse: (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error('name-max-length is a whole number above 0.');
    return n;
  } },
  { name: 'fieldTypes', stored: 'types', flag: 'field-types', description: 'custom field types for imports, e.g. AGE:number,JOINED:date', parse: (v) => parseFieldTypes(v.split(',')) },
];

/**
 * A value as config.json holds it, checked by the same parser `config set` uses (the rule lives
 * once): its JSON type first, then its text through `parse`. Returns the parsed value; throws an
 * Error whose message is one clause saying what it should be. A hand-edited file is hostile.
 */
export function readStored(spec: SettingSpec, value: unknown): Profile[SettingName] {
  const text = storedText(spec.stored, value);
  if (text === undefined) throw new Error(`it should be ${STORED_LABEL[spec.stored]}, not ${jsonType(value)}`);
  try {
    return spec.parse(text);
  } catch (e) {
    throw new Error((e as Error).message.replace(/[.\s]+$/, ''));
  }
}

function storedText(kind: StoredKind, v: unknown): string | undefined {
  if (kind === 'text') return typeof v === 'string' ? v : undefined;
  if (kind === 'boolean') return typeof v === 'boolean' ? String(v) : undefined;
  if (kind === 'number') return typeof v === 'number' ? String(v) : undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const entries = Object.entries(v);
  return entries.every(([, t]) => typeof t === 'string') ? entries.map(([k, t]) => `${k}:${t}`).join(',') : undefined;
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

export function findSetting(flag: string): SettingSpec | undefined {
  const norm = flag.trim().toLowerCase();
  return SETTINGS.find((s) => s.flag === norm || s.name.toLowerCase() === norm);
}

export function parseFooterLang(v: string): FooterLang {
  const s = v.trim().toLowerCase();
  if (s === 'en' || s === '0' || s === 'english') return 'en';
  if (s === 'zh' || s === '1' || s === 'chinese') return 'zh';
  throw new Error(`footer language "${v}" is not en or zh (0 or 1 also work).`);
}

export function parseFieldTypes(items: string[]): Record<string, 'string' | 'number' | 'date'> {
  const out: Record<string, 'string' | 'number' | 'date'> = {};
  for (const item of items) {
    if (!item.trim()) continue;
    const m = /^\s*([^:]+?)\s*:\s*(string|number|date)\s*$/i.exec(item);
    if (!m) throw new Error(`"${item}" is not NAME:TYPE with TYPE one of string, number, date.`);
    const name = m[1].toUpperCase();
    // Given twice (AGE:number,AGE:date): refused, not silently the last one.
    if (Object.hasOwn(out, name)) throw new Error(`the field ${name} is given twice; give each field one type.`);
    out[name] = m[2].toLowerCase() as 'string' | 'number' | 'date';
  }
  return out;
}
