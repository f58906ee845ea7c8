// The batch commands' shared options (src/send/batch-options.ts): each group declared once, and
// the "message flags" (what --resume refuses, since the journal fixes the message, and what the
// suggested --forecast command repeats) read from each command's own declaration rather than
// from a list kept beside it.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { batchOptions, journalOptions, messageFlags } from '../src/send/batch-options.js';
import { declareEmail, declareSms } from '../commands/send/index.js';
import { AUTOMATION_JOURNAL, declareEvent } from '../commands/automation/index.js';
import { runCli } from './helpers/cli.js';

describe('messageFlags', () => {
  it('a new option is a message flag at once; the group\'s and the root\'s (--csv, --dry-run) are not', () => {
    // batchOptions declares -y/--yes itself (a large send asks first): a root option, never a message flag.
    const declare = (p: CommandUnknownOpts) => batchOptions(p.command('x').option('--new-flag <v>').option('--also')).option('--csv');
    expect(messageFlags(declare, batchOptions)).toEqual({ newFlag: '--new-flag', also: '--also' });
    expect(messageFlags(declare, (c) => journalOptions(c, AUTOMATION_JOURNAL))).toEqual({ newFlag: '--new-flag', also: '--also', concurrency: '--concurrency', settleAfter: '--settle-after', ignoreBalance: '--ignore-balance', forecast: '--forecast' });
  });
});

describe('--resume refuses every option that describes the message (exit 2, nothing sent)', () => {
  const verbs: Array<[string[], CommandUnknownOpts, CommandUnknownOpts]> = [
    [['send'], declareEmail(new Command()), batchOptions(new Command())],
    [['send', 'sms'], declareSms(new Command()), batchOptions(new Command())],
    [['automation', 'trigger'], declareEvent(new Command(), 'trigger', '', ''), journalOptions(new Command(), AUTOMATION_JOURNAL)],
  ];
  for (const [words, cmd, group] of verbs) {
    const notMessage = new Set([...group.options.map((o) => o.long), '--csv']);
    const flags = cmd.options.filter((o) => !notMessage.has(o.long));
    it(`${words.join(' ')}: ${flags.map((o) => o.long).join(' ')}`, async () => {
      expect(flags.length).toBeGreaterThanOrEqual(5);
      for (const o of flags) {
        const r = await runCli([...words, '--resume', 'journal.jsonl', o.long!, ...(o.required || o.optional ? ['x'] : [])]);
        expect(r.stderr, o.long).toContain(`leave out ${o.long}.`);
        expect(r.exitCode).toBe(2);
      }
    });
  }
});
