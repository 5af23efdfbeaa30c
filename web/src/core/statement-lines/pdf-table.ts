// A PDF statement's text as a table the column-mapping step reads like a CSV file (issue 28).
// A PDF holds positioned pieces of text, not rows: the pieces are grouped into rows by their
// height on the page, read left to right, and pieces close together on a row are one cell.
// The table's header is the first row with the most cells (titles above a statement's table
// have fewer); every later row's cells are put under the heading they sit below, so a row
// with an empty cell (a collection has no size) keeps its columns. Nothing is guessed about
// what the columns mean: that is the mapping the driver confirms once per courier.
import type { StatementTable } from './read-lines';

/** A piece of text where the page put it: x from the left, y from the bottom, in PDF points. */
export interface PdfTextItem {
  text: string;
  page: number;
  x: number;
  y: number;
  width: number;
}

/** A row of text: its cells left to right, each with where it starts and ends. */
export interface PdfRow {
  page: number;
  y: number;
  cells: { text: string; x: number; end: number }[];
}

/** Pieces this close in height (points) are on one row: a baseline wobbles a little. */
const SAME_ROW = 3;
/** A gap wider than this (points) between two pieces starts a new cell; a word space is ~3. */
const CELL_GAP = 8;

/** The text pieces grouped into rows, top of the first page first, each row's cells left to right. */
export function pdfRows(items: readonly PdfTextItem[]): PdfRow[] {
  const pieces = items.filter((item) => item.text.trim() !== '');
  const rows: { page: number; y: number; pieces: PdfTextItem[] }[] = [];
  for (const piece of [...pieces].sort((a, b) => a.page - b.page || b.y - a.y || a.x - b.x)) {
    const row = rows.find((r) => r.page === piece.page && Math.abs(r.y - piece.y) <= SAME_ROW);
    if (row) row.pieces.push(piece);
    else rows.push({ page: piece.page, y: piece.y, pieces: [piece] });
  }
  return rows.map(({ page, y, pieces: row }) => {
    const cells: PdfRow['cells'] = [];
    for (const piece of [...row].sort((a, b) => a.x - b.x)) {
      const last = cells.at(-1);
      const end = piece.x + Math.max(0, piece.width);
      if (last && piece.x - last.end < CELL_GAP) {
        last.text += piece.x - last.end > 1 ? ` ${piece.text}` : piece.text;
        last.end = Math.max(last.end, end);
      } else {
        cells.push({ text: piece.text, x: piece.x, end });
      }
    }
    return { page, y, cells: cells.map((cell) => ({ ...cell, text: cell.text.replace(/\s+/g, ' ').trim() })) };
  });
}

/** How far apart two spans are (0 when they overlap), and how much they overlap. */
function fit(cell: { x: number; end: number }, column: { x: number; end: number }): { gap: number; overlap: number } {
  const overlap = Math.min(cell.end, column.end) - Math.max(cell.x, column.x);
  return { gap: Math.max(0, -overlap), overlap: Math.max(0, overlap) };
}

/**
 * The rows as a statement table. Row numbers count the PDF's rows from 1 (the header's is its
 * own), so a problem names the row a driver can find. Throws when the text has no row of two
 * or more cells (a scanned statement has no text at all).
 */
export function pdfTable(rows: readonly PdfRow[]): StatementTable {
  const widest = Math.max(0, ...rows.map((row) => row.cells.length));
  if (widest < 2) throw new Error('The PDF has no table of text');
  const headerAt = rows.findIndex((row) => row.cells.length === widest);
  const columns = rows[headerAt]!.cells;
  const table: StatementTable = { header: columns.map((cell) => cell.text), rows: [] };
  rows.forEach((row, index) => {
    if (index <= headerAt) return;
    // A repeated header on a later page is not a line.
    if (row.cells.length === widest && row.cells.every((cell, i) => cell.text === columns[i]!.text)) return;
    const cells = columns.map(() => '');
    for (const cell of row.cells) {
      let best = 0;
      for (let i = 1; i < columns.length; i += 1) {
        const [a, b] = [fit(cell, columns[i]!), fit(cell, columns[best]!)];
        if (a.overlap > b.overlap || (a.overlap === b.overlap && a.gap < b.gap)) best = i;
      }
      cells[best] = cells[best] ? `${cells[best]} ${cell.text}` : cell.text;
    }
    table.rows.push({ row: index + 1, cells });
  });
  return table;
}

/** The parts of pdfjs-dist this reads: a document's pages and each page's text. */
export interface PdfJs {
  getDocument(source: { data: Uint8Array; isEvalSupported: boolean; disableFontFace: boolean; useSystemFonts: boolean; stopAtErrors: boolean }): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<{ getTextContent(): Promise<{ items: readonly unknown[] }> }>;
      destroy(): Promise<void>;
    }>;
  };
}

function isTextItem(item: unknown): item is { str: string; transform: number[]; width: number } {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item && Array.isArray((item as { transform: unknown }).transform);
}

/** Every piece of text of the PDF `data`, page by page, read with pdfjs-dist (passed in: the app loads it on demand). */
export async function pdfTextItems(pdfjs: PdfJs, data: Uint8Array): Promise<PdfTextItem[]> {
  // No eval (the app's CSP forbids it) and no fonts added to the page: only the text is read.
  const document = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: true }).promise;
  try {
    const items: PdfTextItem[] = [];
    for (let page = 1; page <= document.numPages; page += 1) {
      const content = await (await document.getPage(page)).getTextContent();
      for (const item of content.items) {
        if (!isTextItem(item)) continue;
        items.push({ text: item.str, page, x: item.transform[4] ?? 0, y: item.transform[5] ?? 0, width: item.width });
      }
    }
    return items;
  } finally {
    await document.destroy();
  }
}

/** A PDF file starts with these bytes, whatever its name says. */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}
