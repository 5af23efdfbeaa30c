// The ids an import writes when it cannot keep the file's own: named after what the record is
// (sync/ids nameId, in the account's namespace), so two devices importing the same file, even
// both offline, write the same ids, and the server holds one record for each (a second put of
// an id it has is an update, never a second record). A CSV day is named by its courier and
// date, the day's identity the preview's duplicates use, and a separate shift on it (our own
// export marks them) by its place among that day's shifts in the file; a record from our JSON
// by its kind and its id in the file.
import { nameId } from '@/sync/ids';
import type { Candidate, ParsedFile } from '@/core/import/import-plan';

/** `shifts` counts the separate shifts met so far per courier and day. */
function nameOf(candidate: Candidate, shifts: Map<string, number>): string | null {
  if (candidate.id !== null) return `json|${candidate.kind}|${candidate.id}`;
  if (candidate.kind !== 'entry') return null;
  const day = `${candidate.content.courierId}|${candidate.content.date}`;
  if (!candidate.content.separateShift) return `csv-day|${day}`;
  const nth = (shifts.get(day) ?? 0) + 1;
  shifts.set(day, nth);
  return `csv-shift|${day}|${nth}`;
}

/** Each candidate's derived id, for planImport's `derivedIds`. */
export async function importIds(file: ParsedFile, accountId: string): Promise<Map<Candidate, string>> {
  const ids = new Map<Candidate, string>();
  const shifts = new Map<string, number>();
  for (const candidate of file.candidates) {
    const name = nameOf(candidate, shifts);
    if (name !== null) ids.set(candidate, await nameId(accountId, name));
  }
  return ids;
}
