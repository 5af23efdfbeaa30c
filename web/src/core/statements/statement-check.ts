// A courier's statement for one pay period against the driver's log, line by line: stops,
// parcels, collections, gross pay, deductions and net pay, each with the log's figure, the
// statement's and the difference, and what explains a difference: the logged days missing from
// the statement (total-check.ts's search) and the deduction charges that make up a
// deductions difference. Computed on every render from the records, never stored.
import { occurrences } from '@/core/deductions/deductions';
import { formatPence, formatShortDate, listText } from '@/lib/format';
import type { PayPeriod } from '@/core/pay-periods/pay-period';
import { addDays } from '@/lib/week';
import type { DeductionContent, EntryContent, StatementCheckContent } from '@/sync/types';
import { alternativesText, checkTotal, dayText, totalSentence, smallestSet, type TotalCheck } from './total-check';

/** What the comparison needs from a check; a LocalStatementCheck fits. */
export type StatementFigures = Pick<StatementCheckContent, 'periodStart' | 'periodEnd' | 'courierId' | 'paid' | 'stops' | 'parcels' | 'collections' | 'deductions'>;
export type StatementEntry = Pick<EntryContent, 'date' | 'courierId' | 'stops' | 'total' | 'parcels' | 'collections'>;
export type StatementDeduction = Pick<DeductionContent, 'courierId' | 'label' | 'amount' | 'repeat' | 'from' | 'to'>;

/** One deduction charged on one day. */
export interface Charge {
  label: string;
  date: string;
  /** Pence. */
  amount: number;
  /** The pay period it falls in, for a charge found outside the statement's own. */
  period?: PayPeriod;
}

export type LineId = 'stops' | 'parcels' | 'collections' | 'gross' | 'deductions' | 'net';

export interface StatementLine {
  id: LineId;
  label: string;
  /** Pence for gross, deductions and net; a count otherwise. */
  money: boolean;
  log: number;
  /** Null when the statement does not give this figure. */
  statement: number | null;
  /** statement − log, or null when the statement does not give the figure. */
  difference: number | null;
}

export type DeductionExplanation =
  | { kind: 'match' }
  /** The statement gives no deductions figure: its gross is taken as its total plus the log's deductions. */
  | { kind: 'not-given' }
  /** The log charges these and the statement takes less by exactly their amounts. */
  | { kind: 'not-on-statement'; charges: Charge[]; alternatives: number }
  /** The statement takes more by exactly these charges of the period: taken a second time. */
  | { kind: 'charged-twice'; charges: Charge[]; alternatives: number }
  /** The statement takes more by exactly these charges, which the log has in the next or previous period. */
  | { kind: 'other-period'; charges: Charge[]; alternatives: number }
  | { kind: 'unexplained' };

export interface StatementCheck {
  lines: StatementLine[];
  /** The gross comparison, with the missing-days search (its `paid` is the statement's gross). */
  gross: TotalCheck;
  /** Every charge in the log for the period, oldest first. */
  charges: Charge[];
  deductions: DeductionExplanation;
  /** Every figure the statement gives agrees with the log. */
  agrees: boolean;
}

/** The charges of `deductions` from `from` to `to` inclusive, oldest first (then by label). */
export function chargesBetween(deductions: readonly StatementDeduction[], from: string, to: string): Charge[] {
  if (to < from) return [];
  const charges = deductions.flatMap((d) => occurrences(d, from, to).map((date) => ({ label: d.label, date, amount: d.amount })));
  return charges.sort((a, b) => (a.date === b.date ? a.label.localeCompare(b.label) : a.date < b.date ? -1 : 1));
}

function findCharges(charges: readonly Charge[], amount: number): { charges: Charge[]; alternatives: number } | null {
  const found = smallestSet(
    charges.map((charge) => ({ ...charge, total: charge.amount, stops: 0 })),
    { total: amount, stops: null },
  );
  return found ? { charges: found.items.map(({ total: _total, stops: _stops, ...charge }) => charge), alternatives: found.alternatives } : null;
}

