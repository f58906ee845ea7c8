// -v traces every request mailctl makes — API calls, the import upload PUT, report and failure
// file downloads, each redirect hop — with its method, address, status, real duration and size,
// and never what would let someone else use it: the API key, a pre-signed link's signature,
// credential or token (src/api/mask-url.ts), the sandbox's /files/u|d/TOKEN.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { HOSTILE_KEYS, reply, useHostileServer } from './helpers/hostile-server.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { maskUrl } from '../src/api/mask-url.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'POST /campaign/v1/contacts/imports/:listSn/file',
    'PUT /files/u/:token',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'HEAD /links/ok',
  ],
});
const hs = useHostileServer();

describe('maskUrl', () => {
  it('keeps host, path and harmless parameters of a pre-signed link; masks signature, credential and token', () => {
    const url = 'https://bucket.s3.amazonaws.com/imports/a%20b.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=SESSION&X-Amz-Signature=abc123&Signature=s2&sig=s3&token=t4&Key-Pair-Id=K5';
    const masked = maskUrl(url, { link: true });
    expect(masked).toBe('https://bucket.s3.amazonaws.com/imports/a%20b.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=…&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=…&X-Amz-Signature=…&Signature=…&sig=…&token=…&Key-Pair-Id=…');
  });

  it('masks the sandbox path token and credentials in the authority; an API query keeps its plain values', () => {
    expect(maskUrl('http://127.0.0.1:9/files/u/0123abcd', { link: true })).toBe('http://127.0.0.1:9/files/u/…');
    expect(maskUrl('https://user:pw@host.example/x?a=1', { link: true })).toBe('https://host.example/x?a=…');
    expect(maskUrl('https://api.example/v1/events?id=M1&recipient=a%40b.c&access_token=zz')).toBe('https://api.example/v1/events?id=M1&recipient=a%40b.c&access_token=…');
  });
});

describe('-v import: the upload PUT is traced like every API call', () => {
  it('shows the PUT with its masked address, status, time and size; no key, no token', async () => {
    const dir = tempDir('mailctl-trace-');
    const file = path.join(dir, 'contacts.csv');
    fs.writeFileSync(file, ['EMAIL,NAME', ...Array.from({ length: 150 }, (_, i) => `t${i}@example.com,T ${i}`)].join('\n') + '\n');
    const r = await runCli(['-v', 'import', file, '--group', 'Traced', '--create-group', '--wait'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const put = sb.get().sandbox.requests('files').filter((q) => q.method === 'PUT').at(-1)!;
    const token = put.path.split('/').pop()!;
    expect(token.length).toBeGreaterThan(8);
    const base = new URL(sb.get().campaignUrl).origin;
    expect(r.stderr).toContain(`→ PUT ${base}/files/u/…  no key`);
    expect(r.stderr).toMatch(/← 200 PUT \/files\/u\/… \d+ms, \d\.\d KB sent/);
    expect(r.stderr).toMatch(/→ POST \S+\/v1\/contacts\/imports\/\S+\/file {2}x-api-key: sand…/);
    expect(r.stderr).not.toContain(token);
    expect(r.stderr).not.toContain(SANDBOX_KEYS.campaign);
  });
});

describe('-v report links --out: each download and redirect hop is traced, signatures masked', () => {
  it('GET lines for both hops, the bytes received, and nothing secret', async () => {
    const secret = { sig: 'd3adb33fsignature', cred: 'AKIASECRETCREDENTIAL', token: 'tok-3456' };
    const first = `/files/delivery.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${secret.cred}&X-Amz-Expires=600&X-Amz-Signature=${secret.sig}`;
    hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json([{ reportType: 'delivery', link: hs.get().url + first, createdDate: '2026-01-01T00:00:00Z' }]));
    hs.get().on('GET', '/files/delivery.csv', reply.redirect(`/files/stored.csv?token=${secret.token}`));
    hs.get().on('GET', '/files/stored.csv', reply.text('email,time\nann@example.com,2026-01-01T00:00:00Z\n'));
    const dir = path.join(tempDir('mailctl-trace-'), 'out');
    const r = await runCli(['-v', 'report', 'links', 'CP1', '--out-dir', dir], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    const url = hs.get().url;
    expect(r.stderr).toContain(`→ GET ${url}/files/delivery.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=…&X-Amz-Expires=600&X-Amz-Signature=…  no key`);
    expect(r.stderr).toMatch(/← 302 GET \/files\/delivery\.csv \d+ms, redirected/);
    expect(r.stderr).toContain(`→ GET ${url}/files/stored.csv?token=… (redirect 1)  no key`);
    const size = fs.statSync(path.join(dir, 'CP1_delivery.csv')).size;
    expect(r.stderr).toMatch(new RegExp(`← 200 GET /files/stored\\.csv \\d+ms, ${size} B received`));
    for (const s of [...Object.values(secret), HOSTILE_KEYS.campaign]) expect(r.stderr).not.toContain(s);
  });
});

describe('-v traces the requests that are not to the API either', () => {
  it('webhook trigger: the POST to the consumer, and its answer with the real time', async () => {
    hs.get().on('POST', '/hooks', reply.json({ ok: true }));
    const r = await runCli(['-v', 'webhook', 'trigger', 'delivery', '--url', `${hs.get().url}/hooks?access_token=consumer-secret`], { env: hs.get().env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`→ POST ${hs.get().url}/hooks?access_token=…  no key`);
    expect(r.stderr).toMatch(/← 200 POST \/hooks \d+ms/);
    // (The command's own lines repeat the address the user typed; the trace masks it.)
    expect(r.stderr.split('\n').filter((l) => /^[→←]/.test(l)).join('\n')).not.toContain('consumer-secret');
  });

  it('campaign preflight: each link check', async () => {
    const link = `${sb.get().url}/links/ok`;
    const r = await runCli(['-v', 'campaign', 'preflight', '--name', 'T', '--subject', 'S', '--from', 'news@example.com', '--html', `<p><a href="${link}">x</a></p>`], { sandbox: sb.get() });
    expect(r.stderr).toContain(`→ HEAD ${link}  link check, no key`);
    expect(r.stderr).toMatch(new RegExp(`← 200 HEAD ${link.replace(/[.]/g, '\\.')} \\d+ms`));
  });
});
