// The Space settings editor, host side: a custom editor over one document per Space, so dirty state,
// Save, Save All, Revert, the prompt on close and hot exit are VS Code's own. The document holds the
// user's unsaved changes (only the fields changed); saving sends just those, and refuses to overwrite
// a change made elsewhere since the editor loaded the Space without asking.
import * as vscode from 'vscode';
import { z } from 'zod';
import type { SpaceUpdateResponse } from '../../api/schemas';
import type { Connection } from '../../connection/connection';
import type { CatalogueStore } from '../../stores/catalogueStore';
import type { SpacesStore } from '../../stores/spacesStore';
import { rulesOf, type Handlers } from '../../shared/protocol/envelope';
import {
  SpaceChanges,
  SpaceDraft,
  SpaceSettingsCalls,
  type SpaceSettingsEvent,
  type SpaceSettingsResults,
} from '../../shared/protocol/spaceSettings';
import { readAttachments } from '../panels/attachments';
import { PanelHost } from '../panels/panelHost';
import { saveSpace, type ConflictChoice } from '../panels/spaceSave';
import { spaceIdOf } from '../spaceUris';
import { WebviewChannel, toCallError, type ChannelDeps } from '../panels/webviewChannel';
import { webviewHtml } from '../panels/webviewShell';
import { whenLabel } from '../../shared/labels';

const t = vscode.l10n.t;

type SettingsCallsT = typeof SpaceSettingsCalls;
type ContentChange = vscode.CustomDocumentContentChangeEvent<SpaceSettingsDocument>;

/** What a settings editor works with. */
export interface SettingsDeps extends ChannelDeps {
  connection: Connection;
  spaces: SpacesStore;
  catalogue: CatalogueStore;
}

/** What the editors need from their owner: to open another Space's editor. */
export interface SettingsHost {
  open(spaceId: string): void;
}

/** One Space's settings as the editor holds them: the changes not saved yet, and what they were made on. */
export class SpaceSettingsDocument implements vscode.CustomDocument {
  /** The changes the form has (only what differs from the Space as loaded), or null when there are none. */
  draft: SpaceDraft | null;
  /** `modified_on` of the version the changes were made on (null: the service gave none; undefined: not loaded yet). */
  base: string | null | undefined;
  /** The Space's name, for questions and messages. */
  name: string;
  private readonly happened = new vscode.EventEmitter<SpaceSettingsEvent>();
  /** What became of a save or a revert, for the webview. */
  readonly onDidHappen = this.happened.event;

  constructor(
    readonly uri: vscode.Uri,
    readonly spaceId: string,
    kept: Backup | null,
  ) {
    this.draft = kept?.draft ?? null;
    this.base = kept?.base;
    this.name = uri.path.replace(/^\//, '') || spaceId;
  }

  tell(event: SpaceSettingsEvent): void {
    this.happened.fire(event);
  }

  dispose(): void {
    this.happened.dispose();
  }
}

/** What a hot-exit backup keeps. */
const Backup = z.object({ draft: SpaceDraft.nullable(), base: z.string().nullable().optional() });
type Backup = z.infer<typeof Backup>;

export class SpaceSettingsEditors implements vscode.CustomEditorProvider<SpaceSettingsDocument> {
  /** The open editor of each Space, by Space id. */
  readonly open = new Map<string, SpaceSettingsEditor>();
  readonly onDidChangeCustomDocument: vscode.Event<ContentChange>;

  /** Asks when the Space changed elsewhere since the editor loaded it; replaceable in tests. */
  askConflict: (name: string, modifiedOn: string | null) => Thenable<ConflictChoice> = async (name, modifiedOn) => {
    const overwrite = t('Overwrite');
    const reload = t('Reload Theirs');
    const when = modifiedOn ? t('at {0}', whenLabel(modifiedOn)) : t('at an unknown time');
    const choice = await vscode.window.showWarningMessage(
      t('"{0}" was changed elsewhere ({1}) since this editor loaded it.', name, when),
      {
        modal: true,
        detail: t('Overwrite keeps your changes over theirs; Reload Theirs discards your unsaved changes.'),
      },
      overwrite,
      reload,
    );
    return choice === overwrite ? 'overwrite' : choice === reload ? 'reload' : 'cancel';
  };

