// Automation events (endpoint 20, decisions row 23: body {workflow, event, recipients}): at most 100
// recipients per request (section 8) so larger files go in sequential batches; variables are
// checked first (at most 100 long, no mathematical expressions; names by decisions row 26,
// test/send-variables.test.ts); recipients the service refuses are listed with its
// reason. Exit 0 / 5 some refused / 1 none. Journal and resume: test/automation-resume.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tsv } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { writeFiles } from './helpers/campaign-setup.js';

const sb = useSandbox({ expect: ['POST /campaign/v1/automation/event'] });
const events = (from: number) => sb.get().sandbox.requests('campaign').slice(from).filter((r) => r.path === '/v1/automation/event');
const mark = () => sb.get().sandbox.requests('campaign').length;

function csv(rows: string[]): string {
  const dir = writeFiles({ 'r.csv': ['email,name,plan', ...rows].join('\n') + '\n' });
  return path.join(dir, 'r.csv');
}

describe('automation trigger / terminate', () => {
  it('one recipient with --to, --name and --var: the spec body', async () => {
    const from = mark();
    const r = await runCli(['automation', 'trigger', '--workflow', 'welcome', '--to', 'ann@example.org', '--to-name', 'Ann', '--var', 'plan=pro'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(events(from).map((e) => e.body)).toEqual([
      { workflow: 'welcome', event: 'TRIGGER', recipients: [{ address: 'ann@example.org', name: 'Ann', variables: { plan: 'pro' } }] },
    ]);
  });

  it('decisions row 31: a recipient without a name is sent with its address\'s local part (spec 000 endpoint 20 stars name)', async () => {
    const from = mark();
    const file = csv(['nameless.one@example.org,,basic', 'named@example.org,Named,pro']);
    const r = await runCli(['automation', 'trigger', '--workflow', 'welcome', '--recipients-file', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const solo = await runCli(['automation', 'terminate', '--workflow', 'welcome', '--to', 'solo@example.org'], { sandbox: sb.get() });
    expect(solo.exitCode).toBe(0);
    expect(events(from).flatMap((e) => (e.body as { recipients: Array<{ address: string; name?: string }> }).recipients.map((x) => [x.address, x.name]))).toEqual([
      ['nameless.one@example.org', 'nameless.one'], ['named@example.org', 'Named'], ['solo@example.org', 'solo'],
    ]);
  });

  it('--to is repeatable: every recipient started and counted, --var for each', async () => {
    const from = mark();
    const r = await runCli(['automation', 'trigger', '--workflow', 'welcome', '--to', 'two-a@example.org', '--to', 'two-b@example.org', '--var', 'plan=pro'], { sandbox: sb.get() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Started 2 of 2 recipients');
    expect(events(from).map((e) => e.body)).toEqual([
      { workflow: 'welcome', event: 'TRIGGER', recipients: [{ address: 'two-a@example.org', name: 'two-a', variables: { plan: 'pro' } }, { address: 'two-b@example.org', name: 'two-b', variables: { plan: 'pro' } }] },
    ]);
  });

  it('terminate sends event TERMINATE', async () => {
    const from = mark();
    const r = await runCli(['automation', 'terminate', '--workflow', 'welcome', '--to', 'ann@example.org'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect((events(from)[0].body as any).event).toBe('TERMINATE');
  });

  it('250 recipients go as 100 + 100 + 50, one request after another', async () => {
    const file = csv(Array.from({ length: 250 }, (_, i) => `p${i}@example.org,P${i},basic`));
    const from = mark();
    const r = await runCli(['automation', 'trigger', '--workflow', 'onboard', '--recipients-file', file, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const sent = events(from);
    expect(sent.map((e) => (e.body as any).recipients.length)).toEqual([100, 100, 50]);
    expect((sent[2].body as any).recipients[49]).toEqual({ address: 'p249@example.org', name: 'P249', variables: { plan: 'basic' } });
    for (let i = 1; i < sent.length; i++) expect(sent[i].at).toBeGreaterThanOrEqual(sent[i - 1].at);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ workflow: 'onboard', event: 'TRIGGER', requested: 250, refused: [], inDoubt: [], notSent: [] });
    expect(doc.accepted).toHaveLength(250);
  });

  // The sandbox checks addresses with the same rule as mailctl, so an address the service
  // refuses never gets past the local check; its per-recipient verdict (spec endpoint 20:
  // `failure` maps address → reason) is injected here instead.
  const refuse = (address: string, success: string[], after = 0) =>
    sb.get().sandbox.injectFault({
      kind: 'status', status: 200,
      body: { success, failure: { [address]: 'Invalid: address is not a valid email format' } },
      match: { after, service: 'campaign', method: 'POST', path: '/v1/automation/event' },
    });

  it("a recipient the service refuses is listed with the service's reason; exit 5", async () => {
    const file = csv(Array.from({ length: 121 }, (_, i) => `q${i}@example.org,Q${i},pro`));
    refuse('q120@example.org', Array.from({ length: 20 }, (_, i) => `q${100 + i}@example.org`), 1);
    const r = await runCli(['automation', 'trigger', '--workflow', 'onboard', '--recipients-file', file], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    // Piped, every recipient is listed under the header (the record of the run for a script); on a
    // terminal only the ones that need a look.
    const { header, rows } = tsv(r.stdout);
    expect(header).toEqual(['recipient', 'status', 'reason']);
    expect(rows).toHaveLength(121);
    expect(rows.filter((x) => x[1] !== 'accepted')).toEqual([['q120@example.org', 'refused', 'Invalid: address is not a valid email format']]);
    refuse('q120@example.org', Array.from({ length: 20 }, (_, i) => `q${100 + i}@example.org`), 1);
    const shown = await runCli(['automation', 'trigger', '--workflow', 'onboard', '--recipients-file', file], { sandbox: sb.get(), tty: true, env: { NO_COLOR: '1', CI: '1' } });
    expect(shown.exitCode).toBe(5);
    expect(shown.stdout).toMatch(/^RECIPIENT +STATUS +REASON\nq120@example\.org +refused +Invalid/);
    expect(shown.stdout).not.toContain('accepted');
    expect(r.stderr).toContain('Started 120 of 121 recipients in workflow onboard');
  });

  it('--json: the summary on stderr points to the JSON document for who was refused, not to a list "above"', async () => {
    refuse('rj1@example.org', ['rj0@example.org']);
    const file = csv(['rj0@example.org,A,pro', 'rj1@example.org,B,pro']);
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', file, '--json'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stdout).refused).toEqual([{ address: 'rj1@example.org', reason: 'Invalid: address is not a valid email format' }]);
    expect(r.stderr).toContain('Started 1 of 2 recipients in workflow w; 1 refused (listed in the JSON output).');
    expect(r.stderr).not.toContain('listed above');
  });

  it('every recipient refused: exit 1', async () => {
    refuse('y@example.org', []);
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--to', 'y@example.org'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Invalid: address is not a valid email format');
  });

  it('an address mailctl itself cannot accept (one-letter top-level domain) is refused before any request', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--to', 'y@example.c'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it.each([
    ['a value over 100 characters', `plan=${'x'.repeat(101)}`, 'at most 100 characters'],
    ['a mathematical expression', 'plan=basic 2*3', 'must not hold mathematical expressions'],
  ])('%s is refused before any request (exit 2)', async (_what, v, sentence) => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--to', 'ann@example.org', '--var', v], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(sentence);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a file with an invalid address is refused whole, naming the row', async () => {
    const before = sb.get().sandbox.requests().length;
    const r = await runCli(['automation', 'trigger', '--workflow', 'w', '--recipients-file', csv(['ok@example.org,A,b', 'not-an-address,B,b'])], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('row 3');
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('no workflow, or no recipient: exit 2, nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    expect((await runCli(['automation', 'trigger', '--to', 'a@example.org'], { sandbox: sb.get() })).exitCode).toBe(2);
    expect((await runCli(['automation', 'trigger', '--workflow', 'w'], { sandbox: sb.get() })).exitCode).toBe(2);
    expect(sb.get().sandbox.requests().length).toBe(before);
  });
});
