// A key holding a control character, a space or a non-ASCII character is refused where it enters —
// `config set-key`, the environment variables, a hand-edited config file — with exit 3, before
// anything is sent, and never shown: not whole, not masked, not in part (the part shown could be
// the bad one). It used to be accepted, sent as a header, and printed in full in every error.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { keyFault } from '../src/config/key-shape.js';

const sb = useSandbox({ expect: ['GET /campaign/v1/balance'] });

// Each a plausible key with one bad character in the middle, and what the message calls it.
const BAD: Array<[string, string, string]> = [
  ['an escape sequence', 'Qx7vR2mZ\u001b[2JpL9kW4tY', 'a control character'],
  ['a bell', 'Qx7vR2mZ\u0007pL9kW4tY', 'a control character'],
  ['a lone CR', 'Qx7vR2mZ\rpL9kW4tY', 'a control character'],
  ['a line break inside', 'Qx7vR2mZ\npL9kW4tY', 'a control character'],
  ['DEL', 'Qx7vR2mZ\u007fpL9kW4tY', 'a control character'],
  ['a space', 'Qx7vR2mZ pL9kW4tY', 'a space'],
  ['a no-break space', 'Qx7vR2mZ\u00a0pL9kW4tY', 'a non-ASCII character'],
  ['a zero-width space', 'Qx7vR2mZ\u200bpL9kW4tY', 'a non-ASCII character'],
  ['an accented letter', 'Qx7vR2mZépL9kW4tY', 'a non-ASCII character'],
  ['a curly quote', 'Qx7vR2mZ\u2019pL9kW4tY', 'a non-ASCII character'],
];

/** Nothing of the key in the output: no run of 3 of its characters (both halves around the bad one are 8 long). */
function noneOf(output: string, key: string): void {
  for (const part of key.split(/[^\x21-\x7e]+/)) {
    for (let i = 0; i + 3 <= part.length; i++) expect(output, `shows "${part.slice(i, i + 3)}" of the key`).not.toContain(part.slice(i, i + 3));
  }
}

describe('the rule', () => {
  it('printable ASCII without spaces is a key; the first fault is named with its place', () => {
    expect(keyFault(SANDBOX_KEYS.campaign)).toBeUndefined();
    expect(keyFault('a-b_c.d/e+f=g~!@#$%^&*()[]{}|;:\'",<>?`\\')).toBeUndefined();
    for (const [what, key, fault] of BAD) expect(keyFault(key), what).toEqual({ fault, at: 9 });
  });
});

describe('config set-key', () => {
  it.each(BAD)('%s: exit 3, nothing saved, no part of the key shown (text and --json)', async (_what, key, fault) => {
    const dir = tempDir();
    for (const json of [[], ['--json']]) {
      const r = await runCli([...json, 'config', 'set-key', '--with-key-stdin'], { configDir: dir, stdin: `${key}\n` });
      expect(r.exitCode).toBe(3);
      expect(r.stdout + r.stderr).toContain(`The key holds ${fault} (character 9); a key is printable ASCII without spaces; nothing was saved.`);
      noneOf(r.stdout + r.stderr, key);
    }
    expect(fs.existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('a line break at the end (printenv, echo) is not part of the key', async () => {
    const dir = tempDir();
    expect((await runCli(['config', 'set-key', '--with-key-stdin'], { configDir: dir, stdin: `${SANDBOX_KEYS.campaign}\r\n` })).exitCode).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.default.apiKey).toBe(SANDBOX_KEYS.campaign);
  });
});

describe('the environment', () => {
  it.each(['MAILCTL_API_KEY', 'MAILCTL_CAMPAIGN_API_KEY', 'MAILCTL_NOTIFY_API_KEY'])('%s holding a bad character: exit 3 naming the variable, nothing sent, no part shown', async (name) => {
    for (const [what, key, fault] of BAD.slice(0, 7)) {
      const before = sb.get().sandbox.requests().length;
      const env = { MAILCTL_CAMPAIGN_API_KEY: undefined, MAILCTL_NOTIFY_API_KEY: undefined, [name]: key };
      for (const argv of [['balance'], ['--json', 'balance'], ['-v', 'balance'], ['config', 'list'], ['doctor']]) {
        const r = await runCli(argv, { sandbox: sb.get(), env });
        expect(r.exitCode, `${what}: ${argv.join(' ')}`).toBe(3);
        expect(r.stdout + r.stderr).toContain(`${name} holds ${fault} (character 9)`);
        noneOf(r.stdout + r.stderr, key);
      }
      expect(sb.get().sandbox.requests().length).toBe(before);
    }
  });
});

describe('a hand-edited config file', () => {
  it.each(['apiKey', 'campaignKey', 'notifyKey'])('"%s" holding a bad character: exit 3 naming the file and field, no part shown; set-key repairs it', async (field) => {
    const [, key, fault] = BAD[0];
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ currentProfile: 'default', profiles: { default: { [field]: key, campaignUrl: sb.get().campaignUrl } } }));
    const before = sb.get().sandbox.requests().length;
    for (const argv of [['balance'], ['--json', 'balance'], ['config', 'list']]) {
      const r = await runCli(argv, { configDir: dir });
      expect(r.exitCode, argv.join(' ')).toBe(3);
      expect(r.stdout + r.stderr).toContain(`"${field}" of profile "default" is wrong: it holds ${fault} (character 9)`);
      expect(r.stdout + r.stderr).toContain(path.join(dir, 'config.json'));
      noneOf(r.stdout + r.stderr, key);
    }
    expect(sb.get().sandbox.requests().length).toBe(before);
    // The fix it names works although the stored key is bad: the writer reads the file unchecked.
    const service = field === 'apiKey' ? 'both' : field === 'campaignKey' ? 'campaign' : 'notify';
    const fixed = await runCli(['config', 'set-key', '--service', service, '--with-key-stdin'], { configDir: dir, stdin: `${SANDBOX_KEYS.campaign}\n` });
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    if (field !== 'notifyKey') {
      const ok = await runCli(['balance'], { configDir: dir });
      expect(ok.exitCode, ok.stderr).toBe(0);
    }
  });
});
