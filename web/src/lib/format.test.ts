import { describe, expect, it } from 'vitest';
import { formatPence, formatShortDate } from './format';

describe('format', () => {
  it('shows integer pence as pounds', () => {
    expect(formatPence(0)).toBe('£0.00');
    expect(formatPence(19800)).toBe('£198.00');
    expect(formatPence(499)).toBe('£4.99');
  });

  it('shows a calendar day in en-GB short form without shifting it', () => {
    expect(formatShortDate('2025-03-21')).toBe('21/03/2025');
    expect(formatShortDate('2025-01-01')).toBe('01/01/2025');
  });
});
