// One URL check (src/core/url.ts) for every URL a user gives: service base URLs (config set,
// MAILCTL_*_URL), webhook targets (webhook set, report export and import --webhook-url), the
// listener's --forward and send's --unsubscribe-url (which may also be a mailto:). Each caller keeps its policy (http and https everywhere; no /v1 on a base URL); the
// sentence has one shape: what, the value, what to give instead. Refused before any request.
import { describe, expect, it } from 'vitest';
import { urlProblem } from '../src/core/url.js';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox, refusedBeforeSending } from './helpers/sandbox.js';

const sb = useSandbox();

describe('urlProblem', () => {
  const p = { name: '--x', example: 'https://example.com/hook' };
  it('http and https pass; a base URL may not end in /v1; https-only is a policy', () => {
    expect(urlProblem('https://example.com/hook', p)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:3000/', p)).toBeUndefined();
    expect(urlProblem('https://api.example.com/v1/', { ...p, base: true })).toBe('--x "https://api.example.com/v1/" must be the base URL without /v1, such as https://api.example.com.');
    // Checked as it is stored, trailing slashes dropped; the suggestion keeps the URL's own path.
    expect(urlProblem('http://h.example/notify/v1//', { ...p, base: true })).toBe('--x "http://h.example/notify/v1//" must be the base URL without /v1, such as http://h.example/notify.');
    expect(urlProblem('https://host.example/api/v1', { ...p, base: true })).toBe('--x "https://host.example/api/v1" must be the base URL without /v1, such as https://host.example/api.');
    expect(urlProblem('https://host.example/api/v10', { ...p, base: true })).toBeUndefined();
    expect(urlProblem('http://example.com', { ...p, httpsOnly: true })).toBe('--x "http://example.com" must start with https://, such as https://example.com/hook.');
  });
  it('refuses what is not an http(s) URL, naming it and an example', () => {
    expect(urlProblem('example.com/hook', p)).toBe('--x "example.com/hook" is not a URL; give the full address, such as https://example.com/hook.');
    expect(urlProblem('ftp://example.com', p)).toBe('--x "ftp://example.com" must start with https:// or http://, such as https://example.com/hook.');
    expect(urlProblem('javascript:alert(1)', p)).toContain('must start with https:// or http://');
  });
  it('refuses a host with a space, an unclosed [ and a port past 65535', () => {
    for (const v of ['http://exa mple.com/x', 'https://[bad/x', 'https://example.com:99999/x']) {
      expect(urlProblem(v, p)).toBe(`--x "${v}" is not a URL; give the full address, such as https://example.com/hook.`);
    }
  });
  it('a mailto: policy takes mailto:ADDRESS, and nothing else that is not http(s)', () => {
    const m = { ...p, mailto: true };
    expect(urlProblem('mailto:unsubscribe@example.com?subject=stop', m)).toBeUndefined();
    expect(urlProblem('https://example.com/u', m)).toBeUndefined();
    expect(urlProblem('mailto:unsubscribe@example.com', p)).toBe('--x "mailto:unsubscribe@example.com" must start with https:// or http://, such as https://example.com/hook.');
    expect(urlProblem('ftp://example.com', m)).toBe('--x "ftp://example.com" must start with https://, http:// or mailto:, such as https://example.com/hook.');
    expect(urlProblem('mailto:', m)).toBe('--x "mailto:" names no email address after mailto:, such as mailto:unsubscribe@example.com.');
  });
});

describe('every command: exit 2, the same sentence, nothing sent', () => {
  it.each([
    [['webhook', 'set', 'delivery', 'hooks.example.com'], 'The webhook URL "hooks.example.com" is not a URL; give the full address, such as https://example.com/hooks/mail.'],
    [['webhook', 'set', 'bounce', 'ftp://hooks.example.com', '--sms'], 'The webhook URL "ftp://hooks.example.com" must start with https:// or http://'],
    [['report', 'export', 'CP1', '--webhook-url', 'javascript:alert(1)'], '--webhook-url "javascript:alert(1)" must start with https:// or http://, such as https://hooks.example.com/report.'],
    [['webhook', 'listen', '--port', '0', '--forward', '127.0.0.1:3000'], '--forward "127.0.0.1:3000" is not a URL; give the full address, such as http://127.0.0.1:3000/hooks/mail.'],
    [['config', 'set', 'campaign-url', 'https://api.example.com/v1'], 'Cannot set campaign-url: "https://api.example.com/v1" must be the base URL without /v1, such as https://api.example.com.'],
    [['config', 'set', 'notify-url', 'http://h.example/notify/v1//'], 'Cannot set notify-url: "http://h.example/notify/v1//" must be the base URL without /v1, such as http://h.example/notify.'],
    [['config', 'set', 'notify-url', 'mail.example.com'], 'Cannot set notify-url: "mail.example.com" is not a URL; give the full address, such as https://api.example.com.'],
    ...['http://exa mple.com/x', 'https://[bad/x', 'http://example.com:99999/x'].map((url) => [
      ['import', 'contacts.csv', '--group', 'Newsletter', '--webhook-url', url],
      `--webhook-url "${url}" is not a URL; give the full address, such as https://hooks.example.com/import.`,
    ] as [string[], string]),
    [['send', '--to', 'a@example.com', '--from', 'me@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>', '--unsubscribe-url', 'https://[bad/x'], '--unsubscribe-url "https://[bad/x" is not a URL; give the full address, such as https://example.com/unsubscribe or mailto:unsubscribe@example.com.'],
    [['send', '--to', 'a@example.com', '--from', 'me@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>', '--unsubscribe-url', 'mailto:'], '--unsubscribe-url "mailto:" names no email address after mailto:'],
  ])('%j', async (argv, sentence) => {
    const r = await refusedBeforeSending(sb, argv);
    expect(r.stderr).toContain(sentence);
  });

  it('send --unsubscribe-url mailto:ADDRESS goes to the service as the message\'s unsubscribedLink', async () => {
    sb.expect(['GET /campaign/v1/balance', 'POST /notify/v1/messages'], { required: true });
    const r = await runCli(['send', '--to', 'a@example.com', '--from', 'me@example.com', '--subject', 'Hi', '--html', '<p>Hi</p>', '--unsubscribe-url', ' mailto:unsubscribe@example.com '], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = sb.get().sandbox.requests('notify').at(-1)!;
    expect((sent.body as { unsubscribedLink?: string }).unsubscribedLink).toBe('mailto:unsubscribe@example.com');
  });

  it('a base URL from the environment is checked the same way: a config error (exit 3), not "cannot reach" (exit 4)', async () => {
    const r = await runCli(['groups', 'list'], { env: { MAILCTL_API_KEY: 'k-123456789', MAILCTL_CAMPAIGN_URL: 'api.example.com' } });
    expect(r.stderr).toContain('MAILCTL_CAMPAIGN_URL "api.example.com" is not a URL; give the full address, such as https://api.newsleopard.com.');
    expect(r.exitCode).toBe(3);
  });

  it('a base URL ending in /v1 from the environment is refused as `config set` refuses it, not quietly trimmed', async () => {
    const r = await runCli(['groups', 'list'], { env: { MAILCTL_API_KEY: 'k-123456789', MAILCTL_CAMPAIGN_URL: 'http://127.0.0.1:9999/v1/' } });
    expect(r.stderr).toContain('MAILCTL_CAMPAIGN_URL "http://127.0.0.1:9999/v1/" must be the base URL without /v1, such as http://127.0.0.1:9999.');
    expect(r.stderr).toContain('Fix or unset MAILCTL_CAMPAIGN_URL.');
    expect(r.exitCode).toBe(3);
  });

  it('a good base URL is stored without its trailing slash, as before', async () => {
    const configDir = tempDir();
    expect((await runCli(['config', 'set', 'campaign-url', 'http://127.0.0.1:9999/'], { configDir })).exitCode).toBe(0);
    expect((await runCli(['config', 'get', 'campaign-url'], { configDir })).stdout).toBe('http://127.0.0.1:9999\n');
  });

  // Node's fetch refuses the Fetch standard's "bad ports" without connecting, with an error that
  // carries no code: such a base URL showed only "Cannot reach … (network error)", exit 4.
  it('a base URL on a port fetch never connects to (MAILCTL_CAMPAIGN_URL=http://127.0.0.1:1): exit 3, the port named', async () => {
    const r = await runCli(['groups', 'list'], { env: { MAILCTL_API_KEY: 'k-123456789', MAILCTL_CAMPAIGN_URL: 'http://127.0.0.1:1' } });
    expect(r.stderr).toContain('MAILCTL_CAMPAIGN_URL "http://127.0.0.1:1" uses port 1, which fetch never connects to (a port the Fetch standard blocks); give the port the service listens on, such as https://api.newsleopard.com.');
    expect(r.stderr).not.toContain('network error');
    expect(r.exitCode).toBe(3);
  });

  it('config set refuses such a port (exit 2), and fetch really does refuse it', async () => {
    const r = await runCli(['config', 'set', 'notify-url', 'http://127.0.0.1:6000']);
    expect(r.stderr).toContain('Cannot set notify-url: "http://127.0.0.1:6000" uses port 6000, which fetch never connects to');
    expect(r.exitCode).toBe(2);
    expect(await fetch('http://127.0.0.1:6000/').then(() => 'answered', (e: Error) => (e.cause as Error).message)).toBe('bad port');
  });
});
