// The panels door: the webview panels and the settings editor, loaded on first use in dist/lazy.js
// (src/lazy/panels.ts reaches it) with the API they talk through.
export { ComparePanel } from './comparePanel';
export { OrganizationPanel } from './organizationPanel';
export { PlaygroundPanel } from './playgroundPanel';
export { SpaceSettingsEditors } from './spaceSettingsEditor';
