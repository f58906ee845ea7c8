// `contacts clean`: bounce and complaint events of the notification service become a removal
// plan for a campaign group — shown, nothing removed, by default; applied in batches with --yes.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { campaignApi, pollUntil } from './helpers/campaign-api.js';
import { notifyApi, eventually } from './helpers/notify-api.js';

const sb = useSandbox();
const campaign = campaignApi(sb.get);
const notify = notifyApi(sb.get);
const people = ['bounce.ann@example.com', 'soft.bob@example.com', 'complain.cy@example.com', 'dee@example.com'];
let sn: string;

beforeAll(async () => {
  sn = (await campaign.post('/v1/contacts/lists/insert', { name: 'Clean me' })).json.sn;
  const started = await campaign.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', ...people.map((p, i) => `${p},P${i}`)].join('\n') });
  await pollUntil(() => campaign.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
  await notify('POST', '/v1/messages', { subject: 'Hi', fromAddress: 'noreply@example.com', content: '<p>x</p>', recipients: people.map((address) => ({ address })) });
  await eventually(async () => {
    const r = await notify('GET', '/v1/events?status=bounce,complaint');
    return (r.body.logs ?? []).length >= 3;
  }, 'bounce and complaint events');
});

const deletes = () => sb.get().sandbox.requests('campaign').filter((q) => q.method === 'DELETE' && q.path === `/v1/contacts/${sn}`);

describe('contacts clean', () => {
  it('by default a plan: permanent bounces and complaints, no removal request', async () => {
    const r = await runCli(['contacts', 'clean', '--group', 'Clean me', '--since', '1h', '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.applied).toBe(false);
    expect(doc.plan.map((p: { address: string; reason: string }) => [p.address, p.reason])).toEqual([
      ['complain.cy@example.com', 'complaint'],
      ['bounce.ann@example.com', 'permanent bounce'],
    ]);
    expect(deletes()).toHaveLength(0);
  });

  it('--include-temporary adds soft bounces; --yes applies the plan with keys, and says how many went', async () => {
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '1h', '--include-temporary', '--yes'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Removed 3 of 3 planned addresses from "Clean me" (${sn})`);
    expect(deletes()).toHaveLength(1);
    expect((deletes()[0].body as { keys: string[] }).keys.sort()).toEqual(['bounce.ann@example.com', 'complain.cy@example.com', 'soft.bob@example.com']);
  });

  it('a plain run prints the plan and the command that applies it, with the flags in effect', async () => {
    const r = await runCli(['contacts', 'clean', '--group', sn, '--since', '2h'], { sandbox: sb.get(), tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`mailctl contacts clean --group ${sn} --since 2h --yes`);
  });
});
