import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Pencil, Trash2 } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/button';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { LocalEntry } from '@/sync/types';
import { EntryEditor } from './entry-editor';
import { DayCard } from './entry-list';
import { groupDays } from './same-day';
import styles from './entries.module.css';

interface EntriesViewProps {
  entries: LocalEntry[];
  parkedReasons: ReadonlyMap<string, string>;
  pay: PaySetup | undefined;
  onDelete: (entry: LocalEntry) => void;
  onEdited: (entry: LocalEntry) => void;
  /** An entry to open in its editor at once (the same-day notice's "Open that day"). */
  initialEditing?: string | null;
  /** What the screen shows under a day's editor (History: the day's evidence). */
  besideEditor?: ((entry: LocalEntry) => ReactNode) | undefined;
}

/** A card's height before it is measured; real heights replace it as rows render. */
const ESTIMATED_ROW_PX = 150;

/**
 * Every day in the range, newest first, the shifts of one courier's day as one card. Only the
 * rows near the screen are in the page (ten years of daily entries is 3,650 cards), scrolled
 * with the window so the page scrolls as any other.
 */
export function EntriesView({ entries, parkedReasons, pay, onDelete, onEdited, initialEditing = null, besideEditor }: EntriesViewProps) {
  const [editing, setEditing] = useState<string | null>(initialEditing);
  const listRef = useRef<HTMLOListElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  }, []);
  const days = useMemo(() => groupDays(entries), [entries]);

  const virtualizer = useWindowVirtualizer({
    count: days.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 6,
    scrollMargin: offset,
    getItemKey: (index) => days[index]?.key ?? index,
  });

  if (entries.length === 0) return <p className={styles.empty}>No entries in this period.</p>;
  const rows = virtualizer.getVirtualItems();
  const editor = (entry: LocalEntry) =>
    editing === entry.id ? (
      <>
        <EntryEditor
          entry={entry}
          pay={pay}
          onDone={(saved) => {
            setEditing(null);
            if (saved) onEdited(entry);
          }}
        />
        {besideEditor?.(entry)}
      </>
    ) : null;
  return (
    <ol ref={listRef} className={styles.rows} style={{ height: virtualizer.getTotalSize() }} aria-label="Entries">
      {rows.map((row) => {
        const day = days[row.index]!;
        const [only] = day.entries;
        return (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className={styles.row}
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {day.entries.length === 1 && only && editing === only.id ? (
              editor(only)
            ) : (
              <DayCard
                group={day}
                pay={pay}
                parkedReasons={parkedReasons}
                editorFor={editor}
                actionsFor={(entry, name) => (
                  <>
                    <Button variant="ghost" aria-label={`Edit ${name}`} onClick={() => setEditing(entry.id)}>
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    <Button variant="ghost" className={styles.delete} aria-label={`Delete ${name}`} onClick={() => onDelete(entry)}>
                      <Trash2 aria-hidden="true" />
                      Delete
                    </Button>
                  </>
                )}
              />
            )}
          </li>
        );
      })}
    </ol>
  );
}
