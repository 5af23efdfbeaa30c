import { describe, expect, it } from 'vitest';
import { fieldsOf, readTracking, type TrackingFields } from './tracking-form';

const empty: TrackingFields = { sentOn: '', answeredOn: '', paidBack: '', paidBackOn: '', paidBackCheckId: '', closedOn: '', note: '' };
const MADE = '2026-03-20';

describe('the tracking form', () => {
  it('reads empty fields as nothing yet, and round-trips what it read', () => {
    const read = readTracking(empty, MADE);
    expect(read).toEqual({ tracking: { sentOn: null, answeredOn: null, paidBackAmount: null, paidBackOn: null, paidBackCheckId: null, closedOn: null, note: '' } });
    const full = { sentOn: '2026-03-21', answeredOn: '2026-03-25', paidBack: '197.00', paidBackOn: '2026-04-10', paidBackCheckId: 'later', closedOn: '2026-04-11', note: 'Agreed\non the phone' };
    const tracked = readTracking(full, MADE);
    expect(tracked).toEqual({ tracking: { sentOn: '2026-03-21', answeredOn: '2026-03-25', paidBackAmount: 19_700, paidBackOn: '2026-04-10', paidBackCheckId: 'later', closedOn: '2026-04-11', note: 'Agreed\non the phone' } });
    if ('tracking' in tracked) expect(fieldsOf(tracked.tracking)).toEqual(full);
  });

  it("names every problem at once, with the server's rules", () => {
    const read = readTracking({ sentOn: '2026-03-19', answeredOn: '2026-03-18', paidBack: '0', paidBackOn: '', paidBackCheckId: 'later', closedOn: '2026-03-01', note: 'bell\u0007' }, MADE);
    expect(read).toEqual({
      errors: {
        sentOn: 'Sent on must not be before the query was made',
        answeredOn: 'Answered on must not be before the query was sent',
        paidBack: 'Paid back must be between £0.01 and £100,000.00',
        closedOn: 'Closed on must not be before the query was made',
        note: 'The note cannot contain control characters or text-direction marks',
      },
    });
    expect(readTracking({ ...empty, sentOn: '2026-03-25', answeredOn: '2026-03-22' }, MADE)).toEqual({ errors: { answeredOn: 'Answered on must not be before the query was sent' } });
    // The missing half is named.
    expect(readTracking({ ...empty, paidBack: '5' }, MADE)).toEqual({ errors: { paidBackOn: 'Paid back needs both its amount and its day' } });
    expect(readTracking({ ...empty, paidBackOn: '2026-04-01' }, MADE)).toEqual({ errors: { paidBack: 'Paid back needs both its amount and its day' } });
    expect(readTracking({ ...empty, paidBackCheckId: 'later' }, MADE)).toEqual({ errors: { paidBack: 'Say how much was paid back on that statement' } });
    expect(readTracking({ ...empty, note: 'n'.repeat(2_001) }, MADE)).toEqual({ errors: { note: 'Note must be at most 2000 characters' } });
  });
});
