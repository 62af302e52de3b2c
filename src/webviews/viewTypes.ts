// The webview panel types, as package.json's activation events name them.
export const PLAYGROUND_VIEW_TYPE = 'llmSpaces.playground';
export const SPACE_SETTINGS_VIEW_TYPE = 'llmSpaces.spaceSettings';
export const ORGANIZATION_VIEW_TYPE = 'llmSpaces.organization';
