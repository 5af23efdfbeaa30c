// A statement's lines matched to the driver's log and to the rate card in force each day, every
// difference named in words with its amount. Amounts are pence the driver is owed: positive
// when the statement paid less than the log says, negative when it paid more.
//
// The named differences add up to the statement's difference (what the log says is owed, less
// what the statement's total paid) to the penny, by construction: each day's difference is split
// into the reasons found, and whatever is left of it is named "unexplained" for that day, never
// dropped. The same holds for the deductions and for the lines against the statement's total.
import { occurrences } from '@/core/deductions/deductions';
import { bandPay, bandRate, cardInForce, parcelsPaid, payFor, type IdentifiedCard } from '@/core/pay/pay';
import { BAND_WORDS } from '@/core/pay/size-bands';
import { expectedPayDate, periodHolding, type PeriodRule } from '@/core/pay-periods/pay-period';
import type { SizeBand } from '@/sync/contract.generated';
import type { DeductionContent, StatementLineContent } from '@/sync/types';
import { SIZE_BANDS } from './read-lines';

/** A logged day as the matching reads it; a LocalEntry fits (bands: when the driver logged parcels by band). */
export interface LoggedDay {
  id: string;
  date: string;
  courierId: string;
  stops: number;
  parcels: number | null;
  collections: number | null;
  failed: number | null;
  extra: number;
  /** Pence, fixed when the day was saved with the card in force. */
  total: number;
  bands?: Partial<Record<SizeBand, number>> | null;
}

export type MatchedLine = StatementLineContent & { id: string };

export type DifferenceKind =
  | 'dayNotOnStatement'
  | 'dayNotInLog'
  | 'paidLate'
  | 'fewerStops'
  | 'stopRate'
  | 'fewerParcels'
  | 'parcelRate'
  | 'lowerBand'
  | 'addressCap'
  | 'collectionsNotPaid'
  | 'collectionRate'
  | 'failedNotPaid'
  | 'failedRate'
  | 'dayRateNotPaid'
  | 'dayRateBelowCard'
  | 'ownExtra'
  | 'bonus'
  | 'adjustment'
  | 'deductionNotInList'
  | 'deductionTakenTwice'
  | 'deductionNotTaken'
  | 'linesAgainstTotal'
  | 'unexplained'
  /** Money paid back for an earlier statement's query (core/statement-queries/paid-back.ts). */
  | 'paidBack'
  /** Money recorded as paid back on this statement that it does not carry (amount 0). */
  | 'paidBackNotFound';

export interface Difference {
  kind: DifferenceKind;
  /** The day it is about; null for the statement as a whole. */
  date: string | null;
  /** In the driver's words, with the figures. */
  words: string;
  /** What the log says, and what the statement paid, in words ("121 stops"). */
  logged: string;
  paid: string;
  /** The card's rate the difference is priced at, pence; null when none applies. */
  cardRate: number | null;
  /** Pence owed to the driver (below zero: paid more than the log says). */
  amount: number;
  /** The records behind it. */
  entryIds: string[];
  lineIds: string[];
}

export interface StatementMatch {
  /** What the log says is owed for the period: its days' totals less the driver's deductions. */
  owed: number;
  /** The statement's total. */
  paid: number;
  /** The lines added up. */
  linesTotal: number;
  /** owed − paid: the sum of `differences`, to the penny. */
  difference: number;
  differences: Difference[];
}

export interface MatchInput {
  check: { periodStart: string; periodEnd: string; paid: number; courierId: string };
  days: readonly LoggedDay[];
  lines: readonly MatchedLine[];
  cards: readonly IdentifiedCard[];
  deductions: readonly StatementDeduction[];
  /** The courier's pay calendar. */
  calendar: PeriodRule;
}

export type StatementDeduction = Pick<DeductionContent, 'courierId' | 'label' | 'amount' | 'repeat' | 'from' | 'to'>;

