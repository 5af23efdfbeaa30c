import { describe, expect, it } from 'vitest';
import { formatPhone, parsePhone } from './phone-number';
import { phoneMessages } from './phone-schema';

describe('parsePhone', () => {
  it.each([
    ['+447700900123', '+447700900123'],
    [' +44 7700 900123 ', '+447700900123'],
    // The UK habit of the trunk 0 in brackets after the country code.
    ['+44 (0)7700 900123', '+447700900123'],
    // National form in the default region.
    ['07700 900123', '+447700900123'],
    ['07700-900-123', '+447700900123'],
    ['020 7946 0958', '+442079460958'],
    // A country code wins over the default region.
    ['+1 415 555 2671', '+14155552671'],
    ['+1 (415) 555-0134', '+14155550134'],
    ['+33.6.12.34.56.78', '+33612345678'],
  ])('reads %j as %j in GB', async (typed, e164) => {
    expect(await parsePhone(typed, 'GB')).toEqual({ ok: true, value: e164 });
  });

  it('reads national numbers in the server region', async () => {
    expect(await parsePhone('(415) 555-2671', 'US')).toEqual({ ok: true, value: '+14155552671' });
    expect(await parsePhone('+44 7700 900123', 'US')).toEqual({ ok: true, value: '+447700900123' });
  });

  it.each([
    '',
    '+',
    '12345',
    '+1234567',
    '+12345678',
    '+1234567890123456',
    '+44 7700 9001x3',
    '++447700900123',
    '+44 1234',
    '0770090012345',
    '+44\u06637700900123',
    '+44 7700 900123 ext 5',
    '1-800-FLOWERS',
  ])('refuses %j with the spec message', async (typed) => {
    expect(await parsePhone(typed, 'GB')).toEqual({ ok: false, error: phoneMessages.phoneFormat });
  });
});

describe('formatPhone', () => {
  it("shows the region's own numbers nationally and others internationally", async () => {
    expect(await formatPhone('+447700900123', 'GB')).toBe('07700 900123');
    expect(await formatPhone('+14155552671', 'GB')).toBe('+1 415 555 2671');
    expect(await formatPhone('+447700900123', 'US')).toBe('+44 7700 900123');
    expect(await formatPhone('not a number', 'GB')).toBe('not a number');
  });
});
