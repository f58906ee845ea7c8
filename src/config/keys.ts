// The settings a profile can hold, with their validation. API keys are deliberately not
// settable through `config set KEY VALUE` (that would put them in argv and shell history).

import { isValidEmail } from '../email.js';
import { resolveTimeZone } from '../campaign/timezones.js';
import { checkUrl, type UrlPolicy } from '../cli/url.js';
import { OUTPUT_FORMATS, type OutputSetting } from '../output/formats.js';

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
  /** How lists and records print when no flag says (src/output/choice.ts). */
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
  parse(value: string): Profile[SettingName];
}

// The one URL check (src/cli/url.ts), with the base-URL policy: no /v1, trailing slashes dropped.
const url = (v: string) => checkUrl(v, BASE_URL_POLICY);

export const SETTINGS: SettingSpec[] = [
  { name: 'campaignUrl', flag: 'campaign-url', description: 'campaign service base URL (without /v1)', parse: url },
  { name: 'notifyUrl', flag: 'notify-url', description: 'notification service base URL (without /v1)', parse: url },
  {
    name: 'fromAddress', flag: 'from-address', description: 'default sender address',
    parse: (v) => {
      if (!isValidEmail(v)) throw new Error(`"${v}" is not an email address.`);
      return v;
    },
  },
  { name: 'fromName', flag: 'from-name', description: 'default sender name (at most 50 characters)', parse: (v) => {
    if (v.length > 50) throw new Error('A sender name is at most 50 characters.');
    return v;
  } },
  { name: 'footerLang', flag: 'footer-lang', description: 'campaign footer language: en or zh', parse: (v) => parseFooterLang(v) },
  // Checked now: a typo here would otherwise surface only at the next scheduled `campaign create`.
  { name: 'timezone', flag: 'timezone', description: 'default time zone for schedules (IANA name such as Asia/Taipei, or a city code such as TAIPEI)', parse: (v) => {
    const zone = resolveTimeZone(v);
    if (zone instanceof Error) throw zone;
    return v.trim();
  } },
  // Read before each command runs (src/output/choice.ts); --json, --csv, --output and --query beat it.
  { name: 'output', flag: 'output', description: 'how lists and records print when no flag says: auto (a table on a terminal, TSV piped), table, tsv, json or csv', parse: (v) => {
    const format = v.trim().toLowerCase();
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) throw new Error(`output "${v}" is not one of ${OUTPUT_FORMATS.join(', ')}.`);
    return format as OutputSetting;
  } },
  { name: 'sandbox', flag: 'sandbox', description: 'true to always use the built-in sandbox for this profile', parse: (v) => {
    if (!/^(true|false)$/i.test(v)) throw new Error('sandbox is "true" or "false".');
    return v.toLowerCase() === 'true';
  } },
  { name: 'nameMaxLength', flag: 'name-max-length', description: 'longest contact NAME accepted on import (default 100)', parse: (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error('name-max-length is a whole number above 0.');
    return n;
  } },
  { name: 'fieldTypes', flag: 'field-types', description: 'custom field types for imports, e.g. AGE:number,JOINED:date', parse: (v) => parseFieldTypes(v.split(',')) },
];

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
    out[m[1].toUpperCase()] = m[2].toLowerCase() as 'string' | 'number' | 'date';
  }
  return out;
}
