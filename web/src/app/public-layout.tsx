import { Outlet } from 'react-router';
import { PublicHeader } from '@/components/public-header';
import { SiteFooter } from '@/components/site-footer';
import { TermsBanner } from '@/components/terms-banner';
import { useSession } from '@/lib/session/use-session';
import styles from './layouts.module.css';

export function PublicLayout() {
  const session = useSession();
  return (
    <div className={styles.publicShell}>
      <PublicHeader />
      <main className={styles.publicMain}>
        <Outlet />
      </main>
      <SiteFooter />
      {/* Signed out, or not known yet (PublicOnly shows this layout only to a likely visitor). */}
      {session.status !== 'signed-in' ? <TermsBanner /> : null}
    </div>
  );
}
