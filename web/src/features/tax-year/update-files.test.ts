import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consolidatedOffered, updateFigures, updateJson } from '@/core/mtd/update';
import { MTD_EXPENSE_FIELDS } from '@/core/tax/expense-categories';
import { taxSummary } from '@/core/tax/tax-summary';
import { parseCsv } from '@/lib/csv-parse';
import { taxRecordsArb } from '@/testing/tax-arbitraries';
import { recordsCsv } from './tax-csv';

/** Pounds as the files write them, back to pence exactly. */
const pence = (pounds: string | number) => Math.round(Number(pounds) * 100);

describe("a quarter's files agree", () => {
  it("the per-record CSV's rows add up to the JSON's figures, field by field, itemised and consolidated (fast-check prints its seed)", () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.integer({ min: 1, max: 4 }), fc.constantFrom('standard', 'calendar') as fc.Arbitrary<'standard' | 'calendar'>, (records, number, election) => {
        const summary = taxSummary(records, '2025-26', '2026-06-01', 'uk', election);
        const quarter = summary.quarters[number - 1]!;
        const period = { year: summary.year, from: quarter.periodStart, to: quarter.to, totals: quarter.totals };
        const rows = parseCsv(recordsCsv(period, records).replace(/^\uFEFF/, '')).slice(1);
        const sum = (keep: (row: string[]) => boolean) => rows.filter(keep).reduce((total, row) => total + pence(row[3]!), 0);
        // Money out is negative in the CSV; `+ 0` keeps an empty sum from being -0.
        const out = (keep: (row: string[]) => boolean) => -sum(keep) + 0;

        const itemised = JSON.parse(updateJson(updateFigures({ year: summary.year, periodStart: quarter.periodStart, periodEnd: quarter.to, totals: quarter.totals }, 'itemised', summary.totals.turnover)));
        expect(sum((row) => row[4] === 'Income')).toBe(pence(itemised.periodIncome.turnover));
        for (const { field } of MTD_EXPENSE_FIELDS) {
          const claimed = pence(itemised.periodExpenses[field]) - pence(itemised.periodDisallowableExpenses?.[`${field}Disallowable`] ?? 0);
          expect(out((row) => row[4] !== 'Income' && row[6] === field)).toBe(claimed);
        }
        if (consolidatedOffered(summary.year, summary.totals.turnover)) {
          const consolidated = JSON.parse(updateJson(updateFigures({ year: summary.year, periodStart: quarter.periodStart, periodEnd: quarter.to, totals: quarter.totals }, 'consolidated', summary.totals.turnover)));
          expect(out((row) => row[4] !== 'Income')).toBe(pence(consolidated.periodExpenses.consolidatedExpenses));
        }
      }),
      { numRuns: 120 },
    );
  });
});
