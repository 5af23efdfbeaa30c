import { formatPence, formatShortDate } from '@/lib/format';
import { FIRST_CARD_FROM } from '@/core/pay/pay';
import { WORDS } from '@/sync/contract.generated';
import { isOnServer, type RecordContents, type RecordKind } from '@/sync/records';
import type { ParkedChange } from './use-parked-changes';

/**
 * What a change to a record of a kind is about, beyond the kind's words (the contract's WORDS:
 * "New fuel fill", "Deleting a vehicle"). A kind not listed is described by its day when its
 * content has one ("New toll for 21/03/2025"), with no figures.
 */
interface KindDetails<C> {
  /** What the record is for, e.g. "for 21/03/2025", from its pushed args or the stored copy. */
  about?: (content: Partial<C>) => string;
  /** The figures a new or changed record carried, e.g. " (120 stops, £237.60)". */
  figures?: (content: Partial<C>) => string;
}

const forTheDay = ({ date }: { date?: unknown }) => (typeof date === 'string' && date ? ` for ${formatShortDate(date)}` : '');
const pence = (amount: unknown) => (typeof amount === 'number' ? ` (${formatPence(amount)})` : '');

const DETAILS: { [K in RecordKind]?: KindDetails<RecordContents[K]> } = {
  entry: {
    figures: ({ stops, total }) => (typeof stops === 'number' && typeof total === 'number' ? ` (${stops} stops, ${formatPence(total)})` : ''),
  },
  invoice: {
    about: ({ periodStart, periodEnd }) =>
      periodStart && periodEnd ? ` for ${formatShortDate(periodStart)} to ${formatShortDate(periodEnd)}` : '',
    figures: ({ paid }) => (typeof paid === 'number' ? ` (${formatPence(paid)} paid)` : ''),
  },
  courier: { about: ({ name }) => (name ? ` "${name}"` : '') },
  // A courier's first card is in force "from the start", as the settings call it.
  rateCard: { about: ({ validFrom }) => (!validFrom ? '' : validFrom <= FIRST_CARD_FROM ? ' from the start' : ` from ${formatShortDate(validFrom)}`) },
  deduction: {
    about: ({ label, from }) => (label ? ` "${label}"` : '') + (from ? ` from ${formatShortDate(from)}` : ''),
    figures: ({ amount }) => pence(amount),
  },
  expense: { about: ({ date }) => (date ? ` on ${formatShortDate(date)}` : ''), figures: ({ amount }) => pence(amount) },
  vehicle: { about: ({ name }) => (name ? ` "${name}"` : '') },
  mileage: { figures: ({ businessMiles }) => (typeof businessMiles === 'number' ? ` (${businessMiles} business miles)` : '') },
  statementLine: { figures: ({ amount }) => pence(amount) },
  sentUpdate: {
    about: ({ taxYear, quarter }) => (taxYear && quarter ? ` for Q${quarter} ${taxYear}` : ''),
    figures: ({ reference }) => (reference ? ` (reference ${reference})` : ''),
  },
  fuelFill: { figures: ({ cost }) => pence(cost) },
  statementQuery: { about: ({ madeOn }) => (madeOn ? ` made ${formatShortDate(madeOn)}` : ''), figures: ({ total }) => pence(total) },
};

/** A kind's words for one record by itself ("entry", "fuel fill"), with its article ("an entry"), and what a change is about. */
function wordsFor(kind: RecordKind) {
  const noun = WORDS[kind].record;
  const details = (DETAILS[kind] ?? {}) as KindDetails<Record<string, unknown>>;
  return {
    noun,
    one: `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`,
    about: details.about ?? forTheDay,
    figures: details.figures ?? (() => ''),
  };
}

/** What the change was, in the driver's words. */
export function describeChange({ item, target }: ParkedChange): string {
  if (item.name === 'profile.update') {
    return 'paymentConfig' in item.args ? 'Changes to your payment settings' : 'Changes to your profile';
  }
  if (item.name === 'settings.put' || target === null) return 'Changing the theme';
  const words = wordsFor(target.kind);
  const stored = (target.record ?? {}) as Record<string, unknown>;
  if (item.name.endsWith('.delete')) {
    const about = words.about(stored);
    return about ? `Deleting the ${words.noun}${about}` : `Deleting ${words.one}`;
  }
  const args = { ...stored, ...item.args };
  const what = target.record && isOnServer(target.record) ? `Changes to the ${words.noun}` : `New ${words.noun}`;
  return `${what}${words.about(args)}${words.figures(item.args)}`;
}

export function discardWarning({ item, target }: ParkedChange): string {
  if (target === null) return 'What you changed will be lost: it goes back to what the server has.';
  const { noun } = wordsFor(target.kind);
  if (item.name.endsWith('.delete')) {
    return `The ${noun} will come back as the server has it, and will not be deleted.`;
  }
  return target.record && isOnServer(target.record)
    ? `What you typed will be lost: the ${noun} goes back to what the server has.`
    : `What you typed will be lost: this ${noun} is only on this device and will be removed.`;
}
