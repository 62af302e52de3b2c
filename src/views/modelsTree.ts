// The Models view: the catalogue store grouped by provider, filtered and sorted from the title bar.
// Built for large catalogues: grouping is one pass, tooltips are made lazily.
import * as vscode from 'vscode';
import type { ModelRecord } from '../api/schemas';
import type { CatalogueStore } from '../stores/catalogueStore';
import { describeError } from '../userErrors';
import { ANSWER_HERE_FIX, cannotAnswerHere, modelMarkdown, type ProviderGroup } from '../shared/modelCatalog';
import { CAPABILITY_WORDS, deprecationOf, priceLine } from '../shared/models';
import { providerLabel, providerName } from '../shared/providerNames';
import { linkedMarkdown } from './linkedMarkdown';
import { noteItem } from './spaceNodes';

const t = vscode.l10n.t;

export type ModelNode =
  | { kind: 'provider'; group: ProviderGroup }
  | { kind: 'model'; model: ModelRecord }
  | { kind: 'unreadable'; count: number }
  /** Nothing but the test models can answer here: says how to get real ones. */
  | { kind: 'testOnly' };

export class ModelsTree implements vscode.TreeDataProvider<ModelNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ModelNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ModelNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly store: CatalogueStore) {
    this.view = vscode.window.createTreeView('llmSpaces.models', {
      treeDataProvider: this,
      showCollapseAll: true,
      canSelectMany: true,
    });
    this.disposables.push(
      this.view,
      this.changed,
      store.onDidChange(() => {
        this.describeFilter();
        this.changed.fire(undefined);
      }),
    );
  }

  private describeFilter(): void {
    const f = this.store.filter;
    const sortLabels = { name: '', price: t('by price'), context: t('by context window') };
    this.view.description = [
      f.flat && t('one list'),
      f.text && `“${f.text}”`,
      ...f.capabilities.map((c) => CAPABILITY_WORDS[c].label),
      sortLabels[f.sort],
    ]
      .filter(Boolean)
      .join(' · ');
    void vscode.commands.executeCommand('setContext', 'llmSpaces.models.flat', f.flat);
    void vscode.commands.executeCommand('setContext', 'llmSpaces.models.filtered', !!(f.text || f.capabilities.length));
  }

  getTreeItem(node: ModelNode): vscode.TreeItem {
    if (node.kind === 'testOnly') {
      const item = new vscode.TreeItem(t('Only the test models answer here'));
      item.description = t('Find Model Servers');
      item.iconPath = new vscode.ThemeIcon('info');
      item.tooltip = linkedMarkdown(
        `${t('No model server was found and no provider key was added, so the other models cannot answer.')} ${ANSWER_HERE_FIX}`,
      );
      item.command = { command: 'llmSpaces.refreshLocalModels', title: t('Refresh Local Models') };
      item.contextValue = 'note';
      return item;
    }
    if (node.kind === 'unreadable')
      return noteItem(
        node.count === 1 ? t('1 model could not be read') : t('{0} models could not be read', node.count),
        true,
      );
    if (node.kind === 'provider') return providerItem(node.group);
    const m = node.model;
    const dep = deprecationOf(m);
    // In one list across providers the provider is part of the name.
    const item = new vscode.TreeItem(this.store.filter.flat ? m.namespace : m.model || m.namespace);
    item.id = `model:${m.namespace}`;
    const offline = cannotAnswerHere(m) && dep?.kind !== 'retired';
    const price = priceLine(m).split(' per ')[0] ?? '';
    item.description =
      dep?.kind === 'retired'
        ? t('deprecated {0}', dep.date)
        : offline
          ? t('{0} · cannot answer here', price)
          : dep?.kind === 'soon'
            ? t('until {0}', dep.date)
            : price;
    item.iconPath = new vscode.ThemeIcon(
      dep?.kind === 'retired'
        ? 'circle-slash'
        : offline
          ? 'debug-disconnect'
          : dep?.kind === 'soon'
            ? 'warning'
            : m.is_test_model
              ? 'beaker'
              : m.provider === 'local'
                ? 'vm'
                : 'hubot',
      dep?.kind === 'retired'
        ? new vscode.ThemeColor('list.errorForeground')
        : offline
          ? new vscode.ThemeColor('disabledForeground')
          : dep?.kind === 'soon'
            ? new vscode.ThemeColor('list.warningForeground')
            : undefined,
    );
    item.contextValue = dep?.kind === 'retired' ? 'model.retired' : 'model';
    item.accessibilityInformation = { label: `${m.namespace}, ${String(item.description)}` };
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: ModelNode): vscode.TreeItem {
    if (node.kind === 'model') item.tooltip = linkedMarkdown(modelMarkdown(node.model));
    return item;
  }

  async getChildren(node?: ModelNode): Promise<ModelNode[]> {
    if (node && node.kind !== 'provider') return [];
    if (node?.kind === 'provider') return node.group.models.map((model) => ({ kind: 'model', model }));
    try {
      const unreadable = await this.store.unreadable();
      // One arrangement only: the flat list, or the groups by provider.
      const shown: ModelNode[] = this.store.filter.flat
        ? (await this.store.arrangedFlat()).map((model) => ({ kind: 'model', model }))
        : (await this.store.arranged()).map((group) => ({ kind: 'provider', group }));
      this.view.message = shown.length ? undefined : t('No model matches the filter.');
      const models = await this.store.models();
      const testOnly = models.some(cannotAnswerHere) && !models.some((m) => !m.is_test_model && !cannotAnswerHere(m));
      return [
        ...(testOnly ? [{ kind: 'testOnly' } as const] : []),
        ...(unreadable ? [{ kind: 'unreadable', count: unreadable } as const] : []),
        ...shown,
      ];
    } catch (error) {
      this.view.message = describeError(error, t('Loading the model catalogue')).message;
      return [];
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/**
 * A provider's group: its name, how many models, and for a hosted provider of the built-in service
 * whether it has a key (its models then answer, served by it), with Add Provider Key… when not.
 */
function providerItem(group: ProviderGroup): vscode.TreeItem {
  const hosted = providerName(group.provider);
  const item = new vscode.TreeItem(providerLabel(group.provider), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `provider:${group.provider}`;
  item.iconPath = new vscode.ThemeIcon('organization');
  item.contextValue = 'provider';
  const count = group.models.length === 1 ? t('1 model') : t('{0} models', group.models.length);
  // The hosted LLM Spaces service answers for every model and says nothing of keys.
  const builtIn = group.models.some((m) => m.answers_here !== undefined);
  if (!hosted || !builtIn) {
    item.description = count;
    return item;
  }
  const hasKey = group.models.some((m) => m.answers_here === true && m.served_by === hosted.label);
  item.description = hasKey ? t('{0} · key added', count) : t('{0} · no key', count);
  item.iconPath = new vscode.ThemeIcon(hasKey ? 'key' : 'organization');
  if (!hasKey) {
    item.contextValue = 'providerNoKey';
    item.tooltip = new vscode.MarkdownString(
      t(
        'No {0} key: its models cannot answer here. [Add Provider Key…](command:llmSpaces.addProviderKey) (the standalone service reads {1}).',
        hosted.label,
        hosted.keyVars[0]!,
      ),
    );
    item.tooltip.isTrusted = { enabledCommands: ['llmSpaces.addProviderKey'] };
  }
  return item;
}
