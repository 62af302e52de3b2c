// What a model reads of a file attached to a playground prompt that is neither an image nor a PDF: a
// line naming it, then its text, as the built-in service sends it (service/chat/messages.ts) and so
// counts it in the cost band before it is sent; and a data URL's type, which the extension reads too
// (webviews/panels/budgetGuard.ts).

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The media type a data URL names ("text/csv"). */
export const dataUrlType = (dataUrl: string) => dataUrl.slice('data:'.length, dataUrl.indexOf(';'));

/** The base64 of a data URL, after its comma. */
export const dataUrlBase64 = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/**
 * The file's text as the model reads it, after the prompt, from its `bytes` (the data URL's, decoded
 * by the caller); null when they are not text.
 */
export function attachedText(type: string, bytes: Uint8Array, index: number): string | null {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return null;
  }
  return text.includes('\0') ? null : `\n\nAttached file ${index + 1} (${type}):\n${text}`;
}
