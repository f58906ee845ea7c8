// `mailctl sandbox serve`: the --shape flag picks the documented alternate response shapes the
// emulator answers with (src/sandbox/shapes.ts), and says which are in use.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { unusedPort, until } from './helpers/wait.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

describe('mailctl sandbox serve --shape', () => {
  it('serves the chosen alternate (a lone email webhook as one object) and names it; the default stays a list', async () => {
    for (const [args, lone] of [[['--shape', 'webhook-list=object'], true], [[], false]] as const) {
      const port = await unusedPort();
      const ac = new AbortController();
      const serving = runCli(['sandbox', 'serve', '--port', String(port), ...args], { signal: ac.signal });
      const base = `http://127.0.0.1:${port}/notify/v1/webhooks`;
      await until('the sandbox', () => fetch(base).then(() => true).catch(() => false));
      const headers = { 'x-api-key': SANDBOX_KEYS.notify, 'content-type': 'application/json' };
      expect((await fetch(base, { method: 'POST', headers, body: JSON.stringify({ type: 3, url: 'https://hooks.example.com/mail' }) })).status).toBe(200);
      const listed = await (await fetch(base, { headers })).json();
      ac.abort();
      const r = await serving;
      expect(r.exitCode).toBe(0);
      if (lone) {
        expect(listed).toMatchObject({ type: 3, url: 'https://hooks.example.com/mail' });
        expect(r.stderr).toContain('Serving alternate response shapes: webhook-list=object.');
      } else {
        expect(listed).toEqual([expect.objectContaining({ type: 3 })]);
        expect(r.stderr).not.toContain('alternate');
      }
    }
  });

  it('prints the base URL of its link targets with its other URLs (a comment line, so the rest stays an env file), and in --json', async () => {
    for (const json of [false, true]) {
      const port = await unusedPort();
      const ac = new AbortController();
      const serving = runCli([...(json ? ['--json'] : []), 'sandbox', 'serve', '--port', String(port)], { signal: ac.signal });
      const links = `http://127.0.0.1:${port}/links`;
      await until('the sandbox', () => fetch(`${links}/ok`).then((res) => res.status === 200).catch(() => false));
      expect((await fetch(`${links}/redirect`, { redirect: 'manual' })).headers.get('location')).toBe('/links/ok');
      ac.abort();
      const r = await serving;
      expect(r.exitCode).toBe(0);
      if (json) {
        expect(JSON.parse(r.stdout)).toMatchObject({ linksUrl: links, linkTargets: ['ok', '404', 'redirect', 'redirect-other-host', 'loop', 'no-head', 'slow'] });
      } else {
        const lines = r.stdout.trim().split('\n');
        expect(lines.filter((l) => !l.startsWith('#')).every((l) => /^MAILCTL_[A-Z_]+=\S+$/.test(l))).toBe(true);
        expect(lines).toContain(`# link targets for campaign preflight: ${links}/NAME, NAME one of ok, 404 (or any 4xx/5xx), redirect, redirect-other-host, loop, no-head, slow`);
      }
    }
  });

  it('a shape it does not know is a usage error naming the known ones', async () => {
    const r = await runCli(['sandbox', 'serve', '--shape', 'report-links=naked']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--shape report-links takes wrapped, bare or link; got "naked".');
    const r2 = await runCli(['sandbox', 'serve', '--shape', 'links']);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain('report-links, import-code, campaign-error');
  });

  it('--help lists every shape with its values and where the spec or decisions show it', async () => {
    const r = await runCli(['sandbox', 'serve', '--help']);
    expect(r.stdout).toContain('report-links=wrapped|bare|link');
    expect(r.stdout).toContain('import-code=importSn|import_sn');
    expect(r.stdout).toContain('signature-header=x-service-signature|x-surenotify-signature');
    expect(r.stdout).toContain('(decisions row 3)');
  });
});
