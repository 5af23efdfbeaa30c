import { beforeEach, describe, expect, it } from 'vitest';
import { DISMISS_MS, dismissalKey, dismissedKinds, dismissReminder } from './dismissals';

describe('dismissed reminders', () => {
  beforeEach(() => localStorage.clear());
  const now = Date.UTC(2026, 10, 24, 9);

  it('hides a reminder for 7 days, then shows it again', () => {
    dismissReminder(localStorage, 'u1', 'quarter', now);
    expect(dismissedKinds(localStorage, 'u1', now)).toEqual(new Set(['quarter']));
    expect(dismissedKinds(localStorage, 'u1', now + DISMISS_MS - 1)).toEqual(new Set(['quarter']));
    expect(dismissedKinds(localStorage, 'u1', now + DISMISS_MS)).toEqual(new Set());
    expect(DISMISS_MS).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it('is kept per user', () => {
    dismissReminder(localStorage, 'u1', 'receipts', now);
    expect(dismissedKinds(localStorage, 'u2', now)).toEqual(new Set());
  });

  it('drops dismissals that ran out and keeps the others', () => {
    dismissReminder(localStorage, 'u1', 'unlogged', now);
    dismissReminder(localStorage, 'u1', 'receipts', now + DISMISS_MS + 1);
    expect(JSON.parse(localStorage.getItem(dismissalKey('u1')) ?? '')).toEqual({ receipts: now + 2 * DISMISS_MS + 1 });
  });

  it('shows everything when what is stored cannot be read', () => {
    localStorage.setItem(dismissalKey('u1'), 'not json');
    expect(dismissedKinds(localStorage, 'u1', now)).toEqual(new Set());
  });
});
