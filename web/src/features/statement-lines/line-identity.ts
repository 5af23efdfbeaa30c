// A statement line's identity. An imported row's key is a hash of its cells plus how many
// identical rows came before it in the file: the same file read again gives the same keys (so
// re-importing adds nothing), while two identical rows (a charge taken twice) stay two lines.
// The record id is a name-based UUID of the check's id and the key, so two devices importing
// the same file offline write the same records, which the server holds once each.
// The hashes are plain TypeScript, not crypto.subtle: an install on plain http has none.
import { sha256Hex } from '@/core/mtd/sha256';
import { nameId } from '@/sync/ids';

/** One key per row, in order: `csv:<first 32 hex of the row's hash>:<its earlier twins>`. */
export async function rowKeys(rows: readonly (readonly string[])[], source: 'csv' | 'pdf' = 'csv'): Promise<string[]> {
  const seen = new Map<string, number>();
  const keys: string[] = [];
  for (const cells of rows) {
    const hash = sha256Hex(JSON.stringify(cells.map((cell) => cell.trim()))).slice(0, 32);
    const twins = seen.get(hash) ?? 0;
    seen.set(hash, twins + 1);
    keys.push(`${source}:${hash}:${twins}`);
  }
  return keys;
}

/** A typed line's key: its own new id, so it is never taken for an imported row. */
export function typedKey(id: string): string {
  return `typed:${id.toLowerCase()}`;
}

/** The record id of the line `key` on the statement check `invoiceId`. */
export function lineId(invoiceId: string, key: string): Promise<string> {
  return nameId(invoiceId, key);
}
