// The Spaces view: the organization's Spaces, each with its configuration, models, sandbox,
// conversations and assistants. It renders the Spaces store; details load when a Space is expanded.
import * as vscode from 'vscode';
import type { Offered, SpacesStore } from '../stores/spacesStore';
import type { CatalogueStore } from '../stores/catalogueStore';
import { describeError } from '../userErrors';
import { modelMarkdown } from '../shared/modelCatalog';
import { PINNED_MODELS, SECTION } from '../settings';
import { linkedMarkdown } from './linkedMarkdown';
import { groupFields, groupsOf, toTreeItem, unreadableNote, type SpaceNode } from './spaceNodes';

const t = vscode.l10n.t;

export class SpacesTree implements vscode.TreeDataProvider<SpaceNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SpaceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<SpaceNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: SpacesStore,
    /** For a model's hover card, the same as in the Models view. */
    private readonly catalogue?: CatalogueStore,
  ) {
    this.view = vscode.window.createTreeView('llmSpaces.spaces', { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changed,
      store.onDidChange(() => this.changed.fire(undefined)),
      // A model pinned to VS Code's chat says so in the view.
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration(`${SECTION}.${PINNED_MODELS}`) && this.changed.fire(undefined),
      ),
    );
  }

  getTreeItem(node: SpaceNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  async resolveTreeItem(item: vscode.TreeItem, node: SpaceNode): Promise<vscode.TreeItem> {
    if (node.kind !== 'spaceModel' || !this.catalogue) return item;
    const model = (await this.catalogue.models().catch(() => [])).find(
      (m) => m.id === node.setting.id || m.namespace === node.setting.namespace,
    );
    if (model) item.tooltip = linkedMarkdown(modelMarkdown(model));
    return item;
  }

  async getChildren(node?: SpaceNode): Promise<SpaceNode[]> {
    try {
      const children = await this.childrenOf(node);
      if (!node) this.view.message = undefined;
      return children;
    } catch (error) {
      this.view.message = describeError(error, t('Loading Spaces')).message;
      return [];
    }
  }

  private async childrenOf(node?: SpaceNode): Promise<SpaceNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'space':
        return groupsOf(await this.store.detail(node.space.id));
      case 'group':
        if (node.group === 'conversations')
          return listed(await this.store.conversations(node.spaceId), (conversation) => ({
            kind: 'conversation',
            spaceId: node.spaceId,
            conversation,
          }));
        if (node.group === 'assistants')
          return listed(await this.store.assistants(node.spaceId), (assistant) => ({
            kind: 'assistant',
            spaceId: node.spaceId,
            assistant,
          }));
        return groupFields(node.group, node.view);
      case 'moreModels':
        return node.settings.map((setting) => ({ kind: 'spaceModel', spaceId: node.spaceId, setting }));
      case 'assistant':
        if (node.assistant.versions.length === 0) return [{ kind: 'note', text: t('No versions listed') }];
        return node.assistant.versions.map((version, index) => ({
          kind: 'assistantVersion',
          spaceId: node.spaceId,
          assistantId: node.assistant.id,
          version,
          index,
        }));
      default:
        return [];
    }
  }

  private async roots(): Promise<SpaceNode[]> {
    const spaces = await this.store.list();
    void vscode.commands.executeCommand('setContext', 'llmSpaces.spacesEmpty', spaces.length === 0);
    const ids = new Set(spaces.map((s) => s.id));
    // A sandbox shows under its main Space, unless that Space is not in the list.
    const nodes = spaces
      .filter((s) => !s.sandbox_of || !ids.has(s.sandbox_of))
      .map((space): SpaceNode => ({ kind: 'space', space, isSandbox: !!space.sandbox_of }));
    return [
      ...unreadableNote(this.store.unreadable, (n) =>
        n === 1 ? t('1 Space could not be read') : t('{0} Spaces could not be read', n),
      ),
      ...nodes,
    ];
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

/** A list only the extra endpoints offer: its nodes, a note when empty, another when not offered. */
function listed<T>(items: Offered<T>, node: (item: T) => SpaceNode): SpaceNode[] {
  if (items === undefined) return [{ kind: 'note', text: t('Not offered by this service') }];
  return items.length ? items.map(node) : [{ kind: 'note', text: t('None yet') }];
}
