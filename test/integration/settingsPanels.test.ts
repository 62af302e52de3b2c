// The Space settings editor and the organization panel in the real extension host, and what every
// panel shares: the strict HTML shell and no token in anything a webview receives.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OrganizationData } from '../../src/shared/protocol/organization';
import type { SpaceDraft, SpaceEditorData, SpaceSettingsEvent } from '../../src/shared/protocol/spaceSettings';
import type { SpaceSettingsEditor } from '../../src/webviews/spaceSettings/spaceSettingsEditor';
import { callWebview, extension, serviceClient, waitFor } from './support';

const config = () => vscode.workspace.getConfiguration('llmSpaces');

async function starterSpace(): Promise<string> {
  const client = await serviceClient(await extension());
  return (await client.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
}

async function openEditor(spaceId: string): Promise<SpaceSettingsEditor> {
  const api = await extension();
  await vscode.commands.executeCommand('llmSpaces.openSpaceSettings', spaceId);
  const editor = await waitFor(() => api.webviews.settings.get(spaceId), 'the settings editor');
  // The form (a real page) loads the Space itself; what the test does comes after, as a user's would.
  await editor.loaded;
  return editor;
}

/** VS Code's own dirty mark on the editor's tab. */
const tabDirty = (editor: SpaceSettingsEditor) =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find(
      (tab) =>
        tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === editor.document.uri.toString(),
    )?.isDirty;

/** The form's changes, and VS Code's dirty mark on the tab for them. */
async function edit(editor: SpaceSettingsEditor, changes: SpaceDraft): Promise<void> {
  await callWebview(editor.channel, 'edit', { dirty: true, changes });
  await waitFor(() => tabDirty(editor), 'VS Code to mark the editor dirty');
}

/**
 * The form's changes, then its Save button; returns what the document told the form. After a save the
 * form (a real page here) draws the saved Space and says it has no changes; that is waited for, so it
 * cannot land on the next test step's changes.
 */
async function editAndSave(editor: SpaceSettingsEditor, changes: SpaceDraft): Promise<SpaceSettingsEvent[]> {
  await edit(editor, changes);
  const drawn = new Promise<void>((resolve) => {
    const sub = editor.onDidEdit((dirty) => !dirty && (sub.dispose(), resolve()));
    setTimeout(() => (sub.dispose(), resolve()), 10_000);
  });
  const events = (await callWebview(editor.channel, 'save', {})).events as SpaceSettingsEvent[];
  if (events.some((e) => e.type === 'saved')) await drawn;
  return events;
}

async function closeUnsaved(editor: SpaceSettingsEditor | undefined): Promise<void> {
  if (!editor) return;
  if (tabDirty(editor)) await vscode.commands.executeCommand('workbench.action.files.revert', editor.document.uri);
  const tab = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === editor.document.uri.toString());
  if (tab) await vscode.window.tabGroups.close(tab);
}

