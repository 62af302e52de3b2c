// Where a Space's settings document lives: `llm-space:/<name>?<id>`. The name makes the tab, the
// breadcrumbs and VS Code's own questions ("Save changes to …?") read as the Space; the id says which.
import * as vscode from 'vscode';

export const SPACE_SCHEME = 'llm-space';

export const spaceUri = (spaceId: string, name: string): vscode.Uri =>
  vscode.Uri.from({ scheme: SPACE_SCHEME, path: `/${name.replace(/[/\\]/g, '-') || spaceId}`, query: spaceId });

export const spaceIdOf = (uri: vscode.Uri): string | undefined =>
  uri.scheme === SPACE_SCHEME && uri.query ? uri.query : undefined;
