import { describe, expect, it } from 'vitest';
import { payFor, DEFAULT_TIERS } from '@/core/pay/pay';
import { periodHolding, type PeriodRule } from '@/core/pay-periods/pay-period';
import { addDays } from '@/lib/week';
import { chargesBetween, checkStatement, resultWords, statementFindings, statementResult, type StatementDeduction, type StatementEntry, type StatementFigures } from './statement-check';

const COURIER = 'courier-a';
const OTHER = 'courier-b';
const FOUR_FOUR_FIVE: PeriodRule = { periodKind: 'fourFourFive', periodAnchor: '2025-01-05', arrearsWeeks: 2 };

const day = (date: string, stops: number, more: Partial<StatementEntry> = {}): StatementEntry => ({
  date,
  courierId: COURIER,
  stops,
  total: payFor(DEFAULT_TIERS, stops),
  parcels: null,
  collections: null,
  ...more,
});

const statement = (period: { start: string; end: string }, figures: Partial<StatementFigures>): StatementFigures => ({
  periodStart: period.start,
  periodEnd: period.end,
  courierId: COURIER,
  paid: 0,
  stops: null,
  parcels: null,
  collections: null,
  deductions: null,
  ...figures,
});

// The 5-week period of the first 4-4-5 cycle of 2025: Sun 02/03/2025 – Sat 05/04/2025.
const PERIOD = periodHolding(FOUR_FOUR_FIVE, '2025-03-11');
// Monday to Friday of each of the five weeks, stops 100 + the day's number in the period, so
// every day's total is different.
const DAYS = Array.from({ length: 35 }, (_, i) => addDays(PERIOD.start, i))
  .filter((date) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))
  .map((date, i) => day(date, 100 + i));
const VAN: StatementDeduction = { courierId: COURIER, label: 'Van hire', amount: 19_500, repeat: 'weekly', from: '2025-01-06', to: null };
const ADMIN: StatementDeduction = { courierId: COURIER, label: 'Admin fee', amount: 1_250, repeat: 'once', from: '2025-03-10', to: null };
const DEDUCTIONS = [VAN, ADMIN];
const GROSS = DAYS.reduce((sum, d) => sum + d.total, 0);
const STOPS = DAYS.reduce((sum, d) => sum + d.stops, 0);
const LOG_DEDUCTIONS = 5 * 19_500 + 1_250;
const AROUND = { from: periodHolding(FOUR_FOUR_FIVE, addDays(PERIOD.start, -1)).start, to: periodHolding(FOUR_FOUR_FIVE, addDays(PERIOD.end, 1)).end };

const figures = (check: ReturnType<typeof checkStatement>) => Object.fromEntries(check.lines.map((l) => [l.id, [l.log, l.statement, l.difference]]));

