// The pages mailctl writes, read the way a browser reads them: parse5 implements the HTML
// standard's parsing algorithm, so what a test finds here (elements, attributes, text) is what
// a browser builds, and a value that broke out of its text or attribute would show up as markup.
import { parse, parseFragment } from 'parse5';

export interface El {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = El | { text: string };

interface P5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: P5Node[];
  content?: P5Node;
}

function convert(n: P5Node): Node | undefined {
  if (n.nodeName === '#text') return { text: n.value ?? '' };
  if (!n.tagName) return undefined;
  const kids = (n.content ?? n).childNodes ?? [];
  return { tag: n.tagName, attrs: Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value])), children: kids.map(convert).filter((x): x is Node => !!x) };
}

/** The page's <html> element. */
export function parseHtml(html: string): El {
  const doc = parse(html) as unknown as P5Node;
  return convert(doc.childNodes!.find((c) => c.tagName === 'html')!) as El;
}

/** A fragment (an iframe's srcdoc, say) as the children of a stand-in element. */
export function parseHtmlFragment(html: string): El {
  const frag = parseFragment(html) as unknown as P5Node;
  return { tag: '#fragment', attrs: {}, children: (frag.childNodes ?? []).map(convert).filter((x): x is Node => !!x) };
}

const isEl = (n: Node): n is El => 'tag' in n;

/** Every element below `root` (itself included) that `match` accepts, in document order. */
export function findAll(root: El, match: string | ((e: El) => boolean)): El[] {
  const ok = typeof match === 'string' ? (e: El) => e.tag === match : match;
  const out: El[] = [];
  const walk = (e: El) => {
    if (ok(e)) out.push(e);
    for (const c of e.children) if (isEl(c)) walk(c);
  };
  walk(root);
  return out;
}

export function findOne(root: El, match: string | ((e: El) => boolean)): El {
  const all = findAll(root, match);
  if (all.length !== 1) throw new Error(`expected one element matching ${String(match)}, found ${all.length}`);
  return all[0];
}

export const hasClass = (name: string) => (e: El) => (e.attrs.class ?? '').split(/\s+/).includes(name);

/** The text inside an element, as textContent gives it. */
export function textOf(e: El): string {
  return e.children.map((c) => (isEl(c) ? textOf(c) : c.text)).join('');
}
