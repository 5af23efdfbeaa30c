// The one plural rule: "1 change", "2 changes" — never "change(s)". Plain code, no imports, so the
// sync engine (src/sync, which may use only a few lib files) words its statuses with it too.

/** `one` for exactly 1, else `many` (English: 0 and fractions take the plural). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
