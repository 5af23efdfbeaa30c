// An RFC 4180 reader. Strict by default, for the export's tests: reading the export back proves
// it round-trips, and a bare CR or LF between records, a quote inside an unquoted field or an
// unterminated quoted field throws, so a sloppy writer fails its tests instead of passing them.
// `anyLineEnd` is for files a driver imports (a courier's statement saved by any spreadsheet):
// LF and CR end a record too. A final line end ends the last record rather than starting an
// empty one. No BOM handling: the caller strips it, which lets the tests see that it is there.
// `delimiter` reads a file a spreadsheet saved with ; or tab between fields.

export function parseCsv(text: string, { anyLineEnd = false, delimiter = ',' }: { anyLineEnd?: boolean; delimiter?: ',' | ';' | '\t' } = {}): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`Malformed CSV at ${i}: ${why}`);
  };

  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== delimiter && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote inside an unquoted field');
        field += text[i];
        i += 1;
      }
    }
    record.push(field);

    if (i >= text.length) break;
    if (text[i] === delimiter) {
      i += 1;
      // A delimiter at the very end still means one more (empty) field.
      if (i >= text.length) record.push('');
      continue;
    }
    const lineEnd = text[i] === '\r' && text[i + 1] === '\n' ? 2 : anyLineEnd && (text[i] === '\n' || text[i] === '\r') ? 1 : 0;
    if (lineEnd > 0) {
      i += lineEnd;
      records.push(record);
      record = [];
      continue;
    }
    fail('expected a comma or CRLF after a field');
  }
  if (record.length > 0) records.push(record);
  return records;
}
