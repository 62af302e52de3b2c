// Model ids in the workspace's files: a hover card on each id the catalogue knows, a diagnostic on a
// deprecated one (an error once it is no longer served, a warning before) and on an unknown id of a
// known provider (a hint), a quick fix that offers successors, and a status bar count of the
// deprecated ids in the workspace. Open documents are checked as they change; the rest of the
// workspace by a bounded scan. The catalogue comes from the service, or from the copy on disk at
// startup and offline (marked as such, and stale when old).
import * as vscode from 'vscode';
import type { ModelRecord } from '../api/schemas';
import type { Connection } from '../connection/connection';
import type { CatalogueStore } from '../stores/catalogueStore';
import { modelMarkdown } from '../shared/modelCatalog';
import { priceLine } from '../shared/models';
import { STALE_AFTER_MS, type CatalogueCache } from './catalogueCache';
import { ModelIndex, type FoundId } from './modelIndex';
import { dayLabel, whenLabel } from '../shared/labels';

const t = vscode.l10n.t;

export const DIAGNOSTIC_SOURCE = 'LLM Spaces';
/** Shown by VS Code after the source ("LLM Spaces(retired model)"), so written as words. */
export const CODES = { retired: 'retired model', soon: 'model to be retired', unknown: 'unknown model' } as const;

/** What the bounded scan reads: files where model ids are written, outside dependencies and build output. */
const INCLUDE =
  '**/{*.env,.env,.env.*,*.json,*.jsonc,*.yaml,*.yml,*.toml,*.ini,*.cfg,*.conf,*.py,*.js,*.mjs,*.cjs,*.ts,*.mts,*.cts,*.jsx,*.tsx,*.go,*.rs,*.java,*.kt,*.rb,*.php,*.cs,*.sh,*.md,*.prompt.md,*.txt,Dockerfile}';
const EXCLUDE =
  '**/{node_modules,.git,dist,out,build,.venv,venv,__pycache__,target,vendor,.next,coverage,test-artifacts,.vscode-test}/**';
const MAX_FILES = 2_000;
const MAX_FILE_BYTES = 1_000_000;
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];

/** Where a deprecated id was found, for the count and the list. */
interface Place {
  uri: vscode.Uri;
  range: vscode.Range;
  found: FoundId;
}

