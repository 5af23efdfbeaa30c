import { useEffect, useState } from 'react';
import { clearShift, endShift, readShift, startShift, type ShiftState } from './shift-clock';

export interface ShiftClock {
  shift: ShiftState | null;
  start: () => void;
  end: () => void;
  discard: () => void;
}

/** The device's shift clock for this account (shift-clock.ts), shared by every open tab. */
export function useShiftClock(userId: string): ShiftClock {
  const [shift, setShift] = useState<ShiftState | null>(() => readShift(localStorage, userId));
  useEffect(() => {
    // Another tab started or ended the shift: show it here too.
    const follow = () => setShift(readShift(localStorage, userId));
    follow();
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [userId]);
  return {
    shift,
    start: () => setShift(startShift(localStorage, userId, Date.now())),
    end: () => setShift(endShift(localStorage, userId, Date.now())),
    discard: () => setShift(clearShift(localStorage, userId)),
  };
}
