import { describe, expect, it } from 'vitest';
import { DEFAULT_TIERS } from '@/core/pay/pay';
import { makeProfileData, makeUser } from '@/testing/fixtures';
import { profileView, settingsTaxRegion, settingsTheme, type ProfileDoc, type SettingsDoc } from './use-profile';

const user = makeUser({ displayName: 'Sam Driver', bio: 'From the session', role: 'free', photoURL: '/p/session' });

describe('profileView', () => {
  it('is the session user with the default tiers when the device has no profile document', () => {
    expect(profileView(undefined, user)).toEqual({
      displayName: 'Sam Driver',
      email: 'driver@example.com',
      bio: 'From the session',
      photoURL: '/p/session',
      role: 'free',
      isAnonymous: false,
      tiers: DEFAULT_TIERS,
      syncState: 'synced',
    });
  });

  it('puts unsent edits on top of the session user while the server has sent no profile yet', () => {
    const tiers = [{ stopCount: 90, rate: 210 }, { rate: 150 }];
    const doc: ProfileDoc = { kind: 'profile', data: null, server: null, patch: { displayName: 'Samira', paymentConfig: { tiers } }, version: 0, syncState: 'pending' };
    expect(profileView(doc, user)).toMatchObject({ displayName: 'Samira', bio: 'From the session', tiers, syncState: 'pending' });
  });

  it('takes the document (server copy with edits applied) over the session user, except the picture', () => {
    const data = makeProfileData({ displayName: 'Samira Khan', bio: '', role: 'pro', photoURL: '/p/doc', email: 'new@example.com' });
    const doc: ProfileDoc = { kind: 'profile', data, server: data, patch: {}, version: 3, syncState: 'synced' };
    expect(profileView(doc, user)).toMatchObject({ displayName: 'Samira Khan', bio: '', role: 'pro', email: 'new@example.com', photoURL: '/p/session' });
  });

  it('falls back to the default tiers when the stored list is unusable', () => {
    const data = makeProfileData({ paymentConfig: { tiers: [{ rate: 100 }] } });
    expect(profileView({ kind: 'profile', data, server: data, patch: {}, version: 1, syncState: 'synced' }, user).tiers).toBe(DEFAULT_TIERS);
  });
});

describe('settingsTheme', () => {
  it('is dark by default, then the stored or unsent choice', () => {
    expect(settingsTheme(undefined)).toBe('dark');
    const unsent: SettingsDoc = { kind: 'settings', data: null, server: null, patch: { theme: 'light' }, version: 0, syncState: 'pending' };
    expect(settingsTheme(unsent)).toBe('light');
    const synced: SettingsDoc = { kind: 'settings', data: { theme: 'light', taxRegion: 'uk', quarters: 'standard', queryReminderDays: 14, updatedAt: 'x' }, server: { theme: 'light', taxRegion: 'uk', quarters: 'standard', queryReminderDays: 14, updatedAt: 'x' }, patch: {}, version: 1, syncState: 'synced' };
    expect(settingsTheme(synced)).toBe('light');
  });
});

describe('settingsTaxRegion', () => {
  it('is the UK by default, then the stored or unsent choice', () => {
    expect(settingsTaxRegion(undefined)).toBe('uk');
    const unsent: SettingsDoc = { kind: 'settings', data: null, server: null, patch: { taxRegion: 'scotland' }, version: 0, syncState: 'pending' };
    expect(settingsTaxRegion(unsent)).toBe('scotland');
    const data = { theme: 'dark', taxRegion: 'scotland', quarters: 'calendar', queryReminderDays: 30, updatedAt: 'x' } as const;
    expect(settingsTaxRegion({ kind: 'settings', data, server: data, patch: {}, version: 2, syncState: 'synced' })).toBe('scotland');
  });

  it('reads a document stored before the setting existed as the UK', () => {
    const old = { theme: 'light', updatedAt: 'x' } as unknown as SettingsDoc['data'];
    expect(settingsTaxRegion({ kind: 'settings', data: old, server: old, patch: {}, version: 1, syncState: 'synced' })).toBe('uk');
  });
});
