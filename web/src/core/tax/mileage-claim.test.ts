import { describe, expect, it } from 'vitest';
import type { MileageContent, VehicleContent } from '@/sync/types';
import { businessShareOf, mileageClaim, milesOf } from './mileage-claim';

const van = { id: 'van', name: 'Van', type: 'carVan', method: 'flatRate', commuteMiles: 0 } as const satisfies VehicleContent & { id: string };
const bike = { id: 'bike', name: 'Motorbike', type: 'motorcycle', method: 'flatRate', commuteMiles: 0 } as const satisfies VehicleContent & { id: string };
const leased = { id: 'leased', name: 'Leased van', type: 'carVan', method: 'actualCosts', commuteMiles: 0 } as const satisfies VehicleContent & { id: string };

let n = 0;
function trip(date: string, businessMiles: number, fields: Partial<MileageContent> = {}): MileageContent & { id: string } {
  n += 1;
  return { id: `t${String(n).padStart(4, '0')}`, date, vehicleId: 'van', courierId: null, odometerStart: null, odometerEnd: null, businessMiles, commuteMiles: 0, note: '', ...fields };
}

describe('the flat-rate mileage claim', () => {
  // GOV.UK "Simplified expenses if you're self-employed: Vehicles", worked example: 11,000
  // business miles over the year claim 10,000 × 45p = £4,500 plus 1,000 × 25p = £250, £4,750.
  it("matches HMRC's worked example of 11,000 business miles", () => {
    const records = Array.from({ length: 110 }, (_, i) => trip(`2026-05-${String((i % 28) + 1).padStart(2, '0')}`, 100));
    const claim = mileageClaim(records, [van], '2026-27');
    expect(claim.businessMiles).toBe(11_000);
    expect(claim.claimPence).toBe(475_000);
  });

  it('splits the day that crosses 10,000 miles inside the day', () => {
    const records = [trip('2026-04-06', 9_950), trip('2026-06-01', 120), trip('2026-06-02', 30)];
    const vehicle = mileageClaim(records, [van], '2026-27').vehicles[0]!;
    expect(vehicle.lines.map((line) => [line.milesAtFirstRate, line.milesAtAfterRate, line.claimPence])).toEqual([
      [9_950, 0, 447_750],
      [50, 70, 50 * 45 + 70 * 25],
      [0, 30, 750],
    ]);
    expect(vehicle.claimPence).toBe(447_750 + 4_000 + 750);
  });

  // The year is 6 April to 5 April: miles on 5 April count towards the old year's 10,000, and
  // the count starts again on 6 April.
  it('starts the 10,000 again on 6 April', () => {
    const records = [trip('2026-04-05', 10_000), trip('2026-04-06', 100)];
    expect(mileageClaim(records, [van], '2025-26').claimPence).toBe(450_000);
    expect(mileageClaim(records, [van], '2026-27').claimPence).toBe(4_500);
  });

  it('counts the break per vehicle, and pays motorcycles 24p a mile throughout', () => {
    const records = [trip('2026-05-01', 10_000), trip('2026-05-02', 12_000, { vehicleId: 'bike' }), trip('2026-05-03', 10)];
    const claim = mileageClaim(records, [van, bike], '2026-27');
    expect(claim.vehicles.map((v) => v.claimPence)).toEqual([450_000 + 250, 12_000 * 24]);
  });

  it('orders two logs of one day by when they were made', () => {
    const later = { ...trip('2026-05-01', 9_000), createdAt: '2026-05-01T18:00:00Z', id: 'a' };
    const earlier = { ...trip('2026-05-01', 2_000), createdAt: '2026-05-01T08:00:00Z', id: 'b' };
    const vehicle = mileageClaim([later, earlier], [van], '2026-27').vehicles[0]!;
    expect(vehicle.lines.map((line) => line.recordId)).toEqual(['b', 'a']);
    expect(vehicle.lines[1]).toMatchObject({ milesAtFirstRate: 8_000, milesAtAfterRate: 1_000 });
  });

  it('claims nothing per mile for an actual-cost vehicle, but counts its miles for the share', () => {
    const records = [trip('2026-05-01', 60, { vehicleId: 'leased', odometerStart: 1000, odometerEnd: 1100, commuteMiles: 10 })];
    const vehicle = mileageClaim(records, [leased], '2026-27').vehicles[0]!;
    expect(vehicle).toMatchObject({ claimPence: 0, businessMiles: 60, commuteMiles: 10, totalMiles: 100 });
    expect(businessShareOf(12_345, vehicle)).toBe(7_407); // 12,345 × 60 / 100 = 7,407
    expect(businessShareOf(1, { businessMiles: 1, totalMiles: 2 })).toBe(1); // half a penny rounds up
    expect(businessShareOf(10_000, { businessMiles: 0, totalMiles: 0 })).toBe(0);
  });

  it('takes the odometer span as the total, else the typed miles', () => {
    expect(milesOf({ odometerStart: 100, odometerEnd: 180, businessMiles: 50, commuteMiles: 10 })).toBe(80);
    expect(milesOf({ odometerStart: null, odometerEnd: null, businessMiles: 50, commuteMiles: 10 })).toBe(60);
  });
});
