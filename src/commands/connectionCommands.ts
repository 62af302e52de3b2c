// Connecting, signing in and out, the log, usage and integrations.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { readSettings, setServiceUrl } from '../settings';
import type { Services } from '../services';
import { editIntegrations } from '../integrationsEditor';

const t = vscode.l10n.t;

/** Chooses the service; `url` may be passed by automation instead of picked ('' is the built-in one). */
export async function connect(s: Services, url?: unknown): Promise<void> {
  const target = typeof url === 'string' ? url.trim() : await askWhere();
  if (target === undefined) return;
  if (target === '') return setServiceUrl('');
  const clean = target.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(clean) || !URL.canParse(clean))
    throw new Error(t('"{0}" is not an http or https URL.', clean));
  // Checked before switching: when the check fails the current connection stays, and the error says why.
  const check = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Checking {0}…', clean) },
    () => s.connection.checkService(clean),
  );
  await setServiceUrl(clean);
  if (check.signInNeeded && typeof url !== 'string') await vscode.commands.executeCommand('llmSpaces.signIn');
}

/** The built-in service (''), a remote URL, or undefined when the user cancelled. */
async function askWhere(): Promise<string | undefined> {
  const current = readSettings().serviceUrl;
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: `$(server-process) ${t('Built-in local service')}`,
        description: current ? '' : t('current'),
        detail: t('Runs on this machine, no account needed.'),
        remote: false,
      },
      {
        label: `$(cloud) ${t('Remote service…')}`,
        description: current || '',
        detail: t('A hosted LLM Spaces service, signed in with a token.'),
        remote: true,
      },
    ],
    { title: t('Connect to Service'), placeHolder: t('Where should LLM Spaces connect?') },
  );
  if (!pick) return undefined;
  if (!pick.remote) return '';
  return vscode.window.showInputBox({
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
}

/** Signs in to the remote service; `token` may be passed by automation instead of typed. */
export async function signIn(s: Services, token?: unknown): Promise<void> {
  const url = readSettings().serviceUrl;
  if (!url) {
    void vscode.window.showInformationMessage(
      t('The built-in service needs no sign-in. Use "Connect to Service…" to use a remote one.'),
    );
    return;
  }
  if (typeof token === 'string') {
    await checkToken(s, url, token.trim());
    void vscode.window.showInformationMessage(t('Signed in to {0}.', url));
    return;
  }
  // A token the service refuses brings the input back with the reason under it, until one is taken or
  // the user gives up: a wrong token never closes the input without a word.
  let refused: string | undefined;
  for (;;) {
    const value = await vscode.window.showInputBox({
      title: t('Sign in to {0}', url),
      prompt: refused
        ? t('{0} did not accept this token. Check it, or make a new one there.', url)
        : t("Your access token. It is kept in VS Code's secret storage."),
      value: refused,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) =>
        !v.trim()
          ? t('Required')
          : v === refused
            ? {
                message: t('{0} did not accept this token. Check it, or make a new one there.', url),
                severity: vscode.InputBoxValidationSeverity.Error,
              }
            : undefined,
    });
    if (!value) return;
    try {
      await checkToken(s, url, value.trim());
    } catch (error) {
      if (error instanceof ApiError && (error.kind === 'unauthorized' || error.kind === 'forbidden')) {
        refused = value;
        continue;
      }
      throw error;
    }
    void vscode.window.showInformationMessage(t('Signed in to {0}.', url));
    return;
  }
}

function checkToken(s: Services, url: string, token: string): Thenable<void> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Checking the token with {0}…', url) },
    () => s.connection.signIn(url, token),
  );
}

/** Forgets the remote service's token. Never says "signed out" when nobody was signed in. */
export async function signOut(s: Services): Promise<void> {
  const url = readSettings().serviceUrl;
  if (!url) {
    void vscode.window.showInformationMessage(
      t('The built-in service needs no sign-in, so there is nothing to sign out of.'),
    );
    return;
  }
  const wasSignedIn = !!(await s.connection.remoteToken());
  await s.connection.signOut();
  void vscode.window.showInformationMessage(
    wasSignedIn ? t('Signed out of {0}.', url) : t('You were not signed in to {0}.', url),
  );
}

export const showLog = (s: Services) => s.logger.show();
export const showUsage = (s: Services) => s.usage.showUsage();
export const restartService = async (s: Services) => {
  if (s.connection.mode !== 'local') return void vscode.window.showInformationMessage(t('A remote service is in use.'));
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Restarting the built-in service…') },
    async () => {
      await s.connection.restartLocal();
      await s.connection.client();
    },
  );
};
export const integrations = async (s: Services, preset?: unknown) => {
  await editIntegrations(s.organization, preset);
};
