// Saved prompts as documents: llm-prompt:/<title>.md?<id> (the tab and the breadcrumbs read as the
// prompt's title; the id, in the query, says which). Saving sends the text to the service;
// a failed save throws, so VS Code keeps the editor dirty with the user's text; a prompt changed on the
// service since it was opened is not overwritten without asking; others' public prompts are read-only.
import * as vscode from 'vscode';
import { NotFoundError } from '../api/errors';
import type { PromptRecord } from '../api/schemas';
import type { PromptStore } from './promptStore';
import type { Connection } from '../connection/connection';
import { whenLabel } from '../shared/labels';
import { describeError } from '../userErrors';
import { reachedMilestone } from '../walkthrough';

export const PROMPT_SCHEME = 'llm-prompt';

export function promptUri(prompt: Pick<PromptRecord, 'id' | 'title'>): vscode.Uri {
  const name = prompt.title.replace(/[\\/:*?"<>|#%]+/g, ' ').trim() || 'prompt';
  return vscode.Uri.from({ scheme: PROMPT_SCHEME, path: `/${name}.md`, query: prompt.id });
}

/** The prompt's id; editors restored from before the id moved to the query have it as the first folder. */
export const promptIdOf = (uri: vscode.Uri) =>
  uri.query || (uri.path.split('/').length > 2 ? uri.path.split('/')[1]! : '');

export type ConflictChoice = 'overwrite' | 'cancel';

const DELETED = () =>
  vscode.l10n.t('This prompt was deleted. Your text is still in the editor: copy it into a new prompt to keep it.');

export class PromptFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** modified_on of each prompt as this editor last read or wrote it. */
  private readonly baseline = new Map<string, string>();
  /** Asks what to do when the prompt changed on the service; replaceable in tests. */
  askConflict: (prompt: PromptRecord) => Thenable<ConflictChoice> = async (prompt) => {
    const overwrite = vscode.l10n.t('Overwrite');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        '"{0}" was changed on the service after you opened it (at {1}). Overwrite those changes with yours?',
        prompt.title,
        whenLabel(prompt.modified_on),
      ),
      { modal: true },
      overwrite,
    );
    return choice === overwrite ? 'overwrite' : 'cancel';
  };

  constructor(
    private readonly store: PromptStore,
    private readonly connection: Connection,
  ) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  private async prompt(uri: vscode.Uri): Promise<PromptRecord> {
    const id = promptIdOf(uri);
    const prompt = this.store.cached(id) ?? (await this.store.fetch(id));
    if (!prompt) throw vscode.FileSystemError.FileNotFound(uri);
    return prompt;
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const prompt = await this.prompt(uri);
    return {
      type: vscode.FileType.File,
      ctime: Date.parse(prompt.added_on) || 0,
      // The version this editor holds: a change on the service is caught (and asked about) when saving.
      mtime: Date.parse(this.baseline.get(prompt.id) ?? prompt.modified_on) || 0,
      size: Buffer.byteLength(prompt.prompt),
      permissions: this.store.isOwn(prompt.id) ? undefined : vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const id = promptIdOf(uri);
    const prompt = (await this.store.fetch(id)) ?? (await this.prompt(uri));
    this.baseline.set(id, prompt.modified_on);
    return Buffer.from(prompt.prompt, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const id = promptIdOf(uri);
    const text = Buffer.from(content).toString('utf8');
    try {
      const current = await this.store.fetch(id);
      if (!current) throw vscode.FileSystemError.FileNotFound(DELETED());
      if (!this.store.isOwn(id))
        throw vscode.FileSystemError.NoPermissions(
          vscode.l10n.t('Public prompts of other organizations are read-only.'),
        );
      const seen = this.baseline.get(id);
      if (
        seen &&
        current.modified_on !== seen &&
        current.prompt !== text &&
        (await this.askConflict(current)) === 'cancel'
      ) {
        throw vscode.FileSystemError.Unavailable(
          vscode.l10n.t('Not saved: the prompt changed on the service. Your text is still in the editor.'),
        );
      }
      const saved = await this.connection.call((c) => c.updatePrompt(id, { prompt: text }));
      this.baseline.set(id, saved.modified_on);
      this.store.remember(saved, true);
      reachedMilestone('promptSaved');
      this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      // Deleted since the list was read: said as such, not as the service's "not found".
      if (error instanceof NotFoundError) throw vscode.FileSystemError.FileNotFound(DELETED());
      // VS Code shows this message and keeps the editor dirty with the user's text.
      throw vscode.FileSystemError.Unavailable(describeError(error, vscode.l10n.t('Saving the prompt')).message);
    }
  }

  /**
   * A prompt was deleted: its editors with nothing unsaved close, and one with unsaved text stays open,
   * marked deleted by VS Code, so the text can still be copied (saving it says why it cannot be saved).
   */
  async deleted(id: string): Promise<void> {
    const uris: vscode.Uri[] = [];
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs) {
        const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
        if (uri?.scheme !== PROMPT_SCHEME || promptIdOf(uri) !== id) continue;
        uris.push(uri);
        if (!tab.isDirty) await vscode.window.tabGroups.close(tab);
      }
    if (uris.length) this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Delete prompts from the Prompts view.'));
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
}
