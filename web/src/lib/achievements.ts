// The four achievements (spec §2 "Profile"), unlocked from the driver's own entries rather
// than a fixed list (PRODUCT.md). Days are YYYY-MM-DD calendar days and weeks start on Sunday,
// through lib/week, so clock changes and year ends never move a day into another week.
import { weekStart } from '@/lib/week';

export const DELIVERY_EXPERT_STOPS = 1_000;
export const TOP_PERFORMER_STOPS = 150;
export const INVOICE_MASTER_CHECKS = 10;

export type AchievementId = 'delivery-expert' | 'perfect-week' | 'top-performer' | 'invoice-master';

export interface Achievement {
  id: AchievementId;
  title: string;
  description: string;
  unlocked: boolean;
  /** How far along, for the progress bar: value out of max. */
  value: number;
  max: number;
  /** Progress in words, e.g. "640 / 1,000 stops". */
  progress: string;
}

/** Only what the maths needs from an entry; callers pass live (not deleted) entries. */
export interface DayLog {
  date: string;
  stops: number;
}

export interface AchievementFacts {
  totalStops: number;
  /** Most stops logged on one calendar day (entries on the same day add up). */
  bestDayStops: number;
  /** Most distinct days with an entry in one Sunday-to-Saturday week. */
  bestWeekDays: number;
}

export function achievementFacts(entries: readonly DayLog[]): AchievementFacts {
  const byDay = new Map<string, number>();
  for (const { date, stops } of entries) byDay.set(date, (byDay.get(date) ?? 0) + stops);
  const daysByWeek = new Map<string, number>();
  for (const day of byDay.keys()) {
    const week = weekStart(day);
    daysByWeek.set(week, (daysByWeek.get(week) ?? 0) + 1);
  }
  let totalStops = 0;
  for (const stops of byDay.values()) totalStops += stops;
  return {
    totalStops,
    bestDayStops: Math.max(0, ...byDay.values()),
    bestWeekDays: Math.max(0, ...daysByWeek.values()),
  };
}

const count = new Intl.NumberFormat('en-GB');

/** `statementChecks`: how many statement checks the driver has saved (live ones). */
export function achievements(entries: readonly DayLog[], statementChecks = 0): Achievement[] {
  const facts = achievementFacts(entries);
  const topTarget = TOP_PERFORMER_STOPS + 1;
  return [
    {
      id: 'delivery-expert',
      title: 'Delivery Expert',
      description: `Over ${count.format(DELIVERY_EXPERT_STOPS)} stops in total`,
      unlocked: facts.totalStops > DELIVERY_EXPERT_STOPS,
      value: Math.min(facts.totalStops, DELIVERY_EXPERT_STOPS),
      max: DELIVERY_EXPERT_STOPS,
      progress: `${count.format(facts.totalStops)} / ${count.format(DELIVERY_EXPERT_STOPS)} stops`,
    },
    {
      id: 'perfect-week',
      title: 'Perfect Week',
      description: 'An entry on every day of one week (Sunday to Saturday)',
      unlocked: facts.bestWeekDays === 7,
      value: facts.bestWeekDays,
      max: 7,
      progress: `best week: ${facts.bestWeekDays} of 7 days`,
    },
    {
      id: 'top-performer',
      title: 'Top Performer',
      description: `Over ${TOP_PERFORMER_STOPS} stops in one day`,
      unlocked: facts.bestDayStops > TOP_PERFORMER_STOPS,
      value: Math.min(facts.bestDayStops, topTarget),
      max: topTarget,
      progress: `best day: ${count.format(facts.bestDayStops)} / ${topTarget} stops`,
    },
    {
      id: 'invoice-master',
      title: 'Invoice Master',
      description: `Save ${INVOICE_MASTER_CHECKS} statement checks against your log`,
      unlocked: statementChecks >= INVOICE_MASTER_CHECKS,
      value: Math.min(statementChecks, INVOICE_MASTER_CHECKS),
      max: INVOICE_MASTER_CHECKS,
      progress: `${count.format(statementChecks)} / ${INVOICE_MASTER_CHECKS} statement checks`,
    },
  ];
}
