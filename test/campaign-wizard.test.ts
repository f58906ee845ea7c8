// `campaign create --wizard` on a terminal: it asks for what flags did not give, and what it
// sends is the same spec body flags would produce. Without a terminal it refuses and names the
// flags to pass instead.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures, FUTURE_YEAR, writeFiles } from './helpers/campaign-setup.js';
import { pollUntil, GROUP_SETUP } from './helpers/campaign-api.js';
import { PICKER_ACTIONS } from '../src/campaign/group-picker.js';
import { BACK } from '../src/run/prompter.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
    'GET /campaign/v1/templates',
    'GET /campaign/v1/templates/:id',
  ],
});
const fx = campaignFixtures(sb.get);
let news: string;

beforeAll(async () => {
  news = await fx.group('Newsletter', 3);
});

describe('campaign create --wizard', () => {
  it('asks everything, then schedules the campaign it describes', async () => {
    const prompter = scriptedPrompter([
      'Wizard campaign', // name
      'groups', // who gets it
      [news], // groups to send to: the checkbox list
      [], // exclude none
      'none', // A/B
      'Hello ${NAME}', // subject
      '', // preheader
      'news@example.com', // from
      'Acme', // from name
      'template', // content source
      'tpl_welcome', // template
      'en', // footer
      'later', // when
      'Asia/Taipei', // time zone
      '2035-12-01 09:00', // at
      false, // analytics
      true, // confirm
    ]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect(prompter.asked.at(-1)).toBe('Schedule this campaign?');
    const [req] = fx.submits(from);
    expect(req.path).toBe('/v1/campaign/normal/submit');
    expect(req.body).toEqual({
      form: { name: 'Wizard campaign', selectedLists: [news], excludeLists: [] },
      content: { footerLang: 0, subject: 'Hello ${NAME}', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: expect.stringContaining('Welcome, ${NAME}!') },
      config: { schedule: { type: 1, timezone: 21, scheduleDate: '2035-12-01T01:00:00Z' }, ga: { enable: false, ecommerceEnable: false } },
    });
    expect(r.stdout).toMatch(/Created campaign to 1 group, scheduled for 2035-12-01 09:00 TAIPEI \(UTC\+08:00\): CP\w+/);
  });

  it('asks only what the flags left open', async () => {
    const prompter = scriptedPrompter(['none', '', 'zh', 'now', false, true]);
    const from = fx.mark();
    const r = await runCli(
      ['campaign', 'create', '--wizard', '--name', 'Half', '--group', news, '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'],
      { sandbox: sb.get(), tty: true, prompter },
    );
    expect(r.exitCode).toBe(0);
    expect(prompter.asked.join('\n')).not.toMatch(/name|Groups|Subject/);
    expect((fx.submits(from)[0].body as any).content.footerLang).toBe(1);
    expect((fx.submits(from)[0].body as any).config.schedule).toEqual({ type: 0 });
  });

  it('declining at the end, then quitting, sends nothing (exit 2)', async () => {
    const prompter = scriptedPrompter(['none', '', 'en', 'now', false, false, 'quit']);
    const from = fx.mark();
    const r = await runCli(
      ['campaign', 'create', '--wizard', '--name', 'No', '--group', news, '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'],
      { sandbox: sb.get(), tty: true, prompter },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(fx.submits(from)).toEqual([]);
  });

  it('answers still pass the local checks (a subject over 150 characters is refused, and can be stopped at)', async () => {
    const prompter = scriptedPrompter(['none', 'x'.repeat(151), '', 'en', 'now', false, 'stop']);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard', '--name', 'Long', '--group', news, '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('at most 150');
    expect(r.stderr).toMatch(/Your answers are saved in \S+\.json/);
    expect(fx.submits(from)).toEqual([]);
  });

  it('without a terminal: exit 2, naming the flags to pass, nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['campaign', 'create', '--wizard'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--wizard asks its questions on a terminal');
    expect(r.stderr).toContain('--name, --group, --subject');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});

describe('campaign create --wizard: A/B branches ask every field their versions need', () => {
  const base = ['--name', 'AB', '--group', '', '--html', '<p>x</p>', '--footer-lang', 'en'];
  const argv = () => ['campaign', 'create', '--wizard', ...base.map((a) => (a === '' ? news : a))];

  it('subject test: subjects and preheaders of A and B, all sent', async () => {
    // The groups came from a flag, so neither group question is asked.
    const prompter = scriptedPrompter(['subject', 'Hi A', 'Pre A', 'Hi B', 'Pre B', 'news@example.com', 'Acme', 'now', false, '20', '4h', true]);
    const from = fx.mark();
    const r = await runCli(argv(), { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect(prompter.asked).toEqual(expect.arrayContaining(['Preheader of version A (optional, the preview line):', 'Preheader of version B (optional):']));
    const [req] = fx.submits(from);
    expect(req.path).toBe('/v1/campaign/testing/submit');
    expect((req.body as any).content).toMatchObject({ testingOn: 1, subjectA: 'Hi A', subjectB: 'Hi B', preheaderA: 'Pre A', preheaderB: 'Pre B', testing: { proportion: 20, time: 4, unit: 0 } });
    expect((req.body as any).content).not.toHaveProperty('subject');
  });

  it('sender test: names and addresses of A and B', async () => {
    const prompter = scriptedPrompter(['sender', 'S', '', 'news@example.com', 'Acme A', 'noreply@example.com', 'Acme B', 'now', false, '10', '1d', true]);
    const from = fx.mark();
    const r = await runCli(argv(), { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).content).toMatchObject({
      testingOn: 2, subject: 'S', fromAddressA: 'news@example.com', fromNameA: 'Acme A', fromAddressB: 'noreply@example.com', fromNameB: 'Acme B',
    });
  });

  it('content test: the html of A and B', async () => {
    const dir = writeFiles({ 'a.html': '<p>version A</p>', 'b.html': '<p>version B</p>' });
    const prompter = scriptedPrompter(['content', 'S', '', 'news@example.com', 'Acme', `${dir}/a.html`, `${dir}/b.html`, 'now', false, '10', '2h', true]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard', '--name', 'AB', '--group', news, '--footer-lang', 'en'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    const content = (fx.submits(from)[0].body as any).content;
    expect(content).toMatchObject({ testingOn: 3, htmlContentA: '<p>version A</p>', htmlContentB: '<p>version B</p>' });
    expect(content).not.toHaveProperty('htmlContent');
  });
});

describe('campaign create --wizard: the group list is live', () => {
  it('a group still importing is listed but cannot be checked; after it finishes, Refresh makes it selectable', async () => {
    const delays = sb.get().sandbox.options.delays;
    const slow = (await fx.api.post('/v1/contacts/lists/insert', { name: 'Arriving' })).json.sn as string;
    const saved = delays.importProcessing;
    delays.importProcessing = 10 * 60_000;
    const started = await fx.api.post(`/v1/contacts/imports/${slow}/text`, { contacts: 'EMAIL,NAME\nnew1@example.org,New 1\nnew2@example.org,New 2' });
    try {
      const prompter = scriptedPrompter([
        'Picker', 'groups',
        async (entries) => {
          expect(entries.find((e) => e.includes(slow))).toMatch(/^\[ \] Arriving .*\(importing: not selectable/);
          // The import finishes while the question is open.
          delays.importProcessing = 0;
          await pollUntil(() => fx.api.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
          return [PICKER_ACTIONS.refresh];
        },
        (entries) => {
          expect(entries.find((e) => e.includes(slow))).toMatch(/^\[ \] Arriving \(\w+\) · 2 members$/);
          return [slow];
        },
        (entries) => {
          expect(entries.find((e) => e.includes(slow))).toMatch(/chosen to send to/); // cannot also be excluded
          return [];
        },
        'none', 'S', '', 'news@example.com', 'Acme', 'template', 'tpl_welcome', 'en', 'now', false, true,
      ]);
      const from = fx.mark();
      const r = await runCli(['campaign', 'create', '--wizard'], { sandbox: sb.get(), tty: true, prompter });
      expect(r.exitCode, r.stderr).toBe(0);
      expect((fx.submits(from)[0].body as any).form).toEqual({ name: 'Picker', selectedLists: [slow], excludeLists: [] });
    } finally {
      delays.importProcessing = saved;
    }
  });

  it('Find narrows the list by typing; the group found comes back checked', async () => {
    const prompter = scriptedPrompter([
      'Found', 'groups', [PICKER_ACTIONS.find], 'newsl',
      (entries) => {
        expect(entries.find((e) => e.includes(news))).toMatch(/^\[x\] Newsletter/);
        return [news];
      },
      [], 'none', 'S', '', 'news@example.com', 'Acme', 'template', 'tpl_welcome', 'en', 'now', false, true,
    ]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect((fx.submits(from)[0].body as any).form.selectedLists).toEqual([news]);
  });
});

describe('campaign create --wizard: review and refusal', () => {
  it('shows the whole request as a table before asking to send', async () => {
    const prompter = scriptedPrompter(['subject', 'Hi A', 'Pre A', 'Hi B', '', 'later', 'Asia/Taipei', `${FUTURE_YEAR}-12-01 09:00`, false, '20', '4h', false, 'quit']);
    const r = await runCli(['campaign', 'create', '--wizard', '--name', 'Shown', '--group', news, '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>Body text</p>', '--footer-lang', 'zh'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(2); // declined at the end
    const table = r.stderr.slice(r.stderr.indexOf('Review'));
    for (const [field, value] of [
      ['form.name', 'Shown'], ['form.selectedLists', `Newsletter (${news})`], ['form.excludeLists', '(none)'],
      ['content.subjectA', 'Hi A'], ['content.subjectB', 'Hi B'], ['content.preheaderA', 'Pre A'], ['content.preheaderB', '(none)'],
      ['content.fromName', 'Acme'], ['content.fromAddress', 'news@example.com'], ['content.htmlContent', '16 characters given inline'], ['content.footerLang', '1 (Chinese)'],
      ['content.testingOn', '1: subject test'], ['content.testing.proportion', '20%'], ['config.schedule.timezone', '21 (TAIPEI)'],
      ['config.schedule.scheduleDate', `${FUTURE_YEAR}-12-01T01:00:00Z (UTC)`], ['config.ga.enable', 'false'],
    ]) {
      expect(table, field).toMatch(new RegExp(`${field.replace(/\./g, '\\.')}\\s*│\\s*${value.replace(/[()|.]/g, (c) => `\\${c}`)}`));
    }
    expect(table).toContain(`${FUTURE_YEAR}-12-01 09:00 TAIPEI (UTC+08:00)`); // the local time beside the UTC one
    expect(table).toContain('<p>Body text</p>'); // a preview of the html
  });

  it('a refusal keeps the answers: says what to change, saves a --file draft, and retries after the change', async () => {
    const cfg = tempDir();
    const prompter = scriptedPrompter([
      'Refused once', 'groups', [news], [], 'none', 'Hello', 'Pre', 'nobody@unverified.example', 'Acme', 'template', 'tpl_welcome', 'en', 'now', false,
      true, // send → refused (40011)
      'edit',
      'sender', // which answer to change
      'news@example.com', 'Acme',
      'done',
      true, // send again
    ]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard'], { sandbox: sb.get(), tty: true, prompter, configDir: cfg, env: { NO_COLOR: '1' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('To fix it: Change the sender address to an address verified in the back office');
    const [refused, created] = fx.submits(from);
    expect((refused.body as any).content.fromAddress).toBe('nobody@unverified.example');
    // Everything else was kept: only the sender changed.
    expect(created.body).toEqual({ ...(refused.body as object), content: { ...(refused.body as any).content, fromAddress: 'news@example.com' } });

    const file = /Your answers are saved in (\S+\.json)\./.exec(r.stderr)![1];
    expect(file.startsWith(path.join(cfg, 'drafts'))).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(r.stderr).toContain(`mailctl campaign create --file ${file}`);

    // The draft is a campaign file: with the sender fixed by a flag, it sends the same request.
    const again = fx.mark();
    const viaFile = await runCli(['campaign', 'create', '--file', file, '--from', 'news@example.com'], { sandbox: sb.get() });
    expect(viaFile.exitCode).toBe(0);
    expect(fx.submits(again)[0].body).toEqual(created.body);
  });

  it('editing after a refusal can change the kind of test: the new one asks its fields, the old fields go', async () => {
    const prompter = scriptedPrompter([
      'none', '', 'now', false, true, // refused: unverified sender
      'edit', 'ab', 'subject', 'SA', 'PA', 'SB', '', '30', '2d', // now a subject test: its fields, then the test share
      'sender', 'news@example.com', 'Acme', 'done', true,
    ]);
    const from = fx.mark();
    const r = await runCli(
      ['campaign', 'create', '--wizard', '--name', 'Switch', '--group', news, '--subject', 'S', '--from', 'x@unverified.example', '--from-name', 'Acme', '--html', '<p>x</p>', '--footer-lang', 'en'],
      { sandbox: sb.get(), tty: true, prompter },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const [, created] = fx.submits(from);
    expect(created.path).toBe('/v1/campaign/testing/submit');
    expect((created.body as any).content).toEqual({
      footerLang: 0, testingOn: 1, subjectA: 'SA', subjectB: 'SB', preheaderA: 'PA', fromName: 'Acme', fromAddress: 'news@example.com', htmlContent: '<p>x</p>',
      testing: { proportion: 30, time: 2, unit: 1 },
    });
  });

  it('stopping after a refusal: exit 1, the draft and the command to send it carry --profile/--sandbox choices', async () => {
    const prompter = scriptedPrompter(['none', 'S', '', 'en', 'now', false, true, 'stop']);
    const r = await runCli(
      ['campaign', 'create', '--wizard', '--name', 'Stop', '--group', news, '--from', 'x@unverified.example', '--from-name', 'Acme', '--html', '<p>x</p>'],
      { sandbox: sb.get(), tty: true, prompter },
    );
    expect(r.exitCode).toBe(1);
    const file = /Your answers are saved in (\S+\.json)\./.exec(r.stderr)![1];
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'Stop', groups: [news], subject: 'S', from: 'x@unverified.example', html: '<p>x</p>' });
    expect(r.stderr.match(/The service refused the campaign/g)).toHaveLength(1); // said once, not again on exit
  });
});

describe('campaign create --wizard goes back, and nothing typed is lost at the review', () => {
  const given = ['--name', 'Nav', '--footer-lang', 'en'];
  const withGroup = () => ['campaign', 'create', '--wizard', ...given, '--group', news, '--html', '<p>x</p>'];

  it('Back (Esc) at a question asks the one before again, showing the earlier answer', async () => {
    const prompter = scriptedPrompter(['none', 'First subject', BACK, 'Second subject', '', 'news@example.com', 'Acme', 'now', false, true]);
    const from = fx.mark();
    const r = await runCli(withGroup(), { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Esc goes back to the previous question');
    const subject = 'Subject (may hold ${FIELD} variables):';
    expect(prompter.asked.slice(0, 4)).toEqual(['A/B test?', subject, 'Preheader (optional, the preview line):', subject]);
    expect(prompter.defaults[3]).toBe('First subject'); // asked again with what was typed
    expect((fx.submits(from)[0].body as any).content.subject).toBe('Second subject');
  });

  it('going back across a branch: from an A/B subject test back to "A/B test?", then one version', async () => {
    const prompter = scriptedPrompter(['subject', 'Hi A', BACK, BACK, 'none', 'One subject', '', 'news@example.com', 'Acme', 'now', false, true]);
    const from = fx.mark();
    const r = await runCli(withGroup(), { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(prompter.asked[4]).toBe('A/B test?');
    expect(prompter.defaults[4]).toBe('subject');
    const [req] = fx.submits(from);
    expect(req.path).toBe('/v1/campaign/normal/submit');
    expect((req.body as any).content).toMatchObject({ subject: 'One subject' });
    expect((req.body as any).content).not.toHaveProperty('subjectA');
  });

  it('Back from the groups to exclude returns to the groups to send to, still checked', async () => {
    const prompter = scriptedPrompter(['groups', [news], BACK, [news], [], 'none', 'S', '', 'news@example.com', 'Acme', 'now', false, true]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard', ...given, '--html', '<p>x</p>'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(prompter.asked[3]).toMatch(/^Groups to send to/);
    expect(prompter.defaults[3]).toEqual([news]);
    expect((fx.submits(from)[0].body as any).form.selectedLists).toEqual([news]);
  });

  it('declining at the review offers to change any answer, then reviews again; Back inside an edit keeps that answer', async () => {
    const prompter = scriptedPrompter([
      'none', 'Old subject', '', 'news@example.com', 'Acme', 'now', false,
      false, 'change', // not sent: change an answer
      'sender', BACK, // start changing the sender, then go back: it stays
      'subject', 'New subject', 'New preheader', 'done',
      true, // the second review: send
    ]);
    const from = fx.mark();
    const r = await runCli(withGroup(), { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(prompter.asked.filter((q) => q === 'Send this campaign now?')).toHaveLength(2);
    expect(r.stderr.match(/Review: this is the whole request/g)).toHaveLength(2);
    const [req] = fx.submits(from);
    expect((req.body as any).content).toMatchObject({ subject: 'New subject', preheader: 'New preheader', fromAddress: 'news@example.com', fromName: 'Acme' });
  });

  it('declining and saving a draft: nothing sent, exit 0, the file and the command that sends it', async () => {
    const cfg = tempDir();
    const prompter = scriptedPrompter(['none', 'Kept', '', 'news@example.com', 'Acme', 'now', false, false, 'draft']);
    const from = fx.mark();
    const r = await runCli(withGroup(), { sandbox: sb.get(), tty: true, prompter, configDir: cfg, env: { NO_COLOR: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fx.submits(from)).toEqual([]);
    const file = /Saved as a draft, nothing sent: (\S+\.json)/.exec(r.stdout)![1];
    expect(path.dirname(file)).toBe(path.join(cfg, 'drafts'));
    expect(r.stderr).toContain(`Send it with: mailctl campaign create --file ${file}`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'Nav', groups: [news], subject: 'Kept', from: 'news@example.com', fromName: 'Acme', html: '<p>x</p>' });
    // The printed command sends it as reviewed.
    const sent = await runCli(['campaign', 'create', '--file', file], { sandbox: sb.get(), configDir: cfg });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect((fx.submits(from)[0].body as any).content).toMatchObject({ subject: 'Kept', htmlContent: '<p>x</p>' });
  });

  it('html can be written in $EDITOR', async () => {
    const prompter = scriptedPrompter(['none', 'S', '', 'news@example.com', 'Acme', 'editor', '<p>Written in the editor</p>', 'now', false, true]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard', ...given, '--group', news], { sandbox: sb.get(), tty: true, prompter, env: { EDITOR: 'nano' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(prompter.asked).toContain('Html content: press Enter to open your editor; save and close it to go on.');
    expect((fx.submits(from)[0].body as any).content.htmlContent).toBe('<p>Written in the editor</p>');
  });
});
