// What free text a person types may hold, the same rule as the server's
// (crates/domain/src/fields.rs, `allowed_in_text`): no control characters (line breaks and tabs
// only in multi-line notes), no text-direction controls (embeddings, overrides, isolates, which
// make text read in another order than it is stored) and no Unicode line or paragraph
// separators. Checked on the device so a change made offline is never parked later for it.

// eslint-disable-next-line no-control-regex -- the rule is precisely about control characters
const ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- as above, with tab, line feed and carriage return allowed
const MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Whether `text` holds a character no free text may hold (`multiLine`: notes, a bio, a message). */
export function hasForbiddenCharacters(text: string, multiLine = false): boolean {
  return (multiLine ? MULTI_LINE : ONE_LINE).test(text);
}

/** The words for it, after the field's name ("The name", "Notes"). */
export function forbiddenCharactersMessage(what: string): string {
  return `${what} cannot contain control characters or text-direction marks`;
}
