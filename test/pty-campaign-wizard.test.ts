// `campaign create --wizard` typed at a real terminal: the built binary runs under a pty
// (`script`), the test reads the screen and presses keys, and the loopback sandbox says what
// was sent. The in-process tests script the Prompter; these prove the real prompts (checkbox
// list, refresh, review, refusal menu) work with real keys.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { pollUntil, GROUP_SETUP } from './helpers/campaign-api.js';
import { KEY, Pty, ptyUnavailable } from './helpers/pty.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({
  expect: [
    ...GROUP_SETUP,
    'GET /campaign/v1/balance',
    'POST /campaign/v1/campaign/normal/submit',
    'POST /campaign/v1/campaign/testing/submit',
    'GET /campaign/v1/contacts/lists',
  ],
});
const fx = campaignFixtures(sb.get);
let news: string;
let pty: Pty | undefined;
afterEach(() => pty?.kill());

beforeAll(async () => {
  news = await fx.group('Newsletter', 3);
});

function wizard(args: string[] = [], dir = tempDir()): Pty {
  const env = {
    PATH: process.env.PATH, HOME: dir, MAILCTL_CONFIG_DIR: dir, NO_COLOR: '1',
    MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign,
  };
  return new Pty(['campaign', 'create', '--wizard', ...args], { env, cols: 120, rows: 50, cwd: dir });
}

/** The wizard's last two questions answered with their defaults: send now, no Google Analytics. */
async function nowWithoutAnalytics(p: Pty): Promise<void> {
  await p.waitFor('When?');
  await p.keys(KEY.enter); // Now
  await p.waitFor('Google Analytics');
  await p.keys(KEY.enter); // No
}

