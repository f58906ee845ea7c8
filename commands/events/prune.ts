// mailctl events prune --older-than 400d: deletes stored events whose own time is further back
// (a destructive local write: --dry-run counts, a terminal is asked, elsewhere --yes is needed).
import { UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { plural } from '../../src/core/human.js';
import { openHistory } from './history.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declarePrune } from './index.js';

export const run: Verb<typeof declarePrune> = async (ctx, opts) => {
  if (opts.olderThan === undefined) throw new UsageError('Say how old an event must be to go with --older-than, e.g. --older-than 400d.');
  const age = parseDuration(opts.olderThan, '--older-than', { positive: true, bareSeconds: false, examples: '400d or 90d' });
  const before = ctx.clock.now() - age;
  const cutoff = new Date(before).toISOString();
  const store = await openHistory(ctx, opts.store);
  const where = forTerminal(store.shown, 300);
  try {
    const n = await store.countOlder(before);
    if (opts.dryRun) {
      if (ctx.io.json) ctx.io.printJson({ dryRun: true, store: store.shown, before: cutoff, wouldDelete: n });
      else ctx.io.out(`Dry run: ${plural(n, 'event')} older than ${cutoff} would be deleted from ${where}; nothing was deleted.`);
      return;
    }
    if (n === 0) {
      if (ctx.io.json) ctx.io.printJson({ store: store.shown, before: cutoff, deleted: 0 });
      else ctx.io.info(`No events older than ${cutoff} in ${where}; nothing to delete.`);
      return;
    }
    if (!opts.yes) {
      ctx.requirePrompt(`Deleting ${plural(n, 'stored event')}`, '--yes');
      if (!(await ctx.prompter.confirm(`Delete ${plural(n, 'event')} older than ${cutoff} from ${where}? They cannot be brought back.`, false))) {
        ctx.io.info('Nothing deleted.');
        return;
      }
    }
    const deleted = await store.pruneOlder(before);
    if (ctx.io.json) ctx.io.printJson({ store: store.shown, before: cutoff, deleted });
    else ctx.io.out(`Deleted ${plural(deleted, 'event')} older than ${cutoff} from ${where}.`);
  } finally {
    await store.close();
  }
};
