// mailctl webhook list|set|delete: event types by name or number (spec 001 section 2: 3
// delivery … 7 complaint; SMS only 3 and 6), SMS-only refusals done locally, confirmations.
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({
  expect: [
    'POST /notify/v1/sms/webhooks',
    'DELETE /notify/v1/webhooks',
    'GET /notify/v1/webhooks',
    'POST /notify/v1/webhooks',
  ],
});
const hookRequests = () => sb.get().sandbox.requests('notify').filter((r) => r.path.endsWith('/webhooks'));

describe('mailctl webhook', () => {
  it('set takes a name or a number and posts {type, url} (upsert: setting again replaces)', async () => {
    expect((await runCli(['webhook', 'set', 'click', 'https://hooks.example.com/a'], { sandbox: sb.get() })).exitCode).toBe(0);
    expect((await runCli(['webhook', 'set', '5', 'https://hooks.example.com/b'], { sandbox: sb.get() })).exitCode).toBe(0);
    const posts = hookRequests().filter((r) => r.method === 'POST');
    expect(posts.map((p) => [p.path, p.body])).toEqual([
      ['/v1/webhooks', { type: 5, url: 'https://hooks.example.com/a' }],
      ['/v1/webhooks', { type: 5, url: 'https://hooks.example.com/b' }],
    ]);
    const list = await runCli(['webhook', 'list', '--json'], { sandbox: sb.get() });
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ type: 5, url: 'https://hooks.example.com/b' })]);
    const tsv = await runCli(['webhook', 'list'], { sandbox: sb.get() });
    expect(tsv.stdout).toMatch(/^type\tevent\turl\tdomain\tcreated\n5\tclick\thttps:\/\/hooks\.example\.com\/b\t/);
  });

  it('--sms goes to /v1/sms/webhooks and refuses open, click and complaint locally (exit 2, nothing sent)', async () => {
    const before = hookRequests().length;
    for (const t of ['open', 'click', 'complaint', '4', '9']) {
      const r = await runCli(['webhook', 'set', t, 'https://hooks.example.com/s', '--sms'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
    }
    expect((await runCli(['webhook', 'set', 'open', 'https://x.example.com', '--sms'], { sandbox: sb.get() })).stderr).toContain('SMS webhooks exist only for delivery and bounce');
    expect(hookRequests().length).toBe(before);
    const ok = await runCli(['webhook', 'set', 'bounce', 'https://hooks.example.com/s', '--sms'], { sandbox: sb.get() });
    expect(ok.exitCode).toBe(0);
    expect(hookRequests().at(-1)).toMatchObject({ method: 'POST', path: '/v1/sms/webhooks', body: { type: 6, url: 'https://hooks.example.com/s' } });
  });

  it('set refuses a non-URL and warns that a local URL cannot be reached by the service', async () => {
    const before = hookRequests().length;
    expect((await runCli(['webhook', 'set', 'delivery', 'hooks.example.com'], { sandbox: sb.get() })).exitCode).toBe(2);
    expect(hookRequests().length).toBe(before);
    const local = await runCli(['webhook', 'set', 'delivery', 'http://127.0.0.1:8787/'], { sandbox: sb.get() });
    expect(local.exitCode).toBe(0);
    expect(local.stderr).toContain('not reachable from the internet');
    // A warning, not a refusal: the URL is still registered.
    expect(hookRequests().at(-1)).toMatchObject({ method: 'POST', path: '/v1/webhooks', body: { type: 3, url: 'http://127.0.0.1:8787/' } });
  });

  it('delete asks on a terminal, needs --yes otherwise, and explains the service\'s 500 {success:false}', async () => {
    await runCli(['webhook', 'set', 'complaint', 'https://hooks.example.com/c'], { sandbox: sb.get() });
    const piped = await runCli(['webhook', 'delete', 'complaint'], { sandbox: sb.get() });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('--yes');
    const declined = await runCli(['webhook', 'delete', 'complaint'], { sandbox: sb.get(), tty: true, prompter: scriptedPrompter([false]) });
    expect(declined.exitCode).toBe(0);
    expect(hookRequests().filter((r) => r.method === 'DELETE')).toHaveLength(0);
    const asked = scriptedPrompter([true]);
    const yes = await runCli(['webhook', 'delete', 'complaint'], { sandbox: sb.get(), tty: true, prompter: asked });
    expect(yes.exitCode).toBe(0);
    expect(asked.asked[0]).toContain('email complaint webhook (type 7)');
    expect(hookRequests().filter((r) => r.method === 'DELETE').at(-1)!.body).toEqual({ type: 7 });
    const deletesBefore = hookRequests().filter((r) => r.method === 'DELETE').length;
    const gone = await runCli(['webhook', 'delete', '7', '--yes'], { sandbox: sb.get() });
    expect(gone.exitCode).toBe(1);
    // The documented failure answer is final: asked once, not retried.
    expect(hookRequests().filter((r) => r.method === 'DELETE')).toHaveLength(deletesBefore + 1);
    expect(gone.stderr).toContain('could not delete the email complaint webhook');
  });
});
