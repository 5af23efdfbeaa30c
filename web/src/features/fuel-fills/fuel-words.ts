// How fills and economy read to a driver.
import { countWords, formatWeekdayDate } from '@/lib/format';
import type { Economy } from '@/core/fuel/economy';
import { thousandthsText, UNIT_WORDS, type FuelUnit } from './fuel-fill-form-schema';

/** Money counted once: a fill is a log, never an expense, and the view says so. */
export const COUNT_ONCE_WORDS = 'Claim fuel as an expense or through the mileage rate; the fill log is for economy and evidence.';

/** 45,670 millilitres → "45.67 litres"; 41,500 watt-hours → "41.5 kWh". */
export function quantityWords(quantity: number, unit: FuelUnit): string {
  return `${Number(thousandthsText(quantity)).toLocaleString('en-GB', { maximumFractionDigits: 3 })} ${UNIT_WORDS[unit]}`;
}

/** "38.2 mpg" or "3.4 miles per kWh", to one decimal place. */
export function economyWords(economy: Economy): string {
  const figure = economy.milesPerUnit.toLocaleString('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return economy.unit === 'litres' ? `${figure} mpg` : `${figure} miles per kWh`;
}

/** "14.1p a mile", to a tenth of a penny. */
export function pencePerMileWords(economy: Economy): string {
  return `${economy.pencePerMile.toLocaleString('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}p a mile`;
}

/** What the figures were measured over: "over 2 stretches, 812 miles". */
export function measuredOverWords(economy: Economy): string {
  return `over ${countWords(economy.stretches, 'stretch', 'stretches')}, ${countWords(economy.miles, 'mile')}`;
}

/** The day as the list and the Undo say it: "Sat 05/04/2026". */
export const fillDayWords = formatWeekdayDate;
