import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from '@/lib/zod';
import { validateCredentials, type CredentialsInput } from './credentials-schema';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from './text-rules';

// The zod schema validateCredentials replaced, and how its first message per field was read.
const zodCredentials = z.object({
  email: z.string().trim().min(1, 'Email is required').regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email address'),
  password: z.string().min(1, 'Password is required').min(6, 'Password should be at least 6 characters'),
  displayName: z
    .string()
    .trim()
    // Issue 31: the free-text rule, added to both.
    .refine((name) => !hasForbiddenCharacters(name), forbiddenCharactersMessage('Display name'))
    .transform((name) => name || undefined),
});

function withZod(input: CredentialsInput) {
  const result = zodCredentials.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path[0] as string] ??= issue.message;
  return { ok: false, errors };
}

const cases: CredentialsInput[] = [
  { email: '', password: '', displayName: '' },
  { email: '  ', password: '12345', displayName: ' ' },
  { email: 'driver.example.com', password: 'secret123', displayName: '' },
  { email: ' driver@example.com ', password: 'secret123', displayName: '  Sam  ' },
  { email: 'driver@example.com', password: '      ', displayName: '' },
  { email: 'dri ver@example.com', password: 'secret', displayName: 'x' },
  { email: 'driver@example.com', password: 'secret123', displayName: 'Sam\u202e' },
  { email: '', password: '', displayName: 'Sam\u0000' },
];

describe('sign-in form checks', () => {
  it('give the same value and the same first message per field as the zod schema', () => {
    for (const input of cases) expect(validateCredentials(input), JSON.stringify(input)).toStrictEqual(withZod(input));
    const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('a@b.c', ' a@b.co ', 'a@b', '@b.c', 'a @b.c', '\t', 'abcdef', 'x\u001by', 'a\u2066b'));
    fc.assert(
      fc.property(fc.record({ email: text, password: text, displayName: text }), (input) => {
        expect(validateCredentials(input)).toStrictEqual(withZod(input));
      }),
      { numRuns: 1000 },
    );
  });
});
