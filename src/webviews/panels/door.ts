// The panels door: the webview panels and the settings editor, loaded on first use in dist/lazy.js
// (src/lazy/panels.ts reaches it) with the API they talk through.
export { ComparePanel } from '../compare/comparePanel';
export { OrganizationPanel } from '../organization/organizationPanel';
export { PlaygroundPanel } from '../playground/playgroundPanel';
export { SpaceSettingsEditors } from '../spaceSettings/spaceSettingsEditor';
