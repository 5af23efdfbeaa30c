import { useCallback, useEffect, useState } from 'react';

/** Spec §9: success messages show for 3 s. */
export const SUCCESS_MESSAGE_MS = 3_000;

/**
 * A short-lived message: `show(text)` displays it, and it clears itself after `ms`. Showing a
 * new one restarts the clock.
 */
export function useFlash(ms: number = SUCCESS_MESSAGE_MS): [message: string | null, show: (message: string) => void, clear: () => void] {
  const [flash, setFlash] = useState<{ message: string } | null>(null);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), ms);
    return () => clearTimeout(timer);
  }, [flash, ms]);
  const show = useCallback((message: string) => setFlash({ message }), []);
  const clear = useCallback(() => setFlash(null), []);
  return [flash?.message ?? null, show, clear];
}