interface Charge {
  label: string;
  date: string;
  amount: number;
}

/** Each charge of the driver's deductions in the period, oldest first. */
function chargesIn(deductions: readonly StatementDeduction[], from: string, to: string): Charge[] {
  return deductions
    .flatMap((d) => occurrences(d, from, to).map((date) => ({ label: d.label, date, amount: d.amount })))
    .sort((a, b) => (a.date === b.date ? a.label.localeCompare(b.label) : a.date < b.date ? -1 : 1));
}

const WORK_TYPES = new Set(['stop', 'parcel', 'collection', 'failed', 'dayRate']);

function pounds(pence: number): string {
  const sign = pence < 0 ? '−' : '';
  return `${sign}£${(Math.abs(pence) / 100).toFixed(2)}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}

/** The rate the statement itself pays most often for a band's parcels (a courier's band prices), or null when it pays none. */
function bandRates(lines: readonly MatchedLine[]): Map<SizeBand, number> {
  const counts = new Map<SizeBand, Map<number, number>>();
  for (const line of lines) {
    if (line.lineType !== 'parcel' || line.band === null || line.quantity === 0) continue;
    const rate = line.rate ?? Math.round(line.amount / line.quantity);
    const byRate = counts.get(line.band) ?? new Map<number, number>();
    byRate.set(rate, (byRate.get(rate) ?? 0) + line.quantity);
    counts.set(line.band, byRate);
  }
  const rates = new Map<SizeBand, number>();
  for (const [band, byRate] of counts) rates.set(band, [...byRate].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0]);
  return rates;
}

/**
 * Parcels paid in a lower band than logged: the log's parcels of each band, biggest first, are
 * set against the statement's, biggest first; each logged parcel met by a smaller paid one is
 * one misbanded, priced at the statement's own rates for the two bands.
 */
function misbanded(logged: Partial<Record<SizeBand, number>>, paid: readonly MatchedLine[], rates: Map<SizeBand, number>): { from: SizeBand; to: SizeBand; count: number; amount: number }[] {
  const biggestFirst = [...SIZE_BANDS].reverse();
  const loggedQueue = biggestFirst.flatMap((band) => Array<SizeBand>(logged[band] ?? 0).fill(band));
  const paidQueue = biggestFirst.flatMap((band) => Array<SizeBand>(sum(paid.filter((l) => l.band === band), (l) => l.quantity)).fill(band));
  const found = new Map<string, { from: SizeBand; to: SizeBand; count: number; amount: number }>();
  for (let i = 0; i < Math.min(loggedQueue.length, paidQueue.length); i += 1) {
    const [from, to] = [loggedQueue[i]!, paidQueue[i]!];
    if (SIZE_BANDS.indexOf(to) >= SIZE_BANDS.indexOf(from)) continue;
    const [high, low] = [rates.get(from), rates.get(to)];
    if (high === undefined || low === undefined || high <= low) continue;
    const key = `${from}>${to}`;
    const item = found.get(key) ?? { from, to, count: 0, amount: 0 };
    item.count += 1;
    item.amount += high - low;
    found.set(key, item);
  }
  return [...found.values()];
}

/**
 * A day's parcels against a card that pays by band, the day counted by band. What the card pays
 * for the log (after its cap) less what the statement paid splits exactly into: parcels paid in
 * a lower band than logged (each logged parcel, biggest first, set against the paid ones, biggest
 * first; priced at the card's two band rates), parcels logged but not paid (or paid but not
 * logged) at their band's rate, and the paid parcels' pay against the card's band rates. What a
 * parcel paid in a higher band adds is left to the day's "unexplained".
 */
function cardBandReasons(days: readonly LoggedDay[], parcelLines: readonly MatchedLine[], card: IdentifiedCard): Omit<Difference, 'date' | 'entryIds'>[] {
  const out: Omit<Difference, 'date' | 'entryIds'>[] = [];
  const add = (d: Omit<Difference, 'date' | 'entryIds'>) => {
    if (d.amount !== 0 || d.kind === 'addressCap') out.push(d);
  };
  const rateOf = (band: SizeBand | null) => (band === null ? (card.perParcel ?? 0) : bandRate(card, band));
  const lineIds = parcelLines.map((l) => l.id);
  // The log's parcels the card pays, band by band (its cap leaves the smallest unpaid).
  const paidByCard = new Map<SizeBand, number>();
  let loggedCount = 0;
  for (const d of days) {
    loggedCount += d.parcels ?? 0;
    for (const band of bandPay(card, d) ?? []) paidByCard.set(band.band, (paidByCard.get(band.band) ?? 0) + band.paid);
  }
  const cardCount = sum([...paidByCard.values()], (n) => n);
  const paidCount = sum(parcelLines, (l) => l.quantity);
  if (cardCount < loggedCount) {
    add({
      kind: 'addressCap',
      words: `Address cap applied: ${plural(loggedCount - cardCount, 'parcel')} over ${card.parcelCapPerStop} an address not paid, as the card says`,
      logged: plural(loggedCount, 'parcel'),
      paid: plural(paidCount, 'parcel'),
      cardRate: null,
      amount: 0,
      lineIds: [],
    });
  }
  const biggestFirst = [...SIZE_BANDS].reverse();
  const logged = biggestFirst.flatMap((band) => Array<SizeBand>(paidByCard.get(band) ?? 0).fill(band));
  const paid: (SizeBand | null)[] = [
    ...biggestFirst.flatMap((band) => Array<SizeBand>(sum(parcelLines.filter((l) => l.band === band), (l) => l.quantity)).fill(band)),
    ...Array<null>(sum(parcelLines.filter((l) => l.band === null), (l) => l.quantity)).fill(null),
  ];
  const lower = new Map<string, { from: SizeBand; to: SizeBand; count: number; amount: number }>();
  for (let i = 0; i < Math.min(logged.length, paid.length); i += 1) {
    const [from, to] = [logged[i]!, paid[i]!];
    if (to === null || SIZE_BANDS.indexOf(to) >= SIZE_BANDS.indexOf(from) || rateOf(from) <= rateOf(to)) continue;
    const key = `${from}>${to}`;
    const item = lower.get(key) ?? { from, to, count: 0, amount: 0 };
    item.count += 1;
    item.amount += rateOf(from) - rateOf(to);
    lower.set(key, item);
  }
  for (const wrong of lower.values()) {
    add({
      kind: 'lowerBand',
      words: `${plural(wrong.count, 'parcel')} logged as ${BAND_WORDS[wrong.from]} paid as ${BAND_WORDS[wrong.to]}`,
      logged: `${plural(wrong.count, 'parcel')} ${BAND_WORDS[wrong.from]} at ${pounds(rateOf(wrong.from))}`,
      paid: `${plural(wrong.count, 'parcel')} ${BAND_WORDS[wrong.to]} at ${pounds(rateOf(wrong.to))}`,
      cardRate: rateOf(wrong.from),
      amount: wrong.amount,
      lineIds: parcelLines.filter((l) => l.band === wrong.to).map((l) => l.id),
    });
  }
  const notPaid = logged.slice(paid.length);
  const notLogged = paid.slice(logged.length);
  add({
    kind: 'fewerParcels',
    words: notPaid.length > 0 ? `${plural(notPaid.length, 'parcel')} logged but not paid` : `${plural(notLogged.length, 'parcel')} more paid than logged`,
    logged: plural(cardCount, 'parcel'),
    paid: plural(paidCount, 'parcel'),
    cardRate: null,
    amount: sum(notPaid, rateOf) - sum(notLogged, rateOf),
    lineIds,
  });
  const atCard = sum(parcelLines, (l) => l.quantity * rateOf(l.band));
  const paidAmount = sum(parcelLines, (l) => l.amount);
  add({
    kind: 'parcelRate',
    words: atCard > paidAmount ? `${plural(paidCount, 'parcel')} paid below the card's band rates (${pounds(paidAmount)} for ${pounds(atCard)})` : `${plural(paidCount, 'parcel')} paid above the card's band rates`,
    logged: `${pounds(atCard)} by the card`,
    paid: pounds(paidAmount),
    cardRate: null,
    amount: atCard - paidAmount,
    lineIds,
  });
  return out;
}

/** The differences of one day that is both logged and paid; the caller names what they leave. */
function dayReasons(days: readonly LoggedDay[], lines: readonly MatchedLine[], card: IdentifiedCard | null, rates: Map<SizeBand, number>): Difference[] {
  const date = days[0]!.date;
  const entryIds = days.map((d) => d.id);
  const of = (type: string) => lines.filter((l) => l.lineType === type);
  const ids = (found: readonly MatchedLine[]) => found.map((l) => l.id);
  const out: Difference[] = [];
  const add = (d: Omit<Difference, 'date' | 'entryIds'>) => {
    if (d.amount !== 0 || d.kind === 'addressCap') out.push({ ...d, date, entryIds });
  };
  const logged = {
    stops: sum(days, (d) => d.stops),
    parcels: sum(days, (d) => d.parcels ?? 0),
    collections: sum(days, (d) => d.collections ?? 0),
    failed: sum(days, (d) => d.failed ?? 0),
    extra: sum(days, (d) => d.extra),
  };
  if (card?.perStop) {
    const stopLines = of('stop');
    const paidStops = sum(stopLines, (l) => l.quantity);
    const paidAmount = sum(stopLines, (l) => l.amount);
    const tiers = card.perStop;
    // The rate of the stops in question: the tier the last logged stop falls in.
    const topRate = payFor(tiers, logged.stops) - payFor(tiers, Math.max(0, logged.stops - 1)) || (tiers[0]?.rate ?? null);
    add({
      kind: 'fewerStops',
      words: paidStops <= logged.stops ? `${plural(logged.stops - paidStops, 'stop')} logged but not paid` : `${plural(paidStops - logged.stops, 'stop')} more paid than logged`,
      logged: plural(logged.stops, 'stop'),
      paid: plural(paidStops, 'stop'),
      cardRate: topRate,
      amount: payFor(tiers, logged.stops) - payFor(tiers, paidStops),
      lineIds: ids(stopLines),
    });
    const atCard = payFor(tiers, paidStops);
    add({
      kind: 'stopRate',
      words: atCard > paidAmount ? `${plural(paidStops, 'stop')} paid below the card's rate (${pounds(paidAmount)} for ${pounds(atCard)})` : `${plural(paidStops, 'stop')} paid above the card's rate`,
      logged: `${pounds(atCard)} by the card`,
      paid: pounds(paidAmount),
      cardRate: topRate,
      amount: atCard - paidAmount,
      lineIds: ids(stopLines),
    });
  }
  const loggedBands = days.every((d) => d.bands) ? days.reduce<Partial<Record<SizeBand, number>>>((all, d) => {
    for (const band of SIZE_BANDS) all[band] = (all[band] ?? 0) + (d.bands?.[band] ?? 0);
    return all;
  }, {}) : null;
  if (card && (card.bandRates ?? null) !== null && loggedBands) {
    out.push(...cardBandReasons(days, of('parcel'), card).map((d) => ({ ...d, date, entryIds })));
  } else if (card?.perParcel !== null && card?.perParcel !== undefined) {
    const rate = card.perParcel;
    const parcelLines = of('parcel');
    const paidParcels = sum(parcelLines, (l) => l.quantity);
    const paidAmount = sum(parcelLines, (l) => l.amount);
    const byCard = sum(days, (d) => parcelsPaid(card, d));
    if (byCard < logged.parcels) {
      add({
        kind: 'addressCap',
        words: `Address cap applied: ${plural(logged.parcels - byCard, 'parcel')} over ${card.parcelCapPerStop} an address not paid, as the card says`,
        logged: plural(logged.parcels, 'parcel'),
        paid: plural(paidParcels, 'parcel'),
        cardRate: rate,
        amount: 0,
        lineIds: [],
      });
    }
    add({
      kind: 'fewerParcels',
      words: paidParcels <= byCard ? `${plural(byCard - paidParcels, 'parcel')} logged but not paid` : `${plural(paidParcels - byCard, 'parcel')} more paid than logged`,
      logged: plural(byCard, 'parcel'),
      paid: plural(paidParcels, 'parcel'),
      cardRate: rate,
      amount: rate * (byCard - paidParcels),
      lineIds: ids(parcelLines),
    });
    const banded = parcelLines.some((l) => l.band !== null);
    if (banded && loggedBands) {
      for (const wrong of misbanded(loggedBands, parcelLines, rates)) {
        add({
          kind: 'lowerBand',
          words: `${plural(wrong.count, 'parcel')} logged as ${BAND_WORDS[wrong.from]} paid as ${BAND_WORDS[wrong.to]}`,
          logged: `${plural(wrong.count, 'parcel')} ${BAND_WORDS[wrong.from]}`,
          paid: `${plural(wrong.count, 'parcel')} ${BAND_WORDS[wrong.to]}`,
          cardRate: rates.get(wrong.from) ?? null,
          amount: wrong.amount,
          lineIds: ids(parcelLines.filter((l) => l.band === wrong.to)),
        });
      }
    } else if (!banded) {
      add({
        kind: 'parcelRate',
        words: rate * paidParcels > paidAmount ? `${plural(paidParcels, 'parcel')} paid below the card's ${pounds(rate)}` : `${plural(paidParcels, 'parcel')} paid above the card's rate`,
        logged: `${pounds(rate * paidParcels)} by the card`,
        paid: pounds(paidAmount),
        cardRate: rate,
        amount: rate * paidParcels - paidAmount,
        lineIds: ids(parcelLines),
      });
    }
  }
  const counted = (type: 'collection' | 'failed', rate: number | null, count: number) => {
    if (rate === null) return;
    const found = of(type);
    const paidCount = sum(found, (l) => l.quantity);
    const word = type === 'collection' ? 'collection' : 'failed item';
    add({
      kind: type === 'collection' ? 'collectionsNotPaid' : 'failedNotPaid',
      words: paidCount <= count ? `${plural(count - paidCount, word)} logged but not paid` : `${plural(paidCount - count, word)} more paid than logged`,
      logged: plural(count, word),
      paid: plural(paidCount, word),
      cardRate: rate,
      amount: rate * (count - paidCount),
      lineIds: ids(found),
    });
    add({
      kind: type === 'collection' ? 'collectionRate' : 'failedRate',
      words: `${plural(paidCount, word)} paid ${rate * paidCount > sum(found, (l) => l.amount) ? 'below' : 'above'} the card's ${pounds(rate)}`,
      logged: `${pounds(rate * paidCount)} by the card`,
      paid: pounds(sum(found, (l) => l.amount)),
      cardRate: rate,
      amount: rate * paidCount - sum(found, (l) => l.amount),
      lineIds: ids(found),
    });
  };
  counted('collection', card?.perCollection ?? null, logged.collections);
  counted('failed', card?.perFailed ?? null, logged.failed);
  if (card?.dayRate !== null && card?.dayRate !== undefined) {
    const found = of('dayRate');
    const paidRate = sum(found, (l) => l.amount);
    // One day rate a day, however many shifts: the card pays it once a day it prices.
    const expected = card.dayRate * days.length;
    add({
      kind: found.length === 0 ? 'dayRateNotPaid' : 'dayRateBelowCard',
      words: found.length === 0 ? 'Day rate not paid' : `Day rate paid ${paidRate < expected ? 'below' : 'above'} the card's ${pounds(card.dayRate)}`,
      logged: pounds(expected),
      paid: pounds(paidRate),
      cardRate: card.dayRate,
      amount: expected - paidRate,
      lineIds: ids(found),
    });
  }
  add({
    kind: 'ownExtra',
    words: `Your own extra on the day (${pounds(logged.extra)}) is not on the statement`,
    logged: pounds(logged.extra),
    paid: pounds(0),
    cardRate: null,
    amount: logged.extra,
    lineIds: [],
  });
  return out;
}

