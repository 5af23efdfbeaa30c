import { describe, expect, it } from 'vitest';
import { initialStep, phoneStep, RESEND_WAIT_MS, resendCountdown, type PhoneStep } from './phone-steps';

const sent = (now: number): PhoneStep => phoneStep(phoneStep(initialStep, { type: 'send' }), { type: 'sent', phone: '+447700900123', verificationId: 'v1', now });

describe('phone verification steps', () => {
  it('goes from the number to the code once a code is sent', () => {
    const sending = phoneStep(initialStep, { type: 'send' });
    expect(sending).toEqual({ step: 'phone', busy: true });
    expect(sent(1_000)).toEqual({ step: 'code', phone: '+447700900123', verificationId: 'v1', resendAt: 1_000 + RESEND_WAIT_MS, busy: false });
  });

  it('stays on the number when sending fails', () => {
    expect(phoneStep({ step: 'phone', busy: true }, { type: 'failed' })).toEqual({ step: 'phone', busy: false });
    expect(phoneStep({ step: 'phone', busy: true }, { type: 'wait', seconds: 30, now: 0 })).toEqual({ step: 'phone', busy: false });
  });

  it('counts down 60 seconds before a resend, in whole seconds', () => {
    const state = sent(10_000);
    expect(resendCountdown(state, 10_000)).toBe(60);
    expect(resendCountdown(state, 10_001)).toBe(60);
    expect(resendCountdown(state, 69_000)).toBe(1);
    expect(resendCountdown(state, 70_000)).toBe(0);
    expect(resendCountdown(initialStep, 0)).toBe(0);
  });

  it('a resend replaces the verification id and restarts the wait', () => {
    const resending = phoneStep(sent(0), { type: 'resend' });
    expect(resending).toMatchObject({ step: 'code', busy: 'resend' });
    const again = phoneStep(resending, { type: 'sent', phone: '+447700900123', verificationId: 'v2', now: 61_000 });
    expect(again).toMatchObject({ verificationId: 'v2', resendAt: 61_000 + RESEND_WAIT_MS, busy: false });
  });

  it('the server can ask for a longer wait (429 Retry-After)', () => {
    const waiting = phoneStep(phoneStep(sent(0), { type: 'resend' }), { type: 'wait', seconds: 240, now: 60_000 });
    expect(waiting).toMatchObject({ step: 'code', verificationId: 'v1', busy: false });
    expect(resendCountdown(waiting, 60_000)).toBe(240);
  });

  it('a failed verify keeps the code step; back returns to the number', () => {
    const verifying = phoneStep(sent(0), { type: 'verify' });
    expect(verifying).toMatchObject({ busy: 'verify' });
    expect(phoneStep(verifying, { type: 'failed' })).toMatchObject({ step: 'code', busy: false });
    expect(phoneStep(verifying, { type: 'back' })).toEqual(initialStep);
  });
});
