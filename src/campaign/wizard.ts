// `campaign create --wizard`: asks for whatever flags and the file left open, one question at a
// time, with the same rules as the flags (the answers go through compose.ts afterwards too, so
// nothing the wizard lets through skips a check). Never runs without a terminal.
//
// The questions come in steps (name, audience, A/B, subject, sender, content, …). The first pass
// asks every step's open fields, and Esc (or a list's Back entry) goes back to the previous
// question (wizard-nav.ts: the pass is replayed up to it). From the review, or after a refusal,
// `editAnswers` lets the user pick steps to answer again, each question showing the current
// answer as its default; Back there leaves that answer as it was.
import fs from 'node:fs';
import os from 'node:os';
import type { Context } from '../run/context.js';
import type { Prompter } from '../run/prompter.js';
import { GoBack, Navigator, withBack, type Answer } from './wizard-nav.js';
import type { Group, Template } from '../api/campaign-types.js';
import { STEPS, field, keysWhere, type AbDimension, type Draft, type DraftKey, type StepId } from './fields.js';
import { parseTestDuration } from './compose.js';
import { checkListFile } from './local-files.js';
import { parseSchedule } from './schedule.js';
import { isValidEmail as isEmail } from '../core/email.js';
import { pickGroups } from './group-picker.js';
import { forTerminal } from '../core/sanitize.js';
import { suggester } from '../core/suggest.js';

type Validate = (v: string) => true | string;

const required = (what: string): Validate => (v) => (v.trim() ? true : `${what} cannot be empty.`);
const maxLen = (what: string, max: number, optional = false): Validate => (v) => {
  if (!v.trim()) return optional ? true : `${what} cannot be empty.`;
  return [...v].length <= max ? true : `${what} is ${[...v].length} characters; at most ${max}.`;
};
const email: Validate = (v) => (isEmail(v.trim()) ? true : `"${v}" is not an email address.`);
const existingFile: Validate = (v) => (v.trim() && fs.existsSync(v.trim()) ? true : `There is no file ${v}.`);

export interface WizardDeps {
  /** The account's groups as they are now: called each time a group question opens or refreshes. */
  listGroups: () => Promise<Group[]>;
  listTemplates: () => Promise<Template[]>;
  profile: { fromAddress?: string; fromName?: string; footerLang?: string; timezone?: string };
  /** Groups seen so far by code, for naming picked groups in the edit menu. */
  known?: Map<string, Group>;
}

// The steps and which field each asks are the field table's (fields.ts).
export type { StepId };

/** The fields only one A/B test uses, and the ways of giving a campaign's content. */
const abFields = (dim: AbDimension | undefined): DraftKey[] => keysWhere((f) => f.ab !== undefined && f.ab !== dim);
const CONTENT_SOURCES = keysWhere((f) => f.oneOf === 'content');
/** What only analytics uses (cleared when it is turned off), and an A/B test's share and duration. */
const ANALYTICS_DETAILS = keysWhere((f, k) => f.step === 'analytics' && k !== 'ga');
const TEST_FIELDS = keysWhere((f) => f.step === 'test');
/** Spec section 8, from the table. */
const max = (k: DraftKey): number => field(k).max ?? Infinity;

/**
 * First pass: every step, asking only what is still open. Back replays the pass from the start
 * up to the question before (the template list is read once for all replays).
 */
export async function runWizard(ctx: Context, draft: Draft, deps: WizardDeps): Promise<Draft> {
  ctx.io.info('New campaign. Nothing is sent until you confirm at the end. Esc goes back to the previous question; Ctrl-C stops.');
  let templates: Promise<Template[]> | undefined;
  const once: WizardDeps = { ...deps, listTemplates: () => (templates ??= deps.listTemplates()) };
  let replay: Answer[] = [];
  let redo: Answer | undefined;
  for (;;) {
    const nav = new Navigator(ctx.prompter, replay, redo);
    const d: Draft = { ...draft };
    try {
      for (const step of STEPS) await askStep(ctx, nav, d, once, step, false);
      return d;
    } catch (e) {
      if (!(e instanceof GoBack)) throw e;
      ({ replay, redo } = Navigator.backFrom(nav.given));
    }
  }
}

