// A rate card as typed to what is stored. Every bound is the server's card rules' (the generated
// contract's rate card bounds), so a typo is caught here, not parked after a push.
// Money is typed in pounds and stored in pence; an empty box means "not paid this way" (null).
import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { parseForm, type FieldErrors, type FormResult } from '@/lib/form';
import { parsePounds, penceToPounds } from '@/core/money/money';
import { DEFAULT_TIERS, FIRST_CARD_FROM, type PayTier } from '@/core/pay/pay';
import type { Peak, RateCardContent } from '@/sync/types';
import { SIZE_BANDS, type SizeBand } from '@/core/pay/size-bands';
import type { BandRates } from '@/sync/contract.generated';
import { firstCard } from '@/sync/default-courier';
import { MAX_RATE_PENCE, MAX_STOP_COUNT, MAX_TIERS, MIN_RATE_PENCE, MIN_STOP_COUNT, MIN_TIERS, toStored } from '@/core/pay/tier-rules';
import { formatPence } from '@/lib/format';
import { BOUNDS } from '@/sync/contract.generated';

/**
 * The label's length; the most a parcel, collection, failed item, hour or peak extra can pay
 * (£100), and a day rate (£1,000); the parcel cap; how many peaks; a peak's multiplier in %.
 */
export const {
  maxLabelChars: MAX_LABEL_CHARS,
  maxUnitPence: MAX_ITEM_PENCE,
  maxDayRatePence: MAX_DAY_RATE_PENCE,
  minParcelCapPerStop: MIN_PARCEL_CAP,
  maxParcelCapPerStop: MAX_PARCEL_CAP,
  maxPeaks: MAX_PEAKS,
  minMultiplierPercent: MIN_MULTIPLIER,
  maxMultiplierPercent: MAX_MULTIPLIER,
} = BOUNDS.rateCard;

export const cardMessages = {
  validFrom: 'Please enter the day the new rates start',
  validFromEarly: 'The new rates must start after 01/01/2000',
  validFromTaken: 'This courier already has rates starting on that day: edit those instead',
  label: `The label must be at most ${MAX_LABEL_CHARS} characters`,
  labelControl: forbiddenCharactersMessage('The label'),
  noRule: 'Choose at least one way this courier pays: per stop, per parcel, by size band, per collection, a day rate or an hourly rate',
  tiers: `Per-stop pay needs ${MIN_TIERS} to ${MAX_TIERS} tiers, rates from ${formatPence(MIN_RATE_PENCE)} to ${formatPence(MAX_RATE_PENCE)} and stop counts from ${MIN_STOP_COUNT} to ${MAX_STOP_COUNT.toLocaleString('en-GB')}`,
  money: 'Enter an amount in pounds and pence, e.g. 0.45',
  itemRange: `The amount must be at most ${formatPence(MAX_ITEM_PENCE)}`,
  dayRange: `The day rate must be at most ${formatPence(MAX_DAY_RATE_PENCE)}`,
  capRange: `The cap must be a whole number of parcels from ${MIN_PARCEL_CAP} to ${MAX_PARCEL_CAP}`,
  capNeedsParcel: 'A parcel cap needs a per-parcel rate or pay by size band',
  peaksCount: `A card can have at most ${MAX_PEAKS} peak periods`,
  peakDates: (n: number) => `Peak ${n}: please enter its first and last day`,
  peakOrder: (n: number) => `Peak ${n}: the last day must be on or after the first day`,
  peakNothing: (n: number) => `Peak ${n}: enter an extra per stop, a multiplier, or both`,
  peakExtra: (n: number) => `Peak ${n}: the extra per stop must be £0.00 to ${formatPence(MAX_ITEM_PENCE)}`,
  peakMultiplier: (n: number) => `Peak ${n}: the multiplier must be a whole % from ${MIN_MULTIPLIER} to ${MAX_MULTIPLIER}`,
} as const;

export interface PeakInput {
  from: string;
  to: string;
  extraPerStop: string;
  multiplierPercent: string;
}

export interface CardFormInput {
  validFrom: string;
  label: string;
  /** Whether the card pays per stop; the tiers are kept while it is off, so a slip loses nothing. */
  perStopOn: boolean;
  tiers: readonly PayTier[];
  perParcel: string;
  /** Pay per parcel of each size band, in pounds; all empty = not paid by band. */
  bandRates: Record<SizeBand, string>;
  parcelCapPerStop: string;
  perCollection: string;
  perFailed: string;
  dayRate: string;
  hourly: string;
  peaks: PeakInput[];
}

