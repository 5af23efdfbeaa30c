import { describe, expect, it } from 'vitest';
import { BANNER_SNOOZE_MS, isBannerSnoozed, snoozeBanner } from './banner-snooze';

/** localStorage's interface over a Map, so this runs in plain Node. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('hiding the Pro banner for a week', () => {
  const now = Date.UTC(2025, 2, 21, 9, 0);

  it('hides it for exactly seven days from the tap', () => {
    const storage = memoryStorage();
    expect(isBannerSnoozed(storage, now)).toBe(false);
    snoozeBanner(storage, now);
    expect(BANNER_SNOOZE_MS).toBe(7 * 24 * 60 * 60 * 1000);
    expect(isBannerSnoozed(storage, now)).toBe(true);
    expect(isBannerSnoozed(storage, now + BANNER_SNOOZE_MS - 1)).toBe(true);
    expect(isBannerSnoozed(storage, now + BANNER_SNOOZE_MS)).toBe(false);
  });

  it('shows it when storage holds nonsense or cannot be read', () => {
    const storage = memoryStorage();
    storage.setItem('delivery-tracker:pro-banner-hidden-until', 'soon');
    expect(isBannerSnoozed(storage, now)).toBe(false);
    const broken = { ...memoryStorage(), getItem: () => { throw new Error('blocked'); } } as Storage;
    expect(isBannerSnoozed(broken, now)).toBe(false);
  });
});
