import { describe, expect, it } from 'vitest';
import { refusedErrors } from './use-form';

describe('refusedErrors', () => {
  it("puts each refused field's problems beside the form field of the same name, and the rest above the buttons", () => {
    const values = { date: '2025-03-21', stops: '10', notes: '' };
    const got = refusedErrors(
      { stops: ['Stops must be a whole number from 0 to 1000', 'Stops is too many'], courierId: ['Courier id must be a UUID'] },
      values,
    );
    expect(got.fieldErrors).toEqual({ stops: 'Stops must be a whole number from 0 to 1000 Stops is too many' });
    expect(got.rest).toEqual(['Courier id must be a UUID']);
  });

  it('has nothing to show for a refusal that named no field', () => {
    expect(refusedErrors({}, { date: '' })).toEqual({ fieldErrors: {}, rest: [] });
  });
});
