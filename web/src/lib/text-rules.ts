// What free text a person types may hold, the server's rule: the characters it may not hold
// come from the contract (TEXT_RULE, generated from crates/domain/src/fields.rs
// FORBIDDEN_IN_TEXT): no control characters (line breaks and tabs only in multi-line notes),
// no text-direction controls (embeddings, overrides, isolates, which make text read in another
// order than it is stored) and no Unicode line or paragraph separators. Checked on the device
// so a change made offline is never parked later for it.
import { TEXT_RULE } from '@/sync/contract.generated';

type Range = readonly [number, number];

/** `ranges` less the single code points `allowed`, which may fall inside them. */
function without(ranges: readonly Range[], allowed: readonly number[]): Range[] {
  return ranges.flatMap(([low, high]) => {
    const parts: Range[] = [];
    let from = low;
    for (const code of [...allowed].sort((a, b) => a - b)) {
      if (code < from || code > high) continue;
      if (code > from) parts.push([from, code - 1]);
      from = code + 1;
    }
    if (from <= high) parts.push([from, high]);
    return parts;
  });
}

/** A character class matching any code point in `ranges`. */
function classOf(ranges: readonly Range[]): RegExp {
  const code = (n: number) => `\\u{${n.toString(16)}}`;
  return new RegExp(`[${ranges.map(([low, high]) => (low === high ? code(low) : `${code(low)}-${code(high)}`)).join('')}]`, 'u');
}

const ONE_LINE = classOf(TEXT_RULE.forbidden);
const MULTI_LINE = classOf(without(TEXT_RULE.forbidden, TEXT_RULE.multiLineAllowed));

/** Whether `text` holds a character no free text may hold (`multiLine`: notes, a bio, a message). */
export function hasForbiddenCharacters(text: string, multiLine = false): boolean {
  return (multiLine ? MULTI_LINE : ONE_LINE).test(text);
}

/** The words for it, after the field's name ("The name", "Notes"). */
export function forbiddenCharactersMessage(what: string): string {
  return `${what} cannot contain control characters or text-direction marks`;
}
