// Which output a run prints (src/run/output/choice.ts): flags beat the profile's `output` setting,
// which beats auto; conflicting flags and a --csv the command cannot print are exit 2 before any
// request; CSV stays formula-safe, exact when piped and free of control characters on a terminal.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignFixtures } from './helpers/campaign-setup.js';
import { eventually, notifyApi } from './helpers/notify-api.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /notify/v1/events',
    'POST /notify/v1/messages',
  ],
});
const fx = campaignFixtures(sb.get);
const notify = notifyApi(sb.get);
const HOSTILE = 'Evil\u001b]0;pwned\u0007\u009b31m name';
const FORMULA = '=HYPERLINK("http://evil.example/","x")';
const requests = () => sb.get().sandbox.requests().length;

/** A profile with `output` set, in a config folder of its own. */
async function withSetting(value: string): Promise<string> {
  const dir = tempDir();
  const r = await runCli(['config', 'set', 'output', value], { configDir: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  return dir;
}
const run = (argv: string[], o: { tty?: boolean; configDir?: string } = {}) => runCli(argv, { sandbox: sb.get(), tty: o.tty, configDir: o.configDir, env: { NO_COLOR: '1' } });

beforeAll(async () => {
  await fx.group(HOSTILE, 0);
  await fx.group(FORMULA, 0);
});

describe('the profile output setting, and flags over it', () => {
  it('config set output checks the value: the five formats are taken, anything else is exit 2', async () => {
    for (const v of ['auto', 'table', 'tsv', 'json', 'csv']) await withSetting(v);
    const bad = await runCli(['config', 'set', 'output', 'yaml'], { configDir: tempDir() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('output "yaml" is not one of auto, table, tsv, json, csv');
  });

  it('json: a piped list is one JSON document; --csv and --output tsv beat it', async () => {
    const dir = await withSetting('json');
    const json = await run(['groups', 'list'], { configDir: dir });
    expect(JSON.parse(json.stdout).map((g: { name: string }) => g.name)).toContain(FORMULA);
    const csv = await run(['groups', 'list', '--csv'], { configDir: dir });
    expect(csv.stdout.split('\n')[0]).toBe('code,name,status,subscribed,excluded,open_rate,click_rate,updated');
    const tsv = await run(['--output', 'tsv', 'groups', 'list'], { configDir: dir });
    expect(tsv.stdout).toContain(`\t${FORMULA}\t`);
  });

  it('csv: lists and records print CSV; --json beats it; a command with no list prints as auto', async () => {
    const dir = await withSetting('csv');
    expect((await run(['balance'], { configDir: dir })).stdout).toMatch(/^email,sms\n\d+,\d+\n$/);
    expect(JSON.parse((await run(['balance', '--json'], { configDir: dir })).stdout)).toHaveProperty('email');
    // `config path` prints no list or record: the setting does not make it fail.
    const p = await run(['config', 'path'], { configDir: dir });
    expect(p.exitCode).toBe(0);
    expect(p.stdout).toContain(dir);
  });

  it('tsv: TSV on a terminal too; --output table brings the table back', async () => {
    const dir = await withSetting('tsv');
    expect((await run(['balance'], { tty: true, configDir: dir })).stdout).toMatch(/^email\t\d+\nsms\t\d+\n$/);
    expect((await run(['--output', 'table', 'balance'], { tty: true, configDir: dir })).stdout).toMatch(/^email +[\d,]+\nsms +[\d,]+\n$/);
  });

  it('table: a table even piped, without colour codes; --output auto gives TSV back', async () => {
    const dir = await withSetting('table');
    const r = await runCli(['groups', 'list'], { sandbox: sb.get(), configDir: dir });
    expect(r.stdout).toMatch(/^CODE +NAME +STATUS/);
    expect(r.stdout).not.toContain('\t');
    expect(r.stdout).not.toContain('\u001b[');
    expect((await run(['groups', 'list', '--output', 'auto'], { configDir: dir })).stdout).toMatch(/^code\tname\tstatus\t/);
  });

  it('the setting of the profile in use: --profile picks another profile and its setting', async () => {
    const dir = tempDir();
    expect((await runCli(['--profile', 'scripts', 'config', 'set', 'output', 'json'], { configDir: dir })).exitCode).toBe(0);
    expect((await run(['balance'], { configDir: dir })).stdout).toMatch(/^email\t/);
    expect(JSON.parse((await run(['--profile', 'scripts', 'balance'], { configDir: dir })).stdout)).toHaveProperty('sms');
  });
});

describe('refused before any request (exit 2)', () => {
  const refused = async (argv: string[], words: string) => {
    const before = requests();
    const r = await run(argv);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(words);
    expect(requests()).toBe(before);
  };

  it('--csv on a command that prints no list or record names the command', async () => {
    await refused(['events', 'tail', '--for', '3s', '--csv'], '`mailctl events tail` prints no list or record, so it takes no --csv.');
    await refused(['report', 'sync', '--out-dir', tempDir(), '--csv'], '`mailctl report sync` prints no list or record');
    await refused(['groups', 'create', 'X', '--output', 'csv'], 'so it takes no --output csv');
  });

  it('two outputs at once', async () => {
    await refused(['groups', 'list', '--json', '--csv'], '--json and --csv ask for different outputs; choose one.');
    await refused(['groups', 'list', '--csv', '--output', 'tsv'], '--csv and --output tsv ask for different outputs');
    await refused(['groups', 'list', '--csv', '--query', '[0]'], '--csv and --query ask for different outputs');
  });

  it('--csv with a dry run, which prints requests, not a list', async () => {
    await refused(['send', '--to', 'a@example.com', '--subject', 'x', '--html', 'x', '--from', 'noreply@example.com', '--dry-run', '--csv'], 'A dry run prints the requests it would send, not a list');
  });

  it('template show --out - (raw html on stdout) with --csv', async () => {
    await refused(['template', 'show', 'T1', '--out', '-', '--csv'], '--out - writes the raw html to stdout, but this run prints CSV there');
  });

  it('an unknown --output format', async () => {
    await refused(['groups', 'list', '--output', 'yaml'], "argument 'yaml' is invalid");
  });
});

describe('CSV', () => {
  it('piped: exact data — a control character in a name stays as the service sent it, quoted by the CSV rules', async () => {
    const r = await run(['groups', 'list', '--csv']);
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((g) => g.name)).toContain(HOSTILE);
  });

  it('on a terminal: control characters shown as escapes, never written raw', async () => {
    const r = await run(['groups', 'list', '--csv'], { tty: true });
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toContain('Evil\\e]0;pwned\\x07\\x9b31m name');
  });

  it('events --csv on a terminal: a subject that would retitle the window is shown, not obeyed; piped it is exact', async () => {
    await notify('POST', '/v1/messages', { subject: HOSTILE, fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: [{ address: 'ctl@example.com' }] });
    await eventually(async () => ((await notify('GET', '/v1/events?recipient=ctl@example.com')).body.logs ?? []).length > 0, 'the event');
    const tty = await run(['events', '--recipient', 'ctl@example.com', '--since', '1h', '--csv'], { tty: true });
    expect(tty.exitCode).toBe(0);
    expect(tty.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(tty.stdout).toContain('Evil\\e]0;pwned\\x07\\x9b31m name');
    const piped = parse((await run(['events', '--recipient', 'ctl@example.com', '--since', '1h', '--csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(piped[0].subject).toBe(HOSTILE);
  });

  it('formula-like cells are written as text, piped and on a terminal', async () => {
    for (const tty of [false, true]) {
      const rows = parse((await run(['groups', 'list', '--csv'], { tty })).stdout, { columns: true }) as Array<Record<string, string>>;
      expect(rows.map((g) => g.name)).toContain(`'${FORMULA}`);
    }
  });

  it('an empty list is still a header, so a spreadsheet import sees the columns', async () => {
    const r = await run(['events', '--since', '1m', '--recipient', 'nobody@example.com', '--csv']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('time,status,message_id,recipient,subject,detail\n');
  });
});
