// Lists mailctl copies from the spec are checked against verbatim excerpts of the spec text kept
// in this repository (docs/spec/*-excerpts.txt, each naming its source), so a typo in a code list
// cannot hide behind tests that share it, and the suite needs nothing outside the repository.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_SMS_COUNTRY_CODES, ITU_CALLING_CODES, SPEC_SMS_COUNTRY_CODES, VENDOR_SMS_COUNTRY_CODES } from '../src/spec/sms-country-codes.js';
import { RESERVED_COLUMNS, SPEC_RESERVED_COLUMNS, VENDOR_RESERVED_COLUMNS } from '../src/spec/reserved-columns.js';
import { EVENT_FIELDS, EVENT_TYPE_CODES, ID_FIELDS, SIGNATURE_HEADERS } from '../src/spec/webhook-signing.js';
import { EMAIL_WEBHOOK_TYPES } from '../src/api/notify-types.js';
import { TIME_ZONE_CODES } from '../src/spec/timezones.js';
import { CAMPAIGN_CODES, REMOVAL_CODES } from '../src/cli/service-codes.js';
import { SIGNED_EVENTS } from '../src/webhook/signature.js';
import { CAMPAIGN_STATUSES } from '../src/spec/campaign-statuses.js';
import { STATUS_WORDS } from '../src/campaign/statuses.js';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'spec');
const specText = (name: string) => fs.readFileSync(path.join(specDir, name), 'utf8');
const campaign = specText('campaign-excerpts.txt');
const notify = specText('notify-excerpts.txt');
const vendor = specText('vendor-excerpts.txt');
/** One `## …` section of the vendor excerpts, its lines joined (bullets wrap). */
const vendorSection = (title: string) => {
  const start = vendor.indexOf(`## ${title}`);
  const end = vendor.indexOf('\n## ', start + 1);
  return vendor.slice(start, end < 0 ? undefined : end).replace(/\n\s+/g, ' ');
};

describe('data copied from the spec matches the spec text', () => {
  it('SMS country codes: every code of spec 001 "SMS country codes supported", and no other', () => {
    const section = notify.slice(notify.indexOf('**SMS country codes supported**'), notify.indexOf('**SMS content rules'));
    const codes = new Set([...section.matchAll(/^- [A-Za-z]+: (.*)$/gm)].flatMap((m) => m[1].split(/,\s*/)));
    expect(codes.size).toBeGreaterThan(150);
    expect([...SPEC_SMS_COUNTRY_CODES].sort()).toEqual([...codes].sort());
  });

  it('reserved column names: the list of spec 000 section 2', () => {
    const line = campaign.split('\n').find((l) => l.includes('Reserved column names'))!;
    const names = line.slice(line.indexOf('):') + 2, line.indexOf('. Eight')).split(',').map((s) => s.trim());
    expect(names).toContain('NL_SUBSCRIBE_FORM_SN');
    expect([...SPEC_RESERVED_COLUMNS].sort()).toEqual(names.sort());
  });

  it('time-zone codes: the 88 codes of spec 000 section 2, each with its city', () => {
    const line = campaign.split('\n').find((l) => l.includes('Time zone codes'))!;
    const pairs = [...line.matchAll(/(\d+) ([A-Z_]+)/g)].map((m) => [Number(m[1]), m[2]]);
    expect(pairs).toHaveLength(88);
    expect(TIME_ZONE_CODES.map((z) => [z.code, z.city])).toEqual(pairs);
  });

  it('error codes: every campaign code of section 7 and every contact-removal code has a sentence', () => {
    const table = campaign.slice(campaign.indexOf('Campaign codes (40012'), campaign.indexOf('Contact removal codes'));
    const codes = [...table.matchAll(/^\| (\d{5}) \|/gm)].map((m) => m[1]);
    expect(codes).toHaveLength(15);
    for (const c of codes) expect(CAMPAIGN_CODES[c], c).toBeTruthy();
    const removal = [...campaign.matchAll(/(400503\d\d) /g)].map((m) => m[1]);
    expect(removal).toHaveLength(5);
    for (const c of removal) expect(REMOVAL_CODES[c], c).toBeTruthy();
  });

  it('campaign statuses: the list of spec 000 section 3, each described in words', () => {
    const row = campaign.split('\n').find((l) => l.startsWith('| Campaign status |'))!;
    const names = row.split('|')[2].split(',').map((s) => s.trim().replace(/ \(.*\)$/, ''));
    expect(names).toContain('PREPARE_TO_SENT');
    expect([...CAMPAIGN_STATUSES]).toEqual(names);
    expect(Object.keys(STATUS_WORDS).sort()).toEqual([...CAMPAIGN_STATUSES].sort());
  });

  it('webhook event names: the list of each channel in spec 001 section 6, and none ends another (so a signature has one split)', () => {
    const listed = (label: string) => notify.split('\n').find((l) => l.startsWith(`**${label} payload**`))!.match(/`event` \(([^)]*)\)/)![1].split(/,\s*/);
    expect([...SIGNED_EVENTS.email]).toEqual(listed('Email'));
    expect([...SIGNED_EVENTS.sms]).toEqual(listed('SMS'));
    // The signed text is id + event: were one name a suffix of another, "X" + "longname" and
    // "X…" + "name" would share a signature.
    const all = [...new Set([...SIGNED_EVENTS.email, ...SIGNED_EVENTS.sms])];
    for (const a of all) for (const b of all) if (a !== b) expect(a.endsWith(b), `${a} ends with ${b}`).toBe(false);
  });
});

