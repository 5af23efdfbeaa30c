import { describe, expect, it } from 'vitest';
import { emptyFields, EVIDENCE_BOUNDS, readEvidence, type EvidenceFields } from './evidence-form';

const AT = '2026-03-02T14:05:00.123Z';
const day = { entryId: 'day-1' };

function read(fields: Partial<EvidenceFields>, photoId: string | null = null) {
  return readEvidence({ ...emptyFields(fields.type), ...fields }, day, AT, photoId);
}

describe('the evidence form', () => {
  it('keeps a note on its day, recorded now', () => {
    expect(read({ type: 'note', text: 'Depot shut at 7' })).toEqual({
      content: { entryId: 'day-1', statementLineId: null, statementQueryId: null, type: 'note', recordedAt: AT, text: 'Depot shut at 7', photoId: null, purpose: null, minutes: null, place: '', fromWhom: '' },
    });
  });

  it('a photo needs its photo; its purpose and caption go with it', () => {
    expect(read({ type: 'photo' })).toEqual({ errors: { photo: 'Take or choose a photo' } });
    const kept = read({ type: 'photo', hasPhoto: true, purpose: 'damage', text: 'Dented door' }, 'photo-1');
    expect(kept).toMatchObject({ content: { type: 'photo', photoId: 'photo-1', purpose: 'damage', text: 'Dented door' } });
  });

  it('a waiting time needs whole minutes within the bound; where is optional and trimmed', () => {
    expect(read({ type: 'waiting', minutes: '' })).toEqual({ errors: { minutes: `Minutes must be a whole number from 1 to ${EVIDENCE_BOUNDS.maxWaitingMinutes}` } });
    expect(read({ type: 'waiting', minutes: '1.5' })).toHaveProperty('errors.minutes');
    expect(read({ type: 'waiting', minutes: String(EVIDENCE_BOUNDS.maxWaitingMinutes + 1) })).toHaveProperty('errors.minutes');
    expect(read({ type: 'waiting', minutes: String(EVIDENCE_BOUNDS.maxWaitingMinutes), place: ' Depot ' })).toMatchObject({ content: { minutes: EVIDENCE_BOUNDS.maxWaitingMinutes, place: 'Depot', photoId: null } });
  });

  it('an instruction needs who and what, every problem at once', () => {
    expect(read({ type: 'instruction', text: ' ', fromWhom: '' })).toEqual({ errors: { fromWhom: 'Say who gave the instruction', text: 'Write what you were told' } });
    expect(read({ type: 'instruction', text: 'Take Leeds', fromWhom: 'x'.repeat(EVIDENCE_BOUNDS.maxNameChars + 1) })).toHaveProperty('errors.fromWhom');
    expect(read({ type: 'instruction', text: 'Take Leeds', fromWhom: 'x'.repeat(EVIDENCE_BOUNDS.maxNameChars) })).toHaveProperty('content');
  });

  it('holds text to the bound and the text rule', () => {
    expect(read({ type: 'note', text: 'a'.repeat(EVIDENCE_BOUNDS.maxTextChars) })).toHaveProperty('content');
    expect(read({ type: 'note', text: 'a'.repeat(EVIDENCE_BOUNDS.maxTextChars + 1) })).toHaveProperty('errors.text');
    expect(read({ type: 'note', text: 'bell\u0007' })).toHaveProperty('errors.text');
  });
});
