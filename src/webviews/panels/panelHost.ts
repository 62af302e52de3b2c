// What every webview panel of the extension shares: the webview's options and icon, the list of what
// to dispose with it, and an event when it is gone (disposing twice does nothing).
import * as vscode from 'vscode';
import { panelOptions } from './webviewShell';

export abstract class PanelHost implements vscode.Disposable {
  protected readonly disposables: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  private isDisposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
  ) {
    panel.webview.options = panelOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'spaces.svg');
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.disposed.fire();
    this.disposed.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.panel.dispose();
  }
}
