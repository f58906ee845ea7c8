// mailctl webhook verify: is this payload signed with our notification key?
import { SilentExit, UsageError } from '../../src/core/errors.js';
import { readAll } from '../../src/run/stdin.js';
import { signedEventText, verifyPayload } from '../../src/webhook/signature.js';
import { readTextFile } from '../../src/fs/read-text.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { suggest, suggester } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareVerify } from './index.js';

export const run: Verb<typeof declareVerify> = async (ctx, opts, file) => {
  if (opts.signature === undefined) throw new UsageError('No signature to check.', 'Pass the x-service-signature (or x-surenotify-signature) header value with --signature HEX.');
  let body: string;
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.io.stdinTTY) throw new UsageError('No payload.', `Give the payload file, or pipe it in: ${suggest(ctx, 'webhook', 'verify', '--signature', 'HEX')} < payload.json`);
    body = await readAll(ctx.io.stdin);
  } else {
    body = readTextFile(file, 'payload file');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    throw new UsageError('The payload is not JSON.', 'Give the request body exactly as the webhook received it.');
  }
  const key = await ctx.apiKey('notify');
  const v = verifyPayload(key, payload, opts.signature, suggester(ctx));
  if (ctx.io.json) {
    ctx.io.printJson(v.valid
      ? { valid: true, id: v.id, event: v.event, idField: v.fields.idField, eventField: v.fields.eventField, signedAs: v.fields.signedAs }
      : { valid: false, reason: v.reason, causes: v.causes, id: v.fields.id, event: v.fields.event });
  } else if (v.valid) {
    ctx.io.out('valid');
    const how = v.fields.signedAs === 'code' ? ` (signed over its type code ${signedEventText(v.event, 'code')})` : '';
    ctx.io.info(`${ctx.io.paint('green', '✓')} Signed with this profile's notification key: ${v.fields.idField}=${forTerminal(v.id, 120)}, ${v.fields.eventField}=${forTerminal(v.event, 60)}${how}.`);
  } else {
    ctx.io.out('invalid');
    ctx.io.error(`${ctx.io.paint('red', '✗')} Invalid: ${forTerminal(v.reason)}. Usual causes:`);
    for (const c of v.causes) ctx.io.error(`  - ${forTerminal(c)}`);
  }
  if (!v.valid) throw new SilentExit(1);
};
