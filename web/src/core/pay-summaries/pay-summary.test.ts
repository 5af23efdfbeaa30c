import { describe, expect, it } from 'vitest';
import { payFigures, paySummary, type PayDay, type PayDeduction } from './pay-summary';

const A = 'courier-a';
const B = 'courier-b';

const day = (date: string, total: number, over: Partial<PayDay> = {}): PayDay => ({
  date,
  stops: 100,
  total,
  courierId: A,
  startTime: null,
  finishTime: null,
  ...over,
});

const vanHire: PayDeduction = { courierId: A, amount: 20_000, repeat: 'weekly', from: '2025-03-03', to: null };

describe('payFigures', () => {
  it('is all zeros, with no rates, for an empty period', () => {
    expect(payFigures([], [], '2025-03-16', '2025-03-22')).toEqual({
      gross: 0,
      deductions: 0,
      net: 0,
      stops: 0,
      daysWorked: 0,
      minutesWorked: 0,
      perHour: null,
      timedDays: 0,
      netPerHour: null,
      perStop: null,
      parcels: 0,
      perParcel: null,
    });
  });

  it('adds the days inside the period, takes off the charges inside it, to the penny', () => {
    const days = [
      day('2025-03-15', 99_999), // Saturday before: outside
      day('2025-03-17', 19_801, { stops: 100 }),
      day('2025-03-17', 1_000, { stops: 5 }), // a second entry on Monday: one day worked
      day('2025-03-22', 23_260, { stops: 120 }),
      day('2025-03-23', 99_999), // Sunday after: outside
    ];
    // Van hire falls on Mondays: 03/03, 10/03, 17/03 (inside), 24/03.
    expect(payFigures(days, [vanHire], '2025-03-16', '2025-03-22')).toMatchObject({
      gross: 44_061,
      deductions: 20_000,
      net: 24_061,
      stops: 225,
      daysWorked: 2,
    });
  });

  it('goes negative when the charges outweigh the work', () => {
    expect(payFigures([day('2025-03-18', 5_000)], [vanHire], '2025-03-16', '2025-03-22')).toMatchObject({ gross: 5_000, net: -15_000 });
  });

  it('works £ per hour over the days with both times, to the nearest penny (halves up), after midnight too', () => {
    const days = [
      day('2025-03-17', 10_000, { startTime: '07:00', finishTime: '14:00' }), // 7 h
      day('2025-03-18', 5_000, { startTime: '22:00', finishTime: '02:00' }), // 4 h across midnight
      day('2025-03-19', 50_000), // no times: not in the rate
      day('2025-03-20', 9_999, { startTime: '09:00', finishTime: '09:00' }), // no time worked: not in the rate
    ];
    const figures = payFigures(days, [], '2025-03-16', '2025-03-22');
    expect(figures.minutesWorked).toBe(11 * 60);
    // £150.00 over 11 hours = 1363.6363… pence an hour.
    expect(figures.perHour).toBe(1_364);
    expect(figures.gross).toBe(74_999);
  });

  it('works £ per hour net of deductions too, with the days it counts', () => {
    // £175 of van hire and fees in a week of three days, two of them timed (8 h and 9 h).
    const days = [
      day('2025-03-17', 20_000, { startTime: '08:00', finishTime: '16:00' }),
      day('2025-03-18', 22_000, { startTime: '07:00', finishTime: '16:00' }),
      day('2025-03-19', 18_000),
    ];
    const charges: PayDeduction[] = [{ courierId: 'c', amount: 17_500, repeat: 'once', from: '2025-03-17', to: null }];
    const figures = payFigures(days, charges, '2025-03-16', '2025-03-22');
    expect(figures).toMatchObject({ timedDays: 2, daysWorked: 3, minutesWorked: 17 * 60 });
    // Gross: £420 over 17 h = 2470.6p. Net: the two timed days carry 2/3 of £175 (£116.67):
    // (£420 − £116.67) over 17 h = 1784.3p.
    expect(figures.perHour).toBe(2_471);
    expect(figures.netPerHour).toBe(1_784);
    // Every day timed: net £ per hour is simply net over the hours.
    const allTimed = payFigures(days.slice(0, 2), charges, '2025-03-16', '2025-03-22');
    expect(allTimed.netPerHour).toBe(Math.round(((42_000 - 17_500) * 60) / (17 * 60)));
    // Charges beyond the work: a loss per hour, said as such.
    const heavy = payFigures([days[0]!], [{ ...charges[0]!, amount: 30_000 }], '2025-03-16', '2025-03-22');
    expect(heavy.netPerHour).toBe(-1_250);
    // No times: neither rate.
    expect(payFigures([days[2]!], charges, '2025-03-16', '2025-03-22')).toMatchObject({ perHour: null, netPerHour: null, timedDays: 0 });
  });

  it('rounds £ per hour half up at exactly half a penny', () => {
    // 101 pence over 2 hours is 50.5 pence an hour.
    expect(payFigures([day('2025-03-17', 101, { startTime: '08:00', finishTime: '10:00' })], [], '2025-03-17', '2025-03-17').perHour).toBe(51);
    // 100 pence over 40 minutes is 150 pence an hour, exactly.
    expect(payFigures([day('2025-03-17', 100, { startTime: '08:00', finishTime: '08:40' })], [], '2025-03-17', '2025-03-17').perHour).toBe(150);
  });

  it('works £ per stop over the days with stops, to the nearest penny (halves up)', () => {
    const days = [
      day('2025-03-17', 23_260, { stops: 120 }),
      day('2025-03-18', 12_000, { stops: 0 }), // a day rate with no stops: not in the rate
      day('2025-03-19', 1_001, { stops: 2 }),
    ];
    // (23260 + 1001) / 122 = 198.86…
    expect(payFigures(days, [], '2025-03-16', '2025-03-22').perStop).toBe(199);
    // 3 pence over 2 stops is 1.5: halves up.
    expect(payFigures([day('2025-03-17', 3, { stops: 2 })], [], '2025-03-17', '2025-03-17').perStop).toBe(2);
  });

  it('works £ per parcel over the days with parcels and no stops, never mixing them into £ per stop', () => {
    const days = [
      day('2025-03-16', 6_300, { stops: 0, parcels: 140 }), // an Evri Sunday, paid per parcel
      day('2025-03-17', 24_444, { stops: 128, parcels: 150 }), // parcels noted on a stops day
      day('2025-03-18', 12_000, { stops: 0, parcels: null }), // a day rate: in neither
    ];
    const figures = payFigures(days, [], '2025-03-16', '2025-03-22');
    expect(figures.perStop).toBe(Math.round(24_444 / 128)); // £1.91, not £0.81 over 268 "stops and parcels"
    expect([figures.parcels, figures.perParcel]).toEqual([140, 45]);
    expect(figures.gross).toBe(6_300 + 24_444 + 12_000);
    expect(figures.daysWorked).toBe(3);
    expect(payFigures([day('2025-03-17', 100, { stops: 10 })], [], '2025-03-17', '2025-03-17').perParcel).toBeNull();
  });
});

