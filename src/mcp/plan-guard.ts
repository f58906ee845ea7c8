// What a confirmed write may send: the API requests of its plan, and nothing else. The plan is
// the dry run's recording, made again just before the run and found equal to the confirmed one
// (src/mcp/plan-tokens.ts); this guard sits under the API clients of the real run and refuses,
// before it leaves, a change (any method but GET/HEAD) to an endpoint the plan does not hold —
// a request a dry run cannot show because it depends on an answer (a group created only when
// none has the name, a recipient resent after the event log proves it was not sent).
// An endpoint is the method and URL. A dry run names a group as given, where the real run puts
// the code it looks up, so a path segment may differ from the plan's where the plan's segment is
// a value of the call's own arguments (`--group Newsletter` → …/imports/Newsletter/text planned,
// …/imports/LS123/text sent). Bodies are compared only when the tool's dry run builds each body as
// the real run does (`bodies`: the batch tools), so a batch holding a recipient the plan did not
// show is refused while a retry of a planned one goes through; elsewhere a dry run's bodies hold
// placeholders for what lookups give, and the recording made again just before the run holds them.
import type { FetchLike } from '../api/http.js';
import type { RecordedRequest } from '../api/recorder.js';
import { CliError, ExitCode } from '../core/errors.js';
import { canonicalJson } from './plan-tokens.js';

/** A confirmed write tried a request its plan did not hold; nothing of that request was sent. */
export class NotPlannedError extends CliError {
  constructor(method: string, path: string) {
    super(
      `The confirmed run was about to make ${method} ${path}, a request its plan did not show; it was not sent.`,
      ExitCode.USAGE,
      'Call the tool again without "confirm" to see the plan as it stands now; what the run did before this is in its result.',
      { code: 'NOT_PLANNED', reached: 'no', refused: false, retryable: false },
    );
  }
}

const READS = new Set(['GET', 'HEAD']);

export function planGuard(inner: FetchLike, planned: readonly RecordedRequest[], argumentValues: readonly string[], o: { bodies?: boolean } = {}): FetchLike {
  const given = new Set(argumentValues);
  const endpoints = planned.map((r) => ({ method: r.method.toUpperCase(), url: parse(r.url), body: bodyKey(r.body) }));
  return async (input, init) => {
    const method = ((input instanceof Request ? input.method : init?.method) ?? 'GET').toUpperCase();
    if (READS.has(method)) return inner(input, init);
    const url = parse(input instanceof Request ? input.url : String(input));
    let candidates = url ? endpoints.filter((p) => p.method === method && p.url && sameEndpoint(p.url, url, given)) : [];
    if (o.bodies && candidates.length) {
      // Read from a copy: the request itself still goes out whole.
      const body = bodyKey(await readBody(input instanceof Request ? input.clone() : new Request(input, init)));
      candidates = candidates.filter((p) => p.body === body);
    }
    if (!candidates.length) throw new NotPlannedError(method, url ? url.pathname : '(an address that is not a URL)');
    return inner(input, init);
  };
}

async function readBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One text per body, whatever the order of its keys; none is ''. */
function bodyKey(body: unknown): string {
  return body === undefined ? '' : canonicalJson(body);
}

function parse(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

function sameEndpoint(plan: URL, sent: URL, given: ReadonlySet<string>): boolean {
  if (plan.origin !== sent.origin || plan.search !== sent.search) return false;
  const a = plan.pathname.split('/');
  const b = sent.pathname.split('/');
  return a.length === b.length && a.every((seg, i) => seg === b[i] || (b[i] !== '' && given.has(decode(seg))));
}

function decode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}
