import { Ellipsis, FileCheck, History, House, Landmark, Receipt, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { navItemAt, navItems, type NavItemId } from '@/lib/nav';
import styles from './bottom-nav.module.css';

const icons: Record<NavItemId, LucideIcon> = {
  home: House,
  history: History,
  statements: FileCheck,
  spending: Receipt,
  tax: Landmark,
  more: Ellipsis,
};

/** The bottom bar: one tap to every place a driver goes, the current one highlighted (lib/nav.ts). */
export function BottomNav() {
  const { pathname, search } = useLocation();
  const current = navItemAt(pathname, search);
  return (
    <nav className={styles.nav} aria-label="Main">
      <ul className={styles.list}>
        {navItems.map(({ id, label, to }) => {
          const Icon = icons[id];
          return (
            <li key={id}>
              <Link to={to} className={styles.item} aria-current={id === current ? 'page' : undefined}>
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
