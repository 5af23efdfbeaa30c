// A tiny PDF writer for tests (issue 28): real PDF statements without downloading one. It
// writes a valid PDF 1.4 file (catalog, pages, one text content stream a page, the standard
// Helvetica font, a cross-reference table with exact offsets), text placed where asked, so the
// PDF reader meets positioned pieces of text as in a courier's statement. ASCII text only.
// No imports: the e2e specs (Node, outside Vite) use it too.

/** A piece of text on a page: x from the left, y from the bottom, in points (A4 is 595 × 842). */
export interface PlacedText {
  x: number;
  y: number;
  text: string;
  size?: number;
}

function escaped(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`Only printable ASCII in a test PDF: ${JSON.stringify(text)}`);
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF whose pages hold `pages`' text, as bytes. */
export function pdfOf(pages: readonly (readonly PlacedText[])[]): Uint8Array {
  const objects: string[] = [];
  // Object numbers start at 1: an object is its place in the list.
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const pagesObject = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    const text = page.map(({ x, y, text: t, size = 10 }) => `BT /F1 ${size} Tf ${x} ${y} Td (${escaped(t)}) Tj ET`).join('\n');
    const content = add(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`;
  objects[pagesObject - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let file = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(file.length);
    file += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = file.length;
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(file);
}

/**
 * A statement as a courier prints it: title lines, then a table whose columns start at
 * `columns` (x, points), one row every 14 points, onto as many A4 pages as it takes (the
 * header repeated on each page), and a total line under the last row.
 */
export function statementPdf({ title, header, rows, columns, total }: { title: readonly string[]; header: readonly string[]; rows: readonly (readonly string[])[]; columns: readonly number[]; total?: string }): Uint8Array {
  const pages: PlacedText[][] = [];
  let page: PlacedText[] = [];
  let y = 800;
  const line = (cells: readonly string[]) => cells.forEach((text, i) => text !== '' && page.push({ x: columns[i]!, y, text }));
  title.forEach((text) => {
    page.push({ x: 40, y, text, size: 12 });
    y -= 18;
  });
  y -= 10;
  line(header);
  y -= 14;
  for (const row of rows) {
    if (y < 60) {
      pages.push(page);
      [page, y] = [[], 800];
      line(header);
      y -= 14;
    }
    line(row);
    y -= 14;
  }
  if (total !== undefined) page.push({ x: columns[0]!, y: y - 6, text: total });
  pages.push(page);
  return pdfOf(pages);
}
