// DNS records as zone-file lines, ready to paste into a zone (RFC 1035 master-file syntax).
import type { DnsRecord } from '../../api/notify-types.js';

/** decisions row 21: record_type 0 TXT, 1 CNAME. */
export function recordType(r: DnsRecord): string {
  const t = (r as { record_type: unknown }).record_type;
  if (t === 0 || t === '0' || String(t).toUpperCase() === 'TXT') return 'TXT';
  if (t === 1 || t === '1' || String(t).toUpperCase() === 'CNAME') return 'CNAME';
  return String(t);
}

/** A name inside the domain becomes fully qualified (trailing dot); a relative one stays relative to the zone. */
function owner(name: string, domain: string): string {
  const n = name.trim();
  if (n.endsWith('.') || n === '@') return n;
  const lower = n.toLowerCase();
  return lower === domain.toLowerCase() || lower.endsWith(`.${domain.toLowerCase()}`) ? `${n}.` : n;
}

/** TXT strings are at most 255 bytes each; longer values are split into several quoted strings. */
function txt(value: string): string {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(value.slice(i, i + 255));
  return parts.map((p) => `"${p.replace(/(["\\])/g, '\\$1')}"`).join(' ');
}

export function zoneLines(records: DnsRecord[], domain: string, ttl = 3600): string[] {
  const rows = records.map((r) => {
    const type = recordType(r);
    const value = type === 'TXT' ? txt(r.value) : type === 'CNAME' && !r.value.endsWith('.') ? `${r.value}.` : r.value;
    return [owner(r.name, domain), String(ttl), 'IN', type, value];
  });
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i < 4 ? c.padEnd(w[i]) : c)).join('  '));
}
