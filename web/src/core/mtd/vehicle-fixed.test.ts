import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expenseCategory } from '@/core/tax/expense-categories';
import { runningTotals, taxSummary, type TaxRecords } from '@/core/tax/tax-summary';
import { FLAT_VAN, OWN_VAN, taxRecordsArb, VEHICLES } from '@/testing/tax-arbitraries';
import { addDays } from '@/lib/week';
import { openVehicles, vehicleFixes, type VehicleUse } from './vehicle-fixed';

const QUARTER_ENDS = ['2025-07-05', '2025-10-05', '2026-01-05', '2026-04-05'];
const sent = (quarter: number, sentOn: string, id = `s${quarter}`, extra: { deleted?: 0 | 1; createdAt?: string } = {}) => ({
  id,
  taxYear: '2025-26',
  quarter,
  periodStart: '2025-04-06',
  periodEnd: QUARTER_ENDS[quarter - 1]!,
  sentOn,
  createdAt: `${sentOn}T12:00:00Z`,
  ...extra,
});
const none: VehicleUse = { mileage: [], expenses: [], deductions: [] };
const trip = (date: string, businessMiles: number, vehicleId: string = FLAT_VAN.id) => ({ vehicleId, date, businessMiles });
const cost = (date: string, category: 'fuel' | 'parkingTolls' = 'fuel', vehicleId: string | null = FLAT_VAN.id, repeat: 'once' | 'weekly' | 'monthly' = 'once', repeatUntil: string | null = null) => ({ vehicleId, date, category, repeat, repeatUntil });

describe('a vehicle fixed by a sent update', () => {
  it.each([
    ['no update sent', { ...none, mileage: [trip('2025-05-10', 100)] }, [], null],
    ['business miles inside Q1, Q1 sent', { ...none, mileage: [trip('2025-05-10', 100)] }, [sent(1, '2025-08-01')], 'Q1 2025-26 sent 2025-08-01'],
    ['only commute miles (no business miles): not used', { ...none, mileage: [trip('2025-05-10', 0)] }, [sent(1, '2025-08-01')], null],
    ['miles only after the sent period: not yet', { ...none, mileage: [trip('2025-07-20', 100)] }, [sent(1, '2025-08-01')], null],
    ['miles in Q2, Q1 and Q2 sent: the Q2 update fixed it', { ...none, mileage: [trip('2025-07-20', 100)] }, [sent(1, '2025-08-01'), sent(2, '2025-11-01')], 'Q2 2025-26 sent 2025-11-01'],
    ['the first update sent fixes it, not the later cumulative ones', { ...none, mileage: [trip('2025-05-10', 100)] }, [sent(2, '2025-11-01'), sent(1, '2025-08-01')], 'Q1 2025-26 sent 2025-08-01'],
    ['a fuel cost of the vehicle inside the period', { ...none, expenses: [cost('2025-06-01')] }, [sent(1, '2025-08-01')], 'Q1 2025-26 sent 2025-08-01'],
    ['parking is not a running cost: it claims the same either way', { ...none, expenses: [cost('2025-06-01', 'parkingTolls')] }, [sent(1, '2025-08-01')], null],
    ['a cost of no vehicle does not fix this one', { ...none, expenses: [cost('2025-06-01', 'fuel', null)] }, [sent(1, '2025-08-01')], null],
    ['a weekly cost begun before the year, charged inside the period', { ...none, expenses: [cost('2025-03-01', 'fuel', FLAT_VAN.id, 'weekly')] }, [sent(1, '2025-08-01')], 'Q1 2025-26 sent 2025-08-01'],
    ['a weekly cost that stopped before the period', { ...none, expenses: [cost('2025-03-01', 'fuel', FLAT_VAN.id, 'weekly', '2025-03-31')] }, [sent(1, '2025-08-01')], null],
    [
      'a van hire deducted by the courier, for this vehicle',
      { ...none, deductions: [{ vehicleId: FLAT_VAN.id, purpose: 'vehicleHire' as const, from: '2025-04-07', to: null, repeat: 'weekly' as const }] },
      [sent(1, '2025-08-01')],
      'Q1 2025-26 sent 2025-08-01',
    ],
    ['a deleted record does not count', { ...none, mileage: [{ ...trip('2025-05-10', 100), deleted: 1 as const }] }, [sent(1, '2025-08-01')], null],
    ['a deleted snapshot does not count', { ...none, mileage: [trip('2025-05-10', 100)] }, [sent(1, '2025-08-01', 's1', { deleted: 1 })], null],
    ['a record dated after the day it was sent was not in its file', { ...none, mileage: [trip('2025-07-01', 100)] }, [sent(1, '2025-06-20')], null],
    ['another vehicle’s miles do not fix this one', { ...none, mileage: [trip('2025-05-10', 100, OWN_VAN.id)] }, [sent(1, '2025-08-01')], null],
  ] as const)('%s', (_, use, updates, expected) => {
    const fix = vehicleFixes([FLAT_VAN.id], use, updates).get(FLAT_VAN.id);
    expect(fix ? `Q${fix.quarter} ${fix.year} sent ${fix.sentOn}` : null).toBe(expected);
  });

  it('leaves the fixed vehicles out of the open ones', () => {
    const fixes = vehicleFixes([FLAT_VAN.id, OWN_VAN.id], { ...none, mileage: [trip('2025-05-10', 100)] }, [sent(1, '2025-08-01')]);
    expect(openVehicles([{ vehicleId: FLAT_VAN.id }, { vehicleId: OWN_VAN.id }], fixes)).toEqual([{ vehicleId: OWN_VAN.id }]);
  });

  it('a vehicle with records inside a sent period is never open, and one without is (fast-check prints its seed)', () => {
    fc.assert(
      fc.property(taxRecordsArb, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 }), (records: TaxRecords, quarter, daysAfter) => {
        const update = sent(quarter, addDays(QUARTER_ENDS[quarter - 1]!, daysAfter));
        const fixes = vehicleFixes(VEHICLES.map((v) => v.id), records, [update]);
        // What the update's own figures hold of each vehicle: the tax year's rules, worked out on the day it was sent.
        const totals = runningTotals(records, '2025-26', update.periodEnd, update.sentOn, update.periodStart);
        const inFile = new Set([
          ...totals.mileage.vehicles.filter((v) => v.businessMiles > 0).map((v) => v.vehicleId),
          ...totals.costs.occurrences.filter((o) => o.vehicleId !== null && expenseCategory(o.category).runningCost).map((o) => o.vehicleId!),
        ]);
        for (const vehicle of VEHICLES) expect(fixes.has(vehicle.id)).toBe(inFile.has(vehicle.id));
        const open = openVehicles(taxSummary(records, '2025-26', '2026-06-01', 'uk').vehicleMethods, fixes).map((v) => v.vehicleId);
        for (const vehicleId of inFile) expect(open).not.toContain(vehicleId);
      }),
      { numRuns: 100 },
    );
  });
});
