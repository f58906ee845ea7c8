// Every error code of spec 000 section 7 becomes a sentence that says what went wrong and what
// to do (issue 2 item 3). Unit level over the table; the end-to-end path (template show of an
// unknown id → the 40007 sentence, exit 1) is in template-show.test.ts.
import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../src/api/error-body.js';
import { sentenceForCode } from '../src/cli/service-codes.js';

// Quoted from spec 000 §7, "Campaign codes" and "Contact removal codes", plus the report code.
const SPEC_CODES: Array<[string, string]> = [
  ['40001', 'field error'],
  ['40003', 'invalid email'],
  ['40004', 'domain not allowed'],
  ['40007', 'invalid sn'],
  ['40008', 'unsupported file format'],
  ['40009', 'file content empty'],
  ['40010', 'file size over limit'],
  ['40011', 'sender address not verified'],
  ['40012', 'insufficient balance'],
  ['40013', 'no recipients to send to'],
  ['40014', 'invalid campaign content'],
  ['40015', 'invalid sending information'],
  ['40017', 'insufficient balance for test'],
  ['40019', 'wrong schedule time'],
  ['40020', 'invalid date format'],
  ['40303', 'bad operation with invalid user state'],
  ['40050304', 'wrong custom field name'],
  ['40050305', '`filters` or `keys` missing'],
  ['40050306', 'wrong column name'],
  ['40050307', 'wrong operator'],
  ['40050308', 'group to remove from does not exist'],
];

describe('error codes → sentences', () => {
  it.each(SPEC_CODES)('%s (%s) has its own sentence saying what happened and what to do', (code) => {
    const s = sentenceForCode(code);
    expect(s).toBeDefined();
    // Two sentences at least: the problem, then the fix.
    expect(s!.split(/(?<=\.)\s+(?=[A-Z`])/).length).toBeGreaterThanOrEqual(2);
    expect(s).toMatch(/\.$/);
  });

  it('no two codes share a sentence', () => {
    const sentences = SPEC_CODES.map(([c]) => sentenceForCode(c));
    expect(new Set(sentences).size).toBe(SPEC_CODES.length);
  });

  it('says the specific things the issue asks for', () => {
    expect(sentenceForCode('40011')).toMatch(/verif.*back office|back office.*verif/i); // issue 2 example
    expect(sentenceForCode('40012')).toContain('mailctl balance');
    expect(sentenceForCode('40007')).toContain('mailctl template list');
    expect(sentenceForCode('40050308')).toContain('mailctl groups list');
  });

  it('an unknown code has no canned sentence (the caller falls back to the raw message)', () => {
    expect(sentenceForCode('99999')).toBeUndefined();
    expect(sentenceForCode(undefined)).toBeUndefined();
  });
});

describe('both error body shapes are read (decisions row 6)', () => {
  it('spec shape {code, invalidFields}', () => {
    expect(describeErrorBody({ code: '40001', invalidFields: 'form.subject' })).toMatchObject({ code: '40001', detail: expect.stringContaining('form.subject') });
  });

  it('public-client shape {errorCode, message}', () => {
    expect(describeErrorBody({ errorCode: '40011', message: 'sender not verified' })).toMatchObject({ code: '40011', detail: 'sender not verified', message: 'sender not verified' });
  });

  it('contact removal {code: number, message}: the number becomes the same string code', () => {
    expect(describeErrorBody({ code: 40050305, message: 'filters missing' })).toMatchObject({ code: '40050305', detail: 'filters missing' });
  });

  it('notification-service shapes {errors} and {error}, and a plain-text body', () => {
    expect(describeErrorBody({ errors: 'sender domain unverified' }).detail).toBe('sender domain unverified');
    expect(describeErrorBody({ error: 'bad from' }).detail).toBe('bad from');
    expect(describeErrorBody('Bad Gateway').detail).toBe('Bad Gateway');
    expect(describeErrorBody(undefined)).toEqual({});
  });
});
