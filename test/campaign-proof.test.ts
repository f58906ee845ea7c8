// `campaign proof`: the campaign filled from one contact and sent through the notification
// service, as the sandbox receives it (POST /v1/messages: subject, rendered content, sender,
// recipients), A/B versions, unrendered ${FIELD}s named, --dry-run, exit codes, and the --help
// examples run against a fresh --sandbox.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { writeFiles } from './helpers/campaign-setup.js';
import { sandboxExamples } from './helpers/help-examples.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({ expect: ['POST /notify/v1/messages'] });
const dir = writeFiles({
  // Line 1 header; line 2 Ann; lines 3-4 Bob (a quoted line break); line 5 blank; line 6 Cy.
  'contacts.csv': 'EMAIL,NAME,PLAN,JOINED\nann@example.org,Ann,Gold,2024-01-01\n"bob@example.org","Bob\nSmith",Silver,2024-02-02\n\ncy@example.org,Cy,"Bronze, yearly",2024-03-03\n',
  'mail.html': '<html><body><p>Hello ${NAME}, your plan is ${PLAN}.</p></body></html>',
});
const file = (n: string) => path.join(dir, n);
const campaign = ['--name', 'Dec', '--group', 'Newsletter', '--subject', 'Hi ${NAME}', '--from', 'news@example.com', '--from-name', 'Acme', '--html-file', file('mail.html')];
/** `campaign` with `flag` set to `value` instead: a flag that takes one value may be given only once (src/cli/repeats.ts). */
const campaignWith = (flag: string, value: string) => [...campaign.filter((x, i, a) => x !== flag && a[i - 1] !== flag), flag, value];

function messagesSince(from: number) {
  return sb.get().sandbox.requests('notify').slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
}
const mark = () => sb.get().sandbox.requests('notify').length;

