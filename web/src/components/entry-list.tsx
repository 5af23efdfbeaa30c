import { Check, CircleAlert, Clock } from 'lucide-react';
import { formatPence, formatShortDate } from '@/lib/format';
import type { LocalEntry } from '@/sync/types';
import styles from './entry-list.module.css';

const count = new Intl.NumberFormat('en-GB');

/**
 * Logged days, as given (callers sort). Each says where it stands with the server in words,
 * not only colour: waiting to sync, not synced (and why), or a quiet tick when synced.
 * `parkedReasons` maps an entry id to why the server refused its change.
 */
export function EntryList({ entries, parkedReasons }: { entries: LocalEntry[]; parkedReasons?: ReadonlyMap<string, string> }) {
  return (
    <ul className={styles.list}>
      {entries.map((entry) => (
        <li key={entry.id} className={styles.entry} data-sync={entry.syncState}>
          <div className={styles.top}>
            <h3 className={styles.date}>{formatShortDate(entry.date)}</h3>
            <SyncState entry={entry} reason={parkedReasons?.get(entry.id)} />
          </div>
          <dl className={styles.figures}>
            <div>
              <dt>Stops</dt>
              <dd>{count.format(entry.stops)}</dd>
            </div>
            <div>
              <dt>Extra</dt>
              <dd>{formatPence(entry.extra)}</dd>
            </div>
            <div className={styles.total}>
              <dt>Total</dt>
              <dd>{formatPence(entry.total)}</dd>
            </div>
          </dl>
          {entry.notes ? <p className={styles.notes}>{entry.notes}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function SyncState({ entry, reason }: { entry: LocalEntry; reason: string | undefined }) {
  switch (entry.syncState) {
    case 'synced':
      return (
        <span className={styles.synced} title="Synced">
          <Check aria-hidden="true" />
          <span className="visually-hidden">Synced</span>
        </span>
      );
    case 'pending':
      return (
        <span className={styles.pending}>
          <Clock aria-hidden="true" />
          Waiting to sync
        </span>
      );
    case 'parked':
      return (
        <span className={styles.parked}>
          <CircleAlert aria-hidden="true" />
          <span>Not synced{reason ? `: ${reason}` : ''}</span>
        </span>
      );
  }
}