/** The deduction lines against the driver's own list for the period: matched by amount, the rest named. */
function deductionReasons(taken: readonly MatchedLine[], expected: readonly Charge[]): Difference[] {
  const open = [...expected];
  const matched: MatchedLine[] = [];
  const out: Difference[] = [];
  for (const line of taken) {
    const size = -line.amount;
    const at = open.findIndex((c) => c.amount === size);
    if (at >= 0) {
      open.splice(at, 1);
      matched.push(line);
      continue;
    }
    const twin = [...matched, ...taken.slice(0, taken.indexOf(line))].find((l) => l !== line && l.amount === line.amount && l.date === line.date && l.reference === line.reference);
    const label = line.reference || 'A deduction';
    out.push({
      kind: twin ? 'deductionTakenTwice' : 'deductionNotInList',
      date: line.date,
      words: twin ? `${label} of ${pounds(size)} taken twice` : `${label} of ${pounds(size)} is not in your deductions`,
      logged: twin ? `${pounds(size)} once` : 'not in your list',
      paid: `${pounds(size)} taken`,
      cardRate: null,
      amount: size,
      entryIds: [],
      lineIds: twin ? [twin.id, line.id] : [line.id],
    });
  }
  for (const charge of open) {
    out.push({
      kind: 'deductionNotTaken',
      date: charge.date,
      words: `${charge.label} (${pounds(charge.amount)}) in your deductions was not taken`,
      logged: `${pounds(charge.amount)} due`,
      paid: 'not taken',
      cardRate: null,
      amount: -charge.amount,
      entryIds: [],
      lineIds: [],
    });
  }
  return out;
}

