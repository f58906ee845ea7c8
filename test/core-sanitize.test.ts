// src/core/sanitize.ts over any text: nothing a terminal acts on gets out, a cell never
// breaks its row, and --json stays exactly the string that came in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forTerminal, forTsvCell, safeJson } from '../src/core/sanitize.js';
import { HOSTILE_TEXT, TERMINAL_UNSAFE } from './helpers/hostile-server.js';

// Text biased towards what matters: controls, C1, bidi, separators, astral characters.
const nasty = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001b', '\u0007', '\u0000', '\t', '\n', '\r', '\u007f', '\u009b', '\u0085', '\u202e', '\u2066', '\u2028', '\u200b', '\ufeff', '😀', '[', ']', ';', 'a', ' '),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 400,
});

/** Half of a surrogate pair on its own. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('sanitize', () => {
  it('forTerminal: no control gets out; long text is cut with a note, never inside a surrogate pair', () => {
    fc.assert(fc.property(nasty, fc.integer({ min: 1, max: 500 }), (s, max) => {
      const out = forTerminal(s, max);
      expect(out).not.toMatch(TERMINAL_UNSAFE);
      expect(out).not.toMatch(/\n/);
      if (!LONE.test(s)) expect(out).not.toMatch(LONE);
      if (s.length > max) expect(out).toMatch(/… \(\d+ more characters\)$/);
    }), { numRuns: 500 });
    expect(forTerminal('😀😀', 3)).toBe('😀… (2 more characters)');
  });

  it('forTsvCell: whole by default, no tab or newline, no control', () => {
    fc.assert(fc.property(nasty, (s) => {
      const out = forTsvCell(s);
      expect(out).not.toMatch(TERMINAL_UNSAFE);
      expect(out).not.toMatch(/[\t\n]/);
      expect(out).not.toContain('more characters)');
    }), { numRuns: 500 });
    expect(forTsvCell(HOSTILE_TEXT.huge)).toContain('N'.repeat(200 * 1024));
  });

  it('safeJson: parses back to exactly the value, and nothing a terminal acts on is left raw', () => {
    fc.assert(fc.property(nasty, nasty, (k, v) => {
      const doc = { [k]: v, list: [v, { v }] };
      const out = safeJson(doc, 2);
      expect(JSON.parse(out)).toEqual(doc);
      expect(out.replace(/\n/g, '')).not.toMatch(TERMINAL_UNSAFE);
    }), { numRuns: 500 });
  });
});
