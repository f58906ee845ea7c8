// `--resume` goes through the account and service the journal was written for. A journal records
// the base URL its run used and the profile with a fingerprint of the key (never the key); a
// resume through another URL or key is refused (exit 2, nothing sent) — resuming elsewhere would
// look up the wrong event log, find nothing and send everyone the message again. A bare
// `--resume` considers only journals of this run's profile and URL. Two sandboxes stand in for
// two accounts (prod → A, staging → B), each checked over loopback for what it received.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliOptions } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import type { RunningSandbox } from '../src/sandbox/server.js';

const EXPECT = ['GET /campaign/v1/balance', 'GET /notify/v1/events', 'POST /notify/v1/messages', 'POST /campaign/v1/automation/event'];
const A = useSandbox({ expect: EXPECT });
const B = useSandbox({ expect: EXPECT });
const onSend = { service: 'notify' as const, method: 'POST', path: '/v1/messages' };
const MSG = ['--subject', 'Your receipt', '--html', '<p>Order 42</p>', '--from', 'noreply@example.com'];

const KEYS = { MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign, MAILCTL_NOTIFY_API_KEY: SANDBOX_KEYS.notify };

/** One user's machine: profile prod talks to sandbox A, staging to sandbox B (URLs from the profiles). */
async function twoProfiles(): Promise<(argv: string[], o?: CliOptions) => ReturnType<typeof runCli>> {
  const configDir = tempDir();
  const run = (argv: string[], o: CliOptions = {}) => runCli(argv, { configDir, ...o, env: { ...KEYS, ...o.env } });
  for (const [profile, sb] of [['prod', A.get()], ['staging', B.get()]] as Array<[string, RunningSandbox]>) {
    expect((await run(['--profile', profile, 'config', 'set', 'notify-url', sb.notifyUrl])).exitCode).toBe(0);
    expect((await run(['--profile', profile, 'config', 'set', 'campaign-url', sb.campaignUrl])).exitCode).toBe(0);
  }
  return run;
}

/** Accepted email messages per address in one sandbox. */
function delivered(sb: RunningSandbox, prefix: string): string[] {
  return Object.values(sb.sandbox.state.notify.messages).filter((m) => m.channel === 'email' && m.address.startsWith(prefix)).map((m) => m.address).sort();
}

const posts = (sb: RunningSandbox) => sb.sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages').length;

/** prod sends to two recipients and loses the answer: exit 5, both in doubt, the journal path. */
async function inDoubtOnProd(run: Awaited<ReturnType<typeof twoProfiles>>, prefix: string, extra: string[] = []): Promise<string> {
  A.get().sandbox.injectFault({ kind: 'lose-answer', match: onSend });
  const list = path.join(tempDir(), 'r.csv');
  fs.writeFileSync(list, `address\n${prefix}1@example.com\n${prefix}2@example.com\n`);
  const r = await run(['--profile', 'prod', 'send', '--recipients-file', list, ...MSG, ...extra]);
  expect(r.exitCode).toBe(5);
  expect(r.stderr).toContain('2 in doubt');
  expect(delivered(A.get(), prefix)).toHaveLength(2); // carried out: each recipient has it once
  return /Journal: (\S+)/.exec(r.stderr)![1];
}

