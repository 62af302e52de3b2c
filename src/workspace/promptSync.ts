// Saved prompts as prompt files in the workspace, kept in step with the service: Export writes a
// `.prompt.md` (under .github/prompts, where VS Code runs them from) and records it in the lock file;
// Import sends a prompt file to the service as a new prompt. A file that differs from the service
// says so (a badge on the file, and code lenses: Compare with Service, Push, Pull); a push over a
// newer service version asks first, and so does a pull over local changes. The review state shows as
// a code lens, and a decline reason as a diagnostic on the first line.
import * as vscode from 'vscode';
import type { PromptRecord } from '../api/schemas';
import type { Connection } from '../connection/connection';
import { reviewState } from '../prompts/promptState';
import { whenLabel } from '../shared/labels';
import type { PromptStore } from '../prompts/promptStore';
import { PROMPT_DESCRIPTION_MAX, PROMPT_TITLE_MAX } from '../api/limits';
import {
  LOCK_PATH,
  PROMPTS_FOLDER,
  formatLock,
  fromPromptFile,
  parseLock,
  slugOf,
  syncState,
  textHash,
  toPromptFile,
  type LockEntry,
  type LockFile,
  type PromptText,
  type SyncState,
} from './promptFiles';

const t = vscode.l10n.t;

/** The service's side of a diff: llm-prompt-service:/<title>.prompt.md?<id>, read-only. */
export const SERVICE_SIDE_SCHEME = 'llm-prompt-service';
const PROMPT_FILES: vscode.DocumentSelector = { pattern: '**/*.prompt.md' };

export type PushChoice = 'overwrite' | 'cancel';

/** A tracked prompt file, where it is and what it is on the service. */
interface Tracked {
  folder: vscode.WorkspaceFolder;
  /** The file's path relative to its folder, with forward slashes (the lock file's key). */
  path: string;
  entry: LockEntry;
}

export interface FileStatus extends Tracked {
  state: SyncState;
  file: PromptText;
  service: PromptRecord | undefined;
}

const STATE_WORDS: Record<string, () => string> = {
  draft: () => t('Draft'),
  'in review': () => t('In review'),
  approved: () => t('Approved'),
  declined: () => t('Declined'),
};

