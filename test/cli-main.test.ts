// src/cli/main.ts, where every command's errors become exit codes: unknown commands and bad
// flags print the usage line and exit 2 with nothing sent.
import { describe, expect, it } from 'vitest';
import { runCli, scriptedPrompter } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();
const sandbox = () => sb.get().sandbox;

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

describe("a disk error no command caught (main's net)", () => {
  const full = (where?: string) => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write', ...(where ? { path: where } : {}) });
  const setKey = ['--profile', 'work', 'config', 'set-key', '--service', 'campaign'];

  it('is the disk problem naming the path, with this same command to run again: never "a bug in mailctl"', async () => {
    const r = await runCli(setKey, { tty: true, env: { NO_COLOR: '1' }, prompter: scriptedPrompter([() => { throw full('/var/lib/x/state.json'); }]) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: Could not write /var/lib/x/state.json: the disk is full (ENOSPC).');
    expect(r.stderr).toContain('Free some space on that disk, then run the command again: mailctl --profile work config set-key --service campaign');
    expect(r.stderr).not.toContain('bug in mailctl');
  });

  it('--json carries the code DISK; an errno without a path still names the disk problem', async () => {
    const r = await runCli([...setKey, '--json'], { tty: true, prompter: scriptedPrompter([() => { throw full(); }]) });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'DISK', message: 'A file could not be written: the disk is full (ENOSPC).', exitCode: 1 });
  });

  it('an error that is not the disk\'s is still the bug it is', async () => {
    const r = await runCli(setKey, { tty: true, prompter: scriptedPrompter([() => { throw Object.assign(new Error('EBADF: bad file descriptor'), { code: 'EBADF' }); }]) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('This is a bug in mailctl');
  });
});
