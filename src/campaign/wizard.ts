// `campaign create --wizard`: asks for whatever flags and the file left open, one question at a
// time, with the same rules as the flags (the answers go through compose.ts afterwards too, so
// nothing the wizard lets through skips a check). Never runs without a terminal.
import fs from 'node:fs';
import type { Context } from '../cli/context.js';
import type { Group, Template } from '../api/campaign-types.js';
import type { Draft } from './draft.js';
import { LIMITS } from './compose.js';
import { resolveGroups } from './groups.js';
import { checkListFile } from './local-files.js';
import { parseSchedule } from './schedule.js';
import { isEmail } from '../send/recipients.js';
import { forTerminal } from '../output/sanitize.js';

type Validate = (v: string) => true | string;

const splitList = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
const required = (what: string): Validate => (v) => (v.trim() ? true : `${what} cannot be empty.`);
const maxLen = (what: string, max: number, optional = false): Validate => (v) => {
  if (!v.trim()) return optional ? true : `${what} cannot be empty.`;
  return [...v].length <= max ? true : `${what} is ${[...v].length} characters; at most ${max}.`;
};
const email: Validate = (v) => (isEmail(v.trim()) ? true : `"${v}" is not an email address.`);
const existingFile: Validate = (v) => (v.trim() && fs.existsSync(v.trim()) ? true : `There is no file ${v}.`);

export interface WizardDeps {
  listGroups: () => Promise<Group[]>;
  listTemplates: () => Promise<Template[]>;
  profile: { fromAddress?: string; fromName?: string; footerLang?: string; timezone?: string };
}

