// A strict RFC 4180 reader, for the tests only: reading the export back proves it round-trips.
// Strict on purpose: a bare CR or LF between records, a quote inside an unquoted field or an
// unterminated quoted field throws, so a sloppy writer fails its tests instead of passing them.
// A final CRLF ends the last record rather than starting an empty one. No BOM handling: the
// caller strips it, which lets the tests see that it is there.

export function parseCsv(text: string): string[][] {
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
      while (i < text.length && !',\r\n'.includes(text[i] as string)) {
        if (text[i] === '"') fail('quote inside an unquoted field');
        field += text[i];
        i += 1;
      }
    }
    record.push(field);

    if (i >= text.length) break;
    if (text[i] === ',') {
      i += 1;
      // A comma at the very end still means one more (empty) field.
      if (i >= text.length) record.push('');
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      i += 2;
      records.push(record);
      record = [];
      continue;
    }
    fail('expected a comma or CRLF after a field');
  }
  if (record.length > 0) records.push(record);
  return records;
}