export function matchStatement({ check, days, lines, cards, deductions, calendar }: MatchInput): StatementMatch {
  const inPeriod = (date: string) => check.periodStart <= date && date <= check.periodEnd;
  const courierDays = days.filter((d) => d.courierId === check.courierId);
  const loggedInPeriod = courierDays.filter((d) => inPeriod(d.date));
  const expectedCharges = chargesIn(
    deductions.filter((d) => d.courierId === check.courierId),
    check.periodStart,
    check.periodEnd,
  );
  const owed = sum(loggedInPeriod, (d) => d.total) - sum(expectedCharges, (c) => c.amount);
  if (lines.length === 0) return withoutLines(check.paid, owed, loggedInPeriod);
  const linesTotal = sum(lines, (l) => l.amount);
  const differences: Difference[] = [];
  const rates = bandRates(lines);
  const thisPayDate = expectedPayDate(calendar, periodHolding(calendar, check.periodEnd));

  const workLines = lines.filter((l) => WORK_TYPES.has(l.lineType));
  const dates = [...new Set([...loggedInPeriod.map((d) => d.date), ...workLines.map((l) => l.date)])].sort();
  for (const date of dates) {
    const dayLog = loggedInPeriod.filter((d) => d.date === date);
    const dayLines = workLines.filter((l) => l.date === date);
    const expected = sum(dayLog, (d) => d.total);
    const paidForDay = sum(dayLines, (l) => l.amount);
    const entryIds = dayLog.map((d) => d.id);
    const lineIds = dayLines.map((l) => l.id);
    if (dayLines.length === 0) {
      differences.push({ kind: 'dayNotOnStatement', date, words: 'Day not on the statement', logged: pounds(expected), paid: pounds(0), cardRate: null, amount: expected, entryIds, lineIds });
      continue;
    }
    if (dayLog.length === 0) {
      const loggedElsewhere = courierDays.filter((d) => d.date === date);
      if (!inPeriod(date) && loggedElsewhere.length > 0) {
        const due = expectedPayDate(calendar, periodHolding(calendar, date));
        differences.push({
          kind: 'paidLate',
          date,
          words: `Paid late: due by ${due} by the pay calendar, paid on this statement (due ${thisPayDate})`,
          logged: 'an earlier period',
          paid: pounds(paidForDay),
          cardRate: null,
          amount: -paidForDay,
          entryIds: loggedElsewhere.map((d) => d.id),
          lineIds,
        });
      } else {
        differences.push({ kind: 'dayNotInLog', date, words: 'Paid for a day not in your log', logged: 'no day logged', paid: pounds(paidForDay), cardRate: null, amount: -paidForDay, entryIds: [], lineIds });
      }
      continue;
    }
    const card = cardInForce(cards, check.courierId, date);
    const reasons = dayReasons(dayLog, dayLines, card, rates);
    differences.push(...reasons);
    const left = expected - paidForDay - sum(reasons, (r) => r.amount);
    if (left !== 0) {
      differences.push({
        kind: 'unexplained',
        date,
        words: card ? 'Unexplained: the day was saved at a different price than the card in force now gives' : 'Unexplained: no rate card in force on the day',
        logged: pounds(expected),
        paid: pounds(paidForDay),
        cardRate: null,
        amount: left,
        entryIds,
        lineIds,
      });
    }
  }
  for (const line of lines.filter((l) => l.lineType === 'bonus' || l.lineType === 'adjustment')) {
    const bonus = line.lineType === 'bonus';
    differences.push({
      kind: bonus ? 'bonus' : 'adjustment',
      date: line.date,
      words: `${bonus ? 'Bonus' : 'Adjustment'}${line.reference ? ` "${line.reference}"` : ''} of ${pounds(line.amount)}, not in your log`,
      logged: 'not in your log',
      paid: pounds(line.amount),
      cardRate: null,
      amount: -line.amount,
      entryIds: [],
      lineIds: [line.id],
    });
  }
  differences.push(...deductionReasons(lines.filter((l) => l.lineType === 'deduction'), expectedCharges));
  if (linesTotal !== check.paid) {
    differences.push({
      kind: 'linesAgainstTotal',
      date: null,
      words: `The statement's lines add up to ${pounds(linesTotal)}, its total says ${pounds(check.paid)}`,
      logged: pounds(linesTotal),
      paid: pounds(check.paid),
      cardRate: null,
      amount: linesTotal - check.paid,
      entryIds: [],
      lineIds: lines.map((l) => l.id),
    });
  }
  return { owed, paid: check.paid, linesTotal, difference: owed - check.paid, differences };
}

/**
 * A check whose statement's lines are not on the device: only the period's totals are known, so
 * its whole difference is one "unexplained" item for the statement, never a "Day not on the
 * statement" for every logged day (each would be a claim the statement may not support: which
 * days it left out is only knowable from its lines) nor lines adding up to £0.00. The days of
 * the period stand behind it, so the evidence kept on them goes with a query.
 */
function withoutLines(paid: number, owed: number, days: readonly LoggedDay[]): StatementMatch {
  const difference = owed - paid;
  const differences: Difference[] =
    difference === 0
      ? []
      : [
          {
            kind: 'unexplained',
            date: null,
            words: `Unexplained: the statement paid ${pounds(Math.abs(difference))} ${difference > 0 ? 'less' : 'more'} than your log says for the period`,
            logged: pounds(owed),
            paid: pounds(paid),
            cardRate: null,
            amount: difference,
            entryIds: days.map((d) => d.id),
            lineIds: [],
          },
        ];
  return { owed, paid, linesTotal: 0, difference, differences };
}
