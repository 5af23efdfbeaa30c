// The vehicle form, as typed, to what is stored. Bounds are the server's vehicle rules (the
// generated contract). Two tax rules live here too: a bicycle is always actual costs (the
// self-employed flat rate, ITTOIA 2005 s94D, covers cars, goods vehicles and motorcycles only),
// and a vehicle keeps its method once it was used in an earlier tax year or a sent quarterly
// update claimed it (core/mtd/vehicle-fixed.ts).
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { currentTaxYear, taxYearOf } from '@/core/tax/tax-year';
import { BOUNDS } from '@/sync/contract.generated';
import type { MileageContent, VehicleContent, VehicleMethod, VehicleType } from '@/sync/types';

/** The name's length, and the commute (home to depot, one way) in whole miles. */
export const { maxNameChars: MAX_VEHICLE_NAME_CHARS, maxCommuteMiles: MAX_COMMUTE_MILES } = BOUNDS.vehicle;

export const vehicleMessages = {
  name: 'Please name the vehicle, e.g. Transit van',
  nameLength: `The name must be at most ${MAX_VEHICLE_NAME_CHARS} characters`,
  nameControl: forbiddenCharactersMessage('The name'),
  bicycle: 'A bicycle’s costs are claimed as actual costs: HMRC’s flat mileage rate for the self-employed covers cars, vans and motorcycles only.',
  commute: `Enter the commute as whole miles from 0 to ${MAX_COMMUTE_MILES}, or leave it empty`,
  methodKept: 'This vehicle has used this method in an earlier tax year. HMRC says it keeps it while you use the vehicle for your business.',
  methodFixed: 'A quarterly update you sent claimed this vehicle’s method. HMRC says it keeps it while you use the vehicle for your business.',
} as const;

export interface VehicleFormInput {
  name: string;
  type: VehicleType;
  method: VehicleMethod;
  /** Home to depot, one way, in whole miles; empty is none (0). */
  commuteMiles: string;
}

export type VehicleFormErrors = FieldErrors<VehicleFormInput>;


/** The method a vehicle type ends up with: a bicycle has no flat rate. */
export function effectiveMethod(type: VehicleType, method: VehicleMethod): VehicleMethod {
  return type === 'bicycle' ? 'actualCosts' : method;
}

/**
 * The method a vehicle must keep, or null while it may still change: kept once the vehicle has a
 * (live) mileage record dated in a tax year before the current one.
 */
export function keptMethod(
  vehicle: Pick<VehicleContent, 'method'> & { id: string },
  log: readonly (Pick<MileageContent, 'vehicleId' | 'date'> & { deleted?: 0 | 1 })[],
  today: string,
): VehicleMethod | null {
  const current = currentTaxYear(today);
  const usedEarlier = log.some((record) => record.vehicleId === vehicle.id && !record.deleted && taxYearOf(record.date) < current);
  return usedEarlier ? vehicle.method : null;
}

/** The schema for a new vehicle (kept = null) or an edit of one whose method is kept, refused with `why`. */
export function vehicleFormSchema(kept: VehicleMethod | null, why: string = vehicleMessages.methodKept) {
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, vehicleMessages.name)
        .refine((text) => [...text].length <= MAX_VEHICLE_NAME_CHARS, vehicleMessages.nameLength)
        .refine((text) => !hasForbiddenCharacters(text), vehicleMessages.nameControl),
      type: z.enum(['carVan', 'motorcycle', 'bicycle']),
      method: z.enum(['flatRate', 'actualCosts']),
      commuteMiles: z
        .string()
        .trim()
        .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) <= MAX_COMMUTE_MILES), vehicleMessages.commute)
        .transform((text) => (text === '' ? 0 : Number(text))),
    })
    .superRefine((value, context) => {
      if (kept !== null && effectiveMethod(value.type, value.method) !== kept) {
        // Said on the field the driver changed: the type when a bicycle would force the change.
        const path = value.type === 'bicycle' && value.method === kept ? 'type' : 'method';
        context.addIssue({ code: 'custom', path: [path], message: why });
      }
    })
    .transform((value): VehicleContent => ({ name: value.name, type: value.type, method: effectiveMethod(value.type, value.method), commuteMiles: value.commuteMiles }));
}

export function validateVehicleForm(input: VehicleFormInput, kept: VehicleMethod | null = null, why?: string): FormResult<VehicleFormInput, VehicleContent> {
  return parseForm(vehicleFormSchema(kept, why), input);
}

export function blankVehicleForm(): VehicleFormInput {
  return { name: '', type: 'carVan', method: 'flatRate', commuteMiles: '' };
}

export function vehicleFormOf(vehicle: VehicleContent): VehicleFormInput {
  return { name: vehicle.name, type: vehicle.type, method: vehicle.method, commuteMiles: vehicle.commuteMiles === 0 ? '' : String(vehicle.commuteMiles) };
}
