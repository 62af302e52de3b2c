// The Models view: the catalogue store grouped by provider, filtered and sorted from the title bar.
// Built for large catalogues: grouping is one pass, tooltips are made lazily.
import * as vscode from 'vscode';
import type { EmbeddingModelRecord, ModelRecord } from '../api/schemas';
import type { CatalogueStore } from '../stores/catalogueStore';
import { describeError } from '../userErrors';
import {
  ANSWER_HERE_FIX,
  cannotAnswerHere,
  embeddingMarkdown,
  modelMarkdown,
  type ProviderGroup,
} from '../shared/modelCatalog';
import { CAPABILITY_WORDS, deprecationOf, priceLine, type Deprecation } from '../shared/models';
import { perMillion } from '../shared/money';
import { keyVariableOf, providerLabel, providerName } from '../shared/providerNames';
import { linkedMarkdown } from './linkedMarkdown';
import { noteItem } from './spaceNodes';

const t = vscode.l10n.t;

/** At most this many models found by a text filter are shown with their groups open. */
const OPEN_UP_TO = 60;

export type ModelNode =
  /** A group is closed, but open with its matches in view for `openFor`, the filter text that found them. */
  | { kind: 'provider'; group: ProviderGroup; openFor?: string }
  | { kind: 'model'; model: ModelRecord }
  /** The embedding models (POST /v1/embeddings), apart: they are never routed. */
  | { kind: 'embeddings'; models: EmbeddingModelRecord[]; openFor?: string }
  | { kind: 'embeddingModel'; model: EmbeddingModelRecord }
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
    if (node.kind === 'provider') return providerItem(node.group, node.openFor);
    if (node.kind === 'embeddings') return embeddingsItem(node.models, node.openFor);
    if (node.kind === 'embeddingModel') return embeddingItem(node.model);
    const m = node.model;
    const dep = deprecationOf(m);
    // In one list across providers the provider is part of the name.
    const item = new vscode.TreeItem(this.store.filter.flat ? m.namespace : m.model || m.namespace);
    item.id = `model:${m.namespace}`;
    const offline = cannotAnswerHere(m) && dep?.kind !== 'retired';
    item.description = stateLine(dep, offline, priceLine(m).split(' per ')[0] ?? '', m.offered_to_key === false);
    item.iconPath = modelIcon(dep, offline, m.is_test_model ? 'beaker' : m.provider === 'local' ? 'vm' : 'hubot');
    item.contextValue = dep?.kind === 'retired' ? 'model.retired' : 'model';
    item.accessibilityInformation = { label: `${m.namespace}, ${String(item.description)}` };
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: ModelNode): vscode.TreeItem {
    if (node.kind === 'model') item.tooltip = linkedMarkdown(modelMarkdown(node.model));
    if (node.kind === 'embeddingModel') item.tooltip = linkedMarkdown(embeddingMarkdown(node.model));
    return item;
  }

  async getChildren(node?: ModelNode): Promise<ModelNode[]> {
    if (node?.kind === 'provider') return node.group.models.map((model) => ({ kind: 'model', model }));
    if (node?.kind === 'embeddings') return node.models.map((model) => ({ kind: 'embeddingModel', model }));
    if (node) return [];
    try {
      // The embedding models are asked for at once, not after the catalogue.
      const [unreadable, embeddings] = await Promise.all([this.store.unreadable(), this.store.arrangedEmbeddings()]);
      // One arrangement only: the flat list, or the groups by provider.
      const shown: ModelNode[] = this.store.filter.flat
        ? (await this.store.arrangedFlat()).map((model) => ({ kind: 'model', model }))
        : this.providerNodes(await this.store.arranged());
      this.view.message = shown.length || embeddings.length ? undefined : t('No model matches the filter.');
      const models = await this.store.models();
      const testOnly = models.some(cannotAnswerHere) && !models.some((m) => !m.is_test_model && !cannotAnswerHere(m));
      return [
        ...(testOnly ? [{ kind: 'testOnly' } as const] : []),
        ...(unreadable ? [{ kind: 'unreadable', count: unreadable } as const] : []),
        ...shown,
        ...(embeddings.length
          ? [{ kind: 'embeddings', models: embeddings, openFor: this.openFor(embeddings.length) } as const]
          : []),
      ];
    } catch (error) {
      this.view.message = describeError(error, t('Loading the model catalogue')).message;
      return [];
    }
  }

  /**
   * The groups; opened when a text filter leaves few models, so that what it found is in view (a user
   * filtering for gpt-4o-mini wants it, not three closed groups that each hold it).
   */
  private providerNodes(groups: ProviderGroup[]): ModelNode[] {
    const openFor = this.openFor(groups.reduce((n, g) => n + g.models.length, 0));
    return groups.map((group) => ({ kind: 'provider', group, openFor }));
  }

  /** The filter text, when it leaves few enough models to show them all. */
  private openFor(found: number): string | undefined {
    const text = this.store.filter.text;
    return text && found <= OPEN_UP_TO ? text : undefined;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/**
 * A provider's group: its name, how many models, and for a hosted provider of the built-in service
 * whether it has a key (its models then answer, served by it), with Add Provider Key… when not.
 */
function providerItem(group: ProviderGroup, openFor?: string): vscode.TreeItem {
  const hosted = providerName(group.provider);
  const { Collapsed, Expanded } = vscode.TreeItemCollapsibleState;
  const item = new vscode.TreeItem(providerLabel(group.provider), openFor === undefined ? Collapsed : Expanded);
  // The view keeps a row's open or closed state by its id: a group opened for a filter has an id of that
  // filter's, so that it opens for each new text, and closes again as it was when the filter is cleared.
  item.id = openFor === undefined ? `provider:${group.provider}` : `provider:${group.provider}:${openFor}`;
  item.iconPath = new vscode.ThemeIcon('organization');
  item.contextValue = 'provider';
  const count = group.models.length === 1 ? t('1 model') : t('{0} models', group.models.length);
  // The hosted LLM Spaces service answers for every model and says nothing of keys.
  const builtIn = group.models.some((m) => m.answers_here !== undefined);
  if (!hosted || !builtIn) {
    item.description = count;
    return item;
  }
  const hasKey = group.models.some(
    (m) => (m.answers_here === true && m.served_by === hosted.label) || m.offered_to_key === false,
  );
  item.description = hasKey ? t('{0} · key added', count) : t('{0} · no key', count);
  item.iconPath = new vscode.ThemeIcon(hasKey ? 'key' : 'organization');
  if (!hasKey) {
    item.contextValue = 'providerNoKey';
    item.tooltip = new vscode.MarkdownString(
      t(
        'No {0} key: its models cannot answer here. [Add Provider Key…](command:llmSpaces.addProviderKey) (the standalone service reads {1}).',
        hosted.label,
        keyVariableOf(hosted),
      ),
    );
    item.tooltip.isTrusted = { enabledCommands: ['llmSpaces.addProviderKey'] };
  }
  return item;
}

/**
 * A model's state in a word or two: retired, not offered to the key the provider has (`unlisted`),
 * cannot answer here, retiring soon, else its price.
 */
function stateLine(dep: Deprecation, offline: boolean, price: string, unlisted = false): string {
  if (dep?.kind === 'retired') return t('retired {0}', dep.date);
  // Its provider has a key, so the user expects it to answer: what it costs is for the tooltip.
  if (offline && unlisted) return t('not for your key');
  // A model retiring soon says so in place of its price, which its tooltip still gives.
  const shown = dep?.kind === 'soon' ? t('until {0}', dep.date) : price;
  return offline ? t('{0} · cannot answer here', shown) : shown;
}

/** A model's icon: its state's when it is retired, cannot answer here or retires soon, else its kind's. */
function modelIcon(dep: Deprecation, offline: boolean, kind: string): vscode.ThemeIcon {
  if (dep?.kind === 'retired')
    return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('list.errorForeground'));
  if (offline) return new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('disabledForeground'));
  if (dep?.kind === 'soon') return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon(kind);
}

