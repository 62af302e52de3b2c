// The webview panel and custom editor types, as package.json names them.
export const PLAYGROUND_VIEW_TYPE = 'llmSpaces.playground';
/** Settings panels of versions before the custom editor; one restored after an update reopens as the editor. */
export const SPACE_SETTINGS_VIEW_TYPE = 'llmSpaces.spaceSettings';
/** The Space settings custom editor (package.json's customEditors). */
export const SPACE_SETTINGS_EDITOR = 'llmSpaces.spaceSettingsEditor';
export const ORGANIZATION_VIEW_TYPE = 'llmSpaces.organization';
export const COMPARE_VIEW_TYPE = 'llmSpaces.compare';
