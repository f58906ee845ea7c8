// `campaign proof`: the campaign's ${FIELD} variables filled from one contact, as the campaign
// service fills them per contact before sending (spec 000 section 2: "`${FIELD_NAME}` in
// subject or html content is replaced per contact"), and the message the notification service
// is asked to deliver.
import type { EmailMessage } from '../../api/notify-types.js';
import type { Version } from './versions.js';
import { recipientName } from '../../send/recipients.js';

const FIELD = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Fills ${NAME}s from `values`, names in any case (custom fields match case-insensitively, as on import). */
export function renderFields(text: string, values: Record<string, string>, missing: Set<string>): string {
  const upper = new Map(Object.entries(values).map(([k, v]) => [k.toUpperCase(), v]));
  return text.replace(FIELD, (whole, name: string) => {
    const v = upper.get(name.toUpperCase());
    if (v !== undefined) return v;
    missing.add(name);
    return whole;
  });
}

/** Subject prefix of a proof: "[Proof] ", or "[Proof A] " for a version of an A/B test. */
export function proofPrefix(label?: string): string {
  return label ? `[Proof ${label}] ` : '[Proof] ';
}

/**
 * The notification service has no preheader field, so it goes where mail clients take the
 * preview line from: hidden text at the very start of the body.
 */
export function withPreheader(html: string, preheader: string | undefined): string {
  if (!preheader?.trim()) return html;
  const hidden = `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeHtml(preheader)}</div>`;
  const body = /<body\b[^>]*>/i.exec(html);
  return body ? html.slice(0, body.index + body[0].length) + hidden + html.slice(body.index + body[0].length) : hidden + html;
}

export function proofMessage(v: Version, values: Record<string, string>, to: string[], missing: Set<string>): EmailMessage {
  const subject = renderFields(v.subject ?? '', values, missing);
  const preheader = v.preheader === undefined ? undefined : renderFields(v.preheader, values, missing);
  const content = withPreheader(renderFields(v.html ?? '', values, missing), preheader);
  return {
    subject: proofPrefix(v.label) + subject,
    ...(v.fromName ? { fromName: v.fromName } : {}),
    fromAddress: v.fromAddress ?? '',
    content,
    // A name for every recipient (decisions row 31): the local part of the address.
    recipients: to.map((address) => ({ name: recipientName(address), address })),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
