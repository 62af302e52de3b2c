// What a model reads of a file attached to a playground prompt that is neither an image nor a PDF: a
// line naming it, then its text. The built-in service sends it so (service/chat/messages.ts), and the
// playground's cost band counts it so before it is sent (webviews/panels/budgetGuard.ts).

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The media type a data URL names ("text/csv"). */
export const dataUrlType = (dataUrl: string) => dataUrl.slice('data:'.length, dataUrl.indexOf(';'));

/** The file's text as the model reads it, after the prompt; null when its bytes are not text. */
export function attachedText(dataUrl: string, index: number): string | null {
  let text: string;
  try {
    text = UTF8.decode(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  } catch {
    return null;
  }
  return text.includes('\0') ? null : `\n\nAttached file ${index + 1} (${dataUrlType(dataUrl)}):\n${text}`;
}