function explainDeductions(difference: number | null, inPeriod: readonly Charge[], nearby: readonly Charge[]): DeductionExplanation {
  if (difference === null) return { kind: 'not-given' };
  if (difference === 0) return { kind: 'match' };
  if (difference < 0) {
    const missing = findCharges(inPeriod, -difference);
    return missing ? { kind: 'not-on-statement', ...missing } : { kind: 'unexplained' };
  }
  const twice = findCharges(inPeriod, difference);
  if (twice) return { kind: 'charged-twice', ...twice };
  const elsewhere = findCharges(nearby, difference);
  return elsewhere ? { kind: 'other-period', ...elsewhere } : { kind: 'unexplained' };
}

function line(id: LineId, label: string, money: boolean, log: number, statement: number | null): StatementLine {
  return { id, label, money, log, statement, difference: statement === null ? null : statement - log };
}

const sum = (values: readonly (number | null)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);

/**
 * Compares a statement with the log. `entries` and `deductions` may hold every courier's: only
 * the statement's courier's count. `around` is the period before and the period after (their
 * first and last days), where a charge the statement takes early or late is looked for.
 */
export function checkStatement(
  statement: StatementFigures,
  entries: readonly StatementEntry[],
  deductions: readonly StatementDeduction[],
  around?: { from: string; to: string },
): StatementCheck {
  const { periodStart, periodEnd, courierId } = statement;
  const ownEntries = entries.filter((e) => e.courierId === courierId && periodStart <= e.date && e.date <= periodEnd);
  const ownDeductions = deductions.filter((d) => d.courierId === courierId);
  const charges = chargesBetween(ownDeductions, periodStart, periodEnd);
  const inPeriod = (period: PayPeriod) => chargesBetween(ownDeductions, period.start, period.end).map((charge) => ({ ...charge, period }));
  const nearby = around ? [...inPeriod({ start: around.from, end: addDays(periodStart, -1) }), ...inPeriod({ start: addDays(periodEnd, 1), end: around.to })] : [];
  const logDeductions = sum(charges.map((c) => c.amount));
  // Without a deductions figure the statement's gross is its total plus what the log deducts,
  // so a shortfall still reads as missing days rather than as a deductions difference.
  const statementGross = statement.paid + (statement.deductions ?? logDeductions);
  const gross = checkTotal({ periodStart, periodEnd, paid: statementGross, stops: statement.stops }, ownEntries);
  const logParcels = sum(ownEntries.map((e) => e.parcels));
  const logCollections = sum(ownEntries.map((e) => e.collections));

  const lines = [
    line('stops', 'Stops', false, gross.expectedStops, statement.stops),
    ...(statement.parcels !== null || logParcels > 0 ? [line('parcels', 'Parcels', false, logParcels, statement.parcels)] : []),
    ...(statement.collections !== null || logCollections > 0 ? [line('collections', 'Collections', false, logCollections, statement.collections)] : []),
    line('gross', 'Gross pay', true, gross.expected, statementGross),
    line('deductions', 'Deductions', true, logDeductions, statement.deductions),
    line('net', 'Net pay', true, gross.expected - logDeductions, statement.paid),
  ];
  const deductionsDifference = statement.deductions === null ? null : statement.deductions - logDeductions;
  return {
    lines,
    gross,
    charges,
    deductions: explainDeductions(deductionsDifference, charges, nearby),
    agrees: lines.every((l) => l.difference === null || l.difference === 0),
  };
}

// --- Wording -------------------------------------------------------------------------------

/** "Van hire on 10/03/2025 (£195.00)". */
export function chargeText(charge: Charge): string {
  return `${charge.label} on ${formatShortDate(charge.date)} (${formatPence(charge.amount)})`;
}

/** "25/11": a day of a period, its year said by the date beside it. */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** "Admin fee of £25.00 was taken on 25/11/2026, in the period 22/11–28/11". */
export function otherPeriodText(charge: Charge): string {
  const where = charge.period ? `, in the period ${dayMonth(charge.period.start)}–${dayMonth(charge.period.end)}` : ', in another period';
  return `${charge.label} of ${formatPence(charge.amount)} was taken on ${formatShortDate(charge.date)}${where}`;
}

