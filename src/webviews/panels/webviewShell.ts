// The HTML shell every webview gets: a strict Content Security Policy (nothing by default, scripts
// only with this page's nonce, styles and fonts only from the extension), resources that may come
// only from dist/ and media/, and VS Code's translations of the webviews' words (see webviews/page/l10n.ts).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    // The chat streams and the forms keep their edits while the tab is in the background.
    retainContextWhenHidden: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export interface ShellOptions {
  /** The bundle's name under dist/webview, without `.js`. */
  script: string;
  /** Style sheets under media/, without `.css`; `webview` is always first. */
  styles: string[];
  title: string;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, options: ShellOptions): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const styles = ['webview', ...options.styles]
    .map((name) => `<link rel="stylesheet" href="${uri('media', `${name}.css`)}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(options.title)}</title>
  </head>
  <body data-l10n="${escapeHtml(JSON.stringify(vscode.l10n.bundle ?? {}))}">
    <main id="app" aria-busy="true"></main>
    <script type="module" nonce="${nonce}" src="${uri('dist', 'webview', `${options.script}.js`)}"></script>
  </body>
</html>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
