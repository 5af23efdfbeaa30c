// Every rate and threshold of tax-years.json against the published sources. The table below is
// typed by hand from the pages named beside each figure, in the sources' own words and units
// (pounds, gross-income ranges as GOV.UK and the Scottish Government print them), never copied
// from the data file: a figure that disagrees with its source fails here, whoever typed it.
//
// Income Tax bands are published as ranges of income for someone with the standard Personal
// Allowance ("Starter rate £12,571 to £16,537"). The data holds upper limits of taxable income
// (after the allowance), so the test turns a published top into taxable income the way the law
// does: below the taper threshold the standard allowance is still whole, so the taxable top is
// the published top less the allowance; a top at or above the point where the taper has taken
// the whole allowance (£100,000 + 2 × £12,570 = £125,140) is taxable income already.
import { consolidatedExpensesBelow } from '@/core/mtd/quarters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { incomeTax, personalAllowanceFor } from './income-tax';
import { knownTaxYears, mtdRules, taxYearRates, type IncomeTaxRegion, type TaxYearLabel } from './tax-year';

/** A band as published: its name, the income range's top (null: "over …") and its rate. */
type PublishedBand = [name: string, top: number | null, percent: number];

interface PublishedYear {
  personalAllowance: number;
  taperFrom: number;
  uk: PublishedBand[];
  scotland: PublishedBand[];
  class4: { lowerProfitsLimit: number; upperProfitsLimit: number; mainPercent: number; upperPercent: number };
  /** Class 2 a week in pence; compulsory from this profit (pounds), or null when voluntary. */
  class2: { weeklyPence: number; compulsoryFrom: number | null };
  tradingAllowance: number;
  paymentsOnAccountFrom: number;
  mileage: { carVanFirst: number; carVanAfter: number; carVanThreshold: number; motorcycle: number };
}

// Figures common to several years, each cited where it is used.
//
// GOV.UK "Income Tax rates and Personal Allowances" (gov.uk/income-tax-rates, and its "Previous
// tax years" page for 2023-24 and 2024-25): "Personal Allowance Up to £12,570 0%, Basic rate
// £12,571 to £50,270 20%, Higher rate £50,271 to £125,140 40%, Additional rate over £125,140
// 45%", and "Your Personal Allowance goes down by £1 for every £2 of income above £100,000".
// The same for 2026-27: the allowance and bands stay frozen (Scottish Budget 2026-27 as reported
// by ICB, bookkeepers.org.uk, 13 January 2026: "the standard UK Personal Allowance (£12,570 in
// 2026/27)"; the UK thresholds are frozen to April 2028 and beyond).
const UK_BANDS: PublishedBand[] = [
  ['Basic rate', 50_270, 20],
  ['Higher rate', 125_140, 40],
  ['Additional rate', null, 45],
];

// GOV.UK "Simplified expenses if you're self-employed: Vehicles"
// (gov.uk/simpler-income-tax-simplified-expenses/vehicles-): "Cars and goods vehicles first
// 10,000 miles 45p, Cars and goods vehicles after 10,000 miles 25p, Motorcycles 24p". Bicycles
// have no flat rate there (ITTOIA 2005 s94D covers cars, goods vehicles and motorcycles).
const MILEAGE = { carVanFirst: 45, carVanAfter: 25, carVanThreshold: 10_000, motorcycle: 24 };

// GOV.UK "Tax-free allowances on property and trading income": a £1,000 trading allowance.
// GOV.UK "Understanding your Self Assessment tax bill: payments on account": none are due when
// the last bill was less than £1,000.
const ALLOWANCES = { tradingAllowance: 1_000, paymentsOnAccountFrom: 1_000 };

// GOV.UK "Self-employed National Insurance rates" (gov.uk/self-employed-national-insurance-rates):
// 2024 to 2025 onwards "6% on profits between £12,570 and £50,270, 2% on profits over £50,270".
const CLASS_4_FROM_2024 = { lowerProfitsLimit: 12_570, upperProfitsLimit: 50_270, mainPercent: 6, upperPercent: 2 };

