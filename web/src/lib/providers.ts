import { request } from './api';
import { isBoolean, isOptional, isRecord, isString, validator } from './guards';
import { apiPaths } from './paths';

/** The sign-in methods a server offers beyond the spec's own (GET /auth/providers). */
export interface Providers {
  phone: boolean;
  oidc: { label: string } | null;
  /** The operator's switches (SIGNUPS_OPEN, GUESTS_ENABLED); a server from before them is open. */
  signups: boolean;
  guests: boolean;
  /** PHONE_DEFAULT_REGION: the country of numbers typed without a country code. */
  phoneRegion: string;
  /** "Forgot password?" e-mails a link (SMTP and PUBLIC_URL set); otherwise the operator resets it. */
  passwordReset: boolean;
}

// Checked by hand, not with zod: the login page asks on its first load (lib/guards.ts).
export const providersSchema = validator((value): Providers | undefined => {
  if (!isRecord(value)) return undefined;
  const { phone, oidc, signups, guests, phoneRegion, passwordReset } = value;
  if (
    !isBoolean(phone) ||
    !isOptional(signups, isBoolean) ||
    !isOptional(guests, isBoolean) ||
    !isOptional(phoneRegion, isString) ||
    !isOptional(passwordReset, isBoolean)
  )
    return undefined;
  let offered: Providers['oidc'] = null;
  if (oidc !== null) {
    if (!isRecord(oidc) || !isString(oidc.label)) return undefined;
    offered = { label: oidc.label };
  }
  return {
    phone,
    oidc: offered,
    signups: signups ?? true,
    guests: guests ?? true,
    phoneRegion: phoneRegion ?? 'GB',
    passwordReset: passwordReset ?? false,
  };
});

/**
 * What the login page offers until the server answers (or when it cannot): the spec's own
 * buttons, none of the optional ones. A closed server still refuses with its own words.
 */
export const NO_OPTIONAL_PROVIDERS: Providers = { phone: false, oidc: null, signups: true, guests: true, phoneRegion: 'GB', passwordReset: false };

/** Which sign-in methods the server offers; none of the optional ones if it cannot say. */
export async function fetchProviders(): Promise<Providers> {
  try {
    return await request(apiPaths.providers, { schema: providersSchema });
  } catch {
    return NO_OPTIONAL_PROVIDERS;
  }
}
