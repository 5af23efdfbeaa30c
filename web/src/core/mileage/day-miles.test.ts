import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayCommuteOf, dayMiles, lastFinishOf, MAX_DAY_MILES } from './day-miles';

describe('dayMiles', () => {
  it('takes the day’s commute off the distance between the readings', () => {
    // 130 miles driven, 6 miles each way to the depot.
    expect(dayMiles(42_000, 42_130, dayCommuteOf(6))).toEqual({ odometerStart: 42_000, odometerEnd: 42_130, businessMiles: 118, commuteMiles: 12 });
    expect(dayMiles(42_000, 42_130, 0)).toEqual({ odometerStart: 42_000, odometerEnd: 42_130, businessMiles: 130, commuteMiles: 0 });
  });

  it('makes a day shorter than the commute all commute, never negative business miles', () => {
    expect(dayMiles(100, 105, 12)).toEqual({ odometerStart: 100, odometerEnd: 105, businessMiles: 0, commuteMiles: 5 });
  });

  it('refuses readings that cannot make a day', () => {
    expect(dayMiles(200, 100, 0)).toBeNull();
    expect(dayMiles(0, MAX_DAY_MILES + 1, 0)).toBeNull();
    expect(dayMiles(-1, 10, 0)).toBeNull();
    expect(dayMiles(1.5, 10, 0)).toBeNull();
  });

  it('never gives negative miles, adds up to the distance, and takes the commute off only once', () => {
    fc.assert(
      fc.property(fc.nat(9_990_000), fc.nat(MAX_DAY_MILES), fc.nat(1_000), (start, driven, commute) => {
        const day = dayMiles(start, start + driven, commute);
        expect(day).not.toBeNull();
        if (!day) return;
        expect(day.businessMiles).toBeGreaterThanOrEqual(0);
        expect(day.commuteMiles).toBeGreaterThanOrEqual(0);
        expect(day.businessMiles + day.commuteMiles).toBe(driven);
        expect(day.commuteMiles).toBeLessThanOrEqual(commute);
        // Saving the day again (an edit that changes nothing) works from the readings, so the
        // commute is not taken off the business miles a second time.
        expect(dayMiles(day.odometerStart, day.odometerEnd, day.commuteMiles)).toEqual(day);
        expect(dayMiles(day.odometerStart, day.odometerEnd, commute)).toEqual(day);
        // The business miles are exactly max(0, driven − commute): the commute counts once.
        expect(day.businessMiles).toBe(Math.max(0, driven - commute));
      }),
    );
  });
});

describe('lastFinishOf', () => {
  const record = (vehicleId: string, date: string, odometerEnd: number | null, createdAt = `${date}T20:00:00Z`, deleted: 0 | 1 = 0) => ({ vehicleId, date, odometerEnd, createdAt, deleted });

  it('is the finish of the vehicle’s latest earlier day', () => {
    const log = [record('van', '2026-03-02', 42_130), record('van', '2026-03-03', 42_260), record('car', '2026-03-04', 9_000), record('van', '2026-03-01', 42_000)];
    expect(lastFinishOf(log, 'van', '2026-03-04')).toBe(42_260);
    expect(lastFinishOf(log, 'van', '2026-03-03')).toBe(42_130);
    expect(lastFinishOf(log, 'car', '2026-03-04')).toBeNull();
    expect(lastFinishOf(log, 'bike', '2026-03-04')).toBeNull();
  });

  it('skips deleted records and days without readings; of one day, the later-made', () => {
    const log = [
      record('van', '2026-03-02', 42_130, '2026-03-02T10:00:00Z'),
      record('van', '2026-03-02', 42_150, '2026-03-02T21:00:00Z'),
      record('van', '2026-03-03', 99_999, undefined, 1),
      record('van', '2026-03-03', null),
    ];
    expect(lastFinishOf(log, 'van', '2026-03-04')).toBe(42_150);
  });
});
