import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from '@/lib/zod';
import { makeUser } from '@/testing/fixtures';
import { expectSameAsZod, usually } from '@/testing/same-as-zod';
import { authResponseSchema, readUser, sessionCheckSchema, sessionResponseSchema } from './user';

// The zod schemas these checks replaced (kept here as the reference they must agree with).
const zodUser = z.object({
  id: z.string().min(1),
  email: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  bio: z.string().nullable().optional(),
  role: z.string(),
  isAnonymous: z.boolean(),
  createdAt: z.string(),
  lastLogin: z.string().nullable().optional(),
  mustChangePassword: z.boolean().default(false),
  plansEnabled: z.boolean().default(true),
});
const zodSessionResponse = z.object({ user: zodUser });
const zodSessionCheck = z.object({ user: zodUser.nullable() });
const zodAuthResponse = z.object({ user: zodUser, isNewUser: z.boolean() });

const nullableString = usually(fc.option(fc.string(), { nil: null }));
const arbitraryUser = fc.record(
  {
    id: usually(fc.string({ maxLength: 3 })),
    email: nullableString,
    displayName: usually(fc.string()),
    photoURL: nullableString,
    bio: fc.oneof(nullableString, fc.constant(undefined)),
    role: usually(fc.constantFrom('free', 'pro', 'admin')),
    isAnonymous: usually(fc.boolean()),
    createdAt: usually(fc.string()),
    lastLogin: fc.oneof(nullableString, fc.constant(undefined)),
    mustChangePassword: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
    plansEnabled: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
    extra: fc.string(),
  },
  // Any key may be missing, as from an older or a broken server.
  { requiredKeys: [] },
);

const user = makeUser();
const { bio: _bio, lastLogin: _lastLogin, mustChangePassword: _must, plansEnabled: _plans, ...olderUser } = user;
const userCases: unknown[] = [
  user,
  olderUser,
  { ...user, bio: null, lastLogin: null, email: null, photoURL: 'https://x/y.png' },
  { ...user, bio: undefined, extra: 'dropped' },
  { ...user, id: '' },
  { ...user, email: undefined },
  { ...olderUser, mustChangePassword: 'yes' },
  { ...user, plansEnabled: false },
  { ...user, plansEnabled: 'no' },
  { ...user, isAnonymous: 0 },
  { ...user, createdAt: null },
  { ...user, role: undefined },
  null,
  [],
  'user',
];

describe('the user in a server answer', () => {
  it('reads what the zod schema read, defaults included', () => {
    expect(readUser(olderUser)).toStrictEqual({ ...olderUser, mustChangePassword: false, plansEnabled: true });
    expect(readUser({ ...user, extra: 1 })).toStrictEqual(user);
    expect(readUser({ ...user, id: '' })).toBeUndefined();
    expect(readUser({ ...user, plansEnabled: false })?.plansEnabled).toBe(false);
  });

  it('agrees with the zod schema on the session check', () => {
    expectSameAsZod(
      sessionCheckSchema,
      zodSessionCheck,
      [...userCases.map((u) => ({ user: u })), { user: null }, {}, { user: undefined }, null],
      fc.record({ user: fc.oneof(arbitraryUser, fc.constant(null), fc.anything()) }),
    );
  });

  it('agrees with the zod schema on a session answer', () => {
    expectSameAsZod(sessionResponseSchema, zodSessionResponse, [...userCases.map((u) => ({ user: u })), { user: null }], fc.record({ user: fc.oneof(arbitraryUser, fc.anything()) }));
  });

  it('agrees with the zod schema on a sign-in answer', () => {
    expectSameAsZod(
      authResponseSchema,
      zodAuthResponse,
      [...userCases.map((u) => ({ user: u, isNewUser: true })), { user, isNewUser: 'no' }, { user }, { isNewUser: false }],
      fc.record({ user: fc.oneof(arbitraryUser, fc.anything()), isNewUser: usually(fc.boolean()) }, { requiredKeys: ['user'] }),
    );
  });
});
