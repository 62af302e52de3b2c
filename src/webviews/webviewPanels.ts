// Owns every webview panel: the playgrounds (several may be open; "Send Selection" goes to the one
// used last), the Space settings custom editor (one per Space), the comparison of models, and the
// organization panel. Panels
// come back after a window reload through their serializers; the webviews restore their own state.
// The settings editor comes back as any editor does, with unsaved changes through hot exit.
import * as vscode from 'vscode';
import { api } from '../lazy/api';
import { panels } from '../lazy/panels';
import type { CompareStart } from '../shared/protocol/compare';
import type { CompareDeps, ComparePanel } from './compare/comparePanel';
import type { OrganizationDeps, OrganizationPanel } from './organization/organizationPanel';
import type { PlaygroundDeps, PlaygroundPanel } from './playground/playgroundPanel';
import type {
  SettingsDeps,
  SpaceSettingsDocument,
  SpaceSettingsEditor,
  SpaceSettingsEditors,
} from './spaceSettings/spaceSettingsEditor';
import { spaceUri } from './spaceUris';
import {
  COMPARE_VIEW_TYPE,
  ORGANIZATION_VIEW_TYPE,
  PLAYGROUND_VIEW_TYPE,
  SPACE_SETTINGS_EDITOR,
  SPACE_SETTINGS_VIEW_TYPE,
} from './viewTypes';

const t = vscode.l10n.t;

