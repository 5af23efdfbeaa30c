import { describe, expect, it } from 'vitest';
import { contactMessages, validateContact, type ContactInput } from './contact-schema';

const valid: ContactInput = { name: 'Sam Driver', email: 'sam@example.com', subject: '', message: 'Hello' };

describe('validateContact', () => {
  it('names the first failing rule in the spec order: name, email, email pattern, message', () => {
    const empty = { name: '', email: '', subject: '', message: '' };
    expect(validateContact(empty)).toEqual({ ok: false, field: 'name', message: 'Name is required' });
    expect(validateContact({ ...empty, name: 'Sam' })).toEqual({ ok: false, field: 'email', message: 'Email is required' });
    expect(validateContact({ ...empty, name: 'Sam', email: 'sam' })).toEqual({
      ok: false,
      field: 'email',
      message: 'Please enter a valid email address',
    });
    expect(validateContact({ ...empty, name: 'Sam', email: 'sam@example.com' })).toEqual({
      ok: false,
      field: 'message',
      message: 'Message is required',
    });
  });

  it('refuses control characters and direction marks, keeping line breaks in the message', () => {
    expect(validateContact({ ...valid, message: 'Line one\nline two' })).toMatchObject({ ok: true });
    expect(validateContact({ ...valid, name: 'Eve\r\nBcc: x@example.com' })).toEqual({ ok: false, field: 'name', message: contactMessages.characters });
    expect(validateContact({ ...valid, subject: 'Hi\u202e' })).toEqual({ ok: false, field: 'subject', message: contactMessages.characters });
    expect(validateContact({ ...valid, message: 'bell\u0007' })).toEqual({ ok: false, field: 'message', message: contactMessages.characters });
  });

  it('treats whitespace as empty and trims what it sends', () => {
    expect(validateContact({ ...valid, name: '   ' })).toMatchObject({ ok: false, message: contactMessages.nameRequired });
    expect(validateContact({ ...valid, message: ' \n ' })).toMatchObject({ ok: false, message: contactMessages.messageRequired });
    expect(validateContact({ name: ' Sam ', email: ' sam@example.com ', subject: ' Hi ', message: ' Hello ' })).toEqual({
      ok: true,
      value: { name: 'Sam', email: 'sam@example.com', subject: 'Hi', message: 'Hello' },
    });
  });

  it.each(['sam', 'sam@example', '@example.com', 'sam@.', 'sam @example.com', 'sam@exa mple.com'])(
    'rejects %j as an email address',
    (email) => {
      expect(validateContact({ ...valid, email })).toMatchObject({ ok: false, field: 'email', message: contactMessages.emailInvalid });
    },
  );

  it.each(['sam@example.com', 'a@b.c', 'first.last+tag@mail.example.co.uk'])('accepts %j', (email) => {
    expect(validateContact({ ...valid, email }).ok).toBe(true);
  });

  it('does not require a subject', () => {
    expect(validateContact({ ...valid, subject: '' }).ok).toBe(true);
  });
});
