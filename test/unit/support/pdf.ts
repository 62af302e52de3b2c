// Real PDFs for requests that carry them: their cross-reference table gives each object's true offset,
// so a reader takes them as valid files.
import { createDeflate } from 'node:zlib';

/**
 * A PDF's bytes: a page for each of `pages` (US Letter, Helvetica), that text written on it, a line for
 * each of its lines (a reader leaves out what runs off the page).
 */
export function pdf(pages: readonly string[]): Buffer {
  const font = 3 + pages.length * 2;
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    ...pages.flatMap((text, i) => {
      const lines = text.split('\n').map((line) => `(${line.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj`);
      const stream = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.join(' T* ')} ET`;
      return [
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${4 + i * 2} 0 R >>`,
        `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
      ];
    }),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** The same PDF as base64, as Anthropic's `document` source and a data URL carry it. */
export const pdfBase64 = (pages: readonly string[]) => pdf(pages).toString('base64');

/**
 * A one-page PDF of about a megabyte whose page's drawing, compressed, unpacks to `megabytes` (a
 * "decompression bomb": a reader that unpacks it whole needs that much memory).
 */
export async function inflatingPdf(megabytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const megabyte = Buffer.from('0 0 m\n'.repeat(174_763)); // 1 MiB of a drawing's moves
  for (let i = 0; i < megabytes; i++)
    if (!deflate.write(megabyte)) await new Promise((go) => deflate.once('drain', go));
  deflate.end();
  await done;
  const stream = Buffer.concat(parts);
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/**
 * A PDF of a few hundred kilobytes that takes PDF.js minutes to read: a page tree of `pages` pages, each
 * the same page object (20,000 of them took 35 s on the 2-core machine this was written on, and the
 * time grows faster than the count).
 */
export function slowPdf(pages: number): Buffer {
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${'3 0 R '.repeat(pages)}] /Count ${pages} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ]);
}

/** The file of these objects, numbered from 1 (the first is the catalog), with its cross-reference table. */
function assemble(objects: ReadonlyArray<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const add = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const offsets = objects.map((object, i) => {
    const at = length;
    add(`${i + 1} 0 obj\n`);
    add(object);
    add('\nendobj\n');
    return at;
  });
  const xref = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  add(offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join(''));
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
