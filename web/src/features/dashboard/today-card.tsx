import { CircleCheck, ChevronRight, Plus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/button';
import { courierShown } from '@/features/entries/courier-tag';
import { dayCounts } from '@/features/entries/day-words';
import { EntryEditor } from '@/features/entries/entry-editor';
import { EntryForm } from '@/features/entries/entry-form';
import { entryMessages } from '@/features/entries/entry-form-schema';
import { useFlash } from '@/lib/flash';
import { countWords, formatPence, formatWeekdayDate } from '@/lib/format';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { LocalEntry } from '@/sync/types';
import styles from './today-card.module.css';

interface TodayCardProps {
  today: string;
  entries: LocalEntry[] | undefined;
  pay: PaySetup | undefined;
}

/**
 * The top of the dashboard (issue 26): today's entry for the courier the driver most likely
 * works for today, with the shift clock. Once today is logged it reads as the logged day (its
 * pay and courier), and tapping it edits it; "Log another day" opens the same form again.
 */
export function TodayCard({ today, entries, pay }: TodayCardProps) {
  const logged = (entries ?? []).filter((entry) => entry.date === today).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const [editing, setEditing] = useState<string | null>(null);
  const [another, setAnother] = useState(false);
  // The form gives way to the logged day as it saves: the confirmation moves here with it.
  const [saved, showSaved] = useFlash();
  const headingId = useId();
  // The long form gives way to the short card at the top of the screen: back to the top, so the
  // day just logged shows with the greeting and the figures it changed, not the figures' middle.
  useEffect(() => {
    if (saved) window.scrollTo({ top: 0 });
  }, [saved]);

  if (entries === undefined || logged.length === 0) {
    return <EntryForm pay={pay} entries={entries} withShiftClock onSaved={(entry) => entry.date === today && showSaved(entryMessages.saved)} />;
  }
  const total = logged.reduce((sum, entry) => sum + entry.total, 0);
  return (
    <>
      <section className={styles.card} aria-labelledby={headingId}>
        <div className={styles.head}>
          <h2 id={headingId} className={styles.title}>
            Today <span className={styles.date}>{formatWeekdayDate(today)}</span>
          </h2>
          <span className={styles.total}>{formatPence(total)}</span>
        </div>
        <p className={styles.logged} role="status">
          {saved ? (
            <>
              <CircleCheck aria-hidden="true" />
              {saved}
            </>
          ) : logged.length > 1 ? (
            `Logged: ${countWords(logged.length, 'shift')}`
          ) : (
            'Logged'
          )}
        </p>
        <ul className={styles.days}>
          {logged.map((entry) =>
            editing === entry.id ? (
              <li key={entry.id}>
                <EntryEditor entry={entry} pay={pay} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={entry.id}>
                <TodayDay entry={entry} pay={pay} onEdit={() => setEditing(entry.id)} />
              </li>
            ),
          )}
        </ul>
        {another ? null : (
          <Button variant="secondary" onClick={() => setAnother(true)}>
            <Plus aria-hidden="true" />
            Log another day
          </Button>
        )}
      </section>
      {another ? <EntryForm pay={pay} entries={entries} withShiftClock /> : null}
    </>
  );
}

function TodayDay({ entry, pay, onEdit }: { entry: LocalEntry; pay: PaySetup | undefined; onEdit: () => void }) {
  // The colour tells couriers apart, so it shows only while there are several.
  const shown = courierShown(pay?.couriers, entry.courierId);
  const courier = shown ?? { name: pay?.couriers.find((c) => c.id === entry.courierId)?.name ?? 'Your courier', colour: 'transparent' };
  const counts = dayCounts(entry);
  const words = [courier.name, ...counts, entry.startTime && entry.finishTime ? `${entry.startTime}–${entry.finishTime}` : null].filter(Boolean).join(' · ');
  return (
    <button type="button" className={styles.day} onClick={onEdit} aria-label={`Edit today: ${formatPence(entry.total)}, ${words}`}>
      {shown ? <span className={styles.swatch} style={{ background: shown.colour }} aria-hidden="true" /> : null}
      <span className={styles.dayWords}>
        <span className={styles.dayPay}>{formatPence(entry.total)}</span>
        <span className={styles.dayDetail}>{words}</span>
      </span>
      <ChevronRight aria-hidden="true" className={styles.chevron} />
    </button>
  );
}
