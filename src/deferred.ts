// What activation does not load: the /v1 client (undici, the zod schemas) and the webview panels.
// Bundled on its own as dist/deferred.js and required on first use through loadDeferred.ts, so
// activating the extension stays cheap. Modules here import from the activation side only types.
import './shared/zodWords';
export { request } from 'undici';
export { z } from 'zod';
export { LlmSpacesClient } from './api/client';
export * as schemas from './api/schemas';
export { ComparePanel } from './webviews/comparePanel';
export { OrganizationPanel } from './webviews/organizationPanel';
export { PlaygroundPanel } from './webviews/playgroundPanel';
export { SpaceSettingsEditors } from './webviews/spaceSettingsEditor';
