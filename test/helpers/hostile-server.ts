// A HOSTILE server for tests: a node:http server on 127.0.0.1 that answers whatever a test
// tells it to, per route — traversal names, escape sequences, links to the metadata service,
// redirects, endless or broken bodies, words full of terminal escapes (HOSTILE_TEXT) — where the
// sandbox (which follows the spec) never would.
// Point the CLI at it with `runCli(argv, { env: hs.env })`: both services' base URLs
// (`${url}/campaign`, `${url}/notify`) and keys that are never to leave for another host.
//
//   const hs = useHostileServer();                 // started once per file, routes cleared per test
//   hs.get().on('GET', '/campaign/v1/report/CP1/link', reply.json([{ reportType: '../x', link: `${hs.get().url}/files/a` }]));
//   hs.get().on('GET', '/files/a', reply.redirect('http://169.254.169.254/latest/meta-data/'));
//   const r = await runCli(['report', 'links', 'CP1', '--out-dir', dir], { env: hs.get().env });
//   hs.get().requests   // what it received: method, path, query, headers, body
import http from 'node:http';
import type net from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How a route answers. `seen` is the request as recorded (body read in full). */
export type Reply = (res: http.ServerResponse, seen: Seen, req: http.IncomingMessage) => void | Promise<void>;

/**
 * Words a hostile service answers with, to be printed for a person: each would act on a
 * terminal if it reached one raw (retitle the window, clear the screen, hide or reorder text,
 * break a row), and the last is 200 KB long.
 */
export const HOSTILE_TEXT = {
  osc: 'Title\u001b]0;owned by the server\u0007 group',
  clear: 'Clear\u001b[2J\u001b[H screen',
  hidden: 'Shown\u001b[8m hidden\u001b[0m text',
  bidi: 'invoice\u202egpj.exe\u2066x\u2069',
  c1: 'C1\u009b31m csi\u0085 nel\u009d osc',
  rows: 'tab\there\nnew line\rcarriage\u2028sep',
  bell: 'bell\u0007\u0008\u007f del',
  huge: `${'N'.repeat(200 * 1024)}\u001b]0;tail\u0007`,
} as const;

/** What must never reach a terminal from a service: C0 controls but tab and newline, DEL, C1, bidi and line separators. */
export const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]/;

/** Keys the CLI is given for the hostile server: tests check they go nowhere else. */
export const HOSTILE_KEYS = { campaign: 'hostile-campaign-key-0123456789', notify: 'hostile-notify-key-0123456789' } as const;

export const reply = {
  json(body: unknown, status = 200): Reply {
    return (res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
  },
  text(body: string | Buffer, status = 200, headers: http.OutgoingHttpHeaders = { 'content-type': 'text/csv' }): Reply {
    return (res) => {
      res.writeHead(status, headers);
      res.end(body);
    };
  },
  redirect(location: string, status = 302): Reply {
    return (res) => {
      res.writeHead(status, { location });
      res.end();
    };
  },
  /**
   * `bytes` of `fill` repeated, streamed with back-pressure; stops when the client goes away.
   * `chunked`: no Content-Length (the size shows only by reading); `onDone` is told how many
   * bytes were handed to the socket and whether the client went away first.
   */
  huge(bytes: number, contentType = 'application/json', fill = 'x', o: { chunked?: boolean; onDone?: (sent: number, clientLeft: boolean) => void } = {}): Reply {
    return async (res) => {
      res.writeHead(200, { 'content-type': contentType, ...(o.chunked ? {} : { 'content-length': String(bytes) }) });
      const chunk = Buffer.alloc(64 * 1024, fill);
      let left = bytes;
      let gone = false;
      res.on('close', () => (gone = true));
      while (left > 0 && !gone) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= part.length;
        if (!res.write(part)) await new Promise((r) => (res.once('drain', r), res.once('close', r)));
      }
      o.onDone?.(bytes - left, gone);
      res.end();
    };
  },
  /** Promises `declared` bytes, sends `part`, then drops the connection. */
  truncated(part: string, declared = part.length * 10): Reply {
    return (res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(declared) });
      res.write(part, () => setTimeout(() => res.socket?.destroy(), 20));
    };
  },
  /** Never answers (the connection is dropped when the server closes). */
  hang(): Reply {
    return () => {};
  },
  /**
   * Headers and `head` at once, then `drip` every `everyMs` for `forMs`, then `tail`: a body
   * that keeps a reader waiting without ever going quiet for long. `onDone` is told whether the
   * client went away before the tail.
   */
  trickle(o: { head: string; drip: string; everyMs: number; forMs: number; tail?: string; status?: number; contentType?: string; onDone?: (clientLeft: boolean) => void }): Reply {
    return async (res) => {
      res.writeHead(o.status ?? 200, { 'content-type': o.contentType ?? 'application/json' });
      res.write(o.head);
      let gone = false;
      res.on('close', () => (gone = true));
      for (let t = 0; t < o.forMs && !gone; t += o.everyMs) {
        await new Promise((r) => setTimeout(r, o.everyMs));
        if (!gone) res.write(o.drip);
      }
      o.onDone?.(gone);
      res.end(o.tail ?? '');
    };
  },
};

interface Route {
  method: string;
  path: string | RegExp;
  reply: Reply;
}

export interface HostileServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly campaignUrl: string;
  readonly notifyUrl: string;
  /** Environment for runCli: both base URLs and HOSTILE_KEYS. */
  readonly env: Record<string, string>;
  /** Everything received since the last reset, in order. */
  readonly requests: Seen[];
  /** Adds a route (exact path without the query, or a RegExp on it); a later one for the same request wins. */
  on(method: string, path: string | RegExp, r: Reply): HostileServer;
  /** Forgets routes and requests. */
  reset(): void;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  let routes: Route[] = [];
  const requests: Seen[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const seen: Seen = { method: req.method ?? '', path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(seen);
    // No connection is kept for the next request: reset() cuts every socket between tests, and a
    // kept one would make the next test's first request fail as if the network broke.
    res.setHeader('connection', 'close');
    const route = [...routes].reverse().find((r) => r.method === seen.method && (typeof r.path === 'string' ? r.path === seen.path : r.path.test(seen.path)));
    try {
      if (route) await route.reply(res, seen, req);
      else reply.json({ error: `no route for ${seen.method} ${seen.path} in this test` }, 404)(res, seen, req);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const hs: HostileServer = {
    url,
    campaignUrl: `${url}/campaign`,
    notifyUrl: `${url}/notify`,
    env: {
      MAILCTL_CAMPAIGN_URL: `${url}/campaign`,
      MAILCTL_NOTIFY_URL: `${url}/notify`,
      MAILCTL_CAMPAIGN_API_KEY: HOSTILE_KEYS.campaign,
      MAILCTL_NOTIFY_API_KEY: HOSTILE_KEYS.notify,
    },
    requests,
    on(method, path, r) {
      routes.push({ method: method.toUpperCase(), path, reply: r });
      return hs;
    },
    reset() {
      routes = [];
      requests.length = 0;
      for (const s of sockets) s.destroy(); // hung answers of the last test
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return hs;
}

/** One hostile server per test file; routes and recorded requests are cleared after each test. */
export function useHostileServer(): { get: () => HostileServer } {
  let running: HostileServer | undefined;
  beforeAll(async () => {
    running = await startHostileServer();
  });
  afterEach(() => running?.reset());
  afterAll(async () => {
    await running?.close();
  });
  return {
    get: () => {
      if (!running) throw new Error('hostile server not started');
      return running;
    },
  };
}
