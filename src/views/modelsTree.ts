// The Models view: the whole catalogue grouped by provider, filtered and sorted from the title bar.
// Built for large catalogues: the list is fetched once, grouping is one pass, tooltips are made lazily.
import * as vscode from 'vscode';
import type { ModelRecord } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { describeError } from '../userErrors';
import { arrange, deprecationOf, modelMarkdown, priceLine, type ModelFilter, type ProviderGroup } from './modelCatalog';

export type ModelNode = { kind: 'provider'; group: ProviderGroup } | { kind: 'model'; model: ModelRecord };

export class ModelsTree implements vscode.TreeDataProvider<ModelNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ModelNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ModelNode>;
  private models: ModelRecord[] | undefined;
  readonly filter: ModelFilter = { text: '', capabilities: [], sort: 'name' };
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly connection: Connection) {
    this.view = vscode.window.createTreeView('llmSpaces.models', { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(this.view, this.changed, connection.onDidNeedRefresh(() => this.reload()));
  }

  /** Fetches the catalogue again. */
  reload(): void {
    this.models = undefined;
    this.changed.fire(undefined);
  }

  setFilter(change: Partial<ModelFilter>): void {
    Object.assign(this.filter, change);
    const parts = [this.filter.text && `“${this.filter.text}”`, ...this.filter.capabilities, this.filter.sort !== 'name' && `by ${this.filter.sort}`].filter(Boolean);
    this.view.description = parts.join(' · ');
    void vscode.commands.executeCommand('setContext', 'llmSpaces.models.filtered', !!(this.filter.text || this.filter.capabilities.length));
    this.changed.fire(undefined);
  }

  /** Replaces the catalogue (used by the benchmark to load 10,000 models without a service). */
  setModels(models: ModelRecord[]): void {
    this.models = models;
    this.changed.fire(undefined);
  }

  getTreeItem(node: ModelNode): vscode.TreeItem {
    if (node.kind === 'provider') {
      const item = new vscode.TreeItem(node.group.provider, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `provider:${node.group.provider}`;
      item.description = String(node.group.models.length);
      item.iconPath = new vscode.ThemeIcon('organization');
      item.contextValue = 'provider';
      return item;
    }
    const m = node.model;
    const dep = deprecationOf(m);
    const item = new vscode.TreeItem(m.model);
    item.id = `model:${m.namespace}`;
    item.description = dep?.kind === 'retired' ? vscode.l10n.t('deprecated {0}', dep.date) : dep?.kind === 'soon' ? vscode.l10n.t('until {0}', dep.date) : priceLine(m).split(' per ')[0];
    item.iconPath = new vscode.ThemeIcon(
      dep?.kind === 'retired' ? 'circle-slash' : dep?.kind === 'soon' ? 'warning' : m.is_test_model ? 'beaker' : 'hubot',
      dep?.kind === 'retired' ? new vscode.ThemeColor('list.errorForeground') : dep?.kind === 'soon' ? new vscode.ThemeColor('list.warningForeground') : undefined,
    );
    item.contextValue = dep?.kind === 'retired' ? 'model.retired' : 'model';
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: ModelNode): vscode.TreeItem {
    if (node.kind === 'model') item.tooltip = new vscode.MarkdownString(modelMarkdown(node.model), true);
    return item;
  }

  /** The catalogue, read once per connection and shared with the webviews. */
  async catalogue(): Promise<ModelRecord[]> {
    this.models ??= await this.connection.call((c) => c.listModels());
    return this.models;
  }

  async getChildren(node?: ModelNode): Promise<ModelNode[]> {
    if (node?.kind === 'model') return [];
    if (node?.kind === 'provider') return node.group.models.map((model) => ({ kind: 'model', model }));
    try {
      const groups = arrange(await this.catalogue(), this.filter);
      this.view.message = groups.length ? undefined : vscode.l10n.t('No model matches the filter.');
      return groups.map((group) => ({ kind: 'provider', group }));
    } catch (error) {
      this.view.message = describeError(error, vscode.l10n.t('Loading the model catalogue')).message;
      return [];
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
