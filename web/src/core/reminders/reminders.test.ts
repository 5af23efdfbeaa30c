import { describe, expect, it } from 'vitest';
import type { TaxYearLabel } from '@/core/tax/tax-year';
import { addDays, weekdayOf } from '@/lib/week';
import { changedSinceSentReminder, dueReminders, finalDeclarationReminder, overdueReminder, quarterReminder, sentKey, receiptsReminder, unansweredQueryReminder, unloggedDays, unloggedReminder, usualWeekdays, type TrackedQuery } from './reminders';

// Tuesday 24 November 2026.
const TODAY = '2026-11-24';
const MON = 1;
const SAT = 6;

/** Every day of the `weeks` weeks before today that falls on one of `weekdays`, minus `except`. */
function worked(weekdays: number[], weeks = 8, except: string[] = [], today = TODAY): Set<string> {
  const days = new Set<string>();
  for (let back = 1; back <= weeks * 7; back++) {
    const day = addDays(today, -back);
    if (weekdays.includes(weekdayOf(day)) && !except.includes(day)) days.add(day);
  }
  return days;
}

const WEEKDAYS = [1, 2, 3, 4, 5];

describe('days with no log', () => {
  it('names the usual working days of the last 14 days that have no entry', () => {
    const logged = worked(WEEKDAYS, 8, ['2026-11-16', '2026-11-17']);
    expect(unloggedReminder(TODAY, logged)).toEqual({
      kind: 'unlogged',
      text: 'No day logged for Mon 16/11, Tue 17/11',
      link: { label: 'Log a day', to: '/app/dashboard#log-day' },
    });
  });

  it('is quiet when every usual day is logged', () => {
    expect(unloggedReminder(TODAY, worked(WEEKDAYS))).toBeNull();
  });

  it('looks at the 14 days before today only: not day 15, not today', () => {
    // 10 Nov is 14 days back (a Tuesday), 9 Nov 15 days back (a Monday).
    expect(unloggedDays(TODAY, worked(WEEKDAYS, 8, ['2026-11-09', '2026-11-10']))).toEqual(['2026-11-10']);
    // Today (a Tuesday) has no entry yet: the day is not over.
    expect(worked(WEEKDAYS).has(TODAY)).toBe(false);
    expect(unloggedDays(TODAY, worked(WEEKDAYS))).toEqual([]);
  });

  it('counts a weekday as usual with an entry in at least 3 of the previous 8 weeks', () => {
    const mondays = [...worked([MON])];
    const saturdays = [...worked([SAT])];
    // Saturdays in 2 of the 8 weeks (both outside the window): not a usual day.
    const two = new Set([...mondays, ...saturdays.slice(-2)]);
    expect(usualWeekdays(TODAY, two)).toEqual(new Set([MON]));
    expect(unloggedDays(TODAY, two)).toEqual([]);
    // In 3 of them: usual, so the two Saturdays of the window without an entry are named.
    const three = new Set([...mondays, ...saturdays.slice(-3)]);
    expect(usualWeekdays(TODAY, three)).toEqual(new Set([MON, SAT]));
    expect(unloggedDays(TODAY, three)).toEqual(['2026-11-14', '2026-11-21']);
  });

  it('says nothing with fewer than 3 weeks of entries', () => {
    // Every day logged from 20 days back to 4 days back, then nothing: too new to know a usual week.
    const twenty = new Set(Array.from({ length: 17 }, (_, i) => addDays(TODAY, -20 + i)));
    expect(unloggedDays(TODAY, twenty)).toEqual([]);
    expect(unloggedReminder(TODAY, new Set())).toBeNull();
    // Three Mondays in a row from 22 days back (2, 9 and 16 Nov), then the fourth missed: named.
    const mondays = new Set(['2026-11-02', '2026-11-09', '2026-11-16']);
    expect(unloggedReminder(TODAY, mondays)?.text).toBe('No day logged for Mon 23/11');
  });

  it('names at most 5 days, then "and N more"', () => {
    const logged = worked(WEEKDAYS, 8, [...worked(WEEKDAYS, 2)]);
    expect(unloggedDays(TODAY, logged)).toHaveLength(10);
    expect(unloggedReminder(TODAY, logged)?.text).toBe('No day logged for Tue 10/11, Wed 11/11, Thu 12/11, Fri 13/11, Mon 16/11 and 5 more');
  });
});