describe('one contact from a contacts file', () => {
  it('--contacts FILE --contact LINE fills ${FIELD}s from that line and sends one message to the --to addresses', async () => {
    const from = mark();
    const r = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--to', 'boss@example.com', '--contacts', file('contacts.csv'), '--contact', '6'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    const [m] = messagesSince(from);
    expect(m.headers['x-api-key']).toBe(SANDBOX_KEYS.notify);
    expect(m.body).toEqual({
      subject: '[Proof] Hi Cy',
      fromName: 'Acme',
      fromAddress: 'news@example.com',
      content: '<html><body><p>Hello Cy, your plan is Bronze, yearly.</p></body></html>',
      // decisions row 31: a name for every recipient, the local part when none is given.
      recipients: [{ name: 'me', address: 'me@example.com' }, { name: 'boss', address: 'boss@example.com' }],
    });
    expect(r.stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t').slice(0, 2))).toEqual([['', 'me@example.com'], ['', 'boss@example.com']]);
    expect(r.stderr).toContain('What differs from the campaign send');
    expect(r.stderr).toContain('no unsubscribe footer');
  });

  it('counts lines as the file has them: a quoted line break belongs to its contact; no --contact means the first; --contact EMAIL picks by address', async () => {
    const from = mark();
    await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', file('contacts.csv'), '--contact', '3'], { sandbox: sb.get() });
    await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', file('contacts.csv')], { sandbox: sb.get() });
    await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', file('contacts.csv'), '--contact', 'CY@example.org'], { sandbox: sb.get() });
    expect(messagesSince(from).map((m) => (m.body as { subject: string }).subject)).toEqual(['[Proof] Hi Bob\nSmith', '[Proof] Hi Ann', '[Proof] Hi Cy']);
  });

  it('reads a UTF-16 file the way import does', async () => {
    const d = writeFiles({});
    fs.writeFileSync(path.join(d, 'u16.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('EMAIL,NAME,PLAN\nann@example.org,安,金\n', 'utf16le')]));
    const from = mark();
    const r = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', path.join(d, 'u16.csv')], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect((messagesSince(from)[0].body as { content: string }).content).toContain('Hello 安, your plan is 金.');
  });

  it('refuses a line that is the header, blank or past the end, and a missing file: exit 2, nothing sent', async () => {
    const from = mark();
    const contacts = ['--contacts', file('contacts.csv')];
    const cases: Array<[string[], string]> = [
      [[...contacts, '--contact', '1'], 'is the header, not a contact'],
      [[...contacts, '--contact', '5'], 'Line 5 of'],
      [[...contacts, '--contact', '4'], 'has no contact starting on line 4'],
      [[...contacts, '--contact', '60'], 'has no contact starting on line 60 (the file has 6 lines)'],
      [[...contacts, '--contact', 'zed@example.org'], 'has no contact with the address zed@example.org'],
      [['--contact', '2'], '--contact picks a contact of a contacts file, and no --contacts FILE was given.'],
      [['--contacts', file('nope.csv')], 'does not exist'],
      [['--contacts', '-'], '--contacts takes a file; standard input ("-") is not read here.'],
      // --to is one recipient each time, as in send (docs/flags.md): a comma list is not an address.
      [['--to', 'a@example.com,b@example.com'], '"a@example.com,b@example.com" is not an email address'],
    ];
    for (const [flags, sentence] of cases) {
      const r = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', ...flags], { sandbox: sb.get() });
      expect([r.exitCode, r.stderr]).toEqual([2, expect.stringContaining(sentence)]);
    }
    expect(messagesSince(from)).toHaveLength(0);
  });
});

describe('values and what is left unrendered', () => {
  it('--var adds and overrides values; a ${FIELD} without a value is named and sent as written', async () => {
    const from = mark();
    const r = await runCli(['campaign', 'proof', ...campaignWith('--subject', 'Hi ${NAME} (${AGE}, ${TIER})'), '--to', 'me@example.com', '--contacts', file('contacts.csv'), '--contact', '2', '--var', 'PLAN=Platinum'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`warning: \${AGE}, \${TIER} left as written: ${file('contacts.csv')} has no such column; give --var AGE=value.`);
    const body = messagesSince(from)[0].body as { subject: string; content: string };
    expect(body.subject).toBe('[Proof] Hi Ann (${AGE}, ${TIER})');
    expect(body.content).toContain('your plan is Platinum.');
  });

  it('column names match in any case, as on import; the last value given wins', async () => {
    const d = writeFiles({ 'lower.csv': 'email,name,plan\nann@example.org,Ann,Gold\n' });
    const from = mark();
    await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', path.join(d, 'lower.csv'), '--var', 'name=Annie'], { sandbox: sb.get() });
    expect((messagesSince(from)[0].body as { content: string }).content).toContain('Hello Annie, your plan is Gold.');
  });

  it('without --contacts or --var every custom ${FIELD} is named', async () => {
    const r = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--dry-run'], { sandbox: sb.get() });
    expect(r.stderr).toContain('${NAME}, ${PLAN} left as written: no contact was given; give --var NAME=value or --contacts contacts.csv.');
  });

  it('the preheader goes in as hidden preview text at the top of the body', async () => {
    const from = mark();
    await runCli(['campaign', 'proof', ...campaign, '--preheader', 'For ${NAME} & co', '--to', 'me@example.com', '--var', 'NAME=Ann', '--var', 'PLAN=x'], { sandbox: sb.get() });
    expect((messagesSince(from)[0].body as { content: string }).content).toBe(
      '<html><body><div style="display:none;max-height:0;overflow:hidden;mso-hide:all">For Ann &amp; co</div><p>Hello Ann, your plan is x.</p></body></html>');
  });
});

describe('A/B tests', () => {
  const ab = ['--name', 'AB', '--from', 'news@example.com', '--from-name', 'Acme', '--ab', 'subject', '--subject-a', 'Hi ${NAME}', '--subject-b', 'Hello ${NAME}', '--html', '<p>${NAME}</p>'];

  it('sends both versions, each marked, in two requests; --only B sends one', async () => {
    const from = mark();
    const r = await runCli(['campaign', 'proof', ...ab, '--to', 'me@example.com', '--var', 'NAME=Ann'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(messagesSince(from).map((m) => (m.body as { subject: string }).subject)).toEqual(['[Proof A] Hi Ann', '[Proof B] Hello Ann']);
    const one = mark();
    await runCli(['campaign', 'proof', ...ab, '--to', 'me@example.com', '--var', 'NAME=Ann', '--only', 'b'], { sandbox: sb.get() });
    expect(messagesSince(one).map((m) => (m.body as { subject: string }).subject)).toEqual(['[Proof B] Hello Ann']);
  });

  it('a sender test uses each version\'s sender', async () => {
    const from = mark();
    await runCli(['campaign', 'proof', '--ab', 'sender', '--subject', 'S', '--from-name-a', 'Ann at Acme', '--from-name-b', 'Acme', '--from', 'news@example.com', '--html', 'x', '--to', 'me@example.com'], { sandbox: sb.get() });
    expect(messagesSince(from).map((m) => (m.body as { fromName: string }).fromName)).toEqual(['Ann at Acme', 'Acme']);
  });

  it('--only on a campaign without --ab, or an unknown version, is a usage error', async () => {
    expect((await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--only', 'A'], { sandbox: sb.get() })).exitCode).toBe(2);
    const r = await runCli(['campaign', 'proof', ...ab, '--to', 'me@example.com', '--only', 'C'], { sandbox: sb.get() });
    expect([r.exitCode, r.stderr]).toEqual([2, expect.stringContaining('--only "C" is not a version')]);
  });
});

describe('--dry-run, --json, refusals and exit codes', () => {
  it('--dry-run prints the request with the key masked and sends nothing', async () => {
    const from = mark();
    const r = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--var', 'NAME=Ann', '--var', 'PLAN=Gold', '--dry-run'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`POST ${sb.get().notifyUrl}/v1/messages`);
    expect(r.stdout).toContain('"subject": "[Proof] Hi Ann"');
    expect(r.stdout).not.toContain(SANDBOX_KEYS.notify);
    expect(messagesSince(from)).toHaveLength(0);
  });

  it('--json reports each message, the values source and what differs', async () => {
    const r = await runCli(['--json', 'campaign', 'proof', ...campaign, '--to', 'me@example.com', '--contacts', file('contacts.csv'), '--contact', '2'], { sandbox: sb.get() });
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ proofs: [{ version: null, subject: '[Proof] Hi Ann', success: [{ address: 'me@example.com' }], failure: {} }], valuesFrom: `line 2 of ${file('contacts.csv')}`, unrendered: [] });
    expect(doc.differences.join(' ')).toContain('notification service');
  });

  it('no --to, a bad address, or an incomplete campaign: exit 2, nothing sent', async () => {
    const from = mark();
    expect((await runCli(['campaign', 'proof', ...campaign], { sandbox: sb.get() })).stderr).toContain('Say who gets the proof with --to');
    const bad = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--to', 'not-an-address'], { sandbox: sb.get() });
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining('--to "not-an-address" is not an email address; give your own address, such as --to me@example.com.')]);
    const noHtml = await runCli(['campaign', 'proof', '--subject', 'S', '--from', 'news@example.com', '--from-name', 'A', '--to', 'me@example.com'], { sandbox: sb.get() });
    expect([noHtml.exitCode, noHtml.stderr]).toEqual([2, expect.stringContaining('has no html content')]);
    expect(messagesSince(from)).toHaveLength(0);
  });

  it('an address the service refuses is named, exit 5 (1 when none was accepted)', async () => {
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { id: 'req1', success: [{ id: 'm1', address: 'me@example.com' }], failure: { 'x@example.com': 'Invalid: address is not a valid email format' } }, match: { service: 'notify', path: '/v1/messages' } });
    const some = await runCli(['campaign', 'proof', ...campaign, '--to', 'me@example.com', '--to', 'x@example.com', '--var', 'NAME=a', '--var', 'PLAN=b'], { sandbox: sb.get() });
    expect([some.exitCode, some.stderr]).toEqual([5, expect.stringContaining('Not sent to x@example.com: Invalid: address is not a valid email format')]);
    sb.get().sandbox.injectFault({ kind: 'status', status: 200, body: { id: 'req2', success: [], failure: { 'x@example.com': 'Invalid: address is not a valid email format' } }, match: { service: 'notify', path: '/v1/messages' } });
    const none = await runCli(['campaign', 'proof', ...campaign, '--to', 'x@example.com', '--var', 'NAME=a', '--var', 'PLAN=b'], { sandbox: sb.get() });
    expect(none.exitCode).toBe(1);
  });

  it('an unverified sender domain is the service\'s refusal (exit 1), with the fixes `send` gives, built for this profile', async () => {
    const r = await runCli(['--profile', 'ci', 'campaign', 'proof', ...campaignWith('--from', 'news@unverified.example'), '--to', 'me@example.com'], { sandbox: sb.get() });
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringContaining('not verified')]);
    expect(r.stderr).toContain('--from ADDRESS');
    expect(r.stderr).toContain('mailctl --profile ci config set from-address ADDRESS');
    expect(r.stderr).toContain('mailctl --profile ci domain add unverified.example');
    expect(r.stderr).toContain('mailctl --profile ci domain verify unverified.example');
  });
});

describe('--help', () => {
  it('its examples work against a fresh --sandbox', async () => {
    const help = (await runCli(['campaign', 'proof', '--help'])).stdout;
    const examples = sandboxExamples(help);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const argv of examples) {
      const r = await runCli(argv);
      expect([r.exitCode, r.stderr]).toEqual([0, expect.not.stringMatching(/error|warning/i)]);
    }
  });
});
