import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalItem, chainHead, chainItems, firstBrokenLink, type ChainedItem, type UnhashedItem } from './chain';

const item: UnhashedItem = { date: '2026-03-02', kind: 'fewerStops', words: '3 stops logged but not paid', logged: '121 stops', paid: '118 stops', cardRate: 150, amount: 450 };

const anItem: fc.Arbitrary<UnhashedItem> = fc.record({
  date: fc.option(fc.constantFrom('2026-03-02', '2026-03-03', '2026-02-28'), { nil: null }),
  kind: fc.constantFrom('fewerStops', 'lowerBand', 'dayNotOnStatement', 'unexplained'),
  words: fc.string({ minLength: 1, maxLength: 40 }),
  logged: fc.string({ maxLength: 20 }),
  paid: fc.string({ maxLength: 20 }),
  cardRate: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
  amount: fc.integer({ min: -10_000_000, max: 10_000_000 }),
});

/** One field of one item changed to another value of its kind. */
function changed(items: ChainedItem[], at: number, field: keyof UnhashedItem): ChainedItem[] {
  const copy = items.map((i) => ({ ...i }));
  const target = copy[at]!;
  switch (field) {
    case 'amount':
      target.amount += 1;
      break;
    case 'cardRate':
      target.cardRate = target.cardRate === null ? 0 : null;
      break;
    case 'date':
      target.date = target.date === null ? '2026-01-01' : null;
      break;
    default:
      target[field] = `${target[field]}x`;
  }
  return copy;
}

describe('the hash chain of a query', () => {
  it('is the same SHA-256 the server computes (one vector, checked on both sides)', () => {
    expect(canonicalItem(item)).toBe('{"date":"2026-03-02","kind":"fewerStops","words":"3 stops logged but not paid","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":450}');
    // crates/server/src/statement_queries/mod.rs holds the same digest.
    expect(chainItems([item])[0]!.hash).toBe('4d1e19a97fbac8782f38d20c29818c06118af28ab6cc45f73d33b5775ca6313b');
  });

  it('holds for the items as made and its head is the last hash', () => {
    const items = chainItems([item, { ...item, amount: -5, date: null }]);
    expect(firstBrokenLink(items)).toBeNull();
    expect(chainHead(items)).toBe(items[1]!.hash);
  });

  it('names the first item changed, whichever item and field (property)', () => {
    fc.assert(
      fc.property(
        fc.array(anItem, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.constantFrom<keyof UnhashedItem>('date', 'kind', 'words', 'logged', 'paid', 'cardRate', 'amount'),
        (raw, pick, field) => {
          const items = chainItems(raw);
          const at = pick % items.length;
          expect(firstBrokenLink(items)).toBeNull();
          expect(firstBrokenLink(changed(items, at, field))).toBe(at);
        },
      ),
    );
  });

  it('shows a dropped or reordered item', () => {
    fc.assert(
      fc.property(fc.array(anItem, { minLength: 2, maxLength: 6 }), fc.nat(), (raw, pick) => {
        const items = chainItems(raw);
        const at = pick % items.length;
        const dropped = items.filter((_, i) => i !== at);
        // Dropping the last item leaves a shorter chain that still holds: the head changes.
        if (at === items.length - 1) expect(chainHead(dropped)).not.toBe(chainHead(items));
        else expect(firstBrokenLink(dropped)).toBe(at);
        const swapped = [...items];
        [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
        if (canonicalItem(items[0]!) !== canonicalItem(items[1]!)) expect(firstBrokenLink(swapped)).toBe(0);
      }),
    );
  });
});
