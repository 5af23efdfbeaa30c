import { describe, expect, it } from 'vitest';
import { entryMessages, validateEntryForm, type EntryFormInput } from './entry-form-schema';

const form = (over: Partial<EntryFormInput> = {}): EntryFormInput => ({ date: '2025-03-21', stops: '120', extra: '', notes: '', ...over });

describe('validateEntryForm', () => {
  it('turns the typed values into what is stored', () => {
    expect(validateEntryForm(form({ extra: '5.5', notes: '  Rain all day  ' }))).toEqual({
      ok: true,
      value: { date: '2025-03-21', stops: 120, extra: 550, notes: 'Rain all day' },
    });
  });

  it('defaults extra to 0', () => {
    expect(validateEntryForm(form({ extra: '  ' }))).toMatchObject({ ok: true, value: { extra: 0 } });
  });

  it('converts extra to pence exactly', () => {
    expect(validateEntryForm(form({ extra: '0.30' }))).toMatchObject({ value: { extra: 30 } });
    expect(validateEntryForm(form({ extra: '1.15' }))).toMatchObject({ value: { extra: 115 } });
    expect(validateEntryForm(form({ extra: '10000' }))).toMatchObject({ value: { extra: 1_000_000 } });
  });

  it('requires stops with the spec message', () => {
    expect(validateEntryForm(form({ stops: '' }))).toEqual({ ok: false, errors: { stops: entryMessages.stopsRequired } });
    expect(validateEntryForm(form({ stops: '   ' }))).toEqual({ ok: false, errors: { stops: 'Please enter number of stops' } });
  });

  it.each(['12.5', '-3', '1001', '1e2'])('refuses stops "%s"', (stops) => {
    expect(validateEntryForm(form({ stops }))).toEqual({ ok: false, errors: { stops: entryMessages.stopsWhole } });
  });

  it('accepts 0 and 1000 stops', () => {
    expect(validateEntryForm(form({ stops: '0' }))).toMatchObject({ ok: true, value: { stops: 0 } });
    expect(validateEntryForm(form({ stops: '1000' }))).toMatchObject({ ok: true, value: { stops: 1000 } });
  });

  it('refuses extra with more than 2 decimals (no silent rounding), negatives and junk', () => {
    for (const extra of ['12.345', '0.001', '-1', 'abc']) {
      expect(validateEntryForm(form({ extra }))).toEqual({ ok: false, errors: { extra: entryMessages.extraFormat } });
    }
    expect(validateEntryForm(form({ extra: '10000.01' }))).toEqual({ ok: false, errors: { extra: entryMessages.extraRange } });
  });

  it('requires a date', () => {
    expect(validateEntryForm(form({ date: '' }))).toEqual({ ok: false, errors: { date: entryMessages.date } });
  });

  it('reports each field once', () => {
    expect(validateEntryForm(form({ date: '', stops: '', extra: 'x' }))).toEqual({
      ok: false,
      errors: { date: entryMessages.date, stops: entryMessages.stopsRequired, extra: entryMessages.extraFormat },
    });
  });
});
