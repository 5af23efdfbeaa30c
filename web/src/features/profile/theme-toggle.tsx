import { Moon, Sun } from 'lucide-react';
import { useId, useState } from 'react';
import { FormAlert } from '@/components/form-alert';
import { applyTheme } from '@/lib/theme';
import { saveTheme } from '@/lib/sync-react/doc-commands';
import { useSettings } from '@/lib/sync-react/use-profile';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { Theme } from '@/sync/types';
import styles from './profile-page.module.css';

const options: { theme: Theme; label: string; Icon: typeof Sun }[] = [
  { theme: 'dark', label: 'Dark', Icon: Moon },
  { theme: 'light', label: 'Light', Icon: Sun },
];

/** Dark (default) or light. A synced setting: it follows the driver to their other devices. */
export function ThemeToggle() {
  const handle = useSyncHandle();
  const settings = useSettings();
  const [error, setError] = useState<string | null>(null);
  const labelId = useId();

  async function choose(theme: Theme) {
    if (theme === settings?.theme) return;
    setError(null);
    // At once, not after the IndexedDB write: the tap should feel instant.
    applyTheme(theme);
    try {
      await saveTheme(handle, theme);
    } catch {
      if (settings) applyTheme(settings.theme);
      setError('Failed to save the theme');
    }
  }

  return (
    <div className={styles.setting}>
      <span id={labelId} className={styles.label}>
        Theme
      </span>
      <div role="group" aria-labelledby={labelId} className={styles.segmented}>
        {options.map(({ theme, label, Icon }) => (
          <button
            key={theme}
            type="button"
            aria-pressed={settings?.theme === theme}
            disabled={!settings}
            onClick={() => void choose(theme)}
          >
            <Icon aria-hidden="true" />
            {label}
          </button>
        ))}
      </div>
      <FormAlert message={error} />
    </div>
  );
}
