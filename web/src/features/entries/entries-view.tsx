import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Pencil, Trash2 } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { Button } from '@/components/button';
import { formatShortDate } from '@/lib/format';
import type { PaySetup } from '@/lib/sync/use-pay-setup';
import type { LocalEntry } from '@/sync/types';
import { EntryEditor } from './entry-editor';
import { courierShown } from './courier-tag';
import { EntryCard } from './entry-list';
import styles from './entries.module.css';

interface EntriesViewProps {
  entries: LocalEntry[];
  parkedReasons: ReadonlyMap<string, string>;
  pay: PaySetup | undefined;
  onDelete: (entry: LocalEntry) => void;
  onEdited: (entry: LocalEntry) => void;
}

/** A card's height before it is measured; real heights replace it as rows render. */
const ESTIMATED_ROW_PX = 150;

/**
 * Every entry in the range, newest first. Only the rows near the screen are in the page (ten
 * years of daily entries is 3,650 cards), scrolled with the window so the page scrolls as
 * any other.
 */
export function EntriesView({ entries, parkedReasons, pay, onDelete, onEdited }: EntriesViewProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: entries.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
    scrollMargin: offset,
    getItemKey: (index) => entries[index]?.id ?? index,
  });

  if (entries.length === 0) return <p className={styles.empty}>No entries in this period.</p>;
  const rows = virtualizer.getVirtualItems();
  return (
    <ol ref={listRef} className={styles.rows} style={{ height: virtualizer.getTotalSize() }} aria-label="Entries">
      {rows.map((row) => {
        const entry = entries[row.index]!;
        return (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className={styles.row}
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {editing === entry.id ? (
              <EntryEditor
                entry={entry}
                pay={pay}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) onEdited(entry);
                }}
              />
            ) : (
              <EntryCard
                entry={entry}
                courier={courierShown(pay?.couriers, entry.courierId)}
                parkedReason={parkedReasons.get(entry.id)}
                actions={
                  <>
                    <Button variant="ghost" aria-label={`Edit entry for ${formatShortDate(entry.date)}`} onClick={() => setEditing(entry.id)}>
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    <Button variant="ghost" className={styles.delete} aria-label={`Delete entry for ${formatShortDate(entry.date)}`} onClick={() => onDelete(entry)}>
                      <Trash2 aria-hidden="true" />
                      Delete
                    </Button>
                  </>
                }
              />
            )}
          </li>
        );
      })}
    </ol>
  );
}
