import fc from 'fast-check';
import { describe, it } from 'vitest';
import { z } from '@/lib/zod';
import { expectSameAsZod, usually } from '@/testing/same-as-zod';
import { providersSchema } from './providers';

// The zod schema this check replaced, as the reference it must agree with.
const zodProviders = z.object({
  phone: z.boolean(),
  oidc: z.object({ label: z.string() }).nullable(),
  signups: z.boolean().default(true),
  guests: z.boolean().default(true),
  phoneRegion: z.string().default('GB'),
  passwordReset: z.boolean().default(false),
});

describe('the sign-in methods a server offers', () => {
  it('agrees with the zod schema, defaults for older servers included', () => {
    expectSameAsZod(
      providersSchema,
      zodProviders,
      [
        { phone: false, oidc: null },
        { phone: true, oidc: { label: 'Google', extra: 1 }, signups: false, guests: false, phoneRegion: 'IE' },
        { phone: true, oidc: { label: 3 } },
        { phone: true, oidc: {} },
        { phone: true },
        { phone: 'yes', oidc: null },
        { phone: false, oidc: null, signups: null },
        { phone: false, oidc: null, phoneRegion: 44 },
        { phone: false, oidc: null, passwordReset: true },
        { phone: false, oidc: null, passwordReset: 'yes' },
        [],
        null,
      ],
      fc.record(
        {
          phone: usually(fc.boolean()),
          oidc: fc.oneof(fc.constant(null), fc.record({ label: usually(fc.string()) }, { requiredKeys: [] }), fc.anything()),
          signups: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
          guests: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
          phoneRegion: fc.oneof(usually(fc.string()), fc.constant(undefined)),
          passwordReset: fc.oneof(usually(fc.boolean()), fc.constant(undefined)),
        },
        { requiredKeys: [] },
      ),
    );
  });
});
