// A local webhook receiver: checks each POST's signature, appends good events to a JSONL file
// (fsync'd before answering 200, so an acknowledged event is on disk even if we are killed the
// next instant), optionally re-posts them to a local app by event (routes; retried with backoff
// after the 200, what cannot be forwarded kept for a replay: forwarder.ts), and rejects the rest.
//
// Anyone who can reach it may connect (issue 10.6), so everything it holds is bounded: at most
// `maxConnections` sockets, each with at most `maxBody` bytes buffered, for at most
// `bodyTimeoutMs` (headers within `headersTimeoutMs`); a socket that stalls is destroyed. Memory is
// therefore at most maxConnections × maxBody of bodies, released within the time-outs, plus the
// forwards held (at most forwardQueue events and forwardQueueBytes). A repeat of one of the last
// `dedupeWindow` stored (id, event) pairs is answered 200 and not stored again.
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '../api/http.js';
import { signatureHeader, verifyPayload } from './signature.js';
import { RecentEvents } from './recent.js';
import { failedFileFor, openEventsFile } from './events-file.js';
import { Forwarder, type ForwardJob, type ForwardOutcome, type ForwardPolicy } from './forwarder.js';
import { hasRoutes, routeFor, routeName, type Routes } from './routes.js';

export interface ListenerLimits {
  /** Largest body accepted; a larger one is answered 413 (by its Content-Length, before reading it). */
  maxBody: number;
  /** Open connections at once; more are closed as they arrive. */
  maxConnections: number;
  /** From connecting (or from the end of the previous request) to the end of the headers. */
  headersTimeoutMs: number;
  /** From the start of a request to the end of its body. */
  bodyTimeoutMs: number;
  /** How many stored (id, event) pairs are remembered to recognise a repeat. */
  dedupeWindow: number;
  /** How much of the end of an existing events file is read at start to remember its events. */
  seedBytes: number;
  /** One try of a forward to the local app that takes longer has failed (and may be retried). */
  forwardTimeoutMs: number;
  /** Tries per forward, the first included. */
  forwardAttempts: number;
  /** The wait before the first retry; it doubles each time, with jitter. */
  forwardBaseDelayMs: number;
  /** The longest wait between tries (a Retry-After included). */
  forwardMaxDelayMs: number;
  /** A forward not done this long after its first try is given up and kept. */
  forwardTotalMs: number;
  /** Forwards held at once (in flight or waiting to retry); more are kept at once, not tried. */
  forwardQueue: number;
  /** Bytes of forwards held at once (body and stored line). */
  forwardQueueBytes: number;
  /** Forwards under way at once (a try, or the wait before the next); the rest wait in line. */
  forwardConcurrency: number;
  /** On close, how long forwards under way may still finish before they are cut off and kept. */
  stopGraceMs: number;
}

// A webhook body is one message's event: its metadata and the message content (spec 001 section
// 6). 256 KiB holds any real one (mail clients clip HTML at about 100 KB); --max-body raises it.
export const DEFAULT_LIMITS: ListenerLimits = {
  maxBody: 256 * 1024,
  maxConnections: 64,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 10_000,
  dedupeWindow: 20_000,
  seedBytes: 64 * 1024 * 1024,
  forwardTimeoutMs: 10_000,
  // 0.5, 1, 2, 4, 8 s (each cut at random to 50-100 %): a restarting app has some 15 s to come back.
  forwardAttempts: 6,
  forwardBaseDelayMs: 500,
  forwardMaxDelayMs: 30_000,
  forwardTotalMs: 60_000,
  // Waiting in line costs little more than the event itself (forwards under way are few), so
  // a burst of thousands can wait; bytes bind first for bodies over some 3 KB.
  forwardQueue: 10_000,
  forwardQueueBytes: 32 * 1024 * 1024,
  forwardConcurrency: 8,
  stopGraceMs: 500,
};

