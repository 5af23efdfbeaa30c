import styles from './spinner.module.css';

interface SpinnerProps {
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  /** Inside a control that already says it is busy (aria-busy): show the ring, announce nothing. */
  decorative?: boolean;
}

/** A live status region, so screen readers hear "Loading" while the ring turns. */
export function Spinner({ label = 'Loading', size = 'md', decorative = false }: SpinnerProps) {
  const a11y = decorative ? { 'aria-hidden': true } : { role: 'status', 'aria-label': label };
  return (
    <span {...a11y} className={styles.spinner} data-size={size}>
      <span className={styles.ring} aria-hidden="true" />
    </span>
  );
}

export function FullScreenSpinner() {
  return (
    <div className={styles.fullScreen}>
      <Spinner size="lg" />
    </div>
  );
}
