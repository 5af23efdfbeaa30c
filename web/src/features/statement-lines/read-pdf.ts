// A PDF statement's text read on the device with pdfjs-dist. This module is imported only when
// the driver picks a PDF (statement-import.tsx imports it on demand), so pdfjs-dist and its
// worker never weigh on the app's first load; the service worker precaches both (vite.config.ts),
// so a PDF reads offline too.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pdfRows, pdfTable, pdfTextItems, type PdfJs } from '@/core/statement-lines/pdf-table';
import type { StatementTable } from '@/core/statement-lines/read-lines';

/** The statement table of the PDF `bytes`; throws when it cannot be read or holds no table of text. */
export async function readPdfTable(bytes: Uint8Array): Promise<StatementTable> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfTable(pdfRows(await pdfTextItems(pdfjs as unknown as PdfJs, bytes)));
}