export type CardFormErrors = FieldErrors<CardFormInput>;
export type CardRules = Omit<RateCardContent, 'courierId'>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Pounds typed → pence, '' → null (not used). Undefined when the text is not an amount. */
function optionalPence(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return parsePounds(trimmed) ?? undefined;
}

const money = (max: number, rangeMessage: string) =>
  z
    .string()
    .refine((text) => optionalPence(text) !== undefined, cardMessages.money)
    .transform((text) => optionalPence(text) ?? null)
    .refine((pence) => pence === null || pence <= max, rangeMessage);

const validTiers = (tiers: readonly PayTier[]) =>
  tiers.length >= MIN_TIERS &&
  tiers.length <= MAX_TIERS &&
  tiers.every((tier, i) => {
    const rateOk = Number.isInteger(tier.rate) && tier.rate >= MIN_RATE_PENCE && tier.rate <= MAX_RATE_PENCE;
    if (i === tiers.length - 1) return rateOk;
    const count = tier.stopCount;
    return rateOk && count !== undefined && Number.isInteger(count) && count >= MIN_STOP_COUNT && count <= MAX_STOP_COUNT;
  });

function peakOf(input: PeakInput): Peak {
  const extra = optionalPence(input.extraPerStop);
  const multiplier = input.multiplierPercent.trim();
  return { from: input.from, to: input.to, extraPerStop: extra ?? null, multiplierPercent: multiplier === '' ? null : Number(multiplier) };
}

/** The first thing wrong with peak number `n`, or null. */
function peakProblem(input: PeakInput, n: number): string | null {
  if (!DAY.test(input.from) || !DAY.test(input.to)) return cardMessages.peakDates(n);
  if (input.to < input.from) return cardMessages.peakOrder(n);
  const extra = optionalPence(input.extraPerStop);
  if (extra === undefined || (extra !== null && extra > MAX_ITEM_PENCE)) return cardMessages.peakExtra(n);
  const multiplier = input.multiplierPercent.trim();
  if (multiplier !== '' && !(/^\d+$/.test(multiplier) && Number(multiplier) >= MIN_MULTIPLIER && Number(multiplier) <= MAX_MULTIPLIER)) {
    return cardMessages.peakMultiplier(n);
  }
  if (extra === null && multiplier === '') return cardMessages.peakNothing(n);
  return null;
}

export interface CardFormContext {
  /** The courier's first card starts "from the start"; its date is not the driver's to pick. */
  first: boolean;
  /** validFrom days of the courier's other cards: two cards from one day would be a puzzle. */
  takenDates: readonly string[];
}