describe('Space settings editor', () => {
  let editor: SpaceSettingsEditor | undefined;
  afterEach(async () => {
    await closeUnsaved(editor);
    editor = undefined;
  });

  it('opens as a custom editor named after the Space, and saves only the changed fields through VS Code', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
    assert.ok(loaded.ok, loaded.error?.message);
    assert.ok(loaded.result.view.main.current_user_permissions.includes('edit'));
    const before = loaded.result.view.main.app;
    assert.equal(editor.panel.title, before.name);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(
      tab?.input instanceof vscode.TabInputCustom && tab.input.viewType === 'llmSpaces.spaceSettingsEditor',
      'the active tab is the custom editor',
    );
    assert.equal(tab.label, before.name);
    const events = await editAndSave(editor, { weights: { cost: 0.25 }, policies: { max_same_model_retries: 3 } });
    assert.deepEqual(
      events.map((e) => e.type),
      ['saved'],
    );
    await waitFor(() => tabDirty(editor!) === false, 'saving to clear the dirty mark');
    const after = (await client.getSpace(spaceId)).main.app;
    assert.equal(after.weights?.cost, 0.25);
    assert.equal(after.weights?.quality, before.weights?.quality, 'a weight not sent is unchanged');
    assert.equal(after.policies?.max_same_model_retries, 3);
    assert.equal(after.policies?.privacy_level, before.policies?.privacy_level);
    assert.equal(after.name, before.name);
  });

  it('refuses what is not valid with errors on the offending fields, stays dirty, and changes nothing', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    await callWebview(editor.channel, 'load', {});
    const before = (await client.getSpace(spaceId)).main.app;
    const failedFields = (events: SpaceSettingsEvent[]) => {
      const failed = events.find((e) => e.type === 'notSaved');
      assert.ok(failed?.type === 'notSaved', JSON.stringify(events));
      return Object.keys(failed.error.fields).sort();
    };
    assert.deepEqual(
      failedFields(
        await editAndSave(editor, {
          name: 'Never saved',
          policies: { prompt_id: '00000000-0000-4000-8000-000000000000' },
        }),
      ),
      ['policies.prompt_id'],
    );
    assert.deepEqual(failedFields(await editAndSave(editor, { weights: { cost: 0, latency: 0, quality: 0 } })), [
      'weights',
    ]);
    assert.deepEqual(
      failedFields(
        await editAndSave(editor, { settings: { temperature: 3 }, policies: { max_switch_model_retries: 11 } }),
      ),
      ['policies.max_switch_model_retries', 'settings.temperature'],
    );
    assert.equal(tabDirty(editor), true, 'a refused save leaves the changes unsaved');
    const after = (await client.getSpace(spaceId)).main.app;
    assert.equal(after.name, before.name);
    assert.equal(after.modified_on, before.modified_on);
  });

  it('asks before overwriting a change made elsewhere since the editor loaded', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    await callWebview(editor.channel, 'load', {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.updateSpace({ id: spaceId, description: 'Changed elsewhere' });
    const editors = api.webviews.settingsEditors!;
    const asked: string[] = [];
    editors.askConflict = async (name) => (asked.push(name), 'cancel');
    const cancelled = await editAndSave(editor, { description: 'Mine' });
    assert.deepEqual(
      cancelled.map((e) => e.type),
      ['notSaved'],
    );
    assert.equal(asked.length, 1);
    assert.equal(tabDirty(editor), true);
    assert.equal((await client.getSpace(spaceId)).main.app.description, 'Changed elsewhere', 'nothing was overwritten');
    editors.askConflict = async () => 'reload';
    const reloaded = await editAndSave(editor, { description: 'Mine' });
    assert.ok(
      reloaded[0]?.type === 'saved' &&
        reloaded[0].reloaded &&
        reloaded[0].view.main.app.description === 'Changed elsewhere',
      JSON.stringify(reloaded),
    );
    await waitFor(() => tabDirty(editor!) === false, 'taking theirs to leave nothing unsaved');
    await client.updateSpace({ id: spaceId, description: 'Changed elsewhere again' });
    editors.askConflict = async () => 'overwrite';
    const overwritten = await editAndSave(editor, { description: 'Mine' });
    assert.equal(overwritten[0]?.type, 'saved');
    assert.equal((await client.getSpace(spaceId)).main.app.description, 'Mine');
  });

  it("reverts through VS Code's Revert, and the form loads the Space without the changes", async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    await callWebview(editor.channel, 'load', {});
    await edit(editor, { description: 'Reverted away' });
    const told: SpaceSettingsEvent[] = [];
    const sub = editor.channel.onDidPost((m) => m.type === 'event' && told.push(m.event));
    await vscode.commands.executeCommand('workbench.action.files.revert', editor.document.uri);
    sub.dispose();
    assert.deepEqual(
      told.map((e) => e.type),
      ['reload'],
    );
    await waitFor(() => tabDirty(editor!) === false, 'the dirty mark to go');
    assert.equal(editor.document.draft, null);
    const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
    assert.equal(loaded.result.draft, null);
    assert.notEqual((await client.getSpace(spaceId)).main.app.description, 'Reverted away');
  });

  it('backs up unsaved changes for hot exit, and a document opened from the backup has them', async () => {
    const api = await extension();
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    await callWebview(editor.channel, 'load', {});
    await callWebview(editor.channel, 'edit', { dirty: true, changes: { name: 'Kept over a restart' } });
    const editors = api.webviews.settingsEditors!;
    const destination = vscode.Uri.file(join(tmpdir(), `llm-spaces-backup-${process.pid}.json`));
    const backup = await editors.backupCustomDocument(editor.document, { destination });
    const restored = await editors.openCustomDocument(editor.document.uri, {
      backupId: backup.id,
      untitledDocumentData: undefined,
    });
    assert.deepEqual(restored.draft, { name: 'Kept over a restart' });
    assert.equal(restored.spaceId, spaceId);
    backup.delete();
    await waitFor(
      async () =>
        !(await vscode.workspace.fs.stat(destination).then(
          () => true,
          () => false,
        )),
      'the backup deleted',
    );
  });

  it('is read-only without the edit permission (a Space key)', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const created = await client.createSpace({ name: 'Key-only Space' });
    const localUrl = api.connection.url!;
    try {
      await config().update('serviceUrl', localUrl, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('llmSpaces.signIn', created.created_key);
      await waitFor(() => api.connection.mode === 'remote', 'remote mode');
      editor = await openEditor(created.id);
      const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
      assert.ok(loaded.ok, loaded.error?.message);
      assert.ok(!loaded.result.view.main.current_user_permissions.includes('edit'));
      const refused = await editAndSave(editor, { name: 'Not allowed' });
      assert.ok(
        refused[0]?.type === 'notSaved' && /may not edit/.test(refused[0].error.message),
        JSON.stringify(refused),
      );
      assert.equal((await client.getSpace(created.id)).main.app.name, 'Key-only Space');
    } finally {
      await closeUnsaved(editor);
      editor = undefined;
      await vscode.commands.executeCommand('llmSpaces.signOut');
      await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(
        async () => (await api.connection.client()) && api.connection.mode === 'local',
        'back on the built-in service',
      );
    }
  });
});

