// The Prompts view: public, organization or all prompts, with their review state.
import * as vscode from 'vscode';
import type { PromptRecord, PromptShow } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { promptUri } from '../prompts/promptFileSystem';
import { reviewState, type ReviewState } from '../prompts/promptState';
import type { PromptStore } from '../prompts/promptStore';
import { whenLabel } from '../shared/labels';
import { describeError } from '../userErrors';

const STATE_ICONS: Record<ReviewState, string> = {
  draft: 'edit',
  'in review': 'eye',
  approved: 'verified',
  declined: 'error',
};
const SHOW_KEY = 'llmSpaces.prompts.show';

export interface PromptNode {
  prompt: PromptRecord;
  own: boolean;
}

export class PromptsTree implements vscode.TreeDataProvider<PromptNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PromptNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<PromptNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly store: PromptStore,
    private readonly state: vscode.Memento,
  ) {
    this.view = vscode.window.createTreeView('llmSpaces.prompts', { treeDataProvider: this });
    this.disposables.push(
      this.view,
      this.changed,
      connection.onDidNeedRefresh(() => this.refresh()),
      store.onDidChange(() => this.refresh()),
    );
    this.updateTitle();
  }

  get show(): PromptShow {
    return this.state.get<PromptShow>(SHOW_KEY, 'all');
  }

  async setShow(show: PromptShow): Promise<void> {
    await this.state.update(SHOW_KEY, show);
    this.updateTitle();
    this.refresh();
  }

  private updateTitle(): void {
    const labels: Record<PromptShow, string> = {
      all: vscode.l10n.t('all'),
      org: vscode.l10n.t('organization'),
      public: vscode.l10n.t('public'),
    };
    this.view.description = labels[this.show];
    void vscode.commands.executeCommand('setContext', 'llmSpaces.prompts.show', this.show);
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: PromptNode): vscode.TreeItem {
    const p = node.prompt;
    const state = reviewState(p);
    const item = new vscode.TreeItem(p.title);
    item.id = `prompt:${p.id}`;
    item.description = `${state} · ${vscode.l10n.t('{0} tokens', p.tokens)} · ${p.description}`;
    item.iconPath = new vscode.ThemeIcon(
      STATE_ICONS[state],
      state === 'declined' ? new vscode.ThemeColor('list.errorForeground') : undefined,
    );
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(
      `**${escape(p.title)}** — ${state}${node.own ? '' : ` (${vscode.l10n.t('public, read-only')})`}\n\n${escape(p.description)}\n\n`,
    );
    if (state === 'declined')
      tooltip.appendMarkdown(`$(error) ${vscode.l10n.t('Declined')}: ${escape(p.decline_reason ?? '')}\n\n`);
    tooltip.appendMarkdown(
      `${vscode.l10n.t('{0} tokens', p.tokens)} · ${vscode.l10n.t('modified {0}', whenLabel(p.modified_on))}\n\n`,
    );
    tooltip.appendCodeblock(p.prompt.length > 600 ? `${p.prompt.slice(0, 600)}…` : p.prompt, 'markdown');
    item.tooltip = tooltip;
    item.contextValue = node.own ? 'prompt.own' : 'prompt.public';
    item.resourceUri = promptUri(p);
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open Prompt'), arguments: [promptUri(p)] };
    return item;
  }

  async getChildren(node?: PromptNode): Promise<PromptNode[]> {
    if (node) return [];
    try {
      const prompts = await this.store.load(this.show);
      this.view.message = prompts.length ? undefined : vscode.l10n.t('No prompts here yet.');
      return prompts.map((prompt) => ({ prompt, own: this.store.isOwn(prompt.id) }));
    } catch (error) {
      this.view.message = describeError(error, vscode.l10n.t('Loading prompts')).message;
      return [];
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

const escape = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
