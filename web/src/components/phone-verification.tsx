import { useEffect, useReducer, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { solveCaptcha, type Solver } from '@/lib/phone/captcha';
import { requestCode, verifyCode } from '@/lib/phone/phone-api';
import { phoneErrorMessage } from '@/lib/phone/phone-messages';
import { formatPhone, parsePhone } from '@/lib/phone/phone-number';
import { validateCode } from '@/lib/phone/phone-schema';
import { initialStep, phoneStep, resendCountdown } from '@/lib/phone/phone-steps';
import type { AuthResponse } from '@/lib/session/user';
import { useNow } from '@/lib/use-now';
import styles from './phone-verification.module.css';

interface PhoneVerificationProps {
  /** The step-2 button: "Verify and sign in", "Verify and link"… */
  verifyLabel: string;
  /** Takes the verified sign-in; may answer why it did not complete (shown in the form). */
  onVerified: (response: AuthResponse) => void | Promise<string | null>;
  /** Leaves the flow from step 1 (e.g. back to the other sign-in options). */
  onCancel: () => void;
  cancelLabel: string;
  /** The server's PHONE_DEFAULT_REGION: numbers typed without a country code are its. */
  region: string;
  /** The proof-of-work solver; tests pass a fake one. */
  solve?: Solver;
}

/** Phone number, then the texted 6-digit code. The captcha is solved invisibly before sending. */
export function PhoneVerification({ verifyLabel, onVerified, onCancel, cancelLabel, region, solve = solveCaptcha }: PhoneVerificationProps) {
  const [state, dispatch] = useReducer(phoneStep, initialStep);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const now = useNow(1000).getTime();
  const shown = useFormattedPhone(state.step === 'code' ? state.phone : null, region);

  async function send(number: string, kind: 'send' | 'resend') {
    dispatch({ type: kind });
    setError(null);
    try {
      const verificationId = await requestCode(number, solve);
      dispatch({ type: 'sent', phone: number, verificationId, now: Date.now() });
      setCode('');
    } catch (caught) {
      setError(phoneErrorMessage(caught, 'send'));
      if (isApiError(caught) && caught.fields?.phone?.[0]) setFieldError(caught.fields.phone[0]);
      if (isApiError(caught) && caught.retryAfter !== undefined) {
        dispatch({ type: 'wait', seconds: caught.retryAfter, now: Date.now() });
      } else {
        dispatch({ type: 'failed' });
      }
    }
  }

  async function onSendSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await parsePhone(phone, region);
    if (!result.ok) {
      setFieldError(result.error);
      setError(null);
      return;
    }
    void send(result.value, 'send');
  }

  async function onVerifySubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.step !== 'code') return;
    const result = validateCode(code);
    if (!result.ok) {
      setFieldError(result.error);
      setError(null);
      return;
    }
    dispatch({ type: 'verify' });
    setError(null);
    try {
      const problem = await onVerified(await verifyCode(state.verificationId, result.value));
      if (problem) {
        setError(problem);
        dispatch({ type: 'failed' });
      }
    } catch (caught) {
      setError(phoneErrorMessage(caught, 'verify'));
      dispatch({ type: 'failed' });
    }
  }

  if (state.step === 'phone') {
    return (
      <form className={styles.form} onSubmit={(event) => void onSendSubmit(event)} noValidate aria-label="Send a code by SMS">
        <FormAlert message={error} />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+44 7700 900123"
          required
          value={phone}
          error={fieldError}
          onChange={(event) => {
            setPhone(event.target.value);
            setFieldError(undefined);
          }}
        />
        <p className={styles.hint}>A number from another country starts with + and its country code. We'll text you a 6-digit code.</p>
        <Button type="submit" block disabled={state.busy} aria-busy={state.busy}>
          {state.busy ? <Spinner size="sm" decorative /> : null}
          Send code
        </Button>
        <Button variant="ghost" block disabled={state.busy} onClick={onCancel}>
          {cancelLabel}
        </Button>
      </form>
    );
  }

  const wait = resendCountdown(state, now);
  return (
    <form className={styles.form} onSubmit={(event) => void onVerifySubmit(event)} noValidate aria-label="Enter the code">
      <FormAlert message={error} />
      <p className={styles.hint}>We texted a code to {shown}. It works for 5 minutes.</p>
      <TextField
        label="Verification code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        required
        value={code}
        error={fieldError}
        onChange={(event) => {
          setCode(event.target.value);
          setFieldError(undefined);
        }}
      />
      <Button type="submit" block disabled={state.busy !== false} aria-busy={state.busy === 'verify'}>
        {state.busy === 'verify' ? <Spinner size="sm" decorative /> : null}
        {verifyLabel}
      </Button>
      <div className={styles.actions}>
        <Button
          variant="ghost"
          disabled={state.busy !== false}
          onClick={() => {
            dispatch({ type: 'back' });
            setError(null);
            setFieldError(undefined);
          }}
        >
          Change number
        </Button>
        <Button variant="ghost" disabled={state.busy !== false || wait > 0} aria-busy={state.busy === 'resend'} onClick={() => void send(state.phone, 'resend')}>
          {wait > 0 ? `Resend code in ${wait}s` : 'Resend code'}
        </Button>
      </div>
    </form>
  );
}

/** The number as people read it (`07700 900123`), the E.164 form until the library has loaded. */
function useFormattedPhone(e164: string | null, region: string): string {
  const [formatted, setFormatted] = useState<{ e164: string; text: string } | null>(null);
  useEffect(() => {
    if (e164 === null) return;
    let live = true;
    void formatPhone(e164, region).then((text) => {
      if (live) setFormatted({ e164, text });
    });
    return () => {
      live = false;
    };
  }, [e164, region]);
  return formatted !== null && formatted.e164 === e164 ? formatted.text : (e164 ?? '');
}
