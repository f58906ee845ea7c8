// The page `campaign preview` and `template show --web` write: one self-contained HTML file that
// shows a mail as its recipient gets it — sender, subject, preheader as an inbox shows them, and
// the body — with the preflight findings beside it. Everything but the body is escaped text
// (src/core/html.ts). The body is the campaign's own html, hostile until shown otherwise: it is
// rendered in an <iframe sandbox srcdoc>, with an empty sandbox (no scripts, no same-origin, no
// forms, no pop-ups, no top navigation), inside a page whose policy also forbids scripts.
import { escapeHtml, htmlPage } from '../../core/html.js';
import type { Finding } from '../preflight/findings.js';

export interface PreviewVersion {
  /** A or B for the versions of an A/B test. */
  label?: string;
  /** Undefined for a template, which has none. */
  subject?: string;
  preheader?: string;
  fromName?: string;
  fromAddress?: string;
  html: string;
}

export interface PreviewInput {
  /** "Campaign Dec news", "Template tpl_welcome (Welcome)". */
  title: string;
  versions: PreviewVersion[];
  findings: Finding[];
  /** Where the ${FIELD} values came from ("line 2 of contacts.csv"); undefined: no contact. */
  valuesFrom?: string;
  /** ${FIELD}s left as written: no value for them. */
  unrendered: string[];
  /** Extra lines under the heading (what differs from the real send, what was not checked). */
  notes: string[];
  generatedAt: string;
}

const SEVERITY_WORD = { error: 'error', warning: 'warning', info: 'note' } as const;

export function previewPage(p: PreviewInput): string {
  const versions = p.versions.map((v) => versionCard(v)).join('\n');
  const body = `
<header>
  <h1>${escapeHtml(p.title)}</h1>
  <p class="meta">Preview made by mailctl at ${escapeHtml(p.generatedAt)}. ${p.valuesFrom ? `Fields filled from ${escapeHtml(p.valuesFrom)}.` : 'No contact given: fields are shown as written.'}</p>
  ${p.unrendered.length ? `<p class="warn" id="unrendered">Left as written (no value): ${p.unrendered.map((n) => `<code>${escapeHtml(`\${${n}}`)}</code>`).join(', ')}</p>` : ''}
  ${p.notes.map((n) => `<p class="meta">${escapeHtml(n)}</p>`).join('\n  ')}
</header>
<input type="radio" name="width" id="w-desktop" checked><label for="w-desktop">Desktop</label>
<input type="radio" name="width" id="w-phone"><label for="w-phone">Phone</label>
<div class="layout">
  <main class="versions v${p.versions.length}">
${versions}
  </main>
  ${findingsPanel(p.findings)}
</div>`;
  return htmlPage({ title: `${p.title} — mailctl preview`, style: STYLE, body });
}

function versionCard(v: PreviewVersion): string {
  const from = v.fromName || v.fromAddress
    ? `${escapeHtml(v.fromName ?? '')}${v.fromAddress ? ` <span class="addr">&lt;${escapeHtml(v.fromAddress)}&gt;</span>` : ''}`
    : '<span class="none">(no sender)</span>';
  const rows = [
    v.subject === undefined ? '' : `<div class="inbox">
      <div class="from" data-field="from">${from}</div>
      <div class="subject" data-field="subject">${v.subject ? escapeHtml(v.subject) : '<span class="none">(no subject)</span>'}</div>
      <div class="preheader" data-field="preheader">${v.preheader?.trim() ? escapeHtml(v.preheader) : '<span class="none">(no preheader: the inbox shows the first words of the body)</span>'}</div>
    </div>`,
  ];
  // sandbox="" : every restriction on. srcdoc holds the html escaped as an attribute value, so
  // nothing in it can end the attribute; the frame parses it as its own document.
  const frame = `<iframe class="body" sandbox="" referrerpolicy="no-referrer" title="${escapeHtml(`Body${v.label ? ` of version ${v.label}` : ''}`)}" srcdoc="${escapeHtml(v.html)}"></iframe>`;
  return `    <section class="version"${v.label ? ` data-version="${escapeHtml(v.label)}"` : ''}>
      ${v.label ? `<h2>Version ${escapeHtml(v.label)}</h2>` : ''}
      ${rows.join('')}
      ${frame}
    </section>`;
}

function findingsPanel(findings: Finding[]): string {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
  const items = sorted.map((f) => `<li class="finding ${f.severity}"><span class="sev">${SEVERITY_WORD[f.severity]}</span> <code class="rule">${escapeHtml(f.rule)}</code> <span class="where">${escapeHtml(f.where)}</span><p>${escapeHtml(f.message)}</p></li>`);
  return `<aside class="findings">
    <h2>Preflight</h2>
    ${items.length ? `<ul>${items.join('\n')}</ul>` : '<p class="ok">Nothing to fix.</p>'}
  </aside>`;
}

const STYLE = `
:root { color-scheme: light; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2330; background: #eef1f5; }
body { margin: 0; padding: 16px 20px 40px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 0 0 8px; }
.meta { color: #566; margin: 2px 0; }
.warn { color: #8a5300; background: #fff4de; border-radius: 4px; padding: 4px 8px; display: inline-block; }
code { font: 12px/1.3 ui-monospace, Menlo, Consolas, monospace; background: #e4e8ee; padding: 1px 4px; border-radius: 3px; }
input[type=radio] { margin: 12px 2px 12px 0; }
label { margin-right: 12px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 16px; align-items: start; }
.versions { display: grid; gap: 16px; }
.versions.v2 { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.version { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0002; padding: 12px; }
.inbox { border-bottom: 1px solid #dde2e8; padding-bottom: 8px; margin-bottom: 8px; }
.from { font-weight: 600; }
.addr { font-weight: 400; color: #566; }
.subject { font-size: 16px; font-weight: 600; margin-top: 2px; }
.preheader { color: #566; }
.none { color: #98a; font-style: italic; font-weight: 400; }
iframe.body { display: block; width: 100%; height: 75vh; min-height: 420px; border: 1px solid #dde2e8; border-radius: 4px; background: #fff; margin: 0 auto; }
#w-phone:checked ~ .layout iframe.body { width: 375px; max-width: 100%; }
.findings { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0002; padding: 12px; }
.findings ul { list-style: none; margin: 0; padding: 0; }
.finding { border-left: 4px solid #98a; padding: 4px 8px; margin-bottom: 8px; overflow-wrap: anywhere; }
.finding p { margin: 4px 0 0; }
.finding.error { border-color: #c62828; } .finding.warning { border-color: #e0a100; } .finding.info { border-color: #2a7ab8; }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.where { color: #566; }
.ok { color: #1b7a3a; font-weight: 600; }
@media (max-width: 900px) { .layout, .versions.v2 { grid-template-columns: minmax(0, 1fr); } }
`;
