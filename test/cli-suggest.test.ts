// src/cli/suggest.ts shellQuote: a suggested command may carry a word a service chose (a
// campaign or group code). Printed, it must act on nothing in the terminal; pasted into bash, it
// must give back exactly that word.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../src/cli/suggest.js';
import { TERMINAL_UNSAFE } from './helpers/hostile-server.js';

const pasted = (line: string) => execFileSync('bash', ['-c', `printf '%s' ${line}`], { encoding: 'utf8' });

describe('shellQuote', () => {
  it.each([
    ['plain', 'CP123'],
    ['spaces and quotes', "it's a \"group\" name"],
    ['an OSC title change', 'CP\u001b]0;owned\u0007'],
    ['a screen clear and a backslash', 'G\u001b[2J\\x'],
    ['bidi override and C1 CSI', 'inv\u202egpj.exe\u009b31m'],
    ['a newline and a tab', 'a\nb\tc'],
  ])('%s: safe to print, and pastes back exactly', (_name, word) => {
    const q = shellQuote(word);
    expect(q).not.toMatch(TERMINAL_UNSAFE);
    expect(q).not.toMatch(/[\n\t]/);
    expect(pasted(q)).toBe(word);
  });
});
