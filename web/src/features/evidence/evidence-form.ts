// The "Add evidence" form's fields to an evidence item, with the server's rules checked first
// (crates/domain/src/evidence.rs, limits from the contract's BOUNDS.evidence), every problem at
// once, beside its field.
import type { EvidenceContent } from '@/core/evidence/evidence';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { BOUNDS, type EvidenceType, type PhotoPurpose } from '@/sync/contract.generated';

export const EVIDENCE_BOUNDS = BOUNDS.evidence;

/** What the item is kept on: exactly one day, statement line or query. */
export type EvidenceHolder = { entryId: string } | { statementLineId: string } | { statementQueryId: string };

export interface EvidenceFields {
  type: EvidenceType;
  text: string;
  purpose: PhotoPurpose;
  /** A photo was picked (the photo itself waits beside the form until it is saved). */
  hasPhoto: boolean;
  minutes: string;
  place: string;
  fromWhom: string;
}

export type EvidenceErrors = Partial<Record<'text' | 'photo' | 'minutes' | 'place' | 'fromWhom', string>>;

export function emptyFields(type: EvidenceType = 'note'): EvidenceFields {
  return { type, text: '', purpose: 'proofOfDelivery', hasPhoto: false, minutes: '', place: '', fromWhom: '' };
}

const WHOLE = /^\d+$/;

function holderFields(holder: EvidenceHolder): Pick<EvidenceContent, 'entryId' | 'statementLineId' | 'statementQueryId'> {
  return {
    entryId: 'entryId' in holder ? holder.entryId : null,
    statementLineId: 'statementLineId' in holder ? holder.statementLineId : null,
    statementQueryId: 'statementQueryId' in holder ? holder.statementQueryId : null,
  };
}

/**
 * The item to save, recorded now (`recordedAt`, the device's clock) with `photoId` for a photo,
 * or the problems by field.
 */
export function readEvidence(
  f: EvidenceFields,
  holder: EvidenceHolder,
  recordedAt: string,
  photoId: string | null,
): { content: EvidenceContent } | { errors: EvidenceErrors } {
  const errors: EvidenceErrors = {};
  const text = f.text;
  const line = (field: 'place' | 'fromWhom', words: string, required: boolean): string => {
    const value = f[field].trim();
    if (required && value === '') errors[field] = `Say ${words}`;
    else if ([...value].length > EVIDENCE_BOUNDS.maxNameChars) errors[field] = `Keep it to ${EVIDENCE_BOUNDS.maxNameChars} characters`;
    else if (hasForbiddenCharacters(value)) errors[field] = forbiddenCharactersMessage(field === 'place' ? 'Where' : 'Who');
    return value;
  };
  if ([...text].length > EVIDENCE_BOUNDS.maxTextChars) errors.text = `Keep it to ${EVIDENCE_BOUNDS.maxTextChars} characters`;
  else if (hasForbiddenCharacters(text, true)) errors.text = forbiddenCharactersMessage('The text');
  let minutes: number | null = null;
  let place = '';
  let fromWhom = '';
  switch (f.type) {
    case 'note':
      if (text.trim() === '') errors.text = 'Write the note';
      break;
    case 'photo':
      if (!f.hasPhoto || photoId === null) errors.photo = 'Take or choose a photo';
      break;
    case 'waiting': {
      const raw = f.minutes.trim();
      const value = WHOLE.test(raw) ? Number(raw) : NaN;
      if (!(value >= 1 && value <= EVIDENCE_BOUNDS.maxWaitingMinutes)) errors.minutes = `Minutes must be a whole number from 1 to ${EVIDENCE_BOUNDS.maxWaitingMinutes}`;
      else minutes = value;
      place = line('place', 'where', false);
      break;
    }
    case 'instruction':
      fromWhom = line('fromWhom', 'who gave the instruction', true);
      if (text.trim() === '') errors.text = 'Write what you were told';
      break;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    content: {
      ...holderFields(holder),
      type: f.type,
      recordedAt,
      text,
      photoId: f.type === 'photo' ? photoId : null,
      purpose: f.type === 'photo' ? f.purpose : null,
      minutes,
      place,
      fromWhom,
    },
  };
}
