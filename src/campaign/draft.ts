// A campaign as the user describes it, before it becomes the spec's request: flags, a JSON file
// and the wizard all fill this one flat shape, so one set of checks and one builder serve all
// three. Every field is optional here; compose.ts says what is missing. The fields, their types
// and the flat keys come from the one table of campaign fields (fields.ts).
import { FLAG_ATTRIBUTES, FIELD_KEYS, field, type CreateFlags, type Draft } from './fields.js';

export { type CreateFlags, type Draft } from './fields.js';

/** The flags commander parsed → draft keys (`--group` fills `groups`); only the given ones. */
export function draftFromFlags(f: CreateFlags): Draft {
  const given = f as Record<string, unknown>;
  const d: Record<string, unknown> = {};
  for (const [key, attribute] of FLAG_ATTRIBUTES) if (given[attribute] !== undefined) d[key] = given[attribute];
  return d as Draft;
}

/**
 * Flags win over the file. A flag that gives one of several ways to one value (a content source,
 * a schedule, a test duration: the table's `oneOf`) drops the file's other ways.
 */
export function mergeDrafts(file: Draft, flags: Draft): Draft {
  const out: Draft = { ...file, ...flags };
  const chosen = new Set(FIELD_KEYS.filter((k) => flags[k] !== undefined).map((k) => field(k).oneOf).filter(Boolean));
  for (const k of FIELD_KEYS) if (chosen.has(field(k).oneOf) && flags[k] === undefined) delete out[k];
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
