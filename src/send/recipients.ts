// Who a send goes to: one recipient from flags, or many from a CSV file (an address column and
// one column per variable) or a JSON file (the spec's recipients array). Everything is checked
// here, before any request, and every problem is reported at once with its row.
import fs from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../core/errors.js';
import { checkCountryCode, checkNationalNumber, smsKey } from './sms-rules.js';
import { summarise } from './variables.js';
import { fileProblem } from '../core/file-problem.js';
import { decodeUtf8, fileOrigin, SAVE_CSV_AS_UTF8 } from '../core/utf8.js';
import { isValidEmail as isEmail } from '../core/email.js';

export type Channel = 'email' | 'sms';

export interface Recipient {
  /** Identity for duplicates, as the journal keys it: the lower-cased address, or smsKey() "CC:number" without the trunk zero. */
  key: string;
  /** How messages name it: the address, or "+CC number". */
  label: string;
  address: string;
  name?: string;
  countryCode?: string;
  variables: Record<string, string>;
}

export interface RawRecipient {
  address?: string;
  name?: string;
  countryCode?: string;
  variables: Record<string, string>;
  /** "row 4" / "item 2", for messages. */
  where: string;
}

export interface Parsed {
  recipients: Recipient[];
  warnings: string[];
}

/** The one rule for an email address (src/core/email.ts), under the name the send code uses. */
export { isEmail };

/**
 * The name sent for an email recipient (decisions row 31): the vendor's reference lists
 * `recipients[].name` as required (spec 001 section 4 and spec 000 endpoint 20 star it too), so
 * every recipient carries one — the name given, else the address's local part (ann.lee for
 * ann.lee@example.com), which reads as a name where the service shows one.
 */
export function recipientName(address: string, given?: string): string {
  const name = given?.trim();
  if (name) return name;
  const at = address.lastIndexOf('@');
  return at > 0 ? address.slice(0, at) : address;
}

const ADDRESS_COLUMNS: Record<Channel, string[]> = {
  email: ['address', 'email', 'e-mail', 'mail', 'email address'],
  sms: ['address', 'phone', 'mobile', 'number', 'phone number', 'recipient'],
};
const NAME_COLUMNS = ['name'];
const CODE_COLUMNS = ['country_code', 'countrycode', 'country code', 'country-code', 'cc'];