export function cardFormSchema({ first, takenDates }: CardFormContext) {
  return z
    .object({
      validFrom: z.string(),
      label: z
        .string()
        .trim()
        .refine((text) => [...text].length <= MAX_LABEL_CHARS, cardMessages.label)
        .refine((text) => !hasForbiddenCharacters(text), cardMessages.labelControl),
      perStopOn: z.boolean(),
      tiers: z.custom<readonly PayTier[]>((value) => Array.isArray(value)),
      perParcel: money(MAX_ITEM_PENCE, cardMessages.itemRange),
      bandRates: z
        .object({
          packet: money(MAX_ITEM_PENCE, cardMessages.itemRange),
          small: money(MAX_ITEM_PENCE, cardMessages.itemRange),
          medium: money(MAX_ITEM_PENCE, cardMessages.itemRange),
          large: money(MAX_ITEM_PENCE, cardMessages.itemRange),
          extraLarge: money(MAX_ITEM_PENCE, cardMessages.itemRange),
        })
        .transform((rates): BandRates | null => (SIZE_BANDS.some((band) => rates[band] !== null) ? rates : null)),
      parcelCapPerStop: z
        .string()
        .trim()
        .refine((text) => text === '' || (/^\d+$/.test(text) && Number(text) >= MIN_PARCEL_CAP && Number(text) <= MAX_PARCEL_CAP), cardMessages.capRange)
        .transform((text) => (text === '' ? null : Number(text))),
      perCollection: money(MAX_ITEM_PENCE, cardMessages.itemRange),
      perFailed: money(MAX_ITEM_PENCE, cardMessages.itemRange),
      dayRate: money(MAX_DAY_RATE_PENCE, cardMessages.dayRange),
      hourly: money(MAX_ITEM_PENCE, cardMessages.itemRange),
      peaks: z.array(z.custom<PeakInput>()),
    })
    .superRefine((value, context) => {
      const issue = (path: keyof CardFormInput, message: string) => context.addIssue({ code: 'custom', path: [path], message });
      if (!first) {
        if (!DAY.test(value.validFrom)) issue('validFrom', cardMessages.validFrom);
        else if (value.validFrom <= FIRST_CARD_FROM) issue('validFrom', cardMessages.validFromEarly);
        else if (takenDates.includes(value.validFrom)) issue('validFrom', cardMessages.validFromTaken);
      }
      if (value.perStopOn && !validTiers(value.tiers)) issue('tiers', cardMessages.tiers);
      if (value.parcelCapPerStop !== null && value.perParcel === null && value.bandRates === null) issue('parcelCapPerStop', cardMessages.capNeedsParcel);
      if (!value.perStopOn && value.perParcel === null && value.bandRates === null && value.perCollection === null && value.dayRate === null && value.hourly === null) {
        issue('perStopOn', cardMessages.noRule);
      }
      if (value.peaks.length > MAX_PEAKS) issue('peaks', cardMessages.peaksCount);
      else {
        const problem = value.peaks.map((peak, i) => peakProblem(peak, i + 1)).find((p) => p !== null);
        if (problem) issue('peaks', problem);
      }
    })
    .transform(
      (value): CardRules => ({
        validFrom: first ? FIRST_CARD_FROM : value.validFrom,
        label: value.label,
        perStop: value.perStopOn ? toStored(value.tiers) : null,
        perParcel: value.perParcel,
        bandRates: value.bandRates,
        parcelCapPerStop: value.parcelCapPerStop,
        perCollection: value.perCollection,
        perFailed: value.perFailed,
        dayRate: value.dayRate,
        hourly: value.hourly,
        peaks: value.peaks.map(peakOf),
      }),
    );
}

export function validateCardForm(input: CardFormInput, context: CardFormContext): FormResult<CardFormInput, CardRules> {
  return parseForm(cardFormSchema(context), input);
}

const pounds = (pence: number | null) => (pence === null ? '' : penceToPounds(pence));

function bandRatesForm(rates: BandRates | null): Record<SizeBand, string> {
  return { packet: pounds(rates?.packet ?? null), small: pounds(rates?.small ?? null), medium: pounds(rates?.medium ?? null), large: pounds(rates?.large ?? null), extraLarge: pounds(rates?.extraLarge ?? null) };
}

/** A card's rules as the form shows them. */
export function cardFormOf(card: CardRules): CardFormInput {
  return {
    validFrom: card.validFrom,
    label: card.label,
    perStopOn: card.perStop !== null,
    tiers: card.perStop ?? DEFAULT_TIERS,
    perParcel: pounds(card.perParcel),
    bandRates: bandRatesForm(card.bandRates ?? null),
    parcelCapPerStop: card.parcelCapPerStop === null ? '' : String(card.parcelCapPerStop),
    perCollection: pounds(card.perCollection),
    perFailed: pounds(card.perFailed),
    dayRate: pounds(card.dayRate),
    hourly: pounds(card.hourly),
    peaks: card.peaks.map((peak) => ({
      from: peak.from,
      to: peak.to,
      extraPerStop: pounds(peak.extraPerStop),
      multiplierPercent: peak.multiplierPercent === null ? '' : String(peak.multiplierPercent),
    })),
  };
}

/** "Change rates from a date": the card in force until then, copied, from `day`. */
export function nextCardForm(current: CardRules | null, day: string): CardFormInput {
  const base = current ? cardFormOf(current) : cardFormOf(starterRules());
  return { ...base, validFrom: day, label: '' };
}

/** What a new courier pays until the driver says otherwise: the spec's default tiers, from the start. */
export function starterRules(): CardRules {
  const { courierId: _none, ...rules } = firstCard('', DEFAULT_TIERS);
  return rules;
}

export function blankPeak(day: string): PeakInput {
  return { from: day, to: day, extraPerStop: '', multiplierPercent: '' };
}
