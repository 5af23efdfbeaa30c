import { describe, expect, it } from 'vitest';
import { class2, class4 } from './national-insurance';
import { taxYearRates, type TaxYearRates } from './tax-year';

const pounds = (value: number) => value * 100;

// HMRC National Insurance Manual NIM24051 and NIM24161 work their examples with the 2012/13
// limits: Lower Profits Limit £7,605, Upper Profits Limit £42,475, 9% and 2%, Class 2 £2.65 a
// week (payable above the £5,595 small earnings exception). The function takes any year's data.
const rates2012: Pick<TaxYearRates, 'class4' | 'class2'> = {
  class4: { lowerProfitsLimit: pounds(7_605), upperProfitsLimit: pounds(42_475), mainPercent: 9, upperPercent: 2 },
  class2: { weeklyPence: 265, weeks: 52, voluntary: false, payableFromProfits: pounds(5_595) },
};

describe("Class 4 against HMRC's worked examples", () => {
  // NIM24051 Example 1: Ms Adams, profits £40,000: (£40,000 − £7,605) × 9% = £2,915.55.
  it('profits below the upper limit', () => {
    expect(class4(pounds(40_000), rates2012)).toEqual({ mainProfits: pounds(32_395), upperProfits: 0, mainPercent: 9, upperPercent: 2, contribution: 291_555 });
  });

  // NIM24051 Example 2: Mr Brownlee, profits £80,000: £34,870 × 9% = £3,138.30 plus
  // £37,525 × 2% = £750.50, £3,888.80.
  it('profits above the upper limit', () => {
    expect(class4(pounds(80_000), rates2012).contribution).toBe(388_880);
  });

  // NIM24161: Mr Copeland, £70,000: £3,138.30 + £550.50 Class 4, and 52 × £2.65 = £137.80
  // Class 2: £3,826.60 in all.
  it('adds Class 2 in a year it is compulsory', () => {
    const four = class4(pounds(70_000), rates2012).contribution;
    const two = class2(pounds(70_000), rates2012);
    expect([four, two]).toEqual([368_880, { payable: true, contribution: 13_780 }]);
    expect(four + two.contribution).toBe(382_660);
  });
});

describe('Class 4 thresholds in 2024-25 onwards', () => {
  // GOV.UK "Self-employed National Insurance rates" (2024 to 2025 and 2025 to 2026): 6% on
  // profits between £12,570 and £50,270, 2% on profits over £50,270.
  const { rates } = taxYearRates('2025-26');
  it.each([
    ['nothing at the lower limit', pounds(12_570), 0, 0],
    ['a penny over it is 0.06p, rounded down', pounds(12_570) + 1, 1, 0],
    ['£1,000 over it is £60', pounds(13_570), pounds(1_000), pounds(60)],
    ['exactly at the upper limit: £37,700 × 6%', pounds(50_270), pounds(37_700), pounds(2_262)],
    ['a penny over the upper limit adds 0.02p', pounds(50_270) + 1, pounds(37_700), pounds(2_262)],
    ['£60,000: £2,262 plus £9,730 × 2%', pounds(60_000), pounds(37_700), pounds(2_262) + 19_460],
  ])('%s', (_, profit, mainProfits, contribution) => {
    const result = class4(profit, rates);
    expect(result.mainProfits).toBe(mainProfits);
    expect(result.contribution).toBe(contribution);
  });

  it('has no upper-rate profits up to the upper limit, one penny of them just over', () => {
    expect(class4(pounds(50_270), rates).upperProfits).toBe(0);
    expect(class4(pounds(50_270) + 1, rates).upperProfits).toBe(1);
  });

  it('is nothing on a loss', () => {
    expect(class4(-10_000, rates).contribution).toBe(0);
  });
});

describe('Class 2', () => {
  // GOV.UK "Self-employed National Insurance rates": 2023 to 2024 Class 2 was £3.45 a week
  // (£179.40 a year) on profits of £12,570 or more; from 6 April 2024 it is voluntary.
  it('is owed in 2023-24 from £12,570 of profit', () => {
    const { rates } = taxYearRates('2023-24');
    expect(class2(pounds(12_570), rates)).toEqual({ payable: true, contribution: 17_940 });
    expect(class2(pounds(12_570) - 1, rates)).toEqual({ payable: false, contribution: 0 });
    // 2023-24's Class 4 main rate was 9%: £30,000 − £12,570 = £17,430 × 9% = £1,568.70.
    expect(class4(pounds(30_000), rates).contribution).toBe(156_870);
  });

  it('adds nothing in the years it is voluntary', () => {
    for (const label of ['2024-25', '2025-26', '2026-27'] as const) {
      expect(class2(pounds(40_000), taxYearRates(label).rates)).toEqual({ payable: false, contribution: 0 });
    }
  });
});
