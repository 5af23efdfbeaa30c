import { Link } from 'react-router';
import { infoRoutes } from '@/lib/paths';
import styles from './site-footer.module.css';

/** Links to the informational pages, pointing at the app's own copies when inside the app shell. */
export function SiteFooter({ inApp = false }: { inApp?: boolean }) {
  const to = infoRoutes(inApp);
  return (
    <footer className={styles.footer}>
      <nav aria-label="Footer">
        <ul className={styles.links}>
          <li>
            <Link to={to.privacy}>Privacy Policy</Link>
          </li>
          <li>
            <Link to={to.terms}>Terms of Service</Link>
          </li>
          <li>
            <Link to={to.contact}>Contact</Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