/** The embedding models' group, after the providers': apart, since a Space never routes them. */
function embeddingsItem(models: EmbeddingModelRecord[], openFor?: string): vscode.TreeItem {
  const { Collapsed, Expanded } = vscode.TreeItemCollapsibleState;
  const item = new vscode.TreeItem(t('Embedding models'), openFor === undefined ? Collapsed : Expanded);
  item.id = openFor === undefined ? 'embeddings' : `embeddings:${openFor}`;
  item.iconPath = new vscode.ThemeIcon('symbol-array');
  // The service says a retired model cannot answer.
  const answering = models.filter((m) => !cannotAnswerHere(m)).length;
  item.description = t(
    '{0} · {1} can answer here',
    models.length === 1 ? t('1 model') : t('{0} models', models.length),
    answering,
  );
  item.tooltip = linkedMarkdown(
    t(
      "Models that turn texts into vectors for search (Continue's codebase index, a RAG script), through POST /v1/embeddings on a Space's endpoint. A request is answered by the model it names, never routed to another. [Copy Space Endpoint for Other Tools…](command:llmSpaces.copySpaceEndpoint) sets Continue up with one.",
    ),
  );
  item.contextValue = 'embeddings';
  return item;
}

function embeddingItem(m: EmbeddingModelRecord): vscode.TreeItem {
  const dep = deprecationOf(m);
  const item = new vscode.TreeItem(m.namespace);
  item.id = `embedding:${m.namespace}`;
  const offline = cannotAnswerHere(m) && dep?.kind !== 'retired';
  item.description = stateLine(dep, offline, t('{0} in', perMillion(m.prompt_token_cost)));
  item.iconPath = modelIcon(
    dep,
    offline,
    m.provider === 'test' ? 'beaker' : m.provider === 'local' ? 'vm' : 'symbol-array',
  );
  item.contextValue = 'model.embedding';
  item.accessibilityInformation = { label: `${m.namespace}, ${t('embedding model')}, ${String(item.description)}` };
  return item;
}
