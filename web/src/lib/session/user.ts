import { z } from 'zod';

/** The signed-in user as the server sends it (docs/api.md, `user`). */
export const userSchema = z.object({
  id: z.string().min(1),
  email: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  bio: z.string().nullable().optional(),
  role: z.string(),
  isAnonymous: z.boolean(),
  createdAt: z.string(),
  lastLogin: z.string().nullable().optional(),
  // The password is temporary (an operator's reset): nothing else until a new one is chosen.
  // A server from before it does not say.
  mustChangePassword: z.boolean().default(false),
});

export type User = z.infer<typeof userSchema>;

/** The spec: the value "pro" means Pro, anything else means Free. */
export function isPro(user: Pick<User, 'role'>): boolean {
  return user.role === 'pro';
}

export const sessionResponseSchema = z.object({ user: userSchema });

/** `GET /auth/session`: `user` is null when nobody is signed in (an answer, not a 401). */
export const sessionCheckSchema = z.object({ user: userSchema.nullable() });

export const authResponseSchema = z.object({ user: userSchema, isNewUser: z.boolean() });
export type AuthResponse = z.infer<typeof authResponseSchema>;