/**
 * After a refusal: the user picks which answers to change (the steps the refusal points at come
 * first and are marked), each asked again with the current answer as default, until "Done".
 */
export async function editAnswers(ctx: Context, draft: Draft, deps: WizardDeps, suggested: StepId[]): Promise<Draft> {
  let d: Draft = { ...draft };
  for (;;) {
    const names = new Map([...(deps.known ?? new Map<string, Group>())].map(([sn, g]) => [sn, `${forTerminal(g.name, 40)} (${forTerminal(sn, 40)})`]));
    const order = [...suggested, ...STEPS.filter((s) => !suggested.includes(s))].filter((s) => s !== 'test' || d.ab);
    const choices = order.map((s) => ({ name: `${suggested.includes(s) ? '→ ' : '  '}${describeStep(d, s, names)}`, value: s as StepId | 'done' }));
    choices.push({ name: '  Done: review the campaign again', value: 'done' });
    let step: StepId | 'done';
    try {
      step = await ctx.prompter.select('Which answer do you want to change?', choices, { default: suggested[0], back: true });
    } catch (e) {
      if (e instanceof GoBack) return d; // back to the review
      throw e;
    }
    if (step === 'done') return d;
    const before = d;
    d = { ...d };
    try {
      await askStep(ctx, withBack(ctx.prompter), d, deps, step, true);
    } catch (e) {
      if (!(e instanceof GoBack)) throw e;
      d = before; // Back: this answer stays as it was
    }
  }
}

/** One line per step for the edit menu: what it holds now. */
function describeStep(d: Draft, s: StepId, names: Map<string, string>): string {
  const q = (v: unknown) => (v === undefined || v === '' ? '(none)' : `"${forTerminal(String(v), 50)}"`);
  const list = (codes: string[] | undefined) => (codes?.length ? codes.map((c) => names.get(c) ?? forTerminal(c, 40)).join(', ') : '(none)');
  switch (s) {
    case 'name': return `Name: ${q(d.name)}`;
    case 'audience': return d.once || d.list !== undefined ? `Audience: one-time list ${q(d.list)}` : `Audience: groups ${list(d.groups)}; excluded ${list(d.exclude)}`;
    case 'ab': return `A/B test: ${d.ab ?? 'no'}`;
    case 'subject': return d.ab === 'subject' ? `Subjects: A ${q(d.subjectA)}, B ${q(d.subjectB)}; preheaders: A ${q(d.preheaderA)}, B ${q(d.preheaderB)}` : `Subject ${q(d.subject)}; preheader ${q(d.preheader)}`;
    case 'sender': return d.ab === 'sender' ? `Senders: A ${q(d.fromNameA)} ${q(d.fromA)}, B ${q(d.fromNameB)} ${q(d.fromB)}` : `Sender: ${q(d.fromName)} ${q(d.from)}`;
    case 'content': return d.ab === 'content' ? `Html of A and B: ${q(d.htmlFileA ?? (d.htmlA && 'inline'))}, ${q(d.htmlFileB ?? (d.htmlB && 'inline'))}` : `Content: ${d.template !== undefined ? `template ${q(d.template)}` : d.htmlFile !== undefined ? `file ${q(d.htmlFile)}` : d.html !== undefined ? 'html given inline' : '(none)'}`;
    case 'footer': return `Footer language: ${String(d.footerLang ?? 'en')}`;
    case 'schedule': return `When: ${d.at !== undefined ? `${q(d.at)} ${d.timezone ?? ''}` : d.scheduleDate !== undefined ? `${q(d.scheduleDate)} UTC` : 'now'}`;
    case 'analytics': return `Analytics: ${d.ga ? `on (utm_campaign ${q(d.utmCampaign)}, utm_content ${q(d.utmContent)}${d.ecommerce ? ', e-commerce' : ''})` : 'off'}`;
    case 'test': return `Test share and duration: ${d.testPercent ?? '?'}% for ${d.testDuration ?? (d.testTime !== undefined ? `${d.testTime}${d.testUnit === 1 ? 'd' : 'h'}` : '?')}`;
  }
}