function isAre(count: number): string {
  return count === 1 ? 'is' : 'are';
}

function countNote(line: StatementLine | undefined, noun: string): string | null {
  if (!line || line.difference === null || line.difference === 0 || line.statement === null) return null;
  const direction = line.difference < 0 ? 'fewer' : 'more';
  const counted = new Intl.NumberFormat('en-GB');
  return `The statement shows ${counted.format(Math.abs(line.difference))} ${noun} ${direction} than your log (${counted.format(line.statement)} against ${counted.format(line.log)}).`;
}

function grossFindings(gross: TotalCheck): string[] {
  const { explanation } = gross;
  if (explanation.kind === 'match') return [];
  if (explanation.kind === 'missing-days') {
    const { days, alternatives } = explanation;
    return [`${listText(days.map(dayText))} ${isAre(days.length)} missing from the statement.${alternativesText(alternatives, days.length)}`];
  }
  return [totalSentence(gross)];
}

function deductionFindings(check: StatementCheck): string[] {
  const explanation = check.deductions;
  const line = check.lines.find((l) => l.id === 'deductions');
  const difference = line?.difference ?? 0;
  switch (explanation.kind) {
    case 'match':
    case 'not-given':
      return [];
    case 'other-period': {
      // The log has the charge in the period before or after: the statement took it early or late.
      const { charges, alternatives } = explanation;
      return [`${listText(charges.map(otherPeriodText))}: this statement takes ${charges.length === 1 ? 'it' : 'them'}.${alternativesText(alternatives, charges.length, 'charge')}`];
    }
    case 'not-on-statement':
    case 'charged-twice': {
      const { charges, alternatives } = explanation;
      const named = listText(charges.map(chargeText));
      const what = explanation.kind === 'not-on-statement' ? `${isAre(charges.length)} in your log but not on the statement` : `${isAre(charges.length)} charged twice`;
      return [`${named} ${what}.${alternativesText(alternatives, charges.length, 'charge')}`];
    }
    case 'unexplained':
      return [
        `The statement takes ${formatPence(Math.abs(difference))} ${difference > 0 ? 'more' : 'less'} in deductions than your log, and no charge in your log makes up the difference.`,
      ];
  }
}

/** What explains the differences, a sentence each; one sentence when everything agrees. */
export function statementFindings(check: StatementCheck): string[] {
  if (check.agrees) return ['Every line agrees with your log.'];
  const counts = [countNote(check.lines.find((l) => l.id === 'parcels'), 'parcels'), countNote(check.lines.find((l) => l.id === 'collections'), 'collections')];
  // Every differing line yields a sentence: stops and gross through the gross check (its
  // 'unexplained' covers stops alone), deductions, parcels and collections here; net follows
  // from gross and deductions.
  return [...grossFindings(check.gross), ...deductionFindings(check), ...counts.filter((note): note is string => note !== null)];
}

/** What the check found, in one or two words: the net paid against the log's net. */
export type StatementResult = { kind: 'matches' } | { kind: 'short'; pence: number } | { kind: 'over'; pence: number } | { kind: 'lines' } | { kind: 'counts' };

export function statementResult(check: StatementCheck): StatementResult {
  if (check.agrees) return { kind: 'matches' };
  const net = check.lines.find((l) => l.id === 'net')?.difference ?? 0;
  if (net < 0) return { kind: 'short', pence: -net };
  if (net > 0) return { kind: 'over', pence: net };
  const money = check.lines.some((l) => l.money && l.difference !== null && l.difference !== 0);
  return { kind: money ? 'lines' : 'counts' };
}

/**
 * "Matches", "£19.68 short", "£3.00 over"; with the net right, "Net matches, lines differ" (gross
 * and deductions are off by the same) or "Paid right, counts differ" (stops or parcels are off).
 */
export function resultWords(result: StatementResult): string {
  switch (result.kind) {
    case 'matches':
      return 'Matches';
    case 'short':
      return `${formatPence(result.pence)} short`;
    case 'over':
      return `${formatPence(result.pence)} over`;
    case 'lines':
      return 'Net matches, lines differ';
    case 'counts':
      return 'Paid right, counts differ';
  }
}