const PUBLISHED: Record<string, PublishedYear> = {
  '2023-24': {
    personalAllowance: 12_570,
    taperFrom: 100_000,
    uk: UK_BANDS,
    // GOV.UK "Income Tax in Scotland: 2023 to 2024 tax year" (gov.uk/scottish-income-tax/
    // 2023-to-2024-tax-year) and gov.scot "Scottish Income Tax: rates and bands 2023 to 2024":
    // Starter £12,571 to £14,732 19%, Basic £14,733 to £25,688 20%, Intermediate £25,689 to
    // £43,662 21%, Higher £43,663 to £125,140 42%, Top over £125,140 47%.
    scotland: [
      ['Starter rate', 14_732, 19],
      ['Basic rate', 25_688, 20],
      ['Intermediate rate', 43_662, 21],
      ['Higher rate', 125_140, 42],
      ['Top rate', null, 47],
    ],
    // GOV.UK "Self-employed National Insurance rates", 2023 to 2024 (hmrc.gov.uk/working/intro/
    // class2.htm): "Class 2 £3.45 a week; Class 4 9% on profits between £12,570 and £50,270, 2% on
    // profits over £50,270", "If you're self-employed and your profits are £12,570 or more a year,
    // you usually pay Class 2 and Class 4".
    class4: { lowerProfitsLimit: 12_570, upperProfitsLimit: 50_270, mainPercent: 9, upperPercent: 2 },
    class2: { weeklyPence: 345, compulsoryFrom: 12_570 },
    ...ALLOWANCES,
    mileage: MILEAGE,
  },
  '2024-25': {
    personalAllowance: 12_570,
    taperFrom: 100_000,
    uk: UK_BANDS,
    // GOV.UK "Income Tax in Scotland: 2024 to 2025 tax year" (gov.uk/scottish-income-tax/
    // 2024-to-2025-tax-year): Starter £12,571 to £14,876 19%, Basic £14,877 to £26,561 20%,
    // Intermediate £26,562 to £43,662 21%, Higher £43,663 to £75,000 42%, Advanced £75,001 to
    // £125,140 45%, Top over £125,140 48%.
    scotland: [
      ['Starter rate', 14_876, 19],
      ['Basic rate', 26_561, 20],
      ['Intermediate rate', 43_662, 21],
      ['Higher rate', 75_000, 42],
      ['Advanced rate', 125_140, 45],
      ['Top rate', null, 48],
    ],
    class4: CLASS_4_FROM_2024,
    // GOV.UK "Self-employed National Insurance rates", 2024 to 2025: "The Class 2 rate for tax
    // year 2024 to 2025 is £3.45 a week", paid only voluntarily (profits of £6,725 or more are
    // "treated as having been paid").
    class2: { weeklyPence: 345, compulsoryFrom: null },
    ...ALLOWANCES,
    mileage: MILEAGE,
  },
  '2025-26': {
    personalAllowance: 12_570,
    taperFrom: 100_000,
    uk: UK_BANDS,
    // GOV.UK "Income Tax in Scotland" (gov.uk/scottish-income-tax), 2025 to 2026: Starter
    // £12,571 to £15,397 19%, Basic £15,398 to £27,491 20%, Intermediate £27,492 to £43,662 21%,
    // Higher £43,663 to £75,000 42%, Advanced £75,001 to £125,140 45%, Top over £125,140 48%.
    scotland: [
      ['Starter rate', 15_397, 19],
      ['Basic rate', 27_491, 20],
      ['Intermediate rate', 43_662, 21],
      ['Higher rate', 75_000, 42],
      ['Advanced rate', 125_140, 45],
      ['Top rate', null, 48],
    ],
    class4: CLASS_4_FROM_2024,
    // Tolley (LexisNexis) "Class 2 national insurance contributions", January 2026: voluntary
    // Class 2 is "a weekly rate of £3.50 for 2025/26 (£3.45 for 2024/25)".
    class2: { weeklyPence: 350, compulsoryFrom: null },
    ...ALLOWANCES,
    mileage: MILEAGE,
  },
  '2026-27': {
    personalAllowance: 12_570,
    taperFrom: 100_000,
    uk: UK_BANDS,
    // Scottish Budget 2026-27 (13 January 2026), as printed by Guardian Accountancy Services
    // ("Starter rate – 19% £12,571 - £16,537, Basic rate – 20% £16,538 - £29,526, Intermediate
    // rate – 21% £29,527 - £43,662, Higher rate – 42% £43,663 - £75,000, Advanced rate – 45%
    // £75,001 - £125,140, Top rate – 48% Above £125,140") and by ICAEW (14 January 2026). The
    // starter band is £3,967 wide, not £3,966: see the taxable-income table below.
    scotland: [
      ['Starter rate', 16_537, 19],
      ['Basic rate', 29_526, 20],
      ['Intermediate rate', 43_662, 21],
      ['Higher rate', 75_000, 42],
      ['Advanced rate', 125_140, 45],
      ['Top rate', null, 48],
    ],
    // salarytax.uk "UK Class 2 + Class 4 NI Self-Employed 2026/27": "Class 4 NI - 6% main rate on
    // £12,570-£50,270 band + 2% upper rate above", "Class 2 NI - voluntary only since April 2024
    // reform, £3.65/week".
    class4: CLASS_4_FROM_2024,
    class2: { weeklyPence: 365, compulsoryFrom: null },
    ...ALLOWANCES,
    mileage: MILEAGE,
  },
};

