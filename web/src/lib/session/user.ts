import { isBoolean, isNullableString, isOptional, isRecord, isString, validator } from '@/lib/guards';

// Checked by hand, not with zod: the session check runs on every page's first load (see
// lib/guards.ts). user.test.ts holds these to the zod schema they replaced.

/** The signed-in user as the server sends it (docs/api.md, `user`). */
export interface User {
  id: string;
  email: string | null;
  displayName: string;
  photoURL: string | null;
  bio?: string | null | undefined;
  role: string;
  isAnonymous: boolean;
  createdAt: string;
  lastLogin?: string | null | undefined;
  /** The password is temporary (an operator's reset): nothing else until a new one is chosen. */
  mustChangePassword: boolean;
  /** The server's PLANS_ENABLED: false means no banner, upgrade page or plan labels. */
  plansEnabled: boolean;
}

/** The user in a server answer, with only the fields above; undefined when it does not fit. */
export function readUser(value: unknown): User | undefined {
  if (!isRecord(value)) return undefined;
  const { id, email, displayName, photoURL, bio, role, isAnonymous, createdAt, lastLogin, mustChangePassword, plansEnabled } = value;
  const fits =
    isString(id) &&
    id !== '' &&
    isNullableString(email) &&
    isString(displayName) &&
    isNullableString(photoURL) &&
    isOptional(bio, isNullableString) &&
    isString(role) &&
    isBoolean(isAnonymous) &&
    isString(createdAt) &&
    isOptional(lastLogin, isNullableString) &&
    isOptional(mustChangePassword, isBoolean) &&
    isOptional(plansEnabled, isBoolean);
  if (!fits) return undefined;
  const user: User = {
    id,
    email,
    displayName,
    photoURL,
    role,
    isAnonymous,
    createdAt,
    mustChangePassword: mustChangePassword ?? false,
    // A server from before the setting always had plans.
    plansEnabled: plansEnabled ?? true,
  };
  // A server from before these fields leaves them out, and so does the user read back.
  if ('bio' in value) user.bio = bio;
  if ('lastLogin' in value) user.lastLogin = lastLogin;
  return user;
}

/** The spec: the value "pro" means Pro, anything else means Free. */
export function isPro(user: Pick<User, 'role'>): boolean {
  return user.role === 'pro';
}

export const sessionResponseSchema = validator((value) => {
  const user = isRecord(value) ? readUser(value.user) : undefined;
  return user && { user };
});

/** `GET /auth/session`: `user` is null when nobody is signed in (an answer, not a 401). */
export const sessionCheckSchema = validator((value): { user: User | null } | undefined => {
  if (!isRecord(value)) return undefined;
  if (value.user === null) return { user: null };
  const user = readUser(value.user);
  return user && { user };
});

export interface AuthResponse {
  user: User;
  isNewUser: boolean;
}

export const authResponseSchema = validator((value): AuthResponse | undefined => {
  if (!isRecord(value) || !isBoolean(value.isNewUser)) return undefined;
  const user = readUser(value.user);
  return user && { user, isNewUser: value.isNewUser };
});
