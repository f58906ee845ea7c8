// src/core/suggest.ts shellQuote: a suggested command may carry a word a service chose (a
// campaign or group code). Printed, it must act on nothing in the terminal; pasted into bash, it
// must give back exactly that word.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { unusedPort } from './helpers/wait.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { shellQuote } from '../src/core/suggest.js';
import { TERMINAL_UNSAFE } from './helpers/hostile-server.js';

const pasted = (line: string) => execFileSync('bash', ['-c', `printf '%s' ${line}`], { encoding: 'utf8' });

describe('shellQuote', () => {
  it.each([
    ['plain', 'CP123'],
    ['spaces and quotes', "it's a \"group\" name"],
    ['an OSC title change', 'CP\u001b]0;owned\u0007'],
    ['a screen clear and a backslash', 'G\u001b[2J\\x'],
    ['bidi override and C1 CSI', 'inv\u202egpj.exe\u009b31m'],
    ['a newline and a tab', 'a\nb\tc'],
  ])('%s: safe to print, and pastes back exactly', (_name, word) => {
    const q = shellQuote(word);
    expect(q).not.toMatch(TERMINAL_UNSAFE);
    expect(q).not.toMatch(/[\n\t]/);
    expect(pasted(q)).toBe(word);
  });
});

// Every hint is a command the user can paste: run with --sandbox and a profile chosen by the
// --profile flag OR by MAILCTL_PROFILE (the config file's default being another profile), each
// `mailctl …` it suggests carries --profile and --sandbox, so pasted in another shell it reaches
// the same account and services (issue 12 item 1).
/** Every suggested command in the text: `mailctl` and the words up to a closing backtick, a period or the line's end. */
const suggested = (text: string) => [...text.matchAll(/\bmailctl\b[^`\n]*/g)].map((m) => m[0]);

/** A config folder whose default profile is "prod", with a profile "staging" too. */
async function prodDefault(): Promise<string> {
  const configDir = tempDir('hints-');
  for (const p of ['prod', 'staging']) expect((await runCli(['--profile', p, 'config', 'set', 'footer-lang', 'en'], { configDir })).exitCode).toBe(0);
  expect((await runCli(['config', 'use', 'prod'], { configDir })).exitCode).toBe(0);
  return configDir;
}

describe.each([
  ['--profile x', async () => ({ configDir: tempDir('hints-'), flags: ['--profile', 'x'], env: {}, profile: 'x' })],
  ['MAILCTL_PROFILE=staging (default profile prod)', async () => ({ configDir: await prodDefault(), flags: [], env: { MAILCTL_PROFILE: 'staging' }, profile: 'staging' })],
])('hints carry the profile (%s) and --sandbox', (_how, setup) => {
  it.each([
    ['a group that does not exist', ['import', 'CONTACTS', '--group', 'Nope']],
    ['--download-failures with --no-wait', ['import', 'CONTACTS', '--group', 'G', '--no-wait', '--download-failures']],
    ['an empty import code', ['import', 'status', '']],
    ['an unknown campaign (status)', ['campaign', 'status', 'CP404']],
    ['an unknown campaign (pause)', ['campaign', 'pause', 'CP404', '--yes']],
    ['a service code sentence (report links of an unknown campaign)', ['report', 'links', 'CP404']],
    ['a campaign with a missing template id', ['campaign', 'create', '--name', 'N', '--group', 'G', '--exclude', 'E', '--subject', 'S', '--template', ' ']],
    ['a dry run that leaves the links unchecked', ['campaign', 'create', '--name', 'N', '--group', 'G', '--subject', 'S', '--html', '<a href="https://example.com/x">x</a>', '--dry-run']],
    ['no webhooks yet', ['webhook', 'list']],
    ['an SMS lookup with no number', ['events', '--sms']],
    ['an empty group name', ['groups', 'create', '']],
    ['a profile that does not exist', ['config', 'use', 'nosuch']],
    ['a flag the command does not have (usage error)', ['campaign', 'create', '--bogus']],
  ])('%s', async (_what, argv) => {
    const { configDir, flags, env, profile: chosen } = await setup();
    const contacts = path.join(configDir, 'contacts.csv');
    fs.writeFileSync(contacts, 'EMAIL,NAME\nann@example.com,Ann\n');
    const r = await runCli(['--sandbox', ...flags, ...argv.map((a) => (a === 'CONTACTS' ? contacts : a))], { configDir, env });
    // A usage error's "Usage: mailctl campaign create [options]" is a synopsis, not a line to paste.
    const found = suggested(r.stderr.replace(/^Usage: .*$/m, ''));
    expect(found.length, r.stderr).toBeGreaterThan(0);
    const profile = argv[1] === 'use' ? 'nosuch' : chosen; // `config use NAME` suggests storing a key in NAME
    for (const line of found) expect(line, r.stderr).toMatch(new RegExp(`^mailctl --profile ${profile} --sandbox \\S`));
  });
});

describe('lines to run later note the environment; hints to act on now do not', () => {
  const sb = useSandbox({
    expect: ['GET /campaign/v1/contacts/lists', 'POST /campaign/v1/contacts/lists/insert', 'POST /campaign/v1/contacts/imports/:listSn/text', 'GET /campaign/v1/contacts/imports/result/:importSn',
      'GET /campaign/v1/balance', 'POST /campaign/v1/campaign/normal/submit', 'GET /campaign/v1/campaign/normal/:sn', 'POST /campaign/v1/report/:sn/export', 'GET /campaign/v1/report/campaigns'],
  });
  const fx = campaignFixtures(sb.get);

  it('an export left running: its follow-up names the profile, and notes the config folder, the URLs and the key variables (by name)', async () => {
    const configDir = await prodDefault();
    const env = { MAILCTL_PROFILE: 'staging' };
    await fx.group('Newsletter', 3);
    const created = await runCli(['campaign', 'create', '--name', 'N', '--group', 'Newsletter', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'Acme', '--html', '<p>x</p>'], { configDir, env, sandbox: sb.get() });
    expect(created.exitCode, created.stderr).toBe(0);
    const sn = created.stdout.trim();
    const sent = await runCli(['campaign', 'status', sn, '--wait'], { configDir, env, sandbox: sb.get() });
    expect(sent.exitCode, sent.stderr).toBe(0);
    const r = await runCli(['report', 'export', sn], { configDir, env, sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const { campaignUrl, notifyUrl } = sb.get();
    expect(r.stderr).toContain(`\`mailctl --profile staging report links ${sn}\`  (with MAILCTL_CONFIG_DIR=${configDir} MAILCTL_CAMPAIGN_URL=${campaignUrl} MAILCTL_NOTIFY_URL=${notifyUrl} set and the keys in MAILCTL_CAMPAIGN_API_KEY and MAILCTL_NOTIFY_API_KEY, as now)`);
    // A hint to act on now (an unknown campaign) carries the profile but no note.
    const now = await runCli(['campaign', 'status', 'CP404'], { configDir, env, sandbox: sb.get() });
    expect(now.stderr).toContain('`mailctl --profile staging campaign list --all`');
    expect(now.stderr).not.toContain('as now');
  });

  it('the note names key variables but never a key', async () => {
    const { envNote } = await import('../src/core/suggest.js');
    const env = { MAILCTL_CONFIG_DIR: '/srv/my conf', MAILCTL_API_KEY: 'secret-key-123', MAILCTL_NOTIFY_URL: 'https://notify.example' };
    const note = envNote({ globals: { sandbox: false }, env });
    expect(note).toBe("  (with MAILCTL_CONFIG_DIR='/srv/my conf' MAILCTL_NOTIFY_URL=https://notify.example set and the key in MAILCTL_API_KEY, as now)");
    expect(note).not.toContain('secret');
    // The sandbox replaces URLs and keys: only the folder holding its state is noted.
    expect(envNote({ globals: { sandbox: true }, env })).toBe("  (with MAILCTL_CONFIG_DIR='/srv/my conf' set, as now)");
  });
});

describe('hints without --sandbox', () => {
  it('without --sandbox, the key and base-URL hints carry --profile (and the key hint the profile the file chose)', async () => {
    const configDir = tempDir('hints-');
    const port = await unusedPort();
    const unreachable = await runCli(['--profile', 'x', 'balance'], { configDir, env: { MAILCTL_CAMPAIGN_URL: `http://127.0.0.1:${port}`, MAILCTL_CAMPAIGN_API_KEY: 'some-key-123456' } });
    expect(unreachable.exitCode).toBe(4);
    expect(suggested(unreachable.stderr)).toEqual(['mailctl --profile x config list']);
    const noKey = await runCli(['balance'], { configDir, env: { MAILCTL_PROFILE: 'staging' } });
    expect(noKey.exitCode).toBe(3);
    // The profile MAILCTL_PROFILE chose goes in as a flag; the config folder from the environment is noted.
    expect(noKey.stderr).toContain(`Run mailctl --profile staging config set-key --service campaign  (with MAILCTL_CONFIG_DIR=${configDir} set, as now)`);
  });
});
