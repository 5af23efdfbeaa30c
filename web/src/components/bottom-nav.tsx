import { House, Landmark, Receipt, Settings, UserRound, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { routes } from '@/lib/paths';
import styles from './bottom-nav.module.css';

interface NavItem {
  label: string;
  to: string;
  /** The spec highlights a button when the path *contains* this word, not on exact match. */
  match: string;
  Icon: LucideIcon;
}

const items: NavItem[] = [
  { label: 'Home', to: routes.dashboard, match: 'dashboard', Icon: House },
  { label: 'Spending', to: routes.spending, match: 'spending', Icon: Receipt },
  { label: 'Tax', to: routes.taxYear, match: '/app/tax', Icon: Landmark },
  { label: 'Profile', to: routes.profile, match: 'profile', Icon: UserRound },
  { label: 'Settings', to: routes.settings, match: 'settings', Icon: Settings },
];

export function BottomNav() {
  const { pathname } = useLocation();
  return (
    <nav className={styles.nav} aria-label="Main">
      <ul className={styles.list}>
        {items.map(({ label, to, match, Icon }) => {
          const active = pathname.includes(match);
          return (
            <li key={to}>
              <Link to={to} className={styles.item} aria-current={active ? 'page' : undefined}>
                <Icon aria-hidden="true" />
                <span>{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
