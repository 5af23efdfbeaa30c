import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occurrences } from '@/core/deductions/deductions';
import { bandPay, priceWithCard, type IdentifiedCard } from '@/core/pay/pay';
import { bandTotal, NO_BANDS } from '@/core/pay/size-bands';
import type { LineType, SizeBand } from '@/sync/contract.generated';
import { makeDeduction, makeRateCard } from '@/testing/pay-fixtures';
import perParcelCsv from './fixtures/per-parcel.csv?raw';
import { cardArb, cardFrom, dayArb, deductionArb, inputArb } from '@/testing/statement-arbitraries';
import { matchStatement, type LoggedDay, type MatchedLine, type MatchInput } from './match-statement';
import { readLines, readStatementTable } from './read-lines';
import { suggestFormat } from './suggest-format';

const C = 'courier-1';
const WEEKLY = { periodKind: 'weekly' as const, periodAnchor: '2025-03-16', arrearsWeeks: 2 };
const WEEK = ['2025-03-16', '2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21', '2025-03-22'];

function day(id: string, date: string, card: IdentifiedCard, fields: Partial<LoggedDay> = {}): LoggedDay {
  const base = { id, date, courierId: C, stops: 0, parcels: null, collections: null, failed: null, extra: 0, startTime: null, finishTime: null, ...fields };
  return { ...base, total: fields.total ?? priceWithCard(card, base) };
}

function linesOf(csv: string): MatchedLine[] {
  const table = readStatementTable(csv);
  return readLines(table, suggestFormat(table, C)).rows.map(({ line }, i) => ({ ...line, id: `line-${i + 2}`, invoiceId: 'check', courierId: C, lineKey: `k${i}` }));
}

const total = (input: MatchInput) => {
  const match = matchStatement(input);
  return { match, sum: match.differences.reduce((s, d) => s + d.amount, 0) };
};

describe('a per-parcel statement matched to the log', () => {
  // Evri-like: paid per parcel by band (35p packet … £1.10 large), 25p a collection, 10p a failed item;
  // each day saved at the band prices of what was delivered.
  const card = makeRateCard('card', C, { perStop: null, perParcel: 45, perCollection: 25, perFailed: 10 });
  const lines = linesOf(perParcelCsv);

  it('names the missing day, the two misbanded parcels and the charge taken twice, with their amounts, and they add up', () => {
    const days = [
      // The 18th: 4 parcels logged by band (1 medium, 2 small, 1 packet) and a collection; paid as 1 medium, 1 small, 2 packets.
      day('d18', '2025-03-18', card, { parcels: 4, collections: 1, bands: { medium: 1, small: 2, packet: 1 }, total: 75 + 45 + 45 + 35 + 25 }),
      // The 19th: a large parcel paid as large, a medium paid as small, a failed item.
      day('d19', '2025-03-19', card, { parcels: 2, failed: 1, bands: { large: 1, medium: 1 }, total: 110 + 75 + 10 }),
      // The 20th: logged, not on the statement at all.
      day('d20', '2025-03-20', card, { parcels: 30, total: 30 * 45 }),
    ];
    const depot = { ...makeDeduction('dep', C, { label: 'Depot charge', amount: 200, repeat: 'once', from: '2025-03-19' }) };
    const input: MatchInput = { check: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 0, courierId: C }, days, lines, cards: [card], deductions: [depot], calendar: WEEKLY };
    const linesTotal = lines.reduce((s, l) => s + l.amount, 0);
    input.check.paid = linesTotal;
    const { match, sum } = total(input);
    const byKind = (kind: string) => match.differences.filter((d) => d.kind === kind).map((d) => [d.date, d.amount, d.words]);
    expect(byKind('dayNotOnStatement')).toEqual([['2025-03-20', 1_350, 'Day not on the statement']]);
    expect(byKind('lowerBand')).toEqual([
      ['2025-03-18', 10, '1 parcel logged as Small paid as Packet'],
      ['2025-03-19', 30, '1 parcel logged as Medium paid as Small'],
    ]);
    expect(byKind('deductionTakenTwice')).toEqual([['2025-03-19', 200, 'DEP-CHG-0319 of £2.00 taken twice']]);
    expect(match.differences.find((d) => d.kind === 'dayNotOnStatement')?.entryIds).toEqual(['d20']);
    expect(match.differences.find((d) => d.kind === 'deductionTakenTwice')?.lineIds).toEqual(['line-10', 'line-11']);
    expect(sum).toBe(match.difference);
    expect(match.difference).toBe(1_350 + 10 + 30 + 200);
    expect(byKind('unexplained')).toEqual([]);
  });
});

