// A flag that takes one value, given twice, is a usage error (exit 2) naming it, before anything is
// read or sent — one mechanism for every command (src/cli/repeats.ts), found here by walking the
// whole command tree, so a command added later is covered without a line here. Commander on its
// own keeps the last value without a word: `send --to a --to b` sent to b only, "1 of 1 accepted".
// Repeatable flags (collected or variadic) and flags without a value are left alone.
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { NOUNS } from '../commands/index.js';
import { declareRoot } from '../src/run/root-options.js';
import { isRepeatable, takesOneValue } from '../src/cli/repeats.js';
import type { FetchLike } from '../src/api/http.js';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

/** The whole tree, as `mailctl __complete` builds it: the root with its globals, every noun in full. */
function tree(): Command {
  const program = declareRoot(new Command('mailctl') as never) as unknown as Command;
  for (const noun of NOUNS) noun.register(program, () => async () => {});
  return program;
}

function* commands(c: Command, path: string[] = []): Generator<[string[], Command]> {
  yield [path, c];
  for (const sub of c.commands) yield* commands(sub, [...path, sub.name()]);
}

/** Two values the flag accepts: its choices where it has them. */
function values(o: Option): [string, string] {
  const choices = o.argChoices ?? [];
  return choices.length >= 2 ? [choices[0], choices[1]] : ['one-value', 'another-value'];
}

const cases: Array<[string, string[], Option]> = [];
const repeatable: string[] = [];
for (const [path, cmd] of commands(tree())) {
  for (const o of cmd.options) {
    if (takesOneValue(o)) cases.push([`${['mailctl', ...path].join(' ')} ${o.long ?? o.short}`, path, o]);
    else if (isRepeatable(o)) repeatable.push(`${['mailctl', ...path].join(' ')} ${o.long}: ${o.description}`);
  }
}

describe('a single-value flag given twice is refused (exit 2), in every command', () => {
  it('the walk found the commands and flags (a sanity check on the walk itself)', () => {
    expect(cases.length).toBeGreaterThan(150);
    for (const f of ['mailctl send email --subject', 'mailctl --profile', 'mailctl --output', 'mailctl --query', 'mailctl webhook trigger --form']) {
      expect(cases.map(([name]) => name)).toContain(f);
    }
  });

  it.each(cases)('%s', async (_name, path, o) => {
    const flag = o.long ?? o.short!;
    const [a, b] = values(o);
    const calls: string[] = [];
    // Any request would be recorded; a usage error must come before the first.
    const fetch: FetchLike = async (input) => {
      calls.push(String(input));
      throw new Error('no request may be made');
    };
    // Both spellings count: the second as --flag=value (long flags only take that form).
    const second = o.long ? [`${flag}=${b}`] : [flag, b];
    const r = await runCli([...path, flag, a, ...second], { fetch, stdin: 'stdin must not be read' });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: ${flag} was given more than once; it takes one value`);
    expect(calls).toEqual([]);
  });

  it('under --json the refusal is the one JSON document, code USAGE', async () => {
    const r = await runCli(['--json', 'balance', '--profile', 'a', '--profile', 'b']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'USAGE', message: '--profile was given more than once; it takes one value, and mailctl will not guess which one you meant. Give it once.', exitCode: 2 } });
  });

  it('every flag that may be repeated says so in its --help', () => {
    expect(repeatable.length).toBeGreaterThan(10);
    for (const line of repeatable) expect(line).toMatch(/repeatable/);
  });
});

describe('flags without a value may be given twice: the same as once', () => {
  const sb = useSandbox({ expect: ['GET /campaign/v1/balance'] });
  it('--json --json, -q -q, --sandbox twice', async () => {
    const r = await runCli(['--json', '--json', '-q', '-q', 'balance'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email: expect.any(Number) });
  });
});