  constructor(
    private readonly s: SettingsDeps,
    private readonly extensionUri: vscode.Uri,
    private readonly changed: vscode.EventEmitter<ContentChange>,
    private readonly host: SettingsHost,
  ) {
    this.onDidChangeCustomDocument = changed.event;
  }

  async openCustomDocument(uri: vscode.Uri, context: vscode.CustomDocumentOpenContext): Promise<SpaceSettingsDocument> {
    const spaceId = spaceIdOf(uri);
    if (!spaceId) throw new Error(t('This address does not name a Space: {0}', uri.toString(true)));
    let kept: Backup | null = null;
    if (context.backupId) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(context.backupId)));
      kept = Backup.parse(JSON.parse(text));
    }
    return new SpaceSettingsDocument(uri, spaceId, kept);
  }

  resolveCustomEditor(document: SpaceSettingsDocument, panel: vscode.WebviewPanel): void {
    const editor = new SpaceSettingsEditor(panel, this.s, this.extensionUri, document, {
      edited: () => this.changed.fire({ document }),
      open: (id) => this.host.open(id),
    });
    this.open.set(document.spaceId, editor);
    editor.onDidDispose(() => this.open.get(document.spaceId) === editor && this.open.delete(document.spaceId));
  }

  /** Saves the changes to the Space; a refusal leaves the document dirty and says why in the form too. */
  async saveCustomDocument(document: SpaceSettingsDocument): Promise<void> {
    const draft = document.draft;
    if (!draft) return;
    try {
      const saved = await saveSpace(
        this.s.spaces,
        { spaceId: document.spaceId, name: document.name, base: document.base, changes: draft },
        async (moved) => {
          const choice = await this.askConflict(document.name, moved);
          if (choice === 'cancel')
            document.tell({
              type: 'notSaved',
              error: { message: t('Not saved: the Space was changed elsewhere.'), fields: {} },
            });
          return choice;
        },
      );
      this.settled(document, saved.view, saved.theirs);
    } catch (error) {
      if (error instanceof vscode.CancellationError) throw error;
      const failure = toCallError(error, t('Saving "{0}"', document.name), this.s.errors);
      document.tell({ type: 'notSaved', error: failure });
      throw new Error(failure.message);
    }
  }

  private settled(document: SpaceSettingsDocument, view: SpaceUpdateResponse, reloaded: boolean): void {
    document.draft = null;
    document.base = view.main.app.modified_on ?? null;
    document.name = view.main.app.name ?? document.name;
    document.tell({ type: 'saved', view, reloaded });
  }

  saveCustomDocumentAs(): Promise<void> {
    return Promise.reject(new Error(t("A Space's settings are saved to the Space itself; use Save.")));
  }

  async revertCustomDocument(document: SpaceSettingsDocument): Promise<void> {
    document.draft = null;
    document.base = undefined;
    document.tell({ type: 'reload' });
  }

  async backupCustomDocument(
    document: SpaceSettingsDocument,
    context: vscode.CustomDocumentBackupContext,
  ): Promise<vscode.CustomDocumentBackup> {
    const kept: Backup = { draft: document.draft, base: document.base ?? null };
    await vscode.workspace.fs.writeFile(context.destination, new TextEncoder().encode(JSON.stringify(kept)));
    return {
      id: context.destination.toString(),
      delete: () => void Promise.resolve(vscode.workspace.fs.delete(context.destination)).catch(() => undefined),
    };
  }
}

