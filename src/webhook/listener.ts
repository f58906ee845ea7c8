// A local webhook receiver: checks each POST's signature, stores good events in the event store
// (src/store: SQLite or PostgreSQL; the events arriving together committed in one transaction,
// group-commit.ts) and answers 200 only after the commit, so an acknowledged event is on disk
// even if we are killed the next instant (issue 21). With --out each stored event is also
// appended to a JSONL file, inside the same transaction (appendWhole: whole or cut back; lines of
// a batch whose COMMIT a killed run never made are taken out at the next start). An
// event that could not be stored whole — the commit failed, the disk is full, the copy was torn —
// is answered 503, so the service sends it again (issue 19 item 4). Stored events are optionally
// re-posted to a local app by event (routes; retried with backoff after the 200, what cannot be
// forwarded kept for a replay: forwarder.ts); the rest is rejected.
//
// Anyone who can reach it may connect (issue 10.6), so everything it holds is bounded: at most
// `maxConnections` sockets, each with at most `maxBody` bytes buffered, for at most
// `bodyTimeoutMs` (headers within `headersTimeoutMs`); a socket that stalls is destroyed. Memory is
// therefore at most maxConnections × maxBody of bodies, released within the time-outs, plus the
// forwards held (at most forwardQueue events and forwardQueueBytes), plus at most maxConnections
// events waiting for their commit. A repeat of a stored (channel, id, event) — however old, and
// whichever listener on a shared store stored it — is answered 200 and not stored again.
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '../api/http.js';
import { signatureHeaders, verifyPayload } from './signature.js';
import { openEventsFile } from './events-file.js';
import { appendWhole } from '../fs/append-whole.js';
import { dropUncommitted, markBatch, markFileFor, openBatchMark } from './events-copy-check.js';
import type { Clock } from '../core/clock.js';
import { GroupCommit } from '../store/group-commit.js';
import { rowOf, type EventRow } from '../store/row.js';
import { nestedDeeperThan } from '../core/json-depth.js';
import type { EventStore } from '../store/store.js';
import { Forwarder, type ForwardJob, type ForwardOutcome, type ForwardPolicy } from './forwarder.js';
import { hasRoutes, routeFor, routeName, type Routes } from './routes.js';


/** The deepest a webhook body may nest (a real payload: mail.variables, three or four levels). */
export const MAX_PAYLOAD_DEPTH = 64;
export interface ListenerLimits {
  /** Largest body accepted; a larger one is answered 413 (by its Content-Length, before reading it). */
  maxBody: number;
  /** Open connections at once; more are closed as they arrive. */
  maxConnections: number;
  /** From connecting (or from the end of the previous request) to the end of the headers. */
  headersTimeoutMs: number;
  /** From the start of a request to the end of its body. */
  bodyTimeoutMs: number;
  /** Most events committed in one transaction (group commit). */
  maxBatch: number;
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
  maxBatch: 500,
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
  /** Where every verified event is stored; the listener closes it when it stops. */
  store: EventStore;
  /** An extra JSONL copy of every stored event (--out). */
  outFile?: string;
  /** Events older than this (ms, by their own time) are pruned at start and then daily. */
  keepMs?: number;
  /** Where each stored event is re-posted; none: events are only stored. */
  routes?: Routes;
  /** The same as routes `{ fallback: forward }`. */
  forward?: string;
  /** Events that could not be forwarded: needed when there are routes. */
  failedFile?: string;
  fetch: FetchLike;
  limits?: Partial<ListenerLimits>;
  /** Receipt times and the daily prune (tests inject virtual time). */
  clock?: Clock;
  onEvent?: (e: StoredEvent) => void;
  onDuplicate?: (id: string, event: string) => void;
  onReject?: (status: number, reason: string) => void;
  onForward?: (o: ForwardOutcome) => void;
  onRetry?: (job: ForwardJob, attempt: number, detail: string) => void;
  onWarn?: (message: string) => void;
  /** A batch could not be stored: its events were answered 503. */
  onStoreFailed?: (events: number, error: unknown) => void;
  /** A prune ran (at start, then daily). */
  onPrune?: (removed: number, before: number) => void;
}

export interface ListenerStats {
  stored: number;
  duplicates: number;
  rejected: number;
  /** Answered 503: could not be stored whole (the service sends them again). */
  notStored: number;
  /** Removed by --keep. */
  pruned: number;
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
  /** Stops at once: every connection is ended, commits under way finish, forwards waiting to retry are kept, those in flight get `stopGraceMs`, the files and the store are closed. */
  close(): Promise<void>;
}