describe('a per-parcel statement matched to the log and a card that pays by band', () => {
  // The card's own band prices (35p packet, 45p small, 75p medium, £1.10 large) decide what a
  // misbanded parcel costs, not the statement's; a day logged by band is priced band by band.
  const card = makeRateCard('card', C, { perStop: null, perParcel: null, perCollection: 25, perFailed: 10, bandRates: { packet: 35, small: 45, medium: 75, large: 110, extraLarge: null } });
  const lines = linesOf(perParcelCsv);
  const bands = (packet: number, small: number, medium: number, large: number) => ({ packet, small, medium, large, extraLarge: 0 });

  it('names the two misbanded parcels at the card’s band rates, the missing day and the charge taken twice, and they add up', () => {
    const days = [
      day('d18', '2025-03-18', card, { parcels: 4, collections: 1, bands: bands(1, 2, 1, 0) }),
      day('d19', '2025-03-19', card, { parcels: 2, failed: 1, bands: bands(0, 0, 1, 1) }),
      day('d20', '2025-03-20', card, { parcels: 30, bands: bands(10, 20, 0, 0) }),
    ];
    expect(days.map((d) => d.total)).toEqual([35 + 90 + 75 + 25, 75 + 110 + 10, 350 + 900]);
    const depot = makeDeduction('dep', C, { label: 'Depot charge', amount: 200, repeat: 'once', from: '2025-03-19' });
    const paid = lines.reduce((s, l) => s + l.amount, 0);
    const { match, sum } = total({ check: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid, courierId: C }, days, lines, cards: [card], deductions: [depot], calendar: WEEKLY });
    const named = match.differences.map((d) => [d.kind, d.date, d.amount, d.words]);
    expect(named).toEqual([
      ['lowerBand', '2025-03-18', 10, '1 parcel logged as Small paid as Packet'],
      ['lowerBand', '2025-03-19', 30, '1 parcel logged as Medium paid as Small'],
      ['dayNotOnStatement', '2025-03-20', 1_250, 'Day not on the statement'],
      ['deductionTakenTwice', '2025-03-19', 200, 'DEP-CHG-0319 of £2.00 taken twice'],
    ]);
    expect(match.differences[0]).toMatchObject({ logged: '1 parcel Small at £0.45', paid: '1 parcel Packet at £0.35', cardRate: 45 });
    expect(sum).toBe(match.difference);
  });

  it('names parcels logged but not paid at their band’s rate, and a band paid below the card', () => {
    const logged = [day('d18', '2025-03-18', card, { parcels: 6, bands: bands(0, 2, 1, 3) })];
    const line = (id: string, band: 'small' | 'large', quantity: number, amount: number): MatchedLine => ({ id, date: '2025-03-18', lineType: 'parcel', band, quantity, amount, rate: null, reference: '', invoiceId: 'c', courierId: C, lineKey: id });
    // Paid: 2 large at £1.00 (card £1.10), 2 small. Missing: a large and the medium, biggest first.
    const paidLines = [line('l1', 'large', 2, 200), line('l2', 'small', 2, 90)];
    const { match, sum } = total({ check: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 290, courierId: C }, days: logged, lines: paidLines, cards: [card], deductions: [], calendar: WEEKLY });
    expect(match.differences.map((d) => [d.kind, d.amount, d.words])).toEqual([
      ['lowerBand', 110 - 45, '1 parcel logged as Large paid as Small'],
      ['lowerBand', 75 - 45, '1 parcel logged as Medium paid as Small'],
      ['fewerParcels', 45 + 45, '2 parcels logged but not paid'],
      ['parcelRate', 20, "4 parcels paid below the card's band rates (£2.90 for £3.10)"],
    ]);
    expect(sum).toBe(match.difference);
  });
});