describe('quarter due soon', () => {
  // MTD applies from 2026-27 to a driver whose 2024-25 turnover was over £50,000.
  const over = (year: TaxYearLabel) => (year === '2024-25' ? 6_000_000 : 0);
  const under = (year: TaxYearLabel) => (year === '2024-25' ? 5_000_000 : 0);

  it('reminds of the update due within the next 21 days', () => {
    expect(quarterReminder('2026-10-17', over)).toEqual({
      kind: 'quarter',
      text: 'Your quarterly update for 6 Jul–5 Oct is due 7 Nov',
      link: { label: 'Open the tax year', to: '/app/tax' },
    });
    expect(quarterReminder('2026-11-07', over)?.text).toBe('Your quarterly update for 6 Jul–5 Oct is due 7 Nov');
  });

  it('is quiet 22 days ahead and after the due day', () => {
    expect(quarterReminder('2026-10-16', over)).toBeNull();
    expect(quarterReminder('2026-11-08', over)).toBeNull();
  });

  it('is quiet when MTD does not apply (turnover not over the threshold, or before MTD began)', () => {
    expect(quarterReminder('2026-10-17', under)).toBeNull();
    expect(quarterReminder('2025-10-17', () => 10_000_000)).toBeNull();
  });

  it('reminds of the fourth quarter, due in May of the next tax year, by its own year’s rule', () => {
    expect(quarterReminder('2027-04-20', over)?.text).toBe('Your quarterly update for 6 Jan–5 Apr is due 7 May');
    expect(quarterReminder('2027-01-20', over)?.text).toBe('Your quarterly update for 6 Oct–5 Jan is due 7 Feb');
  });

  it('follows the calendar quarters when elected: the same deadlines, the calendar periods', () => {
    expect(quarterReminder('2026-10-17', over, 'calendar')?.text).toBe('Your quarterly update for 1 Jul–30 Sept is due 7 Nov');
    expect(quarterReminder('2027-04-20', over, 'calendar')?.text).toBe('Your quarterly update for 1 Jan–31 Mar is due 7 May');
  });
});

describe('receipts waiting', () => {
  it('counts photos waiting and refused, in words', () => {
    expect(receiptsReminder(0, 0)).toBeNull();
    expect(receiptsReminder(2, 0)).toEqual({ kind: 'receipts', text: '2 receipt photos are waiting to upload', link: { label: 'Open expenses', to: '/app/spending?view=expenses' } });
    expect(receiptsReminder(1, 0)?.text).toBe('1 receipt photo is waiting to upload');
    expect(receiptsReminder(0, 1)?.text).toBe('1 receipt photo could not be uploaded');
    expect(receiptsReminder(0, 3)?.text).toBe('3 receipt photos could not be uploaded');
    expect(receiptsReminder(1, 2)?.text).toBe('1 receipt photo is waiting to upload. 2 receipt photos could not be uploaded');
  });
});

describe('overdue updates and the final declaration', () => {
  const over = () => 6_000_000;
  it('names the oldest update past its deadline that is not marked as sent, while MTD applies', () => {
    expect(overdueReminder('2026-08-08', over, 'standard', new Set())?.text).toBe('Your quarterly update for 6 Apr–5 Jul was due 7 Aug and is not marked as sent');
    expect(overdueReminder('2026-08-07', over, 'standard', new Set())).toBeNull();
    expect(overdueReminder('2026-11-20', over, 'standard', new Set([sentKey('2026-27', 1)]))?.text).toBe('Your quarterly update for 6 Jul–5 Oct was due 7 Nov and is not marked as sent');
    expect(overdueReminder('2026-11-20', over, 'calendar', new Set([sentKey('2026-27', 1)]))?.text).toBe('Your quarterly update for 1 Jul–30 Sept was due 7 Nov and is not marked as sent');
    expect(overdueReminder('2026-11-20', over, 'standard', new Set([sentKey('2026-27', 1), sentKey('2026-27', 2)]))).toBeNull();
    expect(overdueReminder('2026-11-20', () => 0, 'standard', new Set())).toBeNull();
  });

  it('mentions the final declaration from 60 days before 31 January after the year', () => {
    expect(finalDeclarationReminder('2027-12-02', over)?.text).toBe('Your 2026–27 final declaration is due 31 Jan 2028');
    expect(finalDeclarationReminder('2028-01-31', over)?.kind).toBe('finalDeclaration');
    expect(finalDeclarationReminder('2027-11-30', over)).toBeNull();
    expect(finalDeclarationReminder('2028-02-01', over)).toBeNull();
    expect(finalDeclarationReminder('2027-12-02', () => 0)).toBeNull();
  });
});

