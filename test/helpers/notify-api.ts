// Plain-fetch access to the sandbox's notification service for its own tests, plus a tiny
// webhook receiver on loopback and a poll helper (no timed assertions: poll until true).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

export interface ApiResult<T = any> {
  status: number;
  body: T;
}

export function notifyApi(get: () => RunningSandbox, key: string = SANDBOX_KEYS.notify) {
  return async <T = any>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(get().notifyUrl + path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Poll `fn` until it returns a truthy value (the sandbox moves on its own clock). */
export async function eventually<T>(fn: () => Promise<T> | T, what: string, limitMs = 5000): Promise<Truthy<T>> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A webhook target on 127.0.0.1 that records every POST it gets. */
export async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
