// Each command's effect, checked on the service itself.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SpaceNode } from '../../src/views/spaceNodes';
import { extension, reportsDuring, serviceClient, waitFor } from './support';

async function firstSpace() {
  const api = await extension();
  const roots = await api.views.spaces.getChildren();
  const node = roots.find((n) => n.kind === 'space')! as Extract<SpaceNode, { kind: 'space' }>;
  return { api, node, groups: await api.views.spaces.getChildren(node) };
}

describe('commands', () => {
  it('creates a prompt from the selection, and deletes it', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const doc = await vscode.workspace.openTextDocument({
      content: 'function add(a, b) { return a + b; }',
      language: 'javascript',
    });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 0, 12);
    await vscode.commands.executeCommand('llmSpaces.createPromptFromSelection', {
      title: 'From selection',
      description: 'made by a test',
    });
    const created = await waitFor(
      async () => (await client.listPrompts('org')).find((p) => p.title === 'From selection'),
      'the new prompt',
    );
    assert.equal(created.prompt, 'function add');
    const node = { prompt: created, own: true };
    await vscode.commands.executeCommand('llmSpaces.deletePrompt', node, true);
    assert.ok(!(await client.listPrompts('org')).some((p) => p.id === created.id));
  });

  it('refuses a prompt title over 60 characters before sending it', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const before = (await client.listPrompts('org')).length;
    const reports = await reportsDuring(api, () =>
      vscode.commands.executeCommand('llmSpaces.createPrompt', { title: 'x'.repeat(61), description: 'd' }),
    );
    assert.match(reports[0]!.message, /1 to 60 characters/);
    assert.equal((await client.listPrompts('org')).length, before);
  });

  it('turns a model of a Space on and off', async () => {
    const { api, node, groups } = await firstSpace();
    const client = await serviceClient(api);
    const modelsGroup = groups.find((g) => g.kind === 'group' && g.group === 'models')!;
    const listed = await api.views.spaces.getChildren(modelsGroup);
    assert.ok(
      listed.every((m) => m.kind !== 'spaceModel' || m.setting.active),
      'the active models first',
    );
    const more = listed.find((m) => m.kind === 'moreModels')!;
    assert.equal(listed.at(-1), more, 'the rest behind one node at the end');
    const off = (await api.views.spaces.getChildren(more)).find(
      (m) => m.kind === 'spaceModel' && !m.setting.active && !m.setting.globally_disabled,
    )!;
    await vscode.commands.executeCommand('llmSpaces.toggleModel', off);
    const setting = (await client.getSpaceModels(node.space.id)).base_model_settings.find(
      (s) => off.kind === 'spaceModel' && s.id === off.setting.id,
    )!;
    assert.equal(setting.active, true);
    const refreshedGroups = await api.views.spaces.getChildren(node);
    const on = (
      await api.views.spaces.getChildren(refreshedGroups.find((g) => g.kind === 'group' && g.group === 'models'))
    ).find((m) => m.kind === 'spaceModel' && m.setting.id === setting.id)!;
    assert.equal(api.views.spaces.getTreeItem(on).contextValue, 'spaceModel.active');
    await vscode.commands.executeCommand('llmSpaces.toggleModel', on);
    assert.equal(
      (await client.getSpaceModels(node.space.id)).base_model_settings.find((s) => s.id === setting.id)!.active,
      false,
    );
  });

  it('renames a conversation and changes its assistant', async () => {
    const { api, node, groups } = await firstSpace();
    const client = await serviceClient(api);
    const conversation = (
      await api.views.spaces.getChildren(groups.find((g) => g.kind === 'group' && g.group === 'conversations'))
    ).find((c) => c.kind === 'conversation')!;
    await vscode.commands.executeCommand('llmSpaces.renameConversation', conversation, 'Renamed in VS Code');
    const id = conversation.kind === 'conversation' ? conversation.conversation.id : '';
    assert.equal((await client.getConversation(node.space.id, id)).name, 'Renamed in VS Code');
    const [assistant] = await client.listAssistants(node.space.id);
    const settings = { assistant_id: assistant!.id, assistant_version_id: assistant!.versions[0]!.id };
    await vscode.commands.executeCommand('llmSpaces.changeConversationAssistant', conversation, settings);
    assert.deepEqual((await client.getConversation(node.space.id, id)).settings, settings);
  });

  it('opens an assistant version as a readable document', async () => {
    const { api, groups } = await firstSpace();
    const assistants = await api.views.spaces.getChildren(
      groups.find((g) => g.kind === 'group' && g.group === 'assistants'),
    );
    const [version] = await api.views.spaces.getChildren(assistants[0]);
    await vscode.commands.executeCommand('llmSpaces.openAssistantVersion', version);
    const editor = await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.scheme === 'llm-assistant'
          ? vscode.window.activeTextEditor
          : undefined,
      'the assistant document',
    );
    const text = editor.document.getText();
    assert.match(text, /## Instructions/);
    assert.match(text, /Point out bugs first/);
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/;
    assert.doesNotMatch(text, uuid, 'no id in what a person reads');
    assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T/, 'dates as dates, not ISO timestamps');
    assert.doesNotMatch(editor.document.uri.path, uuid, 'the tab and the breadcrumbs read as the version');
  });

  it('sets and clears the observability integrations', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    await vscode.commands.executeCommand('llmSpaces.editIntegrations', {
      metrics: { id: 'grafana-1', token: 'secret-token-1234', endpoint: 'https://metrics.example' },
    });
    const set = await client.getOrganization();
    assert.equal(set.metrics_id, 'grafana-1');
    await vscode.commands.executeCommand('llmSpaces.editIntegrations', { metrics: null });
    assert.equal((await client.getOrganization()).metrics_id, null);
  });

  it('copies a saved prompt for the prompt field of a Responses request, each placeholder to fill in', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const saved = (await client.listPrompts('all')).find((p) => p.prompt.includes('{{prompt}}'))!;
    await vscode.commands.executeCommand('llmSpaces.copyPromptForResponses', { prompt: saved, own: false });
    assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), {
      prompt: { id: saved.id, variables: { prompt: '' } },
    });
  });

  it('copies a Space id to the clipboard', async () => {
    const { node } = await firstSpace();
    await vscode.commands.executeCommand('llmSpaces.copyId', node);
    assert.equal(await vscode.env.clipboard.readText(), node.space.id);
  });
});
