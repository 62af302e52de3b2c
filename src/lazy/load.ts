// Requires dist/lazy.js once, on first use. Untyped here: each door's accessor (api.ts, panels.ts)
// knows only its own door's type, so reaching the API does not depend on the panels.
let loaded: unknown;

export function loadLazy(): unknown {
  // The production build keeps this require for the first use (esbuild.mjs); the test builds bundle it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./bundle.js');
  return loaded;
}
