// A rate card in the driver's words, for the list of a courier's cards.
import { formatPence, formatShortDate } from '@/lib/format';
import { FIRST_CARD_FROM } from '@/core/pay/pay';
import { BAND_WORDS, SIZE_BANDS } from '@/core/pay/size-bands';
import type { RateCardContent } from '@/sync/types';

/** "From the start" for a courier's first card, else "From 01/09/2025". */
export function cardStart(card: Pick<RateCardContent, 'validFrom'>): string {
  return card.validFrom <= FIRST_CARD_FROM ? 'From the start' : `From ${formatShortDate(card.validFrom)}`;
}

/** Each way the card pays, e.g. ["110 stops at £1.98, then £1.48 a stop", "£0.45 a parcel (up to 3 a stop)"]. */
export function cardRules(card: RateCardContent): string[] {
  const lines: string[] = [];
  if (card.perStop) {
    const tiers = card.perStop;
    lines.push(
      tiers
        .map((tier, i) => (i === tiers.length - 1 ? (i === 0 ? '' : 'then ') + formatPence(tier.rate) : `${i === 0 ? '' : 'then '}up to ${tier.stopCount} stops at ${formatPence(tier.rate)}`))
        .join(', ') + ' a stop',
    );
  }
  if (card.perParcel !== null) {
    lines.push(`${formatPence(card.perParcel)} a parcel${card.parcelCapPerStop === null ? '' : ` (up to ${card.parcelCapPerStop} a stop)`}`);
  }
  if (card.bandRates) {
    const rates = card.bandRates;
    const banded = SIZE_BANDS.flatMap((band) => (rates[band] === null ? [] : [`${BAND_WORDS[band]} ${formatPence(rates[band])}`]));
    lines.push(`By size band: ${banded.join(', ')}${card.perParcel === null && card.parcelCapPerStop !== null ? ` (up to ${card.parcelCapPerStop} a stop)` : ''}`);
  }
  if (card.perCollection !== null) lines.push(`${formatPence(card.perCollection)} a collection`);
  if (card.perFailed !== null) lines.push(card.perFailed === 0 ? 'Failed or returned items unpaid' : `${formatPence(card.perFailed)} a failed or returned item`);
  if (card.dayRate !== null) lines.push(`${formatPence(card.dayRate)} a day`);
  if (card.hourly !== null) lines.push(`${formatPence(card.hourly)} an hour`);
  for (const peak of card.peaks) {
    const what = [peak.extraPerStop === null ? null : `+${formatPence(peak.extraPerStop)} a stop`, peak.multiplierPercent === null ? null : `× ${peak.multiplierPercent}%`]
      .filter(Boolean)
      .join(', ');
    lines.push(`Peak ${formatShortDate(peak.from)} to ${formatShortDate(peak.to)}: ${what}`);
  }
  return lines;
}

/** A pence difference with its sign: "+£1.20", "−£0.65", "£0.00". */
export function signedPence(pence: number): string {
  if (pence === 0) return formatPence(0);
  return `${pence > 0 ? '+' : '−'}${formatPence(Math.abs(pence))}`;
}
