import { CircleCheck, Pencil, Plus } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/button';
import { useFlash } from '@/lib/flash';
import { formatPence, formatShortDate, formatWeekdayDate } from '@/lib/format';
import { byValidFrom, cardInForce, FIRST_CARD_FROM } from '@/core/pay/pay';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalRateCard } from '@/sync/types';
import { nextCardForm } from './card-form-schema';
import { cardRules, cardStart, signedPence } from './card-words';
import { planReprice, repriceDays, undoReprice } from './commands';
import { rateCardMessages } from './rate-card-messages';
import { RateCardEditor } from './rate-card-editor';
import type { RepriceDay, RepricePlan } from '@/core/pay/reprice-plan';
import styles from './rate-cards.module.css';

interface RateCardsViewProps {
  courierId: string;
  courierName: string;
  /** The courier's live cards, any order. */
  cards: readonly LocalRateCard[];
  today: string;
}

/**
 * A courier's rate cards, newest first, each editable, and "Change rates from a date". After a
 * save the days the change would re-price are offered, never re-priced unasked; a re-price can
 * be undone.
 */
export function RateCardsView({ courierId, courierName, cards, today }: RateCardsViewProps) {
  const handle = useSyncHandle();
  const headingId = useId();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  // What follows a save, shown under the card it is about: the offer, then what was re-priced.
  const [offer, setOffer] = useState<{ cardId: string; plan: RepricePlan } | null>(null);
  const [repriced, setRepriced] = useState<{ cardId: string; days: RepriceDay[] } | null>(null);
  const [savedCard, setSavedCard] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, showSaved] = useFlash();
  const newestFirst = [...cards].sort((a, b) => byValidFrom(b, a));
  const firstId = newestFirst.at(-1)?.id;

  async function afterSave(card: LocalRateCard) {
    // A new card's editor closes (the card joins the list); an edited card stays open, saved.
    if (!cards.some((c) => c.id === card.id)) setEditing(null);
    setSavedCard(card.id);
    showSaved(rateCardMessages.saved);
    setRepriced(null);
    const plan = await planReprice(handle, card);
    setOffer(plan.days.length > 0 ? { cardId: card.id, plan } : null);
  }

  async function confirm({ cardId, plan }: { cardId: string; plan: RepricePlan }) {
    setBusy(true);
    try {
      setRepriced({ cardId, days: await repriceDays(handle, plan) });
      setOffer(null);
    } finally {
      setBusy(false);
    }
  }

  const inForceToday = cardInForce(cards, courierId, today);
  const afterSaving = (cardId: string) => (
    <>
      {/* Always in the page, so screen readers announce the message when it appears. */}
      <p role="status" className={styles.saved}>
        {saved && savedCard === cardId ? (
          <>
            <CircleCheck aria-hidden="true" />
            {saved}
          </>
        ) : null}
      </p>
      {offer?.cardId === cardId ? <RepriceOffer plan={offer.plan} busy={busy} onConfirm={() => void confirm(offer)} onDecline={() => setOffer(null)} /> : null}
      {repriced?.cardId === cardId ? (
        <RepriceDone
          count={repriced.days.length}
          onUndo={() => {
            const { days } = repriced;
            setRepriced(null);
            void undoReprice(handle, days);
          }}
          onDismiss={() => setRepriced(null)}
        />
      ) : null}
    </>
  );
  return (
    <section className={styles.cards} aria-labelledby={headingId}>
      <div className={styles.sectionHead}>
        <h3 id={headingId} className={styles.sectionTitle}>
          Rate cards
          {/* Two couriers open at once: each section's name says whose it is (axe landmark-unique). */}
          {' '}
          <span className="visually-hidden">for {courierName}</span>
        </h3>
        {editing === 'new' ? null : (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Change rates from a date
          </Button>
        )}
      </div>
      {editing === 'new' ? (
        <RateCardEditor
          courierId={courierId}
          courierName={courierName}
          initial={nextCardForm(inForceToday, today)}
          first={false}
          takenDates={cards.map((c) => c.validFrom)}
          today={today}
          onSaved={(card) => void afterSave(card)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {newestFirst.length === 0 ? <p className={styles.hint}>No rates yet: days for {courierName} are paid only their extra.</p> : null}
      <ul className={styles.cardList}>
        {newestFirst.map((card) =>
          editing === card.id ? (
            <li key={card.id} className={styles.editing}>
              <RateCardEditor
                courierId={courierId}
                courierName={courierName}
                card={card}
                first={card.id === firstId && card.validFrom <= FIRST_CARD_FROM}
                takenDates={cards.filter((c) => c.id !== card.id).map((c) => c.validFrom)}
                today={today}
                onSaved={(saved) => void afterSave(saved)}
                onCancel={() => setEditing(null)}
              />
              {afterSaving(card.id)}
            </li>
          ) : (
            <li key={card.id} className={styles.cardItem}>
              <div className={styles.cardTop}>
                <p className={styles.cardStart}>
                  <span>{cardStart(card)}</span>
                  {card.id === inForceToday?.id ? <span className={styles.badge}>In force today</span> : null}
                </p>
                <Button variant="ghost" aria-label={`Edit rates ${cardStart(card).toLowerCase()}`} onClick={() => setEditing(card.id)}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
              </div>
              {card.label ? <p className={styles.cardLabel}>{card.label}</p> : null}
              <ul className={styles.rules}>
                {cardRules(card).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {afterSaving(card.id)}
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

const dayCount = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * "Re-priced 3 days" with Undo. It stays until the driver dismisses it (no timer, unlike a
 * deleted day's toast): a re-price moves money on many days, so its Undo must not slip away
 * while the driver checks the new totals.
 */
function RepriceDone({ count, onUndo, onDismiss }: { count: number; onUndo: () => void; onDismiss: () => void }) {
  const ref = useInView();
  return (
    <div ref={ref} className={styles.offer}>
      <p role="status" className={styles.offerText}>
        Re-priced {dayCount(count)}
      </p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onUndo}>
          Undo
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}

/**
 * The re-price offer: the rates by their start date, each day that would move with its pay
 * before and after, and the total ("Re-price 2 days with the rates from 15/10/2026?"). The
 * driver decides; nothing moves unasked.
 */
function RepriceOffer({ plan, busy, onConfirm, onDecline }: { plan: RepricePlan; busy: boolean; onConfirm: () => void; onDecline: () => void }) {
  const textId = useId();
  const ref = useInView();
  const rates = plan.cardFrom <= FIRST_CARD_FROM ? 'the rates from the start' : `the rates from ${formatShortDate(plan.cardFrom)}`;
  return (
    <div ref={ref} className={styles.offer} role="group" aria-labelledby={textId}>
      <p id={textId} className={styles.offerText}>
        Re-price {dayCount(plan.days.length)} with {rates}?
      </p>
      {/* A list, not a table: on a phone each day reads on its own lines, never sideways. */}
      <div className={styles.moves} role="region" aria-label="Days that would be re-priced" tabIndex={0}>
        <ul className={styles.moveList}>
          {plan.days.map((day) => (
            <li key={day.id} className={styles.move}>
              <span className={styles.moveDay}>{formatWeekdayDate(day.date)}</span>
              <span className={styles.moveChange}>{signedPence(day.after.total - day.before.total)}</span>
              <span className={styles.movePay}>
                Now {formatPence(day.before.total)} · after {formatPence(day.after.total)}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className={styles.moveTotal}>
        Total: now {formatPence(plan.days.reduce((sum, day) => sum + day.before.total, 0))} · after {formatPence(plan.days.reduce((sum, day) => sum + day.after.total, 0))} ·{' '}
        <strong>{signedPence(plan.difference)}</strong>
      </p>
      <p className={styles.hint}>Days already logged keep their pay unless you re-price them.</p>
      <div className={styles.actions}>
        <Button onClick={onConfirm} disabled={busy} aria-busy={busy}>
          Re-price
        </Button>
        <Button variant="ghost" onClick={onDecline} disabled={busy}>
          Not now
        </Button>
      </div>
    </div>
  );
}

/**
 * Brings a panel into view when it appears: the offer follows a save, and on a phone it would
 * otherwise open below the fold or under the bottom bar (its scroll margins keep it clear).
 */
function useInView() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return ref;
}
