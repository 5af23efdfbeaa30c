import { describe, expect, it } from 'vitest';
import { phoneMessages, validateCode, validatePhone } from './phone-schema';

describe('phone number validation', () => {
  it('accepts international numbers and strips what people type around the digits', () => {
    expect(validatePhone('+447700900123')).toEqual({ ok: true, value: '+447700900123' });
    expect(validatePhone(' +44 7700 900123 ')).toEqual({ ok: true, value: '+447700900123' });
    expect(validatePhone('+1 (415) 555-0134')).toEqual({ ok: true, value: '+14155550134' });
    expect(validatePhone('+12345678')).toEqual({ ok: true, value: '+12345678' });
  });

  it.each(['', '07700900123', '447700900123', '+1234567', '+1234567890123456', '+0447700900123', '+44 7700 9001x3', '++447700900123'])(
    'refuses %j with the spec message',
    (input) => {
      expect(validatePhone(input)).toEqual({ ok: false, error: phoneMessages.phoneFormat });
    },
  );

  it('uses the spec wording', () => {
    expect(phoneMessages.phoneFormat).toBe('The phone number is entered in international format with a country code');
    expect(phoneMessages.codeRequired).toBe('The verification code is required');
  });
});

describe('code validation', () => {
  it('requires the code, then six digits', () => {
    expect(validateCode('')).toEqual({ ok: false, error: 'The verification code is required' });
    expect(validateCode('   ')).toEqual({ ok: false, error: 'The verification code is required' });
    expect(validateCode('12345')).toEqual({ ok: false, error: phoneMessages.codeFormat });
    expect(validateCode('12a456')).toEqual({ ok: false, error: phoneMessages.codeFormat });
    expect(validateCode(' 042917 ')).toEqual({ ok: true, value: '042917' });
  });
});
