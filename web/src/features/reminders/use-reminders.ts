// The reminders due now, from the device's own store: the days with an entry and their
// turnover (read straight from the entries table: a record feature never imports another), and
// the receipt photos still on the upload queue. Dismissals come from localStorage per user.
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { taxYearOf, type TaxYearLabel } from '@/core/tax/tax-year';
import type { LocalDb } from '@/sync/db';
import { receiptCounts } from '@/sync/receipts';
import { dismissedKinds, dismissReminder } from './dismissals';
import { dueReminders, sentKey, type Reminder, type ReminderKind, type TrackedQuery } from '@/core/reminders/reminders';
import { settingsQueryReminderDays, settingsQuarters } from '@/lib/sync-react/use-profile';
import type { MtdQuarters } from '@/core/mtd/quarters';

interface ReminderFacts {
  logged: Set<string>;
  turnover: Map<TaxYearLabel, number>;
  receipts: { waiting: number; failed: number };
  election: MtdQuarters;
  sent: Set<string>;
  queries: TrackedQuery[];
  queryReminderDays: number;
}

export async function readReminderFacts(db: LocalDb): Promise<ReminderFacts> {
  const [entries, receipts, settings, sentUpdates, queries] = await Promise.all([
    db.entries.where('deleted').equals(0).toArray(),
    receiptCounts(db),
    db.getDoc('settings'),
    db.sentUpdates.where('deleted').equals(0).toArray(),
    db.statementQueries.where('deleted').equals(0).toArray(),
  ]);
  const turnover = new Map<TaxYearLabel, number>();
  for (const entry of entries) turnover.set(taxYearOf(entry.date), (turnover.get(taxYearOf(entry.date)) ?? 0) + entry.total);
  return { logged: new Set(entries.map((entry) => entry.date)), turnover, receipts, election: settingsQuarters(settings), sent: new Set(sentUpdates.map((sent) => sentKey(sent.taxYear as TaxYearLabel, sent.quarter))), queries, queryReminderDays: settingsQueryReminderDays(settings) };
}

/** The reminders due and not dismissed at `now`, and the way to dismiss one; undefined on the first read. */
export function useReminders(now: Date, today: string): { reminders: Reminder[]; dismiss: (kind: ReminderKind) => void } | undefined {
  const { db } = useSyncHandle();
  const facts = useLiveQuery(() => readReminderFacts(db), [db]);
  // Bumped on a dismissal, so the stored dismissals are read again.
  const [, setDismissals] = useState(0);
  if (!facts) return undefined;
  const hidden = dismissedKinds(localStorage, db.userId, now.getTime());
  const reminders = dueReminders({ today, logged: facts.logged, incomeOf: (year) => facts.turnover.get(year) ?? 0, receipts: facts.receipts, election: facts.election, sent: facts.sent, queries: facts.queries, queryReminderDays: facts.queryReminderDays }).filter(
    (reminder) => !hidden.has(reminder.kind),
  );
  return {
    reminders,
    dismiss: (kind) => {
      dismissReminder(localStorage, db.userId, kind, Date.now());
      setDismissals((n) => n + 1);
    },
  };
}
