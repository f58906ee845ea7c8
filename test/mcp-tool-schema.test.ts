// A command's declaration read as a tool's argument schema (src/cli/tool-schema.ts), and a tool
// call's arguments turned back into the argv that command parses to the same values.
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { argvOf, inputSchema, paramsOf } from '../src/cli/tool-schema.js';
import { collect } from '../src/core/collect.js';
import { offer } from '../src/run/offer.js';

function sample() {
  return new Command('x')
    .exitOverride()
    .option('--all', 'every page')
    .option('--size <n>', 'per page')
    .option('--download-failures [file]', 'save the failures')
    .option('--var <name=value>', 'a variable', collect)
    .option('--no-links', 'skip the links')
    .addOption(new Option('--old <v>', 'old spelling').hideHelp())
    .addOption(offer(new Option('--encoding <e>', 'text encoding'), ['utf8', 'big5']))
    .addOption(new Option('--format <f>', 'the format').choices(['a', 'b']))
    .option('--dry-run', 'show it')
    .addArgument(new Argument('<type>', 'event type').choices(['delivery', 'bounce']))
    .argument('[codes...]', 'campaign codes');
}

describe('a declaration as a tool schema', () => {
  it('names each parameter as its flag is spelt, typed by its declaration; hidden and omitted flags are left out', () => {
    const params = paramsOf(sample(), new Set(['--dry-run']));
    const schema = inputSchema(params, { confirm: { type: 'string' } });
    expect(Object.keys(schema.properties!)).toEqual(['all', 'size', 'download-failures', 'var', 'no-links', 'encoding', 'format', 'type', 'codes', 'confirm']);
    expect(schema.properties!.all).toEqual({ type: 'boolean', description: 'every page' });
    expect(schema.properties!.size).toEqual({ type: 'string', description: 'per page' });
    expect(schema.properties!['download-failures'].type).toEqual(['string', 'boolean']);
    expect(schema.properties!.var).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.properties!.encoding.description).toBe('text encoding (one of: utf8, big5)');
    expect(schema.properties!.format).toMatchObject({ type: 'string', enum: ['a', 'b'] });
    expect(schema.properties!.type).toMatchObject({ type: 'string', enum: ['delivery', 'bounce'], description: 'event type' });
    expect(schema.properties!.codes).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.required).toEqual(['type']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('a call becomes argv the command parses back to the same values (a value may start with a dash)', () => {
    const params = paramsOf(sample(), new Set(['--dry-run']));
    const r = argvOf(params, { all: true, size: '-5', 'download-failures': true, var: ['a=1', 'b=-2'], 'no-links': true, format: 'b', type: 'bounce', codes: ['-C1', 'C2'] });
    if (!r.ok) throw new Error(r.problem);
    let seen: { args: unknown[]; opts: Record<string, unknown> } | undefined;
    const cmd = sample().action((...a: unknown[]) => {
      seen = { args: a.slice(0, 2), opts: (a[2] as Record<string, unknown>) };
    });
    cmd.parse([...r.options, '--', ...r.positionals], { from: 'user' });
    expect(seen!.args).toEqual(['bounce', ['-C1', 'C2']]);
    expect(seen!.opts).toMatchObject({ all: true, size: '-5', downloadFailures: true, var: ['a=1', 'b=-2'], links: false, format: 'b' });
    expect(r.normal).toEqual({ all: true, size: '-5', 'download-failures': true, var: ['a=1', 'b=-2'], 'no-links': true, format: 'b', type: 'bounce', codes: ['-C1', 'C2'] });
  });

  it('false and empty lists are the same as leaving them out', () => {
    const params = paramsOf(sample(), new Set());
    const r = argvOf(params, { all: false, var: [], type: 'delivery' });
    expect(r).toEqual({ ok: true, options: [], positionals: ['delivery'], normal: { type: 'delivery' } });
  });

  it.each([
    [{ type: 'delivery', nope: 1 }, 'No parameter named "nope"'],
    [{}, '"type" is required'],
    [{ type: 'open' }, '"type" takes one of delivery, bounce'],
    [{ type: 'delivery', size: 5 }, '"size" takes a text value'],
    [{ type: 'delivery', all: 'yes' }, '"all" takes true or false'],
    [{ type: 'delivery', var: 'a=1' }, '"var" takes a list of text values'],
    [{ type: 'delivery', 'dry-run': true }, 'No parameter named "dry-run"'],
  ])('refuses %j with one sentence', (given, problem) => {
    const r = argvOf(paramsOf(sample(), new Set(['--dry-run'])), given);
    expect(r.ok).toBe(false);
    expect((r as { problem: string }).problem).toContain(problem);
  });
});
