import { request } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { authResponseSchema, type AuthResponse } from '@/lib/session/user';

export function logIn(input: { email: string; password: string }): Promise<AuthResponse> {
  return request(apiPaths.logIn, { method: 'POST', body: input, schema: authResponseSchema });
}

export function signUp(input: { email: string; password: string; displayName?: string | undefined }): Promise<AuthResponse> {
  return request(apiPaths.signUp, { method: 'POST', body: input, schema: authResponseSchema });
}

export function continueAsGuest(): Promise<AuthResponse> {
  return request(apiPaths.guest, { method: 'POST', schema: authResponseSchema });
}
