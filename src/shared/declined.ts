// Something the extension chose not to do, whose message is the whole sentence ("Not sent: it would
// pass the soft spending limit."): shown as it is, without "… failed:" before it (src/userErrors.ts).
// Known by its name, not by `instanceof`: this module is bundled into both extension.js and
// deferred.js, so an error made by one copy is not an instance of the other's class.
export class Declined extends Error {
  override name = 'Declined';
}

export const isDeclined = (error: unknown): error is Declined => error instanceof Error && error.name === 'Declined';
