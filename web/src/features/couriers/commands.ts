// What a driver does with their couriers. Each call stores the records with their outbox items
// in one transaction (sync/commands.ts) and nudges the engine.
import { deleteRecords, saveRecord, saveRecords } from '@/sync/commands';
import type { SyncHandle } from '@/sync/coordinator';
import { newId } from '@/sync/ids';
import type { CourierContent, LocalCourier, LocalRateCard, RateCardContent } from '@/sync/types';
import { deleteRefusal } from './delete-refusal';

/**
 * A new courier with its first rate card, in one transaction (the courier is pushed first, so
 * the card's reference to it is never missing on the server). `firstCard` is in force from the
 * start: every day logged for the courier has a card.
 */
export async function addCourier(
  handle: SyncHandle,
  courier: CourierContent,
  firstCard: Omit<RateCardContent, 'courierId'>,
): Promise<{ courier: LocalCourier; card: LocalRateCard }> {
  const id = newId();
  const [storedCourier, storedCard] = await saveRecords(handle.db, [
    { kind: 'courier', id, content: courier },
    { kind: 'rateCard', content: { ...firstCard, courierId: id } },
  ]);
  return { courier: storedCourier as LocalCourier, card: storedCard as LocalRateCard };
}

export async function saveCourier(handle: SyncHandle, courier: CourierContent, id: string): Promise<LocalCourier> {
  const saved = await saveRecord(handle.db, 'courier', courier, id);
  return saved;
}

/**
 * Deletes a courier with its rate cards and deductions (they mean nothing without it), in one
 * transaction. Refused, with the reason in words, when it is the driver's last courier or when
 * days or statement checks are logged against it: those must never lose their courier.
 */
export async function deleteCourier(handle: SyncHandle, courier: LocalCourier): Promise<{ deleted: true } | { deleted: false; reason: string }> {
  const { db } = handle;
  const outcome = await db.transaction('rw', [db.couriers, db.rateCards, db.deductions, db.entries, db.invoices, db.outbox], async () => {
    const [couriers, entries, statementChecks] = await Promise.all([
      db.couriers.where('deleted').equals(0).toArray(),
      db.entries.where('deleted').equals(0).toArray(),
      db.invoices.where('deleted').equals(0).toArray(),
    ]);
    const reason = deleteRefusal(courier, { couriers, entries, statementChecks });
    if (reason) return { deleted: false as const, reason };
    const [cards, deductions] = await Promise.all([
      db.rateCards.where('courierId').equals(courier.id).toArray(),
      db.deductions.where('courierId').equals(courier.id).toArray(),
    ]);
    await deleteRecords(db, [
      ...cards.map((card) => ({ kind: 'rateCard' as const, id: card.id })),
      ...deductions.map((deduction) => ({ kind: 'deduction' as const, id: deduction.id })),
      { kind: 'courier', id: courier.id },
    ]);
    return { deleted: true as const };
  });
  return outcome;
}
