// Which failed send requests may be sent again without a lookup: only those that certainly
// never reached the service. Each failure is produced for real over loopback (a refusal, a
// closed port, a hang, a dropped connection, a 500) and classified as the resume will treat it.
import { describe, expect, it } from 'vitest';
import { NotifyClient } from '../src/api/notify.js';
import { requestFate } from '../src/send/runner.js';
import { LimitError } from '../src/core/errors.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';
import { useSandbox } from './helpers/sandbox.js';
import { replay } from '../src/send/journal.js';
import { journalPlan } from './helpers/journal-plan.js';
import { unusedPort } from './helpers/wait.js';

const sb = useSandbox({ expect: ['POST /notify/v1/messages'] });

// Requests that get an answer have seconds for it (a busy CI machine must not turn a refusal
// into a time-out); only the 'hang' case below waits for the short time-out.
function client(baseUrl = sb.get().notifyUrl, apiKey: string = SANDBOX_KEYS.notify, timeoutMs = 5000): NotifyClient {
  return new NotifyClient({ baseUrl, apiKey, fetch: globalThis.fetch, timeoutMs, retryBaseMs: 5 });
}

const message = { subject: 's', fromAddress: 'noreply@example.com', content: 'x', recipients: [{ address: 'fate@example.com' }] };

async function fateOf(send: () => Promise<unknown>): Promise<string> {
  try {
    await send();
  } catch (e) {
    return requestFate(e);
  }
  return 'answered';
}


const onSend = { service: 'notify' as const, method: 'POST', path: '/v1/messages' };

describe('the fate of a failed send request', () => {
  it('refused with an answer (400, Forbidden, 429 "too many requests") or never connected: certainly not sent', async () => {
    expect(await fateOf(() => client().sendEmail({ ...message, fromAddress: 'a@unverified.example.net' }))).toBe('unsent');
    expect(await fateOf(() => client(undefined, 'wrong-key').sendEmail(message))).toBe('unsent');
    sb.get().sandbox.injectFault({ kind: 'status', status: 429, body: { message: 'too many requests' }, times: 10, match: onSend });
    expect(await fateOf(() => client().sendEmail(message))).toBe('unsent');
    sb.get().sandbox.faults.splice(0);
    const port = await unusedPort();
    expect(await fateOf(() => client(`http://127.0.0.1:${port}/notify`).sendEmail(message))).toBe('unsent');
  });

  it('no answer (time-out, dropped connection) or a 500: may have been sent — in doubt, and never retried by the HTTP layer', async () => {
    const posts = () => sb.get().sandbox.requests('notify').filter((r) => r.method === 'POST' && r.path === '/v1/messages').length;
    for (const fault of [{ kind: 'hang' as const }, { kind: 'drop' as const }, { kind: 'status' as const, status: 500 }]) {
      const before = posts();
      sb.get().sandbox.injectFault({ ...fault, match: onSend });
      expect(await fateOf(() => client(undefined, undefined, 300).sendEmail(message))).toBe('doubt');
      expect(posts() - before).toBe(1);
    }
  });

  it('the fate is read from the error\'s facts, never its words: rewording cannot make a doubtful request look unsent', () => {
    const lost = new LimitError('Cannot reach the service (ECONNREFUSED). Limit Exceeded, too many requests', undefined, { code: 'NETWORK', reached: 'maybe' });
    expect(requestFate(lost)).toBe('doubt');
    const refused = new LimitError('something else entirely', undefined, { code: 'DAILY_LIMIT', reached: 'yes', refused: true });
    expect(requestFate(refused)).toBe('unsent');
    expect(requestFate(new Error('ECONNREFUSED'))).toBe('doubt');
  });

  it('replaying a journal: an intent without an outcome is in doubt; unsent goes back to pending; a result settles each recipient', () => {
    const plan = journalPlan({ kind: 'email', batchSize: 2, message: {}, recipients: ['a', 'b', 'c', 'd', 'e'].map((x) => ({ address: `${x}@example.com` })) });
    const at = '2024-05-01T00:00:00.000Z';
    const states = replay(plan, [
      plan,
      { type: 'intent', batch: '1', keys: ['a@example.com', 'b@example.com'], at },
      { type: 'result', batch: '1', at, success: { 'a@example.com': 'm1' }, failure: { 'b@example.com': 'Invalid: address is not a valid email format' } },
      { type: 'intent', batch: '2', keys: ['c@example.com', 'd@example.com'], at },
      { type: 'unsent', batch: '2', at, reason: 'Forbidden' },
      { type: 'intent', batch: '3', keys: ['c@example.com', 'd@example.com'], at },
    ]);
    expect(Object.fromEntries([...states].map(([k, v]) => [k, v.state]))).toEqual({
      'a@example.com': 'sent', 'b@example.com': 'failed', 'c@example.com': 'doubt', 'd@example.com': 'doubt', 'e@example.com': 'pending',
    });
  });
});
