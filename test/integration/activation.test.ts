// Activation, the command table, and each view showing what the service holds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/commands';
import type { PromptNode } from '../../src/views/promptsTree';
import type { ExtensionApi } from '../../src/extension';
import { CatalogueStore } from '../../src/stores/catalogueStore';
import { isRetired } from '../../src/shared/models';
import { extension, serviceClient, waitFor, EXTENSION_ID } from './support';

describe('activation and views', () => {
  it('runs in a host at or above engines.vscode, with the stable chat provider API and node:sqlite', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const floor = (
      JSON.parse(readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as { engines: { vscode: string } }
    ).engines.vscode.replace(/^\^/, '');
    const [major, minor] = vscode.version.split('.').map(Number) as [number, number];
    const [floorMajor, floorMinor] = floor.split('.').map(Number) as [number, number];
    assert.ok(
      major > floorMajor || (major === floorMajor && minor >= floorMinor),
      `VS Code ${vscode.version} is below ${floor}`,
    );
    assert.equal(typeof vscode.lm.registerLanguageModelChatProvider, 'function');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    assert.equal(typeof (require('node:sqlite') as typeof import('node:sqlite')).DatabaseSync, 'function');
  });

  it('activates, starts the built-in service, and registers exactly the commands of package.json', async () => {
    const api = await extension();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: Array<{ command: string }> };
    };
    const declared = manifest.contributes.commands.map((c) => c.command).sort();
    // VS Code adds focus/open/… commands for each view; those are not ours to declare.
    const registered = (await vscode.commands.getCommands(true))
      .filter((c) => c.startsWith('llmSpaces.') && !/^llmSpaces\.(spaces|prompts|models)\./.test(c))
      .sort();
    assert.deepEqual(declared, Object.keys(COMMANDS).sort());
    assert.deepEqual(registered, declared);
    await api.connection.client();
    assert.equal(api.connection.mode, 'local');
    assert.match(api.connection.url!, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the Spaces view lists the organization’s Spaces with their sandbox beneath', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const onService = (await client.listSpaces()).items;
    const roots = await api.views.spaces.getChildren();
    const shown = roots.map((n) => (n.kind === 'space' ? n.space.id : '')).sort();
    assert.deepEqual(
      shown,
      onService
        .filter((s) => !s.sandbox_of)
        .map((s) => s.id)
        .sort(),
    );
    const main = roots.find((n) => n.kind === 'space')!;
    const groups = await api.views.spaces.getChildren(main);
    const sandboxGroup = groups.find((g) => g.kind === 'group' && g.group === 'sandbox')!;
    const [sandbox] = await api.views.spaces.getChildren(sandboxGroup);
    assert.equal(sandbox?.kind, 'space');
    if (sandbox?.kind === 'space') assert.equal(sandbox.space.sandbox_of, main.kind === 'space' ? main.space.id : '');
    // A Space made without a benchmark model says so in words, not with a dash.
    assert.deepEqual(groups[0], {
      kind: 'field',
      label: 'Benchmark model',
      value: 'none',
      tooltip: 'Savings are measured against the benchmark model; without one, none are counted.',
      icon: 'dashboard',
    });
    const weights = await api.views.spaces.getChildren(groups.find((g) => g.kind === 'group' && g.group === 'weights'));
    assert.deepEqual(
      weights.map((w) => (w.kind === 'field' ? w.label : '')),
      ['Cost', 'Latency', 'Quality'],
    );
    // What a Space leaves unset is said in words under each group, never as a dash.
    const fields = [];
    for (const group of ['weights', 'policies', 'settings'])
      fields.push(...(await api.views.spaces.getChildren(groups.find((g) => g.kind === 'group' && g.group === group))));
    const unset = fields.flatMap((f) => (f.kind === 'field' && !/\d/.test(f.value) ? [`${f.label}: ${f.value}`] : []));
    assert.ok(unset.includes('Instructions: none'), unset.join('; '));
    assert.deepEqual(
      fields.filter((f) => f.kind === 'field' && f.value === '—'),
      [],
    );
    const models = await api.views.spaces.getChildren(groups.find((g) => g.kind === 'group' && g.group === 'models'));
    const spaceModels = await client.getSpaceModels(main.kind === 'space' ? main.space.id : '');
    const more = models.find((m) => m.kind === 'moreModels');
    const folded = more ? await api.views.spaces.getChildren(more) : [];
    assert.deepEqual(
      models.filter((m) => m.kind === 'spaceModel').map((m) => m.kind === 'spaceModel' && m.setting.namespace),
      spaceModels.base_model_settings
        .filter((s) => s.active)
        .map((s) => s.namespace)
        .sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(folded.length, spaceModels.base_model_settings.filter((s) => !s.active).length);
    assert.equal(api.views.spaces.getTreeItem(more!).label, `Show all models (${folded.length} more, not active)`);
    const conversations = await api.views.spaces.getChildren(
      groups.find((g) => g.kind === 'group' && g.group === 'conversations'),
    );
    assert.ok(conversations.some((c) => c.kind === 'conversation' && c.conversation.name === 'Welcome conversation'));
  });

  it('the Prompts view shows public, organization or all prompts, each with its review state', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    for (const show of ['public', 'org', 'all'] as const) {
      await api.views.prompts.setShow(show);
      const nodes = (await api.views.prompts.getChildren()) as PromptNode[];
      assert.deepEqual(
        nodes.map((n) => n.prompt.id),
        (await client.listPrompts(show)).map((p) => p.id),
        show,
      );
    }
    const nodes = (await api.views.prompts.getChildren()) as PromptNode[];
    const declined = nodes.find((n) => n.prompt.decline_reason)!;
    const item = api.views.prompts.getTreeItem(declined);
    assert.match(String(item.description), /declined/);
    assert.equal(item.contextValue, 'prompt.own');
    // Its tooltip says when it was modified as a person reads a date, not as the service stamps it.
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /modified \d{1,2} \w+ \d{4}, \d\d:\d\d/);
    assert.doesNotMatch(tooltip, /\d{4}-\d\d-\d\dT/);
    const publicOne = nodes.find((n) => !n.own)!;
    assert.equal(api.views.prompts.getTreeItem(publicOne).contextValue, 'prompt.public');
  });

  it('the Models view groups the whole catalogue by provider, filters and sorts it', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const all = await client.listModels();
    api.catalogue.setFilter({ text: '', capabilities: [], sort: 'name' });
    const groups = await api.views.models.getChildren();
    const counted = groups.reduce((n, g) => n + (g.kind === 'provider' ? g.group.models.length : 0), 0);
    assert.equal(counted, all.length);
    assert.equal(groups.filter((g) => g.kind === 'provider').length, new Set(all.map((m) => m.provider)).size);
    // No model server runs in this suite: the view says only the test models answer, and how to change that.
    assert.equal(groups[0]!.kind, 'testOnly');
    const hint = api.views.models.getTreeItem(groups[0]!);
    assert.equal(hint.command?.command, 'llmSpaces.refreshLocalModels');
    assert.match(
      (hint.tooltip as vscode.MarkdownString).value,
      /Add a provider key.*start a local model server .*connect to the hosted service/,
    );
    // Each group named for people: no catalogue ids such as "test" or "openai".
    const names = groups.flatMap((g) => (g.kind === 'provider' ? [api.views.models.getTreeItem(g).label] : []));
    assert.ok(names.includes('Test models') && names.includes('OpenAI'), names.join(', '));
    assert.ok(!names.includes('test') && !names.includes('openai'), names.join(', '));
    const line = (namespace: string) =>
      String(
        api.views.models.getTreeItem({ kind: 'model', model: all.find((m) => m.namespace === namespace)! }).description,
      );
    // The price first: at the sidebar's default width the end of the line is cut off. A model retiring
    // soon (GPT-4o mini, on 14 January 2027) gives its day there instead.
    assert.match(line('openai/gpt-5.4-mini'), /^\$0\.\d+ in \/ \$\d\.\d+ out · cannot answer here$/);
    assert.equal(line('openai/gpt-4o-mini'), 'until 14 Jan 2027 · cannot answer here');
    api.catalogue.setFilter({ capabilities: ['vision'], text: 'gpt' });
    const filtered = (await api.views.models.getChildren()).flatMap((g) =>
      g.kind === 'provider' ? g.group.models : [],
    );
    assert.ok(filtered.length > 0 && filtered.every((m) => m.supports_vision && m.namespace.includes('gpt')));
    // A text that finds few models opens their groups, so they are in view; a group keeps its open or
    // closed state by its id, so each text has its own, and an unfiltered group is closed as before.
    const { Collapsed, Expanded } = vscode.TreeItemCollapsibleState;
    const groupItems = async () =>
      (await api.views.models.getChildren()).flatMap((g) =>
        g.kind === 'provider' ? [api.views.models.getTreeItem(g)] : [],
      );
    api.catalogue.setFilter({ capabilities: [], text: 'gpt-4o-mini' });
    const opened = await groupItems();
    assert.ok(opened.length > 1, 'more than one provider offers gpt-4o-mini');
    assert.ok(opened.every((i) => i.collapsibleState === Expanded && i.id!.endsWith(':gpt-4o-mini')));
    api.catalogue.setFilter({ text: 'gpt' });
    assert.ok(
      (await groupItems()).every((i) => i.collapsibleState === Collapsed),
      'too many models to open them all',
    );
    api.catalogue.setFilter({ text: '' });
    assert.ok((await groupItems()).every((i) => i.collapsibleState === Collapsed && !i.id!.includes('gpt')));
    api.catalogue.setFilter({ text: '', capabilities: [], sort: 'price' });
    const openai = (await api.views.models.getChildren()).find(
      (g) => g.kind === 'provider' && g.group.provider === 'openai',
    );
    // By price, the cheapest first: the models still served, then those retired (OpenAI's GPT-4 and more).
    const listed = openai!.kind === 'provider' ? openai!.group.models : [];
    const retiredFrom = listed.findIndex((m) => isRetired(m));
    assert.ok(retiredFrom > 0 && listed.slice(retiredFrom).every((m) => isRetired(m)), 'the retired ones last');
    for (const part of [listed.slice(0, retiredFrom), listed.slice(retiredFrom)]) {
      const prices = part.map((m) => m.prompt_token_cost + m.completion_token_cost);
      assert.deepEqual(
        prices,
        [...prices].sort((a, b) => a - b),
      );
    }
    const retired = all.find((m) => m.namespace === 'mistral/mistral-tiny')!;
    assert.ok(retired.deprecated_on, 'the dataset marks it deprecated');
    const item = api.views.models.resolveTreeItem(api.views.models.getTreeItem({ kind: 'model', model: retired }), {
      kind: 'model',
      model: retired,
    });
    assert.equal(item.contextValue, 'model.retired');
    assert.match((item.tooltip as vscode.MarkdownString).value, /no longer served/);
    api.catalogue.setFilter({ sort: 'name' });
  });

  it('lists the embedding models apart, after the providers, with their prices, and copies one’s name', async () => {
    const api = await extension();
    api.catalogue.setFilter({ text: '', capabilities: [], sort: 'price', flat: false });
    const top = await api.views.models.getChildren();
    const group = top.at(-1)!;
    assert.equal(group.kind, 'embeddings');
    const groupItem = api.views.models.getTreeItem(group);
    assert.equal(groupItem.label, 'Embedding models');
    // No provider key in this suite: only the test model answers.
    assert.match(String(groupItem.description), /^\d+ models · 1 can answer here$/);
    const children = await api.views.models.getChildren(group);
    const names = children.map((n) => (n.kind === 'embeddingModel' ? n.model.namespace : ''));
    assert.ok(names.includes('test/embed') && names.includes('google/gemini-embedding-001'), names.join(', '));
    const costs = children.map((n) => (n.kind === 'embeddingModel' ? n.model.prompt_token_cost : -1));
    assert.deepEqual(
      costs,
      [...costs].sort((a, b) => a - b),
      'cheapest first, as the view is sorted',
    );
    const small = children.find(
      (n) => n.kind === 'embeddingModel' && n.model.namespace === 'openai/text-embedding-3-small',
    )!;
    const item = api.views.models.resolveTreeItem(api.views.models.getTreeItem(small), small);
    assert.equal(item.description, '$0.020 in · cannot answer here');
    assert.equal(item.contextValue, 'model.embedding');
    assert.match((item.tooltip as vscode.MarkdownString).value, /never routed/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /Add your OpenAI key/);
    await vscode.commands.executeCommand('llmSpaces.copyNamespace', small);
    assert.equal(await vscode.env.clipboard.readText(), 'openai/text-embedding-3-small');
    // A chat capability asked for leaves them out; their name finds them.
    api.catalogue.setFilter({ capabilities: ['vision'] });
    assert.ok(!(await api.views.models.getChildren()).some((n) => n.kind === 'embeddings'));
    api.catalogue.setFilter({ capabilities: [], text: 'embed' });
    const found = await api.views.models.getChildren();
    assert.equal(found.at(-1)!.kind, 'embeddings');
    api.catalogue.setFilter({ text: '', sort: 'name' });
  });

  it('shows the models as one list sorted across providers, keeps that across reloads, and opens a model in the playground', async () => {
    const api = await extension();
    api.catalogue.setFilter({ text: '', capabilities: [], sort: 'price' });
    await vscode.commands.executeCommand('llmSpaces.showModelsAsList');
    const nodes = (await api.views.models.getChildren()).filter((n) => n.kind === 'model');
    const models = nodes.flatMap((n) => (n.kind === 'model' ? [n.model] : []));
    const prices = models.map((m) => m.prompt_token_cost + m.completion_token_cost);
    const retired = models.map((m) => isRetired(m));
    assert.ok(nodes.length > 20, 'every model, not a group per provider');
    const firstRetired = retired.indexOf(true);
    assert.ok(firstRetired > 20 && retired.slice(firstRetired).every(Boolean), 'the retired models after the others');
    for (const part of [prices.slice(0, firstRetired), prices.slice(firstRetired)])
      assert.deepEqual(
        part,
        [...part].sort((a, b) => a - b),
        'cheapest first across providers',
      );
    const first = api.views.models.getTreeItem(nodes[0]!);
    assert.ok(String(first.label).includes('/'), 'in one list a model shows its provider');
    // What a reload reads: the filter as saved in the extension's global state.
    const reloaded = new CatalogueStore(api.connection, memento(api));
    assert.deepEqual({ ...reloaded.filter }, { text: '', capabilities: [], sort: 'price', flat: true });
    reloaded.dispose();

    const gpt = nodes.find((n) => n.kind === 'model' && n.model.namespace === 'openai/gpt-4o-mini')!;
    const posted: unknown[] = [];
    const before = api.webviews.playgrounds.length;
    await vscode.commands.executeCommand('llmSpaces.openModelInPlayground', gpt);
    const panel = api.webviews.playgrounds.at(-1)!;
    const sub = panel.channel.onDidPost((m) => m.type === 'event' && posted.push(m.event));
    await vscode.commands.executeCommand('llmSpaces.openModelInPlayground', gpt);
    // A new panel posts once its page says it is ready.
    await waitFor(() => posted.length > 0, 'the model to reach the playground');
    sub.dispose();
    assert.ok(api.webviews.playgrounds.length <= before + 1, 'the playground used last is reused');
    assert.deepEqual(posted.at(-1), { type: 'useModel', namespace: 'openai/gpt-4o-mini' });
    panel.dispose();
    await vscode.commands.executeCommand('llmSpaces.groupModelsByProvider');
    api.catalogue.setFilter({ sort: 'name' });
    assert.equal(
      (await api.views.models.getChildren()).some((n) => n.kind === 'model'),
      false,
    );
  });

  it("shows a Space's model with the same hover card as the Models view", async () => {
    const api = await extension();
    const [space] = await api.spaces.list();
    const view = await api.spaces.detail(space!.id);
    const setting = view.main.base_model_settings.find((s) => s.namespace === 'openai/gpt-4o-mini')!;
    const node = { kind: 'spaceModel', spaceId: space!.id, setting } as const;
    const item = await api.views.spaces.resolveTreeItem(api.views.spaces.getTreeItem(node), node);
    const card = (item.tooltip as vscode.MarkdownString).value;
    assert.match(card, /\*\*openai\/gpt-4o-mini\*\*/);
    assert.match(card, /\$0\.15 in \/ \$0\.60 out per M tokens/);
  });
});

/** The extension's global state, as a reload of the window would read it. */
function memento(api: ExtensionApi): vscode.Memento {
  return (api.catalogue as unknown as { memento: vscode.Memento }).memento;
}
