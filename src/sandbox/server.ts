// The sandbox over HTTP on loopback: `mailctl sandbox serve` and the tests use this.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Sandbox } from './sandbox.js';
import type { SandboxOptions } from './types.js';

export interface RunningSandbox {
  sandbox: Sandbox;
  /** http://127.0.0.1:PORT */
  url: string;
  campaignUrl: string;
  notifyUrl: string;
  /** http://127.0.0.1:PORT/links: stand-ins for a mail's links (links.ts). */
  linksUrl: string;
  close(): Promise<void>;
}

export interface ServeOptions extends Partial<Omit<SandboxOptions, 'publicBase'>> {
  port?: number;
  host?: string;
  /** Move time-driven state (and webhooks) forward every this many ms even with no requests. */
  tickMs?: number;
}

export async function startSandboxServer(o: ServeOptions = {}): Promise<RunningSandbox> {
  const host = o.host ?? '127.0.0.1';
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-sandbox-'));
  const ownsDir = !o.dataDir;
  let sandbox!: Sandbox;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    sandbox
      .handle({ method: req.method ?? 'GET', url, headers: req.headers as Record<string, string>, body: hasBody ? req : null })
      .then((out) => {
        if ('fault' in out) {
          if (out.fault === 'drop') req.socket.destroy();
          // 'hang': never answer; the client's timeout or abort ends it.
          return;
        }
        const headers: Record<string, string> = { ...out.headers };
        if (out.file) {
          res.writeHead(out.status, { ...headers, 'content-length': String(fs.statSync(out.file).size) });
          if (req.method === 'HEAD') return res.end();
          fs.createReadStream(out.file).pipe(res);
          return;
        }
        let body: string | Buffer = '';
        if (out.json !== undefined) {
          body = JSON.stringify(out.json);
          headers['content-type'] ??= 'application/json';
        } else if (out.body !== undefined) body = out.body;
        res.writeHead(out.status, headers);
        res.end(body);
      })
      .catch((e: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `sandbox error: ${e.message}` }));
      });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  sandbox = new Sandbox({ ...o, publicBase: url, dataDir });
  const timer = setInterval(() => void sandbox.tick().catch(() => {}), o.tickMs ?? 250);
  timer.unref();
  return {
    sandbox,
    url,
    campaignUrl: `${url}/campaign`,
    notifyUrl: `${url}/notify`,
    linksUrl: `${url}/links`,
    async close() {
      clearInterval(timer);
      await sandbox.settle();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
