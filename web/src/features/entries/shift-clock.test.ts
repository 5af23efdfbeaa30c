import { describe, expect, it } from 'vitest';
import { clearShift, endShift, isStale, readShift, shiftTimes, STALE_SHIFT_MS, startShift } from './shift-clock';

/** Storage as the browser's localStorage behaves, kept in a Map (this runs in plain Node). */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

// Local times, so the test reads the same in any time zone.
const at = (day: number, hours: number, minutes: number) => new Date(2026, 2, day, hours, minutes).getTime();

describe('the shift clock', () => {
  it('starts, ends and is read back as it was stored (a reload, a restart)', () => {
    const storage = new MemoryStorage();
    expect(readShift(storage, 'u1')).toBeNull();
    startShift(storage, 'u1', at(7, 7, 42));
    expect(readShift(storage, 'u1')).toEqual({ startedAt: at(7, 7, 42), endedAt: null });
    expect(shiftTimes(readShift(storage, 'u1')!)).toEqual({ date: '2026-03-07', startTime: '07:42', finishTime: null, crossesMidnight: false });
    endShift(storage, 'u1', at(7, 16, 10));
    expect(shiftTimes(readShift(storage, 'u1')!)).toEqual({ date: '2026-03-07', startTime: '07:42', finishTime: '16:10', crossesMidnight: false });
  });

  it('keeps each account’s clock apart, and a cleared one is gone', () => {
    const storage = new MemoryStorage();
    startShift(storage, 'u1', at(7, 7, 0));
    expect(readShift(storage, 'u2')).toBeNull();
    clearShift(storage, 'u1');
    expect(readShift(storage, 'u1')).toBeNull();
  });

  it('ends once: a second End keeps the first finish, and End with nothing running does nothing', () => {
    const storage = new MemoryStorage();
    expect(endShift(storage, 'u1', at(7, 9, 0))).toBeNull();
    startShift(storage, 'u1', at(7, 7, 0));
    endShift(storage, 'u1', at(7, 15, 0));
    expect(endShift(storage, 'u1', at(7, 18, 0))).toEqual({ startedAt: at(7, 7, 0), endedAt: at(7, 15, 0) });
  });

  it('puts a shift that ends after midnight on the day it started', () => {
    const storage = new MemoryStorage();
    startShift(storage, 'u1', at(7, 22, 15));
    endShift(storage, 'u1', at(8, 2, 5));
    expect(shiftTimes(readShift(storage, 'u1')!)).toEqual({ date: '2026-03-07', startTime: '22:15', finishTime: '02:05', crossesMidnight: true });
  });

  it('calls a start left running for longer than any shift stale', () => {
    const start = at(7, 7, 0);
    expect(isStale({ startedAt: start, endedAt: null }, start + STALE_SHIFT_MS)).toBe(false);
    expect(isStale({ startedAt: start, endedAt: null }, start + STALE_SHIFT_MS + 1)).toBe(true);
    expect(isStale({ startedAt: start, endedAt: at(10, 9, 0) }, at(10, 9, 0))).toBe(true);
  });

  it('reads damaged or foreign values as no shift', () => {
    const storage = new MemoryStorage();
    for (const raw of ['not json', '{}', '{"startedAt":"7","endedAt":null}', '{"startedAt":10,"endedAt":5}', 'null']) {
      storage.setItem('delivery-tracker:shift:u1', raw);
      expect(readShift(storage, 'u1')).toBeNull();
    }
  });
});
