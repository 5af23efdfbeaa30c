import { describe, expect, it } from 'vitest';
import { DayTotalTooHigh, emptyEntryForm, entryMessages, MAX_TOTAL_PENCE, saveFailureMessage, validateEntryForm, withinTotalBound, type EntryFormInput } from './entry-form-schema';

const form = (over: Partial<EntryFormInput> = {}): EntryFormInput => ({ ...emptyEntryForm('2025-03-21', 'courier-1'), stops: '120', ...over });

describe('validateEntryForm', () => {
  it('turns the typed values into what is stored', () => {
    expect(validateEntryForm(form({ extra: '5.5', notes: '  Rain all day  ' }))).toEqual({
      ok: true,
      value: {
        date: '2025-03-21',
        stops: 120,
        extra: 550,
        notes: 'Rain all day',
        courierId: 'courier-1',
        parcels: null,
        collections: null,
        failed: null,
        startTime: null,
        finishTime: null,
        bands: null,
      },
    });
  });

  it('counts parcels by band when the card pays by band: the parcels are their sum, and at least one band is asked for', () => {
    const byBand = { stops: false, parcels: false, bands: true, times: false };
    expect(validateEntryForm(form({ stops: '', parcels: '7', bandPacket: '40', bandSmall: ' 25 ', bandLarge: '3' }), byBand)).toMatchObject({
      ok: true,
      value: { parcels: 68, bands: { packet: 40, small: 25, medium: 0, large: 3, extraLarge: 0 } },
    });
    expect(validateEntryForm(form({ stops: '' }), byBand)).toEqual({ ok: false, errors: { bandPacket: entryMessages.bandsRequired } });
    expect(validateEntryForm(form({ bandSmall: '2.5' }), byBand)).toEqual({ ok: false, errors: { bandSmall: entryMessages.band } });
    expect(validateEntryForm(form({ bandLarge: '2001' }), byBand)).toEqual({ ok: false, errors: { bandLarge: entryMessages.band } });
    expect(validateEntryForm(form({ bandPacket: '1500', bandSmall: '501' }), byBand)).toEqual({ ok: false, errors: { bandPacket: entryMessages.bandsTotal } });
    // A card that does not pay by band: what was typed in the bands is not stored as bands.
    expect(validateEntryForm(form({ parcels: '9', bandPacket: '4' }))).toMatchObject({ ok: true, value: { parcels: 9, bands: null } });
  });

  it('keeps line breaks and tabs in notes but no other control or direction character (the server rule)', () => {
    expect(validateEntryForm(form({ notes: 'Rain\nall\tday' }))).toMatchObject({ ok: true, value: { notes: 'Rain\nall\tday' } });
    for (const notes of ['nul\u0000', 'esc\u001b[2J', 'gnp.\u202eexe', 'c1\u0085']) {
      expect(validateEntryForm(form({ notes })), JSON.stringify(notes)).toEqual({ ok: false, errors: { notes: entryMessages.notesCharacters } });
    }
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

  it('reads parcels, collections and failed items as whole numbers 0–2000, empty as not counted', () => {
    expect(validateEntryForm(form({ parcels: ' 140 ', collections: '0', failed: '2000' }))).toMatchObject({
      ok: true,
      value: { parcels: 140, collections: 0, failed: 2000 },
    });
    expect(validateEntryForm(form())).toMatchObject({ ok: true, value: { parcels: null, collections: null, failed: null } });
    for (const bad of ['2001', '-1', '1.5', 'x']) {
      expect(validateEntryForm(form({ parcels: bad, collections: bad, failed: bad }))).toEqual({
        ok: false,
        errors: { parcels: entryMessages.parcels, collections: entryMessages.collections, failed: entryMessages.failedItems },
      });
    }
  });

  it('takes start and finish times as HH:MM, both or neither', () => {
    expect(validateEntryForm(form({ startTime: '07:30', finishTime: '16:05' }))).toMatchObject({ ok: true, value: { startTime: '07:30', finishTime: '16:05' } });
    // A finish before the start is after midnight, not a mistake.
    expect(validateEntryForm(form({ startTime: '22:00', finishTime: '02:00' }))).toMatchObject({ ok: true });
    expect(validateEntryForm(form({ startTime: '07:30' }))).toEqual({ ok: false, errors: { finishTime: entryMessages.startWithoutFinish } });
    expect(validateEntryForm(form({ finishTime: '16:00' }))).toEqual({ ok: false, errors: { startTime: entryMessages.finishWithoutStart } });
    expect(validateEntryForm(form({ startTime: '24:00', finishTime: '7:5' }))).toEqual({ ok: false, errors: { startTime: entryMessages.time, finishTime: entryMessages.time } });
  });
});

describe('withinTotalBound', () => {
  it('lets a day up to the server bound through and refuses one past it in words', () => {
    expect(withinTotalBound({ total: MAX_TOTAL_PENCE }).total).toBe(MAX_TOTAL_PENCE);
    expect(() => withinTotalBound({ total: MAX_TOTAL_PENCE + 1 })).toThrow(DayTotalTooHigh);
    expect(saveFailureMessage(new DayTotalTooHigh())).toBe(entryMessages.totalRange);
  });
});