describe('changes since sent', () => {
  const turnover = (sent: number, now: number) => ({ field: 'periodIncome.turnover', sent, now });
  it.each([
    ['nothing uncarried: quiet', [], null],
    [
      'a Q1 change after Q2 was sent: the quarter, the difference and the next update',
      [{ year: '2025-26', quarters: [1], lastSent: 2, changes: [turnover(390_00, 415_00)] }],
      'Your Q1 2025–26 records changed since the update was sent: Turnover +£25.00. The change goes into your next cumulative update (Q3).',
    ],
    [
      'a lower figure, and changes in two quarters',
      [{ year: '2026-27', quarters: [1, 2], lastSent: 2, changes: [turnover(500_00, 480_00), { field: 'periodExpenses.adminCosts', sent: 10_00, now: 25_50 }] }],
      'Your Q1 and Q2 2026–27 records changed since the update was sent: Turnover −£20.00; Admin costs +£15.50. The change goes into your next cumulative update (Q3).',
    ],
    [
      'after Q4: the final declaration carries it',
      [{ year: '2025-26', quarters: [4], lastSent: 4, changes: [{ field: 'periodDisallowableExpenses.carVanTravelExpensesDisallowable', sent: 0, now: 65_00 }] }],
      'Your Q4 2025–26 records changed since the update was sent: Car, van and travel: not claimed +£65.00. The change goes into your final declaration.',
    ],
    [
      'three figures named, then "and N more"; two years, one sentence each',
      [
        { year: '2025-26', quarters: [1, 2, 3], lastSent: 3, changes: [turnover(1, 2), turnover(1, 3), turnover(1, 4), turnover(1, 5)] },
        { year: '2026-27', quarters: [1], lastSent: 1, changes: [turnover(0, 1)] },
      ],
      'Your Q1, Q2 and Q3 2025–26 records changed since the update was sent: Turnover +£0.01; Turnover +£0.02; Turnover +£0.03 and 1 more. The change goes into your next cumulative update (Q4). Your Q1 2026–27 records changed since the update was sent: Turnover +£0.01. The change goes into your next cumulative update (Q2).',
    ],
  ] as const)('%s', (_, uncarried, text) => {
    const reminder = changedSinceSentReminder(uncarried);
    expect(reminder?.text ?? null).toBe(text);
    if (reminder) expect(reminder).toMatchObject({ kind: 'changedSinceSent', link: { label: 'Open the updates', to: `/app/tax?year=${uncarried[0]!.year}#tax-updates` } });
  });

  it('is listed after an overdue update, whether or not MTD applies', () => {
    const uncarried = [{ year: '2025-26' as const, quarters: [1], lastSent: 2, changes: [turnover(1, 2)] }];
    const due = dueReminders({ today: TODAY, logged: worked(WEEKDAYS), incomeOf: () => 0, receipts: { waiting: 1, failed: 0 }, uncarried });
    expect(due.map((reminder) => reminder.kind)).toEqual(['changedSinceSent', 'receipts']);
  });
});

describe('dueReminders', () => {
  it('lists what is due, in a fixed order, and nothing when nothing is', () => {
    const logged = worked(WEEKDAYS, 8, ['2026-11-16']);
    const due = dueReminders({ today: '2026-11-24', logged, incomeOf: () => 0, receipts: { waiting: 1, failed: 0 } });
    expect(due.map((reminder) => reminder.kind)).toEqual(['unlogged', 'receipts']);
    expect(dueReminders({ today: TODAY, logged: worked(WEEKDAYS), incomeOf: () => 0, receipts: { waiting: 0, failed: 0 } })).toEqual([]);
  });
});

describe('a statement query with no answer', () => {
  const query = (id: string, sentOn: string | null, more: Partial<TrackedQuery> = {}): TrackedQuery => ({
    id,
    madeOn: '2026-11-01',
    sentOn,
    answeredOn: null,
    paidBackAmount: null,
    paidBackOn: null,
    paidBackCheckId: null,
    closedOn: null,
    note: '',
    ...more,
  });

  it('is due N days after it was sent, names the oldest and opens it', () => {
    // Sent 10 November: due on the 24th with 14 days, not the day before.
    expect(unansweredQueryReminder('2026-11-23', [query('q1', '2026-11-10')], 14)).toBeNull();
    expect(unansweredQueryReminder(TODAY, [query('q1', '2026-11-10')], 14)).toEqual({
      kind: 'queryUnanswered',
      text: 'Your statement query of 01/11/2026, sent 10/11/2026, has had no answer for 14 days or more',
      link: { label: 'Open the query', to: '/app/statement-query?id=q1' },
    });
    const two = unansweredQueryReminder(TODAY, [query('q2', '2026-11-20'), query('q1', '2026-11-02')], 3);
    expect(two?.text).toBe('Your statement query of 01/11/2026, sent 02/11/2026, has had no answer for 3 days or more (and 1 more query)');
    expect(two?.link.to).toBe('/app/statement-query?id=q1');
  });

  it('is not due unsent, answered, paid back or closed, and the setting moves it', () => {
    const settled = [
      query('a', null),
      query('b', '2026-10-01', { answeredOn: '2026-10-05' }),
      query('c', '2026-10-01', { paidBackAmount: 100, paidBackOn: '2026-10-20' }),
      query('d', '2026-10-01', { closedOn: '2026-10-20' }),
    ];
    expect(unansweredQueryReminder(TODAY, settled, 1)).toBeNull();
    expect(unansweredQueryReminder(TODAY, [query('q', '2026-10-01')], 90)).toBeNull();
    expect(dueReminders({ today: TODAY, logged: new Set(), incomeOf: () => 0, receipts: { waiting: 0, failed: 0 }, queries: [query('q', '2026-11-10')] }).map((r) => r.kind)).toEqual(['queryUnanswered']);
    expect(dueReminders({ today: TODAY, logged: new Set(), incomeOf: () => 0, receipts: { waiting: 0, failed: 0 }, queries: [query('q', '2026-11-10')], queryReminderDays: 15 })).toEqual([]);
  });
});
