// Automation (20), templates (18, 19), balance (21), and the campaign service's gatekeeping:
// authentication, 2 requests per second, the daily cap — over HTTP against the sandbox.
import { describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from './helpers/sandbox.js';
import { campaignApi } from './helpers/campaign-api.js';

const sb = useSandbox({
  expect: [
    'POST /campaign/v1/automation/event',
    'GET /campaign/v1/balance',
    'GET /campaign/v1/templates',
    'GET /campaign/v1/templates/:id',
  ],
});
const api = campaignApi(sb.get);
const event = (recipients: unknown[], extra: Record<string, unknown> = {}) => api.post('/v1/automation/event', { workflow: 'welcome-flow', event: 'TRIGGER', recipients, ...extra });

describe('20. POST /v1/automation/event', () => {
  it('"200: success array of accepted addresses, failure object mapping address to reason (empty when none)"', async () => {
    const r = await event([{ name: 'Ann', address: 'ann@example.org', variables: { PLAN: 'pro' } }, { address: 'bob@example.org' }]);
    expect(r).toMatchObject({ status: 200, json: { success: ['ann@example.org', 'bob@example.org'], failure: {} } });
    expect((await event([{ name: 'Ann', address: 'ann@example.org' }], { event: 'TERMINATE' })).status).toBe(200);
  });

  it('per-recipient failures carry the spec\'s reasons verbatim', async () => {
    const r = await event([
      { name: 'Bad', address: 'not-an-address' },
      { name: 'Long', address: 'long@example.org', variables: { NOTE: 'x'.repeat(101) } },
      { name: 'Edge', address: 'edge@example.org', variables: { NOTE: 'x'.repeat(100) } },
    ]);
    expect(r.json).toEqual({
      success: ['edge@example.org'],
      failure: {
        'not-an-address': 'Invalid: address is not a valid email format',
        'long@example.org': 'Invalid: the value of recipient variables should under 100 characters',
      },
    });
  });

  it('"recipients* … at most 100 per request" → 400 {message: "Invalid request body", errors}; so are a bad event or no workflow', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: 'N', address: `n${i}@example.org` }));
    const r = await event(many);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: 'Invalid request body', errors: expect.stringContaining('100') });
    expect((await event(many.slice(0, 100))).status).toBe(200);
    expect((await event([{ address: 'a@example.org' }], { event: 'START' })).json.message).toBe('Invalid request body');
    expect((await event([{ address: 'a@example.org' }], { workflow: '' })).status).toBe(400);
    expect((await api.call('POST', '/v1/automation/event', 'nope')).status).toBe(400);
  });
});

describe('templates and balance (18, 19, 21)', () => {
  it('"18. GET /v1/templates: 200: capacity number, templates array"; "19 … 400: code 40007 (invalid template code)"', async () => {
    const list = (await api.get('/v1/templates')).json;
    expect(list.capacity).toEqual(expect.any(Number));
    expect(list.templates.length).toBeGreaterThan(0);
    const t = list.templates[0];
    expect(await api.get(`/v1/templates/${t.id}`)).toMatchObject({ status: 200, json: { id: t.id, name: t.name, template: expect.stringContaining('<html>'), updateDate: expect.any(String) } });
    expect(await api.get('/v1/templates/nope')).toMatchObject({ status: 400, json: { code: '40007' } });
  });

  it('"21. GET /v1/balance: 200: email, sms remaining counts"', async () => {
    expect((await api.get('/v1/balance')).json).toEqual({ email: expect.any(Number), sms: expect.any(Number) });
  });
});

describe('gatekeeping (spec sections 5, 7, 8)', () => {
  it('"A missing or wrong key returns {"message": "Forbidden"}"', async () => {
    expect(await campaignApi(sb.get, 'wrong-key').get('/v1/balance')).toMatchObject({ status: 403, json: { message: 'Forbidden' } });
    const res = await fetch(sb.get().campaignUrl + '/v1/balance');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Forbidden' });
  });

  it('"request rate: 2 requests per second" → {"message":"too many requests"}', async () => {
    const running = await startTestSandbox({ limits: { perSecond: 2 }, expect: ['GET /campaign/v1/balance'] });
    try {
      const a = campaignApi(() => running);
      const [r1, r2, r3] = [await a.get('/v1/balance'), await a.get('/v1/balance'), await a.get('/v1/balance')];
      expect([r1.status, r2.status]).toEqual([200, 200]);
      expect(r3).toMatchObject({ status: 429, json: { message: 'too many requests' } });
    } finally {
      await running.close();
    }
  });

  it('"daily total exceeded" → {"message":"Limit Exceeded"}', async () => {
    const running = await startTestSandbox({ limits: { daily: 3 }, expect: ['GET /campaign/v1/balance', 'GET /campaign/v1/templates'] });
    try {
      const a = campaignApi(() => running);
      for (let i = 0; i < 3; i++) expect((await a.get('/v1/balance')).status).toBe(200);
      expect(await a.get('/v1/templates')).toMatchObject({ status: 429, json: { message: 'Limit Exceeded' } });
    } finally {
      await running.close();
    }
  });
});
