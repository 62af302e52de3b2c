// The Space settings editor and the organization panel in the real extension host, and what every
// panel shares: the strict HTML shell and no token in anything a webview receives.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OrganizationData, SaveResult, SpaceEditorData } from '../../src/shared/protocol';
import type { SpaceSettingsPanel } from '../../src/webviews/spaceSettingsPanel';
import { callWebview, extension, serviceClient, waitFor } from './support';

const config = () => vscode.workspace.getConfiguration('llmSpaces');

async function starterSpace(): Promise<string> {
  const client = await serviceClient(await extension());
  return (await client.listSpaces({ search: 'My first Space' })).items.find((s) => !s.sandbox_of)!.id;
}

async function openEditor(spaceId: string): Promise<SpaceSettingsPanel> {
  const api = await extension();
  await vscode.commands.executeCommand('llmSpaces.openSpaceSettings', spaceId);
  return api.webviews.settings.get(spaceId)!;
}

describe('Space settings editor', () => {
  let editor: SpaceSettingsPanel | undefined;
  afterEach(() => editor?.dispose());

  it('saves only the changed fields, and the service has them', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
    assert.ok(loaded.ok, loaded.error?.message);
    assert.ok(loaded.result.view.main.current_user_permissions.includes('edit'));
    const before = loaded.result.view.main.app;
    const saved = await callWebview<SaveResult>(editor.channel, 'save', { changes: { weights: { cost: 0.25 }, policies: { max_same_model_retries: 3 } }, baseModifiedOn: before.modified_on });
    assert.ok(saved.ok, saved.error?.message);
    assert.equal(saved.result.kind, 'saved');
    const after = (await client.getSpace(spaceId)).main.app;
    assert.equal(after.weights?.cost, 0.25);
    assert.equal(after.weights?.quality, before.weights?.quality, 'a weight not sent is unchanged');
    assert.equal(after.policies?.max_same_model_retries, 3);
    assert.equal(after.policies?.privacy_level, before.policies?.privacy_level);
    assert.equal(after.name, before.name);
  });

  it('returns a 422 as errors on the offending fields, and changes nothing', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    const before = (await client.getSpace(spaceId)).main.app;
    const missingPrompt = await callWebview(editor.channel, 'save', { changes: { name: 'Never saved', policies: { prompt_id: '00000000-0000-4000-8000-000000000000' } }, baseModifiedOn: before.modified_on });
    assert.equal(missingPrompt.ok, false);
    assert.deepEqual(Object.keys(missingPrompt.error!.fields), ['policies.prompt_id']);
    const zeroWeights = await callWebview(editor.channel, 'save', { changes: { weights: { cost: 0, latency: 0, quality: 0 } }, baseModifiedOn: before.modified_on });
    assert.deepEqual(Object.keys(zeroWeights.error!.fields), ['weights']);
    const local = await callWebview(editor.channel, 'save', { changes: { settings: { temperature: 3 }, policies: { max_switch_model_retries: 11 } }, baseModifiedOn: before.modified_on });
    assert.deepEqual(Object.keys(local.error!.fields).sort(), ['policies.max_switch_model_retries', 'settings.temperature']);
    const after = (await client.getSpace(spaceId)).main.app;
    assert.equal(after.name, before.name);
    assert.equal(after.modified_on, before.modified_on);
  });

  it('asks before overwriting a change made elsewhere since the editor loaded', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
    const base = loaded.result.view.main.app.modified_on;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.updateSpace({ id: spaceId, description: 'Changed elsewhere' });
    const asked: string[] = [];
    editor.askConflict = async (name) => (asked.push(name), 'cancel');
    const cancelled = await callWebview<SaveResult>(editor.channel, 'save', { changes: { description: 'Mine' }, baseModifiedOn: base });
    assert.equal(cancelled.result.kind, 'cancelled');
    assert.equal(asked.length, 1);
    assert.equal((await client.getSpace(spaceId)).main.app.description, 'Changed elsewhere', 'nothing was overwritten');
    editor.askConflict = async () => 'reload';
    const reloaded = await callWebview<SaveResult>(editor.channel, 'save', { changes: { description: 'Mine' }, baseModifiedOn: base });
    assert.equal(reloaded.result.kind, 'reloaded');
    assert.equal(reloaded.result.kind === 'reloaded' && reloaded.result.view.main.app.description, 'Changed elsewhere');
    editor.askConflict = async () => 'overwrite';
    const overwritten = await callWebview<SaveResult>(editor.channel, 'save', { changes: { description: 'Mine' }, baseModifiedOn: base });
    assert.equal(overwritten.result.kind, 'saved');
    assert.equal((await client.getSpace(spaceId)).main.app.description, 'Mine');
  });

  it('asks about unsaved changes when closed, and saves them if told to', async () => {
    const client = await serviceClient(await extension());
    const spaceId = await starterSpace();
    editor = await openEditor(spaceId);
    await callWebview(editor.channel, 'setDirty', { dirty: true, changes: { description: 'Saved on close' } });
    assert.ok(editor.hasUnsavedChanges);
    const asked: string[] = [];
    editor.askClose = async (name) => (asked.push(name), 'save');
    editor.panel.dispose();
    await waitFor(async () => (await client.getSpace(spaceId)).main.app.description === 'Saved on close', 'the change saved on close');
    assert.equal(asked.length, 1);
  });

  it('reopens with the changes when the close prompt is cancelled', async () => {
    const api = await extension();
    const spaceId = await starterSpace();
    const first = await openEditor(spaceId);
    await callWebview(first.channel, 'setDirty', { dirty: true, changes: { name: 'Kept draft' } });
    first.askClose = async () => 'keep';
    first.panel.dispose();
    editor = await waitFor(() => (api.webviews.settings.get(spaceId) !== first ? api.webviews.settings.get(spaceId) : undefined), 'the editor to reopen');
    const loaded = await callWebview<SpaceEditorData>(editor.channel, 'load', {});
    assert.deepEqual(loaded.result.draft, { name: 'Kept draft' });
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
      const refused = await callWebview(editor.channel, 'save', { changes: { name: 'Not allowed' }, baseModifiedOn: loaded.result.view.main.app.modified_on });
      assert.equal(refused.ok, false);
      assert.match(refused.error!.message, /may not edit/);
      assert.equal((await client.getSpace(created.id)).main.app.name, 'Key-only Space');
    } finally {
      editor?.dispose();
      editor = undefined;
      await vscode.commands.executeCommand('llmSpaces.signOut');
      await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(async () => (await api.connection.client()) && api.connection.mode === 'local', 'back on the built-in service');
    }
  });
});

