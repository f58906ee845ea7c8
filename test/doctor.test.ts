// `mailctl doctor`: each key tried with one cheap authenticated read per service (ok, refused,
// unreachable → exit 0, 3, 4), the config folder's permissions, the clock against the service's
// Date header, all as a table or one --json document.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { unusedPort } from './helpers/wait.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/balance', 'GET /notify/v1/webhooks'] });

describe('mailctl doctor', () => {
  it('all well: both keys accepted with one read each, exit 0, --json lists every check', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['doctor', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.checks.map((c: { check: string }) => c.check)).toEqual(expect.arrayContaining(['profile', 'config folder', 'node', 'campaign key', 'notify key', 'clock']));
    const reqs = sb.get().sandbox.requests().slice(before);
    expect(reqs.map((q) => `${q.service} ${q.method} ${q.path}`).sort()).toEqual(['campaign GET /v1/balance', 'notify GET /v1/webhooks']);
  });

  it('a wrong key: exit 3, the service named, the key masked', async () => {
    const r = await runCli(['doctor'], { sandbox: sb.get(), env: { MAILCTL_NOTIFY_API_KEY: 'wrong-key-123456' } });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/notify key\tfail\twron…56 from MAILCTL_NOTIFY_API_KEY .*refused \(Forbidden\)/);
    expect(r.stdout).toMatch(/campaign key\tok/);
    expect(r.stdout + r.stderr).not.toContain('wrong-key-123456');
  });

  it('a service that cannot be reached: exit 4', async () => {
    const port = await unusedPort();
    const r = await runCli(['doctor'], { sandbox: sb.get(), env: { MAILCTL_CAMPAIGN_URL: `http://127.0.0.1:${port}` } });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toMatch(/campaign key\tfail\t.*unreachable/);
  });

  it('a config folder others could read is made private, and doctor says it was open', async () => {
    const dir = tempDir('mailctl-doctor-');
    fs.chmodSync(dir, 0o755);
    const r = await runCli(['doctor'], { sandbox: sb.get(), env: { MAILCTL_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/config folder\twarn\t.* was mode 755, open to other users; made private \(mode 700\)/);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('shows each setting the run uses with its source: flag, environment, profile, default', async () => {
    const dir = tempDir('mailctl-doctor-');
    expect((await runCli(['--profile', 'staging', 'config', 'set', 'timezone', 'Asia/Taipei'], { configDir: dir })).exitCode).toBe(0);
    // No notify URL and no notify key: the default URL is reported, and (no key) never called.
    const r = await runCli(['--profile', 'staging', 'doctor', '--json'], { sandbox: sb.get(), configDir: dir, env: { MAILCTL_NOTIFY_URL: undefined, MAILCTL_NOTIFY_API_KEY: undefined } });
    expect(r.exitCode).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.settings).toMatchObject({
      profile: { value: 'staging', source: '--profile' },
      'campaign-url': { value: sb.get().campaignUrl, source: 'MAILCTL_CAMPAIGN_URL' },
      'notify-url': { value: 'https://mail.surenotifyapi.com', source: 'default' },
      timezone: { value: 'Asia/Taipei', source: 'profile' },
    });
    const rows = await runCli(['--profile', 'staging', 'doctor'], { sandbox: sb.get(), configDir: dir });
    expect(rows.stdout).toContain(`campaign-url\tok\t${sb.get().campaignUrl} (from MAILCTL_CAMPAIGN_URL)`);
    expect(rows.stdout).toContain('timezone\tok\tAsia/Taipei (profile "staging")');
    expect(rows.stdout).toContain(`config folder\tok\t${dir}, from MAILCTL_CONFIG_DIR`);
  });

  it('under --sandbox the settings come from the sandbox, and the clock is checked against its Date header', async () => {
    const r = await runCli(['--sandbox', 'doctor', '--json'], {});
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.settings['campaign-url'].source).toBe('sandbox');
    expect(doc.checks.find((c: { check: string }) => c.check === 'sandbox')?.detail).toMatch(/^on \(from --sandbox\)/);
    expect(doc.checks.find((c: { check: string }) => c.check === 'clock')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^within \d+ s of the campaign service$/) });
  });

  it('a clock ten minutes off the service\'s Date header is named, with the fix', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', date: new Date(Date.now() - 600_000).toUTCString() }).end('{"email":1,"sms":1}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await runCli(['doctor', '--json'], { sandbox: sb.get(), env: { MAILCTL_CAMPAIGN_URL: url } });
      const clock = JSON.parse(r.stdout).checks.find((c: { check: string }) => c.check === 'clock');
      expect(clock.status).toBe('warn');
      expect(clock.detail).toMatch(/this machine is 6\d\d s ahead of the campaign service.*NTP/);
    } finally {
      server.close();
    }
  });
});