export class WebviewPanels implements vscode.Disposable {
  readonly playgrounds: PlaygroundPanel[] = [];
  /** The settings editors' provider, once one was opened. */
  settingsEditors: SpaceSettingsEditors | undefined;
  private readonly settingsChanged = new vscode.EventEmitter<
    vscode.CustomDocumentContentChangeEvent<SpaceSettingsDocument>
  >();
  organization: OrganizationPanel | undefined;
  compare: ComparePanel | undefined;
  /** What the panels work with: the services, and the way from one panel to another. */
  private readonly s: PlaygroundDeps & SettingsDeps & OrganizationDeps & CompareDeps;
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    services: Omit<PlaygroundDeps & SettingsDeps & OrganizationDeps & CompareDeps, 'compare' | 'openSettings'>,
  ) {
    this.s = {
      ...services,
      compare: (start) => void this.openCompare(start),
      openSettings: (id) => void this.openSpaceSettings(id),
    };
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastEditor = editor;
      }),
      vscode.window.registerWebviewPanelSerializer(PLAYGROUND_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => void this.adoptPlayground(panel),
      }),
      vscode.window.registerWebviewPanelSerializer(SPACE_SETTINGS_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          // The state a settings webview kept: enough to reopen the same Space after a reload.
          const spaceId = api().presets.restoredSettingsSpace(state);
          panel.dispose();
          if (spaceId) await this.openSpaceSettings(spaceId);
        },
      }),
      vscode.window.registerCustomEditorProvider(SPACE_SETTINGS_EDITOR, this.settingsProvider(), {
        webviewOptions: { retainContextWhenHidden: true },
        supportsMultipleEditorsPerDocument: false,
      }),
      this.settingsChanged,
      vscode.window.registerWebviewPanelSerializer(ORGANIZATION_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => void this.adoptOrganization(panel),
      }),
      vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => void this.adoptCompare(panel, null),
      }),
    );
  }

  /** A new playground, on the given Space if any. */
  openPlayground(appId?: string): PlaygroundPanel {
    const n = this.playgrounds.length + 1;
    const panel = vscode.window.createWebviewPanel(
      PLAYGROUND_VIEW_TYPE,
      n > 1 ? t('Playground {0}', n) : t('Playground'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
    );
    const playground = this.adoptPlayground(panel);
    if (appId) playground.useSpace(appId);
    return playground;
  }

  /** The playground used last, or a new one. */
  private lastPlayground(): PlaygroundPanel {
    return this.playgrounds.at(-1) ?? this.openPlayground();
  }

  /** The playground used last (or a new one) with `prompt` in its prompt box. */
  sendToPlayground(prompt: string, appId: string | null): PlaygroundPanel {
    const target = this.lastPlayground();
    target.draft(prompt, appId);
    return target;
  }

  /** The playground used last (or a new one) showing this conversation of the Space. */
  openConversation(appId: string, conversation: { id: string; name: string }): PlaygroundPanel {
    const target = this.lastPlayground();
    target.useConversation(appId, conversation);
    return target;
  }

  /** The playground used last (or a new one) with this model chosen. */
  useModelInPlayground(namespace: string): PlaygroundPanel {
    const target = this.lastPlayground();
    target.useModel(namespace);
    return target;
  }

  /** The open settings editor of each Space, by Space id. */
  get settings(): ReadonlyMap<string, SpaceSettingsEditor> {
    return this.settingsEditors?.open ?? new Map();
  }

  /** The Space's settings editor, revealed if it is open, else opened in the active group. */
  async openSpaceSettings(spaceId: string): Promise<SpaceSettingsEditor | undefined> {
    const open = this.settings.get(spaceId);
    if (open) {
      open.panel.reveal();
      return open;
    }
    const name = (await this.s.spaces.list().catch(() => [])).find((space) => space.id === spaceId)?.name ?? t('Space');
    await vscode.commands.executeCommand(
      'vscode.openWith',
      spaceUri(spaceId, name),
      SPACE_SETTINGS_EDITOR,
      vscode.ViewColumn.Active,
    );
    return this.settings.get(spaceId);
  }

  /** The settings editors' provider, registered at activation; the editors' code loads on first use. */
  private settingsProvider(): vscode.CustomEditorProvider<SpaceSettingsDocument> {
    const editors = () =>
      (this.settingsEditors ??= new (panels().SpaceSettingsEditors)(this.s, this.extensionUri, this.settingsChanged, {
        open: (id) => void this.openSpaceSettings(id),
      }));
    return {
      onDidChangeCustomDocument: this.settingsChanged.event,
      openCustomDocument: (uri, context) => editors().openCustomDocument(uri, context),
      resolveCustomEditor: (document, panel) => editors().resolveCustomEditor(document, panel),
      saveCustomDocument: (document) => editors().saveCustomDocument(document),
      saveCustomDocumentAs: () => editors().saveCustomDocumentAs(),
      revertCustomDocument: (document) => editors().revertCustomDocument(document),
      backupCustomDocument: (document, context) => editors().backupCustomDocument(document, context),
    };
  }

  openOrganization(): OrganizationPanel {
    if (this.organization) {
      this.organization.panel.reveal();
      return this.organization;
    }
    return this.adoptOrganization(
      vscode.window.createWebviewPanel(ORGANIZATION_VIEW_TYPE, t('Organization'), vscode.ViewColumn.Active),
    );
  }

  /** The comparison (one at a time), with these models and prompt. */
  openCompare(start: CompareStart): ComparePanel {
    if (this.compare) {
      this.compare.show(start);
      return this.compare;
    }
    return this.adoptCompare(
      vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, t('Compare Models'), {
        viewColumn: vscode.ViewColumn.Beside,
        preserveFocus: false,
      }),
      start,
    );
  }

  private adoptCompare(panel: vscode.WebviewPanel, start: CompareStart | null): ComparePanel {
    const compare = new (panels().ComparePanel)(panel, this.s, this.extensionUri, start);
    this.compare = compare;
    compare.onDidDispose(() => {
      if (this.compare === compare) this.compare = undefined;
    });
    return compare;
  }

  private adoptPlayground(panel: vscode.WebviewPanel): PlaygroundPanel {
    const playground = new (panels().PlaygroundPanel)(panel, this.s, this.extensionUri, () => this.lastEditor);
    this.playgrounds.push(playground);
    const remove = () => {
      const at = this.playgrounds.indexOf(playground);
      if (at >= 0) this.playgrounds.splice(at, 1);
    };
    // The most recently focused playground moves to the end: it receives the next selection.
    const focused = panel.onDidChangeViewState(
      (e) => e.webviewPanel.active && (remove(), this.playgrounds.push(playground)),
    );
    playground.onDidDispose(() => {
      remove();
      focused.dispose();
    });
    return playground;
  }

  private adoptOrganization(panel: vscode.WebviewPanel): OrganizationPanel {
    const org = new (panels().OrganizationPanel)(panel, this.s, this.extensionUri);
    this.organization = org;
    org.onDidDispose(() => {
      if (this.organization === org) this.organization = undefined;
    });
    return org;
  }

  dispose(): void {
    [...this.playgrounds, ...this.settings.values(), this.organization, this.compare].forEach((p) => p?.dispose());
    this.disposables.forEach((d) => d.dispose());
  }
}
