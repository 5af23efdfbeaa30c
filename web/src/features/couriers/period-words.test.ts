import { describe, expect, it } from 'vitest';
import { ordinal, periodWords } from './period-words';

describe('periodWords', () => {
  it('says the period and how far in arrears it is paid', () => {
    expect(periodWords({ periodKind: 'weekly', periodAnchor: '2000-01-02', arrearsWeeks: 1 })).toBe('Weekly from Sunday, paid 1 week in arrears');
    expect(periodWords({ periodKind: 'weekly', periodAnchor: '2025-03-05', arrearsWeeks: 0 })).toBe('Weekly from Wednesday');
    expect(periodWords({ periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 0 })).toBe('4-4-5 from 05/01/2025');
    expect(periodWords({ periodKind: 'monthly', periodAnchor: '2000-01-01', arrearsWeeks: 4 })).toBe('Monthly from the 1st, paid 4 weeks in arrears');
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 28].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '28th']);
  });
});