export interface StoredEvent {
  receivedAt: string;
  event: string;
  id: string;
  channel?: 'email' | 'sms';
  signatureHeader: string;
  /**
   * The signature value as received, so `webhook replay` can send the event exactly as it came
   * (and so test a consumer against the key it was signed with). Kept in the file on purpose: it
   * is a MAC of this event's id and name only (decisions row 14), which anyone who saw the
   * delivery already has; it reveals nothing of the key and cannot sign any other id or event
   * (another split of the same id + event text is refused: its event name is not one the spec
   * lists, signature.ts SIGNED_EVENTS).
   * (It does not cover the body, so it vouches for that no more than it did on the wire.)
   */
  signature: string;
  payload: unknown;
}

export interface ListenerOptions {
  host: string;
  port: number;
  key: string;
  outFile: string;
  /** Where each stored event is re-posted; none: events are only stored. */
  routes?: Routes;
  /** The same as routes `{ fallback: forward }`. */
  forward?: string;
  /** Events that could not be forwarded (default: beside outFile, events.failed.jsonl). */
  failedFile?: string;
  fetch: FetchLike;
  limits?: Partial<ListenerLimits>;
  now?: () => number;
  onEvent?: (e: StoredEvent) => void;
  onDuplicate?: (id: string, event: string) => void;
  onReject?: (status: number, reason: string) => void;
  onForward?: (o: ForwardOutcome) => void;
  onRetry?: (job: ForwardJob, attempt: number, detail: string) => void;
  onWarn?: (message: string) => void;
}

export interface ListenerStats {
  stored: number;
  duplicates: number;
  rejected: number;
  forwarded: number;
  /** Retries made, over all forwards. */
  retried: number;
  /** Stored events not forwarded (refused, failed, queue full, stopped)… */
  forwardFailed: number;
  /** …of which written to the failed file. */
  kept: number;
  /** Stored events no route named (only stored). */
  unrouted: number;
}

export interface RunningListener {
  url: string;
  stats: ListenerStats;
  /** The failed-forwards file, when there are routes. */
  failedFile?: string;
  /** Stops at once: every connection is ended, forwards waiting to retry are kept, those in flight get `stopGraceMs`, the files are closed. */
  close(): Promise<void>;
}

