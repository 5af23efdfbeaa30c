import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from './button';
import styles from './update-prompt.module.css';

/**
 * Offers a new version when one has been downloaded. Never reloads by itself: unsent changes
 * are safe in IndexedDB either way, but a reload in the middle of typing an entry is not.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className={styles.prompt} role="status">
      <span>A new version of Delivery Tracker is ready.</span>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => setNeedRefresh(false)}>
          Later
        </Button>
        <Button onClick={() => void updateServiceWorker(true)}>Reload</Button>
      </div>
    </div>
  );
}
