// What happens to a message after it is accepted, decided at send time from the address so a
// given recipient always behaves the same (tests and demos can pick an outcome by name).
//
// Email, by the LOCAL PART of the address (the domain is ignored, so "microsoft.com" is no "soft"):
//   contains "bounce" or "hard" → accept, delivery, bounce (type "1" permanent, SMTP 550)
//   contains "soft"             → accept, retry, delivery, bounce (type "0" temporary, SMTP 452)
//   contains "retry"            → accept, retry, delivery, then engagement as below
//   contains "complain"         → accept, delivery, open, complaint
//   contains "click"            → accept, delivery, open, click (when the content has a link)
//   contains "open"             → accept, delivery, open
//   contains "quiet"            → accept, delivery
//   anything else               → accept, delivery, then by a hash of the address: nothing,
//                                 an open, or an open and a click
// Spec section 3: email delivery is declared at hand-off, so a bounce FOLLOWS a delivery.
// Each step is `delays.notifyEvents` ms after the previous one.
//
// SMS, by the national number: one ending in "0000" bounces once the alive_mins window ends
// (the operator retries until then); every other number is delivered one step after accept.
// Spec section 6: "The final SMS webhook arrives only after the retry window alive_mins
// ends" — so the delivery webhook waits for the window too. Scale: alive_mins 5 (the
// minimum) lasts one step, i.e. one alive minute = notifyEvents / 5 ms (default 300 ms, so
// the longest window, 480, is 144 s).
import { hashOf, linksOf, render } from './validate.js';
import type { TimelineEvent } from './state.js';
import { smsSegments } from '../../spec/sms-segments.js';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

export function emailTimeline(o: { address: string; content: string; variables: Record<string, string>; t0: number; step: number }): TimelineEvent[] {
  const local = o.address.split('@')[0].toLowerCase();
  const h = hashOf(o.address.toLowerCase());
  const headers = h % 2 ? PHONE : BROWSER;
  const ev: TimelineEvent[] = [{ status: 'accept', at: o.t0, raw: {} }];
  let t = o.t0;
  const next = (status: string, raw: Record<string, unknown> = {}) => ev.push({ status, at: (t += o.step), raw });

  const soft = local.includes('soft');
  const hard = !soft && (local.includes('bounce') || local.includes('hard'));
  if (soft || local.includes('retry')) next('retry');
  next('delivery');
  if (hard) {
    next('bounce', { code: '550', type: '1', reason: `550 5.1.1 <${o.address}>: Recipient address rejected: User unknown in virtual mailbox table` });
    return ev;
  }
  if (soft) {
    next('bounce', { code: '452', type: '0', reason: `452 4.2.2 <${o.address}>: Mailbox full, try again later` });
    return ev;
  }

  // Spec section 2: a click redirects "to the original target with variable values URL-encoded".
  const links = linksOf(o.content).map((l) => render(l, o.variables, encodeURIComponent));
  const click = () => {
    if (!links.length) return;
    const sort = h % links.length;
    next('click', { sort: String(sort), linkUrl: links[sort], clientHeaders: headers });
  };
  const open = () => next('open', { clientHeaders: headers });
  if (local.includes('complain')) {
    open();
    next('complaint');
  } else if (local.includes('click')) {
    open();
    click();
  } else if (local.includes('open')) {
    open();
  } else if (!local.includes('quiet')) {
    const engagement = h % 3; // 0 nothing, 1 open, 2 open + click
    if (engagement >= 1) open();
    if (engagement === 2) click();
  }
  return ev;
}

export function smsTimeline(o: { national: string; point: number; srcaddr: string; aliveMins: number; t0: number; step: number }): TimelineEvent[] {
  const windowEnd = o.t0 + Math.round((o.aliveMins * o.step) / 5);
  const accept: TimelineEvent = { status: 'accept', at: o.t0, raw: {} };
  if (o.national.endsWith('0000')) {
    return [accept, { status: 'bounce', at: windowEnd, raw: { code: 'UNDELIV', reason: 'Undeliverable: the handset was unreachable for the whole alive_mins window' } }];
  }
  return [accept, { status: 'delivery', at: o.t0 + o.step, hookAt: windowEnd, raw: { point: o.point, srcaddr: o.srcaddr } }];
}

/** Billed SMS units (`point`): the parts of the rendered text, counted as the client forecasts them (decisions row P7). */
export function smsPoints(content: string): number {
  return smsSegments(content).parts;
}
