import type { ReactNode } from 'react';
import { SyncStateLabel } from '@/components/sync-state-label';
import { countWords, formatPence, formatShortDate } from '@/lib/format';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { LocalEntry, RecordSyncState } from '@/sync/types';
import { courierShown, type CourierTag } from './courier-tag';
import { dayDetails, savedCapNote } from './day-words';
import { byLogged, groupDays, loggedTwice, type DayGroup } from './same-day';
import styles from './entry-list.module.css';

const count = new Intl.NumberFormat('en-GB');

/**
 * Logged days, as given (callers sort), the shifts of one courier's day shown as one day. Each
 * says where it stands with the server in words, not only colour: waiting to sync, not synced
 * (and why), or a quiet tick when synced. `parkedReasons` maps an entry id to why the server
 * refused its change.
 */
export function EntryList({ entries, parkedReasons, pay }: { entries: LocalEntry[]; parkedReasons?: ReadonlyMap<string, string>; pay?: PaySetup | undefined }) {
  return (
    <ul className={styles.list}>
      {groupDays(entries).map((group) => (
        <li key={group.key}>
          <DayCard group={group} pay={pay} parkedReasons={parkedReasons} />
        </li>
      ))}
    </ul>
  );
}

/** What a day shows first: its stops, or its parcels when it has no stops but counted parcels. */
function mainCount(entries: readonly LocalEntry[]): { label: string; value: number; parcels: boolean } {
  const stops = entries.reduce((sum, entry) => sum + entry.stops, 0);
  const counted = entries.filter((entry) => entry.parcels !== null);
  if (stops === 0 && counted.length > 0) return { label: 'Parcels', value: counted.reduce((sum, entry) => sum + (entry.parcels ?? 0), 0), parcels: true };
  return { label: 'Stops', value: stops, parcels: false };
}

/** The least settled state of a day's entries: one not synced makes the day not synced. */
function dayState(entries: readonly LocalEntry[]): RecordSyncState {
  if (entries.some((entry) => entry.syncState === 'parked')) return 'parked';
  return entries.some((entry) => entry.syncState === 'pending') ? 'pending' : 'synced';
}

interface DayCardProps {
  group: DayGroup<LocalEntry>;
  pay?: PaySetup | undefined;
  parkedReasons?: ReadonlyMap<string, string> | undefined;
  /** Edit and Delete for one entry; `name` says which ("entry for 27/11/2025", "shift 2 for 27/11/2025"). */
  actionsFor?: (entry: LocalEntry, name: string) => ReactNode;
  /** An entry being edited shows this instead of its line (a day of several shifts). */
  editorFor?: (entry: LocalEntry) => ReactNode;
}

/**
 * One courier's day. A single entry is the card the spec describes; a day of several shifts
 * (or the same day logged twice, which the doubles panel asks about) is one card with the day's
 * figures added up, and each entry under it with its own figures and actions.
 */