describe('a per-day statement', () => {
  const card = makeRateCard('card', C, { perStop: [{ stopCount: 100, rate: 150 }, { rate: 120 }], dayRate: 2_000 });

  it('names fewer stops, a rate below the card, a day rate not paid, a paid day not in the log and late pay', () => {
    const days = [day('a', '2025-03-17', card, { stops: 110 }), day('b', '2025-03-18', card, { stops: 90 }), day('old', '2025-03-05', card, { stops: 50 })];
    const line = (id: string, date: string, lineType: LineType, quantity: number, amount: number): MatchedLine => ({ id, date, lineType, quantity, amount, band: null, rate: null, reference: '', invoiceId: 'c', courierId: C, lineKey: id });
    const lines = [
      line('l1', '2025-03-17', 'stop', 105, 100 * 150 + 5 * 120),
      line('l2', '2025-03-17', 'dayRate', 1, 2_000),
      line('l3', '2025-03-18', 'stop', 90, 90 * 140),
      line('l4', '2025-03-21', 'stop', 10, 1_500),
      line('l5', '2025-03-05', 'stop', 50, 7_500),
    ];
    const paid = lines.reduce((s, l) => s + l.amount, 0);
    const { match, sum } = total({ check: { periodStart: '2025-03-16', periodEnd: '2025-03-22', paid, courierId: C }, days, lines, cards: [card], deductions: [], calendar: WEEKLY });
    const named = match.differences.map((d) => [d.kind, d.date, d.amount]);
    expect(named).toEqual([
      ['paidLate', '2025-03-05', -7_500],
      ['fewerStops', '2025-03-17', 5 * 120],
      ['stopRate', '2025-03-18', 90 * 10],
      ['dayRateNotPaid', '2025-03-18', 2_000],
      ['dayNotInLog', '2025-03-21', -1_500],
    ]);
    expect(sum).toBe(match.difference);
  });
});

describe('a check whose statement has no lines on the device', () => {
  const card = makeRateCard('card', C, { perStop: [{ stopCount: 100, rate: 150 }, { rate: 120 }] });
  const days = [day('a', '2025-03-17', card, { stops: 110 }), day('b', '2025-03-18', card, { stops: 90 }), day('other', '2025-03-05', card, { stops: 50 })];
  const van = makeDeduction('van', C, { label: 'Van hire', amount: 1_000, repeat: 'once', from: '2025-03-19' });
  const check = (paid: number) => ({ periodStart: '2025-03-16', periodEnd: '2025-03-22', paid, courierId: C });
  // The log: 100 × £1.50 + 10 × £1.20 and 90 × £1.50, less the £10.00 van hire.
  const owed = 15_000 + 1_200 + 13_500 - 1_000;

  it('names the whole shortfall once, for the statement, with the period’s days behind it: no day "not on the statement", no lines "adding up to £0.00"', () => {
    const { match, sum } = total({ check: check(owed - 1_968), days, lines: [], cards: [card], deductions: [van], calendar: WEEKLY });
    expect(match.differences).toEqual([
      {
        kind: 'unexplained',
        date: null,
        words: 'Unexplained: the statement paid £19.68 less than your log says for the period',
        logged: '£287.00',
        paid: '£267.32',
        cardRate: null,
        amount: 1_968,
        entryIds: ['a', 'b'],
        lineIds: [],
      },
    ]);
    expect(match).toMatchObject({ owed, paid: owed - 1_968, linesTotal: 0, difference: 1_968 });
    expect(sum).toBe(match.difference);
  });

  it('names an overpayment the same way, and nothing when the total agrees with the log', () => {
    const over = matchStatement({ check: check(owed + 500), days, lines: [], cards: [card], deductions: [van], calendar: WEEKLY });
    expect(over.differences.map((d) => [d.kind, d.amount, d.words])).toEqual([['unexplained', -500, 'Unexplained: the statement paid £5.00 more than your log says for the period']]);
    expect(matchStatement({ check: check(owed), days, lines: [], cards: [card], deductions: [van], calendar: WEEKLY }).differences).toEqual([]);
  });
});

