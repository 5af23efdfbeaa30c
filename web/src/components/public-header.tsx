import { Truck } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { routes } from '@/lib/paths';
import { ButtonLink } from './button';
import styles from './public-header.module.css';

export function PublicHeader() {
  const { pathname } = useLocation();
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to={routes.home} className={styles.brand}>
          <Truck aria-hidden="true" />
          <span>Delivery Tracker</span>
        </Link>
        {pathname === routes.login ? null : (
          <ButtonLink to={routes.login} variant="secondary" className={styles.login}>
            Login
          </ButtonLink>
        )}
      </div>
    </header>
  );
}
