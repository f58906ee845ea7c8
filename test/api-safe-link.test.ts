// Where a keyless transfer may go (src/api/safe-link.ts), for links and upload addresses alike:
// a host NAME that resolves to a metadata or link-local address is refused like the address
// itself (all its addresses are checked; DNS answers are injected here, the machine has no
// resolver to trick), plain http only from a loopback service to loopback; and the import
// upload address, given by a hostile service, is held to the same rules on every hop.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLink, type LinkPolicy } from '../src/api/safe-link.js';
import { CliError } from '../src/core/errors.js';
import { runCli, tempDir } from './helpers/cli.js';
import { HOSTILE_KEYS, reply, useHostileServer } from './helpers/hostile-server.js';

const PUBLIC = '93.184.216.34';
const resolver = (answers: Record<string, string[]>) => {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    if (!answers[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers[host];
  };
  return { asked, lookup };
};

async function refusal(url: string, policy: LinkPolicy): Promise<CliError> {
  const e = await checkLink(url, policy, 'the link to the delivery file').then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(CliError);
  return e as CliError;
}

describe('checkLink: names, addresses, schemes', () => {
  it('an https host whose addresses include a metadata or link-local one is refused, naming it', async () => {
    const { lookup } = resolver({ 'files.example.com': [PUBLIC, '169.254.169.254'], 'v6.example.com': ['2606:2800:220:1::1', 'fe80::1%eth0'], 'rebind.example.com': ['::ffff:169.254.169.254'] });
    const meta = await refusal('https://files.example.com/r.csv?sig=secret', { allowLoopbackHttp: false, lookup });
    expect(meta.exitCode).toBe(1);
    expect(meta.facts).toMatchObject({ code: 'BAD_RESPONSE', retryable: false });
    expect(meta.message).toBe('The link to the delivery file points at files.example.com (169.254.169.254), a cloud metadata address; mailctl does not connect there.');
    expect(meta.message).not.toContain('secret');
    expect((await refusal('https://v6.example.com/x', { allowLoopbackHttp: false, lookup })).message).toContain('(fe80::1%eth0), a link-local address');
    expect((await refusal('https://rebind.example.com/x', { allowLoopbackHttp: false, lookup })).message).toContain('a cloud metadata address');
  });

  it('an https host with only ordinary addresses passes, with the addresses to connect to', async () => {
    const { lookup } = resolver({ 'files.example.com': [PUBLIC, '2606:2800:220:1::1'] });
    const ok = await checkLink('https://files.example.com/r.csv', { allowLoopbackHttp: false, lookup }, 'the link');
    expect(ok.addresses).toEqual([PUBLIC, '2606:2800:220:1::1']);
  });

  it('plain http is refused unless the service itself is on loopback, and then only to loopback', async () => {
    const { lookup, asked } = resolver({ 'files.example.com': [PUBLIC], 'localhost': ['127.0.0.1', '::1'] });
    const remote = await refusal('http://files.example.com/r.csv', { allowLoopbackHttp: false, lookup });
    expect(remote.message).toContain('not https: mailctl fetches files only over https');
    expect(asked).toEqual([]); // refused before any lookup
    expect((await refusal('http://files.example.com/r.csv', { allowLoopbackHttp: true, lookup })).message).toContain('not https');
    expect((await refusal('http://127.0.0.1:8080/r.csv', { allowLoopbackHttp: false, lookup })).message).toContain('not https');
    await expect(checkLink('http://localhost:8080/r.csv', { allowLoopbackHttp: true, lookup }, 'the link')).resolves.toMatchObject({ addresses: ['127.0.0.1', '::1'] });
  });

  it('other schemes and metadata host names are refused without a lookup', async () => {
    const { lookup, asked } = resolver({});
    expect((await refusal('file:///etc/passwd', { allowLoopbackHttp: true, lookup })).message).toContain('file: address');
    expect((await refusal('https://metadata.google.internal./computeMetadata/v1/', { allowLoopbackHttp: false, lookup })).message).toContain('a cloud metadata service');
    expect(asked).toEqual([]);
  });

  it('a name that does not resolve is a network failure (exit 4), not a refusal', async () => {
    const { lookup } = resolver({});
    const e = await refusal('https://nowhere.example.com/x', { allowLoopbackHttp: false, lookup });
    expect(e.exitCode).toBe(4);
    expect(e.message).toContain('Cannot find nowhere.example.com, the host of the link to the delivery file (ENOTFOUND)');
  });
});

describe('the import upload address from a hostile service', () => {
  const hs = useHostileServer();

  function service(uploadUrl: string): string {
    hs.get().on('GET', '/campaign/v1/contacts/lists', reply.json([{ sn: 'LS1', name: 'Readers', status: 'GENERAL' }]));
    hs.get().on('POST', '/campaign/v1/contacts/imports/LS1/file', reply.json({ importSn: 'IM1', url: uploadUrl.replace('HS', hs.get().url) }));
    hs.get().on('GET', '/campaign/v1/contacts/imports/result/IM1', reply.json({ importSn: 'IM1', status: 'PROCESSING' }));
    const file = path.join(tempDir(), 'contacts.csv');
    fs.writeFileSync(file, `EMAIL,NAME\n${Array.from({ length: 120 }, (_, i) => `p${i}@example.com,P ${i}`).join('\n')}\n`);
    return file;
  }
  const puts = () => hs.get().requests.filter((q) => q.method === 'PUT');

  it('an upload address at the metadata service: refused, exit 1, nothing uploaded', async () => {
    const file = service('http://169.254.169.254/latest/user-data?sig=abc');
    const r = await runCli(['import', file, '--group', 'LS1', '--no-wait'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The upload address points at 169.254.169.254, a cloud metadata address; mailctl does not connect there.');
    expect(r.stderr).toContain('Import IM1 will not go ahead without its file.');
    expect(puts()).toEqual([]);
  });

  it('a redirect from the upload host to a link-local address is not followed', async () => {
    const file = service('HS/upload/1?sig=abc');
    hs.get().on('PUT', '/upload/1', reply.redirect('http://[fe80::1]/steal', 307));
    const r = await runCli(['import', file, '--group', 'LS1', '--no-wait'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`The upload address redirected from ${hs.get().url} to fe80::1, a link-local address; mailctl does not follow it.`);
    expect(puts().map((q) => q.path)).toEqual(['/upload/1']);
  });

  it('a 307 to another allowed address gets the whole file again, without the key', async () => {
    const file = service('HS/upload/1?sig=abc');
    hs.get().on('PUT', '/upload/1', reply.redirect('/upload/2?sig=def', 307));
    hs.get().on('PUT', '/upload/2', reply.text('', 200));
    const r = await runCli(['import', file, '--group', 'LS1', '--no-wait'], { env: hs.get().env });
    expect(r.stderr).not.toContain('error');
    expect(r.exitCode).toBe(0);
    const [first, second] = puts();
    expect(second.path).toBe('/upload/2');
    expect(second.body.split('\n').filter(Boolean)).toHaveLength(121);
    expect(second.body).toBe(first.body);
    for (const q of puts()) expect(JSON.stringify(q.headers)).not.toContain(HOSTILE_KEYS.campaign);
  });

  it('the upload host\'s refusal is shown without its escape sequences', async () => {
    const file = service('HS/upload/1');
    hs.get().on('PUT', '/upload/1', reply.text('\u001b]0;owned\u0007\u001b[2JAccessDenied', 403, { 'content-type': 'text/plain' }));
    const r = await runCli(['import', file, '--group', 'LS1', '--no-wait'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('refused the file (HTTP 403: \\e]0;owned\\x07\\e[2JAccessDenied)');
    expect(r.stderr).not.toContain('\u001b');
  });
});
