import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { authErrorMessage } from './auth-messages';

const error = (code: string, message = '') => new ApiError({ status: 400, code, message });

describe('authErrorMessage', () => {
  it('uses the spec texts for the known codes, whatever the server said', () => {
    expect(authErrorMessage(error('email-already-in-use', 'x'), 'sign-up')).toBe('This email is already registered');
    expect(authErrorMessage(error('invalid-email', 'x'), 'sign-up')).toBe('Invalid email address');
    expect(authErrorMessage(error('invalid-credentials', 'x'), 'login')).toBe('Invalid email or password');
  });

  it("passes the server's own message through for other codes", () => {
    expect(authErrorMessage(error('weak-password', 'Too common'), 'sign-up')).toBe('Too common');
    expect(authErrorMessage(error('rate-limited', 'Slow down'), 'login')).toBe('Slow down');
  });

  it('falls back per action when there is no message', () => {
    expect(authErrorMessage(error('network'), 'sign-up')).toBe('Failed to create account');
    expect(authErrorMessage(error('network'), 'login')).toBe('Failed to login');
    expect(authErrorMessage(new Error('boom'), 'login')).toBe('Failed to login');
    expect(authErrorMessage(error('weak-password'), 'sign-up')).toBe('Password should be at least 6 characters');
  });
});
