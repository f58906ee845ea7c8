// A short-lived local cache of group names and codes, and of campaign codes, for shell
// completion: every command that lists groups refreshes the first, `campaign create` and
// `campaign list` the second, and completion only reads them, so a Tab never waits for the
// network. One file per kind and profile (or the sandbox), 0600, in the config directory; a
// failure to write one never fails the command that wrote it.
import fs from 'node:fs';
import path from 'node:path';
import { isPlainText } from '../core/sanitize.js';
import { writeFileAtomicSync } from '../fs/safe-write.js';

/** Older than this, cached names are not offered (groups change). */
export const COMPLETION_CACHE_TTL_MS = 60 * 60_000;
/** Campaign codes never change; a deleted campaign's code offered for a month does no harm. */
export const CAMPAIGN_CACHE_TTL_MS = 30 * 24 * 60 * 60_000;

export interface CachedGroup {
  sn: string;
  name: string;
}

/** A campaign as completion offers it: its code (the name rides along for the cache's reader). */
export type CachedCampaign = CachedGroup;

type Kind = 'groups' | 'campaigns';
const TTL: Record<Kind, number> = { groups: COMPLETION_CACHE_TTL_MS, campaigns: CAMPAIGN_CACHE_TTL_MS };

/**
 * Whose groups a cache holds: the sandbox, or the profile in use — decided from the run's
 * resolved settings (--sandbox OR the profile's `sandbox true`), so the command that lists groups
 * and the completer that reads them pick the same file.
 */
export function groupCacheScope(s: { sandbox: boolean; profileName: string }): string {
  return s.sandbox ? 'sandbox' : `profile-${s.profileName}`;
}

function cacheFile(configDir: string, scope: string, kind: Kind = 'groups'): string {
  // The scope is a profile name (checked elsewhere) or "sandbox"; keep it to a plain file name.
  return path.join(configDir, 'cache', `${kind}-${scope.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

export function writeGroupCache(configDir: string, scope: string, groups: CachedGroup[], now = Date.now()): void {
  writeCache(configDir, scope, 'groups', groups, now);
}

function writeCache(configDir: string, scope: string, kind: Kind, groups: CachedGroup[], now: number): void {
  const file = cacheFile(configDir, scope, kind);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Whole or not at all (a private file beside it, fsynced, renamed; removed on failure).
    writeFileAtomicSync(file, JSON.stringify({ at: now, groups: groups.map((g) => ({ sn: g.sn, name: g.name })) }));
  } catch {
    // Completion is a convenience: never fail a command over it (a full disk included).
  }
}

/**
 * One page of groups (plain `groups list`): added to the names still fresh in the cache, since the
 * other pages were not looked at. The file keeps the time of its oldest fresh entries, so names
 * that have gone from the service still leave within the hour.
 */
export function mergeGroupCache(configDir: string, scope: string, page: CachedGroup[], now = Date.now()): void {
  mergeCache(configDir, scope, 'groups', page, now);
}

/** Campaigns just created or listed, added to the codes completion offers. */
export function mergeCampaignCache(configDir: string, scope: string, campaigns: CachedCampaign[], now = Date.now()): void {
  mergeCache(configDir, scope, 'campaigns', campaigns, now);
}

function mergeCache(configDir: string, scope: string, kind: Kind, page: CachedGroup[], now: number): void {
  // No cache yet, an unreadable or an expired one: start from this page.
  const held = cacheAt(configDir, scope, kind, now);
  const codes = new Set(page.map((g) => g.sn));
  writeCache(configDir, scope, kind, [...(held?.entries ?? []).filter((g) => !codes.has(g.sn)), ...page], held ? Math.min(now, held.at) : now);
}

export function readGroupCache(configDir: string, scope: string, now = Date.now()): CachedGroup[] {
  return readCache(configDir, scope, 'groups', now);
}

export function readCampaignCache(configDir: string, scope: string, now = Date.now()): CachedCampaign[] {
  return readCache(configDir, scope, 'campaigns', now);
}

function readCache(configDir: string, scope: string, kind: Kind, now: number): CachedGroup[] {
  return cacheAt(configDir, scope, kind, now)?.entries ?? [];
}

/** The cache while it is fresh: when it was started and its entries; undefined when none, unreadable or expired. One read. */
function cacheAt(configDir: string, scope: string, kind: Kind, now: number): { at: number; entries: CachedGroup[] } | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(cacheFile(configDir, scope, kind), 'utf8')) as { at?: number; groups?: CachedGroup[] };
    if (typeof data.at !== 'number' || now - data.at > TTL[kind] || !Array.isArray(data.groups)) return undefined;
    // A shell shows candidates raw: one carrying control characters (a hostile name) is not offered.
    return { at: data.at, entries: data.groups.filter((g) => typeof g?.sn === 'string' && typeof g?.name === 'string' && isPlainText(g.sn) && isPlainText(g.name)) };
  } catch {
    return undefined;
  }
}
