// src/api/files.ts: the facts of a keyless transfer that failed for good. An upload that broke
// while its file was on the way may have arrived, so it must never say "certainly not reached"
// (a caller would then treat the import as safe to start over as if nothing happened). A download
// that keeps coming in, too slowly for any real link, is given up (the idle guard alone let a
// line every few seconds hold `report sync` and its lock for ever).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadFile, putFile, type MinRate } from '../src/api/files.js';
import { systemClock } from '../src/core/clock.js';
import { certainlyNotDone, CliError, ExitCode } from '../src/core/errors.js';
import { tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { unusedPort } from './helpers/wait.js';

const hs = useHostileServer();

function csv(): string {
  const file = path.join(tempDir(), 'contacts.csv');
  fs.writeFileSync(file, 'EMAIL\n' + 'someone@example.com\n'.repeat(2000));
  return file;
}

async function upload(url: string): Promise<CliError> {
  const e = await putFile({ fetch: globalThis.fetch, url, file: csv(), policy: { allowLoopbackHttp: true }, clock: systemClock, retries: 2, retryBaseMs: 1, stallMs: 5000 }).then(
    () => { throw new Error('expected the upload to fail'); },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CliError);
  return e as CliError;
}

describe('putFile: facts after the retries', () => {
  it('the connection broke after the file was sent: reached "maybe", not certainly undone (exit 4)', async () => {
    hs.get().on('PUT', '/upload', (res) => void res.socket?.destroy());
    const e = await upload(`${hs.get().url}/upload`);
    expect(hs.get().requests.filter((r) => r.method === 'PUT')).toHaveLength(3);
    expect(hs.get().requests[0].body.length).toBeGreaterThan(30_000); // the file did go out
    expect(e.facts).toMatchObject({ code: 'NETWORK', reached: 'maybe', refused: false });
    expect(certainlyNotDone(e)).toBe(false);
    expect(e.exitCode).toBe(ExitCode.LIMIT);
  });

  it('the storage host kept failing (5xx): reached "yes", the answer\'s status, exit 1', async () => {
    hs.get().on('PUT', '/upload', reply.text('<Error>busy</Error>', 503, { 'content-type': 'application/xml' }));
    const e = await upload(`${hs.get().url}/upload`);
    expect(hs.get().requests).toHaveLength(3);
    expect(e.facts).toMatchObject({ code: 'SERVICE_FAILED', reached: 'yes', refused: false, status: 503 });
    expect(certainlyNotDone(e)).toBe(false);
    expect(e.exitCode).toBe(ExitCode.FAILED);
  });

  it('nothing listens at the address: reached "no", certainly undone', async () => {
    const e = await upload(`http://127.0.0.1:${await unusedPort()}/upload`);
    expect(e.facts).toMatchObject({ code: 'NETWORK', reached: 'no' });
    expect(certainlyNotDone(e)).toBe(true);
  });

  it('a refusal (4xx) is not retried: one request, reached "yes", refused', async () => {
    hs.get().on('PUT', '/upload', reply.text('expired', 403, { 'content-type': 'text/plain' }));
    const e = await upload(`${hs.get().url}/upload`);
    expect(hs.get().requests).toHaveLength(1);
    expect(e.facts).toMatchObject({ code: 'REFUSED', reached: 'yes', refused: true, retryable: false, status: 403 });
  });
});

describe('downloadFile: a host that sends too slowly', () => {
  // The floor scaled down so a test need not wait a minute: 4 KiB per half second.
  const FLOOR: MinRate = { bytes: 4096, windowMs: 500 };

  async function fetchTo(path: string): Promise<{ dir: string; dest: string; result: Promise<number> }> {
    const dir = tempDir('mailctl-download-');
    const dest = `${dir}/report.csv`;
    const result = downloadFile(globalThis.fetch, `${hs.get().url}${path}`, dest, {
      policy: { allowLoopbackHttp: true }, what: 'the delivery file', expiredHint: 'Ask for a fresh link.', stallMs: 1000, minRate: FLOOR,
    });
    return { dir, dest, result };
  }

  it('a line every 100 ms never goes quiet for the idle guard, but is far under the floor: given up (exit 4, TIMEOUT), nothing saved', async () => {
    let clientLeft: boolean | undefined;
    hs.get().on('GET', '/files/slow.csv', reply.trickle({ head: 'email\n', drip: 'someone@example.com\n', everyMs: 100, forMs: 3000, contentType: 'text/csv', onDone: (left) => (clientLeft = left) }));
    const { dir, result } = await fetchTo('/files/slow.csv');
    const e = (await result.then(() => { throw new Error('expected the download to be given up'); }, (err: unknown) => err)) as CliError;
    expect(e).toBeInstanceOf(CliError);
    expect(e.exitCode).toBe(ExitCode.LIMIT);
    expect(e.facts).toMatchObject({ code: 'TIMEOUT', reached: 'maybe' });
    expect(e.message).toMatch(/^Downloading the delivery file from http:\/\/127\.0\.0\.1:\d+ stopped: only \d+ B arrived in 0\.5 s, less than the 4\.0 KB per 0\.5 s any real link carries; nothing was saved\.$/);
    expect(fs.readdirSync(dir)).toEqual([]);
    await expect.poll(() => clientLeft).toBeDefined();
    expect(clientLeft).toBe(true);
  });

  it('a download well over the floor through several windows is kept whole', async () => {
    const drip = 'x'.repeat(16 * 1024);
    hs.get().on('GET', '/files/steady.csv', reply.trickle({ head: '', drip, everyMs: 50, forMs: 1500, contentType: 'text/csv' }));
    const { dest, result } = await fetchTo('/files/steady.csv');
    expect(await result).toBe(30 * drip.length);
    expect(fs.statSync(dest).size).toBe(30 * drip.length);
  });
});
