// mailctl webhook listen: a local receiver for signed webhook calls, until Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';
import { parseWhole } from '../../src/cli/parse.js';
import { checkUrl } from '../../src/cli/url.js';
import { refuseSymlink } from '../../src/fs/safe-write.js';
import { forTerminal } from '../../src/output/sanitize.js';
import { DEFAULT_LIMITS, startListener, type StoredEvent } from '../../src/webhook/listener.js';
import { isLocalHost } from '../../src/webhook/types.js';
import { keylessTransport } from '../../src/cli/transfer.js';

interface Opts {
  port?: string;
  host?: string;
  out?: string;
  forward?: string;
  maxBody?: string;
  force?: boolean;
}

/** --max-body at most 8 MiB: memory is bounded by connections × this (see src/webhook/listener.ts). */
export const MAX_BODY_CEILING = 8 * 1024 * 1024;

export const DEFAULT_PORT = 8787;

export async function run(ctx: Context, opts: Opts): Promise<void> {
  const port = opts.port === undefined ? DEFAULT_PORT : parseWhole(opts.port, '--port', 0, 65535);
  const maxBody = opts.maxBody === undefined ? DEFAULT_LIMITS.maxBody : parseWhole(opts.maxBody, '--max-body', 1024, MAX_BODY_CEILING);
  const host = opts.host ?? '127.0.0.1';
  if (!isLocalHost(host)) ctx.io.warn(`Listening on ${host} exposes the listener beyond this machine.`);
  if (opts.forward !== undefined) checkUrl(opts.forward, { name: '--forward', example: 'http://127.0.0.1:3000/hooks/mail' });
  const outFile = path.resolve(opts.out ?? 'webhook-events.jsonl');
  // Appending through a link planted at --out would write wherever it points (issue 10.3).
  refuseSymlink(outFile, '--out', opts.force);
  if (opts.force && fs.lstatSync(outFile, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(outFile);
  const key = await ctx.apiKey('notify');
  const io = ctx.io;

  let listener;
  try {
    listener = await startListener({
      host, port, key, outFile, limits: { maxBody }, forward: opts.forward, fetch: await keylessTransport(ctx), now: () => ctx.clock.now(),
      onEvent: (e) => {
        if (!io.json) io.out(line(e));
      },
      onDuplicate: (id, event) => io.info(`repeat of ${forTerminal(event, 40)} ${forTerminal(id, 80)} answered 200, not stored again`),
      onReject: (status, reason) => io.warn(`rejected (${status}): ${forTerminal(reason)}`),
      onForward: (ok, detail) => {
        if (!ok) io.warn(`forward to ${opts.forward} failed: ${forTerminal(detail)}`);
      },
      onWarn: (m) => io.warn(m),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A file-system error carries the path; the events file is the only file the listener opens.
    if ((e as NodeJS.ErrnoException).path !== undefined) {
      if (code === 'ELOOP') throw new UsageError(`${outFile} (--out) is a symbolic link; mailctl does not write through links.`, 'Give another path, or pass --force to replace the link itself with a file.');
      const why = code === 'EISDIR' ? 'it is a folder' : code === 'ENOENT' || code === 'ENOTDIR' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
      throw new UsageError(`Cannot write the events file ${outFile}: ${why}.`, 'Give a file in an existing folder you can write to with --out FILE (default webhook-events.jsonl).');
    }
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${port} on ${host} is already in use.`, 'Choose another with --port (0 picks a free one).');
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`Cannot open ${opts.out ?? 'the events file'} or port ${port}: ${(e as Error).message}.`);
    throw e;
  }
  io.info(`Listening on ${listener.url} — events go to ${outFile}${opts.forward ? ` and are forwarded to ${opts.forward}` : ''}. Ctrl-C stops.`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  const s = listener.stats;
  if (io.json) io.printJson({ url: listener.url, out: outFile, ...s });
  else io.info(`Stopped. ${s.stored} event${s.stored === 1 ? '' : 's'} stored in ${outFile}, ${s.duplicates} repeat${s.duplicates === 1 ? '' : 's'} not stored again, ${s.rejected} rejected${opts.forward ? `, ${s.forwarded} forwarded, ${s.forwardFailed} not forwarded` : ''}.`);
}

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