// The Institute of Certified Bookkeepers, "Scottish Income Tax 2026/27" (bookkeepers.org.uk,
// 13 January 2026), which prints the bands "exclusive of the value of the UK standard Personal
// Allowance … the way that software will have to effect these": 2025/26 Starter 1 – 2,827,
// Basic 2,828 – 14,921, Intermediate 14,922 – 31,092, Higher 31,093 – 62,430, Advanced 62,431 –
// 125,140; 2026/27 Starter 1 – 3,967, Basic 3,968 – 16,956, Intermediate 16,957 – 31,092,
// Higher 31,093 – 62,430, Advanced 62,431 – 125,140; Top over 125,140 in both.
const ICB_TAXABLE_TOPS: Record<string, number[]> = {
  '2025-26': [2_827, 14_921, 31_092, 62_430, 125_140],
  '2026-27': [3_967, 16_956, 31_092, 62_430, 125_140],
};

const pence = (pounds: number) => pounds * 100;

/** A published band's top as taxable income (see the top of this file). */
function taxableTop(top: number | null, year: PublishedYear): number | null {
  if (top === null) return null;
  if (top <= year.taperFrom) return top - year.personalAllowance;
  if (top >= year.taperFrom + 2 * year.personalAllowance) return top;
  throw new Error(`a band top of £${top} inside the taper: the sources publish none`);
}

const YEARS = Object.keys(PUBLISHED) as TaxYearLabel[];
const REGIONS: IncomeTaxRegion[] = ['uk', 'scotland'];