export async function runWizard(ctx: Context, draft: Draft, deps: WizardDeps): Promise<Draft> {
  const p = ctx.prompter;
  const d: Draft = { ...draft };
  const ask = (message: string, validate: Validate, def?: string) => p.input(message, { validate, default: def }).then((v) => v.trim());
  ctx.io.info('New campaign. Nothing is sent until you confirm at the end (Ctrl-C stops).');

  if (d.name === undefined) d.name = await ask('Campaign name (never shown in the mail):', required('The name'));

  if (d.groups === undefined && !d.once && d.list === undefined) {
    const audience = await p.select('Who gets it?', [
      { name: 'Contact groups', value: 'groups' },
      { name: 'A one-time list file (not stored, not de-duplicated)', value: 'once' },
    ]);
    if (audience === 'once') d.once = true;
    else {
      const groups = await deps.listGroups();
      if (!groups.length) ctx.io.warn('The account has no groups yet; create one with `mailctl groups create` and import contacts first.');
      for (const g of groups) ctx.io.info(`  ${forTerminal(g.sn, 60)}  ${forTerminal(g.name, 100)}  ${forTerminal(g.subscribedCnt ?? 0, 20)} members${g.status === 'PROCESSING' ? '  (importing: not usable yet)' : ''}`);
      const check = (role: 'send' | 'exclude', optional: boolean): Validate => (v) => {
        if (!v.trim()) return optional ? true : 'Name at least one group.';
        const r = resolveGroups(splitList(v), groups, role);
        return r.problems.length ? r.problems[0] : true;
      };
      d.groups = splitList(await ask('Groups to send to (names or codes, comma-separated):', check('send', false)));
      if (d.exclude === undefined) d.exclude = splitList(await ask('Groups to exclude (optional, comma-separated):', check('exclude', true), ''));
    }
  }
  if (d.once && d.list === undefined) {
    d.list = await ask('List file to upload (CSV with the header EMAIL,NAME):', (v) => {
      const problems: string[] = [];
      checkListFile(v.trim(), problems);
      return problems[0] ?? true;
    });
  }

  if (d.ab === undefined) {
    const ab = await p.select('A/B test?', [
      { name: 'No: one version', value: 'none' },
      { name: 'Subject: two subjects', value: 'subject' },
      { name: 'Sender: two sender names/addresses', value: 'sender' },
      { name: 'Content: two html bodies', value: 'content' },
    ]);
    if (ab !== 'none') d.ab = ab;
  }

  if (d.ab === 'subject') {
    d.subjectA ??= await ask('Subject of version A:', maxLen('The subject', LIMITS.subject));
    d.subjectB ??= await ask('Subject of version B:', maxLen('The subject', LIMITS.subject));
  } else {
    d.subject ??= await ask('Subject (may hold ${FIELD} variables):', maxLen('The subject', LIMITS.subject));
    d.preheader ??= (await ask('Preheader (optional, the preview line):', maxLen('The preheader', LIMITS.preheader, true), '')) || undefined;
  }

  if (d.ab === 'sender') {
    d.fromA ??= await ask('Sender address of version A (verified in the back office):', email, d.from ?? deps.profile.fromAddress);
    d.fromNameA ??= await ask('Sender name of version A:', maxLen('The sender name', LIMITS.fromName), d.fromName ?? deps.profile.fromName);
    d.fromB ??= await ask('Sender address of version B:', email, d.from ?? deps.profile.fromAddress);
    d.fromNameB ??= await ask('Sender name of version B:', maxLen('The sender name', LIMITS.fromName));
  } else {
    d.from ??= await ask('Sender address (verified in the back office):', email, deps.profile.fromAddress);
    d.fromName ??= await ask('Sender name:', maxLen('The sender name', LIMITS.fromName), deps.profile.fromName);
  }

  if (d.ab === 'content') {
    d.htmlFileA ??= await ask('Html file of version A:', existingFile);
    d.htmlFileB ??= await ask('Html file of version B:', existingFile);
  } else if (d.html === undefined && d.htmlFile === undefined && d.template === undefined) {
    const source = await p.select('Content:', [
      { name: 'An html file', value: 'file' },
      { name: 'A saved template', value: 'template' },
    ]);
    if (source === 'file') d.htmlFile = await ask('Html file:', existingFile);
    else {
      const templates = await deps.listTemplates();
      if (!templates.length) d.htmlFile = await ask('The account has no templates. Html file:', existingFile);
      else d.template = await p.select('Template:', templates.map((t) => ({ name: `${forTerminal(t.name, 100)} (${forTerminal(t.id, 60)})`, value: t.id })));
    }
  }

  if (d.footerLang === undefined) {
    const first = deps.profile.footerLang === 'zh' ? 'zh' : 'en';
    const langs = [{ name: 'English', value: 'en' }, { name: 'Chinese', value: 'zh' }];
    d.footerLang = await p.select('Footer language:', first === 'zh' ? langs.reverse() : langs);
  }

  if (d.at === undefined && d.scheduleDate === undefined) {
    const when = await p.select('When?', [{ name: 'Now', value: 'now' }, { name: 'At a date and time', value: 'later' }]);
    if (when === 'later') {
      const zoneDefault = d.timezone ?? deps.profile.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      d.timezone = await ask('Time zone (IANA zone such as Asia/Taipei, or a city such as TAIPEI):', (v) => {
        const s = parseSchedule('2999-01-01 00:00', v, 0);
        return s instanceof Error ? s.message : true;
      }, zoneDefault);
      d.at = await ask(`Send at (YYYY-MM-DD HH:MM, ${d.timezone} time):`, (v) => {
        const s = parseSchedule(v, d.timezone, ctx.clock.now());
        return s instanceof Error ? s.message : true;
      });
    }
  }

  if (d.ga === undefined) {
    d.ga = await p.confirm('Track clicks with Google Analytics (UTM tags)?', false);
    if (d.ga) {
      d.utmCampaign ??= await ask('utm_campaign:', required('utm_campaign'));
      d.utmContent ??= await ask('utm_content:', required('utm_content'));
      d.ecommerce ??= await p.confirm('Also track e-commerce transactions?', false);
    }
  }

  if (d.ab) {
    d.testPercent ??= await ask('Test share: percent of contacts that get A or B (0-100):', (v) =>
      /^\s*\d+(\.\d+)?\s*$/.test(v) && Number(v) <= 100 ? true : 'Give a number from 0 to 100.');
    if (d.testDuration === undefined && d.testTime === undefined) {
      d.testDuration = await ask('Test duration before the better version goes to the rest (e.g. 4h or 2d):', (v) =>
        /^\s*[1-9]\d*\s*[hd]\s*$/i.test(v) ? true : 'Give whole hours or days, e.g. 4h or 2d.');
    }
  }
  return d;
}
