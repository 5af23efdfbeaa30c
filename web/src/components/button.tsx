import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './button.module.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

interface Look {
  variant?: Variant;
  /** Stretch to the container's width (forms, cards on a phone). */
  block?: boolean;
}

function classes({ variant = 'primary', block }: Look, extra?: string) {
  return [styles.button, styles[variant], block ? styles.block : undefined, extra].filter(Boolean).join(' ');
}

export function Button({
  variant,
  block,
  className,
  type = 'button',
  ...props
}: Look & ButtonHTMLAttributes<HTMLButtonElement> & { children: ReactNode; ref?: Ref<HTMLButtonElement> }) {
  return <button type={type} className={classes({ variant, block }, className)} {...props} />;
}

/** Navigation that looks like a button: still a link, so it opens in a new tab and reads as one. */
export function ButtonLink({ variant, block, className, ...props }: Look & LinkProps) {
  return <Link className={classes({ variant, block }, className)} {...props} />;
}