describe('paySummary', () => {
  const days = [
    day('2025-03-17', 20_000, { courierId: A, stops: 100 }),
    day('2025-03-18', 12_000, { courierId: B, stops: 60, startTime: '08:00', finishTime: '12:00' }),
    day('2025-03-19', 18_000, { courierId: A, stops: 90 }),
  ];
  const deductions: PayDeduction[] = [vanHire, { courierId: B, amount: 500, repeat: 'once', from: '2025-03-18', to: null }];

  it('gives the combined figures and each courier’s own, in the given order', () => {
    const summary = paySummary(days, deductions, '2025-03-16', '2025-03-22', [B, A]);
    expect(summary).toMatchObject({ gross: 50_000, deductions: 20_500, net: 29_500, stops: 250, daysWorked: 3, perHour: 3_000, perStop: 200 });
    expect(summary.byCourier.map(({ courierId, gross, deductions: charged, net, perHour, perStop }) => ({ courierId, gross, charged, net, perHour, perStop }))).toEqual([
      { courierId: B, gross: 12_000, charged: 500, net: 11_500, perHour: 3_000, perStop: 200 },
      { courierId: A, gross: 38_000, charged: 20_000, net: 18_000, perHour: null, perStop: 200 },
    ]);
    // The parts add up to the whole.
    expect(summary.byCourier.reduce((sum, c) => sum + c.net, 0)).toBe(summary.net);
  });

  it('lists a courier that only charged in the period, and none that did nothing in it', () => {
    const summary = paySummary([day('2025-03-18', 12_000, { courierId: B })], deductions, '2025-03-16', '2025-03-22', [A, B]);
    expect(summary.byCourier.map((c) => [c.courierId, c.gross, c.deductions])).toEqual([
      [A, 0, 20_000],
      [B, 12_000, 500],
    ]);
    expect(paySummary(days, deductions, '2025-03-20', '2025-03-22', [A, B]).byCourier).toEqual([]);
  });

  it('puts couriers it was not told the order of last, by id', () => {
    const summary = paySummary([day('2025-03-18', 1, { courierId: 'z' }), day('2025-03-18', 1, { courierId: 'y' }), day('2025-03-18', 1, { courierId: A })], [], '2025-03-18', '2025-03-18', [A]);
    expect(summary.byCourier.map((c) => c.courierId)).toEqual([A, 'y', 'z']);
  });
});
