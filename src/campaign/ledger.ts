// The campaign ledger: one line per campaign mailctl created, so `campaign list` can show
// campaigns the service will not list (spec 000 has no listing endpoint; endpoint 14 lists only
// finished campaigns). One file per account — a profile and its campaign-service URL, or the
// sandbox — under <config>/campaigns/, named by a hash of that key (a URL never becomes a path).
//
// Written once the service has answered with the code (write, then acknowledge): each record is
// appended whole or not at all (src/fs/append-whole.ts), fsync'd, before `campaign create` says
// "Created". Appends are single O_APPEND writes, so two runs creating at once each add their own
// line; a line left without its newline (a crash the cut-back could not repair) is closed before
// the next record, and is reported by the reader instead of being mistaken for a campaign.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { appendWhole, asDiskError, cutTornTail } from '../fs/append-whole.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/safe-write.js';
import type { Group } from '../api/campaign-types.js';
import type { Composed } from './compose.js';

export const LEDGER_VERSION = 1;

export interface LedgerGroup {
  code: string;
  /** The group's name when the campaign was created (names can change; the code is what counts). */
  name?: string;
}

/** What mailctl knows of a campaign it created: the request's facts, never the service's state. */
export interface LedgerEntry {
  v: typeof LEDGER_VERSION;
  code: string;
  name: string;
  /** The service's campaign type (spec 000 section 2, `type`). */
  kind: 'REGULAR' | 'A_B_TEST';
  /** The A/B test's dimension, or null for a regular campaign. */
  abTest: 'subject' | 'sender' | 'content' | null;
  /** Sent to a one-time uploaded list instead of groups. */
  once: boolean;
  groups: LedgerGroup[];
  exclude: LedgerGroup[];
  /** null: sent at creation ("send now"). */
  schedule: { date: string; timezone: number; city: string } | null;
  /** ISO 8601 UTC, this machine's clock at creation. */
  createdAt: string;
}

/** The ledger of one account: `key` names it (profile and normalised campaign-service URL, or the sandbox). */
export function ledgerPath(configDir: string, key: string): string {
  const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return path.join(configDir, 'campaigns', `ledger-${id}.jsonl`);
}

/** Appends one record, whole and on disk, before returning; a disk failure is a DiskError naming the file. */
export function recordCampaign(file: string, entry: LedgerEntry): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), PRIVATE_FILE_MODE);
    try {
      // A line a killed run left torn was never acknowledged ("listed": false): cut, not kept.
      cutTornTail(fd);
      appendWhole(fd, JSON.stringify(entry) + '\n', file);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw asDiskError(e, file);
  }
}


export interface LedgerRead {
  entries: LedgerEntry[];
  /** Lines that are not a record (cut short, edited by hand): "line N: why". */
  problems: string[];
}

/** Every record, oldest first. No file yet is an empty ledger. */
export function readLedger(file: string): LedgerRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] };
    throw e;
  }
  const entries: LedgerEntry[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1}: not JSON (cut short?)`);
      return;
    }
    const why = entryProblem(parsed);
    if (why) problems.push(`line ${i + 1}: ${why}`);
    else entries.push(parsed as LedgerEntry);
  });
  return { entries, problems };
}

/** Checks a record field by field: what is printed and filtered on must be what it claims. */
function entryProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a record';
  const e = v as Record<string, unknown>;
  if (e.v !== LEDGER_VERSION) return `version ${JSON.stringify(e.v)}, not ${LEDGER_VERSION}`;
  if (typeof e.code !== 'string' || !e.code) return 'no campaign code';
  if (typeof e.name !== 'string') return 'no name';
  if (e.kind !== 'REGULAR' && e.kind !== 'A_B_TEST') return 'kind is neither REGULAR nor A_B_TEST';
  if (e.abTest !== null && e.abTest !== 'subject' && e.abTest !== 'sender' && e.abTest !== 'content') return 'abTest is not subject, sender, content or null';
  if (typeof e.once !== 'boolean') return 'once is not true or false';
  const groups = (g: unknown) => Array.isArray(g) && g.every((x) => typeof x?.code === 'string' && (x.name === undefined || typeof x.name === 'string'));
  if (!groups(e.groups) || !groups(e.exclude)) return 'groups are not a list of {code, name}';
  const s = e.schedule as Record<string, unknown> | null;
  if (s !== null && (typeof s !== 'object' || typeof s.date !== 'string' || Number.isNaN(Date.parse(s.date)) || typeof s.timezone !== 'number' || typeof s.city !== 'string')) return 'schedule is not {date, timezone, city} or null';
  if (typeof e.createdAt !== 'string' || Number.isNaN(Date.parse(e.createdAt))) return 'createdAt is not a date';
  return undefined;
}

/** The record of a campaign the service just created from `c`; `groups` (when read) name its lists. */
export function entryFor(c: Composed, code: string, groups: readonly Group[], now: number): LedgerEntry {
  const named = (codes: string[] | undefined): LedgerGroup[] =>
    (codes ?? []).map((sn) => {
      const g = groups.find((x) => x.sn === sn);
      return g ? { code: sn, name: g.name } : { code: sn };
    });
  return {
    v: LEDGER_VERSION,
    code,
    name: c.request.form.name,
    kind: c.ab ? 'A_B_TEST' : 'REGULAR',
    abTest: c.ab ?? null,
    once: c.once,
    groups: named(c.request.form.selectedLists),
    exclude: named(c.request.form.excludeLists),
    schedule: c.schedule ? { date: c.schedule.scheduleDate, timezone: c.schedule.timezone, city: c.schedule.zone.city } : null,
    createdAt: new Date(now).toISOString(),
  };
}
