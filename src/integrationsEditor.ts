// "Edit Observability Integrations": a guided input for the metrics and logs groups.
import * as vscode from 'vscode';
import type { IntegrationsBody, Organization } from './api/schemas';
import type { OrganizationStore } from './stores/organizationStore';
import { api } from './lazy/api';
import { maskSecret } from './shared/secrets';

type Group = 'metrics' | 'logs';

/** A group as people name it. */
const label = (g: Group) => (g === 'metrics' ? vscode.l10n.t('Metrics') : vscode.l10n.t('Logs'));

/** Asks what to change, or applies `preset` (a PUT /v1/orgs/integrations body, validated) directly. */
export async function editIntegrations(store: OrganizationStore, preset?: unknown): Promise<Organization | undefined> {
  if (preset !== undefined) {
    return store.updateIntegrations(api().presets.integrationsPreset(preset));
  }
  const org = await store.refresh().catch(() => undefined);
  const describe = (g: Group) =>
    org
      ? org[`${g}_id`]
        ? `${org[`${g}_id`]} · ${org[`${g}_endpoint`]} · ${vscode.l10n.t('token')} ${maskSecret(org[`${g}_token`])}`
        : vscode.l10n.t('not set')
      : '';
  const pick = await vscode.window.showQuickPick(
    (['metrics', 'logs'] as Group[]).flatMap((g) => [
      {
        label: `$(edit) ${vscode.l10n.t('Set {0}…', label(g).toLowerCase())}`,
        description: describe(g),
        group: g,
        clear: false,
      },
      { label: `$(trash) ${vscode.l10n.t('Clear {0}', label(g).toLowerCase())}`, group: g, clear: true },
    ]),
    {
      title: vscode.l10n.t('Observability integrations'),
      placeHolder: vscode.l10n.t('Choose a group to set or clear'),
    },
  );
  if (!pick) return undefined;
  let body: IntegrationsBody;
  if (pick.clear) {
    body = { [pick.group]: null };
  } else {
    const ask = (prompt: string, value: string | null | undefined, password = false, url = false) =>
      vscode.window.showInputBox({
        title: vscode.l10n.t('{0} integration', label(pick.group)),
        prompt,
        value: password ? '' : (value ?? ''),
        password,
        ignoreFocusOut: true,
        validateInput: (v) =>
          !v.trim()
            ? vscode.l10n.t('Required')
            : url && !(/^https?:\/\/[^/]/.test(v.trim()) && URL.canParse(v.trim()))
              ? vscode.l10n.t('An http or https URL, please.')
              : undefined,
      });
    const id = await ask(vscode.l10n.t('Id'), org?.[`${pick.group}_id`]);
    if (id === undefined) return undefined;
    const token = await ask(vscode.l10n.t('Token (kept only on the service)'), undefined, true);
    if (token === undefined) return undefined;
    const endpoint = await ask(vscode.l10n.t('Endpoint URL'), org?.[`${pick.group}_endpoint`], false, true);
    if (endpoint === undefined) return undefined;
    body = { [pick.group]: { id: id.trim(), token: token.trim(), endpoint: endpoint.trim() } };
  }
  const updated = await store.updateIntegrations(body);
  void vscode.window.showInformationMessage(
    pick.clear
      ? vscode.l10n.t('The {0} integration is cleared.', label(pick.group).toLowerCase())
      : vscode.l10n.t('The {0} integration is saved.', label(pick.group).toLowerCase()),
  );
  return updated;
}
