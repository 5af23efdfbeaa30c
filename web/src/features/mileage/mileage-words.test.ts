import { describe, expect, it } from 'vitest';
import { breakProgressWords, businessUseWords, claimLineWords, methodWords, milesWords } from './mileage-words';

const CAR = { firstMilesPence: 45, afterPence: 25, thresholdMiles: 10_000 };
const line = (first: number, after: number) => ({ recordId: 'r', date: '2026-05-01', vehicleId: 'v', businessMiles: first + after, milesAtFirstRate: first, milesAtAfterRate: after, claimPence: 0 });

describe('mileage words', () => {
  it('says each method from the year’s tax data', () => {
    expect(methodWords({ type: 'carVan', method: 'flatRate' }, '2026-27')).toBe('Flat rate: 45p a mile for the first 10,000 business miles, then 25p');
    expect(methodWords({ type: 'motorcycle', method: 'flatRate' }, '2026-27')).toBe('Flat rate: 24p a mile');
    expect(methodWords({ type: 'carVan', method: 'actualCosts' }, '2026-27')).toBe('Actual costs, times the business-use share from the log');
    expect(methodWords({ type: 'bicycle', method: 'actualCosts' }, '2026-27')).toBe('Actual costs: HMRC’s flat mileage rate does not cover bicycles');
  });

  it('splits the day that crosses the 10,000-mile break', () => {
    expect(claimLineWords(line(10, 20), CAR)).toBe('10 miles at 45p + 20 at 25p');
    expect(claimLineWords(line(1, 0), CAR)).toBe('1 mile at 45p');
    expect(claimLineWords(line(0, 2000), CAR)).toBe('2,000 miles at 25p');
  });

  it('says the business-use share and the way to the break', () => {
    expect(businessUseWords(62, 100)).toBe('62% business use from the log');
    expect(businessUseWords(0, 0)).toBe('No miles logged: the business-use share comes from the log');
    expect(breakProgressWords(6_200, CAR)).toBe('6,200 of the first 10,000 miles at 45p: 3,800 miles to go');
    expect(breakProgressWords(10_020, CAR)).toBe('Past the first 10,000 miles: 20 miles at 25p so far');
    expect(breakProgressWords(500, { firstMilesPence: 24, afterPence: 24, thresholdMiles: 10_000 })).toBeNull();
    expect(milesWords(10_000)).toBe('10,000 miles');
  });
});