/** Reads and checks a recipients file. `countryCode` is the default for SMS rows without one. */
export function readRecipientsFile(file: string, channel: Channel, countryCode?: string): Parsed {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(fileProblem(e, file, 'recipients file', '--recipients-file'));
  }
  const text = decode(buf, file);
  const json = /\.json$/i.test(file) || /^\s*[[{]/.test(text);
  const raw = json ? fromJson(text, file, channel) : fromCsv(text, file, channel);
  if (!raw.length) throw new UsageError(`The recipients file ${file} has no recipients.`);
  return checkRecipients(raw, channel, countryCode);
}

/**
 * UTF-8 (a byte-order mark dropped) through the one strict decoder, or UTF-16LE when its
 * byte-order mark says so (Excel's "Unicode text"), decoded as strictly: a byte that is not text
 * in its encoding is refused with its offset, never sent on as U+FFFD.
 */
function decode(buf: Buffer, file: string): string {
  const origin = fileOrigin(file, 'recipients file', '--recipients-file', true);
  if (buf[0] === 0xff && buf[1] === 0xfe) {
    try {
      return new TextDecoder('utf-16le', { fatal: true }).decode(buf.subarray(2));
    } catch {
      throw new UsageError(`${origin.name.charAt(0).toUpperCase()}${origin.name.slice(1)} (--recipients-file) starts with a UTF-16 byte-order mark but is not valid UTF-16 text, so its text cannot be read reliably; nothing was sent.`, SAVE_CSV_AS_UTF8);
    }
  }
  return decodeUtf8(buf, origin);
}

function fromCsv(text: string, file: string, channel: Channel): RawRecipient[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, { skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (e) {
    throw new UsageError(`${file} is not valid CSV: ${(e as Error).message}.`);
  }
  const [header, ...body] = rows;
  if (!header) return [];
  const lower = header.map((h) => h.trim().toLowerCase());
  const addrCol = lower.findIndex((h) => ADDRESS_COLUMNS[channel].includes(h));
  if (addrCol < 0) {
    throw new UsageError(`${file} has no address column.`, `Name the first row's address column "${ADDRESS_COLUMNS[channel][0]}"${channel === 'email' ? ' (or "email")' : ' (or "phone")'}; every other column becomes a variable.`);
  }
  const nameCol = channel === 'email' ? lower.findIndex((h) => NAME_COLUMNS.includes(h)) : -1;
  const codeCol = channel === 'sms' ? lower.findIndex((h) => CODE_COLUMNS.includes(h)) : -1;
  const seen = new Set<string>();
  for (const h of header) {
    if (!h.trim()) throw new UsageError(`${file} has a column without a name in its first row.`, 'Give every column a header: the address column and one column per variable.');
    if (seen.has(h)) throw new UsageError(`${file} has two columns named "${h}".`);
    seen.add(h);
  }
  return body.map((cells, i) => {
    const variables: Record<string, string> = {};
    header.forEach((h, c) => {
      if (c !== addrCol && c !== nameCol && c !== codeCol && cells[c] !== undefined) variables[h.trim()] = cells[c];
    });
    return {
      address: cells[addrCol],
      name: nameCol >= 0 ? cells[nameCol] || undefined : undefined,
      countryCode: codeCol >= 0 ? cells[codeCol] || undefined : undefined,
      variables,
      where: `row ${i + 2}`,
    };
  });
}

function fromJson(text: string, file: string, channel: Channel): RawRecipient[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}.`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { recipients?: unknown })?.recipients;
  if (!Array.isArray(list)) throw new UsageError(`${file} must hold a JSON array of recipients (or an object with a "recipients" array).`, channel === 'email' ? 'Each item: {"address": "...", "name": "...", "variables": {...}}.' : 'Each item: {"address": "0912345678", "country_code": "886", "variables": {...}}.');
  return list.map((item, i) => {
    const where = `item ${i + 1}`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new UsageError(`${file}: ${where} is not an object.`);
    const o = item as Record<string, unknown>;
    const vars = o.variables;
    if (vars !== undefined && (typeof vars !== 'object' || vars === null || Array.isArray(vars))) throw new UsageError(`${file}: the variables of ${where} are not an object.`);
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries((vars ?? {}) as Record<string, unknown>)) {
      if (v !== null && typeof v === 'object') throw new UsageError(`${file}: variable "${k}" of ${where} is not text.`, 'Variable values are text (numbers are taken as their digits).');
      variables[k] = v === null || v === undefined ? '' : String(v);
    }
    const str = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));
    if (o.address === undefined) {
      const near = ['email', 'mail', 'to', 'phone', 'recipient'].find((k) => o[k] !== undefined);
      if (near) throw new UsageError(`${file}: ${where} has "${near}" but no "address".`, 'The service\'s recipients array names the field "address"; rename the key.');
    }
    return { address: str(o.address), name: str(o.name), countryCode: str(o.country_code ?? o.countryCode), variables, where };
  });
}

/** Checks addresses (or numbers and codes), drops duplicates with a warning, builds keys. */
export function checkRecipients(raw: RawRecipient[], channel: Channel, defaultCode?: string): Parsed {
  const problems: string[] = [];
  const warnings: string[] = [];
  const undocumented = new Set<string>();
  const out: Recipient[] = [];
  const seen = new Map<string, string>();
  const dupes: string[] = [];
  for (const r of raw) {
    const address = r.address?.trim();
    if (!address) {
      problems.push(`${r.where}: no address`);
      continue;
    }
    let rec: Recipient;
    if (channel === 'email') {
      if (!isEmail(address)) {
        problems.push(`${r.where}: "${address}" is not an email address`);
        continue;
      }
      rec = { key: address.toLowerCase(), label: address, address, name: r.name?.trim() || undefined, variables: r.variables };
    } else {
      const codeIn = r.countryCode ?? defaultCode;
      if (!codeIn) {
        problems.push(`${r.where}: no country code`);
        continue;
      }
      const code = checkCountryCode(codeIn);
      const num = checkNationalNumber(address);
      if ('error' in code) problems.push(`${r.where}: ${code.error}`);
      if ('error' in num) problems.push(`${r.where}: ${num.error}`);
      if ('error' in code || 'error' in num) continue;
      if (!code.documented) undocumented.add(code.code);
      rec = { key: smsKey(code.code, num.number), label: `+${code.code} ${num.number}`, address: num.number, countryCode: code.code, variables: r.variables };
    }
    const first = seen.get(rec.key);
    if (first) {
      dupes.push(`${rec.label} (${r.where}, first at ${first})`);
      continue;
    }
    seen.set(rec.key, r.where);
    out.push(rec);
  }
  if (problems.length) {
    throw new UsageError(
      `${problems.length === 1 ? 'A recipient has a problem' : `${problems.length} recipients have problems`}: ${summarise(problems, (p) => p, 8)}. Nothing was sent.`,
      'Fix the recipients and run the command again.',
    );
  }
  if (dupes.length) warnings.push(`Skipping ${dupes.length} duplicate recipient${dupes.length === 1 ? '' : 's'} so nobody gets the message twice: ${summarise(dupes, (d) => d)}.`);
  for (const code of undocumented) warnings.push(undocumentedCodeWarning(code));
  return { recipients: out, warnings };
}

export function undocumentedCodeWarning(code: string): string {
  return `Country code ${code} is not in the service's documented list of supported codes; the service may refuse it.`;
}