describe('statement check lines', () => {
  it('is a 35-day period with 25 working days and five weekly van hire charges', () => {
    expect(PERIOD).toEqual({ start: '2025-03-02', end: '2025-04-05' });
    expect(DAYS).toHaveLength(25);
    expect(chargesBetween(DEDUCTIONS, PERIOD.start, PERIOD.end).map((c) => `${c.label} ${c.date}`)).toEqual([
      'Van hire 2025-03-03',
      'Admin fee 2025-03-10',
      'Van hire 2025-03-10',
      'Van hire 2025-03-17',
      'Van hire 2025-03-24',
      'Van hire 2025-03-31',
    ]);
  });

  it('compares every figure the statement gives, line by line, and agrees when all match', () => {
    const check = checkStatement(
      statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS, stops: STOPS, deductions: LOG_DEDUCTIONS }),
      DAYS,
      DEDUCTIONS,
      AROUND,
    );
    expect(figures(check)).toEqual({
      stops: [STOPS, STOPS, 0],
      gross: [GROSS, GROSS, 0],
      deductions: [LOG_DEDUCTIONS, LOG_DEDUCTIONS, 0],
      net: [GROSS - LOG_DEDUCTIONS, GROSS - LOG_DEDUCTIONS, 0],
    });
    expect(check.agrees).toBe(true);
    expect(statementFindings(check)).toEqual(['Every line agrees with your log.']);
  });

  it('names the day and the deduction behind a 4-4-5 statement short by one day’s pay with one extra charge', () => {
    const missing = DAYS.find((d) => d.date === '2025-03-11')!; // Tue, the 7th working day: 106 stops
    const check = checkStatement(
      statement(PERIOD, {
        paid: GROSS - missing.total - (LOG_DEDUCTIONS + 1_250),
        stops: STOPS - missing.stops,
        deductions: LOG_DEDUCTIONS + 1_250,
      }),
      DAYS,
      DEDUCTIONS,
      AROUND,
    );
    expect(figures(check)).toEqual({
      stops: [STOPS, STOPS - 106, -106],
      gross: [GROSS, GROSS - 20_988, -20_988],
      deductions: [LOG_DEDUCTIONS, LOG_DEDUCTIONS + 1_250, 1_250],
      net: [GROSS - LOG_DEDUCTIONS, GROSS - 20_988 - LOG_DEDUCTIONS - 1_250, -20_988 - 1_250],
    });
    expect(check.agrees).toBe(false);
    expect(check.deductions).toEqual({ kind: 'charged-twice', charges: [{ label: 'Admin fee', date: '2025-03-10', amount: 1_250 }], alternatives: 0 });
    expect(statementFindings(check)).toEqual([
      'Tue 11/03/2025 (106 stops, £209.88) is missing from the statement.',
      'Admin fee on 10/03/2025 (£12.50) is charged twice.',
    ]);
  });

  it('counts only the statement’s courier’s days and deductions', () => {
    const others = [day('2025-03-12', 300, { courierId: OTHER })];
    const otherDeduction = { ...VAN, courierId: OTHER, amount: 50_000 };
    const check = checkStatement(statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS, deductions: LOG_DEDUCTIONS }), [...DAYS, ...others], [...DEDUCTIONS, otherDeduction]);
    expect(check.agrees).toBe(true);
    expect(check.gross.daysLogged).toBe(25);
  });

  it('names a weekly charge taken twice, and counts the other dates it could be', () => {
    const check = checkStatement(statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS - 19_500, deductions: LOG_DEDUCTIONS + 19_500 }), DAYS, DEDUCTIONS);
    expect(statementFindings(check)).toEqual(['Van hire on 03/03/2025 (£195.00) is charged twice. 4 other charges match too, so check which.']);
  });

  it('names a charge the log has that the statement leaves out', () => {
    const check = checkStatement(statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS + 1_250, deductions: LOG_DEDUCTIONS - 1_250 }), DAYS, DEDUCTIONS);
    expect(check.deductions).toMatchObject({ kind: 'not-on-statement', alternatives: 0 });
    expect(statementFindings(check)).toEqual(['Admin fee on 10/03/2025 (£12.50) is in your log but not on the statement.']);
  });

  it('names a charge of the next period taken early, which is not in the log for this one', () => {
    // Device rent starts in the next period (06/04 – 03/05): none in this one.
    const rent: StatementDeduction = { courierId: COURIER, label: 'Device rent', amount: 1_800, repeat: 'monthly', from: '2025-04-08', to: null };
    const check = checkStatement(
      statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS - 1_800, deductions: LOG_DEDUCTIONS + 1_800 }),
      DAYS,
      [...DEDUCTIONS, rent],
      AROUND,
    );
    // Said as a charge taken at another time, with its date and period: not as one the log lacks.
    expect(statementFindings(check)).toEqual(['Device rent of £18.00 was taken on 08/04/2025, in the period 06/04–03/05: this statement takes it.']);
    expect(check.deductions).toMatchObject({ kind: 'other-period', charges: [{ label: 'Device rent', date: '2025-04-08', period: { start: '2025-04-06', end: '2025-05-03' } }] });
    // Without the neighbouring periods nothing explains it.
    const alone = checkStatement(statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS - 1_800, deductions: LOG_DEDUCTIONS + 1_800 }), DAYS, [...DEDUCTIONS, rent]);
    expect(statementFindings(alone)).toEqual(['The statement takes £18.00 more in deductions than your log, and no charge in your log makes up the difference.']);
  });

  it('reads a statement without a deductions figure as taking the log’s deductions', () => {
    const missing = DAYS[0]!;
    const check = checkStatement(statement(PERIOD, { paid: GROSS - LOG_DEDUCTIONS - missing.total }), DAYS, DEDUCTIONS);
    expect(figures(check)).toMatchObject({
      gross: [GROSS, GROSS - missing.total, -missing.total],
      deductions: [LOG_DEDUCTIONS, null, null],
      net: [GROSS - LOG_DEDUCTIONS, GROSS - LOG_DEDUCTIONS - missing.total, -missing.total],
    });
    expect(check.deductions).toEqual({ kind: 'not-given' });
    expect(statementFindings(check)).toEqual(['Mon 03/03/2025 (100 stops, £198.00) is missing from the statement.']);
  });

  it('compares parcels and collections when either side has them', () => {
    const days = [day('2025-03-03', 100, { parcels: 140, collections: 4 }), day('2025-03-04', 90, { parcels: 120, collections: null })];
    const gross = days[0]!.total + days[1]!.total;
    const check = checkStatement(statement(PERIOD, { paid: gross, parcels: 250, collections: null }), days, []);
    expect(figures(check)).toMatchObject({ parcels: [260, 250, -10], collections: [4, null, null] });
    expect(statementFindings(check)).toEqual(['The statement shows 10 parcels fewer than your log (250 against 260).']);
    const none = checkStatement(statement(PERIOD, { paid: 0 }), [], []);
    expect(none.lines.map((l) => l.id)).toEqual(['stops', 'gross', 'deductions', 'net']);
    expect(none.agrees).toBe(true);
  });

  it('says what it found in words: Matches, short, over, or counts that differ', () => {
    const words = (figures: Partial<StatementFigures>) => resultWords(statementResult(checkStatement(statement(PERIOD, figures), DAYS, DEDUCTIONS)));
    expect(words({ paid: GROSS - LOG_DEDUCTIONS, deductions: LOG_DEDUCTIONS })).toBe('Matches');
    expect(words({ paid: GROSS - LOG_DEDUCTIONS - 1_968 })).toBe('£19.68 short');
    expect(words({ paid: GROSS - LOG_DEDUCTIONS + 300 })).toBe('£3.00 over');
    expect(words({ paid: GROSS - LOG_DEDUCTIONS, stops: STOPS + 4 })).toBe('Paid right, counts differ');
    expect(words({ paid: GROSS - LOG_DEDUCTIONS, deductions: LOG_DEDUCTIONS + 1_250 })).toBe('Net matches, lines differ');
  });

  it('keeps the old invoice wording for a rate difference or an overpayment', () => {
    const rate = checkStatement(statement(PERIOD, { paid: GROSS - STOPS * 5, stops: STOPS }), DAYS, []);
    expect(statementFindings(rate)).toEqual([`Your statement is £${((STOPS * 5) / 100).toFixed(2)} short for the same ${STOPS.toLocaleString('en-GB')} stops: the rate paid is about £0.05 a stop lower than your log.`]);
    const over = checkStatement(statement(PERIOD, { paid: GROSS + 1_000 }), DAYS, []);
    expect(statementFindings(over)).toEqual(['You were paid £10.00 more than your log says.']);
  });
});