describe('tax-years.json against the published sources', () => {
  it('has exactly the years the sources are typed for', () => {
    expect(knownTaxYears()).toEqual(YEARS);
  });

  describe.each(YEARS)('%s', (label) => {
    const published = PUBLISHED[label] as PublishedYear;
    const { rates, assumed } = taxYearRates(label);

    it('is in the data', () => {
      expect(assumed).toBe(false);
    });

    it.each(REGIONS)('has the published %s Income Tax bands', (region) => {
      const expected = published[region].map(([name, top, percent]) => ({ name, upTo: top === null ? null : pence(taxableTop(top, published) as number), percent }));
      expect(rates.incomeTax[region]).toEqual(expected);
    });

    it('has the Personal Allowance and where its taper starts', () => {
      expect(rates.personalAllowance).toBe(pence(published.personalAllowance));
      expect(rates.personalAllowanceTaperFrom).toBe(pence(published.taperFrom));
    });

    it('has the Class 4 limits and percentages', () => {
      const c = published.class4;
      expect(rates.class4).toEqual({ lowerProfitsLimit: pence(c.lowerProfitsLimit), upperProfitsLimit: pence(c.upperProfitsLimit), mainPercent: c.mainPercent, upperPercent: c.upperPercent });
    });

    it('has the Class 2 weekly rate and whether it is owed', () => {
      const c = published.class2;
      expect(rates.class2).toMatchObject({
        weeklyPence: c.weeklyPence,
        voluntary: c.compulsoryFrom === null,
        payableFromProfits: c.compulsoryFrom === null ? null : pence(c.compulsoryFrom),
      });
    });

    it('has the trading allowance and the payments-on-account threshold', () => {
      expect(rates.tradingAllowance).toBe(pence(published.tradingAllowance));
      expect(rates.paymentsOnAccountFrom).toBe(pence(published.paymentsOnAccountFrom));
    });

    it('has the simplified-expenses mileage rates', () => {
      const m = published.mileage;
      expect(rates.mileage).toEqual({
        carVan: { firstMilesPence: m.carVanFirst, afterPence: m.carVanAfter, thresholdMiles: m.carVanThreshold },
        motorcycle: { firstMilesPence: m.motorcycle, afterPence: m.motorcycle, thresholdMiles: m.carVanThreshold },
        bicycle: null,
      });
    });
  });

  it.each(Object.keys(ICB_TAXABLE_TOPS))('%s: the Scottish bands as taxable income agree with the ICB table', (label) => {
    const tops = taxYearRates(label as TaxYearLabel).rates.incomeTax.scotland.map((band) => band.upTo);
    expect(tops).toEqual([...(ICB_TAXABLE_TOPS[label] as number[]).map(pence), null]);
  });

  it('has the published Making Tax Digital thresholds', () => {
    // GOV.UK "Find out if and when you need to use Making Tax Digital for Income Tax": qualifying
    // income over £50,000 in 2024-25 → from 6 April 2026, over £30,000 in 2025-26 → from 6 April
    // 2027, over £20,000 in 2026-27 → from 6 April 2028. GOV.UK "Use Making Tax Digital for
    // Income Tax": a turnover under £90,000 may send totals only.
    expect(mtdRules.yearsAfterQualifyingYear).toBe(2);
    expect(mtdRules.thresholdFrom).toEqual({ '2026-27': pence(50_000), '2027-28': pence(30_000), '2028-29': pence(20_000) });
    for (const year of ['2023-24', '2024-25', '2025-26', '2026-27', '2027-28'] as const) expect(consolidatedExpensesBelow(year)).toBe(pence(90_000));
  });
});

// ---- The band arithmetic against a brute-force sum over whole pounds ----

/** The allowance by counting: £1 off for every whole £2 of income over the threshold. */
function bruteAllowance(incomePounds: number, year: PublishedYear): number {
  let allowance = year.personalAllowance;
  for (let over = 2; incomePounds - year.taperFrom >= over && allowance > 0; over += 2) allowance -= 1;
  return allowance;
}

/**
 * Tax in pence on a whole-pound income, one pound at a time: the n-th pound of taxable income is
 * charged the rate of the published band that holds it.
 */
function bruteTax(incomePounds: number, year: PublishedYear, region: IncomeTaxRegion): number {
  const taxable = Math.max(0, incomePounds - bruteAllowance(incomePounds, year));
  const tops = year[region].map(([, top, percent]) => [taxableTop(top, year) ?? Infinity, percent] as const);
  let pencePerPound = 0;
  for (let pound = 1; pound <= taxable; pound += 1) {
    const band = tops.find(([top]) => pound <= top) as readonly [number, number];
    pencePerPound += band[1];
  }
  return pencePerPound;
}

describe('the band arithmetic', () => {
  it('equals a sum over whole pounds, in every year and region, through the taper (fast-check prints its seed)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...YEARS), fc.constantFrom(...REGIONS), fc.oneof(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 95_000, max: 140_000 })), (label, region, income) => {
        const published = PUBLISHED[label] as PublishedYear;
        const { rates } = taxYearRates(label);
        expect(personalAllowanceFor(pence(income), rates)).toBe(pence(bruteAllowance(income, published)));
        // A whole-pound income's tax is a whole number of pence: no rounding hides a band's pound.
        expect(incomeTax(pence(income), rates, region).tax).toBe(bruteTax(income, published, region));
      }),
      { numRuns: 300 },
    );
  });

  it('charges each band edge pound at its own rate', () => {
    for (const label of YEARS) {
      const published = PUBLISHED[label] as PublishedYear;
      const { rates } = taxYearRates(label);
      for (const region of REGIONS) {
        for (const [, top] of published[region]) {
          if (top === null || top > published.taperFrom) continue;
          for (const income of [top - 1, top, top + 1]) expect(incomeTax(pence(income), rates, region).tax).toBe(bruteTax(income, published, region));
        }
      }
    }
  });
});
