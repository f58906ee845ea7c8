// src/cli/main.ts, where every command's errors become exit codes: unknown commands and bad
// flags print the usage line and exit 2 with nothing sent.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
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
