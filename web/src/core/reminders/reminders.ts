// The reminders the dashboard shows, computed on the device from its own store (no push
// service): days the driver usually works but has not logged, a Making Tax Digital quarterly
// update due soon or overdue (only when MTD applies), a sent update's records changed since and
// not yet carried by a later one, the final declaration, and receipt photos still waiting to upload.
// Pure functions of what is passed in, so every rule has a table test.
import { routes, spendingView, statementQueryPage, taxYearUpdates } from '@/lib/paths';
import { QUERY_REMINDER_DAYS, reminderDay, type QueryTracking } from '@/core/statement-queries/query';
import { formatPence, formatShortDate, listText } from '@/lib/format';
import { mtdFor } from '@/core/tax/mtd';
import { finalDeclarationDue, mtdQuarters, type MtdQuarters } from '@/core/mtd/quarters';
import type { UncarriedChange } from '@/core/mtd/uncarried';
import { figureLabel } from '@/core/mtd/update';
import { currentTaxYear, startYearOf, taxYearLabel, type TaxYearLabel } from '@/core/tax/tax-year';
import { addDays, weekdayOf } from '@/lib/week';

export type ReminderKind = 'unlogged' | 'quarter' | 'quarterOverdue' | 'changedSinceSent' | 'finalDeclaration' | 'receipts' | 'queryUnanswered';

export interface Reminder {
  kind: ReminderKind;
  text: string;
  link: { label: string; to: string };
}

/** Days before today that are looked at for missing logs. */
export const UNLOGGED_WINDOW_DAYS = 14;
/** Weeks of history that decide which weekdays the driver usually works. */
export const USUAL_WEEKS = 8;
/** A weekday is usual with an entry in at least this many of those weeks. */
export const USUAL_MIN_WEEKS = 3;
/** With less history than this, nobody can say what a usual week is: no reminder. */
export const MIN_HISTORY_DAYS = 21;
/** How many days are named before "and N more". */
export const NAMED_DAYS = 5;
/** A quarterly update is "due soon" this many days ahead. */
export const QUARTER_NOTICE_DAYS = 21;
/** The final declaration is mentioned from this many days before its 31 January deadline. */
export const FINAL_DECLARATION_NOTICE_DAYS = 60;
/** The entry form's place on the dashboard, for the "Log a day" link. */
export const LOG_DAY_ANCHOR = 'log-day';

