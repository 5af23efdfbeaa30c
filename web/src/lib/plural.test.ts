import { describe, expect, it } from 'vitest';
import { countWords } from './format';
import { plural } from './plural';

describe('plural', () => {
  it.each([
    [0, 'changes'],
    [1, 'change'],
    [2, 'changes'],
    [1.5, 'changes'],
  ] as const)('words %s as "%s"', (n, word) => {
    expect(plural(n, 'change')).toBe(word);
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'entry', 'entries')).toBe('entry');
    expect(plural(3, 'entry', 'entries')).toBe('entries');
  });

  it('is what countWords counts with', () => {
    expect(countWords(1, 'entry', 'entries')).toBe('1 entry');
    expect(countWords(12_000, 'entry', 'entries')).toBe('12,000 entries');
  });
});
