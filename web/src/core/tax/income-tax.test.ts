import { describe, expect, it } from 'vitest';
import { incomeTax, personalAllowanceFor } from './income-tax';
import { taxYearRates, type TaxYearRates } from './tax-year';

const rates = (label: '2024-25' | '2025-26' | '2026-27'): TaxYearRates => taxYearRates(label).rates;
const pounds = (value: number) => value * 100;

describe('Income Tax, rest of the UK and Scottish bands', () => {
  // Scottish Parliament Information Centre (SPICe), "Scottish Budget 2026-27", Table 8
  // "Differences between Scottish and rUK income tax liabilities, 2026-27": annual earnings, the
  // Scottish income tax payable, and the difference compared with rUK (whole pounds). The rUK
  // figure is the Scottish one less that difference. Both with the standard Personal Allowance,
  // tapered above £100,000 (so £150,000 has none).
  it.each([
    // earnings, Scotland, difference with rUK
    [20_000, 1_446, -40],
    [25_000, 2_446, -40],
    [30_000, 3_451, -35],
    [35_000, 4_501, 15],
    [40_000, 5_551, 65],
    [45_000, 6_882, 396],
    [50_000, 8_982, 1_496],
    [55_000, 11_082, 1_650],
    [60_000, 13_182, 1_750],
    [100_000, 30_732, 3_300],
    [150_000, 59_634, 5_931],
  ])('£%i in 2026-27: Scotland £%i, %i more than the rest of the UK', (earnings, scotland, difference) => {
    const scottish = incomeTax(pounds(earnings), rates('2026-27'), 'scotland');
    const uk = incomeTax(pounds(earnings), rates('2026-27'), 'uk');
    expect(Math.round(scottish.tax / 100)).toBe(scotland);
    expect(Math.round(uk.tax / 100)).toBe(scotland - difference);
  });

  it('keeps the pence, rounded down, and shows each band', () => {
    // £30,000 in Scotland 2026-27: taxable £17,430 = £3,967 × 19% (£753.73) + £12,989 × 20%
    // (£2,597.80) + £474 × 21% (£99.54) = £3,451.07.
    const scottish = incomeTax(pounds(30_000), rates('2026-27'), 'scotland');
    expect(scottish.personalAllowance).toBe(pounds(12_570));
    expect(scottish.taxableIncome).toBe(pounds(17_430));
    expect(scottish.bands.map((band) => [band.name, band.income, band.tax])).toEqual([
      ['Starter rate', pounds(3_967), 75_373],
      ['Basic rate', pounds(12_989), 259_780],
      ['Intermediate rate', pounds(474), 9_954],
    ]);
    expect(scottish.tax).toBe(345_107);
    // A penny of taxable income at 20% is 0.2p: rounded down, in the driver's favour.
    expect(incomeTax(pounds(12_570) + 1, rates('2025-26'), 'uk').tax).toBe(0);
    expect(incomeTax(pounds(12_570) + 5, rates('2025-26'), 'uk').tax).toBe(1);
  });

  // Chartered Institute of Taxation, "New Scottish tax year: divergence means differences
  // continue" (April 2025): "Scottish taxpayers earning more than £30,318 will pay more income
  // tax than a taxpayer in the rest of the UK … up from £28,867 in 2024/25", and someone earning
  // under £30,318 "would pay £28.27 a year … less".
  it('matches the published points where Scotland and the rest of the UK pay the same', () => {
    for (const [label, earnings] of [['2025-26', 30_318], ['2024-25', 28_867]] as const) {
      const scottish = incomeTax(pounds(earnings), rates(label), 'scotland').tax;
      expect(scottish).toBe(incomeTax(pounds(earnings), rates(label), 'uk').tax);
      expect(incomeTax(pounds(earnings + 1), rates(label), 'scotland').tax).toBeGreaterThan(incomeTax(pounds(earnings + 1), rates(label), 'uk').tax);
    }
    expect(incomeTax(pounds(30_318), rates('2025-26'), 'uk').tax).toBe(354_960);
    // The starter band's whole saving: £2,827 × 1%.
    const uk = incomeTax(pounds(20_000), rates('2025-26'), 'uk').tax;
    expect(uk - incomeTax(pounds(20_000), rates('2025-26'), 'scotland').tax).toBe(2_827);
  });

  it('charges nothing up to the Personal Allowance, and nothing on a loss', () => {
    expect(incomeTax(pounds(12_570), rates('2025-26'), 'uk').tax).toBe(0);
    expect(incomeTax(pounds(12_570), rates('2025-26'), 'scotland').tax).toBe(0);
    expect(incomeTax(-50_000, rates('2025-26'), 'uk')).toMatchObject({ tax: 0, taxableIncome: 0, bands: [] });
  });
});

describe('the Personal Allowance taper', () => {
  // GOV.UK "Income Tax rates and Personal Allowances": "Your Personal Allowance goes down by £1
  // for every £2 of income above £100,000. This means your allowance is zero if your income is
  // £125,140 or above."
  it.each([
    [100_000, 12_570],
    [100_002, 12_569],
    // An odd pound over takes nothing more: £1 for every whole £2.
    [100_003, 12_569],
    [110_000, 7_570],
    [125_138, 1],
    [125_140, 0],
    [200_000, 0],
  ])('£%i of income leaves an allowance of £%i', (income, allowance) => {
    expect(personalAllowanceFor(pounds(income), rates('2025-26'))).toBe(pounds(allowance));
  });

  it('taxes the £100,000–£125,140 slice at 60% in effect (40% plus the allowance lost)', () => {
    const at = (income: number) => incomeTax(pounds(income), rates('2025-26'), 'uk').tax;
    // £100,000: £37,700 × 20% + £49,730 × 40% = £27,432.
    expect(at(100_000)).toBe(pounds(27_432));
    expect(at(110_000) - at(100_000)).toBe(pounds(6_000));
    // £125,140: no allowance; £37,700 × 20% + £87,440 × 40% = £42,516.
    expect(at(125_140)).toBe(pounds(42_516));
    // Above it the additional rate: £10,000 more at 45%.
    expect(at(135_140) - at(125_140)).toBe(pounds(4_500));
  });
});
