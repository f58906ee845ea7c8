// mailctl webhook listen: a local receiver for signed webhook calls, until Ctrl-C (or SIGTERM,
// SIGHUP: the same stop). Every verified event goes to the event store (src/store; --store), and
// with --out also to a JSONL copy.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/core/errors.js';
import { parseWhole } from '../../src/core/parse-whole.js';
import { suggestWithNote } from '../../src/core/suggest.js';
import { refuseSymlink } from '../../src/fs/safe-write.js';
import { asDiskError, isDiskProblem } from '../../src/fs/disk-error.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { failedFileFor } from '../../src/webhook/events-file.js';
import { DEFAULT_LIMITS, startListener, type StoredEvent } from '../../src/webhook/listener.js';
import { describeRoutes, hasRoutes, parseRoutes } from '../../src/webhook/routes.js';
import { isLocalHost } from '../../src/webhook/types.js';
import { storeLocation } from '../../src/store/location.js';
import { openStore } from '../../src/store/open.js';
import { parseDuration } from '../../src/core/duration.js';
import { plural } from '../../src/core/human.js';
import { keylessTransport } from '../../src/run/transfer.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareListen } from './index.js';

/** --max-body at most 8 MiB: memory is bounded by connections × this (see src/webhook/listener.ts). */
export const MAX_BODY_CEILING = 8 * 1024 * 1024;

export const DEFAULT_PORT = 8787;

/** Without --out, the failed-forwards file is ./webhook-events.failed.jsonl, where it always was. */
const DEFAULT_FAILED_BESIDE = 'webhook-events.jsonl';

