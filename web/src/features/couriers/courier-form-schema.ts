// The courier form, as typed, to what is stored. Bounds are the server's courier rules (the
// generated contract) so a typo is caught here, not parked after a push. The period's anchor is
// typed as the driver thinks of it (a weekday, a cycle's first day, a day of the month) and
// stored as the one date the contract keeps.
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { addDays, weekdayOf } from '@/lib/week';
import { BOUNDS } from '@/sync/contract.generated';
import type { CourierContent, PeriodKind } from '@/sync/types';

export const { maxNameChars: MAX_NAME_CHARS, maxArrearsWeeks: MAX_ARREARS_WEEKS, maxMonthlyAnchorDay: MAX_MONTH_DAY } = BOUNDS.courier;
/** A Sunday: weekly anchors are this date moved to the chosen weekday. */
const WEEK_ANCHOR = '2000-01-02';

/** A small palette that reads on both themes; any other colour is one tap on "Custom". */
export const PALETTE: readonly { value: string; name: string }[] = [
  { value: '#2f6fde', name: 'Blue' },
  { value: '#e5484d', name: 'Red' },
  { value: '#f59e0b', name: 'Amber' },
  { value: '#16a34a', name: 'Green' },
  { value: '#8b5cf6', name: 'Violet' },
  { value: '#0ea5e9', name: 'Sky' },
  { value: '#ec4899', name: 'Pink' },
  { value: '#64748b', name: 'Slate' },
];

export const courierMessages = {
  name: 'Please enter the courier’s name',
  nameLength: `The name must be at most ${MAX_NAME_CHARS} characters`,
  nameControl: forbiddenCharactersMessage('The name'),
  colour: 'Choose a colour',
  cycleStart: 'Please enter the first day of a 4-4-5 cycle',
  monthDay: `The day of the month must be from 1 to ${MAX_MONTH_DAY}`,
  arrears: `Weeks in arrears must be a whole number from 0 to ${MAX_ARREARS_WEEKS}`,
} as const;

export interface CourierFormInput {
  name: string;
  colour: string;
  periodKind: PeriodKind;
  /** Weekly: 0 (Sunday) … 6. */
  weekday: string;
  /** 4-4-5: a day a cycle starts. */
  cycleStart: string;
  /** Monthly: 1–28. */
  monthDay: string;
  arrearsWeeks: string;
}

export type CourierFormErrors = FieldErrors<CourierFormInput>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

export const courierFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, courierMessages.name)
      .refine((text) => [...text].length <= MAX_NAME_CHARS, courierMessages.nameLength)
      .refine((text) => !hasForbiddenCharacters(text), courierMessages.nameControl),
    colour: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, courierMessages.colour)
      .transform((text) => text.toLowerCase()),
    periodKind: z.enum(['weekly', 'fourFourFive', 'monthly']),
    weekday: z.string(),
    cycleStart: z.string(),
    monthDay: z.string(),
    arrearsWeeks: z
      .string()
      .refine((text) => wholeIn(text, 0, MAX_ARREARS_WEEKS), courierMessages.arrears)
      .transform(Number),
  })
  .superRefine((value, context) => {
    if (value.periodKind === 'fourFourFive' && !DAY.test(value.cycleStart)) {
      context.addIssue({ code: 'custom', path: ['cycleStart'], message: courierMessages.cycleStart });
    }
    if (value.periodKind === 'monthly' && !wholeIn(value.monthDay, 1, MAX_MONTH_DAY)) {
      context.addIssue({ code: 'custom', path: ['monthDay'], message: courierMessages.monthDay });
    }
  })
  .transform(
    (value): CourierContent => ({
      name: value.name,
      colour: value.colour,
      periodKind: value.periodKind,
      periodAnchor:
        value.periodKind === 'weekly'
          ? addDays(WEEK_ANCHOR, Number(value.weekday) % 7)
          : value.periodKind === 'fourFourFive'
            ? value.cycleStart
            : `2000-01-${value.monthDay.trim().padStart(2, '0')}`,
      arrearsWeeks: value.arrearsWeeks,
    }),
  );

export function validateCourierForm(input: CourierFormInput): FormResult<CourierFormInput, CourierContent> {
  return parseForm(courierFormSchema, input);
}

/** A new courier: weekly from Sunday (the spec's week), paid at once, the next unused colour. */
export function blankCourierForm(today: string, usedColours: readonly string[] = []): CourierFormInput {
  const colour = (PALETTE.find((c) => !usedColours.includes(c.value)) ?? PALETTE[0]!).value;
  return { name: '', colour, periodKind: 'weekly', weekday: '0', cycleStart: today, monthDay: '1', arrearsWeeks: '0' };
}

export function courierFormOf(courier: CourierContent, today: string): CourierFormInput {
  const anchor = courier.periodAnchor;
  return {
    name: courier.name,
    colour: courier.colour,
    periodKind: courier.periodKind,
    weekday: String(weekdayOf(anchor)),
    cycleStart: courier.periodKind === 'fourFourFive' ? anchor : today,
    monthDay: courier.periodKind === 'monthly' ? String(Number(anchor.slice(8, 10))) : '1',
    arrearsWeeks: String(courier.arrearsWeeks),
  };
}