describe('organization panel', () => {
  it('shows integration tokens masked, keeps a token left empty, and clears a group', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    await client.updateIntegrations({
      metrics: { id: 'm-1', token: 'metrics-secret-9876', endpoint: 'https://metrics.example.com' },
    });
    await vscode.commands.executeCommand('llmSpaces.openOrganization');
    const panel = api.webviews.organization!;
    const loaded = await callWebview<OrganizationData>(panel.channel, 'load', {});
    assert.ok(loaded.ok, loaded.error?.message);
    assert.equal(loaded.result.org!.metrics_token, '••••9876');
    assert.equal(loaded.result.builtIn, true, 'the built-in service: the page says what it does with each group');
    assert.ok(!JSON.stringify(loaded).includes('metrics-secret-9876'), 'the token never reaches the webview');
    const kept = await callWebview<OrganizationData>(panel.channel, 'saveIntegration', {
      group: 'metrics',
      value: { id: 'm-2', token: '', endpoint: 'https://metrics2.example.com' },
    });
    assert.ok(kept.ok, kept.error?.message);
    const stored = await client.getOrganization();
    assert.equal(stored.metrics_id, 'm-2');
    assert.equal(stored.metrics_token, 'metrics-secret-9876', 'an empty token keeps the stored one');
    const bad = await callWebview(panel.channel, 'saveIntegration', {
      group: 'logs',
      value: { id: '', token: 'x', endpoint: 'not a url' },
    });
    assert.deepEqual(Object.keys(bad.error!.fields).sort(), ['value.endpoint', 'value.id']);
    const cleared = await callWebview<OrganizationData>(panel.channel, 'saveIntegration', {
      group: 'metrics',
      value: null,
    });
    assert.equal(cleared.result.org!.metrics_id ?? null, null);
    assert.equal((await client.getOrganization()).metrics_token ?? null, null);
    panel.dispose();
  });

  it('follows a change made elsewhere (Edit Integrations…), so it never shows what is no longer so', async () => {
    const api = await extension();
    await vscode.commands.executeCommand('llmSpaces.openOrganization');
    const panel = api.webviews.organization!;
    const first = await callWebview<OrganizationData>(panel.channel, 'load', {});
    assert.ok(first.ok, first.error?.message);
    const reloads: unknown[] = [];
    const sub = panel.channel.onDidPost((m) => m.type === 'event' && reloads.push(m.event));
    // What the command does: the organization store saves the change.
    await api.organization.updateIntegrations({
      logs: { id: 'l-9', token: 'logs-secret-1234', endpoint: 'https://logs.example.com' },
    });
    await waitFor(() => reloads.length > 0 || undefined, 'the panel told to show the change');
    const after = await callWebview<OrganizationData>(panel.channel, 'load', {});
    assert.equal(after.result.org!.logs_id, 'l-9');
    // Reading it again changes nothing: the reloads stop (no loop of read, change, reload).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const settled = reloads.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(reloads.length, settled, 'no more reloads once nothing changes');
    sub.dispose();
    await api.organization.updateIntegrations({ logs: null });
    panel.dispose();
  });

  it('lets go of the organization on Sign Out: told to reload, it shows nothing of it', async () => {
    const api = await extension();
    const localUrl = api.connection.url!;
    const token = (await api.connection.remoteToken())!;
    let panel: typeof api.webviews.organization;
    try {
      await config().update('serviceUrl', localUrl, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('llmSpaces.signIn', token);
      // Whether anything reads the service after the sign-in (a view, say) depends on the layout, so ask.
      await waitFor(
        async () => api.connection.mode === 'remote' && (await api.connection.call((c) => c.checkToken()), true),
        'signed in',
      );
      await vscode.commands.executeCommand('llmSpaces.openOrganization');
      panel = api.webviews.organization!;
      const shown = await callWebview<OrganizationData>(panel.channel, 'load', {});
      assert.ok(shown.ok && shown.result.org, shown.error?.message);
      const reloads: unknown[] = [];
      const sub = panel.channel.onDidPost((m) => m.type === 'event' && reloads.push(m.event));
      // Signed out while a read is on its way to the page (as the page's own first read may be).
      const reading = callWebview<OrganizationData>(panel.channel, 'load', {});
      await vscode.commands.executeCommand('llmSpaces.signOut');
      await waitFor(() => reloads.length > 0 || undefined, 'the panel told to reload');
      await reading;
      sub.dispose();
      const after = await callWebview<OrganizationData>(panel.channel, 'load', {});
      assert.ok(!after.ok, 'nothing of the organization is read once signed out');
      assert.match(after.error!.message, /sign in/i);
    } finally {
      panel?.dispose();
      await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(
        async () => (await api.connection.client()) && api.connection.mode === 'local',
        'back on the built-in service',
      );
    }
  });
});

