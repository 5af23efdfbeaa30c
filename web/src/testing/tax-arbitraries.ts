// Random tax-year records for property tests (fast-check): days, expenses and courier deductions
// of every category, each linked to a flat-rate vehicle, an actual-cost one or none, and the
// mileage log, all inside or around the 2025-26 tax year.
import fc from 'fast-check';
import { EXPENSE_CATEGORY_IDS } from '@/core/tax/expense-categories';
import type { TaxRecords } from '@/core/tax/tax-summary';
import { addDays } from '@/lib/week';
import type { DeductionContent, ExpenseContent, MileageContent } from '@/sync/types';

export const COURIERS = [
  { id: 'courier-dpd', name: 'DPD' },
  { id: 'courier-evri', name: 'Evri' },
];
export const FLAT_VAN = { id: 'vehicle-flat', name: 'Hired van', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const;
export const FLAT_BIKE = { id: 'vehicle-bike', name: 'Motorbike', type: 'motorcycle', method: 'flatRate', commuteMiles: 0 } as const;
export const OWN_VAN = { id: 'vehicle-own', name: 'Own van', type: 'carVan', method: 'actualCosts', commuteMiles: 0 } as const;
export const VEHICLES = [FLAT_VAN, FLAT_BIKE, OWN_VAN];
export const FLAT_RATE_IDS: ReadonlySet<string> = new Set([FLAT_VAN.id, FLAT_BIKE.id]);

/** A day from a month before 2025-26 to a month after it. */
const day = fc.integer({ min: 0, max: 425 }).map((n) => addDays('2025-03-06', n));
const pence = fc.integer({ min: 1, max: 50_000 });
const vehicleId = fc.constantFrom<string | null>(null, FLAT_VAN.id, FLAT_BIKE.id, OWN_VAN.id);
const repeat = fc.constantFrom<'once' | 'weekly' | 'monthly'>('once', 'once', 'weekly', 'monthly');
const category = fc.constantFrom(...EXPENSE_CATEGORY_IDS);

let n = 0;
const id = (prefix: string) => `${prefix}-${String((n += 1)).padStart(6, '0')}`;

export const expenseArb = fc.record({ date: day, amount: pence, category, vehicleId, repeat }).map(
  (e): ExpenseContent & { id: string } => ({ id: id('expense'), note: '', courierId: null, repeatUntil: null, receipts: [], ...e }),
);

export const deductionArb = fc
  .record({ from: day, amount: pence, purpose: fc.option(category, { nil: null }), vehicleId, repeat, courierId: fc.constantFrom(...COURIERS.map((c) => c.id)) })
  .map(
    (d): DeductionContent & { id: string } => ({
      id: id('deduction'),
      label: 'Deduction',
      to: null,
      ...d,
      // The server refuses a vehicle without a purpose: so does the generator.
      vehicleId: d.purpose === null ? null : d.vehicleId,
    }),
  );

export const mileageArb = fc
  .record({ date: day, vehicleId: fc.constantFrom(FLAT_VAN.id, FLAT_BIKE.id, OWN_VAN.id), businessMiles: fc.integer({ min: 0, max: 400 }), commuteMiles: fc.integer({ min: 0, max: 50 }) })
  .filter((m) => m.businessMiles + m.commuteMiles > 0)
  .map((m): MileageContent & { id: string } => ({ id: id('trip'), courierId: null, odometerStart: null, odometerEnd: null, note: '', ...m }));

export const entryArb = fc
  .record({ date: day, total: fc.integer({ min: 0, max: 60_000 }), courierId: fc.constantFrom(...COURIERS.map((c) => c.id)), stops: fc.integer({ min: 0, max: 200 }) })
  .map((e) => ({ id: id('entry'), ...e }));

export const taxRecordsArb: fc.Arbitrary<TaxRecords> = fc
  .record({
    entries: fc.array(entryArb, { maxLength: 12 }),
    expenses: fc.array(expenseArb, { maxLength: 10 }),
    deductions: fc.array(deductionArb, { maxLength: 6 }),
    mileage: fc.array(mileageArb, { maxLength: 10 }),
  })
  .map((parts) => ({ ...parts, couriers: COURIERS, vehicles: VEHICLES }));
