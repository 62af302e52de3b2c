// The PDF reader's thread (chat/pdfReading.ts): each page's size and text, read with PDF.js (unpdf's
// build of it for servers) away from the event loop, which a document of hundreds of pages would hold
// up, and which a document built to make the reader spin or grow cannot take down.
import { parentPort } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';
import type { PdfAnswer, PdfOrder } from './chat/pdfReading';
import type { PdfReading } from './chat/request';

/**
 * How long the pages' text is read; the pages after are only measured, and their text is counted as
 * the pages read have on average (chat/pdfReading.ts), so a long document is counted in seconds.
 */
const TEXT_BUDGET_MS = 5_000;

const port = parentPort!;

port.on('message', (order: PdfOrder) => {
  read(order.bytes).then(
    (reading) => port.postMessage({ id: order.id, reading } satisfies PdfAnswer),
    (error: unknown) => port.postMessage({ id: order.id, error: why(error) } satisfies PdfAnswer),
  );
});

async function read(bytes: Uint8Array): Promise<PdfReading> {
  const started = performance.now();
  // No warning of a damaged file is printed into the service's log.
  const doc = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    const pages: PdfReading['pages'] = [];
    const texts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const { width, height } = page.getViewport({ scale: 1 });
      pages.push({ width, height });
      if (performance.now() - started < TEXT_BUDGET_MS) {
        const content = await page.getTextContent();
        texts.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      }
      page.cleanup();
    }
    return { pages, text: texts.join('\n'), pagesRead: texts.length };
  } finally {
    await doc.loadingTask.destroy();
  }
}

/** Why a document could not be read, in words (PDF.js names its exceptions). */
function why(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return 'it is protected by a password';
  if (name === 'InvalidPDFException') return 'it is not a valid PDF';
  const message = (error as { message?: unknown } | null)?.message;
  return `it could not be read (${typeof message === 'string' && message ? message : String(error)})`;
}