describe('webview security', () => {
  it('gives every panel a nonce-only CSP, dist and media as its only roots, and never the token', async () => {
    const api = await extension();
    const token = (await api.connection.remoteToken())!;
    const spaceId = await starterSpace();
    await vscode.commands.executeCommand('llmSpaces.openPlayground', spaceId);
    await vscode.commands.executeCommand('llmSpaces.openSpaceSettings', spaceId);
    await vscode.commands.executeCommand('llmSpaces.openOrganization');
    const panels = [api.webviews.playgrounds.at(-1)!, api.webviews.settings.get(spaceId)!, api.webviews.organization!];
    const posted: string[] = [];
    const subs = panels.map((p) => p.channel.onDidPost((m) => posted.push(JSON.stringify(m))));
    await callWebview(panels[0]!.channel, 'context', {});
    await callWebview(panels[1]!.channel, 'load', {});
    await callWebview(panels[2]!.channel, 'load', {});
    subs.forEach((s) => s.dispose());
    for (const { panel } of panels) {
      const html = panel.webview.html;
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
      assert.match(csp, /^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]{20,}';/);
      assert.ok(!/unsafe-eval|unsafe-inline/.test(csp), csp);
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length === 1 && scripts[0]!.includes(`nonce="${nonce}"`), 'one script, with the nonce');
      assert.deepEqual(
        panel.webview.options.localResourceRoots?.map((u) => u.path.split('/').pop()),
        ['dist', 'media'],
      );
      assert.equal(panel.webview.options.enableCommandUris, false);
      assert.ok(!html.includes(token));
    }
    assert.ok(posted.length >= 3);
    assert.ok(
      posted.every((m) => !m.includes(token)),
      'no message to a webview carries the token',
    );
    panels.forEach((p) => p.dispose());
  });
});
