// A stand-in for a user's webhook consumer on loopback: records every request exactly as it
// arrived (headers, raw body) and answers as the test says (status, body), per request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Got {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Consumer {
  url: string;
  got: Got[];
  /** Decides each answer from what arrived (default 200 {"ok":true}). */
  answer: (g: Got, index: number) => Answer;
  close(): Promise<void>;
}

export async function startConsumer(answer: Consumer['answer'] = () => ({ status: 200, body: '{"ok":true}' })): Promise<Consumer> {
  const c: Consumer = { url: '', got: [], answer, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const g: Got = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, raw };
      c.got.push(g);
      const a = c.answer(g, c.got.length - 1);
      if (a === 'hang') return;
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  c.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  c.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return c;
}
