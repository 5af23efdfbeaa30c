import type { User } from '@/lib/session/user';

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
    ...overrides,
  };
}
