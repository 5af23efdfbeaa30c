import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs`: a dashboard left open over midday or midnight
 * moves on to the next greeting, day and week by itself.
 */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