export class WorkspaceModelIds implements vscode.HoverProvider, vscode.CodeActionProvider, vscode.Disposable {
  private index: ModelIndex | undefined;
  /** Where the catalogue in use came from: the service now (`live`), or the copy saved at `savedAt`. */
  private source: { live: boolean; savedAt: number } | undefined;
  readonly diagnostics = vscode.languages.createDiagnosticCollection('llm-spaces-models');
  readonly status = vscode.window.createStatusBarItem('llmSpaces.deprecatedModels', vscode.StatusBarAlignment.Left, 20);
  /** Deprecated ids found, by file. */
  private readonly places = new Map<string, Place[]>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private scanning: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private markReady: () => void = () => undefined;
  /** Settles once a catalogue (saved or live) is in use and the open documents were checked. */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly connection: Connection,
    private readonly catalogue: CatalogueStore,
    private readonly cache: CatalogueCache,
  ) {
    this.status.name = t('Deprecated model ids');
    this.status.command = 'llmSpaces.showDeprecatedModelIds';
    this.disposables.push(
      this.diagnostics,
      this.status,
      catalogue.onDidRead((models) => {
        this.use([...models], { live: true, savedAt: Date.now() });
        void this.cache.write(this.serviceKey(), models).catch(() => undefined);
      }),
      vscode.workspace.onDidOpenTextDocument((document) => this.checkDocument(document)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document)),
      vscode.languages.registerHoverProvider(SELECTOR, this),
      vscode.languages.registerCodeActionsProvider(SELECTOR, this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      this.watch(),
    );
    void this.fromCache();
  }

  private serviceKey(): string {
    return this.connection.mode === 'local' ? 'local' : (this.connection.url ?? 'remote');
  }

  /**
   * The saved copy, until the service gives the catalogue. With no copy (the first run) or a stale one,
   * the catalogue is asked for now; otherwise whenever a view or the playground reads it, so that a
   * window that does not use LLM Spaces does not start the built-in service for this.
   */
  private async fromCache(): Promise<void> {
    const saved = await this.cache.read(this.serviceKey());
    if (saved && !this.source?.live) this.use(saved.models, { live: false, savedAt: saved.savedAt });
    if (!saved || Date.now() - saved.savedAt > STALE_AFTER_MS) await this.catalogue.models().catch(() => undefined);
  }

  private use(models: ModelRecord[], source: { live: boolean; savedAt: number }): void {
    this.index = new ModelIndex(models);
    this.source = source;
    for (const document of vscode.workspace.textDocuments) this.checkDocument(document);
    this.markReady();
    void this.scanWorkspace();
  }

  /** Checks the workspace's files (bounded), then shows the count. Answers once done. */
  scanWorkspace(): Promise<void> {
    this.scanning ??= this.scan().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async scan(): Promise<void> {
    if (!this.index || !vscode.workspace.workspaceFolders?.length) return this.showCount();
    const files = await vscode.workspace.findFiles(INCLUDE, EXCLUDE, MAX_FILES);
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    for (const uri of files) {
      if (open.has(uri.toString())) continue;
      await this.checkFile(uri);
    }
    this.showCount();
  }

  private async checkFile(uri: vscode.Uri): Promise<void> {
    try {
      if ((await vscode.workspace.fs.stat(uri)).size > MAX_FILE_BYTES) return;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      this.publish(uri, text, lineIndex(text));
    } catch {
      // Gone or unreadable since it was listed: nothing to say about it.
    }
  }

  /** Files changed on disk while closed are checked again. */
  private watch(): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(INCLUDE);
    const again = (uri: vscode.Uri) => {
      if (
        uri.path.match(/\/(node_modules|\.git|dist|out)\//) ||
        vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())
      )
        return;
      void this.checkFile(uri).then(() => this.showCount());
    };
    return vscode.Disposable.from(
      watcher,
      watcher.onDidChange(again),
      watcher.onDidCreate(again),
      watcher.onDidDelete((uri) => {
        this.diagnostics.delete(uri);
        this.places.delete(uri.toString());
        this.showCount();
      }),
    );
  }

  private later(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.checkDocument(document);
      }, 250),
    );
  }

  checkDocument(document: vscode.TextDocument): void {
    if (
      !this.index ||
      !['file', 'untitled'].includes(document.uri.scheme) ||
      document.getText().length > MAX_FILE_BYTES * 2
    )
      return;
    const text = document.getText();
    this.publish(document.uri, text, (offset) => document.positionAt(offset));
    this.showCount();
  }

  private publish(uri: vscode.Uri, text: string, at: (offset: number) => vscode.Position): void {
    const found = this.index!.scan(text).filter((f) => f.kind !== 'current');
    const places: Place[] = [];
    const diagnostics = found.map((f) => {
      const range = new vscode.Range(at(f.start), at(f.end));
      if (f.kind !== 'unknown') places.push({ uri, range, found: f });
      return this.diagnosticOf(f, range);
    });
    this.diagnostics.set(uri, diagnostics);
    if (places.length) this.places.set(uri.toString(), places);
    else this.places.delete(uri.toString());
  }

  private diagnosticOf(f: FoundId, range: vscode.Range): vscode.Diagnostic {
    const m = f.model;
    const d =
      f.kind === 'retired'
        ? new vscode.Diagnostic(
            range,
            t('{0} was retired on {1} and is no longer served.', m!.namespace, dayLabel(m!.deprecated_on!)),
            vscode.DiagnosticSeverity.Error,
          )
        : f.kind === 'soon'
          ? new vscode.Diagnostic(
              range,
              t('{0} is deprecated: it stops being served on {1}.', m!.namespace, dayLabel(m!.deprecated_on!)),
              vscode.DiagnosticSeverity.Warning,
            )
          : new vscode.Diagnostic(
              range,
              t(
                '{0} is not in the model catalogue, which has {1} other models of {2}.',
                f.text,
                this.index!.providerSize(f.provider!),
                f.provider!,
              ),
              vscode.DiagnosticSeverity.Information,
            );
    d.source = DIAGNOSTIC_SOURCE;
    d.code = CODES[f.kind as keyof typeof CODES];
    return d;
  }

  private showCount(): void {
    const all = [...this.places.values()].flat();
    if (all.length === 0) return this.status.hide();
    const retired = all.filter((p) => p.found.kind === 'retired').length;
    this.status.text = `$(warning) ${all.length === 1 ? t('1 deprecated model id') : t('{0} deprecated model ids', all.length)}`;
    this.status.tooltip = t(
      'In the workspace: {0} no longer served, {1} to be retired. Click to list them.',
      retired,
      all.length - retired,
    );
    this.status.show();
  }

  /** The deprecated ids found in the workspace, for the list (and the tests). */
  deprecatedPlaces(): Place[] {
    return [...this.places.values()].flat();
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!this.index) return undefined;
    const line = document.lineAt(position.line);
    const found = this.index.at(line.text, position.character);
    if (!found?.model) return undefined;
    const markdown = new vscode.MarkdownString(modelMarkdown(found.model), true);
    markdown.isTrusted = {
      enabledCommands: [
        'llmSpaces.refreshLocalModels',
        'llmSpaces.connect',
        'llmSpaces.openWalkthrough',
        'llmSpaces.refreshModels',
      ],
    };
    const note = this.sourceNote();
    if (note) markdown.appendMarkdown(`\n\n---\n\n${note}`);
    return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
  }

  /** Says when the catalogue is the copy on disk, and when that copy is old. */
  sourceNote(): string | null {
    if (!this.source || this.source.live) return null;
    const when = whenLabel(this.source.savedAt);
    const stale = Date.now() - this.source.savedAt > STALE_AFTER_MS;
    return stale
      ? `$(history) ${t('From the catalogue saved on {0}, which is more than a week old and may be out of date.', when)} [${t('Refresh')}](command:llmSpaces.refreshModels)`
      : `$(history) ${t('From the catalogue saved on {0}; the service has not been asked since this window opened.', when)}`;
  }

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    if (!this.index) return [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (
        diagnostic.source !== DIAGNOSTIC_SOURCE ||
        (diagnostic.code !== CODES.retired && diagnostic.code !== CODES.soon)
      )
        continue;
      const found = this.index.at(document.lineAt(diagnostic.range.start.line).text, diagnostic.range.start.character);
      if (!found?.model) continue;
      const successors = this.index.successors(found.model).slice(0, 3);
      if (successors.length === 0) {
        const none = new vscode.CodeAction(
          t(
            'No successor for {0} in the catalogue (same provider, same capabilities, as large a context window)',
            found.model.namespace,
          ),
          vscode.CodeActionKind.Empty,
        );
        none.disabled = { reason: t('Nothing in the catalogue can replace it like for like.') };
        actions.push(none);
        continue;
      }
      for (const successor of successors) {
        const replacement = this.index.replacementFor(found, successor);
        const action = new vscode.CodeAction(
          t('Replace with {0} ({1})', replacement, priceLine(successor)),
          vscode.CodeActionKind.QuickFix,
        );
        action.diagnostics = [diagnostic];
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(document.uri, diagnostic.range, replacement);
        actions.push(action);
      }
    }
    return actions;
  }

  dispose(): void {
    this.pending.forEach((timer) => clearTimeout(timer));
    this.disposables.forEach((d) => d.dispose());
  }
}

