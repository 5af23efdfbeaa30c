import { describe, expect, it } from 'vitest';
import { phoneMessages, validateCode } from './phone-schema';

describe('phone messages', () => {
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
