// The one way a value reaches an HTML page mailctl writes (the campaign preview, the report
// dashboard): every text and attribute value escaped, so a campaign name, subject or contact
// value from outside is shown as text and can never open a tag, close an attribute or start a
// script. The one exception, a mail's own html, is never put into a page as markup: it goes
// whole into an iframe's srcdoc attribute (escaped like any attribute) under a sandbox.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `s` as HTML text or as a quoted attribute value. Control characters other than tab and line
 * breaks, which HTML shows as nothing or as U+FFFD, are written as visible escapes (\x07), as
 * the terminal sanitiser shows them.
 */
export function escapeHtml(s: unknown): string {
  const text = typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s);
  // eslint-disable-next-line no-control-regex
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A whole page: one file, no script, no request of its own (styles inline). The policy is the
 * page's own fence: no script runs in it or in any frame it holds (a srcdoc frame inherits it),
 * no form posts anywhere, and only images, styles and fonts — which a mail's body may name on
 * the web — are fetched at all.
 */
export function htmlPage(o: { title: string; style: string; body: string; lang?: string }): string {
  const csp = "default-src 'none'; img-src * data:; style-src 'unsafe-inline' *; font-src * data:; frame-src 'self'; base-uri 'none'; form-action 'none'";
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(o.lang ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(o.title)}</title>`,
    `<style>${o.style}</style>`,
    '</head>',
    `<body>${o.body}</body>`,
    '</html>',
    '',
  ].join('\n');
}
