import { CircleAlert } from 'lucide-react';
import { useId } from 'react';
import { Button, ButtonLink } from '@/components/button';
import { formatPence, formatWeekdayDate } from '@/lib/format';
import { historyDay } from '@/lib/paths';
import type { LocalEntry } from '@/sync/types';
import { dayCounts } from './day-words';
import styles from './same-day.module.css';

interface SameDayNoticeProps {
  date: string;
  /** Named when the driver has more than one courier. */
  courierName: string | null;
  /** The days already logged for that courier on that date. */
  logged: readonly LocalEntry[];
  /** Saves the day as a separate shift. */
  onShift: () => void;
  onCancel: () => void;
  /** "Add as a separate shift" on a new day, "Save as a separate shift" on an edit. */
  shiftLabel?: string;
  /** A new day offers to open the day already logged instead. */
  offerOpen?: boolean;
}

/**
 * Saving a day for a courier and date that already has one stops before anything is written
 * (issue 25): the driver opens the day already logged, or adds this one as a separate shift,
 * which then shows with it as one day; nothing is saved twice by accident.
 */
export function SameDayNotice({ date, courierName, logged, onShift, onCancel, shiftLabel = 'Add as a separate shift', offerOpen = true }: SameDayNoticeProps) {
  const textId = useId();
  const day = formatWeekdayDate(date);
  const whose = courierName ? ` for ${courierName}` : '';
  const first = logged[0];
  const what =
    logged.length === 1 && first
      ? `${[...dayCounts(first), formatPence(first.total)].join(', ')}`
      : `${logged.length} shifts, ${formatPence(logged.reduce((sum, entry) => sum + entry.total, 0))} in all`;
  return (
    <div className={styles.notice} role="group" aria-labelledby={textId}>
      <p id={textId} role="alert" className={styles.noticeText}>
        <CircleAlert aria-hidden="true" />
        <span>
          {day} is already logged{whose}: {what}. Is this another shift, or the same day?
        </span>
      </p>
      <div className={styles.actions}>
        {offerOpen && first ? (
          <ButtonLink variant="secondary" to={historyDay(date, first.id)}>
            Open that day
          </ButtonLink>
        ) : null}
        <Button variant="secondary" onClick={onShift}>
          {shiftLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
