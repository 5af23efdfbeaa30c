import { useRef, useState, type FormEvent } from 'react';
import type { RefusedFields } from '@/sync/types';
import type { z } from 'zod';
import { parseForm, type FieldErrors } from './form';

export interface FormOptions<I, O, R> {
  /**
   * From what was typed to what is stored; its messages are the field errors. A function when
   * what is required depends on what was typed (a day's card asks for stops or for parcels).
   */
  schema: z.ZodType<O, I> | ((values: I) => z.ZodType<O, I>);
  initial: I | (() => I);
  /** Stores the value: a feature's command (write, outbox item, nudge). */
  command: (value: O) => Promise<R>;
  /** After the command succeeded; `reset` puts new values in the fields. */
  onSuccess?: (result: R, form: { reset: (values: I) => void }) => void;
  /** The words shown when the command fails. */
  failure: (error: unknown) => string;
  /** While false, submitting does nothing (e.g. the tiers that price an entry are still loading). */
  ready?: boolean;
  /**
   * What the server refused in the edited record's last change, by wire field name
   * (`useRefusedFields`): shown beside the form's fields of the same name, the rest above the
   * buttons, until the driver changes the field.
   */
  refused?: RefusedFields | undefined;
}

export interface Form<I> {
  values: I;
  errors: FieldErrors<I>;
  /** Why the last submit failed, or null. */
  failure: string | null;
  submitting: boolean;
  /** Sets one field and clears its error: the driver is fixing it. */
  setField: <F extends keyof I>(field: F, value: I[F]) => void;
  reset: (values: I) => void;
  submit: (event?: FormEvent) => Promise<void>;
  /** Shows why a write the form started outside `submit` failed (a follow-up choice's save). */
  fail: (message: string) => void;
}

/** A form's state: what was typed, what to fix, whether it is saving, and why saving failed. */
export function useForm<I, O, R>({ schema, initial, command, onSuccess, failure, ready = true, refused }: FormOptions<I, O, R>): Form<I> {
  const [values, setValues] = useState<I>(initial);
  const [errors, setErrors] = useState<FieldErrors<I>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // A ref, not state: a double tap must not store the same thing twice before React re-renders.
  const inFlight = useRef(false);

  useRefusal(refused, values, (fieldErrors, rest) => {
    setErrors((current) => ({ ...fieldErrors, ...definedOnly(current) }));
    if (rest.length > 0) setFailed(rest.join(' '));
  });

  function setField<F extends keyof I>(field: F, value: I[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function reset(next: I) {
    setValues(next);
    setErrors({});
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (inFlight.current || !ready) return;
    setFailed(null);
    const result = parseForm(typeof schema === 'function' ? schema(values) : schema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    try {
      const stored = await command(result.value);
      onSuccess?.(stored, { reset });
    } catch (error) {
      setFailed(failure(error));
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  }

  return { values, errors, failure: failed, submitting, setField, reset, submit, fail: setFailed };
}

/**
 * Shows a refused change's problems once, as the refusal arrives (state adjusted while
 * rendering, as React advises for props that change): `show` gets those beside a field of
 * `values` and the rest, and the driver's typing then clears what they fixed. For a form that
 * keeps its own state (the rate card editor); useForm does this with `refused`. A refusal made
 * while rendering must be memoised, or every render would be a new one.
 */
export function useRefusal<I>(refused: RefusedFields | undefined, values: I, show: (fieldErrors: FieldErrors<I>, rest: string[]) => void): void {
  const [shownRefusal, setShownRefusal] = useState<RefusedFields | undefined>(undefined);
  if (refused !== shownRefusal) {
    setShownRefusal(refused);
    if (refused) {
      const { fieldErrors, rest } = refusedErrors(refused, values);
      show(fieldErrors, rest);
    }
  }
}

/** A refusal's problems split into those beside a field of the form and the rest. */
export function refusedErrors<I>(refused: RefusedFields, values: I): { fieldErrors: FieldErrors<I>; rest: string[] } {
  const fieldErrors: FieldErrors<I> = {};
  const rest: string[] = [];
  for (const [field, messages] of Object.entries(refused)) {
    if (typeof values === 'object' && values !== null && field in values) fieldErrors[field as keyof I] = messages.join(' ');
    else rest.push(...messages);
  }
  return { fieldErrors, rest };
}

/** The errors still standing: a field the driver cleared is not one. */
export function definedOnly<I>(errors: FieldErrors<I>): FieldErrors<I> {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as FieldErrors<I>;
}
