import type { User } from '@/lib/session/user';
import type { LocalDoc, ProfileData } from '@/sync/types';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '01890a5d-ac96-774b-bcce-b302099a8057',
    email: 'driver@example.com',
    displayName: 'Sam Driver',
    photoURL: null,
    bio: '',
    role: 'free',
    isAnonymous: false,
    createdAt: '2025-03-01T09:00:00Z',
    lastLogin: '2025-03-20T07:30:00Z',
    mustChangePassword: false,
    plansEnabled: true,
    ...overrides,
  };
}

/** A profile as the server sends it in a pull (the document's `data` and `server`). */
export function makeProfileData(overrides: Partial<ProfileData> = {}): ProfileData {
  return {
    displayName: 'Sam Driver',
    email: 'driver@example.com',
    bio: '',
    photoURL: null,
    role: 'free',
    isAnonymous: false,
    paymentConfig: { tiers: [{ stopCount: 110, rate: 198 }, { rate: 148 }] },
    createdAt: '2025-03-01T09:00:00Z',
    updatedAt: '2025-03-01T09:00:00Z',
    ...overrides,
  };
}

/** The profile document as the device keeps it after a pull with nothing unsent. */
export function syncedProfileDoc(data: ProfileData, version = 1): LocalDoc {
  return { kind: 'profile', data, server: data, patch: {}, version, syncState: 'synced' };
}
