// The events `webhook replay` re-sends: the JSONL file of `webhook listen --out`, one StoredEvent
// a line ({receivedAt, event, id, channel, signatureHeader, signature, payload}; files written
// before the listener kept the signature value lack it, and so do the failed-forwards file's lines
// of those days), or a line that is a bare payload. The
// file is read twice, as a stream both times: once to check every line (so a damaged line stops
// the replay before anything is sent), then to send — up to the size it had at the check, so
// events a running listener appends meanwhile are left for the next replay.
import fs from 'node:fs';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { notUtf8Error, Utf8Check } from '../core/utf8.js';
import { UsageError } from '../core/errors.js';
import { fileProblem } from '../core/file-problem.js';
import { endSentence } from '../core/sentence.js';
import { forTerminal } from '../core/sanitize.js';
import { candidatesOf, SIGNATURE_HEADERS, signedFields, unsignedEvent } from './signature.js';

export interface ReplayItem {
  /** The file's own line number (1 = first line). */
  line: number;
  payload: Record<string, unknown>;
  id: string;
  event: string;
  channel?: 'email' | 'sms';
  /** The header the event arrived under, when the file says. */
  signatureHeader?: string;
  /** The signature value it arrived with, when the file keeps it. */
  signature?: string;
}

export interface CheckedFile {
  /** Events at or after the first line. */
  count: number;
  /** Lines in the file (at the check). */
  lines: number;
  /** Bytes read by the check: the send reads no further. */
  bytes: number;
  /** Of `count`, the events the file keeps no signature value for. */
  unsigned: number;
}

/** Opens `file` for reading, or a UsageError in one sentence (exit 2, nothing sent). */
function sizeOf(file: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    throw new UsageError(fileProblem(e, file, 'events file'));
  }
  if (st.isDirectory()) throw new UsageError(fileProblem(Object.assign(new Error(), { code: 'EISDIR' }), file, 'events file'));
  if (!st.isFile()) throw new UsageError(`The events file ${file} is not a regular file; give the JSONL file \`webhook listen --out\` wrote.`);
  return st.size;
}

async function* lines(file: string, bytes: number): AsyncGenerator<{ n: number; text: string }> {
  if (bytes === 0) return;
  const stream = fs.createReadStream(file, { start: 0, end: bytes - 1 });
  const rl = readline.createInterface({ input: Readable.from(checkedText(stream, file)), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of rl) yield { n: ++n, text };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(fileProblem(e, file, 'events file'));
  } finally {
    rl.close();
    stream.destroy();
  }
}

/**
 * The file's text, checked as UTF-8 chunk by chunk before it is passed on (src/core/utf8.ts): a
 * payload with a byte that is not UTF-8 would be re-sent with U+FFFD in its place, a body its
 * signature no longer matches. The first bad byte stops the check, named by its offset.
 */
async function* checkedText(bytes: AsyncIterable<Buffer>, file: string): AsyncGenerator<string> {
  const check = new Utf8Check((_, at) => notUtf8Error({ name: `the events file ${file}` }, at));
  const text = new StringDecoder('utf8');
  for await (const chunk of bytes) {
    check.push(chunk);
    yield text.write(chunk);
  }
  check.end();
  const rest = text.end();
  if (rest) yield rest;
}

/** One line as an event to replay, undefined for a blank line, or the one sentence saying what is wrong with it. */
function parseLine(text: string, n: number, file: string): ReplayItem | undefined | { problem: string } {
  if (!text.trim()) return undefined;
  const at = `Line ${n} of ${file}`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: `${at} is not JSON${text.trimStart().startsWith('{') ? ' (a line cut short, as a listener stopped mid-write leaves)' : ''}: ${forTerminal(text, 60)}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { problem: `${at} is not a stored webhook event (a JSON object).` };
  const o = v as Record<string, unknown>;
  const stored = 'payload' in o;
  const payload = stored ? o.payload : o;
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return { problem: `${at} has a payload that is not a JSON object.` };
  // The listener's reading (src/webhook/signature.ts, decisions row 27): the id from mail.id,
  // sms_data.id or id, the event from event or eventType, by name or type code. An event the
  // service does not send would vouch for a split it never signed, and --resign would sign it.
  const unknown = unsignedEvent(candidatesOf(payload));
  if (unknown) return { problem: `${at} is not a webhook event: ${forTerminal(unknown, 200)}.` };
  const f = signedFields(payload);
  if (!f.id || !f.event) {
    const missing = !f.id ? 'no message id (mail.id, sms_data.id or id)' : 'no event (event or eventType)';
    return { problem: `${at} is not a webhook event: its ${stored ? 'payload' : 'content'} has ${missing}.` };
  }
  let signatureHeader: string | undefined;
  if (stored && o.signatureHeader !== undefined) {
    const h = typeof o.signatureHeader === 'string' ? o.signatureHeader.toLowerCase() : '';
    if (!(SIGNATURE_HEADERS as readonly string[]).includes(h)) return { problem: `${at} names the signature header "${forTerminal(String(o.signatureHeader), 60)}", which is neither ${SIGNATURE_HEADERS.join(' nor ')}.` };
    signatureHeader = h;
  }
  let signature: string | undefined;
  if (stored && o.signature !== undefined) {
    // What the listener stored is what verified; anything else would go out as a header as is.
    if (typeof o.signature !== 'string' || !/^[ \t]*[0-9a-fA-F]{64}[ \t]*$/.test(o.signature)) return { problem: `${at} has a signature that is not 64 hex digits: ${forTerminal(String(o.signature), 80)}` };
    signature = o.signature.trim();
  }
  return { line: n, payload: payload as Record<string, unknown>, id: f.id, event: f.event, channel: f.channel, signatureHeader, signature };
}

/** Checks every line from `fromLine` on; the first damaged one is a UsageError naming it. */
export async function checkReplayFile(file: string, fromLine: number): Promise<CheckedFile> {
  const bytes = sizeOf(file);
  let count = 0;
  let unsigned = 0;
  let last = 0;
  for await (const { n, text } of lines(file, bytes)) {
    last = n;
    if (n < fromLine) continue;
    const r = parseLine(text, n, file);
    if (r && 'problem' in r) {
      throw new UsageError(`${endSentence(r.problem)} Nothing was sent.`, `Fix or delete line ${n}, or replay from the line after it with --from-line ${n + 1}.`);
    }
    if (r) count++;
    if (r && r.signature === undefined) unsigned++;
  }
  return { count, lines: last, bytes, unsigned };
}

/** The events from `fromLine` on, in file order, reading no further than the check did. */
export async function* replayItems(file: string, fromLine: number, checked: CheckedFile): AsyncGenerator<ReplayItem> {
  for await (const { n, text } of lines(file, checked.bytes)) {
    if (n < fromLine) continue;
    const r = parseLine(text, n, file);
    if (r && 'problem' in r) throw new UsageError(`${endSentence(r.problem)} It changed after the check.`);
    if (r) yield r;
  }
}
