// `campaign create --wizard` on a terminal: it asks for what flags did not give, and what it
// sends is the same spec body flags would produce. Without a terminal it refuses and names the
// flags to pass instead.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';

const sb = useSandbox();
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
      'Newsletter', // groups
      '', // exclude
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

  it('declining at the end sends nothing (exit 2)', async () => {
    const prompter = scriptedPrompter(['none', '', 'en', 'now', false, false]);
    const from = fx.mark();
    const r = await runCli(
      ['campaign', 'create', '--wizard', '--name', 'No', '--group', news, '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'],
      { sandbox: sb.get(), tty: true, prompter },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(fx.submits(from)).toEqual([]);
  });

  it('answers still pass the local checks (a subject over 150 characters is refused)', async () => {
    const prompter = scriptedPrompter(['none', 'x'.repeat(151), '', 'en', 'now', false]);
    const from = fx.mark();
    const r = await runCli(['campaign', 'create', '--wizard', '--name', 'Long', '--group', news, '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'], { sandbox: sb.get(), tty: true, prompter });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('at most 150');
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
