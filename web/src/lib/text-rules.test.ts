import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from './text-rules';

describe('free text rules (the server\'s, crates/domain/src/fields.rs)', () => {
  it('take ordinary writing, accents, emoji and right-to-left text', () => {
    for (const text of ['Van 3', 'Zoë Ó Sé', '📦 left at №12', 'شارع', '\u200fRLM is a mark', '']) {
      expect(hasForbiddenCharacters(text), text).toBe(false);
    }
  });

  it('refuse control characters, direction controls and line separators', () => {
    for (const text of ['nul\0', 'esc\u001b[2J', 'del\u007f', 'c1\u0085', 'csi\u009b', 'abc\u202efdp', '\u2066x\u2069', 'p\u2029', 'l\u2028']) {
      expect(hasForbiddenCharacters(text), JSON.stringify(text)).toBe(true);
      expect(hasForbiddenCharacters(text, true), JSON.stringify(text)).toBe(true);
    }
  });

  it('allow line breaks and tabs in multi-line text only', () => {
    expect(hasForbiddenCharacters('first\nsecond\r\n\ttabbed', true)).toBe(false);
    for (const text of ['a\nb', 'a\tb', 'a\rb']) expect(hasForbiddenCharacters(text)).toBe(true);
  });

  it('agree with the server rule on every code point below U+3000', () => {
    const server = (code: number, multiLine: boolean) => {
      if (multiLine && (code === 0x0a || code === 0x0d || code === 0x09)) return true;
      const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
      const direction = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
      return !(control || direction || code === 0x2028 || code === 0x2029);
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x2fff }), fc.boolean(), (code, multiLine) => {
        expect(hasForbiddenCharacters(String.fromCodePoint(code), multiLine)).toBe(!server(code, multiLine));
      }),
      { numRuns: 3000 },
    );
  });

  it('name the field', () => {
    expect(forbiddenCharactersMessage('Notes')).toBe('Notes cannot contain control characters or text-direction marks');
  });
});
