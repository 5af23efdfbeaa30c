import { hasForbiddenCharacters } from '@/lib/text-rules';
import { BOUNDS } from '@/sync/contract.generated';

// The server's bounds (the contract, from crates/domain/src/contact.rs). The checks themselves
// follow spec §5 "Contact", in its order, and the server repeats them in the same order.
export const CONTACT_LIMITS = {
  name: BOUNDS.contact.maxNameChars,
  email: BOUNDS.contact.maxEmailChars,
  subject: BOUNDS.contact.maxSubjectChars,
  message: BOUNDS.contact.maxMessageChars,
} as const;

export const contactMessages = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  messageRequired: 'Message is required',
  tooLong: (max: number) => `Please keep this under ${max} characters`,
  characters: 'Please remove control characters and text-direction marks',
  sendFailed: 'Failed to send message. Please try again later.',
} as const;

// Something, an at sign, something, a dot, something, with no spaces.
const emailPattern = /^\S+@\S+\.\S+$/;

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export type ContactField = keyof ContactInput;

export type ContactValidation =
  | { ok: true; value: ContactInput }
  | { ok: false; field: ContactField; message: string };

/** The first failing rule only: the form names one problem at a time, like the spec. */
export function validateContact(input: ContactInput): ContactValidation {
  const value: ContactInput = {
    name: input.name.trim(),
    email: input.email.trim(),
    subject: input.subject.trim(),
    message: input.message.trim(),
  };
  if (!value.name) return { ok: false, field: 'name', message: contactMessages.nameRequired };
  if (!value.email) return { ok: false, field: 'email', message: contactMessages.emailRequired };
  if (!emailPattern.test(value.email)) return { ok: false, field: 'email', message: contactMessages.emailInvalid };
  if (!value.message) return { ok: false, field: 'message', message: contactMessages.messageRequired };
  const multiLine: Record<ContactField, boolean> = { name: false, email: false, subject: false, message: true };
  for (const field of ['name', 'email', 'subject', 'message'] as const) {
    // The inputs' maxLength stops typing at the bound; a paste or a script may still pass it.
    if ([...value[field]].length > CONTACT_LIMITS[field]) return { ok: false, field, message: contactMessages.tooLong(CONTACT_LIMITS[field]) };
    if (hasForbiddenCharacters(value[field], multiLine[field])) return { ok: false, field, message: contactMessages.characters };
  }
  return { ok: true, value };
}
