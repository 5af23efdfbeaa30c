// The tracking form's text fields to the query's tracking, with the server's rules checked first
// (crates/domain/src/statement_query.rs), every problem at once, beside its field.
import { parsePounds, penceToPounds } from '@/core/money/money';
import type { QueryTracking } from '@/core/statement-queries/query';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';

export interface TrackingFields {
  sentOn: string;
  answeredOn: string;
  paidBack: string;
  paidBackOn: string;
  paidBackCheckId: string;
  closedOn: string;
  note: string;
}

export type TrackingErrors = Partial<Record<keyof TrackingFields, string>>;

export const MAX_NOTE_CHARS = 2_000;
const MAX_PENCE = 10_000_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function fieldsOf(q: QueryTracking): TrackingFields {
  return {
    sentOn: q.sentOn ?? '',
    answeredOn: q.answeredOn ?? '',
    paidBack: q.paidBackAmount === null ? '' : penceToPounds(q.paidBackAmount),
    paidBackOn: q.paidBackOn ?? '',
    paidBackCheckId: q.paidBackCheckId ?? '',
    closedOn: q.closedOn ?? '',
    note: q.note,
  };
}

/** The tracking to save, or the problems by field. */
export function readTracking(f: TrackingFields, madeOn: string): { tracking: QueryTracking } | { errors: TrackingErrors } {
  const errors: TrackingErrors = {};
  const day = (field: 'sentOn' | 'answeredOn' | 'paidBackOn' | 'closedOn', words: string): string | null => {
    const raw = f[field].trim();
    if (raw === '') return null;
    if (!DAY.test(raw)) {
      errors[field] = `${words} must be a real day`;
      return null;
    }
    if (raw < madeOn) errors[field] = `${words} must not be before the query was made`;
    return raw;
  };
  const sentOn = day('sentOn', 'Sent on');
  const answeredOn = day('answeredOn', 'Answered on');
  if (answeredOn && sentOn && answeredOn < sentOn) errors.answeredOn = 'Answered on must not be before the query was sent';
  const paidBackOn = day('paidBackOn', 'Paid back on');
  const closedOn = day('closedOn', 'Closed on');
  let paidBackAmount: number | null = null;
  if (f.paidBack.trim() !== '') {
    paidBackAmount = parsePounds(f.paidBack);
    if (paidBackAmount === null || paidBackAmount < 1 || paidBackAmount > MAX_PENCE) errors.paidBack = 'Paid back must be between £0.01 and £100,000.00';
  }
  if ((paidBackAmount === null) !== (paidBackOn === null) && !errors.paidBack && !errors.paidBackOn) {
    errors[paidBackAmount === null ? 'paidBack' : 'paidBackOn'] = 'Paid back needs both its amount and its day';
  }
  const paidBackCheckId = f.paidBackCheckId === '' ? null : f.paidBackCheckId;
  if (paidBackCheckId !== null && paidBackAmount === null && !errors.paidBack) errors.paidBack = 'Say how much was paid back on that statement';
  if ([...f.note].length > MAX_NOTE_CHARS) errors.note = `Note must be at most ${MAX_NOTE_CHARS} characters`;
  else if (hasForbiddenCharacters(f.note, true)) errors.note = forbiddenCharactersMessage('The note');
  if (Object.keys(errors).length > 0) return { errors };
  return { tracking: { sentOn, answeredOn, paidBackAmount, paidBackOn, paidBackCheckId, closedOn, note: f.note } };
}