describe('data copied from the vendor\'s reference (docs/spec/vendor-excerpts.txt) matches it', () => {
  it('decisions row 33: the eight reserved import columns the spec omits, and the import\'s list is both', () => {
    const bullet = vendorSection('Campaign service');
    const names = [...bullet.slice(bullet.indexOf('Eight more reserved')).matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]);
    expect(names).toHaveLength(8);
    expect([...VENDOR_RESERVED_COLUMNS].sort()).toEqual([...names].sort());
    expect([...RESERVED_COLUMNS].sort()).toEqual([...SPEC_RESERVED_COLUMNS, ...names].sort());
  });

  it('decisions row 24: the SMS country codes the vendor\'s examples use beyond the spec\'s list (886), each a real calling code', () => {
    const codes = [...vendorSection('SMS').matchAll(/`(\d+)`/g)].map((m) => m[1]);
    expect(codes).toEqual(['886']);
    expect([...VENDOR_SMS_COUNTRY_CODES]).toEqual(codes);
    for (const c of codes) {
      expect(SPEC_SMS_COUNTRY_CODES.has(c), `${c} is new to the spec's list`).toBe(false);
      expect(ITU_CALLING_CODES.has(c)).toBe(true);
      expect(DOCUMENTED_SMS_COUNTRY_CODES.has(c)).toBe(true);
    }
  });

  it('decisions row 27: the signature headers, id and event fields, and the type codes of the events', () => {
    const hooks = vendorSection('Webhooks');
    expect(SIGNATURE_HEADERS[0]).toBe(notify.match(/The header `([a-z-]+)` carries/)![1]);
    expect(SIGNATURE_HEADERS[1]).toBe(hooks.match(/Header `([a-z-]+)`/)![1]);
    const ids = hooks.match(/read the id from (.*?) and the event/)![1];
    expect(ID_FIELDS.map((p) => p.join('.'))).toEqual([...ids.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]));
    const events = hooks.match(/the event from (.*?), as a name/)![1];
    expect([...EVENT_FIELDS]).toEqual([...events.matchAll(/`(\w+)`/g)].map((m) => m[1]));
    const codes = Object.fromEntries([...hooks.match(/as the type code \(([^)]*)\)/)![1].matchAll(/(\d) (\w+)/g)].map((m) => [m[2], Number(m[1])]));
    expect(EVENT_TYPE_CODES).toEqual(codes);
    // The vendor's codes are the spec's webhook types (spec 001 section 2), so a type code names one event.
    expect(codes).toEqual(EMAIL_WEBHOOK_TYPES);
    // The troubleshooting page's example: the id followed by the code.
    expect(hooks).toContain('(`"msg-123" + "3"`)');
  });
});
