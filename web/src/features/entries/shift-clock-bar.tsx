import { Play, Square, Timer } from 'lucide-react';
import { Button } from '@/components/button';
import { formatMinutes, formatTime } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { isStale, shiftTimes } from './shift-clock';
import type { ShiftClock } from './use-shift-clock';
import styles from './shift-clock.module.css';

/**
 * "Start shift" / "End shift": one tap each, kept on the device (shift-clock.ts). Ending fills
 * the form's date, start and finish, which stay editable until the day is saved. A start left
 * running for longer than any shift is offered for discarding.
 */
export function ShiftClockBar({ clock }: { clock: ShiftClock }) {
  const now = useNow(30_000).getTime();
  const { shift } = clock;
  if (!shift) {
    return (
      <div className={styles.bar}>
        <Button variant="secondary" onClick={clock.start}>
          <Play aria-hidden="true" />
          Start shift
        </Button>
      </div>
    );
  }
  const times = shiftTimes(shift);
  const stale = isStale(shift, now);
  if (shift.endedAt === null) {
    return (
      <div className={styles.bar} data-state="running">
        <p className={styles.status} role="status">
          <Timer aria-hidden="true" />
          On shift since {times.startTime}
          {stale ? ` (started ${formatStart(shift.startedAt)})` : ` · ${formatMinutes(Math.max(0, Math.floor((now - shift.startedAt) / 60_000)))}`}
        </p>
        <Button onClick={clock.end}>
          <Square aria-hidden="true" />
          End shift
        </Button>
        {stale ? (
          <Button variant="ghost" onClick={clock.discard}>
            Discard this start
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <div className={styles.bar} data-state="ended">
      <p className={styles.status} role="status">
        <Timer aria-hidden="true" />
        Shift {times.startTime}–{times.finishTime}
        {times.crossesMidnight ? ' (past midnight)' : ''}: filled in below
      </p>
      <Button variant="ghost" onClick={clock.discard}>
        Clear
      </Button>
    </div>
  );
}

function formatStart(ms: number): string {
  const at = new Date(ms);
  return `${at.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })} ${formatTime(ms)}`;
}
