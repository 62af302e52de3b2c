// The API door: what the activation side uses of the /v1 client and its schemas. It loads on first
// use, in dist/lazy.js (src/lazy/api.ts reaches it), so activating the extension loads neither zod nor
// undici. The errors are not here: they live in the activation bundle (src/owned.ts).
import '../shared/zodWords';
export { LlmSpacesClient } from './client';
export * as presets from './presets';
