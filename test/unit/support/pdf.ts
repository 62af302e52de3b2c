// A real PDF with a page of text for each string given (US Letter, Helvetica), for requests that carry
// PDFs: its cross-reference table gives each object's true offset, so a reader takes it as a valid file.

/**
 * A PDF's bytes: a page for each of `pages`, that text written on it, a line for each of its lines (a
 * reader leaves out what runs off the page).
 */
export function pdf(pages: readonly string[]): Buffer {
  const font = 3 + pages.length * 2;
  const objects = [
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
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = Buffer.byteLength(out, 'latin1');
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The same PDF as base64, as Anthropic's `document` source and a data URL carry it. */
export const pdfBase64 = (pages: readonly string[]) => pdf(pages).toString('base64');
