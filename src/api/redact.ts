// A service may echo the key it was sent back in what it answers: in an error's message or code,
// in a redirect's Location ("?k=<key>"). Everything a service says reaches a person (a sentence,
// --json's serviceMessage/serviceCode, a hint), so before any of it becomes an error it goes
// through here: every key the run knows (both services', not only the one sent) is replaced by
// the mask the -v trace shows for it (maskKey), wherever it appears. src/api/http.ts applies it
// to every answer it reads, a success as much as an error (a notify 200 names each failed
// recipient's reason, which can repeat the key), so no caller ever sees a key.
import { maskKey } from '../config/service.js';

export interface Redact {
  <T>(value: T): T;
  /**
   * Whether this raw answer text may hold a key once parsed: a form of one appears in it, or it
   * has a JSON escape (\u0053 or \/ can spell a key no plain search finds). A parsed answer is
   * walked only then: most answers are neither, and a long list need not be copied.
   */
  mayHoldKey(text: string): boolean;
}

/**
 * A key shorter than this is not looked for: masking a few common letters in every message
 * would make them unreadable, and no real key is that short (maskKey shows such a key as ****).
 */
const MIN_KEY_CHARS = 4;
/** How deep a parsed body is searched (64 KiB of "[[[[" would otherwise overflow the stack). */
const MAX_DEPTH = 50;

/** A redactor for these keys; undefined and empty ones are skipped. */
export function redactor(keys: ReadonlyArray<string | undefined>): Redact {
  const masks = new Map<string, string>();
  for (const key of keys) if (key && key.length >= MIN_KEY_CHARS) masks.set(key, maskKey(key));
  // Longest first, so a key that contains another is replaced whole.
  const list = [...masks].sort((a, b) => b[0].length - a[0].length).map(([key, mask]) => [keyPattern(key), mask] as const);
  const text = (s: string): string => {
    let out = s;
    for (const [pattern, mask] of list) out = out.replace(pattern, () => mask);
    return out;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (!v || typeof v !== 'object') return v;
    // Nothing real nests this deep; what does is dropped rather than kept unread.
    if (depth > MAX_DEPTH) return undefined;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x, depth + 1)]));
  };
  const redact = (list.length ? <T>(value: T) => walk(value, 0) as T : <T>(value: T) => value) as Redact;
  // A key may hide in the raw text only as itself (percent-encoded or not) or behind a JSON escape
  // that can spell a key character (\uXXXX, \/): ordinary escapes (\n, \") leave the walk out.
  redact.mayHoldKey = (s) => list.length > 0 && (/\\[u/]/.test(s) || list.some(([pattern]) => s.search(pattern) >= 0));
  return redact;
}

/**
 * The key as sent, as a URL carries it, or as a service echoes it in another letter case: each
 * character as itself or percent-encoded (its UTF-8 bytes), and any letter in either case — the
 * `i` flag covers the key's letters (a service that upper-cases what it repeats, `SUPERSECRET` for
 * `SuperSecret`) and the hex digits of an escape alike (`%2f` is as much `/` as `%2F` is; a
 * server may encode letters that need none). Keys are printable ASCII (src/config/key-shape.ts),
 * so case-folding has no Unicode surprises. Another case of a key is not a key the service takes,
 * but it is most of one: whoever reads it is one guess away.
 */
function keyPattern(key: string): RegExp {
  const chars = [...key].map((c) => {
    const bytes = [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    return `(?:${c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}|${bytes})`;
  });
  return new RegExp(chars.join(''), 'gi');
}
