// One day, one record, unless the driver says otherwise (issue 25). A courier's date holds one
// entry; a second one is either a deliberate extra shift (`separateShift`, which the driver
// chose when saving it) or the same day logged twice, usually on two devices offline. Pure:
// the screens group the shifts of a day into one, flag the doubles, and the commands merge
// them or keep them as shifts (commands.ts).
import type { EntryContent } from '@/sync/types';

/** What grouping needs from an entry (a LocalEntry fits). */
export type SameDayEntry = Pick<EntryContent, 'date' | 'courierId' | 'separateShift'> & { id: string };

/** The entries of one courier on one date. */
export interface DayGroup<E extends SameDayEntry> {
  /** `courierId|date`. */
  key: string;
  courierId: string;
  date: string;
  /** In the order they came in (callers pass them newest first or oldest first). */
  entries: E[];
}

export const sameDayKey = (entry: Pick<EntryContent, 'date' | 'courierId'>) => `${entry.courierId}|${entry.date}`;

/** The entries grouped by courier and date, each group where its first entry was in `entries`. */
export function groupDays<E extends SameDayEntry>(entries: readonly E[]): DayGroup<E>[] {
  const groups = new Map<string, DayGroup<E>>();
  for (const entry of entries) {
    const key = sameDayKey(entry);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, courierId: entry.courierId, date: entry.date, entries: [] }));
    group.entries.push(entry);
  }
  return [...groups.values()];
}

/**
 * The entries of a group that look like one day logged more than once: those the driver did
 * not keep as separate shifts, when there are two or more of them. Empty when the group is fine.
 */
export function loggedTwice<E extends SameDayEntry>(group: DayGroup<E>): E[] {
  const unmarked = group.entries.filter((entry) => !entry.separateShift);
  return unmarked.length > 1 ? unmarked : [];
}

/**
 * The first `count` groups groupDays would give for `entries` sorted by date (newest first, as
 * the live entries come), and whether groupDays would give more: only the first days are
 * grouped, not ten years of them (issue 30). Unsorted entries are grouped whole.
 */
export function firstDays<E extends SameDayEntry>(entries: readonly E[], count: number): { days: DayGroup<E>[]; more: boolean } {
  if (!sortedByDate(entries)) {
    const all = groupDays(entries);
    return { days: all.slice(0, count), more: all.length > count };
  }
  // Up to the first entry of the (count + 1)th date: those dates' entries are all side by side,
  // so their groups are whole, and each date is at least one group.
  let dates = 0;
  let end = 0;
  for (; end < entries.length; end += 1) {
    if (end === 0 || entries[end]!.date !== entries[end - 1]!.date) dates += 1;
    if (dates > count) break;
  }
  const groups = groupDays(entries.slice(0, end));
  return { days: groups.slice(0, count), more: groups.length > count || end < entries.length };
}

/** Every day logged more than once, each with only the entries that double it (see loggedTwice). */
export function duplicateDays<E extends SameDayEntry>(entries: readonly E[]): DayGroup<E>[] {
  const doubled = (groups: DayGroup<E>[]) =>
    groups.flatMap((group) => {
      const twice = loggedTwice(group);
      return twice.length > 0 ? [{ ...group, entries: twice }] : [];
    });
  if (!sortedByDate(entries)) return doubled(groupDays(entries));
  // Sorted, a date's entries are side by side: only a run of two or more on one date can hold a
  // double, so the thousands of single days are never keyed and grouped (issue 30).
  const found: DayGroup<E>[] = [];
  for (let start = 0, end = 1; start < entries.length; start = end, end = start + 1) {
    while (end < entries.length && entries[end]!.date === entries[start]!.date) end += 1;
    if (end - start > 1) found.push(...doubled(groupDays(entries.slice(start, end))));
  }
  return found;
}

/** Dates never rising or never falling, so each date's entries are side by side. */
function sortedByDate(entries: readonly SameDayEntry[]): boolean {
  let rising = true;
  let falling = true;
  for (let i = 1; i < entries.length && (rising || falling); i += 1) {
    const [before, date] = [entries[i - 1]!.date, entries[i]!.date];
    if (date < before) rising = false;
    if (date > before) falling = false;
  }
  return rising || falling;
}

/**
 * The entry that stays when doubles are merged, and the one left unmarked when they are kept as
 * shifts: the smallest id. Ids are the same on every device (unlike the times a device saw), so
 * two devices resolving the same day at once write to the same record and never delete both.
 */
export function survivorOf<E extends { id: string }>(entries: readonly E[]): E {
  return entries.reduce((best, entry) => (entry.id < best.id ? entry : best));
}

/** Oldest logged first (then by id): the order a day's shifts and copies are shown in. */
export function byLogged(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The fields that make two entries the same day's figures: all but the notes and the shift mark. */
const FIGURES = ['stops', 'parcels', 'collections', 'failed', 'startTime', 'finishTime', 'extra', 'total', 'rateCardId'] as const;

/** Whether the doubles disagree on anything but their notes, so the driver must pick whose figures stay. */
export function figuresDiffer(entries: readonly Pick<EntryContent, (typeof FIGURES)[number]>[]): boolean {
  const [first, ...rest] = entries;
  return first !== undefined && rest.some((entry) => FIGURES.some((field) => entry[field] !== first[field]));
}

/**
 * The one day the doubles become: the figures of `chosen` (the driver's pick, or any of them
 * when they agree), the notes of all of them (each once, in the order given), and no shift mark.
 * Notes longer than `maxNotes` together are cut there: the merged-away entries stay restorable.
 */
export function mergedDay(entries: readonly EntryContent[], chosen: EntryContent, maxNotes: number): EntryContent {
  const notes: string[] = [];
  for (const entry of [chosen, ...entries]) {
    const note = entry.notes.trim();
    if (note !== '' && !notes.includes(note)) notes.push(note);
  }
  return { ...chosen, notes: notes.join(' · ').slice(0, maxNotes), separateShift: false };
}
