// A damaged or hand-edited journal (src/send/journal-check.ts): every record is checked field by
// field when read, so a record that lost a field, or holds text where a list belongs, stops
// `--resume` (and `--resume --dry-run`) with one sentence naming the line — exit 2, nothing
// sent — instead of crashing, or counting the letters of an address as recipients in doubt.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { journalPlan, journalText } from './helpers/journal-plan.js';

const sb = useSandbox({ expect: [] }); // no request may be made at all

const at = '2026-01-01T00:00:00.000Z';
const recipients = ['e1@example.com', 'e2@example.com', 'e3@example.com'].map((address) => ({ address }));
const fields = { kind: 'email' as const, createdAt: at, batchSize: 2, message: { subject: 'S', fromAddress: 'noreply@example.com', content: '<p>x</p>' }, recipients };
// The damage is found before the account is compared: any account serves.
const plan = journalPlan(fields);
const intent = { type: 'intent', batch: '1', keys: ['e1@example.com', 'e2@example.com'], at };

/** [what, the journal's lines (objects are written as JSON, strings as they are), the damaged line]. */
const CASES: Array<[string, unknown[], number]> = [
  ['a result record without its fields', [plan, intent, { type: 'result', batch: '1' }], 3],
  ['a settled record whose sent list is null', [plan, intent, { type: 'settled', sent: null }], 3],
  ['a plan whose recipients are null', [{ ...plan, recipients: null }, intent], 1],
  ['an intent whose keys are one string, not a list', [plan, { ...intent, keys: 'e1@example.com' }], 2],
  ['an intent naming a recipient the plan does not have', [plan, { ...intent, keys: ['someone@example.com'] }], 2],
  ['an intent without its time', [plan, { type: 'intent', batch: '1', keys: ['e1@example.com'] }], 2],
  ['a settled record whose sent entries are not message ids', [plan, intent, { type: 'settled', at, sent: { 'e1@example.com': 'id-1' }, unsent: [], unknown: {} }], 3],
  ['a result record whose failure list is a string', [plan, intent, { type: 'result', batch: '1', at, success: {}, failure: 'bounced' }], 3],
  ['a record of no known type', [plan, { type: 'resend', batch: '1', at }], 2],
  ['a second plan', [plan, intent, plan], 3],
  ['a whole last line that is JSON but not a record', [plan, intent, '42'], 3],
  ['a plan with a batch size of 0', [{ ...plan, batchSize: 0 }], 1],
  ['an SMS plan whose recipient has no country code', [{ ...plan, kind: 'sms', message: { content: '【Acme】x' }, recipients: [{ address: '0912345678' }] }], 1],
  ['a plan that does not record its account', [{ ...plan, account: undefined }], 1],
  ['a plan whose account is a string', [{ ...plan, account: 'prod' }], 1],
  ['a result record whose request id is a number', [plan, intent, { type: 'result', batch: '1', at, requestId: 42, success: {}, failure: {} }], 3],
  ['an automation plan whose recipients are a string', [{ ...plan, kind: 'automation', message: { workflow: 'w', event: 'TRIGGER' }, recipients: 'a@example.org' }], 1],
];

function write(lines: unknown[]): string {
  const file = path.join(tempDir('mailctl-damaged-'), 'j.jsonl');
  fs.writeFileSync(file, journalText(lines));
  return file;
}

describe('a damaged journal', () => {
  it.each(CASES)('%s: --resume and --resume --dry-run exit 2 with one sentence naming the line; nothing sent', async (_what, lines, line) => {
    const file = write(lines);
    const command = (lines[0] as { kind?: string }).kind === 'automation' ? ['automation', 'trigger'] : ['send'];
    const before = fs.readFileSync(file, 'utf8');
    for (const extra of [[], ['--dry-run'], ['--json']]) {
      const r = await runCli([...command, '--resume', file, ...extra], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      const text = extra[0] === '--json' ? JSON.parse(r.stdout).error.message : r.stderr.replace(/^error: /, '').trimEnd();
      expect(text).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged at line ${line} \\([^()]+\\); it cannot be used to resume safely\\.$`));
      expect(r.stderr).not.toMatch(/unexpected|bug|in doubt|\n\s+at /);
    }
    expect(sb.get().sandbox.recorded).toHaveLength(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(before); // nothing cut off or appended
  });

  it('a journal whose records are all whole still resumes (the check refuses only damage)', async () => {
    const file = write([journalPlan({ ...fields, recipients: [] }, sb.get()), { type: 'done', at }]);
    const r = await runCli(['send', '--resume', file, '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('nothing would be sent');
  });
});

// Journal formats before version 3 (one-letter keys t/b/v; a plan without its account, SMS keyed
// with the trunk zero) never shipped, and nothing reads them: a journal of any version but the
// one written now is refused whole, never half-read with the wrong keys or no account check.
const OTHER_VERSIONS: Array<[string, unknown[]]> = [
  ['version 1 (one-letter keys)', [{ t: 'plan', v: 1, kind: 'email', createdAt: at, batchSize: 2, message: fields.message, recipients }, { t: 'intent', b: '1', keys: ['e1@example.com'], at }]],
  ['version 2 (no account)', [{ ...plan, version: 2, account: undefined }, intent]],
  ['version 2, even with an account', [{ ...plan, version: 2 }, intent]],
  ['version 4', [{ ...plan, version: 4 }]],
  ['version "3" as text', [{ ...plan, version: '3' }]],
];

describe('a journal of another version', () => {
  const sentence = (file: string) => `${file} is not a mailctl journal of this version (a send or automation journal of version 3), so it cannot be resumed.`;

  it.each(OTHER_VERSIONS)('%s: --resume and --resume --dry-run exit 2 with one sentence; nothing sent, nothing written', async (_what, lines) => {
    const file = write(lines);
    const before = fs.readFileSync(file, 'utf8');
    for (const extra of [[], ['--dry-run'], ['--json']]) {
      const r = await runCli(['send', '--resume', file, ...extra], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      if (extra[0] === '--json') expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'USAGE', message: sentence(file), exitCode: 2 });
      else expect(r.stderr).toBe(`error: ${sentence(file)}\n`);
    }
    expect(sb.get().sandbox.recorded).toHaveLength(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a bare --resume does not pass one over as "nothing to resume": it names it and refuses it', async () => {
    const configDir = tempDir();
    const file = path.join(configDir, 'journals', 'send-email-20260101T000000Z-old2.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, journalText([{ ...journalPlan(fields, sb.get()), version: 2 }, intent]));
    const r = await runCli(['send', '--resume'], { sandbox: sb.get(), configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: ${sentence(file)}\n`);
    expect(sb.get().sandbox.recorded).toHaveLength(0);
  });
});