describe('send --resume through another account or service', () => {
  it('--resume FILE under another profile (another URL) is refused, naming both and the command with the right --profile; nothing sent', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-p-');
    const text = fs.readFileSync(journal, 'utf8');
    expect(text).not.toContain(SANDBOX_KEYS.notify); // the key is never written, only its fingerprint

    const before = posts(B.get());
    const r = await run(['--profile', 'staging', 'send', '--resume', journal, '--settle-after', '1s']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${journal} was sent through the notification service at ${A.get().notifyUrl} (profile "prod"), not ${B.get().notifyUrl} (profile "staging") as this run would; nothing was sent.`);
    expect(r.stderr).toContain(`mailctl --profile prod send --resume ${journal}`);
    expect(r.stderr).not.toMatch(/unexpected|\n\s+at /);
    expect(posts(B.get())).toBe(before);
    expect(B.get().sandbox.requests('notify').some((q) => q.path === '/v1/events')).toBe(false);
    expect(delivered(B.get(), 'acct-p-')).toEqual([]);

    // The right profile settles both as sent: nobody gets it twice.
    const ok = await run(['--profile', 'prod', 'send', '--resume', journal, '--settle-after', '0s', '--json']);
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 2, sent: 2 });
    expect(delivered(A.get(), 'acct-p-')).toEqual(['acct-p-1@example.com', 'acct-p-2@example.com']);
  });

  it('a bare --resume under another profile passes over the other profile\'s journal and says so; nothing sent', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-b-');
    const before = posts(B.get());
    const r = await run(['--profile', 'staging', 'send', '--resume', '--settle-after', '1s']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`There is no unfinished send run of profile "staging" at ${B.get().notifyUrl} to resume; 1 unfinished run of another profile or service is not considered.`);
    expect(r.stderr).toContain(`mailctl --profile prod send --resume ${journal}`);
    expect(posts(B.get())).toBe(before);
    expect(delivered(B.get(), 'acct-b-')).toEqual([]);
    // Under its own profile a bare --resume finds it.
    const ok = await run(['--profile', 'prod', 'send', '--resume', '--settle-after', '0s']);
    expect(ok.exitCode).toBe(0);
    expect(delivered(A.get(), 'acct-b-')).toHaveLength(2);
  });

  it('MAILCTL_NOTIFY_URL pointing elsewhere than the journal\'s service: refused, naming the variable; nothing sent', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-e-');
    const before = posts(B.get());
    const r = await run(['--profile', 'prod', 'send', '--resume', journal, '--settle-after', '1s'], { env: { MAILCTL_NOTIFY_URL: B.get().notifyUrl } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`was sent through the notification service at ${A.get().notifyUrl} (profile "prod"), not ${B.get().notifyUrl} (profile "prod")`);
    expect(r.stderr).toContain('MAILCTL_NOTIFY_URL');
    expect(posts(B.get())).toBe(before);
    expect(delivered(B.get(), 'acct-e-')).toEqual([]);
  });

  it('the same service with a different API key: refused, the key named only as "a different API key"; nothing sent', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-k-');
    const before = posts(A.get());
    const seen = A.get().sandbox.requests('notify').length;
    const r = await run(['--profile', 'prod', 'send', '--resume', journal, '--settle-after', '0s'], { env: { MAILCTL_NOTIFY_API_KEY: 'another-account-key' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${journal} was sent with a different API key for the notification service at ${A.get().notifyUrl} than this run uses (profile "prod"); nothing was sent.`);
    expect(r.stderr).not.toContain('another-account-key');
    expect(r.stderr).not.toContain(SANDBOX_KEYS.notify);
    expect(posts(A.get())).toBe(before);
    expect(A.get().sandbox.requests('notify').length).toBe(seen); // not even an event lookup
  });

  it('--resume --dry-run is refused the same way (it would show requests for the wrong account)', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-d-');
    const r = await run(['--profile', 'staging', 'send', '--resume', journal, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('(profile "prod")');
  });

  it('automation: a journal of the campaign service at A resumed with MAILCTL_CAMPAIGN_URL at B is refused; nothing sent', async () => {
    const run = await twoProfiles();
    A.get().sandbox.injectFault({ kind: 'lose-answer', match: { service: 'campaign', method: 'POST', path: '/v1/automation/event' } });
    const r = await run(['--profile', 'prod', 'automation', 'trigger', '--workflow', 'w', '--to', 'acct-auto@example.org']);
    expect(r.exitCode).toBe(5);
    const journal = /Journal: (\S+)/.exec(r.stderr)![1];
    const before = B.get().sandbox.requests('campaign').length;
    const again = await run(['--profile', 'prod', 'automation', 'trigger', '--resume', journal], { env: { MAILCTL_CAMPAIGN_URL: B.get().campaignUrl } });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`was sent through the campaign service at ${A.get().campaignUrl} (profile "prod"), not ${B.get().campaignUrl}`);
    expect(B.get().sandbox.requests('campaign').length).toBe(before);
  });

  it('the same service written another way (HTTP://, a /./ segment) is the same URL: the resume goes ahead, nobody sent twice', async () => {
    const run = await twoProfiles();
    const journal = await inDoubtOnProd(run, 'acct-n-');
    const same = A.get().notifyUrl.replace(/^http:\/\/([^/]+)\//, 'HTTP://$1/./');
    expect(same).not.toBe(A.get().notifyUrl);
    const ok = await run(['--profile', 'prod', 'send', '--resume', journal, '--settle-after', '0s', '--json'], { env: { MAILCTL_NOTIFY_URL: same } });
    expect(ok.exitCode).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 2, sent: 2 });
    expect(delivered(A.get(), 'acct-n-')).toEqual(['acct-n-1@example.com', 'acct-n-2@example.com']);
  });

  it('a journal whose URL came from MAILCTL_NOTIFY_URL: the hint says to set it to that URL, never to unset it (that goes to the default service)', async () => {
    const configDir = tempDir(); // the default profile names no URL
    const list = path.join(tempDir(), 'r.csv');
    fs.writeFileSync(list, 'address\nacct-u-1@example.com\n');
    A.get().sandbox.injectFault({ kind: 'lose-answer', match: onSend });
    const sent = await runCli(['send', '--recipients-file', list, ...MSG], { configDir, env: { ...KEYS, MAILCTL_NOTIFY_URL: A.get().notifyUrl } });
    expect(sent.exitCode).toBe(5);
    const journal = /Journal: (\S+)/.exec(sent.stderr)![1];
    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s'], { configDir, env: { ...KEYS, MAILCTL_NOTIFY_URL: B.get().notifyUrl } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`(with MAILCTL_NOTIFY_URL set to ${A.get().notifyUrl})`);
    expect(r.stderr).not.toContain('unset');
  });
});
