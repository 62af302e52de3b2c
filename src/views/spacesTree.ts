// The Spaces view: the organization's Spaces, each with its configuration, models, sandbox,
// conversations and assistants. Details load when a Space is expanded.
import * as vscode from 'vscode';
import { ApiError, isMissingEndpoint } from '../api/errors';
import type { Space, SpaceUpdateResponse } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { describeError } from '../userErrors';
import { groupFields, groupsOf, toTreeItem, type SpaceNode } from './spaceNodes';

const REMEMBERED_KEY = 'llmSpaces.rememberedSpaces';


export class SpacesTree implements vscode.TreeDataProvider<SpaceNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SpaceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<SpaceNode>;
  private readonly details = new Map<string, SpaceUpdateResponse>();
  /** True when the service has no list endpoint and Spaces are added by id. */
  listUnavailable = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly state: vscode.Memento,
  ) {
    this.view = vscode.window.createTreeView('llmSpaces.spaces', { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(this.view, this.changed, connection.onDidNeedRefresh(() => this.refresh()));
  }

  refresh(): void {
    this.details.clear();
    this.changed.fire(undefined);
  }

  getTreeItem(node: SpaceNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  async getChildren(node?: SpaceNode): Promise<SpaceNode[]> {
    try {
      const children = await this.childrenOf(node);
      if (!node) this.view.message = undefined;
      return children;
    } catch (error) {
      this.view.message = describeError(error, vscode.l10n.t('Loading Spaces')).message;
      return [];
    }
  }

  private async childrenOf(node?: SpaceNode): Promise<SpaceNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'space':
        return groupsOf(await this.detail(node.space.id));
      case 'group':
        if (node.group === 'conversations') return this.optional(async (c) => (await c.listConversations(node.spaceId)).map((conversation) => ({ kind: 'conversation', spaceId: node.spaceId, conversation })));
        if (node.group === 'assistants') return this.optional(async (c) => (await c.listAssistants(node.spaceId)).map((assistant) => ({ kind: 'assistant', spaceId: node.spaceId, assistant })));
        return groupFields(node.group, node.view);
      case 'assistant':
        return node.assistant.versions.map((version, index) => ({ kind: 'assistantVersion', spaceId: node.spaceId, assistantId: node.assistant.id, version, index }));
      default:
        return [];
    }
  }

  /** Lists that only the extra endpoints offer show a note instead of failing on a remote service. */
  private async optional(fn: Parameters<Connection['call']>[0]): Promise<SpaceNode[]> {
    try {
      const nodes = (await this.connection.call(fn)) as SpaceNode[];
      return nodes.length ? nodes : [{ kind: 'note', text: vscode.l10n.t('None yet') }];
    } catch (error) {
      if (isMissingEndpoint(error)) return [{ kind: 'note', text: vscode.l10n.t('Not offered by this service') }];
      throw error;
    }
  }

  /** Every Space the token sees, or those added by id where the service cannot list them. */
  async list(): Promise<Space[]> {
    try {
      const spaces = await this.connection.call((c) => listAllSpaces(c));
      this.listUnavailable = false;
      return spaces;
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
      this.listUnavailable = true;
      return this.rememberedSpaces();
    }
  }

  private async roots(): Promise<SpaceNode[]> {
    const spaces = await this.list();
    void vscode.commands.executeCommand('setContext', 'llmSpaces.spacesEmpty', spaces.length === 0);
    const ids = new Set(spaces.map((s) => s.id));
    // A sandbox shows under its main Space, unless that Space is not in the list.
    return spaces.filter((s) => !s.sandbox_of || !ids.has(s.sandbox_of)).map((space) => ({ kind: 'space', space, isSandbox: !!space.sandbox_of }));
  }

  async detail(spaceId: string, fresh = false): Promise<SpaceUpdateResponse> {
    const cached = this.details.get(spaceId);
    if (cached && !fresh) return cached;
    const view = await this.connection.call((c) => readSpace(c, spaceId));
    this.details.set(spaceId, view);
    return view;
  }

  private remembered(): string[] {
    return this.state.get<Record<string, string[]>>(REMEMBERED_KEY, {})[this.connection.url ?? ''] ?? [];
  }

  private async rememberedSpaces(): Promise<Space[]> {
    const spaces: Space[] = [];
    for (const id of this.remembered()) {
      try {
        spaces.push((await this.detail(id)).main.app);
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === 'not-found')) throw error;
      }
    }
    return spaces;
  }

  /** Remembers a Space by id (for services without the list endpoint), after checking it exists. */
  async addById(id: string): Promise<void> {
    await this.detail(id, true);
    const all = this.state.get<Record<string, string[]>>(REMEMBERED_KEY, {});
    const key = this.connection.url ?? '';
    all[key] = [...new Set([...(all[key] ?? []), id])];
    await this.state.update(REMEMBERED_KEY, all);
    this.refresh();
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

async function listAllSpaces(client: import('../api/client').LlmSpacesClient): Promise<Space[]> {
  const spaces: Space[] = [];
  for (let page = 1; ; page++) {
    const result = await client.listSpaces({ page, size: 100 });
    spaces.push(...result.items);
    if (page >= result.pages || result.items.length === 0) return spaces;
  }
}

/** GET /v1/apps/{id} where offered; otherwise an update that changes nothing returns the same view. */
export async function readSpace(client: import('../api/client').LlmSpacesClient, spaceId: string): Promise<SpaceUpdateResponse> {
  try {
    return await client.getSpace(spaceId);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'method-not-allowed') return client.updateSpace({ id: spaceId });
    throw error;
  }
}
