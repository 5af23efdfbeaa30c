import { Bell, X } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/button';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import { useReminders } from './use-reminders';
import panel from '@/components/panel.module.css';
import styles from './reminders.module.css';

/** The dashboard's reminders; nothing at all when nothing is due. */
export function RemindersCard() {
  const now = useNow();
  const due = useReminders(now, localDay(now));
  const { pathname } = useLocation();
  if (!due || due.reminders.length === 0) return null;
  return (
    <section className={panel.panel} aria-labelledby="reminders-title">
      <h2 id="reminders-title" className={panel.panelTitle}>
        <Bell aria-hidden="true" />
        Reminders
      </h2>
      <ul className={styles.list}>
        {due.reminders.map((reminder) => (
          <li key={reminder.kind} className={styles.item} data-kind={reminder.kind}>
            <div className={styles.text}>
              <p>{reminder.text}</p>
              {/* A link to a place on this page is a plain anchor: the browser scrolls to it. */}
              {reminder.link.to.startsWith(`${pathname}#`) ? (
                <a className={styles.link} href={reminder.link.to}>
                  {reminder.link.label}
                </a>
              ) : (
                <Link className={styles.link} to={reminder.link.to}>
                  {reminder.link.label}
                </Link>
              )}
            </div>
            <Button variant="ghost" aria-label={`Hide for 7 days: ${reminder.text}`} title="Hide for 7 days" onClick={() => due.dismiss(reminder.kind)}>
              <X aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
