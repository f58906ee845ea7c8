// Plain-fetch access to the sandbox's campaign service for the sandbox's own tests: they check
// the emulator against the spec, so they talk HTTP directly rather than through the client.
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

export interface ApiResult<T = any> {
  status: number;
  json: T;
  text: string;
}

export function campaignApi(get: () => RunningSandbox, key: string = SANDBOX_KEYS.campaign) {
  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
    const init: RequestInit = { method, headers: { 'x-api-key': key, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(get().campaignUrl + path, init);
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
  return {
    call,
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    del: <T = any>(path: string, body?: unknown) => call<T>('DELETE', path, body),
    patch: <T = any>(path: string) => call<T>('PATCH', path),
  };
}

/** Polls `probe` until `done` holds (or fails after `timeoutMs`): state changes take sandbox time. */
export async function pollUntil<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 8000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