export async function startListener(o: ListenerOptions): Promise<RunningListener> {
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const now = o.clock ? () => o.clock!.now() : Date.now;
  const routes: Routes | undefined = o.routes ?? (o.forward !== undefined ? { byEvent: {}, fallback: o.forward } : undefined);
  const stats: ListenerStats = { stored: 0, duplicates: 0, rejected: 0, notStored: 0, pruned: 0, forwarded: 0, retried: 0, forwardFailed: 0, kept: 0, unrouted: 0 };
  const fds: number[] = [];
  const closeFiles = () => {
    for (const fd of fds.splice(0)) fs.closeSync(fd);
  };
  let closing = false;
  let failedFile: string | undefined;
  let forwarder: Forwarder | undefined;
  let fd: number | undefined;
  let ffd: number | undefined;
  try {
    if (o.outFile !== undefined) fds.push((fd = openEventsFile(o.outFile, (m) => o.onWarn?.(m))));
    if (routes && hasRoutes(routes)) {
      if (o.failedFile === undefined) throw new Error('a failed-forwards file is needed with routes');
      failedFile = o.failedFile;
      // Opened now, not at the first failure: a file that cannot be written is found at start.
      const failed = (ffd = openEventsFile(failedFile, (m) => o.onWarn?.(m)));
      fds.push(failed);
      const where = failedFile;
      forwarder = new Forwarder({
        fetch: o.fetch,
        policy: forwardPolicy(limits),
        stats,
        // Whole or not at all (cut back on failure); while stopping, one fsync at the end for all.
        keep: (line) => appendWhole(failed, line + '\n', where, { sync: !closing }),
        onRetry: o.onRetry,
        onOutcome: o.onForward,
      });
    }
  } catch (e) {
    closeFiles();
    throw e;
  }
  let markFd: number | undefined;
  if (fd !== undefined) {
    // Lines a run stopped between their copy and their COMMIT left behind (events-copy-check.ts).
    try {
      fds.push((markFd = openBatchMark(o.outFile!)));
      const dropped = await dropUncommitted(fd, markFd, o.store, o.outFile!);
      if (dropped) o.onWarn?.(`${o.outFile} ended in ${dropped === 1 ? 'a line' : `${dropped} lines`} of events the store never committed (a run stopped between the two; never acknowledged, so their sender retries them); taken out.`);
    } catch (e) {
      closeFiles();
      throw e;
    }
  }

  /** The --out line of each row in the batch being committed. */
  const lines = new WeakMap<EventRow, string>();
  const outFile = o.outFile;
  const group = new GroupCommit(o.store, {
    maxBatch: limits.maxBatch,
    // Inside the store's transaction: the copy of the new events, one write and one fsync for
    // the batch. If it fails the batch rolls back (503); if the COMMIT then fails it is cut off.
    beforeCommit: fd === undefined ? undefined : (fresh) => {
      if (!fresh.length) return;
      const start = fs.fstatSync(fd!).size;
      markBatch(markFd!, start, o.store, markFileFor(outFile!));
      appendWhole(fd!, fresh.map((r) => lines.get(r)! + '\n').join(''), outFile!);
      return () => fs.ftruncateSync(fd!, start);
    },
  });

  // Store failures come in bursts (a full disk fails every batch): one warning a second at most.
  const failures = {
    count: 0,
    last: undefined as unknown,
    timer: undefined as NodeJS.Timeout | undefined,
    note(e: unknown) {
      this.count++;
      this.last = e;
      this.timer ??= setTimeout(() => this.flush(), 1000).unref();
    },
    flush() {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      if (this.count) o.onStoreFailed?.(this.count, this.last);
      this.count = 0;
    },
  };

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
        const text = raw.toString('utf8');
        // A webhook payload nests a few levels; one nested thousands deep would overflow the stack
        // of whatever stores or prints it (JSON.stringify does a few thousand levels down) and
        // take the listener, and every event after it, down.
        if (nestedDeeperThan(text, MAX_PAYLOAD_DEPTH)) return reject(res, 400, `body nests JSON more than ${MAX_PAYLOAD_DEPTH} levels deep; no webhook payload does`);
        let payload: unknown;
        try {
          payload = JSON.parse(text);
        } catch {
          return reject(res, 400, 'body is not JSON');
        }
        // Under both names, each is tried: the first that is the service's signs the event.
        const sigs = signatureHeaders(req.headers);
        const first = verifyPayload(o.key, payload, sigs[0]?.value);
        const found = first.valid ? { v: first, sig: sigs[0]! } : sigs.slice(1).map((sig) => ({ v: verifyPayload(o.key, payload, sig.value), sig })).find((x) => x.v.valid);
        if (!found || !found.v.valid) return reject(res, 401, `signature check failed: ${first.valid ? '' : first.reason}`);
        const { v, sig: sigUsed } = found;
        let row: EventRow;
        let stored: StoredEvent;
        let line: string;
        try {
          row = rowOf(payload, { id: v.id, event: v.event, channel: v.fields.channel }, now(), sigUsed);
          stored = { receivedAt: new Date(row.receivedAt).toISOString(), event: row.event, id: v.id, channel: row.channel, signatureHeader: sigUsed.name, signature: sigUsed.value, payload };
          line = JSON.stringify(stored);
        } catch (e) {
          // One event the listener cannot turn into a row must never stop it: nothing is stored,
          // and 503 asks the service to send it again.
          stats.notStored++;
          failures.note(e);
          return reply(res, 503, { error: 'the event could not be stored; send it again' });
        }
        lines.set(row, line);
        group.add(row).then(
          (outcome) => {
            if (outcome === 'duplicate') {
              // Already stored (and forwarded): acknowledge so the sender stops, store nothing.
              stats.duplicates++;
              o.onDuplicate?.(v.id, row.event);
              return reply(res, 200, { ok: true, duplicate: true });
            }
            stats.stored++;
            o.onEvent?.(stored);
            reply(res, 200, { ok: true });
            // After the answer: the service never waits on the app.
            if (!forwarder || !routes) return;
            const url = routeFor(routes, row.event, row.channel);
            if (url === undefined) {
              stats.unrouted++;
              return;
            }
            forwarder.submit({ url, route: routeName(row.event, row.channel), id: v.id, raw, contentType: req.headers['content-type'], signature: sigUsed, line });
          },
          (e: unknown) => {
            // Not stored whole: 503 says "try again", which the service does (nothing was acknowledged).
            stats.notStored++;
            failures.note(e);
            if (!res.headersSent && !res.destroyed) res.setHeader('retry-after', '1');
            reply(res, 503, { error: 'the event could not be stored; send it again' });
          },
        );
      });
      req.on('error', () => res.destroy());
    },
  );
  server.maxConnections = limits.maxConnections;
  // Time-outs and malformed requests: the socket is dropped, nothing it sent is kept.
  server.on('clientError', (_e, socket) => socket.destroy());

  // Retention (--keep): pruned now, then every day of the run's clock.
  const stopRetention = new AbortController();
  const prune = async () => {
    const before = now() - o.keepMs!;
    try {
      const removed = await o.store.pruneOlder(before);
      stats.pruned += removed;
      o.onPrune?.(removed, before);
    } catch (e) {
      o.onWarn?.(`Could not prune events older than ${new Date(before).toISOString()} from ${o.store.shown}: ${(e as Error).message}; trying again in a day.`);
    }
  };
  let retention: Promise<void> | undefined;
  if (o.keepMs !== undefined) {
    await prune();
    const clock = o.clock;
    const sleep = clock ? (ms: number, signal: AbortSignal) => clock.sleep(ms, signal) : (ms: number, signal: AbortSignal) => new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      }, { once: true });
    });
    retention = (async () => {
      for (;;) {
        try {
          await sleep(DAY_MS, stopRetention.signal);
        } catch {
          return;
        }
        await prune();
      }
    })();
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => resolve());
    });
  } catch (e) {
    stopRetention.abort();
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
      stopRetention.abort();
      await closed;
      // A commit under way finishes: what it stores is forwarded or, now, kept.
      await group.drain();
      // Every batch of the copy is committed or rolled back: nothing for the next start to check.
      if (markFd !== undefined) fs.ftruncateSync(markFd, 0);
      failures.flush();
      await retention;
      // Forwards waiting to retry are kept at once, those in flight after stopGraceMs.
      await forwarder?.stop(limits.stopGraceMs);
      try {
        if (ffd !== undefined) fs.fsyncSync(ffd);
      } catch (e) {
        o.onWarn?.(`Could not sync ${failedFile}: ${(e as Error).message}; the events are in the store ${o.store.shown} too.`);
      }
      closeFiles();
      await o.store.close().catch((e: unknown) => o.onWarn?.(`Closing the store ${o.store.shown}: ${(e as Error).message}`));
    },
  };
}

const DAY_MS = 86_400_000;

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
