import type { ReactNode } from 'react';
import { SyncStateLabel } from '@/components/sync-state-label';
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
        <li key={entry.id}>
          <EntryCard entry={entry} parkedReason={parkedReasons?.get(entry.id)} />
        </li>
      ))}
    </ul>
  );
}

/** One logged day. `actions` (e.g. Edit and Delete) sit under its figures. */
export function EntryCard({ entry, parkedReason, actions }: { entry: LocalEntry; parkedReason?: string | undefined; actions?: ReactNode }) {
  return (
    <article className={styles.entry} data-sync={entry.syncState} aria-label={`Entry for ${formatShortDate(entry.date)}`}>
      <div className={styles.top}>
        <h3 className={styles.date}>{formatShortDate(entry.date)}</h3>
        <SyncStateLabel state={entry.syncState} reason={parkedReason} />
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
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  );
}
