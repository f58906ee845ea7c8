// What "the same service" means for a base URL, for every layer that compares them: the shared
// rate budget (src/api/ratelimit-shared.ts) and a resumed journal (src/send/account.ts). It lives
// here, below the API layer, so neither reaches up into src/cli for it.

/**
 * A base URL as the service sees it: the WHATWG form (scheme and host in lower case, default
 * port and dot segments dropped) without trailing slashes, so `HTTP://h/./notify` is the same
 * service as `http://h/notify`. A string that does not parse is compared as it is.
 */
export function normalUrl(url: string): string {
  try {
    return new URL(url).href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}
