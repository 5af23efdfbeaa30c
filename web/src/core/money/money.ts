// Pounds typed by a person become integer pence by reading the digits, never by multiplying a
// float: 1.15 * 100 is 114.99999999999999 in binary floating point.

/** "12", "12.5", "12.50", ".5" → pence. More than 2 decimals, signs, exponents or junk → null. */
export function parsePounds(input: string): number | null {
  const match = /^(\d*)(?:\.(\d{0,2}))?$/.exec(input.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const pence = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(pence) ? pence : null;
}

/** Integer pence as plain pounds, the form a person types and parsePounds reads: 1250 → "12.50". */
export function penceToPounds(pence: number): string {
  const abs = Math.abs(pence);
  const sign = pence < 0 ? '-' : '';
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
