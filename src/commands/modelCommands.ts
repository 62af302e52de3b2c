// Filtering, sorting and copying in the Models view.
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ModelSort } from '../shared/modelCatalog';
import { CAPABILITIES, CAPABILITY_WORDS } from '../shared/models';
import type { ModelNode } from '../views/modelsTree';

const t = vscode.l10n.t;

export async function filterModels(s: Services): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: t('Filter models'),
    value: s.catalogue.filter.text,
    prompt: t('Words to find in the name, provider or description'),
  });
  if (text !== undefined) s.catalogue.setFilter({ text: text.trim() });
}

export async function filterCapabilities(s: Services): Promise<void> {
  const picks = await vscode.window.showQuickPick(
    CAPABILITIES.map((c) => ({
      label: CAPABILITY_WORDS[c].label,
      detail: CAPABILITY_WORDS[c].detail,
      capability: c,
      picked: s.catalogue.filter.capabilities.includes(c),
    })),
    { title: t('Only models that…'), canPickMany: true },
  );
  if (picks) s.catalogue.setFilter({ capabilities: picks.map((p) => p.capability) });
}

export async function sortModels(s: Services): Promise<void> {
  const labels: Record<ModelSort, string> = {
    name: t('Name'),
    price: t('Price (input + output)'),
    context: t('Context window (largest first)'),
  };
  const pick = await vscode.window.showQuickPick(
    (Object.keys(labels) as ModelSort[]).map((sort) => ({
      label: labels[sort],
      sort,
      description: s.catalogue.filter.sort === sort ? t('current') : '',
    })),
    { title: t('Sort models by') },
  );
  if (pick) s.catalogue.setFilter({ sort: pick.sort });
}

export const clearModelFilter = (s: Services) => s.catalogue.setFilter({ text: '', capabilities: [] });
export const showModelsAsList = (s: Services) => s.catalogue.setFilter({ flat: true });
export const groupModelsByProvider = (s: Services) => s.catalogue.setFilter({ flat: false });

/** Opens the playground (the one used last, or a new one) with this model chosen. */
export function openModelInPlayground(s: Services, node: ModelNode | undefined): void {
  if (node?.kind !== 'model') return;
  s.webviews.useModelInPlayground(node.model.namespace);
}
export const refreshModels = (s: Services) => s.catalogue.reload();

export async function copyNamespace(_s: Services, node: ModelNode): Promise<void> {
  if (node.kind !== 'model' && node.kind !== 'embeddingModel') return;
  await vscode.env.clipboard.writeText(node.model.namespace);
  vscode.window.setStatusBarMessage(t('Copied {0}', node.model.namespace), 3000);
}

/**
 * Asks the built-in service to look again for model servers on this computer (and at the URLs of
 * the setting), then shows what it found and reloads the models and Spaces that may have changed.
 */
export async function refreshLocalModels(s: Services): Promise<void> {
  if (s.connection.mode !== 'local') {
    void vscode.window.showInformationMessage(
      t('Local model servers are found by the built-in service. The service in use now serves its own models.'),
    );
    return;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Looking for model servers on this computer…') },
    () => s.connection.call((c) => c.refreshModelServers()),
  );
  s.catalogue.reload();
  s.spaces.refresh();
  const found = result.servers.filter((server) => server.answered);
  if (found.length === 0) {
    const settings = t('Open Settings');
    const answer = await vscode.window.showInformationMessage(
      t(
        "No model server answers on this computer, so only the test models can answer. Start Ollama (port 11434), LM Studio (1234), llama.cpp's server (8080) or vLLM (8000), or add your server's URL in the settings, then refresh again.",
      ),
      settings,
    );
    if (answer === settings)
      await vscode.commands.executeCommand('workbench.action.openSettings', 'llmSpaces.localService');
    return;
  }
  const each = found.map((server) =>
    server.models.length === 1
      ? t('{0}: 1 model', server.name)
      : t('{0}: {1} models', server.name, server.models.length),
  );
  void vscode.window.showInformationMessage(t('Found {0}. Their models answer here at no cost.', each.join('; ')));
}
