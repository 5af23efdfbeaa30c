// Which parts of the rate-card editor a card uses. A card shows those (and per stop, the
// spec's tier editor, always); the others are one tap away, so a per-stop card is not a form
// of a dozen empty boxes on a phone.
import type { CardFormInput } from './card-form-schema';

/** The editor's optional parts, beyond per stop. */
export type CardSection = 'perItem' | 'byBand' | 'perTime' | 'peaks';

export const CARD_SECTIONS: readonly CardSection[] = ['perItem', 'byBand', 'perTime', 'peaks'];

const typed = (text: string) => text.trim() !== '';

/** The optional parts this form's values use: any box typed in, or any peak. */
export function sectionsInUse(values: CardFormInput): ReadonlySet<CardSection> {
  const used = new Set<CardSection>();
  if ([values.perParcel, values.parcelCapPerStop, values.perCollection, values.perFailed].some(typed)) used.add('perItem');
  if (Object.values(values.bandRates).some(typed)) used.add('byBand');
  if ([values.dayRate, values.hourly].some(typed)) used.add('perTime');
  if (values.peaks.length > 0) used.add('peaks');
  return used;
}
