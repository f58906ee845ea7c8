// mailctl webhook trigger EVENT --url URL: POST one synthetic, correctly signed event to your own
// webhook consumer, so it can be exercised without waiting for real traffic. Same payload shape
// (spec 001 section 6) and signature (section 5, decisions row 14) as the service's. The key only
// signs: it is never sent, printed or taken from argv.
import type { Context } from '../../src/run/context.js';
import { ServiceError, UsageError } from '../../src/core/errors.js';
import { parseDuration } from '../../src/core/duration.js';
import { checkUrl } from '../../src/core/url.js';
import { printPlanned } from '../../src/run/output/dry-run.js';
import { printRecord } from '../../src/run/output/format.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { parseEventArg } from '../../src/webhook/event-name.js';
import { applyForm, applyOverrides, parseForm, parseOverride, syntheticId, syntheticPayload } from '../../src/webhook/payloads.js';
import { WEBHOOK_FORMS } from '../../src/webhook/forms.js';
import { parseSignatureHeader, postHeaders, postSigned, shortAnswer, type ConsumerAnswer } from '../../src/webhook/deliver.js';
import { signPayload } from '../../src/webhook/signature.js';
import { EVENT_TYPE_CODES } from '../../src/spec/webhook-signing.js';
import { keylessTransport } from '../../src/run/transfer.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareTrigger } from './index.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

export const run: Verb<typeof declareTrigger> = async (ctx, opts, eventArg) => {
  const { channel, event } = parseEventArg(eventArg, !!opts.sms);
  if (opts.url === undefined) throw new UsageError('No consumer URL.', `Give the address of your webhook consumer with --url, e.g. ${suggest(ctx, 'webhook', 'trigger', eventArg, '--url', 'http://127.0.0.1:3000/hooks')}`);
  const url = checkUrl(opts.url, { name: '--url', example: 'http://127.0.0.1:3000/hooks' });
  const formName = parseForm(opts.form);
  const form = WEBHOOK_FORMS[formName];
  // The form's header (the spec's, or the vendor's for --form vendor) unless --signature-header says.
  const header = opts.signatureHeader === undefined ? form.header : parseSignatureHeader(opts.signatureHeader);
  const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true });
  const overrides = (opts.set ?? []).map((s) => parseOverride(s, channel, event, formName));
  const payload = applyOverrides(applyForm(syntheticPayload(channel, event, { id: syntheticId(), now: ctx.clock.now() }), channel, event, formName), overrides);
  for (const o of overrides) {
    if (o.unknown) ctx.io.warn(`--set ${forTerminal(o.path.join('.'), 80)}: the ${formName === 'spec' ? 'spec\'s' : `${formName} form's`} ${channel === 'sms' ? 'SMS' : 'email'} ${event} payload has no such field; sent anyway.`);
  }
  // A dry run needs no key: without one, the signature is shown as what it would be made from.
  const key = opts.dryRun ? await ctx.keyIfAny('notify') : await ctx.apiKey('notify');
  const signed = signPayload(key ?? 'no key in a dry run', payload, form.signs);
  if ('problem' in signed) throw new UsageError(`After the --set overrides the payload cannot be signed: ${signed.problem}.`, 'Keep an id (mail.id, sms_data.id or id) and an event (event or eventType) the service sends.');
  const body = JSON.stringify(payload);
  const what = `${channel === 'sms' ? 'SMS' : 'email'} ${event} event (${signed.fields.idField}=${forTerminal(signed.id, 80)})`;

  if (opts.dryRun) {
    // Not an API request (it goes to your own consumer), so printed here rather than recorded by the API transport.
    const signature = key ? signed.signature : '(signed with your notification key)';
    await printPlanned(ctx, [{ method: 'POST', url, headers: postHeaders({ signatureHeader: header, signature }), body: payload }]);
    return;
  }

  const over = form.signs === 'code' ? `the id + type code ${EVENT_TYPE_CODES[signed.event]}` : 'the id + event name';
  ctx.io.info(`Sending a synthetic ${what} in the ${formName} form to ${forTerminal(url, 200)}, signed over ${over} in ${header}.`);
  const answer = await postSigned({ url, body, signatureHeader: header, signature: signed.signature }, { fetch: await keylessTransport(ctx), signal: ctx.signal, timeoutMs, now: () => ctx.clock.now() });
  await report(ctx, answer, { url, channel, event, form: formName, id: signed.id, signatureHeader: header, signature: signed.signature, payload });
  if (!answer.ok) throw refusal(url, answer);
};

async function report(ctx: Context, a: ConsumerAnswer, sent: Record<string, unknown>): Promise<void> {
  const status = `${a.status}${a.statusText ? ` ${forTerminal(a.statusText, 40)}` : ''}`;
  await printRecord(
    ctx.io,
    [['status', status], ['time', `${a.ms} ms`], ['answer', shortAnswer(a)], ...(a.location ? [['location', forTerminal(a.location, 200)] as [string, unknown]] : [])],
    { ...sent, answer: { status: a.status, ok: a.ok, ms: a.ms, body: a.body.slice(0, 2000), ...(a.location ? { location: a.location } : {}) } },
  );
}

/** The consumer answered, but not 2xx: exit 1, with what a webhook sender would make of it. */
export function refusal(url: string, a: ConsumerAnswer): ServiceError {
  const redirect = a.status >= 300 && a.status < 400;
  return new ServiceError(
    redirect
      ? `The consumer at ${forTerminal(url, 200)} answered with a redirect (HTTP ${a.status}${a.location ? ` to ${forTerminal(a.location, 200)}` : ''}); webhook calls are not redirected.`
      : `The consumer at ${forTerminal(url, 200)} answered HTTP ${a.status}, not 2xx.`,
    { status: a.status, hint: redirect ? 'Give the final URL with --url.' : undefined },
  );
}
