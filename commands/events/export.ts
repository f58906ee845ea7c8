// mailctl events export: the stored events of a range, oldest first, as CSV (through the one CSV
// writer, formula guard included) or as the JSONL lines `webhook listen --out` writes (so
// `webhook replay` can send them again). To stdout, or with --out to a file made beside its
// target and renamed into place only once complete (src/fs/safe-write.ts).
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/core/errors.js';
import { parseTimeRange } from '../../src/core/date.js';
import { csvLine } from '../../src/run/output/csv.js';
import { createTempBeside, refuseSymlink, renameNoReplace } from '../../src/fs/safe-write.js';
import { asDiskError } from '../../src/fs/append-whole.js';
import { writeAll } from '../../src/fs/write-all.js';
import { allRows } from '../../src/store/store.js';
import type { StoredRow } from '../../src/store/row.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { plural } from '../../src/core/human.js';
import { openHistory } from './history.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareExport } from './index.js';

const CSV_HEADER = ['channel', 'message_id', 'event', 'recipient', 'subject', 'timestamp', 'received_at', 'payload'];

export const run: Verb<typeof declareExport> = async (ctx, opts) => {
  if (opts.since === undefined) throw new UsageError('Say where the range starts with --since (a date, or a span back such as 30d).', 'For example: --since 30d --format csv');
  if (opts.format === undefined) throw new UsageError('Say which format with --format csv or --format jsonl.');
  if (opts.force && opts.out === undefined) throw new UsageError('--force replaces the --out file; there is no --out.');
  // --json makes stdout one JSON document: without --out stdout is the export itself.
  if (ctx.io.json && opts.out === undefined) {
    throw new UsageError(`--json prints one JSON document, but events export prints the ${opts.format === 'csv' ? 'CSV' : 'JSONL lines'} itself on standard output.`, 'Give --out FILE to write the export and get a JSON summary of it, or drop --json.');
  }
  const range = parseTimeRange({ since: opts.since, until: opts.until }, ctx.clock.now());
  const target = opts.out === undefined ? undefined : path.resolve(opts.out);
  if (target) {
    refuseSymlink(target, '--out', false);
    if (!opts.force && fs.existsSync(target)) throw new UsageError(`${target} (--out) already exists.`, 'Give another file, or pass --force to replace it.');
    if (!fs.existsSync(path.dirname(target))) throw new UsageError(`Cannot write ${target} (--out): its folder does not exist.`);
  }
  const format = opts.format;
  const line = format === 'csv' ? csvRow : jsonlRow;
  const store = await openHistory(ctx, opts.store);
  const rows = allRows(store, { by: 'event', channel: opts.sms ? 'sms' : 'email', since: range.since, until: range.until });
  let count = 0;
  try {
    if (!target) {
      if (format === 'csv') ctx.io.out(csvLine(CSV_HEADER));
      for await (const r of rows) {
        ctx.io.out(line(r));
        count++;
      }
    } else {
      const tmp = await createTempBeside(target);
      try {
        // Written in pieces of some 1 MB: memory stays at a page of rows.
        let chunk = format === 'csv' ? csvLine(CSV_HEADER) : '';
        for await (const r of rows) {
          chunk += line(r) + '\n';
          count++;
          if (chunk.length > 1 << 20) {
            await writeAll(tmp.handle, chunk, target);
            chunk = '';
          }
        }
        await writeAll(tmp.handle, chunk, target);
        await tmp.handle.sync();
        await tmp.handle.close();
        if (opts.force) fs.renameSync(tmp.path, target);
        else await renameNoReplace(tmp.path, target);
      } catch (e) {
        await tmp.handle.close().catch(() => {});
        fs.rmSync(tmp.path, { force: true });
        throw asDiskError(e, target);
      }
    }
  } finally {
    await store.close();
  }
  const what = `${plural(count, 'event')} from the event store ${forTerminal(store.shown, 300)}`;
  if (target && ctx.io.json) ctx.io.printJson({ out: target, format, events: count, source: 'store', store: store.shown });
  else if (target) ctx.io.info(`Wrote ${what} to ${forTerminal(target, 300)}.`);
  else if (ctx.io.isTTY) ctx.io.info(`${what}.`);
};

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

function csvRow(r: StoredRow): string {
  return csvLine([r.channel, r.messageId, r.event, r.recipient, r.subject, iso(r.timestamp), iso(r.receivedAt), r.payload]).replace(/\n$/, '');
}

/** The line `webhook listen --out` writes for this event (src/webhook/listener.ts StoredEvent). */
function jsonlRow(r: StoredRow): string {
  let payload: unknown;
  try {
    payload = JSON.parse(r.payload);
  } catch {
    payload = r.payload;
  }
  return JSON.stringify({ receivedAt: iso(r.receivedAt), event: r.event, id: r.messageId, channel: r.channel, signatureHeader: r.signatureHeader ?? undefined, signature: r.signature ?? undefined, payload });
}
