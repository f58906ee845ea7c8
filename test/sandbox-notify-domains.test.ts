// The sandbox's sender domains. Not in the spec ("Digital-signature settings … not shown");
// decisions rows 21 and 28 (the vendor's reference): POST /v1/domains/{domain} returns
// [{record_type (0 TXT, 1 CNAME), name, value, valid}], PUT answers the same records with `valid`
// as found, DELETE removes ({success: true}). Spec section 4: the fromAddress "domain must be verified".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './helpers/sandbox.js';
import { notifyApi } from './helpers/notify-api.js';

const sb = useSandbox({
  expect: [
    'DELETE /notify/v1/domains/:domain',
    'POST /notify/v1/domains/:domain',
    'PUT /notify/v1/domains/:domain',
    'POST /notify/v1/messages',
  ],
});
const api = notifyApi(sb.get);
const send = (fromAddress: string) => api('POST', '/v1/messages', { subject: 's', fromAddress, content: '<p>x</p>', recipients: [{ address: 'quiet@example.org' }] });

describe('/v1/domains/{domain} (decisions row 21)', () => {
  it('add → records to publish; verify → mail from the domain is accepted; remove → refused again', async () => {
    expect((await send('hello@mail.shop.test')).status).toBe(400);

    const added = await api('POST', '/v1/domains/mail.shop.test');
    expect(added.status).toBe(200);
    expect(added.body.length).toBeGreaterThan(0);
    for (const r of added.body) expect(r).toEqual({ record_type: expect.any(Number), name: expect.stringContaining('mail.shop.test'), value: expect.any(String), valid: false });
    expect(new Set(added.body.map((r: any) => r.record_type))).toEqual(new Set([0, 1]));
    // Adding again is safe and gives the same records.
    expect((await api('POST', '/v1/domains/mail.shop.test')).body).toEqual(added.body);
    expect((await send('hello@mail.shop.test')).status).toBe(400); // added is not verified

    const verified = await api('PUT', '/v1/domains/mail.shop.test');
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual(added.body.map((r: object) => ({ ...r, valid: true })));
    const ok = await send('hello@mail.shop.test');
    expect(ok.status).toBe(200);
    expect(ok.body.success).toHaveLength(1);

    expect(await api('DELETE', '/v1/domains/mail.shop.test')).toEqual({ status: 200, body: { success: true } });
    const again = await send('hello@mail.shop.test');
    expect(again.status).toBe(400);
    expect(again.body.errors).toMatch(/not verified/);
  });

  it('refuses an invalid domain, and verifying or removing one never added, with 400 {errors}', async () => {
    for (const [method, path] of [['POST', '/v1/domains/not_a_domain'], ['POST', '/v1/domains/localhost'], ['PUT', '/v1/domains/never-added.test'], ['DELETE', '/v1/domains/never-added.test']]) {
      const r = await api(method, path);
      expect(r.status).toBe(400);
      expect(typeof r.body.errors).toBe('string');
    }
  });

  it('a domain whose records cannot be found stays unverified: 200, every record valid: false (sandbox: names containing "nodns")', async () => {
    await api('POST', '/v1/domains/nodns.shop.test');
    const r = await api('PUT', '/v1/domains/nodns.shop.test');
    expect(r.status).toBe(200);
    expect(r.body.map((x: { valid: boolean }) => x.valid)).toEqual([false, false, false]);
    expect((await send('a@nodns.shop.test')).status).toBe(400);
  });

  it('a domain with only some records in place stays unverified (sandbox: names containing "partial")', async () => {
    await api('POST', '/v1/domains/partial.shop.test');
    const r = await api('PUT', '/v1/domains/partial.shop.test');
    expect(r.body.map((x: { valid: boolean }) => x.valid)).toEqual([true, false, false]);
    expect((await send('a@partial.shop.test')).status).toBe(400);
  });
});