export const run: Verb<typeof declareListen> = async (ctx, opts) => {
  const port = opts.port === undefined ? DEFAULT_PORT : parseWhole(opts.port, '--port', 0, 65535);
  const maxBody = opts.maxBody === undefined ? DEFAULT_LIMITS.maxBody : parseWhole(opts.maxBody, '--max-body', 1024, MAX_BODY_CEILING);
  const host = opts.host ?? '127.0.0.1';
  if (!isLocalHost(host)) ctx.io.warn(`Listening on ${host} exposes the listener beyond this machine.`);
  const routes = parseRoutes(opts.route ?? [], opts.forward);
  const forwarding = hasRoutes(routes);
  if (opts.failedOut !== undefined && !forwarding) {
    throw new UsageError('--failed-out keeps events that could not be forwarded, but nothing is forwarded.', 'Add --forward URL or --route EVENT=URL, or drop --failed-out.');
  }
  const keepMs = opts.keep === undefined ? undefined : parseDuration(opts.keep, '--keep', { positive: true, bareSeconds: false, examples: '400d or 90d' });
  if (keepMs !== undefined && keepMs < 86_400_000) throw new UsageError(`--keep is at least a day (events are pruned daily); got "${opts.keep}".`);
  const at = storeLocation(opts.store, ctx.configDir);
  const outFile = opts.out === undefined ? undefined : path.resolve(opts.out);
  const failedFile = forwarding ? path.resolve(opts.failedOut ?? failedFileFor(outFile ?? DEFAULT_FAILED_BESIDE)) : undefined;
  if (failedFile !== undefined && failedFile === outFile) throw new UsageError(`--failed-out and --out both name ${outFile}.`, 'Give the failed-forwards file another name (default: beside --out, NAME.failed.jsonl).');
  if (at.kind === 'sqlite' && (at.path === outFile || at.path === failedFile)) throw new UsageError(`--store and ${at.path === outFile ? '--out' : '--failed-out'} both name ${at.path}.`, 'The store is a database; give the JSONL copy another name.');
  // Appending through a link planted at --out would write wherever it points (issue 10.3).
  for (const [file, flag] of [...(outFile ? [[outFile, '--out']] : []), ...(failedFile ? [[failedFile, '--failed-out']] : [])] as const) {
    refuseSymlink(file, flag, opts.force);
    if (opts.force && fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(file);
  }
  const key = await ctx.apiKey('notify');
  const io = ctx.io;
  const failedShown = failedFile ? forTerminal(failedFile) : '';
  /** URL → events kept that were meant for it, for the replay hint. */
  const keptFor = new Map<string, number>();

  const store = await openStore(at, { create: true, configDir: ctx.configDir });
  const where = forTerminal(store.shown, 300);

  let listener;
  try {
    listener = await startListener({
      host, port, key, store, outFile, keepMs, routes, failedFile, fetch: await keylessTransport(ctx), clock: ctx.clock,
      // The backoff follows the run's retry tuning (tests make it small); the rest are the defaults.
      limits: { maxBody, forwardBaseDelayMs: ctx.tuning.retryBaseMs },
      onEvent: (e) => {
        if (!io.json) io.out(line(e));
      },
      onDuplicate: (id, event) => io.info(`repeat of ${forTerminal(event, 40)} ${forTerminal(id, 80)} answered 200, not stored again`),
      onReject: (status, reason) => io.warn(`rejected (${status}): ${forTerminal(reason)}`),
      // Each retry only with -v: an app down during a burst would bury the outcomes below.
      onRetry: (job, attempt, detail) => ctx.globals.verbose && io.info(`forward of ${forTerminal(job.route, 40)} ${forTerminal(job.id, 80)} to ${forTerminal(job.url, 200)}: try ${attempt} of ${DEFAULT_LIMITS.forwardAttempts} failed (${forTerminal(detail)}); retrying`),
      onForward: (o) => {
        if (o.ok) return;
        if (o.kept) keptFor.set(o.job.url, (keptFor.get(o.job.url) ?? 0) + 1);
        const kept = o.kept ? `kept in ${failedShown}` : `could not be kept in ${failedShown}; it is in the store ${where}`;
        io.warn(`${forTerminal(o.job.route, 40)} ${forTerminal(o.job.id, 80)} not forwarded to ${forTerminal(o.job.url, 200)}: ${forTerminal(o.detail)}; ${kept}.`);
      },
      onWarn: (m) => io.warn(m),
      onStoreFailed: (n, e) => io.warn(`${plural(n, 'event')} could not be stored in ${where} (${forTerminal(e instanceof Error ? e.message : String(e))}); answered 503, so the service sends ${n === 1 ? 'it' : 'them'} again.`),
      onPrune: (removed, before) => removed && io.info(`--keep: removed ${plural(removed, 'event')} older than ${new Date(before).toISOString()} from ${where}.`),
    });
  } catch (e) {
    await store.close().catch(() => {});
    const code = (e as NodeJS.ErrnoException).code;
    // A file-system error carries the path: the events file's, or the failed-forwards file's.
    const failed = failedFile !== undefined && (e as NodeJS.ErrnoException).path === failedFile;
    if ((e as NodeJS.ErrnoException).path !== undefined) {
      const [file, flag, what] = failed ? [failedFile, '--failed-out', 'failed-forwards file'] : [outFile!, '--out', 'events file'];
      // A full disk is not bad input: the DISK error naming the file (main adds the command to run again).
      if (isDiskProblem(e)) throw asDiskError(e, file);
      if (code === 'ELOOP') throw new UsageError(`${file} (${flag}) is a symbolic link; mailctl does not write through links.`, 'Give another path, or pass --force to replace the link itself with a file.');
      const why = code === 'EISDIR' ? 'it is a folder' : code === 'ENOENT' || code === 'ENOTDIR' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
      throw new UsageError(`Cannot write the ${what} ${file}: ${why}.`, failed ? 'Give a file in an existing folder you can write to with --failed-out FILE (default: beside --out, NAME.failed.jsonl).' : 'Give a file in an existing folder you can write to with --out FILE (default webhook-events.jsonl).');
    }
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${port} on ${host} is already in use.`, 'Choose another with --port (0 picks a free one).');
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`Cannot open ${opts.out ?? 'the events file'} or port ${port}: ${(e as Error).message}.`);
    throw e;
  }
  io.info(`Listening on ${listener.url} — events are stored in ${where}${outFile ? ` and copied to ${forTerminal(outFile)}` : ''}${keepMs !== undefined ? ` (kept ${opts.keep})` : ''}${forwarding ? `; forwarded: ${describeRoutes(routes)}; not forwarded: kept in ${failedShown}` : ''}. Ctrl-C stops.`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  const s = listener.stats;
  if (io.json) return io.printJson({ url: listener.url, store: store.shown, ...(outFile ? { out: outFile } : {}), ...(failedFile ? { failedOut: failedFile } : {}), ...s });
  const forwards = forwarding
    ? `, ${s.forwarded} forwarded, ${s.retried} ${s.retried === 1 ? 'retry' : 'retries'}, ${s.forwardFailed} not forwarded (${s.kept} kept in ${failedShown})${s.unrouted ? `, ${s.unrouted} only stored (no route)` : ''}`
    : '';
  const failedStore = s.notStored ? `, ${s.notStored} not stored (answered 503, to be sent again)` : '';
  io.info(`Stopped. ${s.stored} event${s.stored === 1 ? '' : 's'} stored in ${where}, ${s.duplicates} repeat${s.duplicates === 1 ? '' : 's'} not stored again, ${s.rejected} rejected${failedStore}${forwards}.`);
  if (keptFor.size === 1) io.info(`Send the kept events again when the app is back: ${suggestWithNote(ctx, 'webhook', 'replay', failedFile!, '--url', [...keptFor.keys()][0])}`);
  else if (keptFor.size > 1) io.info(`The kept events were meant for ${keptFor.size} URLs: replay each route's events to its URL, splitting the file by "event" and "channel" first (docs/webhooks.md).`);
};

/**
 * One tab-separated line per stored event. Every field but the time comes from the payload, so
 * each goes through forTerminal (escapes, bidi controls shown visibly; long text cut), and a tab
 * inside a field becomes a space so the columns hold.
 */
function line(e: StoredEvent): string {
  const p = (e.payload ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const who = e.channel === 'sms' ? p.sms_data?.recipient ?? p.sms_data?.address : p.mail?.to;
  const detail = p[e.event] as Record<string, unknown> | undefined;
  const extra = e.event === 'bounce' ? detail?.reason : e.event === 'click' ? detail?.link_url : undefined;
  const field = (v: unknown) => forTerminal(typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v)).replace(/\t/g, ' ');
  return [e.receivedAt, e.channel ?? '', field(e.event), field(e.id), field(who), field(extra)].join('\t');
}
