// Links the server sends to one e-mail address (docs/api.md "Forgotten passwords and
// invitations"): ask for a reset link, look at a link, then set a new password or create the
// invited account. Online only: these are the server's records.
import { request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { authResponseSchema, type AuthResponse } from '@/lib/session/user';
import { z } from '@/lib/zod';

const linkSchema = z.object({
  kind: z.enum(['password-reset', 'invite']),
  email: z.string(),
  expiresAt: z.string(),
});

export type EmailLink = z.infer<typeof linkSchema>;

/** The same answer whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  await request(apiPaths.forgotPassword, { method: 'POST', body: { email }, schema: z.object({ accepted: z.boolean() }) });
}

/** What a link is for and whom it was sent to; 410 `link-expired` when it no longer works. */
export function checkLink(token: string): Promise<EmailLink> {
  return request(apiPaths.checkLink, { method: 'POST', body: { token }, schema: linkSchema });
}

export function resetPassword(input: { token: string; password: string }): Promise<AuthResponse> {
  return request(apiPaths.resetPassword, { method: 'POST', body: input, schema: authResponseSchema });
}

export function acceptInvite(input: { token: string; password: string; displayName?: string | undefined }): Promise<AuthResponse> {
  return request(apiPaths.acceptInvite, { method: 'POST', body: input, schema: authResponseSchema });
}

/** The token in a link's fragment (`/reset-password#TOKEN`), or null when there is none. */
export function tokenFrom(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{16,}$/.test(token) ? token : null;
}
