// What a driver does with a courier's rate cards, and the re-pricing a change may call for.
// Each write stores the records with their outbox items in one transaction (sync/commands.ts)
// and nudges the engine. Re-pricing happens only here, and only when the driver confirms.
import { readPaySetup } from '@/lib/sync-react/use-pay-setup';
import { saveRecord, saveRecords, type RecordWrite } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { contentOf } from '@/sync/records';
import type { LocalRateCard, RateCardContent } from '@/sync/types';
import { repricePlan, type Priced, type RepriceDay, type RepricePlan } from '@/core/pay/reprice-plan';

/** Saves a new card (no id) or an edit of one. */
export async function saveCard(handle: SyncHandle, card: RateCardContent, id?: string): Promise<LocalRateCard> {
  const saved = await saveRecord(handle.db, 'rateCard', card, id);
  return saved;
}

/** The re-price `card` would make now, read from the device's days and cards. */
export async function planReprice(handle: SyncHandle, card: LocalRateCard): Promise<RepricePlan> {
  const [entries, { cards }] = await Promise.all([handle.db.entries.where('deleted').equals(0).toArray(), readPaySetup(handle.db)]);
  return repricePlan(entries, cards, card);
}

/**
 * Moves each planned day from `from` to `to` (its total and card), all in ONE transaction. A
 * day changed or deleted since the plan was made is left alone: the driver's later edit wins.
 * Returns the days actually moved.
 */
async function moveDays(handle: SyncHandle, days: readonly RepriceDay[], from: 'before' | 'after', to: 'before' | 'after'): Promise<RepriceDay[]> {
  const { db } = handle;
  const moved = await db.transaction('rw', db.entries, db.outbox, async () => {
    const writes: RecordWrite[] = [];
    const done: RepriceDay[] = [];
    for (const day of days) {
      const entry = await db.entries.get(day.id);
      if (!entry || entry.deleted || !same(entry, day[from])) continue;
      writes.push({ kind: 'entry', id: entry.id, content: { ...contentOf('entry', entry), ...day[to] } });
      done.push(day);
    }
    await saveRecords(db, writes);
    return done;
  });
  return moved;
}

function same(entry: Priced, priced: Priced): boolean {
  return entry.total === priced.total && entry.rateCardId === priced.rateCardId;
}

/** The driver said Re-price: each day gets its new total and card. Returns the days re-priced. */
export function repriceDays(handle: SyncHandle, plan: RepricePlan): Promise<RepriceDay[]> {
  return moveDays(handle, plan.days, 'before', 'after');
}

/** Undo of a re-price: each day gets back the total and card it had. */
export async function undoReprice(handle: SyncHandle, days: readonly RepriceDay[]): Promise<void> {
  await moveDays(handle, days, 'after', 'before');
}
