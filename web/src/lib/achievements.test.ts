import { afterEach, describe, expect, it, vi } from 'vitest';
import { localDay } from '@/lib/week';
import { achievementFacts, achievements, type AchievementId, type DayLog } from './achievements';

const day = (date: string, stops = 10): DayLog => ({ date, stops });
const week = (dates: string[]) => dates.map((date) => day(date));
const byId = (entries: DayLog[]) => new Map(achievements(entries).map((a) => [a.id, a] as [AchievementId, (typeof a)]));

afterEach(() => vi.unstubAllEnvs());

describe('achievement facts', () => {
  it('is all zero with no entries', () => {
    expect(achievementFacts([])).toEqual({ totalStops: 0, bestDayStops: 0, bestWeekDays: 0 });
  });

  it('adds entries on the same day together for the best day, and counts a day once in its week', () => {
    const facts = achievementFacts([day('2025-03-17', 100), day('2025-03-17', 60), day('2025-03-18', 120)]);
    expect(facts).toEqual({ totalStops: 280, bestDayStops: 160, bestWeekDays: 2 });
  });

  it('starts weeks on Sunday: Saturday and the next Sunday are different weeks', () => {
    // Sun 16 – Sat 22 March 2025 is one week; Sun 23 starts the next.
    expect(achievementFacts(week(['2025-03-16', '2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21', '2025-03-22'])).bestWeekDays).toBe(7);
    expect(achievementFacts(week(['2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21', '2025-03-22', '2025-03-23'])).bestWeekDays).toBe(6);
  });

  it('keeps the week of the spring clock change together (BST starts Sun 30 March 2025)', () => {
    vi.stubEnv('TZ', 'Europe/London');
    const days = ['2025-03-30', '2025-03-31', '2025-04-01', '2025-04-02', '2025-04-03', '2025-04-04', '2025-04-05'];
    expect(achievementFacts(week(days)).bestWeekDays).toBe(7);
    // And the autumn one (BST ends Sun 26 October 2025): Saturday 25th belongs to the week before.
    expect(achievementFacts(week(['2025-10-25', '2025-10-26', '2025-10-27'])).bestWeekDays).toBe(2);
    // Days typed at 00:30 local time on the change days are still their own calendar days.
    expect(localDay(new Date(2025, 2, 30, 0, 30))).toBe('2025-03-30');
  });

  it('carries a week across the year end (Sun 28 Dec 2025 – Sat 3 Jan 2026)', () => {
    const days = ['2025-12-28', '2025-12-29', '2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02', '2026-01-03'];
    expect(achievementFacts(week(days)).bestWeekDays).toBe(7);
    expect(achievementFacts(week(['2025-12-27', '2025-12-28'])).bestWeekDays).toBe(1);
  });

  it('does not mistake the same weekday of another week for a new day', () => {
    expect(achievementFacts(week(['2025-03-17', '2025-03-24', '2025-03-31'])).bestWeekDays).toBe(1);
  });
});

describe('achievements', () => {
  it('are all locked for a new driver, with progress toward each', () => {
    const list = achievements([]);
    expect(list.map((a) => [a.title, a.unlocked, a.progress])).toEqual([
      ['Delivery Expert', false, '0 / 1,000 stops'],
      ['Perfect Week', false, 'best week: 0 of 7 days'],
      ['Top Performer', false, 'best day: 0 / 151 stops'],
      ['Invoice Master', false, '0 / 10 statement checks'],
    ]);
  });

  it('unlocks Delivery Expert over 1,000 stops, not at 1,000', () => {
    expect(byId([day('2025-03-17', 500), day('2025-03-18', 500)]).get('delivery-expert')).toMatchObject({
      unlocked: false,
      progress: '1,000 / 1,000 stops',
    });
    expect(byId([day('2025-03-17', 500), day('2025-03-18', 501)]).get('delivery-expert')).toMatchObject({ unlocked: true, value: 1000, max: 1000 });
    expect(byId([day('2025-03-17', 640)]).get('delivery-expert')?.progress).toBe('640 / 1,000 stops');
  });

  it('unlocks Top Performer over 150 stops in one day, counting two entries on that day', () => {
    expect(byId([day('2025-03-17', 150)]).get('top-performer')).toMatchObject({ unlocked: false, progress: 'best day: 150 / 151 stops' });
    expect(byId([day('2025-03-17', 132)]).get('top-performer')?.progress).toBe('best day: 132 / 151 stops');
    expect(byId([day('2025-03-17', 100), day('2025-03-17', 51)]).get('top-performer')?.unlocked).toBe(true);
  });

  it('unlocks Perfect Week with an entry on all 7 days of one week', () => {
    const six = ['2025-03-16', '2025-03-17', '2025-03-18', '2025-03-19', '2025-03-20', '2025-03-21'];
    expect(byId(week(six)).get('perfect-week')).toMatchObject({ unlocked: false, progress: 'best week: 6 of 7 days' });
    expect(byId(week([...six, '2025-03-22'])).get('perfect-week')).toMatchObject({ unlocked: true, value: 7 });
  });

  it('unlocks Invoice Master at the tenth statement check', () => {
    const master = (checks: number) => achievements([day('2025-03-17', 999)], checks).find((a) => a.id === 'invoice-master');
    expect(master(0)).toMatchObject({ unlocked: false, value: 0, max: 10, progress: '0 / 10 statement checks' });
    expect(master(9)).toMatchObject({ unlocked: false, value: 9, progress: '9 / 10 statement checks' });
    expect(master(10)).toMatchObject({ unlocked: true, value: 10 });
    expect(master(12)).toMatchObject({ unlocked: true, value: 10, progress: '12 / 10 statement checks' });
    // The spec's title, described in the feature's one name.
    expect(master(0)).toMatchObject({ title: 'Invoice Master', description: 'Save 10 statement checks against your log' });
  });
});
