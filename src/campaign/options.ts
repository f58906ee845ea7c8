// The campaign fields as commander options and as help text, both read from the one table
// (fields.ts): `campaign create` declares these, and `preflight` and `proof` share them.
import { Option } from 'commander';
import { collect } from '../core/collect.js';
import { offer } from '../run/offer.js';
import { FIELD_KEYS, field, type DraftKey } from './fields.js';

/** One commander option per field that has a flag, in table order. */
export function campaignOptions(): Option[] {
  return FIELD_KEYS.flatMap((k) => {
    const f = field(k);
    if (!f.flag) return [];
    const o = new Option(f.flag, f.help);
    if (f.type === 'list') o.argParser(collect);
    return [f.offer ? offer(o, f.offer) : o];
  });
}

/**
 * The flat form of a campaign file for the help: a JSON object of the fields that carry an
 * example, wrapped to `width`, then "(also: …)" naming the other flat keys (A/B pairs as preheaderA/B).
 */
export function flatFileHelp(width = 100): string {
  const flat = FIELD_KEYS.filter((k) => field(k).flat !== false);
  const items = flat.flatMap((k) => (field(k).example === undefined ? [] : [`${JSON.stringify(k)}: ${JSON.stringify(field(k).example)}`]));
  const lines: string[] = [];
  let line = '  {';
  items.forEach((item, i) => {
    const text = item + (i === items.length - 1 ? '}' : ',');
    if (line.trim().length > 1 && line.length + 1 + text.length > width) {
      lines.push(line);
      line = '   ';
    } else if (line.trim().length > 1) line += ' ';
    line += text;
  });
  lines.push(line);
  return `${lines.join('\n')}\n(also: ${pairs(flat.filter((k) => field(k).example === undefined)).join(', ')}).`;
}

/** subjectA, subjectB → subjectA/B. */
function pairs(keys: DraftKey[]): string[] {
  return keys.flatMap((k) => {
    if (k.endsWith('B') && keys.includes(`${k.slice(0, -1)}A` as DraftKey)) return [];
    if (k.endsWith('A') && keys.includes(`${k.slice(0, -1)}B` as DraftKey)) return [`${k}/B`];
    return [k];
  });
}
