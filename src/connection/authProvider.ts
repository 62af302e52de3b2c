// Shows the connection as an account in VS Code's Accounts menu; signing out there signs out here.
import * as vscode from 'vscode';
import type { Connection } from './connection';
import { readSettings } from '../settings';

export const AUTH_PROVIDER_ID = 'llmSpaces';

export class SpacesAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private last: vscode.AuthenticationSession | undefined;

  constructor(
    private readonly connection: Connection,
    secrets: vscode.SecretStorage,
    private readonly subscriptions: vscode.Disposable[] = [],
  ) {
    this.subscriptions.push(
      this.changed,
      secrets.onDidChange(() => void this.announce()),
    );
  }

  private async session(): Promise<vscode.AuthenticationSession | undefined> {
    const token = await this.connection.remoteToken();
    if (!token) return undefined;
    const url = readSettings().serviceUrl;
    const label = url ? url.replace(/^https?:\/\//, '') : vscode.l10n.t('Built-in service');
    return {
      id: `llmSpaces:${url || 'local'}`,
      accessToken: token,
      account: { id: url || 'local', label },
      scopes: [],
    };
  }

  private async announce(): Promise<void> {
    const now = await this.session();
    if (now?.id === this.last?.id && now?.accessToken === this.last?.accessToken) return;
    this.changed.fire({
      added: now && !this.last ? [now] : [],
      removed: this.last && !now ? [this.last] : [],
      changed: now && this.last ? [now] : [],
    });
    this.last = now;
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const session = await this.session();
    this.last = session;
    return session ? [session] : [];
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    await vscode.commands.executeCommand('llmSpaces.signIn');
    const session = await this.session();
    if (!session) throw new Error(vscode.l10n.t('Sign-in was cancelled.'));
    return session;
  }

  async removeSession(): Promise<void> {
    await this.connection.signOut();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}
