// src/api/path-segment.ts: a code, serial or id given to a command goes into the request's path.
// "." and ".." are what URL resolution collapses (GET …/v1/campaign/normal/.. went out as
// GET …/v1/campaign/), so they are refused before anything is sent: exit 2, one sentence naming
// the value. The sandbox fails the test on any request it receives.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox();

describe('a path parameter of "." or ".."', () => {
  it.each([
    [['campaign', 'status', '..'], '..'],
    [['campaign', 'status', '.'], '.'],
    [['campaign', 'pause', '..', '--yes'], '..'],
    [['campaign', 'pause', '..', '--dry-run'], '..'],
    [['report', 'links', '..'], '..'],
    [['report', 'export', '.'], '.'],
    [['template', 'show', '..'], '..'],
  ])('%j: exit 2, the value named, nothing sent', async (argv, value) => {
    const r = await runCli(argv, { sandbox: sb.get() });
    expect(r.stderr).toContain(`"${value}" cannot be a code, serial or name in a request`);
    expect(r.exitCode).toBe(2);
    expect(sb.get().sandbox.requests()).toEqual([]);
  });

  it('a code with dots in it that is not "." or ".." still goes, encoded as one segment', async () => {
    sb.expect('GET /campaign/v1/campaign/normal/a..b');
    const r = await runCli(['campaign', 'status', 'a..b'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(sb.get().sandbox.requests().map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/campaign/normal/a..b']);
  });
});