describe('organization panel', () => {
  it('shows integration tokens masked, keeps a token left empty, and clears a group', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    await client.updateIntegrations({ metrics: { id: 'm-1', token: 'metrics-secret-9876', endpoint: 'https://metrics.example.com' } });
    await vscode.commands.executeCommand('llmSpaces.openOrganization');
    const panel = api.webviews.organization!;
    const loaded = await callWebview<OrganizationData>(panel.channel, 'load', {});
    assert.ok(loaded.ok, loaded.error?.message);
    assert.equal(loaded.result.org!.metrics_token, '••••9876');
    assert.ok(!JSON.stringify(loaded).includes('metrics-secret-9876'), 'the token never reaches the webview');
    const kept = await callWebview<OrganizationData>(panel.channel, 'saveIntegration', { group: 'metrics', value: { id: 'm-2', token: '', endpoint: 'https://metrics2.example.com' } });
    assert.ok(kept.ok, kept.error?.message);
    const stored = await client.getOrganization();
    assert.equal(stored.metrics_id, 'm-2');
    assert.equal(stored.metrics_token, 'metrics-secret-9876', 'an empty token keeps the stored one');
    const bad = await callWebview(panel.channel, 'saveIntegration', { group: 'logs', value: { id: '', token: 'x', endpoint: 'not a url' } });
    assert.deepEqual(Object.keys(bad.error!.fields).sort(), ['value.endpoint', 'value.id']);
    const cleared = await callWebview<OrganizationData>(panel.channel, 'saveIntegration', { group: 'metrics', value: null });
    assert.equal(cleared.result.org!.metrics_id ?? null, null);
    assert.equal((await client.getOrganization()).metrics_token ?? null, null);
    panel.dispose();
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
      assert.deepEqual(panel.webview.options.localResourceRoots?.map((u) => u.path.split('/').pop()), ['dist', 'media']);
      assert.equal(panel.webview.options.enableCommandUris, false);
      assert.ok(!html.includes(token));
    }
    assert.ok(posted.length >= 3);
    assert.ok(posted.every((m) => !m.includes(token)), 'no message to a webview carries the token');
    panels.forEach((p) => p.dispose());
  });
});
