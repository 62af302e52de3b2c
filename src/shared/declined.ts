// Something the extension chose not to do, whose message is the whole sentence ("Not sent: it would
// pass the soft spending limit."): shown as it is, without "… failed:" before it (src/userErrors.ts).
export class Declined extends Error {
  override name = 'Declined';
}

export const isDeclined = (error: unknown): error is Declined => error instanceof Declined;
