// src/cli/suggest.ts shellQuote: a suggested command may carry a word a service chose (a
// campaign or group code). Printed, it must act on nothing in the terminal; pasted into bash, it
// must give back exactly that word.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { unusedPort } from './helpers/wait.js';
import { shellQuote } from '../src/cli/suggest.js';
import { TERMINAL_UNSAFE } from './helpers/hostile-server.js';

const pasted = (line: string) => execFileSync('bash', ['-c', `printf '%s' ${line}`], { encoding: 'utf8' });

describe('shellQuote', () => {
  it.each([
    ['plain', 'CP123'],
    ['spaces and quotes', "it's a \"group\" name"],
    ['an OSC title change', 'CP\u001b]0;owned\u0007'],
    ['a screen clear and a backslash', 'G\u001b[2J\\x'],
    ['bidi override and C1 CSI', 'inv\u202egpj.exe\u009b31m'],
    ['a newline and a tab', 'a\nb\tc'],
  ])('%s: safe to print, and pastes back exactly', (_name, word) => {
    const q = shellQuote(word);
    expect(q).not.toMatch(TERMINAL_UNSAFE);
    expect(q).not.toMatch(/[\n\t]/);
    expect(pasted(q)).toBe(word);
  });
});

// Every hint is a command the user can paste: run with --profile and --sandbox, each `mailctl …`
// it suggests carries both, so pasted it reaches the same account and services (issue 12 item 1).
describe('hints carry the flags that chose this run', () => {
  // A fresh sandbox each (the in-process sandbox keeps its 2/s limit); no "mailctl" in the path.
  const run = (configDir: string, ...argv: string[]) => runCli(['--sandbox', '--profile', 'x', ...argv], { configDir });
  /** Every suggested command in the text: `mailctl` and the words up to a closing backtick, a period or the line's end. */
  const suggested = (text: string) => [...text.matchAll(/\bmailctl\b[^`\n]*/g)].map((m) => m[0]);

  it.each([
    ['a group that does not exist', ['import', 'CONTACTS', '--group', 'Nope']],
    ['--download-failures with --no-wait', ['import', 'CONTACTS', '--group', 'G', '--no-wait', '--download-failures']],
    ['an empty import code', ['import', 'status', '']],
    ['an unknown campaign (status)', ['campaign', 'status', 'CP404']],
    ['an unknown campaign (pause)', ['campaign', 'pause', 'CP404', '--yes']],
    ['a service code sentence (report links of an unknown campaign)', ['report', 'links', 'CP404']],
    ['a campaign with a missing template id', ['campaign', 'create', '--name', 'N', '--group', 'G', '--exclude', 'E', '--subject', 'S', '--template', ' ']],
    ['no webhooks yet', ['webhook', 'list']],
    ['an SMS lookup with no number', ['events', '--sms']],
    ['an empty group name', ['groups', 'create', '']],
    ['a profile that does not exist', ['config', 'use', 'nosuch']],
  ])('%s', async (_what, argv) => {
    const configDir = tempDir('hints-');
    const contacts = path.join(configDir, 'contacts.csv');
    fs.writeFileSync(contacts, 'EMAIL,NAME\nann@example.com,Ann\n');
    const r = await run(configDir, ...argv.map((a) => (a === 'CONTACTS' ? contacts : a)));
    const found = suggested(r.stderr);
    expect(found.length, r.stderr).toBeGreaterThan(0);
    const profile = argv[1] === 'use' ? 'nosuch' : 'x'; // `config use NAME` suggests storing a key in NAME
    for (const line of found) expect(line, r.stderr).toMatch(new RegExp(`^mailctl --profile ${profile} --sandbox \\S`));
  });

  it('without --sandbox, the key and base-URL hints carry --profile (and the key hint the profile the file chose)', async () => {
    const configDir = tempDir('hints-');
    const port = await unusedPort();
    const unreachable = await runCli(['--profile', 'x', 'balance'], { configDir, env: { MAILCTL_CAMPAIGN_URL: `http://127.0.0.1:${port}`, MAILCTL_CAMPAIGN_API_KEY: 'some-key-123456' } });
    expect(unreachable.exitCode).toBe(4);
    expect(suggested(unreachable.stderr)).toEqual(['mailctl --profile x config list']);
    const noKey = await runCli(['balance'], { configDir, env: { MAILCTL_PROFILE: 'staging' } });
    expect(noKey.exitCode).toBe(3);
    // The profile MAILCTL_PROFILE chose goes in as a flag; the config folder from the environment is noted.
    expect(noKey.stderr).toContain(`Run mailctl --profile staging config set-key --service campaign  (with MAILCTL_CONFIG_DIR=${configDir} set, as now)`);
  });
});
