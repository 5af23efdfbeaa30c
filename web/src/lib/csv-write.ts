// The one CSV writer (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted,
// quotes doubled), shared by every export so they all quote the same way. lib/csv-parse.ts
// reads it back in the tests.

// Excel guesses the encoding of a CSV without one and turns "£" into "Â£".
const UTF8_BOM = '\uFEFF';
const CRLF = '\r\n';

// Cells a spreadsheet would run as a formula (or as DDE through a leading tab or CR), after
// OWASP's CSV injection advice: such text gets a leading ' so it shows as typed. Spreadsheets
// skip what leads a cell before they look for the sign: whitespace (spaces, line breaks,
// no-break and other Unicode spaces) and invisible characters (zero-width space and joiners,
// word joiner, byte order mark); and take the full-width signs (＝ ＋ － ＠) as the signs.
const LEADING_DDE = /^[\t\r]/;
const SKIPPED = /^[\s\u200b-\u200d\u2060\ufeff]*/;
const FORMULA_SIGN = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const NEEDS_QUOTES = /[",\r\n]/;

function looksLikeFormula(value: string): boolean {
  return LEADING_DDE.test(value) || FORMULA_SIGN.test(value.replace(SKIPPED, ''));
}

/** Free text typed by the driver, made safe to open in a spreadsheet. Not for numbers: a negative amount must stay a number. */
export function csvText(value: string): string {
  return looksLikeFormula(value) ? `'${value}` : value;
}

/** A cell of our own export read back: `csvText` undone. */
export function csvTextRead(cell: string): string {
  return cell.startsWith("'") && looksLikeFormula(cell.slice(1)) ? cell.slice(1) : cell;
}

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The whole file: BOM, then each row's fields quoted as needed, every line ending in CRLF. */
export function csvFile(rows: readonly (readonly string[])[]): string {
  return UTF8_BOM + rows.map((fields) => fields.map(csvField).join(',') + CRLF).join('');
}
