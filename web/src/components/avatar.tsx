import { UserRound } from 'lucide-react';
import styles from './avatar.module.css';

/** The profile picture, or a neutral silhouette when the user has none. Decorative: the control around it carries the label. */
export function Avatar({ photoURL, size = 'md' }: { photoURL: string | null | undefined; size?: 'md' | 'lg' }) {
  return (
    <span className={styles.avatar} data-size={size}>
      {photoURL ? <img src={photoURL} alt="" className={styles.image} /> : <UserRound aria-hidden="true" className={styles.icon} />}
    </span>
  );
}
