// URLs as the -v trace shows them: where a request went (scheme, host, path, which query
// parameters), never what would let someone else use it. An upload address or download link is
// pre-signed: its signature, credential and token parameters are the key to the file, and the
// sandbox's /files/u|d/TOKEN path is the same thing in the path.
import { forTerminal } from '../core/sanitize.js';

const MASK = '…';

/** Query parameters of a pre-signed link that say nothing secret (AWS, Google, CloudFront names). */
const HARMLESS = new Set(
  ['x-amz-algorithm', 'x-amz-date', 'x-amz-expires', 'x-amz-signedheaders', 'x-goog-algorithm', 'x-goog-date', 'x-goog-expires', 'x-goog-signedheaders', 'expires', 'response-content-type', 'response-content-disposition'],
);

/** API query parameters whose names say they carry a secret (the API's own need none). */
const SECRET_NAME = /sig|signature|token|credential|secret|key|auth|password|policy|session/i;

/** The sandbox's file addresses carry their token in the path (src/sandbox/sandbox.ts). */
const PATH_TOKEN = /^(\/(?:[^/]+\/)*files\/[ud]\/)[^/]+/;

/**
 * `url` safe to print in a trace. `link`: an address the service handed out (upload address,
 * download link), where every query value is masked except the few known to be harmless;
 * otherwise (an API call) only values whose names look secret are.
 */
export function maskUrl(url: string, o: { link?: boolean } = {}): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'an unreadable address';
  }
  // Credentials in the authority (https://user:pass@host) are never shown either.
  const origin = `${u.protocol}//${u.host}`;
  const path = u.pathname.replace(PATH_TOKEN, `$1${MASK}`);
  const params = [...u.searchParams].map(([k, v]) => {
    const hide = o.link ? !HARMLESS.has(k.toLowerCase()) : SECRET_NAME.test(k);
    return `${encodeURIComponent(k)}=${hide ? MASK : encodeURIComponent(v)}`;
  });
  return forTerminal(`${origin}${path}${params.length ? `?${params.join('&')}` : ''}`, 400);
}

/** The path alone (token masked), for the answer line of a trace. */
export function maskPath(url: string): string {
  try {
    return forTerminal(new URL(url).pathname.replace(PATH_TOKEN, `$1${MASK}`), 200);
  } catch {
    return 'an unreadable address';
  }
}
