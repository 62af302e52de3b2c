// The quick pick behind the playground's "Choose…" button (the ranking and descriptions are in
// modelPicker.ts, tested without VS Code).
import * as vscode from 'vscode';
import type { CatalogueStore } from '../../stores/catalogueStore';
import type { SpacesStore } from '../../stores/spacesStore';
import { describeModel, rankModels, type PickerModel } from './modelPicker';
import { activeModels, modelBrief } from './playgroundData';

const t = vscode.l10n.t;

interface ModelItem extends vscode.QuickPickItem {
  namespace: string;
}

/** The namespace chosen, '' for automatic routing (offered unless `routing` is false), undefined when the pick was dismissed. */
export function modelQuickPick(models: PickerModel[], current: string, routing = true): Promise<string | undefined> {
  const automatic: ModelItem = {
    namespace: '',
    label: `$(symbol-event) ${t('Automatic routing')}`,
    description: t("the Space's weights choose per request"),
    alwaysShow: false,
  };
  const items = (query: string): ModelItem[] => [
    ...(query.trim() || !routing ? [] : [automatic]),
    ...rankModels(models, query).map((m) => ({
      namespace: m.namespace,
      label: m.namespace,
      ...describeModel(m),
      picked: m.namespace === current,
      alwaysShow: true,
    })),
  ];
  const pick = vscode.window.createQuickPick<ModelItem>();
  pick.title = t('Choose the model');
  pick.placeholder = t('Type a model name; the exact name comes first');
  pick.matchOnDescription = false;
  // Ours is the order: exact, then starts with, then the rest (VS Code would sort by label match).
  (pick as { sortByLabel?: boolean }).sortByLabel = false;
  pick.items = items('');
  return new Promise((resolve) => {
    let chosen: string | undefined;
    pick.onDidChangeValue((value) => (pick.items = items(value)));
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.namespace ?? pick.activeItems[0]?.namespace;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** The catalogue's chat models for the pick, each marked active or not in the Space (if one is chosen), less those `leftOut`. */
export async function chatModelChoices(
  s: { catalogue: CatalogueStore; spaces: SpacesStore },
  appId: string | null,
  leftOut: readonly string[] = [],
): Promise<PickerModel[]> {
  const [models, view] = await Promise.all([
    s.catalogue.models(),
    appId ? s.spaces.detail(appId).catch(() => undefined) : undefined,
  ]);
  const active = new Set(view ? activeModels(view) : []);
  return models
    .filter((m) => m.is_chat && !leftOut.includes(m.namespace))
    .map((m) => ({ ...modelBrief(m), active: active.has(m.namespace) }));
}
