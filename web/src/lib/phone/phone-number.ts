/**
 * Phone numbers read and shown with libphonenumber's metadata (libphonenumber-js, its `min`
 * set), the way the server reads them: with a country code, or national in the server's
 * default region (`/providers` → phoneRegion). The library is loaded on first use so the
 * landing page's chunk does not carry it.
 */
import { phoneMessages } from './phone-schema';

export type PhoneCheck = { ok: true; value: string } | { ok: false; error: string };

async function load(region: string) {
  const lib = await import('libphonenumber-js/min');
  // A region the metadata lacks reads only numbers with their country code.
  const country = lib.isSupportedCountry(region) ? region : undefined;
  return { lib, country };
}

/**
 * What people type around the digits. Letters (`ext`, vanity numbers) and other scripts'
 * digits are refused before the library sees them: it would read them as an extension.
 */
const typedCharacters = /^\+?[\d\s().\-/]+$/;

/**
 * The one way a typed number becomes the E.164 number sent to the server: `+44 (0)7700 900123`
 * and `07700 900123` (region GB) both give `+447700900123`. It must have a length its
 * country's numbers have; the range is not checked, as the server does not (Ofcom's numbers
 * for drama and tests, 07700 900xxx, are outside libphonenumber's valid ranges).
 */
export async function parsePhone(input: string, region: string): Promise<PhoneCheck> {
  const typed = input.trim();
  const refused = { ok: false, error: phoneMessages.phoneFormat } as const;
  if (!typedCharacters.test(typed)) return refused;
  const { lib, country } = await load(region);
  const number = lib.parsePhoneNumberFromString(typed, { defaultCountry: country });
  if (!number || number.ext || !number.isPossible()) return refused;
  return { ok: true, value: number.number };
}

/**
 * A stored E.164 number as people read it: national for the region's own numbers
 * (`07700 900123`), international for others (`+1 415 555 2671`). Unreadable input comes back
 * as it is.
 */
export async function formatPhone(e164: string, region: string): Promise<string> {
  const { lib, country } = await load(region);
  const number = lib.parsePhoneNumberFromString(e164);
  if (!number) return e164;
  // By calling code: a number outside the valid ranges (07700 900xxx) has no `country`.
  const home = country !== undefined && number.countryCallingCode === lib.getCountryCallingCode(country);
  return home ? number.formatNational() : number.formatInternational();
}
