// A local webhook receiver: checks each POST's signature, appends good events to a JSONL file
// (fsync'd before answering 200, so an acknowledged event is on disk even if we are killed the
// next instant), optionally re-posts them to a local app, and rejects everything else.
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '../api/http.js';
import { signatureHeader, verifyPayload } from './signature.js';

export const DEFAULT_MAX_BODY = 1024 * 1024;

export interface StoredEvent {
  receivedAt: string;
  event: string;
  id: string;
  channel?: 'email' | 'sms';
  signatureHeader: string;
  payload: unknown;
}

export interface ListenerOptions {
  host: string;
  port: number;
  key: string;
  outFile: string;
  maxBody?: number;
  forward?: string;
  fetch: FetchLike;
  now?: () => number;
  onEvent?: (e: StoredEvent) => void;
  onReject?: (status: number, reason: string) => void;
  onForward?: (ok: boolean, detail: string) => void;
}

export interface RunningListener {
  url: string;
  stats: { stored: number; rejected: number; forwarded: number; forwardFailed: number };
  close(): Promise<void>;
}

export async function startListener(o: ListenerOptions): Promise<RunningListener> {
  const maxBody = o.maxBody ?? DEFAULT_MAX_BODY;
  const now = o.now ?? Date.now;
  const fd = openForAppend(o.outFile);
  const stats = { stored: 0, rejected: 0, forwarded: 0, forwardFailed: 0 };
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => {});
    return p;
  };

  const reply = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const reject = (res: http.ServerResponse, status: number, reason: string) => {
    stats.rejected++;
    o.onReject?.(status, reason);
    reply(res, status, { error: reason });
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') return reply(res, 200, { ok: true, service: 'mailctl webhook listener' });
    if (req.method !== 'POST') return reject(res, 405, `method ${req.method} not allowed`);
    const declared = Number(req.headers['content-length']);
    if (declared > maxBody) {
      reject(res, 413, `body of ${declared} bytes is over the ${maxBody}-byte limit`);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody) {
        if (!over) reject(res, 413, `body over the ${maxBody}-byte limit`);
        over = true;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (over) return;
      const raw = Buffer.concat(chunks);
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        return reject(res, 400, 'body is not JSON');
      }
      const sig = signatureHeader(req.headers);
      const v = verifyPayload(o.key, payload, sig?.value);
      if (!v.valid) return reject(res, 401, `signature check failed: ${v.reason}`);
      const stored: StoredEvent = { receivedAt: new Date(now()).toISOString(), event: v.event, id: v.id, channel: v.fields.channel, signatureHeader: sig!.name, payload };
      try {
        // One write of one line, then fsync, before the 200: acknowledged means on disk.
        fs.writeSync(fd, JSON.stringify(stored) + '\n');
        fs.fsyncSync(fd);
      } catch (e) {
        return reply(res, 500, { error: `could not store the event: ${(e as Error).message}` });
      }
      stats.stored++;
      o.onEvent?.(stored);
      reply(res, 200, { ok: true });
      if (o.forward) track(forward(o, raw, req.headers['content-type'], sig!, stats));
    });
    req.on('error', () => res.destroy());
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}/`,
    stats,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeIdleConnections();
      });
      await Promise.allSettled([...pending]);
      fs.closeSync(fd);
    },
  };
}

/** Opens for append only (never truncates); a torn last line is closed so the next event starts clean. */
function openForAppend(file: string): number {
  const fd = fs.openSync(file, 'a', 0o600);
  const size = fs.fstatSync(fd).size;
  if (size > 0) {
    const last = Buffer.alloc(1);
    const rfd = fs.openSync(file, 'r');
    fs.readSync(rfd, last, 0, 1, size - 1);
    fs.closeSync(rfd);
    if (last[0] !== 0x0a) fs.writeSync(fd, '\n');
  }
  return fd;
}

/** Re-posts the exact body with the same signature header, so the app can verify it too. */
async function forward(o: ListenerOptions, raw: Buffer, contentType: string | undefined, sig: { name: string; value: string }, stats: RunningListener['stats']): Promise<void> {
  try {
    const res = await o.fetch(o.forward!, {
      method: 'POST',
      headers: { 'content-type': contentType ?? 'application/json', [sig.name]: sig.value },
      body: new Uint8Array(raw),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) stats.forwarded++;
    else stats.forwardFailed++;
    o.onForward?.(res.ok, `HTTP ${res.status}`);
  } catch (e) {
    stats.forwardFailed++;
    o.onForward?.(false, (e as Error).message);
  }
}