/** Offsets to positions for a file that is not open, by its line starts. */
function lineIndex(text: string): (offset: number) => vscode.Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return new vscode.Position(low, offset - starts[low]!);
  };
}

/** The list behind the status bar count: each deprecated id, where it is; choosing one opens it there. */
export async function showDeprecatedModelIds(ids: WorkspaceModelIds): Promise<void> {
  await ids.scanWorkspace();
  const places = ids.deprecatedPlaces();
  if (places.length === 0) {
    void vscode.window.showInformationMessage(t('No deprecated model id in the workspace.'));
    return;
  }
  const pick = await vscode.window.showQuickPick(
    places.map((p) => ({
      label: `${p.found.kind === 'retired' ? '$(error)' : '$(warning)'} ${p.found.text}`,
      description: `${vscode.workspace.asRelativePath(p.uri, false)}:${p.range.start.line + 1}`,
      detail:
        p.found.kind === 'retired'
          ? t('no longer served since {0}', dayLabel(p.found.model!.deprecated_on!))
          : t('stops being served on {0}', dayLabel(p.found.model!.deprecated_on!)),
      place: p,
    })),
    {
      title: t('Deprecated Model Ids in the Workspace'),
      placeHolder: t('Choose one to open it'),
      matchOnDescription: true,
    },
  );
  if (pick) await vscode.window.showTextDocument(pick.place.uri, { selection: pick.place.range });
}