export async function startListener(o: ListenerOptions): Promise<RunningListener> {
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const now = o.now ?? Date.now;
  const recent = new RecentEvents(limits.dedupeWindow);
  const routes: Routes | undefined = o.routes ?? (o.forward !== undefined ? { byEvent: {}, fallback: o.forward } : undefined);
  const stats: ListenerStats = { stored: 0, duplicates: 0, rejected: 0, forwarded: 0, retried: 0, forwardFailed: 0, kept: 0, unrouted: 0 };
  const fd = openEventsFile(o.outFile, recent, limits.seedBytes, (m) => o.onWarn?.(m));
  let closing = false;
  let failedFile: string | undefined;
  let ffd: number | undefined;
  let forwarder: Forwarder | undefined;
  if (routes && hasRoutes(routes)) {
    failedFile = o.failedFile ?? failedFileFor(o.outFile);
    try {
      // Opened now, not at the first failure: a file that cannot be written is found at start.
      ffd = openEventsFile(failedFile, undefined, 0, (m) => o.onWarn?.(m));
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    const failed = ffd;
    forwarder = new Forwarder({
      fetch: o.fetch,
      policy: forwardPolicy(limits),
      stats,
      keep: (line) => {
        fs.writeSync(failed, line + '\n');
        // While stopping, one fsync at the end for all: a thousand would not fit the stop budget.
        if (!closing) fs.fsyncSync(failed);
      },
      onRetry: o.onRetry,
      onOutcome: o.onForward,
    });
  }

  const reply = (res: http.ServerResponse, status: number, body: unknown, close = false) => {
    if (res.headersSent || res.destroyed) return;
    // `connection: close` makes Node end the socket once the answer is out, so a refused body is
    // never read on (a client that keeps sending is cut off rather than drained).
    res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
    res.end(JSON.stringify(body));
  };
  const reject = (res: http.ServerResponse, status: number, reason: string, close = false) => {
    stats.rejected++;
    o.onReject?.(status, reason);
    reply(res, status, { error: reason }, close);
  };

  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.bodyTimeoutMs,
      // Node checks both time-outs on this interval (default 30 s): often enough to be prompt.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      if (req.method === 'GET' || req.method === 'HEAD') return reply(res, 200, { ok: true, service: 'mailctl webhook listener' });
      if (req.method !== 'POST') return reject(res, 405, `method ${req.method} not allowed`, true);
      const declared = Number(req.headers['content-length']);
      if (declared > limits.maxBody) return reject(res, 413, `body of ${declared} bytes is over the ${limits.maxBody}-byte limit`, true);
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (c: Buffer) => {
        if (over) return;
        size += c.length;
        if (size > limits.maxBody) {
          over = true;
          chunks.length = 0;
          return reject(res, 413, `body over the ${limits.maxBody}-byte limit`, true);
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (over || closing) return;
        const raw = Buffer.concat(chunks);
        chunks.length = 0;
        let payload: unknown;
        try {
          payload = JSON.parse(raw.toString('utf8'));
        } catch {
          return reject(res, 400, 'body is not JSON');
        }
        const sig = signatureHeader(req.headers);
        const v = verifyPayload(o.key, payload, sig?.value);
        if (!v.valid) return reject(res, 401, `signature check failed: ${v.reason}`);
        if (recent.has(v.id, v.event)) {
          // Already on disk (and forwarded): acknowledge so the sender stops, store nothing.
          stats.duplicates++;
          o.onDuplicate?.(v.id, v.event);
          return reply(res, 200, { ok: true, duplicate: true });
        }
        const stored: StoredEvent = { receivedAt: new Date(now()).toISOString(), event: v.event, id: v.id, channel: v.fields.channel, signatureHeader: sig!.name, signature: sig!.value, payload };
        const line = JSON.stringify(stored);
        try {
          // One write of one line, then fsync, before the 200: acknowledged means on disk.
          fs.writeSync(fd, line + '\n');
          fs.fsyncSync(fd);
        } catch (e) {
          return reply(res, 500, { error: `could not store the event: ${(e as Error).message}` });
        }
        recent.add(v.id, v.event);
        stats.stored++;
        o.onEvent?.(stored);
        reply(res, 200, { ok: true });
        // After the answer: the service never waits on the app.
        if (!forwarder || !routes) return;
        const url = routeFor(routes, v.event, v.fields.channel);
        if (url === undefined) {
          stats.unrouted++;
          return;
        }
        forwarder.submit({ url, route: routeName(v.event, v.fields.channel), id: v.id, raw, contentType: req.headers['content-type'], signature: sig!, line });
      });
      req.on('error', () => res.destroy());
    },
  );
  server.maxConnections = limits.maxConnections;
  // Time-outs and malformed requests: the socket is dropped, nothing it sent is kept.
  server.on('clientError', (_e, socket) => socket.destroy());
  const closeFiles = () => {
    fs.closeSync(fd);
    if (ffd !== undefined) fs.closeSync(ffd);
  };

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => resolve());
    });
  } catch (e) {
    closeFiles();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}/`,
    stats,
    failedFile,
    async close() {
      if (closing) return;
      closing = true;
      // Nothing unacknowledged was stored, so cutting requests under way loses nothing: their
      // senders did not get a 200 and will send again.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      // Forwards waiting to retry are kept at once, those in flight after stopGraceMs.
      await forwarder?.stop(limits.stopGraceMs);
      try {
        if (ffd !== undefined) fs.fsyncSync(ffd);
      } catch (e) {
        o.onWarn?.(`Could not sync ${failedFile}: ${(e as Error).message}; the events are in ${o.outFile} too.`);
      }
      closeFiles();
    },
  };
}

function forwardPolicy(l: ListenerLimits): ForwardPolicy {
  return {
    attempts: Math.max(1, l.forwardAttempts),
    baseDelayMs: l.forwardBaseDelayMs,
    maxDelayMs: l.forwardMaxDelayMs,
    totalMs: l.forwardTotalMs,
    attemptTimeoutMs: l.forwardTimeoutMs,
    queue: l.forwardQueue,
    queueBytes: l.forwardQueueBytes,
    concurrency: Math.max(1, l.forwardConcurrency),
  };
}
