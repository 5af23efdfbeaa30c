import { Award, CalendarCheck, FileCheck, Lock, Trophy, type LucideIcon } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Card } from '@/components/card';
import { Link } from 'react-router';
import { historyView } from '@/lib/paths';
import { useEntries } from '@/features/entries/use-entries';
import { useStatementChecks } from '@/features/statement-checks/use-statement-checks';
import { achievements, type AchievementId } from '@/lib/achievements';
import styles from './profile-page.module.css';

const icons: Record<AchievementId, LucideIcon> = {
  'delivery-expert': Trophy,
  'perfect-week': CalendarCheck,
  'top-performer': Award,
  'invoice-master': FileCheck,
};

/** Computed from the entries on this device, so they are right offline and update as days are logged. */
export function AchievementsCard() {
  const entries = useEntries();
  const statementChecks = useStatementChecks();
  const list = useMemo(() => (entries && statementChecks ? achievements(entries, statementChecks.length) : null), [entries, statementChecks]);
  const headingId = useId();
  return (
    <Card className={styles.achievementsCard} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Achievements
      </h2>
      {list ? (
        <ul className={styles.achievements}>
          {list.map((item) => {
            const Icon = item.unlocked ? icons[item.id] : Lock;
            return (
              <li key={item.id} className={styles.achievement} data-unlocked={item.unlocked || undefined}>
                <Icon aria-hidden="true" className={styles.achievementIcon} />
                <div className={styles.achievementText}>
                  <h3 className={styles.achievementTitle}>{item.title}</h3>
                  <p className={styles.muted}>{item.description}</p>
                  {item.unlocked ? (
                    <p className={styles.unlocked}>Unlocked</p>
                  ) : (
                    <div className={styles.achievementProgress}>
                      <span className="visually-hidden">Locked. </span>
                      <progress max={item.max} value={item.value} aria-label={`${item.title} progress`} />
                      <span>{item.progress}</span>
                    </div>
                  )}
                  {item.id === 'invoice-master' ? (
                    <Link to={historyView('statements')} className={styles.achievementLink}>
                      Check a statement
                    </Link>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </Card>
  );
}
