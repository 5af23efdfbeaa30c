/** The two steps of phone verification as plain state, so the flow is tested without React. */

/** Least wait between two codes to one number (the server's PHONE_SEND_INTERVAL_SECS default). */
export const RESEND_WAIT_MS = 60_000;

export type PhoneStep =
  | { step: 'phone'; busy: boolean }
  | { step: 'code'; phone: string; verificationId: string; resendAt: number; busy: 'verify' | 'resend' | false };

export type PhoneEvent =
  | { type: 'send' }
  | { type: 'sent'; phone: string; verificationId: string; now: number }
  | { type: 'verify' }
  | { type: 'resend' }
  /** The server asked to wait (429 Retry-After) before the next code. */
  | { type: 'wait'; seconds: number; now: number }
  | { type: 'failed' }
  | { type: 'back' };

export const initialStep: PhoneStep = { step: 'phone', busy: false };

export function phoneStep(state: PhoneStep, event: PhoneEvent): PhoneStep {
  switch (event.type) {
    case 'send':
      return state.step === 'phone' ? { step: 'phone', busy: true } : state;
    case 'sent':
      return { step: 'code', phone: event.phone, verificationId: event.verificationId, resendAt: event.now + RESEND_WAIT_MS, busy: false };
    case 'verify':
      return state.step === 'code' ? { ...state, busy: 'verify' } : state;
    case 'resend':
      return state.step === 'code' ? { ...state, busy: 'resend' } : state;
    case 'wait':
      return state.step === 'code' ? { ...state, busy: false, resendAt: event.now + event.seconds * 1000 } : { step: 'phone', busy: false };
    case 'failed':
      return state.step === 'code' ? { ...state, busy: false } : { step: 'phone', busy: false };
    case 'back':
      return initialStep;
  }
}

/** Whole seconds until a resend is allowed (0 = now). */
export function resendCountdown(state: PhoneStep, now: number): number {
  if (state.step !== 'code') return 0;
  return Math.max(0, Math.ceil((state.resendAt - now) / 1000));
}
