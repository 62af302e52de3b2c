// The one door to dist/deferred.js (see deferred.ts): required the first time something needs it.
import type * as Deferred from './deferred';

let loaded: typeof Deferred | undefined;

export function deferred(): typeof Deferred {
  // The production build leaves this require to run at first use; the test builds bundle deferred.ts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./deferred.js') as typeof Deferred;
  return loaded;
}
