// Just enough of an html reader for preflight: the links (<a>/<area> href) and images (<img>)
// of a mail body, with their attributes. Mail html is hand-written or exported by editors and
// is not always well-formed, so this scans tags rather than building a tree; a quoted ">" inside
// an attribute does not end a tag. Plain comments are skipped; Outlook's conditional comments
// (<!--[if mso]> … <![endif]-->) hold markup that Outlook shows, so their insides are kept.

export interface Tag {
  name: 'a' | 'area' | 'img';
  attrs: Record<string, string>;
  /** The tag as written, for messages (cut to a readable length by the caller). */
  raw: string;
}

const TAG = /<(a|area|img)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTR = /([^\s=/"'>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
const COMMENT = /<!--(?!\[if)[\s\S]*?-->/g;

export function scanTags(html: string): Tag[] {
  const text = html.replace(COMMENT, '');
  const out: Tag[] = [];
  for (const m of text.matchAll(TAG)) {
    // No prototype: the html may come from the service (--template); an attribute is only an attribute.
    const attrs: Record<string, string> = Object.create(null);
    for (const a of m[2].matchAll(ATTR)) {
      const name = a[1].toLowerCase();
      if (!(name in attrs)) attrs[name] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
    }
    out.push({ name: m[1].toLowerCase() as Tag['name'], attrs, raw: m[0] });
  }
  return out;
}

export interface Link {
  url: string;
  /** "link" for <a>/<area> href, "image" for <img> src. */
  kind: 'link' | 'image';
}

/** Every href and image src, in order, repeats included. */
export function linksOf(tags: Tag[]): Link[] {
  const out: Link[] = [];
  for (const t of tags) {
    if (t.name === 'img') {
      if (t.attrs.src !== undefined) out.push({ url: t.attrs.src.trim(), kind: 'image' });
    } else if (t.attrs.href !== undefined) out.push({ url: t.attrs.href.trim(), kind: 'link' });
  }
  return out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The character references an attribute value may hold (&amp; in a query string, most often). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** What a link is, for the rules: checkable web address, a variable inside, or not a web link. */
export type LinkClass = 'web' | 'variable' | 'relative' | 'other';

export function classify(url: string): LinkClass {
  if (/\$\{[^}]*\}/.test(url)) return 'variable';
  if (/^https?:\/\//i.test(url)) return 'web';
  // mailto:, tel:, sms:, data:, cid: (inline images), in-page anchors: nothing to fetch.
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url === '') return 'other';
  return 'relative';
}
