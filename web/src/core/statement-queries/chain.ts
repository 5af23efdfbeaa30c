// The hash chain over a statement query's items, recorded when "Query this" makes it: each
// item's hash is SHA-256 of the previous item's hash (64 zeros before the first) followed by the
// item's canonical JSON, so a later change to any item (or to their order) shows from that item
// on. The server checks the same chain (crates/domain/src/statement_query.rs) and keeps the
// items as first stored; the device checks it again each time the query is opened.
import { sha256Hex } from '@/core/mtd/sha256';

export const CHAIN_START = '0'.repeat(64);

/** A frozen difference before its hash is known. */
export interface UnhashedItem {
  date: string | null;
  kind: string;
  words: string;
  logged: string;
  paid: string;
  cardRate: number | null;
  amount: number;
}

export type ChainedItem = UnhashedItem & { hash: string };

/** The fields but the hash, in this order, as compact JSON: the server writes the same text. */
export function canonicalItem(item: UnhashedItem): string {
  const { date, kind, words, logged, paid, cardRate, amount } = item;
  return JSON.stringify({ date, kind, words, logged, paid, cardRate, amount });
}

function link(previous: string, item: UnhashedItem): string {
  return sha256Hex(previous + canonicalItem(item));
}

/** The items with their hashes, in order. */
export function chainItems(items: readonly UnhashedItem[]): ChainedItem[] {
  let previous = CHAIN_START;
  return items.map((item) => {
    const { date, kind, words, logged, paid, cardRate, amount } = item;
    previous = link(previous, item);
    return { date, kind, words, logged, paid, cardRate, amount, hash: previous };
  });
}

/** The index of the first item whose hash is not the chain's, or null when the chain holds. */
export function firstBrokenLink(items: readonly ChainedItem[]): number | null {
  let previous = CHAIN_START;
  for (const [index, item] of items.entries()) {
    const expected = link(previous, item);
    if (expected !== item.hash) return index;
    previous = expected;
  }
  return null;
}

/** The chain's head: the last item's hash (what the letter shows the first 8 hex digits of). */
export function chainHead(items: readonly ChainedItem[]): string {
  return items.at(-1)?.hash ?? CHAIN_START;
}