/** The form of one Space's settings document. */
export class SpaceSettingsEditor extends PanelHost {
  readonly channel: WebviewChannel<SettingsCallsT, SpaceSettingsResults, SpaceSettingsEvent>;
  private readonly edited = new vscode.EventEmitter<boolean>();
  /** The form told its changes (whether it has any); it does after each change and each time it is drawn. */
  readonly onDidEdit = this.edited.event;
  private markLoaded: () => void = () => undefined;
  /** Settles once the form has loaded the Space for the first time. */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  constructor(
    panel: vscode.WebviewPanel,
    private readonly s: SettingsDeps,
    extensionUri: vscode.Uri,
    readonly document: SpaceSettingsDocument,
    private readonly host: SettingsHost & { edited(): void },
  ) {
    super(panel, extensionUri);
    panel.title = document.name;
    this.channel = new WebviewChannel(panel.webview, SpaceSettingsCalls, this.handlers(), s, t('Space settings'));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, {
      script: 'spaceSettings',
      styles: ['settings'],
      title: document.name,
    });
    this.disposables.push(
      this.channel,
      this.edited,
      panel.onDidDispose(() => this.dispose()),
      document.onDidHappen((event) => {
        if (event.type === 'saved') panel.title = document.name;
        void this.channel.post(event);
      }),
    );
  }

  get spaceId(): string {
    return this.document.spaceId;
  }

  private handlers(): Handlers<SettingsCallsT, SpaceSettingsResults> {
    const document = this.document;
    return {
      load: async () => {
        const [view, spaces, models, prompts, assistants] = await Promise.all([
          this.s.spaces.detail(document.spaceId, true),
          this.s.spaces.list(),
          this.s.catalogue.models(),
          this.s.connection.call((c) => c.listPrompts('all')),
          this.s.spaces.assistants(document.spaceId),
        ]);
        // Changes restored after a hot exit keep the version they were made on, so saving them still
        // notices a change made elsewhere in the meantime.
        if (document.base === undefined || !document.draft) document.base = view.main.app.modified_on ?? null;
        document.name = view.main.app.name ?? document.spaceId;
        this.panel.title = document.name;
        this.markLoaded();
        return {
          view,
          spaces: spaces
            .filter((space) => space.id !== document.spaceId)
            .map((space) => ({ id: space.id, name: space.name ?? space.id })),
          models: models.flatMap((m) => (m.id ? [{ id: m.id, namespace: m.namespace }] : [])),
          prompts: prompts.map((p) => ({ id: p.id, title: p.title })),
          assistants: (assistants ?? []).map((a) => ({
            id: a.id,
            name: a.name,
            versions: a.versions.map((v, i) => ({ id: v.id, label: t('version {0}', i + 1) })),
          })),
          draft: document.draft,
          rules: rulesOf(SpaceChanges),
        };
      },
      edit: async ({ dirty, changes }) => {
        document.draft = dirty ? changes : null;
        if (dirty) this.host.edited();
        this.edited.fire(dirty);
        return null;
      },
      save: async () => {
        const had = document.draft !== null;
        // Saved even without changes: VS Code may still count the document dirty (edits typed back).
        await vscode.workspace.save(document.uri);
        if (!had) document.tell({ type: 'notSaved', error: { message: t('Nothing to save.'), fields: {} } });
        return null;
      },
      revert: async () => {
        // VS Code reverts the active editor, which this is when its own button was pressed.
        if (this.panel.active) await vscode.commands.executeCommand('workbench.action.files.revert');
        return null;
      },
      openSpace: async ({ spaceId }) => {
        this.host.open(spaceId);
        return null;
      },
      chooseLogo: async () => {
        const uris = await vscode.window.showOpenDialog({
          canSelectMany: false,
          openLabel: t('Use as Logo'),
          filters: { [t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
        });
        return uris ? ((await readAttachments(uris, 'images'))[0]?.dataUrl ?? null) : null;
      },
    };
  }
}
