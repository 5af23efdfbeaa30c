import { formatPence, formatShortDate } from '@/lib/format';
import type { ParkedChange } from './use-parked-changes';

interface PutArgs {
  date?: string;
  stops?: number;
  total?: number;
}

/** What the change was, in the driver's words. */
export function describeChange({ item, entry }: ParkedChange): string {
  if (item.name === 'profile.update') {
    return 'paymentConfig' in item.args ? 'Changes to your payment settings' : 'Changes to your profile';
  }
  if (item.name === 'settings.put') return 'Changing the theme';
  if (item.name === 'entry.delete') {
    return entry?.date ? `Deleting the entry for ${formatShortDate(entry.date)}` : 'Deleting an entry';
  }
  const args = item.args as PutArgs;
  const date = args.date ?? entry?.date;
  const what = entry?.server ? 'Changes to the entry' : 'New entry';
  const figures = typeof args.stops === 'number' && typeof args.total === 'number' ? ` (${args.stops} stops, ${formatPence(args.total)})` : '';
  return date ? `${what} for ${formatShortDate(date)}${figures}` : `${what}${figures}`;
}

export function discardWarning(change: ParkedChange): string {
  if (change.item.name === 'profile.update' || change.item.name === 'settings.put') {
    return 'What you changed will be lost: it goes back to what the server has.';
  }
  if (change.item.name === 'entry.delete') {
    return 'The entry will come back as the server has it, and will not be deleted.';
  }
  return change.entry?.server
    ? 'What you typed will be lost: the entry goes back to what the server has.'
    : 'What you typed will be lost: this entry is only on this device and will be removed.';
}
