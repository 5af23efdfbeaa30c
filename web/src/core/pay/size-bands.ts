// Parcels by size band (issue 28): the bands a courier may pay by, smallest first (the
// contract's SizeBand, crates/domain/src/statement_line.rs), in the driver's words. A day's
// counts, a card's band rates and a statement's parcel lines all use these.
import type { BandCounts, SizeBand } from '@/sync/contract.generated';

export type { BandCounts, SizeBand };

/** Smallest first: a lower band pays less. */
export const SIZE_BANDS: readonly SizeBand[] = ['packet', 'small', 'medium', 'large', 'extraLarge'];

export const BAND_WORDS: Record<SizeBand, string> = { packet: 'Packet', small: 'Small', medium: 'Medium', large: 'Large', extraLarge: 'Extra large' };

/** A day with no parcel counted in any band. */
export const NO_BANDS: Readonly<BandCounts> = Object.freeze({ packet: 0, small: 0, medium: 0, large: 0, extraLarge: 0 });

/** Counts by band as the matching and pricing read them: a band left out is 0. */
export type SomeBands = Readonly<Partial<Record<SizeBand, number>>>;

/** The parcels counted across the bands. */
export function bandTotal(bands: SomeBands): number {
  return SIZE_BANDS.reduce((total, band) => total + (bands[band] ?? 0), 0);
}

/** Two days' band counts are the same (null: not counted by band; a record older than bands has none). */
export function sameBands(a: SomeBands | null | undefined, b: SomeBands | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return SIZE_BANDS.every((band) => (a[band] ?? 0) === (b[band] ?? 0));
}
