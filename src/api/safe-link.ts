// Where a keyless transfer (src/api/files.ts) may go. Download links and upload addresses come
// from the service's answers, so a hostile or compromised service — or a redirect from its file
// host — could point mailctl at the cloud metadata service (169.254.169.254 hands out the
// machine's credentials) or another machine-local address, and mailctl would save the answer
// to a file. Every hop is checked here: https only (http: only from a service on this machine
// to this machine, as with the sandbox and tests), and never an address in FORBIDDEN, whatever
// name it hides behind (all addresses of a host name are checked, and the connection is then
// made to exactly those addresses).
import dns from 'node:dns';
import net from 'node:net';
import { LimitError, ServiceError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

/** Resolves a host name to all its addresses (dns.lookup by default; tests give hostile answers). */
export type Lookup = (host: string) => Promise<string[]>;

export interface LinkPolicy {
  /**
   * The API base URL itself is http: on loopback (the sandbox, tests): http: links are then
   * allowed, to loopback addresses only. Everything else must be https:.
   */
  allowLoopbackHttp: boolean;
  /** The origin answered inside this process (--sandbox): never resolved, never on the network. */
  inProcessOrigin?: string;
  lookup?: Lookup;
}

const LINK_LOCAL_V4 = new net.BlockList();
LINK_LOCAL_V4.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL_V4.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6'); // the same through NAT64

const FORBIDDEN: Array<[net.BlockList, string]> = [
  [block([['169.254.169.254', 32, 'ipv4'], ['fd00:ec2::254', 128, 'ipv6'], ['64:ff9b::a9fe:a9fe', 128, 'ipv6']]), 'a cloud metadata address'],
  [LINK_LOCAL_V4, 'a link-local address'],
  [block([['fe80::', 10, 'ipv6']]), 'a link-local address'],
  // 0.0.0.0 (and "this network", 0/8) and :: connect to this machine itself.
  [block([['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6'], ['64:ff9b::', 104, 'ipv6']]), 'an unspecified address'],
];
const LOOPBACK = block([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]);
/** Names of metadata services that are not an address (they resolve to one of FORBIDDEN inside a cloud). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog']);

function block(subnets: Array<[string, number, 'ipv4' | 'ipv6']>): net.BlockList {
  const b = new net.BlockList();
  for (const [net_, prefix, type] of subnets) b.addSubnet(net_, prefix, type);
  return b;
}

const family = (a: string) => (net.isIP(a) === 6 ? 'ipv6' : 'ipv4');

/** Why mailctl never connects to `address`, or undefined when it may. */
export function forbiddenReason(raw: string): string | undefined {
  const address = raw.replace(/%.*$/, ''); // fe80::1%eth0: the zone is not part of the address
  if (!net.isIP(address)) return undefined;
  for (const [list, reason] of FORBIDDEN) if (list.check(address, family(address))) return reason;
  return undefined;
}

function isLoopbackAddress(a: string): boolean {
  return net.isIP(a) !== 0 && LOOPBACK.check(a, family(a));
}

/** 127.0.0.1, [::1], localhost: a base URL on this machine. */
export function isLoopbackUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = bare(u.hostname);
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

const NOT_HTTPS = 'not https: mailctl fetches files only over https (plain http only from a service on this machine to this machine)';
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

const defaultLookup: Lookup = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export interface CheckedLink {
  url: URL;
  /** The addresses checked; connect to exactly these (empty: an IP literal or the in-process origin). */
  addresses: string[];
}

/**
 * Refuses (exit 1, BAD_RESPONSE) a link mailctl must not fetch, naming what it points at; a
 * host name that does not resolve is a network failure (exit 4). `what` names the link ("the
 * link to the delivery file", "the upload address"); `from` is the origin that redirected here.
 */
export async function checkLink(raw: string, policy: LinkPolicy, what: string, from?: string): Promise<CheckedLink> {
  const refuse = (target: string, why: string) =>
    new ServiceError(
      from
        ? `${cap(what)} redirected from ${forTerminal(from, 100)} to ${forTerminal(target, 100)}, ${why}; mailctl does not follow it.`
        : `${cap(what)} points at ${forTerminal(target, 100)}, ${why}; mailctl does not connect there.`,
      {
        hint: 'A real file link is an https address of a file host. If this repeats, the service (or something between it and you) is answering falsely.',
        facts: { code: 'BAD_RESPONSE', refused: false, retryable: false },
      },
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('an address that is not a URL', 'which cannot be fetched');
  }
  if (policy.inProcessOrigin && url.origin === policy.inProcessOrigin) return { url, addresses: [] };
  const host = bare(url.hostname);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`a ${forTerminal(url.protocol, 20)} address`, 'not an https file host');
  if (METADATA_NAMES.has(host)) throw refuse(host, 'a cloud metadata service');
  const literal = net.isIP(host) !== 0;
  if (literal) {
    const why = forbiddenReason(host);
    if (why) throw refuse(host, why);
  }
  // Without a service on loopback, plain http is refused before any name is looked up.
  if (url.protocol === 'http:' && !policy.allowLoopbackHttp) throw refuse(`http://${host}`, NOT_HTTPS);
  let addresses: string[] = [];
  if (!literal) {
    try {
      addresses = await (policy.lookup ?? defaultLookup)(host);
    } catch (e) {
      throw new LimitError(`Cannot find ${forTerminal(url.host, 100)}, the host of ${what} (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'}).`, 'Check the network (DNS) and try again.', { code: 'NETWORK', reached: 'no', retryable: true });
    }
    if (!addresses.length) throw new LimitError(`Cannot find ${forTerminal(url.host, 100)}, the host of ${what}.`, 'Check the network (DNS) and try again.', { code: 'NETWORK', reached: 'no', retryable: true });
    for (const a of addresses) {
      const why = forbiddenReason(a);
      if (why) throw refuse(`${host} (${a})`, why);
    }
  }
  if (url.protocol === 'http:') {
    if (!(literal ? [host] : addresses).every(isLoopbackAddress)) throw refuse(`http://${host}`, NOT_HTTPS);
  }
  return { url, addresses };
}

/**
 * A `lookup` for node:http that answers with the addresses checkLink approved, so the
 * connection goes where the check looked (a second DNS answer cannot swap in another address).
 */
export function pinnedLookup(addresses: string[]): net.LookupFunction {
  return ((_host: string, options: dns.LookupOptions, cb: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    const wanted = addresses.filter((a) => !options.family || options.family === net.isIP(a));
    const list = wanted.length ? wanted : addresses;
    if (options.all) cb(null, list.map((a) => ({ address: a, family: net.isIP(a) })));
    else cb(null, list[0], net.isIP(list[0]));
  }) as unknown as net.LookupFunction;
}