/** Asks one step through `p`. `redo`: ask every field of the step again (defaults: the current answers). */
async function askStep(ctx: Context, p: Prompter, d: Draft, deps: WizardDeps, step: StepId, redo: boolean): Promise<void> {
  const ask = (message: string, validate: Validate, def?: string) => p.input(message, { validate, default: def }).then((v) => v.trim());
  const open = (v: unknown) => redo || v === undefined;

  switch (step) {
    case 'name':
      if (open(d.name)) d.name = await ask('Campaign name (never shown in the mail):', required('The name'), d.name);
      return;

    case 'audience': {
      if (redo || (d.groups === undefined && !d.once && d.list === undefined)) {
        const wasOnce = d.once === true || d.list !== undefined;
        const audience = await p.select('Who gets it?', [
          { name: 'Contact groups', value: 'groups' },
          { name: 'A one-time list file (not stored, not de-duplicated)', value: 'once' },
        ], { default: wasOnce ? 'once' : 'groups' });
        if (audience === 'once') {
          d.once = true;
          delete d.groups;
          delete d.exclude;
        } else {
          delete d.once;
          delete d.list;
          const warn = (line: string) => ctx.io.warn(line);
          d.groups = await pickGroups(p, deps.listGroups, { role: 'send', checked: d.groups ?? [], warn, cmd: suggester(ctx) });
          if (redo || d.exclude === undefined) {
            const sending = new Map(d.groups.map((sn) => [sn, 'chosen to send to']));
            d.exclude = await pickGroups(p, deps.listGroups, { role: 'exclude', checked: d.exclude ?? [], unavailable: sending, warn, cmd: suggester(ctx) });
          }
        }
      }
      if (d.once && (redo || d.list === undefined)) {
        d.list = await ask('List file to upload (CSV with the header EMAIL,NAME):', (v) => {
          const problems: string[] = [];
          checkListFile(v.trim(), problems);
          return problems[0] ?? true;
        }, d.list);
      }
      return;
    }

    case 'ab': {
      if (!open(d.ab)) return;
      const before = d.ab;
      const ab = await p.select('A/B test?', [
        { name: 'No: one version', value: 'none' },
        { name: 'Subject: two subjects (each with its preheader)', value: 'subject' },
        { name: 'Sender: two sender names/addresses', value: 'sender' },
        { name: 'Content: two html bodies', value: 'content' },
      ], { default: before ?? 'none' });
      if (ab === 'none') delete d.ab;
      else d.ab = ab;
      if (redo && before !== d.ab) await switchTest(ctx, p, d, deps);
      return;
    }

    case 'subject':
      if (d.ab === 'subject') {
        // Spec endpoint 9, test 1: subjectA*/subjectB* and preheaderA/preheaderB.
        if (open(d.subjectA)) d.subjectA = await ask('Subject of version A (may hold ${FIELD} variables):', maxLen('The subject', max('subjectA')), d.subjectA ?? d.subject);
        if (open(d.preheaderA)) d.preheaderA = (await ask('Preheader of version A (optional, the preview line):', maxLen('The preheader', max('preheaderA'), true), d.preheaderA ?? d.preheader ?? '')) || undefined;
        if (open(d.subjectB)) d.subjectB = await ask('Subject of version B:', maxLen('The subject', max('subjectB')), d.subjectB);
        if (open(d.preheaderB)) d.preheaderB = (await ask('Preheader of version B (optional):', maxLen('The preheader', max('preheaderB'), true), d.preheaderB ?? '')) || undefined;
        delete d.subject;
        delete d.preheader;
      } else {
        if (open(d.subject)) d.subject = await ask('Subject (may hold ${FIELD} variables):', maxLen('The subject', max('subject')), d.subject ?? d.subjectA);
        if (open(d.preheader)) d.preheader = (await ask('Preheader (optional, the preview line):', maxLen('The preheader', max('preheader'), true), d.preheader ?? d.preheaderA ?? '')) || undefined;
      }
      return;

    case 'sender':
      if (d.ab === 'sender') {
        // Test 2: fromNameA*/fromNameB* and fromAddressA*/fromAddressB*.
        if (open(d.fromA)) d.fromA = await ask('Sender address of version A (verified in the back office):', email, d.fromA ?? d.from ?? deps.profile.fromAddress);
        if (open(d.fromNameA)) d.fromNameA = await ask('Sender name of version A:', maxLen('The sender name', max('fromNameA')), d.fromNameA ?? d.fromName ?? deps.profile.fromName);
        if (open(d.fromB)) d.fromB = await ask('Sender address of version B:', email, d.fromB ?? d.from ?? deps.profile.fromAddress);
        if (open(d.fromNameB)) d.fromNameB = await ask('Sender name of version B:', maxLen('The sender name', max('fromNameB')), d.fromNameB);
      } else {
        if (open(d.from)) d.from = await ask('Sender address (verified in the back office):', email, d.from ?? d.fromA ?? deps.profile.fromAddress);
        if (open(d.fromName)) d.fromName = await ask('Sender name:', maxLen('The sender name', max('fromName')), d.fromName ?? d.fromNameA ?? deps.profile.fromName);
      }
      return;

    case 'content':
      if (d.ab === 'content') {
        // Test 3: htmlContentA*/htmlContentB*, each from a file.
        if (redo || (d.htmlFileA === undefined && d.htmlA === undefined)) {
          d.htmlFileA = await ask('Html file of version A:', existingFile, d.htmlFileA ?? d.htmlFile);
          delete d.htmlA;
        }
        if (redo || (d.htmlFileB === undefined && d.htmlB === undefined)) {
          d.htmlFileB = await ask('Html file of version B:', existingFile, d.htmlFileB);
          delete d.htmlB;
        }
        for (const k of CONTENT_SOURCES) delete d[k];
      } else if (redo || (d.html === undefined && d.htmlFile === undefined && d.template === undefined)) {
        const source = await p.select('Content:', [
          { name: 'An html file', value: 'file' },
          { name: `Write it in your editor (${editorName(ctx)})`, value: 'editor' },
          { name: 'A saved template', value: 'template' },
        ], { default: d.template !== undefined ? 'template' : d.html !== undefined ? 'editor' : 'file' });
        const was = { htmlFile: d.htmlFile ?? d.htmlFileA, template: d.template, html: d.html ?? d.htmlA };
        for (const k of CONTENT_SOURCES) delete d[k];
        if (source === 'file') d.htmlFile = await ask('Html file:', existingFile, was.htmlFile);
        else if (source === 'editor') {
          d.html = await p.editor('Html content: press Enter to open your editor; save and close it to go on.', {
            default: was.html ?? '', postfix: '.html', env: ctx.env, validate: (v) => (v.trim() ? true : 'The html is empty: write the mail\'s html, save and close the editor.'),
          });
        } else {
          const templates = await deps.listTemplates();
          if (!templates.length) d.htmlFile = await ask('The account has no templates. Html file:', existingFile, was.htmlFile);
          else {
            d.template = await p.select('Template:', templates.map((t) => ({ name: `${forTerminal(t.name, 60)} (${forTerminal(t.id, 40)})`, value: t.id })), { default: was.template });
          }
        }
      }
      return;

    case 'footer':
      if (open(d.footerLang)) {
        const first = String(d.footerLang ?? deps.profile.footerLang ?? 'en');
        d.footerLang = await p.select('Footer language:', [{ name: 'English', value: 'en' }, { name: 'Chinese', value: 'zh' }], { default: first === 'zh' || first === '1' ? 'zh' : 'en' });
      }
      return;

    case 'schedule':
      if (redo || (d.at === undefined && d.scheduleDate === undefined)) {
        const scheduled = d.at !== undefined || d.scheduleDate !== undefined;
        const when = await p.select('When?', [{ name: 'Now', value: 'now' }, { name: 'At a date and time', value: 'later' }], { default: scheduled ? 'later' : 'now' });
        delete d.scheduleDate;
        delete d.timezoneCode;
        if (when === 'now') {
          delete d.at;
          delete d.timezone;
          return;
        }
        const zoneDefault = d.timezone ?? deps.profile.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
        d.timezone = await ask('Time zone (IANA zone such as Asia/Taipei, or a city such as TAIPEI):', (v) => {
          const s = parseSchedule('2999-01-01 00:00', v, 0, suggester(ctx));
          return s instanceof Error ? s.message : true;
        }, zoneDefault);
        d.at = await ask(`Send at (YYYY-MM-DD HH:MM, ${d.timezone} time):`, (v) => {
          const s = parseSchedule(v, d.timezone, ctx.clock.now(), suggester(ctx));
          return s instanceof Error ? s.message : true;
        }, d.at);
      }
      return;

    case 'analytics':
      if (open(d.ga)) {
        d.ga = await p.confirm('Track clicks with Google Analytics (UTM tags)?', d.ga ?? false);
        if (!d.ga) {
          for (const k of ANALYTICS_DETAILS) delete d[k];
          return;
        }
      }
      if (d.ga) {
        if (open(d.utmCampaign)) d.utmCampaign = await ask('utm_campaign:', required('utm_campaign'), d.utmCampaign);
        if (open(d.utmContent)) d.utmContent = await ask('utm_content:', required('utm_content'), d.utmContent);
        if (open(d.ecommerce)) d.ecommerce = await p.confirm('Also track e-commerce transactions?', d.ecommerce ?? false);
      }
      return;

    case 'test':
      if (!d.ab) return;
      if (open(d.testPercent)) {
        d.testPercent = await ask('Test share: percent of contacts that get A or B (0-100):', (v) =>
          /^\s*\d+(\.\d+)?\s*$/.test(v) && Number(v) <= 100 ? true : 'Give a number from 0 to 100.', d.testPercent === undefined ? undefined : String(d.testPercent));
      }
      if (redo || (d.testDuration === undefined && d.testTime === undefined)) {
        const was = d.testDuration ?? (d.testTime !== undefined ? `${d.testTime}${d.testUnit === 1 ? 'd' : 'h'}` : undefined);
        d.testDuration = await ask('Test duration before the better version goes to the rest (e.g. 4h or 2d):', (v) =>
          typeof parseTestDuration(v) === 'string' ? 'Give whole hours or days, e.g. 4h or 2d.' : true, was);
        delete d.testTime;
        delete d.testUnit;
      }
      return;
  }
}

/**
 * The A/B type changed while editing: ask what the new test needs (each step asks only its open
 * fields, defaulting to what the old test had), then drop the fields only the old test used,
 * which compose would refuse.
 */
async function switchTest(ctx: Context, p: Prompter, d: Draft, deps: WizardDeps): Promise<void> {
  for (const s of ['subject', 'sender', 'content', 'test'] as const) await askStep(ctx, p, d, deps, s, false);
  for (const k of abFields(d.ab as AbDimension | undefined)) delete d[k];
  if (!d.ab) for (const k of TEST_FIELDS) delete d[k];
}

/** The editor the content question opens, as @inquirer/prompts' editor picks it: $VISUAL, else $EDITOR, else vim (notepad on Windows). */
function editorName(ctx: Context): string {
  const set = ctx.env.VISUAL || ctx.env.EDITOR;
  if (set) return `$${ctx.env.VISUAL ? 'VISUAL' : 'EDITOR'}: ${forTerminal(set, 40)}`;
  return `${os.platform() === 'win32' ? 'notepad' : 'vim'}; set $EDITOR for another`;
}
