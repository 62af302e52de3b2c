// The Space settings editor, host side: one panel per Space. It sends only the fields the user changed,
// refuses to overwrite a change made elsewhere without asking, and asks before unsaved edits are lost.
import * as vscode from 'vscode';
import type { SpaceUpdateResponse } from '../api/schemas';
import type { Connection } from '../connection/connection';
import type { CatalogueStore } from '../stores/catalogueStore';
import type { SpacesStore } from '../stores/spacesStore';
import { SpaceChanges, SpaceSettingsCalls, rulesOf, type Handlers, type SpaceSettingsEvent, type SpaceSettingsResults } from '../shared/protocol';
import { readAttachments } from './attachments';
import { WebviewChannel, type ChannelDeps } from './webviewChannel';
import { PanelHost } from './panelHost';
import { webviewHtml } from './webviewShell';

const t = vscode.l10n.t;

type SettingsCallsT = typeof SpaceSettingsCalls;
export type ConflictChoice = 'overwrite' | 'reload' | 'cancel';
export type CloseChoice = 'save' | 'discard' | 'keep';

/** What a settings editor works with. */
export interface SettingsDeps extends ChannelDeps {
  connection: Connection;
  spaces: SpacesStore;
  catalogue: CatalogueStore;
}

/** What the editor needs from its owner: to open another Space's editor, or reopen this one. */
export interface SettingsHost {
  open(spaceId: string, draft?: SpaceChanges | null): void;
}

export class SpaceSettingsPanel extends PanelHost {
  readonly channel: WebviewChannel<SettingsCallsT, SpaceSettingsResults, SpaceSettingsEvent>;
  private dirty = false;
  private draft: SpaceChanges | null;
  private name: string;

  /** Asks when the Space changed elsewhere since the editor loaded it; replaceable in tests. */
  askConflict: (name: string, modifiedOn: string) => Thenable<ConflictChoice> = async (name, modifiedOn) => {
    const overwrite = t('Overwrite');
    const reload = t('Reload Theirs');
    const choice = await vscode.window.showWarningMessage(t('"{0}" was changed elsewhere (at {1}) since this editor loaded it.', name, modifiedOn), { modal: true, detail: t('Overwrite keeps your changes over theirs; Reload Theirs discards your unsaved changes.') }, overwrite, reload);
    return choice === overwrite ? 'overwrite' : choice === reload ? 'reload' : 'cancel';
  };

  /** Asks what to do with unsaved changes once the editor was closed; replaceable in tests. */
  askClose: (name: string) => Thenable<CloseChoice> = async (name) => {
    const save = t('Save');
    const discard = t("Don't Save");
    const choice = await vscode.window.showWarningMessage(t('Save your changes to the settings of "{0}"?', name), { modal: true, detail: t('Cancel reopens the editor with your changes.') }, save, discard);
    return choice === save ? 'save' : choice === discard ? 'discard' : 'keep';
  };

  constructor(
    panel: vscode.WebviewPanel,
    private readonly s: SettingsDeps,
    extensionUri: vscode.Uri,
    readonly spaceId: string,
    draft: SpaceChanges | null,
    private readonly host: SettingsHost,
  ) {
    super(panel, extensionUri);
    this.draft = draft;
    this.name = panel.title;
    this.channel = new WebviewChannel(panel.webview, SpaceSettingsCalls, this.handlers(), s, t('Space settings'));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, { script: 'spaceSettings', styles: ['settings'], title: panel.title });
    this.disposables.push(this.channel, panel.onDidDispose(() => void this.closed()));
  }

  get hasUnsavedChanges(): boolean {
    return this.dirty;
  }

  private handlers(): Handlers<SettingsCallsT, SpaceSettingsResults> {
    return {
      load: async () => {
        const [view, spaces, models, prompts, assistants] = await Promise.all([
          this.s.spaces.detail(this.spaceId, true),
          this.s.spaces.list(),
          this.s.catalogue.models(),
          this.s.connection.call((c) => c.listPrompts('all')),
          this.s.spaces.assistants(this.spaceId),
        ]);
        this.named(view);
        return {
          view,
          spaces: spaces.filter((space) => space.id !== this.spaceId).map((space) => ({ id: space.id, name: space.name ?? space.id })),
          models: models.flatMap((m) => (m.id ? [{ id: m.id, namespace: m.namespace }] : [])),
          prompts: prompts.map((p) => ({ id: p.id, title: p.title })),
          assistants: (assistants ?? []).map((a) => ({ id: a.id, name: a.name, versions: a.versions.map((v, i) => ({ id: v.id, label: t('version {0}', i + 1) })) })),
          draft: this.draft,
          rules: rulesOf(SpaceChanges),
        };
      },
      save: ({ changes, baseModifiedOn }) => this.save(changes, baseModifiedOn),
      setDirty: async ({ dirty, changes }) => {
        this.dirty = dirty;
        this.draft = dirty ? changes : null;
        this.panel.title = dirty ? `● ${this.name}` : this.name;
        return null;
      },
      openSpace: async ({ spaceId }) => {
        this.host.open(spaceId);
        return null;
      },
      chooseLogo: async () => {
        const uris = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: t('Use as Logo'), filters: { [t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } });
        return uris ? ((await readAttachments(uris, 'images'))[0]?.dataUrl ?? null) : null;
      },
    };
  }

  private async save(changes: SpaceChanges, baseModifiedOn: string | null): Promise<SpaceSettingsResults['save']> {
    const current = await this.s.spaces.detail(this.spaceId, true);
    if (!current.main.current_user_permissions.includes('edit')) throw new Error(t('This token may not edit "{0}".', this.name));
    const moved = current.main.app.modified_on ?? null;
    if (baseModifiedOn !== moved) {
      const choice = await this.askConflict(this.name, moved ?? '?');
      if (choice === 'cancel') return { kind: 'cancelled' };
      if (choice === 'reload') return { kind: 'reloaded', view: current };
    }
    const view = await this.s.spaces.update({ id: this.spaceId, ...changes });
    this.afterSave(view);
    return { kind: 'saved', view };
  }

  private afterSave(view: SpaceUpdateResponse): void {
    this.dirty = false;
    this.draft = null;
    this.named(view);
  }

  private named(view: SpaceUpdateResponse): void {
    this.name = view.main.app.name ?? this.spaceId;
    this.panel.title = this.dirty ? `● ${this.name}` : this.name;
  }

  /** The panel is gone; unsaved changes are saved, dropped, or brought back in a new editor. */
  private async closed(): Promise<void> {
    const draft = this.dirty ? this.draft : null;
    this.dispose();
    if (!draft) return;
    const choice = await this.askClose(this.name);
    if (choice === 'keep') return this.host.open(this.spaceId, draft);
    if (choice === 'discard') return;
    try {
      await this.s.spaces.update({ id: this.spaceId, ...draft });
    } catch (error) {
      void vscode.window.showErrorMessage(this.s.errors.describe(error, t('Saving "{0}"', this.name)).message);
      this.host.open(this.spaceId, draft);
    }
  }
}
