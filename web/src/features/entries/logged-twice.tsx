import { CircleAlert } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button } from '@/components/button';
import { formatPence, formatWeekdayDate } from '@/lib/format';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { LocalEntry } from '@/sync/types';
import { keepAsShifts, mergeDoubles, undoSameDayChange, type SameDayChange } from './commands';
import { courierShown } from './courier-tag';
import { dayCounts, dayDetails } from './day-words';
import { byLogged, duplicateDays, figuresDiffer, type DayGroup } from './same-day';
import panel from '@/components/panel.module.css';
import styles from './same-day.module.css';

/** What was done last, with Undo until dismissed. */
interface Done {
  text: string;
  change: SameDayChange;
}

/**
 * The days logged more than once for one courier, usually on two devices offline that met
 * after sync (issue 25). Each can be merged into one day or kept as separate shifts in one step,
 * through the outbox like any change, so every device ends the same; Undo puts it back. Until
 * then each copy counts in the totals, which the panel says. Nothing shows when there are none.
 */
export function LoggedTwice({ entries, pay }: { entries: readonly LocalEntry[] | undefined; pay: PaySetup | undefined }) {
  const handle = useSyncHandle();
  const headingId = useId();
  const days = useMemo(() => (entries ? duplicateDays(entries) : []), [entries]);
  const [done, setDone] = useState<Done | null>(null);
  if (days.length === 0 && !done) return null;

  const counted = days.reduce((sum, day) => sum + day.entries.reduce((total, entry) => total + entry.total, 0), 0);
  return (
    <section className={`${panel.panel} ${styles.panel}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={panel.panelTitle}>
        <CircleAlert aria-hidden="true" />
        Logged twice
      </h2>
      {days.length > 0 ? (
        <p className={panel.muted}>
          {days.length === 1 ? 'This day was' : `These ${days.length} days were`} logged more than once for the same courier, perhaps on two devices. Every copy counts in your totals
          ({formatPence(counted)} in all) until you merge it into one day or keep the copies as separate shifts.
        </p>
      ) : null}
      {done ? (
        <p role="status" className={styles.done}>
          {done.text}
          <Button
            variant="secondary"
            onClick={() => {
              const { change } = done;
              setDone(null);
              void undoSameDayChange(handle, change);
            }}
          >
            Undo
          </Button>
          <Button variant="ghost" onClick={() => setDone(null)}>
            Dismiss
          </Button>
        </p>
      ) : null}
      <ul className={styles.days}>
        {days.map((day) => (
          <li key={day.key}>
            <DoubledDay
              day={day}
              courierName={courierShown(pay?.couriers, day.courierId)?.name ?? null}
              onMerge={async (chosenId) => {
                const change = await mergeDoubles(
                  handle,
                  day.entries.map((entry) => entry.id),
                  chosenId,
                );
                setDone({ text: `Merged ${formatWeekdayDate(day.date)} into one day`, change });
              }}
              onKeep={async () => {
                const change = await keepAsShifts(
                  handle,
                  day.entries.map((entry) => entry.id),
                );
                setDone({ text: `Kept ${formatWeekdayDate(day.date)} as ${day.entries.length} separate shifts`, change });
              }}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A copy of the day in words: "128 stops · 07:30–16:00 (8h 30m) · £244.44 · “Rain”". */
function copyText(entry: LocalEntry): string {
  const parts = [...dayCounts(entry), ...dayDetails(entry, true), formatPence(entry.total)];
  if (entry.notes) parts.push(`“${entry.notes}”`);
  return parts.join(' · ');
}

function DoubledDay({ day, courierName, onMerge, onKeep }: { day: DayGroup<LocalEntry>; courierName: string | null; onMerge: (chosenId: string) => Promise<void>; onKeep: () => Promise<void> }) {
  const titleId = useId();
  // Oldest first, as they were logged.
  const copies = [...day.entries].sort(byLogged);
  const differ = figuresDiffer(copies);
  // The copy changed last is the likeliest to be right; the driver picks when they differ.
  const latest = day.entries.reduce((best, entry) => (entry.updatedAt > best.updatedAt ? entry : best));
  const [chosen, setChosen] = useState(latest.id);
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  const title = `${formatWeekdayDate(day.date)}${courierName ? ` · ${courierName}` : ''}`;
  return (
    <article className={styles.day} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.dayTitle}>
        {title}: {day.entries.length} copies
      </h3>
      {differ ? (
        <fieldset className={styles.choices}>
          <legend className={styles.legend}>They differ. Keep the figures of:</legend>
          {copies.map((entry) => (
            <label key={entry.id} className={styles.choice}>
              <input type="radio" name={`keep-${day.key}`} value={entry.id} checked={chosen === entry.id} onChange={() => setChosen(entry.id)} />
              <span>{copyText(entry)}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <ul className={styles.copies}>
          {copies.map((entry) => (
            <li key={entry.id}>{copyText(entry)}</li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <Button onClick={() => void act(() => onMerge(chosen))} disabled={busy} aria-busy={busy}>
          Merge into one day
        </Button>
        <Button variant="secondary" onClick={() => void act(onKeep)} disabled={busy}>
          {day.entries.length === 2 ? 'Keep both as shifts' : 'Keep all as shifts'}
        </Button>
      </div>
    </article>
  );
}
