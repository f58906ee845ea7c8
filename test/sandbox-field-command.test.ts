// `mailctl sandbox field add|list`: the back-office step of defining a custom field ("Custom
// fields are created beforehand in the back office… the type is chosen at creation and cannot
// change", spec 000 section 2), done against the sandbox's own route.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';

const sb = useSandbox({
  expect: [
    'GET /campaign/_sandbox/fields',
    'POST /campaign/_sandbox/fields',
    'POST /campaign/v1/contacts/imports/:listSn/text',
    'GET /campaign/v1/contacts/imports/result/:importSn',
    'GET /campaign/v1/contacts/lists',
    'POST /campaign/v1/contacts/lists/insert',
    'GET /files/d/:token', // the failure file, merged into the rejects file when the import ends
  ],
});

describe('sandbox field', () => {
  it('defines a field whose type then decides the service-side row check; the type cannot change', async () => {
    const add = await runCli(['sandbox', 'field', 'add', 'SCORE', 'number'], { sandbox: sb.get() });
    expect(add.exitCode).toBe(0);
    const again = await runCli(['sandbox', 'field', 'add', 'SCORE', 'date'], { sandbox: sb.get() });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('cannot change');
    const list = await runCli(['sandbox', 'field', 'list', '--json'], { sandbox: sb.get() });
    expect(JSON.parse(list.stdout)).toContainEqual(expect.objectContaining({ name: 'SCORE', type: 'number' }));

    // Without --field the local check does not know SCORE's type; the service's stage 2 does:
    // "A value not matching its field type counts as a failed row."
    const dir = tempDir();
    const file = path.join(dir, 'scores.csv');
    fs.writeFileSync(file, 'EMAIL,NAME,SCORE\nann@example.com,Ann,12\nbob@example.com,Bob,lots\n');
    const imp = await runCli(['import', file, '--group', 'Scores', '--create-group', '--wait', '--json'], { sandbox: sb.get() });
    const doc = JSON.parse(imp.stdout);
    expect(doc.result).toMatchObject({ status: 'COMPLETE', insertCnt: 1, errCnt: 1 });
    expect(imp.exitCode).toBe(5);
    // The row the service refused is in the rejects file, under its line in scores.csv.
    expect(fs.readFileSync(path.join(dir, 'scores.rejects.csv'), 'utf8')).toContain('3,"service: SCORE: ""lots"" is not a number",bob@example.com,Bob,lots');
  });

  it('a bad type is refused locally: exit 2, nothing sent', async () => {
    const before = sb.get().sandbox.requests('campaign').length;
    const r = await runCli(['sandbox', 'field', 'add', 'X', 'boolean'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(2);
    expect(sb.get().sandbox.requests('campaign').length).toBe(before);
  });
});

describe('sandbox field add NAME', () => {
  // `sandbox field add 'bad name' string` used to reach the sandbox and come back as "the campaign
  // service refused … (HTTP 400)", exit 1. A name that cannot be a field is bad input: exit 2,
  // nothing sent, with the rule and an example.
  it('a name that is not letters, digits and _ is refused locally, exit 2, nothing sent', async () => {
    const before = sb.get().sandbox.requests().length;
    for (const name of ['bad name', '9LIVES', 'A'.repeat(65)]) {
      const r = await runCli(['sandbox', 'field', 'add', name, 'string'], { sandbox: sb.get() });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`"${name}" is not a field name: it must start with a letter`);
      expect(r.stderr).toContain('sandbox field add TIER string');
    }
    expect(sb.get().sandbox.requests().length).toBe(before);
  });

  it('a good name still goes through', async () => {
    const r = await runCli(['--json', 'sandbox', 'field', 'add', 'Tier_2', 'string'], { sandbox: sb.get() });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Tier_2', type: 'string' });
  });
});
