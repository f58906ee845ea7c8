// mailctl webhook replay FILE --url URL: re-send what `webhook listen --out` stored to a consumer,
// in file order, one at a time, at most --rate a second, each with the signature it arrived with
// (the consumer gets what the service sent), or signed again with the current notification key
// under --resign (issue 13: "optionally re-signed with the current key"). Lines the file keeps no
// signature for (an older listener's, bare payloads) are always signed again, and the run says
// so. Every answer is reported; a consumer that cannot be reached, or Ctrl-C, stops the replay
// with the command that continues it.
import { CliError, InterruptedError, LimitError, PartialError, ServiceError, UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { parseWhole } from '../../src/core/parse-whole.js';
import { envNote, suggest } from '../../src/core/suggest.js';
import { checkUrl } from '../../src/core/url.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import { parseSignatureHeader, postSigned, shortAnswer, type ConsumerAnswer } from '../../src/webhook/deliver.js';
import { checkReplayFile, replayItems, type ReplayItem } from '../../src/webhook/replay-source.js';
import { signPayload } from '../../src/webhook/signature.js';
import { DEFAULT_TIMEOUT_MS } from './trigger.js';
import { keylessTransport } from '../../src/run/transfer.js';
import type { OptsOf, Verb } from '../../src/cli/declared.js';
import type { declareReplay } from './index.js';

type Opts = OptsOf<typeof declareReplay>;

const DEFAULT_RATE = '5/s';
const MAX_PER_SECOND = 1000;

/** `--rate 10/s`, `2/m`, or a bare number (per second) → the least time between two sends, in ms. */
export function parseRate(value: string): { intervalMs: number; text: string } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|second|m|min|minute))?\s*$/i.exec(value);
  const n = m ? Number(m[1]) : NaN;
  const per = m?.[2] && /^m/i.test(m[2]) ? 60_000 : 1000;
  if (!m || !(n > 0) || n * (1000 / per) > MAX_PER_SECOND) {
    throw new UsageError(`--rate takes events per second or per minute, such as 10/s or 30/m (at most ${MAX_PER_SECOND}/s); got "${forTerminal(value, 40)}".`);
  }
  return { intervalMs: per / n, text: `${m[1]}/${per === 1000 ? 's' : 'm'}` };
}

interface Result {
  line: number;
  event: string;
  id: string;
  channel?: string;
  status: number;
  ok: boolean;
  ms: number;
  answer: string;
  /** Signed with the current key rather than sent with the stored signature. */
  resigned: boolean;
}

