// src/api/redact.ts, applied by src/api/http.ts to every answer it reads (errors and successes): a service that
// echoes the key back (in an error's message or code, in a redirect's Location) must not get it
// printed — not in the sentence, not in --json's serviceMessage/serviceCode, not under -v. Every
// key the run knows is masked as the -v trace shows it ("SUPE…56").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactor } from '../src/api/redact.js';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();
const KEY = 'SUPERSECRETKEY123456';
const MASK = 'SUPE…56';
const GROUPS = '/campaign/v1/contacts/lists';

/** Both services on the hostile server, one key for both (MAILCTL_API_KEY). */
const env = () => ({ MAILCTL_CAMPAIGN_URL: hs.get().campaignUrl, MAILCTL_NOTIFY_URL: hs.get().notifyUrl, MAILCTL_API_KEY: KEY });

describe('redactor', () => {
  it('masks each key wherever it appears in a parsed body: values, nested values, names, and as a URL carries it', () => {
    const other = 'other/key+with=signs';
    const redact = redactor([KEY, other, undefined, '']);
    expect(redact({ errorCode: `E${KEY}`, message: `bad key ${KEY} and ${KEY}`, list: [{ deep: `x${encodeURIComponent(other)}y` }], [KEY]: 1, n: 5 })).toEqual({
      errorCode: `E${MASK}`,
      message: `bad key ${MASK} and ${MASK}`,
      list: [{ deep: 'xothe…nsy' }],
      [MASK]: 1,
      n: 5,
    });
    expect(redact(`?k=${KEY}`)).toBe(`?k=${MASK}`);
    expect(redact(null)).toBeNull();
  });

  it('finds a URL-encoded key whatever the case of its hex digits, and with letters encoded that need not be', () => {
    const key = 'SeCrEtKeY/abc+def==';
    const redact = redactor([key]);
    for (const form of ['SeCrEtKeY%2fabc%2bdef%3d%3d', 'SeCrEtKeY%2Fabc%2bdef%3D%3d', '%53eCrEtKeY%2fabc+def%3d=']) expect(redact(`?k=${form}&x=1`), form).toBe('?k=SeCr…==&x=1');
    // A mask with $ in it is put in as it is, not read as a replacement pattern.
    expect(redactor(['$&$1key-1234'])('a $&$1key-1234 b')).toBe('a $&$1…34 b');
  });

  it('finds the key echoed in another letter case: all lower, all upper, or mixed, also URL-encoded', () => {
    const key = 'MixedCaseKey/42Zz';
    const redact = redactor([key]);
    const mask = 'Mixe…Zz';
    for (const form of [key.toLowerCase(), key.toUpperCase(), 'mIXEDcASEkEY/42zZ', encodeURIComponent(key.toUpperCase()), encodeURIComponent(key).toLowerCase()]) {
      expect(redact(`bad key ${form}.`), form).toBe(`bad key ${mask}.`);
      expect(redact.mayHoldKey(`{"m":"${form}"}`), form).toBe(true);
    }
    // Other text is left alone.
    expect(redact('MixedCaseKey/41Zz')).toBe('MixedCaseKey/41Zz');
  });

  it('does not look for a key too short to be one (it would blank out ordinary words)', () => {
    expect(redactor(['abc'])('abc abc')).toBe('abc abc');
  });

  it('drops what nests deeper than any real answer instead of overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(20_000) + JSON.stringify(KEY) + ']'.repeat(20_000)) as unknown;
    expect(JSON.stringify(redactor([KEY])(deep))).not.toContain(KEY);
  });
});

