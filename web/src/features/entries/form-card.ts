// What the entry form asks for: the card in force for the day's courier on its date, and the
// ways of being paid it uses (day-pricing.ts), which decide the fields it requires.
import { cardInForce, type IdentifiedCard } from '@/core/pay/pay';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { paidFields, type PaidFields } from '@/core/pay/day-pricing';
import type { DayNeeds, EntryFormInput } from './entry-form-schema';

/** The card in force for the form's courier on its date; null with no card (or no date yet). */
export function formCard(pay: PaySetup | undefined, form: Pick<EntryFormInput, 'date' | 'courierId'>, defaultCourierId: string): IdentifiedCard | null {
  if (!pay || !/^\d{4}-\d{2}-\d{2}$/.test(form.date)) return null;
  return cardInForce(pay.cards, form.courierId || defaultCourierId, form.date);
}

/** What the form asks for: what the card in force prices (stops, as the spec's form, while the cards load). */
export function formPaidFields(pay: PaySetup | undefined, form: Pick<EntryFormInput, 'date' | 'courierId'>, defaultCourierId: string): PaidFields {
  if (!pay) return { stops: true, parcels: false, bands: false, collections: false, failed: false, times: false };
  return paidFields(formCard(pay, form, defaultCourierId));
}

/** What the form requires, from what the card prices. */
export function needsOf(paid: PaidFields): DayNeeds {
  return { stops: paid.stops, parcels: paid.parcels, bands: paid.bands, times: paid.times };
}