export const run: Verb<typeof declareReplay> = async (ctx, opts, file) => {
  if (opts.url === undefined) throw new UsageError('No consumer URL.', `Give the address of your webhook consumer with --url, e.g. ${suggest(ctx, 'webhook', 'replay', file, '--url', 'http://127.0.0.1:3000/hooks')}`);
  const url = checkUrl(opts.url, { name: '--url', example: 'http://127.0.0.1:3000/hooks' });
  const rate = parseRate(opts.rate ?? DEFAULT_RATE);
  const fromLine = opts.fromLine === undefined ? 1 : parseWhole(opts.fromLine, '--from-line', 1);
  const headerOverride = opts.signatureHeader === undefined ? undefined : parseSignatureHeader(opts.signatureHeader);
  const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });

  const checked = await checkReplayFile(file, fromLine);
  if (fromLine > 1 && fromLine > checked.lines) throw new UsageError(`--from-line ${fromLine} is past the end of ${file}, which has ${checked.lines} line${checked.lines === 1 ? '' : 's'}.`);
  // The key only signs what is signed again; a dry run signs and sends nothing, so needs none.
  const resigns = (it: ReplayItem) => !!opts.resign || it.signature === undefined;
  const key = !opts.dryRun && (opts.resign || checked.unsigned > 0) ? await ctx.apiKey('notify') : '';
  const io = ctx.io;
  const headerOf = (it: ReplayItem) => headerOverride ?? it.signatureHeader ?? parseSignatureHeader(undefined);
  const how = signing(!!opts.resign, checked.count, checked.unsigned);

  if (opts.dryRun) {
    const planned: Array<{ line: number; event: string; id: string; signatureHeader: string; signature: 'as received' | 'signed again' }> = [];
    for await (const it of replayItems(file, fromLine, checked)) planned.push({ line: it.line, event: it.event, id: it.id, signatureHeader: headerOf(it), signature: resigns(it) ? 'signed again' : 'as received' });
    if (io.json) return io.printJson({ dryRun: true, file, url, rate: rate.text, fromLine, events: planned });
    io.info(`Dry run: nothing was sent. ${planned.length} event${planned.length === 1 ? '' : 's'} would be POSTed to ${forTerminal(url, 200)}, at most ${rate.text}, ${how}:`);
    for (const p of planned) io.out([p.line, ...[p.event, p.id].map((w) => (io.isTTY ? forTerminal(w, 80) : forTsvCell(w))), p.signatureHeader, p.signature].join('\t'));
    return;
  }
  if (checked.count === 0) {
    if (io.json) io.printJson({ file, url, fromLine, sent: 0, ok: 0, failed: 0, results: [] });
    else io.info(`No events to replay in ${file}${fromLine > 1 ? ` from line ${fromLine}` : ''}.`);
    return;
  }

  const table = io.isTTY && !io.json;
  const ndjson = !io.isTTY && !io.json;
  if (!io.json) io.info(`Replaying ${checked.count} event${checked.count === 1 ? '' : 's'} from ${file} to ${forTerminal(url, 200)}, at most ${rate.text}, ${how}. Ctrl-C stops.`);
  if (table) io.out(row('LINE', 'EVENT', 'ID', 'STATUS', 'TIME', 'ANSWER'));

  const results: Result[] = [];
  const fetch = await keylessTransport(ctx);
  let lastStart: number | undefined;
  /** Where a continued replay starts: the first line not answered. */
  let resumeLine: number | undefined;
  let stop: CliError | undefined;
  /** The stop came while a request was out: the consumer may have taken that event. */
  let midRequest = false;
  for await (const it of replayItems(file, fromLine, checked)) {
    resumeLine = it.line;
    if (ctx.signal.aborted) break;
    if (lastStart !== undefined) {
      const wait = lastStart + rate.intervalMs - ctx.clock.now();
      if (wait > 0) {
        try {
          await ctx.clock.sleep(wait, ctx.signal);
        } catch {
          break; // Ctrl-C between two events
        }
      }
    }
    lastStart = ctx.clock.now();
    const header = headerOf(it);
    let a: ConsumerAnswer;
    try {
      const signature = resigns(it) ? resign(key, it) : it.signature!;
      a = await postSigned({ url, body: JSON.stringify(it.payload), signatureHeader: header, signature }, { fetch, signal: ctx.signal, timeoutMs, now: () => ctx.clock.now() });
    } catch (e) {
      if (e instanceof CliError) {
        stop = e;
        midRequest = e.facts.reached !== 'no';
        break;
      }
      throw e;
    }
    resumeLine = undefined;
    const r: Result = { line: it.line, event: it.event, id: it.id, channel: it.channel, status: a.status, ok: a.ok, ms: a.ms, answer: a.body.slice(0, 500), resigned: resigns(it) };
    results.push(r);
    if (table) io.out(row(String(r.line), forTerminal(r.event, 20), forTerminal(r.id.length > 28 ? `${r.id.slice(0, 27)}…` : r.id, 60), String(a.status), `${a.ms} ms`, shortAnswer(a, 60), a.ok ? undefined : (x) => io.paint('red', x)));
    else if (ndjson) io.out(JSON.stringify(r));
  }
  if (resumeLine !== undefined && !stop) stop = new InterruptedError();

  const ok = results.filter((r) => r.ok).length;
  const failed = results.length - ok;
  const firstFail = results.find((r) => !r.ok);
  if (io.json) {
    io.printJson({
      file, url, fromLine, sent: results.length, ok, failed, results,
      ...(stop ? { stopped: stop.facts.code, resumeFromLine: resumeLine } : {}),
    });
  } else {
    io.info(`Sent ${results.length} of ${checked.count} event${checked.count === 1 ? '' : 's'}: ${ok} answered 2xx${failed ? `, ${failed} did not (first: line ${firstFail!.line}, HTTP ${firstFail!.status})` : ''}.`);
  }

  if (stop) {
    const again = suggest(ctx, 'webhook', 'replay', file, '--url', url, '--from-line', resumeLine!, ...extraFlags(opts));
    const hint = `Continue with: ${again}${midRequest ? `  (line ${resumeLine} may reach the consumer twice)` : ''}${envNote(ctx)}`;
    if (stop instanceof InterruptedError) throw new InterruptedError(`Interrupted after ${results.length} of ${checked.count} events.`, hint);
    throw new LimitError(`${stop.message} Stopped after ${results.length} of ${checked.count} events.`, `${stop.hint ? `${stop.hint} ` : ''}${hint}`, stop.facts);
  }
  if (failed === results.length) {
    throw new ServiceError(`No event was answered 2xx by the consumer at ${forTerminal(url, 200)} (first: line ${firstFail!.line}, HTTP ${firstFail!.status}).`, { status: firstFail!.status });
  }
  if (failed) throw new PartialError(`${failed} of ${results.length} events were not answered 2xx.`);
};

/**
 * A new signature for a stored event, with the current key: over the id and event its payload
 * states, the event as the payload states it (a name, or the vendor's type code), so a consumer
 * that checks the way the service signs finds it signed the same way (decisions row 27).
 */
function resign(key: string, it: ReplayItem): string {
  const s = signPayload(key, it.payload);
  // checkReplayFile has refused every line without an id and a documented event.
  if ('problem' in s) throw new UsageError(`Line ${it.line} cannot be signed: ${s.problem}.`);
  return s.signature;
}

/** The flags a continued replay keeps (file, --url and --from-line are given anew). */
function extraFlags(opts: Opts): string[] {
  const out: string[] = [];
  if (opts.rate !== undefined) out.push('--rate', opts.rate);
  if (opts.signatureHeader !== undefined) out.push('--signature-header', opts.signatureHeader);
  if (opts.timeout !== undefined) out.push('--timeout', opts.timeout);
  if (opts.resign) out.push('--resign');
  return out;
}

/** How the events are signed, in words. */
function signing(resign: boolean, count: number, unsigned: number): string {
  const key = "signed again with this profile's notification key";
  if (resign) return `${key} (--resign)`;
  if (unsigned === 0) return 'each with the signature it arrived with (--resign signs them again with the current key)';
  const why = 'an older listener kept no signature value, nor does a bare payload';
  if (unsigned === count) return `${key} (${why})`;
  return `each with the signature it arrived with, except ${unsigned} the file keeps no signature for (${why}): those ${key}`;
}

function row(line: string, event: string, id: string, status: string, time: string, answer: string, paint: (s: string) => string = (s) => s): string {
  return `${line.padStart(5)}  ${event.padEnd(9)}  ${id.padEnd(28)}  ${paint(status.padEnd(6))}  ${time.padStart(7)}  ${answer}`;
}