describe('a service that echoes the key back', () => {
  it.each([400, 403, 500])('HTTP %i {errorCode: "E"+key, message: "bad key "+key}: the key shows nowhere, with --json, without, and with -v', async (status) => {
    hs.get().on('GET', GROUPS, reply.json({ errorCode: `E${KEY}`, message: `bad key ${KEY}` }, status));
    for (const argv of [['groups', 'list', '--json'], ['groups', 'list'], ['-v', 'groups', 'list'], ['-v', 'groups', 'list', '--json']]) {
      const r = await runCli(argv, { env: env(), tuning: { retryBaseMs: 1 } });
      expect(r.exitCode, argv.join(' ')).toBe(1);
      expect(r.stdout + r.stderr, argv.join(' ')).not.toContain(KEY);
      // The service's words are still shown, the key masked in them.
      expect(r.stderr).toContain(`bad key ${MASK}`);
      if (argv.includes('--json')) {
        const { error } = JSON.parse(r.stdout) as { error: Record<string, unknown> };
        expect(error).toMatchObject({ serviceCode: `E${MASK}`, serviceMessage: `bad key ${MASK}` });
      }
    }
  });

  it('a service that echoes the key upper- or lower-cased: masked as well, in the sentence, --json and -v', async () => {
    const key = 'SuperSecretKey123456';
    for (const echoed of [key.toUpperCase(), key.toLowerCase()]) {
      hs.get().on('GET', GROUPS, reply.json({ errorCode: 'E1', message: `bad key ${echoed}` }, 403));
      for (const argv of [['groups', 'list', '--json'], ['-v', 'groups', 'list']]) {
        const r = await runCli(argv, { env: { ...env(), MAILCTL_API_KEY: key } });
        expect(r.stdout + r.stderr, argv.join(' ')).not.toMatch(new RegExp(key, 'i'));
        expect(r.stdout + r.stderr).toContain('bad key Supe…56');
      }
    }
  });

  it('the other service\'s key is masked too (the campaign service names the notification key)', async () => {
    const notifyKey = 'notify-key-abcdef123456';
    hs.get().on('GET', GROUPS, reply.json({ message: `use ${notifyKey} instead` }, 400));
    const r = await runCli(['groups', 'list', '--json'], { env: { ...env(), MAILCTL_API_KEY: undefined, MAILCTL_CAMPAIGN_API_KEY: KEY, MAILCTL_NOTIFY_API_KEY: notifyKey } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(notifyKey);
    expect(r.stderr).toContain('use noti…56 instead');
  });

  it.each([
    ['as is', `https://elsewhere.example/login?k=${KEY}`],
    ['URL-encoded', `https://elsewhere.example/login?k=${encodeURIComponent(`${KEY}/+=`)}`],
    ['URL-encoded in lower case', `https://elsewhere.example/login?k=${encodeURIComponent(`${KEY}/+=`).toLowerCase().replace(KEY.toLowerCase(), KEY)}`],
  ])('a redirect whose Location carries the key (%s): the error names the address with the key masked, -v and --json too', async (_, location) => {
    const key = location.includes('%') ? `${KEY}/+=` : KEY;
    hs.get().on('GET', GROUPS, reply.redirect(location));
    for (const argv of [['-v', 'groups', 'list'], ['-v', 'groups', 'list', '--json']]) {
      const r = await runCli(argv, { env: { ...env(), MAILCTL_API_KEY: key } });
      expect(r.exitCode).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stderr).toContain('with a redirect to https://elsewhere.example/login?k=SUPE…');
    }
  });
});

describe('a success answer that echoes the key', () => {
  it('send: a notify 200 whose failure reason names the key — the key is in neither stdout, stderr nor the send journal', async () => {
    hs.get().on('POST', '/notify/v1/messages', reply.json({ id: 'R1', success: [], failure: { 'a@example.com': `key ${KEY} is not allowed to send` } }));
    const configDir = tempDir('mailctl-redact-');
    for (const argv of [['send'], ['-v', 'send', '--json']]) {
      const r = await runCli([...argv, '--to', 'a@example.com', '--subject', 's', '--html', '<p>x</p>', '--from', 'noreply@example.com'], { env: env(), configDir });
      expect(r.exitCode, argv.join(' ')).toBe(1);
      expect(r.stdout + r.stderr, argv.join(' ')).not.toContain(KEY);
      // The reason itself is still reported, the key masked in it.
      expect(r.stdout + r.stderr).toContain(`key ${MASK} is not allowed`);
    }
    const files = fs.readdirSync(configDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    const journals = files.filter((d) => /journal/i.test(path.join(d.parentPath, d.name)));
    expect(journals.length).toBeGreaterThan(0);
    for (const d of files) expect(fs.readFileSync(path.join(d.parentPath, d.name), 'utf8'), d.name).not.toContain(KEY);
  });

  it('a JSON-escaped key (\\u0053…) in a 200 answer is masked once parsed', async () => {
    const escaped = `\\u${KEY.charCodeAt(0).toString(16).padStart(4, '0')}${KEY.slice(1)}`;
    hs.get().on('GET', GROUPS, reply.text(`[{"sn":"G1","name":"${escaped}"}]`, 200, { 'content-type': 'application/json' }));
    const r = await runCli(['groups', 'list', '--json'], { env: env() });
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stdout).toContain(MASK);
  });
});
