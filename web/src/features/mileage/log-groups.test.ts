import { describe, expect, it } from 'vitest';
import { monthsOfYear, yearsOfLog } from './log-groups';

describe('log groups', () => {
  // Latest first, as the log reads them.
  const records = [{ date: '2026-05-02' }, { date: '2026-04-06' }, { date: '2026-04-05' }, { date: '2025-04-30' }];

  it('keeps one tax year (6 April to 5 April) and groups it by month, latest first', () => {
    expect(monthsOfYear(records, '2026-27')).toEqual([
      { month: '2026-05', records: [{ date: '2026-05-02' }] },
      { month: '2026-04', records: [{ date: '2026-04-06' }] },
    ]);
    expect(monthsOfYear(records, '2025-26')).toEqual([
      { month: '2026-04', records: [{ date: '2026-04-05' }] },
      { month: '2025-04', records: [{ date: '2025-04-30' }] },
    ]);
  });

  it('offers the current year even with an empty log, and every year with records', () => {
    expect(yearsOfLog([], '2026-11-24')).toEqual(['2026-27']);
    expect(yearsOfLog(records, '2026-11-24')).toEqual(['2026-27', '2025-26']);
  });
});
