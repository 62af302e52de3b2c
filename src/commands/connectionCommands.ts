// Connecting, signing in and out, the log, usage and integrations.
import * as vscode from 'vscode';
import { readSettings, SECTION } from '../settings';
import type { Services } from '../services';
import { editIntegrations } from '../integrationsEditor';

const t = vscode.l10n.t;

export async function connect(s: Services): Promise<void> {
  const current = readSettings().serviceUrl;
  const pick = await vscode.window.showQuickPick(
    [
      { label: `$(server-process) ${t('Built-in local service')}`, description: current ? '' : t('current'), detail: t('Runs on this machine, no account needed.'), remote: false },
      { label: `$(cloud) ${t('Remote service…')}`, description: current || '', detail: t('A hosted LLM Spaces service, signed in with a token.'), remote: true },
    ],
    { title: t('Connect to Service'), placeHolder: t('Where should LLM Spaces connect?') },
  );
  if (!pick) return;
  const config = vscode.workspace.getConfiguration(SECTION);
  if (!pick.remote) {
    await config.update('serviceUrl', '', vscode.ConfigurationTarget.Global);
    return;
  }
  const url = await vscode.window.showInputBox({
    title: t('Remote service URL'),
    value: current || 'https://',
    prompt: t('The base URL; /v1/… paths are added to it.'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        const parsed = new URL(v.trim());
        return /^https?:$/.test(parsed.protocol) ? undefined : t('Use an http or https URL.');
      } catch {
        return t('Not a URL.');
      }
    },
  });
  if (!url) return;
  const target = url.trim().replace(/\/+$/, '');
  let check: { signInNeeded: boolean };
  try {
    check = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Checking {0}…', target) }, () => s.connection.checkService(target));
  } catch (error) {
    // The current connection stays as it was.
    void vscode.window.showErrorMessage((error as Error).message);
    return;
  }
  await config.update('serviceUrl', target, vscode.ConfigurationTarget.Global);
  if (check.signInNeeded) await vscode.commands.executeCommand('llmSpaces.signIn');
}

/** Signs in to the remote service; `token` may be passed by automation instead of typed. */
export async function signIn(s: Services, token?: unknown): Promise<void> {
  const url = readSettings().serviceUrl;
  if (!url) {
    void vscode.window.showInformationMessage(t('The built-in service needs no sign-in. Use "Connect to Service…" to use a remote one.'));
    return;
  }
  const value =
    typeof token === 'string'
      ? token
      : await vscode.window.showInputBox({ title: t('Sign in to {0}', url), prompt: t('Your access token. It is kept in VS Code\'s secret storage.'), password: true, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : t('Required')) });
  if (!value) return;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Checking the token with {0}…', url) }, () => s.connection.signIn(url, value.trim()));
  void vscode.window.showInformationMessage(t('Signed in to {0}.', url));
}

export async function signOut(s: Services): Promise<void> {
  await s.connection.signOut();
  void vscode.window.showInformationMessage(t('Signed out.'));
}

export const showLog = (s: Services) => s.logger.show();
export const showUsage = (s: Services) => s.usage.showUsage();
export const restartService = async (s: Services) => {
  if (s.connection.mode !== 'local') return void vscode.window.showInformationMessage(t('A remote service is in use.'));
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Restarting the built-in service…') }, async () => {
    await s.connection.restartLocal();
    await s.connection.client();
  });
};
export const integrations = async (s: Services, preset?: unknown) => {
  await editIntegrations(s.connection, preset);
  await s.usage.refresh();
};
