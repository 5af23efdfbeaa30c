import { ChevronRight, CircleHelp, Crown, FileText, Shield, Truck, UserRound, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/page';
import { routes } from '@/lib/paths';
import { plansOn } from '@/lib/plans';
import { useSession } from '@/lib/session/use-session';
import styles from './more-page.module.css';

interface Place {
  to: string;
  label: string;
  /** What the driver finds there, in their words, so the right place is found at the first try. */
  holds: string;
  Icon: LucideIcon;
}

/**
 * The bottom bar's "More": the places a driver opens now and then, each named by what it holds.
 * The two kinds of settings sit apart, as drivers look for them apart: how they are paid
 * (couriers, cards) and how the app behaves (theme, password, devices: with the profile).
 */
export function MorePage() {
  const session = useSession();
  const plans = session.status === 'signed-in' && plansOn(session.user);
  const settings: Place[] = [
    { to: routes.settings, label: 'Payment Settings', holds: 'Couriers, rate cards, van hire and other deductions', Icon: Truck },
    { to: routes.profile, label: 'Profile', holds: 'Name and photo; app settings: theme, password, signed-in devices, sign out', Icon: UserRound },
  ];
  const help: Place[] = [
    ...(plans ? [{ to: routes.upgrade, label: 'Plans', holds: 'Free and Pro', Icon: Crown }] : []),
    { to: routes.appContact, label: 'Contact', holds: 'Ask a question or report a problem', Icon: CircleHelp },
    { to: routes.appPrivacy, label: 'Privacy Policy', holds: 'What is kept about you, and where', Icon: Shield },
    { to: routes.appTerms, label: 'Terms of Service', holds: 'The rules of using the app', Icon: FileText },
  ];
  return (
    <Page title="More">
      <PlaceList title="Settings" places={settings} />
      <PlaceList title="Help and legal" places={help} />
    </Page>
  );
}

function PlaceList({ title, places }: { title: string; places: Place[] }) {
  return (
    <section className={styles.group} aria-label={title}>
      <h2 className={styles.title}>{title}</h2>
      <ul className={styles.list}>
        {places.map(({ to, label, holds, Icon }) => (
          <li key={to}>
            <Link to={to} className={styles.place}>
              <Icon aria-hidden="true" className={styles.icon} />
              <span className={styles.words}>
                <span className={styles.label}>{label}</span>
                <span className={styles.holds}>{holds}</span>
              </span>
              <ChevronRight aria-hidden="true" className={styles.chevron} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
