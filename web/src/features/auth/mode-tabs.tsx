import type { KeyboardEvent } from 'react';
import { tabId, type Mode } from './mode';
import styles from './login-page.module.css';

const modes: { mode: Mode; label: string }[] = [
  { mode: 'login', label: 'Login' },
  { mode: 'sign-up', label: 'Sign Up' },
];

/** The Login / Sign Up toggle, as ARIA tabs (arrow keys move between them). */
export function ModeTabs({ mode, panelId, onChange }: { mode: Mode; panelId: string; onChange: (mode: Mode) => void }) {
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = mode === 'login' ? 'sign-up' : 'login';
    onChange(next);
    document.getElementById(tabId(next))?.focus();
  }
  return (
    <div role="tablist" aria-label="Sign-in mode" className={styles.tabs}>
      {modes.map(({ mode: value, label }) => (
        <button
          key={value}
          id={tabId(value)}
          type="button"
          role="tab"
          aria-selected={mode === value}
          aria-controls={panelId}
          tabIndex={mode === value ? 0 : -1}
          className={styles.tab}
          onClick={() => onChange(value)}
          onKeyDown={onKeyDown}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