export function DayCard({ group, pay, parkedReasons, actionsFor, editorFor }: DayCardProps) {
  const { entries } = group;
  const [only] = entries;
  if (entries.length === 1 && only) {
    const actions = actionsFor?.(only, `entry for ${formatShortDate(only.date)}`);
    return <EntryCard entry={only} courier={courierShown(pay?.couriers, only.courierId)} parkedReason={parkedReasons?.get(only.id)} capNote={savedCapNote(only, pay?.cards)} actions={actions} />;
  }
  const shown = mainCount(entries);
  const courier = courierShown(pay?.couriers, group.courierId);
  const doubled = loggedTwice(group).length > 0;
  // Oldest first: "Shift 1" is the first logged.
  const shifts = [...entries].sort(byLogged);
  const date = formatShortDate(group.date);
  const state = dayState(entries);
  return (
    <article className={styles.entry} data-sync={state} data-doubled={doubled || undefined} aria-label={`Entry for ${date}`}>
      <CardTop date={date} courier={courier} state={state} reason={undefined} />
      <DayFigures entries={entries} />
      <p className={doubled ? styles.doubled : styles.shiftCount}>
        {doubled ? `Logged ${entries.length === 2 ? 'twice' : `${entries.length} times`}: merge it, or keep both as shifts, under “Logged twice”` : `${entries.length} shifts`}
      </p>
      <ol className={styles.shifts}>
        {shifts.map((entry, index) => {
          const editor = editorFor?.(entry);
          if (editor) return <li key={entry.id}>{editor}</li>;
          // Copies of one day logged twice are not shifts (yet): they are named as entries.
          const word = doubled ? 'Entry' : 'Shift';
          const name = `${word.toLowerCase()} ${index + 1} for ${date}`;
          const details = [`${shown.parcels ? countWords(entry.parcels ?? 0, 'parcel') : countWords(entry.stops, 'stop')}`, ...dayDetails(entry, shown.parcels), formatPence(entry.total)];
          const cap = savedCapNote(entry, pay?.cards);
          const actions = actionsFor?.(entry, name);
          return (
            <li key={entry.id} className={styles.shift} aria-label={`${word} ${index + 1}`}>
              <div className={styles.shiftTop}>
                <span className={styles.shiftName}>
                  {word} {index + 1}
                </span>
                <SyncStateLabel state={entry.syncState} reason={parkedReasons?.get(entry.id)} />
              </div>
              <p className={styles.details}>{details.join(' · ')}</p>
              {cap ? <p className={styles.capped}>{cap}</p> : null}
              {entry.notes ? <p className={styles.notes}>{entry.notes}</p> : null}
              {actions ? <div className={styles.actions}>{actions}</div> : null}
            </li>
          );
        })}
      </ol>
    </article>
  );
}

/** A day's figures: its stops (or parcels), extra and total, its entries added up. */
function DayFigures({ entries }: { entries: readonly LocalEntry[] }) {
  const shown = mainCount(entries);
  return (
    <dl className={styles.figures}>
      <div>
        <dt>{shown.label}</dt>
        <dd>{count.format(shown.value)}</dd>
      </div>
      <div>
        <dt>Extra</dt>
        <dd>{formatPence(entries.reduce((sum, entry) => sum + entry.extra, 0))}</dd>
      </div>
      <div className={styles.total}>
        <dt>Total</dt>
        <dd>{formatPence(entries.reduce((sum, entry) => sum + entry.total, 0))}</dd>
      </div>
    </dl>
  );
}

function CardTop({ date, courier, state, reason }: { date: string; courier: CourierTag | null; state: RecordSyncState; reason: string | undefined }) {
  return (
    <div className={styles.top}>
      <div className={styles.heading}>
        <h3 className={styles.date}>{date}</h3>
        {courier ? (
          <span className={styles.courier}>
            <span className={styles.dot} style={{ background: courier.colour }} aria-hidden="true" />
            {courier.name}
          </span>
        ) : null}
      </div>
      <SyncStateLabel state={state} reason={reason} />
    </div>
  );
}

/** One logged day. `actions` (e.g. Edit and Delete) sit under its figures. */
export function EntryCard({
  entry,
  courier = null,
  parkedReason,
  capNote = null,
  actions,
}: {
  entry: LocalEntry;
  courier?: CourierTag | null;
  parkedReason?: string | undefined;
  /** Why a parcel cap paid fewer parcels than were delivered (day-words.ts savedCapNote). */
  capNote?: string | null;
  actions?: ReactNode;
}) {
  const shown = mainCount([entry]);
  const details = dayDetails(entry, shown.parcels);
  return (
    <article className={styles.entry} data-sync={entry.syncState} aria-label={`Entry for ${formatShortDate(entry.date)}`}>
      <CardTop date={formatShortDate(entry.date)} courier={courier} state={entry.syncState} reason={parkedReason} />
      <DayFigures entries={[entry]} />
      {details.length > 0 ? <p className={styles.details}>{details.join(' · ')}</p> : null}
      {capNote ? <p className={styles.capped}>{capNote}</p> : null}
      {entry.notes ? <p className={styles.notes}>{entry.notes}</p> : null}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  );
}