// ---- Properties ----

describe('matching properties', () => {
  it('the named differences add up to the statement difference, to the penny, whatever the log, cards, bands, arrears, deductions and adjustments', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { match, sum } = total(input);
        expect(sum).toBe(match.difference);
        for (const d of match.differences) expect(Number.isSafeInteger(d.amount)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('without lines, the whole difference is one item for the statement (none when it is nothing), to the penny', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const input = { ...generated, lines: [] };
        const { match, sum } = total(input);
        expect(sum).toBe(match.difference);
        expect(match.linesTotal).toBe(0);
        expect(match.differences).toHaveLength(match.difference === 0 ? 0 : 1);
        for (const d of match.differences) expect(d).toMatchObject({ kind: 'unexplained', date: null, amount: match.difference, lineIds: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('a statement paying exactly what the card says for the log (band by band for a card paying by band), with the listed deductions, names nothing', () => {
    const exact = fc.record({ card: cardArb, days: fc.uniqueArray(dayArb, { selector: (d) => d.date, maxLength: 7 }), deduction: fc.option(deductionArb, { nil: null }) });
    fc.assert(
      fc.property(exact, ({ card: spec, days, deduction }) => {
        const card = cardFrom(spec);
        const week = days.filter((d) => WEEK.includes(d.date));
        // A card paying by band: a day counted by band has its parcels as their sum.
        const counted = (d: (typeof week)[number]) => (card.bandRates !== null && d.bands ? { parcels: bandTotal(d.bands), bands: { ...NO_BANDS, ...d.bands } } : { parcels: d.parcels });
        const logged = week.map((d, i) => day(`day-${i}`, d.date, card, { stops: d.stops, collections: d.collections, failed: d.failed, ...counted(d) }));
        const lines: MatchedLine[] = [];
        const add = (date: string, lineType: LineType, quantity: number, amount: number, band: SizeBand | null = null) =>
          lines.push({ id: `l${lines.length}`, date, lineType, quantity, amount, band, rate: null, reference: '', invoiceId: 'check', courierId: C, lineKey: `k${lines.length}` });
        for (const d of logged) {
          if (card.perStop) add(d.date, 'stop', d.stops, priceWithCard({ ...card, perParcel: null, bandRates: null, perCollection: null, perFailed: null, dayRate: null }, { ...d, startTime: null, finishTime: null }));
          const byBand = bandPay(card, d);
          if (byBand) {
            for (const band of byBand) if (band.paid > 0) add(d.date, 'parcel', band.paid, band.amount, band.band);
          } else if (card.perParcel !== null) {
            const paidParcels = Math.min(d.parcels ?? 0, card.parcelCapPerStop === null ? Infinity : card.parcelCapPerStop * d.stops);
            add(d.date, 'parcel', paidParcels, paidParcels * card.perParcel);
          }
          if (card.perCollection !== null) add(d.date, 'collection', d.collections ?? 0, (d.collections ?? 0) * card.perCollection);
          if (card.perFailed !== null) add(d.date, 'failed', d.failed ?? 0, (d.failed ?? 0) * card.perFailed);
          if (card.dayRate !== null) add(d.date, 'dayRate', 1, card.dayRate);
          // A day the card pays nothing for still shows on the statement.
          if (lines.every((l) => l.date !== d.date)) add(d.date, 'stop', d.stops, 0);
        }
        const deductions = deduction ? [makeDeduction('ded', C, { ...deduction, to: null })] : [];
        const input: MatchInput = { check: { periodStart: WEEK[0]!, periodEnd: WEEK[6]!, paid: 0, courierId: C }, days: logged, lines, cards: [card], deductions, calendar: WEEKLY };
        // The deductions the list charges this week, taken as the list says.
        for (const d of deductions) for (const date of occurrences(d, WEEK[0]!, WEEK[6]!)) add(date, 'deduction', 1, -d.amount);
        input.check.paid = lines.reduce((s, l) => s + l.amount, 0);
        const { match } = total(input);
        expect(match.differences.filter((d) => d.kind !== 'addressCap')).toEqual([]);
        expect(match.difference).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
