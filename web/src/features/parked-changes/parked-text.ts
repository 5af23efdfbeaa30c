import { formatPence, formatShortDate } from '@/lib/format';
import { FIRST_CARD_FROM } from '@/core/pay/pay';
import type { RecordContents, RecordKind } from '@/sync/records';
import type { ParkedChange } from './use-parked-changes';

/** How a record kind is named in the parked-changes panel. A new kind adds its words here. */
interface KindWords<C> {
  /** "entry", "statement check": the record in the driver's words. */
  noun: string;
  /** The noun with its article: "an entry", "a statement check". */
  one: string;
  /** What the record is for, e.g. "for 21/03/2025", from its pushed args or the stored copy. */
  about: (content: Partial<C>) => string;
  /** The figures a new or changed record carried, e.g. " (120 stops, £237.60)". */
  figures: (content: Partial<C>) => string;
}

const WORDS: { [K in RecordKind]: KindWords<RecordContents[K]> } = {
  entry: {
    noun: 'entry',
    one: 'an entry',
    about: ({ date }) => (date ? ` for ${formatShortDate(date)}` : ''),
    figures: ({ stops, total }) => (typeof stops === 'number' && typeof total === 'number' ? ` (${stops} stops, ${formatPence(total)})` : ''),
  },
  invoice: {
    noun: 'statement check',
    one: 'a statement check',
    about: ({ periodStart, periodEnd }) =>
      periodStart && periodEnd ? ` for ${formatShortDate(periodStart)} to ${formatShortDate(periodEnd)}` : '',
    figures: ({ paid }) => (typeof paid === 'number' ? ` (${formatPence(paid)} paid)` : ''),
  },
  courier: {
    noun: 'courier',
    one: 'a courier',
    about: ({ name }) => (name ? ` "${name}"` : ''),
    figures: () => '',
  },
  rateCard: {
    noun: 'rate card',
    one: 'a rate card',
    // A courier's first card is in force "from the start", as the settings call it.
    about: ({ validFrom }) => (!validFrom ? '' : validFrom <= FIRST_CARD_FROM ? ' from the start' : ` from ${formatShortDate(validFrom)}`),
    figures: () => '',
  },
  deduction: {
    noun: 'deduction',
    one: 'a deduction',
    about: ({ label, from }) => (label ? ` "${label}"` : '') + (from ? ` from ${formatShortDate(from)}` : ''),
    figures: ({ amount }) => (typeof amount === 'number' ? ` (${formatPence(amount)})` : ''),
  },
  expense: {
    noun: 'expense',
    one: 'an expense',
    about: ({ date }) => (date ? ` on ${formatShortDate(date)}` : ''),
    figures: ({ amount }) => (typeof amount === 'number' ? ` (${formatPence(amount)})` : ''),
  },
  vehicle: {
    noun: 'vehicle',
    one: 'a vehicle',
    about: ({ name }) => (name ? ` "${name}"` : ''),
    figures: () => '',
  },
  mileage: {
    noun: 'mileage log',
    one: 'a mileage log',
    about: ({ date }) => (date ? ` for ${formatShortDate(date)}` : ''),
    figures: ({ businessMiles }) => (typeof businessMiles === 'number' ? ` (${businessMiles} business miles)` : ''),
  },
  statementLine: {
    noun: 'statement line',
    one: 'a statement line',
    about: ({ date }) => (date ? ` for ${formatShortDate(date)}` : ''),
    figures: ({ amount }) => (typeof amount === 'number' ? ` (${formatPence(amount)})` : ''),
  },
  statementFormat: {
    noun: 'statement format',
    one: "a courier's statement format",
    about: () => '',
    figures: () => '',
  },
  sentUpdate: {
    noun: 'sent update',
    one: 'a sent update',
    about: ({ taxYear, quarter }) => (taxYear && quarter ? ` for Q${quarter} ${taxYear}` : ''),
    figures: ({ reference }) => (reference ? ` (reference ${reference})` : ''),
  },
  fuelFill: {
    noun: 'fuel fill',
    one: 'a fuel fill',
    about: ({ date }) => (date ? ` for ${formatShortDate(date)}` : ''),
    figures: ({ cost }) => (typeof cost === 'number' ? ` (${formatPence(cost)})` : ''),
  },
  statementQuery: {
    noun: 'statement query',
    one: 'a statement query',
    about: ({ madeOn }) => (madeOn ? ` made ${formatShortDate(madeOn)}` : ''),
    figures: ({ total }) => (typeof total === 'number' ? ` (${formatPence(total)})` : ''),
  },
  evidence: {
    noun: 'evidence item',
    one: 'an evidence item',
    about: ({ type }) => (typeof type === 'string' ? ` (${type})` : ''),
    figures: ({ minutes }) => (typeof minutes === 'number' ? ` (${minutes} min)` : ''),
  },
};

/** What the change was, in the driver's words. */
export function describeChange({ item, target }: ParkedChange): string {
  if (item.name === 'profile.update') {
    return 'paymentConfig' in item.args ? 'Changes to your payment settings' : 'Changes to your profile';
  }
  if (item.name === 'settings.put' || target === null) return 'Changing the theme';
  const words = WORDS[target.kind] as KindWords<Record<string, unknown>>;
  const stored = (target.record ?? {}) as Record<string, unknown>;
  if (item.name.endsWith('.delete')) {
    const about = words.about(stored);
    return about ? `Deleting the ${words.noun}${about}` : `Deleting ${words.one}`;
  }
  const args = { ...stored, ...item.args };
  const what = target.record?.server ? `Changes to the ${words.noun}` : `New ${words.noun}`;
  return `${what}${words.about(args)}${words.figures(item.args)}`;
}

export function discardWarning({ item, target }: ParkedChange): string {
  if (target === null) return 'What you changed will be lost: it goes back to what the server has.';
  const { noun } = WORDS[target.kind];
  if (item.name.endsWith('.delete')) {
    return `The ${noun} will come back as the server has it, and will not be deleted.`;
  }
  return target.record?.server
    ? `What you typed will be lost: the ${noun} goes back to what the server has.`
    : `What you typed will be lost: this ${noun} is only on this device and will be removed.`;
}
