// The one check for a URL a user gives mailctl: service base URLs (config set campaign-url /
// notify-url, MAILCTL_CAMPAIGN_URL / MAILCTL_NOTIFY_URL), webhook targets (webhook set,
// report export --webhook-url, import --webhook-url, webhook trigger/replay --url), the
// listener's --forward and --route, and send's --unsubscribe-url. Each caller states its policy;
// the parsing and the sentences are the same everywhere. (Links the services hand back are a
// different matter: src/api/safe-link.ts.)
import { UsageError } from './errors.js';
import { forTerminal } from './sanitize.js';

/**
 * Ports fetch never connects to: the Fetch standard's "bad port" list (fetch.spec.whatwg.org
 * #bad-port), which Node's fetch (undici) applies. A request to one fails at once with a
 * "bad port" error that carries no code, so it would only show as "network error":
 * checkUrl below refuses a service base URL on one of them before anything is sent.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<string> = new Set([
  '1', '7', '9', '11', '13', '15', '17', '19', '20', '21', '22', '23', '25', '37', '42', '43', '53', '69', '77', '79', '87', '95',
  '101', '102', '103', '104', '109', '110', '111', '113', '115', '117', '119', '123', '135', '137', '139', '143', '161', '179',
  '389', '427', '465', '512', '513', '514', '515', '526', '530', '531', '532', '540', '548', '554', '556', '563', '587', '601',
  '636', '989', '990', '993', '995', '1719', '1720', '1723', '2049', '3659', '4045', '4190', '5060', '5061', '6000', '6566',
  '6665', '6666', '6667', '6668', '6669', '6679', '6697', '10080',
]);

export interface UrlPolicy {
  /** How the value is named in the sentence ("--forward", "The webhook URL"); "" to start with the value. */
  name: string;
  /** A good value, shown in the sentence. */
  example: string;
  /** A service base URL: the path must not end in /v1 (mailctl adds it), and trailing slashes are dropped. */
  base?: boolean;
  /** Only https: (http: is refused). */
  httpsOnly?: boolean;
  /** mailto:ADDRESS is also a good value (a List-Unsubscribe header takes a web link or a mailto:). */
  mailto?: boolean;
}

/** What is wrong with `value` under `policy`, as one sentence; undefined when it is fine. */
export function urlProblem(value: string, policy: UrlPolicy): string | undefined {
  const shown = `${policy.name ? `${policy.name} ` : ''}"${forTerminal(value, 200)}"`;
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return `${shown} is not a URL; give the full address, such as ${policy.example}.`;
  }
  const schemes = [...(policy.httpsOnly ? ['https:'] : ['https:', 'http:']), ...(policy.mailto ? ['mailto:'] : [])];
  if (!schemes.includes(u.protocol)) {
    const starts = schemes.map((s) => (s === 'mailto:' ? s : `${s}//`));
    const list = starts.length === 1 ? starts[0] : `${starts.slice(0, -1).join(', ')} or ${starts.at(-1)}`;
    return `${shown} must start with ${list}, such as ${policy.example}.`;
  }
  if (u.protocol === 'mailto:' && !/^[^@\s]+@[^@\s]+$/.test(u.pathname)) {
    return `${shown} names no email address after mailto:, such as mailto:unsubscribe@example.com.`;
  }
  // Judged as it will be stored (trailing slashes dropped): a trailing v1 segment followed by
  // several slashes would otherwise pass here and be saved ending in v1, which every later
  // command refuses. The suggestion is the same URL with
  // /v1 removed (its own path kept: https://host.example/api/v1 → https://host.example/api).
  const path = u.pathname.replace(/\/+$/, '');
  if (policy.base && /\/v1$/.test(path)) return `${shown} must be the base URL without /v1, such as ${forTerminal(`${u.origin}${path.slice(0, -'/v1'.length)}`, 200)}.`;
  // fetch refuses these ports without trying (the Fetch standard's "bad port" list).
  if (policy.base && FETCH_BLOCKED_PORTS.has(u.port)) return `${shown} uses port ${u.port}, which fetch never connects to (a port the Fetch standard blocks); give the port the service listens on, such as ${policy.example}.`;
  return undefined;
}

/** The checked URL (trailing slashes dropped from a base URL), or a UsageError: exit 2, nothing sent. */
export function checkUrl(value: string, policy: UrlPolicy): string {
  const problem = urlProblem(value, policy);
  if (problem) throw new UsageError(problem);
  return policy.base ? value.trim().replace(/\/+$/, '') : value.trim();
}