// Pinned to UTC and fed Date.UTC, so the words never depend on the device's zone.
const weekdayName = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function utc(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** "Mon 16/11" */
function shortDayWords(day: string): string {
  return `${weekdayName.format(utc(day))} ${day.slice(8, 10)}/${day.slice(5, 7)}`;
}

/** "6 Jul" */
function dayMonthWords(day: string): string {
  return dayMonth.format(utc(day));
}

/** The weekdays (0 = Sunday) with an entry in at least 3 of the 8 weeks before today. */
export function usualWeekdays(today: string, logged: ReadonlySet<string>): Set<number> {
  const weeksWith = new Map<number, number>();
  // The 56 days before today hold each weekday exactly 8 times, once per week.
  for (let back = 1; back <= USUAL_WEEKS * 7; back++) {
    const day = addDays(today, -back);
    if (logged.has(day)) weeksWith.set(weekdayOf(day), (weeksWith.get(weekdayOf(day)) ?? 0) + 1);
  }
  return new Set([...weeksWith].filter(([, weeks]) => weeks >= USUAL_MIN_WEEKS).map(([weekday]) => weekday));
}

/** Usual working days in the 14 days before today with no entry, oldest first. Empty with under 3 weeks of entries. */
export function unloggedDays(today: string, logged: ReadonlySet<string>): string[] {
  const first = [...logged].reduce<string | null>((min, day) => (min === null || day < min ? day : min), null);
  if (first === null || first > addDays(today, -MIN_HISTORY_DAYS)) return [];
  const usual = usualWeekdays(today, logged);
  const missing: string[] = [];
  for (let back = UNLOGGED_WINDOW_DAYS; back >= 1; back--) {
    const day = addDays(today, -back);
    if (usual.has(weekdayOf(day)) && !logged.has(day)) missing.push(day);
  }
  return missing;
}

export function unloggedReminder(today: string, logged: ReadonlySet<string>): Reminder | null {
  const missing = unloggedDays(today, logged);
  if (missing.length === 0) return null;
  const named = missing.slice(0, NAMED_DAYS).map(shortDayWords).join(', ');
  const more = missing.length - NAMED_DAYS;
  return {
    kind: 'unlogged',
    text: `No day logged for ${named}${more > 0 ? ` and ${more} more` : ''}`,
    link: { label: 'Log a day', to: `${routes.dashboard}#${LOG_DAY_ANCHOR}` },
  };
}

/**
 * The MTD quarterly update due within the next 21 days, if MTD applies to the driver in that
 * quarter's tax year. The fourth quarter is due in May, in the next tax year, so last year's
 * quarters are looked at too; each is judged by its own year's MTD rule.
 */
export function quarterReminder(today: string, incomeOf: (year: TaxYearLabel) => number, election: MtdQuarters = 'standard'): Reminder | null {
  const current = currentTaxYear(today);
  const years = [taxYearLabel(startYearOf(current) - 1), current];
  const horizon = addDays(today, QUARTER_NOTICE_DAYS);
  for (const year of years) {
    for (const quarter of mtdQuarters(year, election)) {
      if (quarter.due < today || quarter.due > horizon) continue;
      if (!mtdFor(year, incomeOf)?.required) continue;
      return {
        kind: 'quarter',
        text: `Your quarterly update for ${dayMonthWords(quarter.from)}–${dayMonthWords(quarter.to)} is due ${dayMonthWords(quarter.due)}`,
        link: { label: 'Open the tax year', to: routes.taxYear },
      };
    }
  }
  return null;
}

/** "2026-27 Q1": how a sent update is known to the reminders. */
export const sentKey = (year: TaxYearLabel, quarter: number) => `${year} Q${quarter}`;

/**
 * The oldest MTD update past its deadline and not marked as sent, in a year MTD applies to the
 * driver (last year's and this year's quarters). Updates are cumulative, so sending the latest
 * one covers the earlier ones' figures; the reminder names the oldest so nothing is missed.
 */
export function overdueReminder(today: string, incomeOf: (year: TaxYearLabel) => number, election: MtdQuarters, sent: ReadonlySet<string>): Reminder | null {
  const current = currentTaxYear(today);
  for (const year of [taxYearLabel(startYearOf(current) - 1), current]) {
    if (!mtdFor(year, incomeOf)?.required) continue;
    for (const quarter of mtdQuarters(year, election)) {
      if (quarter.due >= today || sent.has(sentKey(year, quarter.number))) continue;
      return {
        kind: 'quarterOverdue',
        text: `Your quarterly update for ${dayMonthWords(quarter.from)}–${dayMonthWords(quarter.to)} was due ${dayMonthWords(quarter.due)} and is not marked as sent`,
        link: { label: 'Open the tax year', to: routes.taxYear },
      };
    }
  }
  return null;
}

/** How many figure differences are named before "and N more". */
export const NAMED_CHANGES = 3;

const signed = (pence: number) => `${pence > 0 ? '+' : ''}${formatPence(pence)}`;
const quarterList = (numbers: readonly number[]) => listText(numbers.map((n) => `Q${n}`));

/** One year's change in words: which quarter, the difference in £, and where it goes. */
function changedWords({ year, quarters, lastSent, changes }: UncarriedChange): string {
  const named = changes.slice(0, NAMED_CHANGES).map((change) => `${figureLabel(change.field)} ${signed(change.now - change.sent)}`);
  const more = changes.length - NAMED_CHANGES;
  const where = lastSent >= 4 ? 'your final declaration' : `your next cumulative update (Q${lastSent + 1})`;
  return `Your ${quarterList(quarters)} ${year.replace('-', '–')} records changed since the update was sent: ${named.join('; ')}${more > 0 ? ` and ${more} more` : ''}. The change goes into ${where}.`;
}

/**
 * Records inside a sent quarter changed afterwards and no later sent update carries them (the
 * rule is core/mtd/uncarried.ts). Not tied to MTD applying: a driver who sent updates keeps
 * them true, voluntarily or not. The link opens the oldest such year's updates.
 */
export function changedSinceSentReminder(uncarried: readonly UncarriedChange[]): Reminder | null {
  const first = uncarried[0];
  if (!first) return null;
  return {
    kind: 'changedSinceSent',
    text: uncarried.map(changedWords).join(' '),
    link: { label: 'Open the updates', to: taxYearUpdates(first.year) },
  };
}

/** Last tax year's final declaration, from 60 days before its 31 January deadline, when MTD applied that year. */
export function finalDeclarationReminder(today: string, incomeOf: (year: TaxYearLabel) => number): Reminder | null {
  const year = taxYearLabel(startYearOf(currentTaxYear(today)) - 1);
  const due = finalDeclarationDue(year);
  if (!due || !mtdFor(year, incomeOf)?.required || today > due || addDays(today, FINAL_DECLARATION_NOTICE_DAYS) < due) return null;
  return {
    kind: 'finalDeclaration',
    text: `Your ${year.replace('-', '–')} final declaration is due ${dayMonthWords(due)} ${due.slice(0, 4)}`,
    link: { label: 'Open the tax year', to: routes.taxYear },
  };
}

function photos(n: number): string {
  return n === 1 ? '1 receipt photo' : `${n} receipt photos`;
}

export function receiptsReminder(waiting: number, failed: number): Reminder | null {
  const parts = [
    waiting > 0 ? `${photos(waiting)} ${waiting === 1 ? 'is' : 'are'} waiting to upload` : null,
    failed > 0 ? `${photos(failed)} could not be uploaded` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  return { kind: 'receipts', text: parts.join('. '), link: { label: 'Open expenses', to: spendingView('expenses') } };
}

/** A statement query as the reminder reads it. */
export type TrackedQuery = QueryTracking & { id: string; madeOn: string };

/**
 * Sent statement queries with no answer (nor money paid back, nor closed) `days` or more after
 * they were sent; the oldest sent is named, and the link opens it.
 */
export function unansweredQueryReminder(today: string, queries: readonly TrackedQuery[], days: number): Reminder | null {
  const waiting = queries
    .filter((q) => {
      const due = reminderDay(q, days);
      return due !== null && due <= today;
    })
    .sort((a, b) => ((a.sentOn ?? '') === (b.sentOn ?? '') ? a.id.localeCompare(b.id) : (a.sentOn ?? '') < (b.sentOn ?? '') ? -1 : 1));
  const oldest = waiting[0];
  if (!oldest?.sentOn) return null;
  const others = waiting.length - 1;
  return {
    kind: 'queryUnanswered',
    text: `Your statement query of ${formatShortDate(oldest.madeOn)}, sent ${formatShortDate(oldest.sentOn)}, has had no answer for ${days} days or more${others > 0 ? ` (and ${others} more ${others === 1 ? 'query' : 'queries'})` : ''}`,
    link: { label: 'Open the query', to: statementQueryPage(oldest.id) },
  };
}

export interface ReminderInputs {
  today: string;
  /** The days with a (live) entry. */
  logged: ReadonlySet<string>;
  /** A tax year's gross turnover in pence (MTD's qualifying income). */
  incomeOf: (year: TaxYearLabel) => number;
  receipts: { waiting: number; failed: number };
  /** The quarters the driver elected (a synced setting). */
  election?: MtdQuarters;
  /** The updates marked as sent, by sentKey. */
  sent?: ReadonlySet<string>;
  /** The statement queries, and the days a sent one may wait for an answer (a synced setting). */
  queries?: readonly TrackedQuery[];
  queryReminderDays?: number;
  /** What the last update sent of each year does not carry (core/mtd/uncarried.ts). */
  uncarried?: readonly UncarriedChange[];
}

/** Every reminder due now, in a fixed order. */
export function dueReminders({ today, logged, incomeOf, receipts, election = 'standard', sent = new Set(), queries = [], queryReminderDays = QUERY_REMINDER_DAYS.default, uncarried = [] }: ReminderInputs): Reminder[] {
  return [
    unloggedReminder(today, logged),
    quarterReminder(today, incomeOf, election),
    overdueReminder(today, incomeOf, election, sent),
    changedSinceSentReminder(uncarried),
    finalDeclarationReminder(today, incomeOf),
    receiptsReminder(receipts.waiting, receipts.failed),
    unansweredQueryReminder(today, queries, queryReminderDays),
  ].filter((reminder): reminder is Reminder => reminder !== null);
}
