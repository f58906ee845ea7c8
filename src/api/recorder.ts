// The --dry-run transport. Under --dry-run the API clients are built exactly as for a real run,
// over this fetch instead of the network: each request they build — method, URL, every header
// (accept, content-type, x-api-key) and body, which is to say what a real run sends — is
// recorded and answered with an empty 204, so nothing leaves the process and no key is needed.
// Reads (GET) are recorded apart, as the lookups a real run makes first: their answers are
// unknown, so the code that needed one goes on with a placeholder it names (src/run/output/dry-run.ts
// `lookup`). What is shown never holds a key or a link's signature.
import type { FetchLike } from './http.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface RecordedLookup extends RecordedRequest {
  /** What a real run reads it for, and what stands in for its answer in the dry run. */
  why: string;
}

type Entry = { kind: 'request'; req: RecordedRequest } | { kind: 'lookup'; req: RecordedLookup };

/**
 * The key the clients are built with under --dry-run when none is configured. Nothing is sent,
 * so it never leaves the process; it is shown as "(your key)".
 */
export const DRY_RUN_KEY = 'mailctl-dry-run-placeholder-key';

/** How the x-api-key header is shown: masked, or "(your key)" for the placeholder. */
type KeyShown = (key: string) => string;

const READS = new Set(['GET', 'HEAD']);

export class DryRunRecorder {
  private readonly entries: Entry[] = [];
  private why: string | undefined;

  constructor(private readonly showKey: KeyShown) {}

  /** The transport: records the request it is handed and answers 204 without sending anything. */
  readonly fetch: FetchLike = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => {
      headers[name] = name === 'x-api-key' ? (value === DRY_RUN_KEY ? '(your key)' : this.showKey(value)) : value;
    });
    const keyless = !req.headers.has('x-api-key');
    const body = await bodyOf(req, headers['content-type']);
    const shown: RecordedRequest = { method: req.method, url: keyless ? withoutSignature(req.url) : req.url, headers, ...(body === undefined ? {} : { body }) };
    if (READS.has(req.method)) this.entries.push({ kind: 'lookup', req: { ...shown, why: this.why ?? 'read by a real run first; its answer is not known in a dry run' } });
    else this.entries.push({ kind: 'request', req: shown });
    return new Response(null, { status: 204 });
  };

  /** A request no client builds before a real answer exists (the upload to the address a create returns). */
  add(req: RecordedRequest): void {
    this.entries.push({ kind: 'request', req });
  }

  /** Runs `read` (its GETs are recorded as lookups, tagged `why`, and answered with nothing). */
  async lookup(why: string, read: () => Promise<unknown>): Promise<void> {
    const outer = this.why;
    this.why = why;
    try {
      await read();
    } finally {
      this.why = outer;
    }
  }

  get requests(): RecordedRequest[] {
    return this.entries.flatMap((e) => (e.kind === 'request' ? [e.req] : []));
  }

  get lookups(): RecordedLookup[] {
    return this.entries.flatMap((e) => (e.kind === 'lookup' ? [e.req] : []));
  }

  /** Everything in the order a real run would make it. */
  get all(): Array<{ kind: 'request' | 'lookup'; req: RecordedRequest | RecordedLookup }> {
    return [...this.entries];
  }
}

/** The body as it would be sent: JSON parsed back, text as text; a file stream is only described. */
async function bodyOf(req: Request, contentType: string | undefined): Promise<unknown> {
  if (!req.body) return undefined;
  if (contentType && !/json|text/i.test(contentType)) {
    await req.body.cancel().catch(() => {});
    const length = req.headers.get('content-length');
    return `(${length ?? 'a stream of'} bytes)`;
  }
  const text = await req.text();
  if (!text) return undefined;
  if (/json/i.test(contentType ?? '')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A link to a host that is not the API is pre-signed: its query string is the signature. */
export function withoutSignature(url: string): string {
  try {
    const u = new URL(url);
    return u.search ? `${u.origin}${u.pathname}?(signature hidden)` : u.href;
  } catch {
    return url;
  }
}
