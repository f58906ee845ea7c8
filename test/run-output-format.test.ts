// Output modes (src/run/output/format.ts, src/run/io.ts): --json is exactly one document on stdout
// (data, errors and usage errors alike), pipes get plain TSV with no colour or spinner, terminals
// get tables, NO_COLOR and CI are honoured.
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSI, runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/v1/balance',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /campaign/v1/templates',
    'GET /campaign/v1/templates/:id',
  ],
});
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
  it('piped: a header line, then tab-separated rows with ISO dates, no ANSI codes, no spinner frames, no table borders', async () => {
    const r = await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), tty: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(ANSI);
    expect(r.stderr).not.toMatch(SPINNER);
    expect(r.stdout).not.toMatch(/[│┌─]/);
    const [header, ...lines] = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(header).toEqual(['code', 'name', 'status', 'subscribed', 'excluded', 'open_rate', 'click_rate', 'updated']);
    expect(lines.map((cols) => cols[1])).toEqual(['Alpha', 'Beta', 'Gamma']);
    for (const cols of lines) {
      expect(cols).toHaveLength(8);
      expect(cols[7]).toMatch(ISO);
    }
  });

  it('terminal: a table with headers, no rules, relative dates, colour on, and a spinner while walking pages', async () => {
    const r = await runCli(['groups', 'list', '--all'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    const plain = r.stdout.replace(new RegExp(ANSI.source, 'g'), '');
    expect(plain).not.toMatch(/[│┌─]/);
    expect(plain).toMatch(/^CODE +NAME +STATUS/);
    expect(plain).toMatch(/ Alpha +GENERAL /);
    expect(plain).toMatch(/just now|seconds? ago|minutes? ago/);
    expect(r.stderr).toMatch(SPINNER);
  });

  it('NO_COLOR: a table still, but no ANSI codes anywhere (stdout or an error on stderr)', async () => {
    const ok = await runCli(['template', 'list'], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1' } });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/^tpl_welcome +/m);
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
