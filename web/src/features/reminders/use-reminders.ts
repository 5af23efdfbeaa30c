// The reminders due now, from the device's own store: the days with an entry and their
// turnover (from the live entries all screens share: a record feature never imports another),
// the receipt photos still on the upload queue, the statement queries waiting for an answer, and
// the sent updates against the records now (changes since sent). Dismissals come from
// localStorage per user.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useState } from 'react';
import { useEntries } from '@/lib/sync-react/use-live-entries';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { startYearOf, taxYearBounds, taxYearLabel, taxYearOf, type TaxYearLabel } from '@/core/tax/tax-year';
import type { LocalDb } from '@/sync/db';
import type { LocalEntry, LocalSentUpdate } from '@/sync/types';
import { receiptCounts } from '@/sync/receipts';
import { dismissedKinds, dismissReminder } from './dismissals';
import { dueReminders, sentKey, type Reminder, type ReminderKind, type TrackedQuery } from '@/core/reminders/reminders';
import { settingsQueryReminderDays, settingsQuarters } from '@/lib/sync-react/use-profile';
import type { MtdQuarters } from '@/core/mtd/quarters';
import type { UncarriedChange } from '@/core/mtd/uncarried';
import { readTaxRecordsBetween } from '@/lib/sync-react/tax-records';

interface ReminderFacts {
  receipts: { waiting: number; failed: number };
  election: MtdQuarters;
  sent: Set<string>;
  queries: TrackedQuery[];
  queryReminderDays: number;
  uncarried: UncarriedChange[];
}

interface DayFacts {
  logged: Set<string>;
  turnover: Map<TaxYearLabel, number>;
}

export async function readReminderFacts(db: LocalDb, today: string): Promise<ReminderFacts> {
  const [receipts, settings, sentUpdates, queries] = await Promise.all([
    receiptCounts(db),
    db.getDoc('settings'),
    db.sentUpdates.where('deleted').equals(0).toArray(),
    db.statementQueries.where('deleted').equals(0).toArray(),
  ]);
  return {
    receipts,
    election: settingsQuarters(settings),
    sent: new Set(sentUpdates.map((sent) => sentKey(sent.taxYear as TaxYearLabel, sent.quarter))),
    queries,
    queryReminderDays: settingsQueryReminderDays(settings),
    // Only when an update was sent: the tax figures are not worked out on the dashboard otherwise.
    uncarried: sentUpdates.length > 0 ? await readUncarried(db, sentUpdates, today) : [],
  };
}

/**
 * The changes no sent update carries, from the records of the years updates were sent for: read
 * by their dates, not the whole log, so a ten-year device reads a year or two and this live
 * query runs again only when those dates change (issue 30). A year's updates run from 6 April,
 * or 1 April for calendar quarters, to 5 April.
 */
async function readUncarried(db: LocalDb, sentUpdates: readonly LocalSentUpdate[], today: string): Promise<UncarriedChange[]> {
  const starts = sentUpdates.map((sent) => startYearOf(sent.taxYear as TaxYearLabel));
  // And any period a sent update names, should one ever reach past its year.
  const from = [`${Math.min(...starts)}-04-01`, ...sentUpdates.map((sent) => sent.periodStart)].reduce((a, b) => (a < b ? a : b));
  const to = [taxYearBounds(taxYearLabel(Math.max(...starts))).to, ...sentUpdates.map((sent) => sent.periodEnd)].reduce((a, b) => (a > b ? a : b));
  const records = await readTaxRecordsBetween(db, from, to);
  // The MTD figures' code (the tax summary it builds on) loads only for a driver who has sent an
  // update, not on every dashboard's way to its first figure (issue 30). Imported after the last
  // read of the store, so this live query still follows every record it read.
  const { uncarriedChanges } = await import('@/core/mtd/uncarried');
  return uncarriedChanges(records, sentUpdates, today);
}

/** The days with an entry and the turnover per tax year, from the live entries. */
function dayFacts(entries: readonly LocalEntry[]): DayFacts {
  const turnover = new Map<TaxYearLabel, number>();
  for (const entry of entries) {
    const year = taxYearOf(entry.date);
    turnover.set(year, (turnover.get(year) ?? 0) + entry.total);
  }
  return { logged: new Set(entries.map((entry) => entry.date)), turnover };
}

/** The reminders due and not dismissed at `now`, and the way to dismiss one; undefined on the first read. */
export function useReminders(now: Date, today: string): { reminders: Reminder[]; dismiss: (kind: ReminderKind) => void } | undefined {
  const { db } = useSyncHandle();
  const facts = useLiveQuery(() => readReminderFacts(db, today), [db, today]);
  // The entries every screen part shares, rather than a read of their own (issue 30).
  const entries = useEntries();
  const days = useMemo(() => (entries ? dayFacts(entries) : undefined), [entries]);
  // Bumped on a dismissal, so the stored dismissals are read again.
  const [, setDismissals] = useState(0);
  if (!facts || !days) return undefined;
  const hidden = dismissedKinds(localStorage, db.userId, now.getTime());
  const reminders = dueReminders({
    today,
    logged: days.logged,
    incomeOf: (year) => days.turnover.get(year) ?? 0,
    receipts: facts.receipts,
    election: facts.election,
    sent: facts.sent,
    queries: facts.queries,
    queryReminderDays: facts.queryReminderDays,
    uncarried: facts.uncarried,
  }).filter((reminder) => !hidden.has(reminder.kind));
  return {
    reminders,
    dismiss: (kind) => {
      dismissReminder(localStorage, db.userId, kind, Date.now());
      setDismissals((n) => n + 1);
    },
  };
}