export class PromptFiles
  implements
    vscode.CodeLensProvider,
    vscode.FileDecorationProvider,
    vscode.TextDocumentContentProvider,
    vscode.Disposable
{
  readonly diagnostics = vscode.languages.createDiagnosticCollection('llm-spaces-prompt-files');
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly decorationsChanged = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  /** The last known state of each tracked file, by URI (for the badge, which must answer at once). */
  private readonly known = new Map<string, SyncState>();
  private readonly disposables: vscode.Disposable[] = [];

  /** Asks before a push over a service version newer than the file's (changed when, for people); replaceable in tests. */
  askPush: (title: string, changed: string) => Thenable<PushChoice> = async (title, changed) => {
    const overwrite = t('Push Anyway');
    const choice = await vscode.window.showWarningMessage(
      t('"{0}" was changed on the service ({1}) since this file was last synced.', title, changed),
      {
        modal: true,
        detail: t(
          "Pushing replaces the service's text with this file's. Compare with Service first to see what would be lost.",
        ),
      },
      overwrite,
    );
    return choice === overwrite ? 'overwrite' : 'cancel';
  };

  /** Asks before a pull over changes made in the file; replaceable in tests. */
  askPull: (path: string) => Thenable<boolean> = async (path) => {
    const discard = t('Discard and Pull');
    return (
      (await vscode.window.showWarningMessage(
        t('{0} has changes not pushed to the service.', path),
        { modal: true, detail: t("Pulling replaces the file with the service's text.") },
        discard,
      )) === discard
    );
  };

  constructor(
    private readonly connection: Connection,
    private readonly store: PromptStore,
  ) {
    const later = debounce((document: vscode.TextDocument) => void this.refresh(document.uri), 300);
    this.disposables.push(
      this.diagnostics,
      this.lensesChanged,
      this.decorationsChanged,
      vscode.languages.registerCodeLensProvider(PROMPT_FILES, this),
      vscode.window.registerFileDecorationProvider(this),
      vscode.workspace.registerTextDocumentContentProvider(SERVICE_SIDE_SCHEME, this),
      vscode.workspace.onDidChangeTextDocument((e) => isPromptFile(e.document.uri) && later(e.document)),
      vscode.workspace.onDidSaveTextDocument(
        (document) => isPromptFile(document.uri) && void this.refresh(document.uri),
      ),
      store.onDidChange(() => this.refreshAll()),
    );
  }

  // ------------------------------------------------------------------ the lock file

  private async readLock(folder: vscode.WorkspaceFolder): Promise<LockFile> {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, LOCK_PATH)).then(
      (b) => b,
      () => undefined,
    );
    return parseLock(bytes && new TextDecoder().decode(bytes));
  }

  private async writeLock(folder: vscode.WorkspaceFolder, lock: LockFile): Promise<void> {
    const uri = vscode.Uri.joinPath(folder.uri, LOCK_PATH);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(formatLock(lock)));
  }

  private async record(folder: vscode.WorkspaceFolder, path: string, prompt: PromptRecord): Promise<void> {
    const lock = await this.readLock(folder);
    lock.prompts[path] = entryOf(prompt);
    await this.writeLock(folder, lock);
  }

  async tracked(uri: vscode.Uri): Promise<Tracked | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const path = vscode.workspace.asRelativePath(uri, false).split('\\').join('/');
    const entry = (await this.readLock(folder)).prompts[path];
    return entry && { folder, path, entry };
  }

  // ------------------------------------------------------------------ state

  /** The file's text as the service would hold it: open documents as they are now, others from disk. */
  private async fileText(uri: vscode.Uri, title: string): Promise<PromptText> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const { fields, prompt } = fromPromptFile(text);
    return { title, description: fields.description ?? '', prompt };
  }

  private async servicePrompt(id: string, fresh: boolean): Promise<PromptRecord | undefined> {
    if (!fresh) {
      const cached = this.store.cached(id);
      if (cached) return cached;
    }
    return this.store.fetch(id);
  }

  /** How a tracked file stands to the service (undefined for a file not exported or imported). */
  async status(uri: vscode.Uri, fresh = false): Promise<FileStatus | undefined> {
    const tracked = await this.tracked(uri);
    if (!tracked) return undefined;
    const [file, service] = await Promise.all([
      this.fileText(uri, tracked.entry.title),
      this.servicePrompt(tracked.entry.id, fresh).catch(() => undefined),
    ]);
    return { ...tracked, file, service, state: syncState(tracked.entry, file, service && serviceText(service)) };
  }

  /** Works out a file's state again: its badge, its lenses, its decline diagnostic. */
  async refresh(uri: vscode.Uri): Promise<FileStatus | undefined> {
    const status = await this.status(uri).catch(() => undefined);
    const before = this.known.get(uri.toString());
    if (status) this.known.set(uri.toString(), status.state);
    else this.known.delete(uri.toString());
    const declined = status?.service ? reviewState(status.service) === 'declined' : status?.entry.state === 'declined';
    const reason = status?.service?.decline_reason ?? status?.entry.declineReason;
    if (status && declined && reason) {
      const d = new vscode.Diagnostic(
        new vscode.Range(0, 0, 0, 3),
        t('Declined in review: {0}', reason),
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'LLM Spaces';
      d.code = 'declined in review';
      this.diagnostics.set(uri, [d]);
    } else {
      this.diagnostics.delete(uri);
    }
    if (before !== status?.state) this.decorationsChanged.fire([uri]);
    this.lensesChanged.fire();
    return status;
  }

  private refreshAll(): void {
    for (const key of this.known.keys()) void this.refresh(vscode.Uri.parse(key));
    for (const document of vscode.workspace.textDocuments)
      if (isPromptFile(document.uri)) void this.refresh(document.uri);
  }

  // ------------------------------------------------------------------ commands

  /** Writes a saved prompt as a prompt file under .github/prompts and records it; answers the file. */
  async exportPrompt(prompt: PromptRecord): Promise<vscode.Uri> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error(t('Open a folder first: prompt files are written into the workspace.'));
    const lock = await this.readLock(folder);
    const already = Object.entries(lock.prompts).find(([, entry]) => entry.id === prompt.id);
    if (already)
      throw new Error(
        t(
          '"{0}" is already in the workspace as {1}; use Pull to bring the service\'s text into it.',
          prompt.title,
          already[0],
        ),
      );
    let path = `${PROMPTS_FOLDER}/${slugOf(prompt.title)}.prompt.md`;
    for (let n = 2; lock.prompts[path] || (await exists(vscode.Uri.joinPath(folder.uri, path))); n++)
      path = `${PROMPTS_FOLDER}/${slugOf(prompt.title)}-${n}.prompt.md`;
    const uri = vscode.Uri.joinPath(folder.uri, path);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(toPromptFile(serviceText(prompt))));
    lock.prompts[path] = entryOf(prompt);
    await this.writeLock(folder, lock);
    await this.refresh(uri);
    return uri;
  }

  /** Sends a prompt file the service does not have yet as a new prompt, and records it. */
  async importFile(uri: vscode.Uri): Promise<PromptRecord> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) throw new Error(t('Only a prompt file inside the workspace can be imported.'));
    const tracked = await this.tracked(uri);
    if (tracked)
      throw new Error(
        t('{0} is already the saved prompt "{1}"; use Push to send its changes.', tracked.path, tracked.entry.title),
      );
    const { fields, prompt } = fromPromptFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    const name =
      fields.name ||
      uri.path
        .split('/')
        .pop()!
        .replace(/\.prompt\.md$/, '');
    const title = titleOf(name).slice(0, PROMPT_TITLE_MAX);
    const description = (
      fields.description || t('Imported from {0}', vscode.workspace.asRelativePath(uri, false))
    ).slice(0, PROMPT_DESCRIPTION_MAX);
    const created = await this.connection.call((c) => c.createPrompt({ title, description, prompt }));
    this.store.remember(created, true);
    await this.record(folder, vscode.workspace.asRelativePath(uri, false).split('\\').join('/'), created);
    await this.refresh(uri);
    return created;
  }

  /** VS Code's diff editor: the service's text (as a prompt file) against the file. */
  async compare(uri: vscode.Uri): Promise<void> {
    const tracked = await this.mustTrack(uri);
    const service = vscode.Uri.from({
      scheme: SERVICE_SIDE_SCHEME,
      path: `/${tracked.path.split('/').pop()}`,
      query: tracked.entry.id,
    });
    await vscode.commands.executeCommand(
      'vscode.diff',
      service,
      uri,
      t('{0} (service) ↔ {1}', tracked.entry.title, tracked.path),
    );
  }

  /** The file's text to the service; over a newer service version only if the user says so. */
  async push(uri: vscode.Uri): Promise<'pushed' | 'same' | 'cancelled'> {
    const status = await this.mustStatus(uri);
    if (!status.service)
      throw new Error(t('The service no longer has "{0}"; Import sends the file as a new prompt.', status.entry.title));
    if (!this.store.isOwn(status.entry.id))
      throw new Error(
        t('"{0}" is a public prompt of another organization; it can be read, not changed.', status.entry.title),
      );
    if (status.state === 'same') return 'same';
    if (
      (status.state === 'service' || status.state === 'both') &&
      (await this.askPush(status.entry.title, whenLabel(status.service.modified_on))) !== 'overwrite'
    )
      return 'cancelled';
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document?.isDirty) await document.save();
    const updated = await this.connection.call((c) =>
      c.updatePrompt(status.entry.id, { prompt: status.file.prompt, description: status.file.description }),
    );
    this.store.remember(updated, true);
    await this.record(status.folder, status.path, updated);
    await this.refresh(uri);
    return 'pushed';
  }

  /** The service's text into the file; over changes made in the file only if the user says so. */
  async pull(uri: vscode.Uri): Promise<'pulled' | 'same' | 'cancelled'> {
    const status = await this.mustStatus(uri);
    if (!status.service) throw new Error(t('The service no longer has "{0}".', status.entry.title));
    const document = await vscode.workspace.openTextDocument(uri);
    if (status.state === 'same' && !document.isDirty) {
      await this.record(status.folder, status.path, status.service);
      return 'same';
    }
    if ((status.state === 'local' || status.state === 'both' || document.isDirty) && !(await this.askPull(status.path)))
      return 'cancelled';
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), toPromptFile(serviceText(status.service)));
    await vscode.workspace.applyEdit(edit);
    await document.save();
    await this.record(status.folder, status.path, status.service);
    await this.refresh(uri);
    return 'pulled';
  }

  private async mustTrack(uri: vscode.Uri): Promise<Tracked> {
    const tracked = await this.tracked(uri);
    if (!tracked)
      throw new Error(
        t('{0} is not linked to a saved prompt: Import it first.', vscode.workspace.asRelativePath(uri, false)),
      );
    return tracked;
  }

  private async mustStatus(uri: vscode.Uri): Promise<FileStatus> {
    await this.mustTrack(uri);
    return (await this.status(uri, true))!;
  }

  // ------------------------------------------------------------------ what the editor shows

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const top = new vscode.Range(0, 0, 0, 0);
    const lens = (title: string, command = '', tooltip?: string) =>
      new vscode.CodeLens(top, { title, command, arguments: command ? [document.uri] : undefined, tooltip });
    const status = await this.status(document.uri).catch(() => undefined);
    if (!status)
      return [
        lens(
          `$(cloud-upload) ${t('Import to the Service')}`,
          'llmSpaces.importPromptFile',
          t('Send this prompt file to the service as a new saved prompt'),
        ),
      ];
    const review = status.service ? reviewState(status.service) : status.entry.state;
    const reason = status.service?.decline_reason ?? status.entry.declineReason;
    const lenses = [
      lens(
        review === 'declined' && reason
          ? `$(error) ${t('Declined: {0}', reason)}`
          : `${reviewIcon(review)} ${(STATE_WORDS[review] ?? (() => review))()}`,
        '',
        t('Review state on the service'),
      ),
    ];
    switch (status.state) {
      case 'same':
        lenses.push(lens(`$(check) ${t('Same as the service')}`));
        break;
      case 'local':
        lenses.push(
          lens(`$(arrow-up) ${t('Changed here: Push')}`, 'llmSpaces.pushPromptFile'),
          lens(t('Compare with Service'), 'llmSpaces.comparePromptWithService'),
        );
        break;
      case 'service':
        lenses.push(
          lens(`$(arrow-down) ${t('Changed on the service: Pull')}`, 'llmSpaces.pullPromptFile'),
          lens(t('Compare with Service'), 'llmSpaces.comparePromptWithService'),
        );
        break;
      case 'both':
        lenses.push(
          lens(`$(git-compare) ${t('Changed here and on the service')}`, 'llmSpaces.comparePromptWithService'),
          lens(t('Push'), 'llmSpaces.pushPromptFile'),
          lens(t('Pull'), 'llmSpaces.pullPromptFile'),
        );
        break;
      case 'gone':
        lenses.push(lens(`$(warning) ${t('No longer on the service')}`));
        break;
    }
    return lenses;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const state = this.known.get(uri.toString());
    if (!state || state === 'same') return undefined;
    const tooltip = {
      local: t('Changed here since it was synced with the service'),
      service: t('Changed on the service since it was synced'),
      both: t('Changed here and on the service'),
      gone: t('No longer on the service'),
    }[state];
    return new vscode.FileDecoration('≠', tooltip, new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const prompt = await this.servicePrompt(uri.query, true);
    if (!prompt) throw new Error(t('The service no longer has this prompt.'));
    return toPromptFile(serviceText(prompt));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

const isPromptFile = (uri: vscode.Uri) => uri.scheme === 'file' && uri.path.endsWith('.prompt.md');
const serviceText = (p: PromptRecord): PromptText => ({ title: p.title, description: p.description, prompt: p.prompt });

function entryOf(prompt: PromptRecord): LockEntry {
  return {
    id: prompt.id,
    title: prompt.title,
    state: reviewState(prompt),
    declineReason: prompt.decline_reason ?? null,
    modifiedOn: prompt.modified_on,
    hash: textHash(serviceText(prompt)),
  };
}

/** "find-bugs" → "Find bugs". */
function titleOf(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : t('Imported prompt');
}

const reviewIcon = (state: string) =>
  ({ approved: '$(pass)', 'in review': '$(eye)', declined: '$(error)' })[state] ?? '$(edit)';

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
