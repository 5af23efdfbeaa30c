// The signed-in user's own account security (docs/api.md "Account"): sessions, password, and
// a guest adding an e-mail and password. Online-only by nature: these are the server's records.
import { z } from '@/lib/zod';
import { request } from '@/lib/api';
import { apiPaths, sessionPath } from '@/lib/paths';
import { authResponseSchema, type AuthResponse } from '@/lib/session/user';

const sessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});

export type DeviceSession = z.infer<typeof sessionSchema>;

export async function listSessions(): Promise<DeviceSession[]> {
  const { sessions } = await request(apiPaths.sessions, { schema: z.object({ sessions: z.array(sessionSchema) }) });
  return sessions;
}

export function endSession(id: string): Promise<void> {
  return request(sessionPath(id), { method: 'DELETE' });
}

export async function endOtherSessions(): Promise<number> {
  const { ended } = await request(apiPaths.endOtherSessions, { method: 'POST', schema: z.object({ ended: z.number() }) });
  return ended;
}

/** `currentPassword` is left out only by a session that signed in with the temporary password. */
export async function changePassword(input: { currentPassword?: string; newPassword: string; endOtherSessions: boolean }): Promise<number> {
  const { endedSessions } = await request(apiPaths.password, {
    method: 'POST',
    body: input,
    schema: z.object({ endedSessions: z.number() }),
  });
  return endedSessions;
}

export function linkPassword(input: { email: string; password: string }): Promise<AuthResponse> {
  return request(apiPaths.linkPassword, { method: 'POST', body: input, schema: authResponseSchema });
}
