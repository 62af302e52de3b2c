// Filtering, sorting and copying in the Models view.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { CAPABILITIES, type ModelSort } from '../views/modelCatalog';
import type { ModelNode } from '../views/modelsTree';

const t = vscode.l10n.t;

export async function filterModels(s: Services): Promise<void> {
  const text = await vscode.window.showInputBox({ title: t('Filter models'), value: s.catalogue.filter.text, prompt: t('Words to find in the name, provider or description') });
  if (text !== undefined) s.catalogue.setFilter({ text: text.trim() });
}

export async function filterCapabilities(s: Services): Promise<void> {
  const picks = await vscode.window.showQuickPick(
    CAPABILITIES.map((c) => ({ label: c, picked: s.catalogue.filter.capabilities.includes(c) })),
    { title: t('Only models that support…'), canPickMany: true },
  );
  if (picks) s.catalogue.setFilter({ capabilities: picks.map((p) => p.label as (typeof CAPABILITIES)[number]) });
}

export async function sortModels(s: Services): Promise<void> {
  const labels: Record<ModelSort, string> = { name: t('Name'), price: t('Price (input + output)'), context: t('Context window (largest first)') };
  const pick = await vscode.window.showQuickPick(
    (Object.keys(labels) as ModelSort[]).map((sort) => ({ label: labels[sort], sort, description: s.catalogue.filter.sort === sort ? t('current') : '' })),
    { title: t('Sort models by') },
  );
  if (pick) s.catalogue.setFilter({ sort: pick.sort });
}

export const clearModelFilter = (s: Services) => s.catalogue.setFilter({ text: '', capabilities: [] });
export const refreshModels = (s: Services) => s.catalogue.reload();

export async function copyNamespace(_s: Services, node: ModelNode): Promise<void> {
  if (node.kind !== 'model') return;
  await vscode.env.clipboard.writeText(node.model.namespace);
  vscode.window.setStatusBarMessage(t('Copied {0}', node.model.namespace), 3000);
}
