// Output and IO (issue 2 items 5–7): --json is one document, pipes get plain TSV with no
// colour or spinner, terminals get tables, NO_COLOR is honoured; paging flags reach the
// service; template show --out; usage errors exit 2 with the usage line and send nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSI, runCli, tempDir } from './helpers/cli.js';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox();
const sandbox = () => sb.get().sandbox;
// ora's default "dots" spinner frames.
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

beforeAll(async () => {
  for (const name of ['Alpha', 'Beta', 'Gamma']) expect((await runCli(['groups', 'create', name], { sandbox: sb.get() })).exitCode).toBe(0);
});

describe('--json prints exactly one JSON document on stdout', () => {
  const parse = (stdout: string) => JSON.parse(stdout) as unknown; // throws on two documents or stray text

  it('balance', async () => {
    const r = await runCli(['--json', 'balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(parse(r.stdout)).toEqual({ email: expect.any(Number), sms: expect.any(Number) });
  });

  it('groups list (even with --all, which would otherwise animate a spinner)', async () => {
    const r = await runCli(['groups', 'list', '--all', '--json'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    const groups = parse(r.stdout) as Array<{ name: string }>;
    expect(groups.map((g) => g.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(r.stderr).not.toMatch(SPINNER);
  });

  it('template list', async () => {
    const r = await runCli(['template', 'list', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(parse(r.stdout)).toMatchObject({ capacity: expect.any(Number), templates: expect.arrayContaining([expect.objectContaining({ id: 'tpl_welcome' })]) });
  });

  it('config list (keys masked inside the JSON too)', async () => {
    const r = await runCli(['config', 'list', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = parse(r.stdout) as { settings: Record<string, { value: string }> };
    expect(doc.settings['campaign-url'].value).toBe(sb.get().campaignUrl);
    expect(r.stdout).not.toContain(SANDBOX_KEYS.campaign);
  });

  it('an error: one document holding the error, and the exit code kept', async () => {
    const r = await runCli(['template', 'show', 'no_such_template', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(parse(r.stdout)).toEqual({ error: expect.objectContaining({ exitCode: 1, message: expect.stringContaining('The code (sn) is invalid') }) }); // 40007
  });

  it('a usage error caught while parsing flags: still one document, exit 2, nothing sent', async () => {
    const from = sandbox().requests().length;
    const r = await runCli(['--json', 'groups', 'list', '--bogus'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(parse(r.stdout)).toEqual({ error: { code: 'USAGE', message: "unknown option '--bogus'", exitCode: 2 } });
    expect(r.stderr).toContain('Usage: mailctl groups list');
    expect(sandbox().requests().length).toBe(from);
  });

  it('-v traces on stderr and leaves stdout a single document', async () => {
    const r = await runCli(['-v', '--json', 'balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(parse(r.stdout)).toHaveProperty('email');
    expect(r.stderr).toContain('GET ');
  });
});

describe('terminal vs pipe', () => {
  it('piped: tab-separated rows with ISO dates, no ANSI codes, no spinner frames, no table borders', async () => {
    const r = await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), tty: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(ANSI);
    expect(r.stderr).not.toMatch(SPINNER);
    expect(r.stdout).not.toMatch(/[│┌─]/);
    const lines = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(lines.map((cols) => cols[1])).toEqual(['Alpha', 'Beta', 'Gamma']);
    for (const cols of lines) {
      expect(cols).toHaveLength(8);
      expect(cols[7]).toMatch(ISO);
    }
  });

  it('terminal: a table with headers and relative dates, colour on, and a spinner while walking pages', async () => {
    const r = await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    const plain = r.stdout.replace(new RegExp(ANSI.source, 'g'), '');
    expect(plain).toMatch(/^┌/);
    expect(plain).toMatch(/│ CODE +│ NAME +│ STATUS/);
    expect(plain).toMatch(/│ Alpha +│ GENERAL/);
    expect(plain).toMatch(/seconds? ago|minutes? ago/);
    expect(r.stderr).toMatch(SPINNER);
  });

  it('NO_COLOR: a table still, but no ANSI codes anywhere (stdout or an error on stderr)', async () => {
    const ok = await runCli(['template', 'list'], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/│ tpl_welcome/);
    expect(ok.stdout + ok.stderr).not.toMatch(ANSI);
    const failed = await runCli(['template', 'show', 'nope'], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/^error: /);
    // Control: the same error on a terminal without NO_COLOR is painted.
    const painted = await runCli(['template', 'show', 'nope'], { sandbox: sb.get(), tty: true });
    expect(painted.stderr).toMatch(ANSI);
  });

  it('no spinner under CI or --quiet, even on a terminal', async () => {
    for (const [argv, env] of [[['groups', 'list', '--all'], { CI: 'true' }], [['-q', 'groups', 'list', '--all'], {}]] as const) {
      const r = await runCli([...argv], { sandbox: sb.get(), tty: true, env });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).not.toMatch(SPINNER);
    }
  });
});

describe('groups list paging (spec 000 endpoint 2: "page string (zero-based index)", "size string (rows per page)")', () => {
  let own: RunningSandbox;
  beforeAll(async () => {
    own = await startTestSandbox();
    for (const name of ['G1', 'G2', 'G3', 'G4', 'G5']) expect((await runCli(['groups', 'create', name], { sandbox: own })).exitCode).toBe(0);
  });
  afterAll(() => own.close());

  const listCalls = (from: number) => own.sandbox.requests('campaign').slice(from).filter((r) => r.path === '/v1/contacts/lists');

  it('--all walks every page and stops after the short one', async () => {
    const from = own.sandbox.requests().length;
    const r = await runCli(['groups', 'list', '--all', '--size', '2'], { sandbox: own });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[1])).toEqual(['G1', 'G2', 'G3', 'G4', 'G5']);
    expect(listCalls(from).map((q) => q.query)).toEqual([{ page: '0', size: '2' }, { page: '1', size: '2' }, { page: '2', size: '2' }]);
  });

  it('--page and --size reach the service as query parameters', async () => {
    const from = own.sandbox.requests().length;
    const r = await runCli(['groups', 'list', '--page', '1', '--size', '2'], { sandbox: own });
    expect(r.exitCode).toBe(0);
    expect(listCalls(from).map((q) => q.query)).toEqual([{ page: '1', size: '2' }]);
    expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[1])).toEqual(['G3', 'G4']);
  });

  it('a bad --page or --size exits 2 naming the flag, and sends nothing', async () => {
    const from = own.sandbox.requests().length;
    for (const argv of [['--page', 'x'], ['--page', '-1'], ['--page', '1.5'], ['--size', '0'], ['--all', '--page', '1']]) {
      const r = await runCli(['groups', 'list', ...argv], { sandbox: own });
      expect(r.exitCode, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--page|--size/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(own.sandbox.requests().length).toBe(from);
  });
});

describe('template show --out FILE', () => {
  it('writes the html, refuses to overwrite without --force, overwrites with it', async () => {
    const file = path.join(tempDir(), 'welcome.html');
    const html = (JSON.parse((await runCli(['template', 'show', 'tpl_welcome', '--json'], { sandbox: sb.get() })).stdout) as { template: string }).template;
    expect(html).toContain('<html>');

    const first = await runCli(['template', 'show', 'tpl_welcome', '--out', file], { sandbox: sb.get() });
    expect(first.exitCode).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(html);

    fs.writeFileSync(file, 'my own edits');
    const refused = await runCli(['template', 'show', 'tpl_welcome', '--out', file], { sandbox: sb.get() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(fs.readFileSync(file, 'utf8')).toBe('my own edits');

    const forced = await runCli(['template', 'show', 'tpl_welcome', '--out', file, '--force'], { sandbox: sb.get() });
    expect(forced.exitCode).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(html);
  });

  it('--out - prints the html alone on stdout', async () => {
    const r = await runCli(['template', 'show', 'tpl_monthly', '--out', '-'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^<html>.*<\/html>$/s);
  });

  it('an unknown id gives the 40007 sentence and exit 1', async () => {
    const r = await runCli(['template', 'show', 'tpl_nope'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The code (sn) is invalid: no such template, group or campaign.');
    expect(r.stdout).toBe('');
  });
});

describe('usage errors (issue 2 item 6: "Unknown commands and bad flags print usage and exit 2")', () => {
  it.each([
    [['bogus'], /unknown command 'bogus'/, /Usage: mailctl \[options\] \[command\]/],
    [['groups', 'list', '--bogus'], /unknown option '--bogus'/, /Usage: mailctl groups list \[options\]/],
    [['groups', 'create'], /missing required argument 'name'/, /Usage: mailctl groups create \[options\] <name>/],
    [['balance', 'extra'], /too many arguments|unknown command/, /Usage: mailctl balance/],
  ])('%j → exit 2 with the usage line, nothing sent', async (argv, what, usage) => {
    const from = sandbox().requests().length;
    const r = await runCli(argv, { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(what);
    expect(r.stderr).toMatch(usage);
    expect(r.stdout).toBe('');
    expect(sandbox().requests().length).toBe(from);
  });
});