describe.skipIf(ptyUnavailable)(`campaign create --wizard on a real terminal${ptyUnavailable ? ` (skipped: ${ptyUnavailable})` : ''}`, () => {
  it('an A/B subject test, end to end, to a group that was still importing when the list first opened', async () => {
    const delays = sb.get().sandbox.options.delays;
    const arriving = (await fx.api.post('/v1/contacts/lists/insert', { name: 'Arriving' })).json.sn as string;
    const saved = delays.importProcessing;
    delays.importProcessing = 10 * 60_000;
    const started = await fx.api.post(`/v1/contacts/imports/${arriving}/text`, { contacts: 'EMAIL,NAME\na1@example.org,A 1\na2@example.org,A 2' });
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'mail.html'), '<p>Hello ${NAME}</p>');
    const from = fx.mark();
    try {
      pty = wizard([], dir);
      await pty.waitFor('Campaign name');
      await pty.line('PTY subject test');
      await pty.waitFor('Who gets it?');
      await pty.keys(KEY.enter); // Contact groups
      // The list as it is now: Arriving is importing, so it is shown but disabled.
      const first = await pty.waitFor(/Arriving \(\w+\) · 0 members \(importing: not selectable[^)]*\)/);
      expect(first).toContain('Refresh the list (1 importing)');

      delays.importProcessing = 0;
      await pollUntil(() => fx.api.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
      await pty.keys(KEY.space, KEY.enter); // the cursor starts on Refresh
      await pty.waitFor(/Arriving \(\w+\) · 2 members(?! \(importing)/);
      // Entries: Refresh, Find, (rule), Newsletter, Arriving.
      await pty.keys(KEY.down, KEY.down, KEY.down, KEY.space, KEY.enter);
      await pty.waitFor('Groups to exclude');
      await pty.keys(KEY.enter);
      await pty.waitFor('A/B test?');
      await pty.keys(KEY.down, KEY.enter); // Subject
      await pty.waitFor('Subject of version A');
      await pty.line('Hello A');
      await pty.waitFor('Preheader of version A');
      await pty.line('Preview A');
      await pty.waitFor('Subject of version B');
      await pty.line('Hello B');
      await pty.waitFor('Preheader of version B');
      await pty.line('Preview B');
      await pty.waitFor('Sender address');
      await pty.line('news@example.com');
      await pty.waitFor('Sender name');
      await pty.line('Acme');
      await pty.waitFor('Content:');
      await pty.keys(KEY.enter); // An html file
      await pty.waitFor('Html file:');
      await pty.line(path.join(dir, 'mail.html'));
      await pty.waitFor('Footer language');
      await pty.keys(KEY.enter);
      await nowWithoutAnalytics(pty);
      await pty.waitFor('Test share');
      await pty.line('20');
      await pty.waitFor('Test duration');
      await pty.line('4h');
      const review = await pty.waitFor('Send this campaign now?');
      for (const shown of ['content.subjectA', 'Hello A', 'content.preheaderB', 'Preview B', `Arriving (${arriving})`, 'config.schedule.type', '0 (send now)']) {
        expect(review).toContain(shown);
      }
      await pty.line('y');
      await pty.waitFor(/Created A\/B subject test to 1 group, sending now: CP\w+/);
      expect(await pty.exited()).toBe(0);
    } finally {
      delays.importProcessing = saved;
    }
    const [req] = fx.submits(from);
    expect(req.path).toBe('/v1/campaign/testing/submit');
    expect(req.body).toMatchObject({
      form: { name: 'PTY subject test', selectedLists: [arriving], excludeLists: [] },
      content: { testingOn: 1, subjectA: 'Hello A', subjectB: 'Hello B', preheaderA: 'Preview A', preheaderB: 'Preview B', fromAddress: 'news@example.com', fromName: 'Acme', htmlContent: '<p>Hello ${NAME}</p>', testing: { proportion: 20, time: 4, unit: 0 } },
    });
  }, 120_000);

  it('a refusal keeps the answers: what to change, the draft saved, and `campaign create --file` accepts it', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'mail.html'), '<p>Hi</p>');
    const from = fx.mark();
    pty = wizard(['--name', 'Refused', '--group', news, '--subject', 'Hi', '--from', 'someone@unverified.example', '--from-name', 'Acme', '--html-file', 'mail.html', '--footer-lang', 'en'], dir);
    await pty.waitFor('A/B test?');
    await pty.keys(KEY.enter); // No
    await pty.waitFor('Preheader');
    await pty.line('Before you go');
    await nowWithoutAnalytics(pty);
    await pty.waitFor('Send this campaign now?');
    await pty.line('y');
    const said = await pty.waitFor('What now?');
    expect(said).toContain('To fix it: Change the sender address to an address verified in the back office');
    const file = /Your answers are saved in (\S+\.json)\./.exec(said)?.[1];
    expect(file && path.dirname(file)).toBe(path.join(dir, 'drafts'));
    expect(said).toContain(`mailctl campaign create --file ${file}`);
    await pty.keys(KEY.down, KEY.enter); // Stop here
    expect(await pty.exited()).toBe(1);
    expect(fx.submits(from)).toHaveLength(1);

    // The draft holds every answer, typed or given as a flag; fixed by one flag, it is sent.
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    const again = fx.mark();
    const r = await runCli(['campaign', 'create', '--file', file!, '--from', 'news@example.com'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fx.submits(again)[0].body).toMatchObject({
      form: { name: 'Refused', selectedLists: [news] },
      content: { subject: 'Hi', preheader: 'Before you go', fromAddress: 'news@example.com', fromName: 'Acme', htmlContent: '<p>Hi</p>' },
    });
  }, 120_000);

  it('goes back with Esc, changes an answer from the review, and keeps a declined campaign as a draft', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'mail.html'), '<p>Hi</p>');
    const from = fx.mark();
    pty = wizard(['--name', 'PTY nav', '--group', news, '--from', 'news@example.com', '--from-name', 'Acme', '--html-file', 'mail.html', '--footer-lang', 'en'], dir);
    await pty.waitFor('A/B test?');
    await pty.keys(KEY.enter); // No
    await pty.waitFor('Subject (may hold');
    await pty.line('First');
    await pty.waitFor('Preheader');
    await pty.keys(KEY.esc); // back to the subject, which shows what was typed
    await pty.waitFor(/Subject \(may hold \$\{FIELD\} variables\): \(First\)/);
    await pty.line('Second');
    await pty.waitFor('Preheader');
    await pty.line('');
    await pty.waitFor('When?');
    await pty.keys(KEY.up, KEY.enter); // the list's last entry, "← Back": the preheader again
    await pty.waitFor('Preheader');
    await pty.line('');
    await nowWithoutAnalytics(pty);
    expect(await pty.waitFor('Send this campaign now?')).toMatch(/content\.subject\s*│\s*Second/);
    await pty.line('n');
    await pty.waitFor('Not sent. What now?');
    await pty.keys(KEY.enter); // Change an answer
    await pty.waitFor('Which answer do you want to change?');
    await pty.keys(KEY.down, KEY.down, KEY.down, KEY.enter); // name, audience, A/B, → subject
    await pty.waitFor('Subject (may hold');
    await pty.line('Third');
    await pty.waitFor('Preheader');
    await pty.line('');
    await pty.waitFor('Which answer do you want to change?');
    await pty.keys(KEY.esc); // back to the review
    expect(await pty.waitFor('Send this campaign now?')).toMatch(/content\.subject\s*│\s*Third/);
    await pty.line('n');
    await pty.waitFor('Not sent. What now?');
    await pty.keys(KEY.down, KEY.enter); // Save as a draft
    const saved = await pty.waitFor(/Send it with: mailctl campaign create --file \S+\.json/);
    expect(await pty.exited()).toBe(0);
    const file = /--file (\S+\.json)/.exec(saved)![1];
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'PTY nav', subject: 'Third', groups: [news] });
    expect(fx.submits(from)).toEqual([]);
  }, 120_000);

  /** The wizard up to the html question, answered by opening `editor` ($EDITOR) with Enter. */
  async function openEditorStep(dir: string, editor: string, name: string): Promise<Pty> {
    const p = new Pty(['campaign', 'create', '--wizard', '--name', name, '--group', news, '--subject', 'S', '--preheader', 'P', '--from', 'news@example.com', '--from-name', 'Acme', '--footer-lang', 'en'], {
      env: { PATH: process.env.PATH, HOME: dir, MAILCTL_CONFIG_DIR: dir, NO_COLOR: '1', EDITOR: editor, MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign },
      cols: 120, rows: 50, cwd: dir,
    });
    await p.waitFor('A/B test?');
    await p.keys(KEY.enter); // No
    await p.waitFor('Write it in your editor');
    await p.keys(KEY.down, KEY.enter);
    await p.waitFor('Html content: press Enter to open your editor');
    await p.keys(KEY.enter);
    return p;
  }

  it('writes the html in $EDITOR: the editor opens on Enter and what it saved is sent', async () => {
    const dir = tempDir();
    // An "editor" that writes the mail into the file it is given, as a person would, then exits.
    const editor = path.join(dir, 'edit.sh');
    fs.writeFileSync(editor, '#!/bin/sh\nprintf \'<p>Written in the editor</p>\' > "$1"\n', { mode: 0o755 });
    const from = fx.mark();
    pty = await openEditorStep(dir, editor, 'PTY editor');
    await nowWithoutAnalytics(pty);
    await pty.waitFor('Send this campaign now?');
    await pty.line('y');
    await pty.waitFor(/Created campaign to 1 group, sending now: CP\w+/);
    expect(await pty.exited()).toBe(0);
    expect((fx.submits(from)[0].body as any).content.htmlContent).toBe('<p>Written in the editor</p>');
  }, 120_000);

  it('$EDITOR saving bytes that are not UTF-8: the offset is named and the same file opens again, nothing sent until it is fixed', async () => {
    const dir = tempDir();
    // First opening saves "<p>Dear \xc3(</p>" (C3 28 is not UTF-8: offset 8); the second finds
    // those very bytes in the file (kept for the person to fix) and saves them fixed.
    const editor = path.join(dir, 'edit.sh');
    fs.writeFileSync(editor, [
      '#!/bin/sh',
      `if [ ! -e "${dir}/opened" ]; then touch "${dir}/opened"; printf '<p>Dear \\303(</p>' > "$1"; exit 0; fi`,
      `cp "$1" "${dir}/seen-second-time"`,
      'printf \'<p>Dear Zoë</p>\' > "$1"',
      '',
    ].join('\n'), { mode: 0o755 });
    const from = fx.mark();
    pty = await openEditorStep(dir, editor, 'PTY editor utf8');
    await pty.waitFor('The text saved in the editor is not valid UTF-8 (the first invalid byte is at offset 8, counting from 0)');
    expect(fx.submits(from)).toEqual([]);
    await pty.keys(KEY.enter); // the question again: open the editor once more
    await nowWithoutAnalytics(pty);
    await pty.waitFor('Send this campaign now?');
    await pty.line('y');
    await pty.waitFor(/Created campaign to 1 group, sending now: CP\w+/);
    expect(await pty.exited()).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'seen-second-time'))).toEqual(Buffer.from([...Buffer.from('<p>Dear '), 0xc3, 0x28, ...Buffer.from('</p>')]));
    expect((fx.submits(from)[0].body as any).content.htmlContent).toBe('<p>Dear Zoë</p>');
  }, 120_000);
});
