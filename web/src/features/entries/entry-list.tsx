import type { ReactNode } from 'react';
import { SyncStateLabel } from '@/components/sync-state-label';
import { formatMinutes, formatPence, formatShortDate } from '@/lib/format';
import { workedMinutes } from '@/lib/pay';
import type { LocalCourier, LocalEntry } from '@/sync/types';
import { courierShown, type CourierTag } from './courier-tag';
import styles from './entry-list.module.css';

const count = new Intl.NumberFormat('en-GB');

/**
 * Logged days, as given (callers sort). Each says where it stands with the server in words,
 * not only colour: waiting to sync, not synced (and why), or a quiet tick when synced.
 * `parkedReasons` maps an entry id to why the server refused its change.
 */
export function EntryList({
  entries,
  parkedReasons,
  couriers,
}: {
  entries: LocalEntry[];
  parkedReasons?: ReadonlyMap<string, string>;
  couriers?: readonly LocalCourier[] | undefined;
}) {
  return (
    <ul className={styles.list}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <EntryCard entry={entry} courier={courierShown(couriers, entry.courierId)} parkedReason={parkedReasons?.get(entry.id)} />
        </li>
      ))}
    </ul>
  );
}

/** The optional counts of a day, in words, for the line under its figures. */
function dayDetails(entry: LocalEntry): string[] {
  const details: string[] = [];
  const minutes = workedMinutes(entry.startTime, entry.finishTime);
  if (minutes !== null) details.push(`${entry.startTime}–${entry.finishTime} (${formatMinutes(minutes)})`);
  if (entry.parcels !== null) details.push(`${count.format(entry.parcels)} ${entry.parcels === 1 ? 'parcel' : 'parcels'}`);
  if (entry.collections !== null) details.push(`${count.format(entry.collections)} ${entry.collections === 1 ? 'collection' : 'collections'}`);
  if (entry.failed !== null) details.push(`${count.format(entry.failed)} failed/returned`);
  return details;
}

/** One logged day. `actions` (e.g. Edit and Delete) sit under its figures. */
export function EntryCard({
  entry,
  courier = null,
  parkedReason,
  actions,
}: {
  entry: LocalEntry;
  courier?: CourierTag | null;
  parkedReason?: string | undefined;
  actions?: ReactNode;
}) {
  const details = dayDetails(entry);
  return (
    <article className={styles.entry} data-sync={entry.syncState} aria-label={`Entry for ${formatShortDate(entry.date)}`}>
      <div className={styles.top}>
        <div className={styles.heading}>
          <h3 className={styles.date}>{formatShortDate(entry.date)}</h3>
          {courier ? (
            <span className={styles.courier}>
              <span className={styles.dot} style={{ background: courier.colour }} aria-hidden="true" />
              {courier.name}
            </span>
          ) : null}
        </div>
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
      {details.length > 0 ? <p className={styles.details}>{details.join(' · ')}</p> : null}
      {entry.notes ? <p className={styles.notes}>{entry.notes}</p> : null}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  );
}
