// Link targets for `campaign preflight`'s link check, so tests and demos reach only the sandbox
// (loopback, or this process under --sandbox). Not part of either service: a mail's links point
// at the operator's own sites, and these stand in for them. No key is needed (a link host never
// gets one), and the request is recorded like any other, so a test can see what reached it.
//   /links/ok                   200
//   /links/404, /links/500      that status (any 4xx/5xx number works)
//   /links/redirect             302 to /links/ok on the same host
//   /links/redirect-other-host  302 to /links/ok on another name for this sandbox
//   /links/loop                 302 to itself, for ever
//   /links/no-head              405 to HEAD, 200 to GET (servers that mishandle HEAD)
//   /links/slow                 never answers (the client's time-out ends it)
import type { SbResponse } from './types.js';

export type LinkOutcome = SbResponse | { fault: 'hang' };

/** The targets below /links/ and what each answers (`sandbox serve` lists them; docs/sandbox.md, "Link targets"). */
export const LINK_TARGETS = [
  { path: 'ok', answers: '200' },
  { path: '404', answers: 'that status (any 4xx/5xx number: 410, 500, 503…)' },
  { path: 'redirect', answers: '302 to /links/ok on the same host' },
  { path: 'redirect-other-host', answers: '302 to /links/ok on another name for this sandbox' },
  { path: 'loop', answers: '302 to itself, for ever' },
  { path: 'no-head', answers: '405 to HEAD, 200 to GET' },
  { path: 'slow', answers: 'never answers (the client\'s time-out ends it)' },
] as const;

const text = (status: number, body: string): SbResponse => ({ status, body, headers: { 'content-type': 'text/plain; charset=utf-8' } });
const redirect = (to: string): SbResponse => ({ status: 302, body: '', headers: { location: to } });

export function handleLink(method: string, subPath: string, url: URL): LinkOutcome {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed');
  const name = subPath.replace(/^\/+|\/+$/g, '');
  const status = /^[45]\d\d$/.test(name) ? Number(name) : undefined;
  if (status) return text(status, `link target answering ${status}`);
  switch (name) {
    case 'ok':
      return text(200, 'ok');
    case 'redirect':
      return redirect('/links/ok');
    case 'redirect-other-host':
      return redirect(`${url.protocol}//${otherName(url)}/links/ok`);
    case 'loop':
      return redirect('/links/loop');
    case 'no-head':
      return method === 'HEAD' ? text(405, 'Method Not Allowed') : text(200, 'ok');
    case 'slow':
      return { fault: 'hang' };
    default:
      return text(404, 'No such link target');
  }
}

/** Another host name that reaches this same sandbox: 127.0.0.1 ↔ localhost, else a name below it. */
function otherName(url: URL): string {
  const port = url.port ? `:${url.port}` : '';
  if (url.hostname === '127.0.0.1') return `localhost${port}`;
  if (url.hostname === 'localhost') return `127.0.0.1${port}`;
  return `links.${url.hostname}${port}`;
}
