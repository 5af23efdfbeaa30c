import { BAND_WORDS } from '@/core/pay/size-bands';
import type { LineType } from '@/sync/contract.generated';
import type { StatementLineContent } from '@/sync/types';

/** Each line type in the driver's words. */
export const LINE_TYPE_WORDS: Record<LineType, string> = {
  stop: 'Stops',
  parcel: 'Parcel',
  collection: 'Collection',
  failed: 'Failed or returned',
  dayRate: 'Day or route rate',
  bonus: 'Bonus',
  deduction: 'Deduction',
  adjustment: 'Adjustment',
};

export { BAND_WORDS };

/** "Parcel (Small)", "Stops": a line's type in words. */
export function lineWords(line: Pick<StatementLineContent, 'lineType' | 'band'>): string {
  return `${LINE_TYPE_WORDS[line.lineType]}${line.band ? ` (${BAND_WORDS[line.band]})` : ''}`;
}
