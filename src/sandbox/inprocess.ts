// --sandbox: the emulator runs inside this process, behind a fetch function, with its state
// kept under MAILCTL_CONFIG_DIR/sandbox so multi-step flows work across invocations with no
// server and no network. Requests to any other host go to the real fetch (e.g. a local
// webhook listener).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Clock } from '../cli/clock.js';
import { SANDBOX_BASE } from './constants.js';
import { Sandbox } from './sandbox.js';
import type { SandboxState } from './types.js';

export function sandboxDir(configDir: string): string {
  return path.join(configDir, 'sandbox');
}

export function loadSandbox(configDir: string, clock?: Clock): Sandbox {
  const dir = sandboxDir(configDir);
  const file = path.join(dir, 'state.json');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let state: SandboxState | undefined;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed?.version === 1) state = parsed;
  } catch {
    /* first run, or unreadable: start fresh */
  }
  const sandbox = new Sandbox({ publicBase: SANDBOX_BASE, dataDir: dir, clock }, state);
  sandbox.onChange = (s) => {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(s));
    fs.renameSync(tmp, file);
  };
  return sandbox;
}

export function inProcessSandboxFetch(configDir: string, clock?: Clock): typeof fetch {
  let sandbox: Sandbox | undefined;
  const sandboxFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    // Names below the sandbox's own (links.sandbox.mailctl.invalid) are its link targets' "other host".
    const home = new URL(SANDBOX_BASE);
    if (url.origin !== home.origin && !(url.protocol === home.protocol && url.hostname.endsWith(`.${home.hostname}`))) return globalThis.fetch(request);
    sandbox ??= loadSandbox(configDir, clock);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const body = request.body ? (Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) as AsyncIterable<Uint8Array>) : null;
    const out = await sandbox.handle({ method: request.method, url, headers, body });
    await sandbox.settle();
    if ('fault' in out) {
      if (out.fault === 'drop') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }));
    }
    const h = new Headers(out.headers);
    if (out.file) return new Response(Readable.toWeb(fs.createReadStream(out.file)) as ReadableStream, { status: out.status, headers: h });
    if (out.json !== undefined) {
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      return new Response(JSON.stringify(out.json), { status: out.status, headers: h });
    }
    return new Response(out.status === 204 ? null : out.body ?? '', { status: out.status, headers: h });
  };
  return sandboxFetch as typeof fetch;
}
