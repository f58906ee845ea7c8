// A send answer that lists an address both in `success` and in `failure` contradicts itself about
// it (issue 19 item 8): the recipient is reported as a conflict, neither accepted nor refused — in
// doubt, named in the output and --json (`conflict: true`), never counted as sent and never sent
// again by itself. A resume looks it up by the message id the answer gave, alone (decisions row
// 30): an exact match proves it sent; nothing found leaves it in doubt. Decided from the lists'
// keys, never from the reason's words. Against the hostile server, which answers as told.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';
import { notifyAnswer, automationAnswer } from '../src/send/kinds.js';
import type { PlanRecord } from '../src/send/journal.js';

const hs = useHostileServer();
const TO = 'both@example.com';
const SEND = ['send', '--to', TO, '--from', 'news@example.com', '--subject', 'Hello', '--html', '<p>Hi</p>'];

function conflicting(): void {
  hs.get().on('GET', '/campaign/v1/balance', reply.json({ email: 100, sms: 100 }));
  hs.get().on('POST', '/notify/v1/messages', reply.json({
    id: 'R1',
    success: [{ id: 'M1', address: TO }],
    failure: { [TO]: 'Invalid: address is not a valid email format' },
  }));
}

const sends = () => hs.get().requests.filter((r) => r.method === 'POST' && r.path === '/notify/v1/messages');

describe('send: an address in both success and failure', () => {
  it('is a conflict: in doubt (exit 5), named in --json with its message id, never "sent"', async () => {
    conflicting();
    const journal = path.join(tempDir('mailctl-conflict-'), 'j.jsonl');
    const r = await runCli([...SEND, '--journal', journal, '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    const doc = JSON.parse(r.stdout) as { sent: number; unsettled: number; failed: number; recipients: Array<Record<string, unknown>> };
    expect(doc).toMatchObject({ sent: 0, unsettled: 1, failed: 0 });
    expect(doc.recipients.find((x) => x.address === TO)).toMatchObject({ status: 'unsettled', conflict: true, messageId: 'M1', reason: expect.stringContaining('both as accepted and as refused') });
    expect(r.stderr).toContain('0 of 1 accepted');
    expect(r.stderr).toContain('1 in doubt');
    // The journal keeps it as a conflict, so a resume reads it the same way.
    const result = fs.readFileSync(journal, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((x) => x.type === 'result');
    expect(result).toMatchObject({ conflict: { [TO]: 'M1' }, success: {}, failure: {} });
  });

  it('a terminal shows it in the table with the reason; the summary does not count it as accepted', async () => {
    conflicting();
    const r = await runCli(SEND, { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toMatch(new RegExp(`${TO}\\tunsettled\\tM1\\tthe service's answer listed it both as accepted and as refused`));
  });

  it('--resume looks it up by its message id alone; nothing found: still in doubt, not sent again', async () => {
    conflicting();
    const journal = path.join(tempDir('mailctl-conflict-'), 'j.jsonl');
    expect((await runCli([...SEND, '--journal', journal], { env: hs.get().env })).exitCode).toBe(5);
    hs.get().on('GET', '/notify/v1/events', reply.json({ logs: [] }));
    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    const lookups = hs.get().requests.filter((x) => x.path === '/notify/v1/events');
    expect(lookups).toHaveLength(1);
    expect(lookups[0].query).toEqual({ id: 'M1' });
    expect(sends()).toHaveLength(1); // the first run's only
    expect(JSON.parse(r.stdout).recipients.find((x: { address: string }) => x.address === TO)).toMatchObject({ status: 'unsettled', conflict: true });
  });

  it('--resume: the message accepted in the event log settles it as sent, nothing sent again', async () => {
    conflicting();
    const journal = path.join(tempDir('mailctl-conflict-'), 'j.jsonl');
    expect((await runCli([...SEND, '--journal', journal], { env: hs.get().env })).exitCode).toBe(5);
    hs.get().on('GET', '/notify/v1/events', reply.json({
      logs: [{ messageId: 'M1', status: 'accept', eventTime: new Date(Date.now() + 1000).toISOString(), mail: { subject: 'Hello', content: '<p>Hi</p>', from: 'news@example.com', to: TO } }],
    }));
    const r = await runCli(['send', '--resume', journal, '--settle-after', '0s', '--json'], { env: hs.get().env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).recipients.find((x: { address: string }) => x.address === TO)).toMatchObject({ status: 'sent', messageId: 'M1' });
    expect(sends()).toHaveLength(1);
  });
});

describe('automation: an address in both success and failure', () => {
  it('is in doubt with conflict: true in --json (exit 5), not accepted', async () => {
    hs.get().on('POST', '/campaign/v1/automation/event', reply.json({ success: [TO], failure: { [TO]: 'Invalid: address is not a valid email format' } }));
    const r = await runCli(['automation', 'trigger', '--workflow', 'welcome', '--to', TO, '--json'], { env: hs.get().env });
    expect(r.exitCode).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.accepted).toEqual([]);
    expect(doc.refused).toEqual([]);
    expect(doc.inDoubt).toEqual([expect.objectContaining({ address: TO, conflict: true })]);
  });
});

describe('the answer mapping (src/send/kinds.ts)', () => {
  const plan = { kind: 'email' } as unknown as PlanRecord;
  const wires = [{ address: 'a@example.com' }, { address: 'b@example.com' }];

  it('takes a recipient in both lists out of both, keeping the id it was given', () => {
    const a = notifyAnswer(plan, wires, { id: 'R', success: [{ id: 'M1', address: 'A@example.com' }, { id: 'M2', address: 'b@example.com' }], failure: { 'a@example.com': 'no' } });
    expect(a).toMatchObject({ success: { 'b@example.com': 'M2' }, failure: {}, conflict: { 'a@example.com': 'M1' } });
  });

  it('automation: the same, with no id', () => {
    const a = automationAnswer({ kind: 'automation' } as unknown as PlanRecord, wires, { success: ['a@example.com'], failure: { 'a@example.com': 'no' } });
    expect(a).toMatchObject({ success: {}, failure: {}, conflict: { 'a@example.com': '' } });
  });
});
