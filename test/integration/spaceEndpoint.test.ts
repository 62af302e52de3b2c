// Copy Space Endpoint for Other Tools…: the snippet for the chosen tool on the clipboard, with the
// built-in service's /v1 URL and the Space's name; the key only when the user says so, and a key put
// there works for another tool. Codex's and Continue's get the smallest context window of the Space's
// models; Continue's also an embedding model for its codebase index, and with a Mistral key Codestral
// for its autocomplete, whose request the Space answers.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  fakeVector,
  fimFill,
  startMistralFake,
  startVoyageFake,
  type ProviderFake,
} from '../unit/support/providerFakes';
import { extension, messagesDuring, serviceClient } from './support';

type Window = {
  showQuickPick: (...args: unknown[]) => Thenable<unknown>;
  showInformationMessage: (...args: unknown[]) => Thenable<unknown>;
};

/** Runs `fn` with the picks and the modal questions answered as given, in order. */
async function answering<T>(picks: string[], buttons: string[], fn: () => Thenable<T>): Promise<{ asked: string[] }> {
  const window = vscode.window as unknown as Window;
  const original = { pick: window.showQuickPick, info: window.showInformationMessage };
  const asked: string[] = [];
  window.showQuickPick = async (items: unknown) => {
    const wanted = picks.shift();
    return ((await items) as Array<{ label: string }>).find((i) => i.label === wanted);
  };
  window.showInformationMessage = async (message: unknown, ...rest: unknown[]) => {
    asked.push(String(message));
    const modal = typeof rest[0] === 'object' && rest[0] !== null && (rest[0] as { modal?: boolean }).modal;
    return modal ? buttons.shift() : undefined;
  };
  try {
    await fn();
  } finally {
    window.showQuickPick = original.pick;
    window.showInformationMessage = original.info;
  }
  return { asked };
}

/**
 * Adds the fake's key as a user would (Add Provider Key…), then copies Continue's settings with a new
 * key of the first Space: what the key's check said, and the settings.
 */
async function continueSettingsWithKey(provider: string, fake: ProviderFake) {
  const shown = await messagesDuring(() =>
    vscode.commands.executeCommand('llmSpaces.addProviderKey', { provider, key: fake.key, baseUrl: fake.baseUrl }),
  );
  await answering(['My first Space', 'Continue'], ['Copy Anyway', 'Make a New Key and Include It'], () =>
    vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
  );
  return { said: shown[0], config: await vscode.env.clipboard.readText() };
}

/** The entry of Continue's settings with this name and role: its provider, model, address and key. */
const continueEntry = (config: string, name: string, role: string) =>
  new RegExp(
    `- name: ${name} \\(LLM Spaces\\)\\n {4}provider: (\\S+)\\n {4}model: (\\S+)\\n {4}apiBase: (\\S+)\\n {4}apiKey: (\\S+)\\n {4}roles: \\[${role}\\]`,
  ).exec(config);

describe('copy a Space endpoint for other tools', function () {
  this.timeout(60_000);

  it('puts the snippet on the clipboard with a placeholder for the key, unless the user includes one that works', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    await api.connection.client();
    const v1 = `${api.connection.url}/v1`;
    const { asked } = await answering(['My first Space', 'curl'], ['Copy Anyway', 'Leave a Placeholder'], () =>
      vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
    );
    const placeholder = await vscode.env.clipboard.readText();
    assert.match(placeholder, new RegExp(`^curl ${v1.replace(/[.]/g, '\\.')}/chat/completions`));
    assert.match(placeholder, /Authorization: Bearer <your Space key>/);
    assert.match(placeholder, /"model": "My first Space"/);
    assert.ok(
      asked.some((q) => /takes a free port at each start/.test(q)),
      'offered a port that stays',
    );
    assert.ok(asked.some((q) => /with <your Space key> where its key goes/.test(q)));

    await answering(['My first Space', 'Cline'], ['Copy Anyway', 'Make a New Key and Include It'], () =>
      vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
    );
    const withKey = await vscode.env.clipboard.readText();
    const key = /API Key: (\S+)/.exec(withKey)![1]!;
    assert.notEqual(key, '<your Space key>');
    const models = await fetch(`${v1}/models`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(models.status, 200);
    const ids = ((await models.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    assert.equal(ids[0], 'My first Space', "the key is the Space's own: it sees its Space");
    assert.ok((await client.listSpaces()).items.length > 0);
  });

  it("gives Continue the built-in service's embedding model for its codebase index, saying what it needs", async () => {
    const api = await extension();
    await api.connection.client();
    const v1 = `${api.connection.url}/v1`;
    await answering(['My first Space', 'Continue'], ['Copy Anyway', 'Leave a Placeholder'], () =>
      vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
    );
    const config = await vscode.env.clipboard.readText();
    assert.match(config, /^models:\n {2}- name: My first Space \(LLM Spaces\)\n/);
    // No provider has a key in this test: OpenAI's model, with what it needs.
    assert.match(config, /# Continue's codebase index, through the same Space \(add your OpenAI key first/);
    assert.match(
      config,
      new RegExp(
        `- name: Embeddings \\(LLM Spaces\\)\\n {4}provider: openai\\n {4}model: openai/text-embedding-3-small\\n {4}apiBase: ${v1.replace(/[.]/g, '\\.')}\\n {4}apiKey: <your Space key>\\n {4}roles: \\[embed\\]`,
      ),
    );
    // No model server runs here: no model to offer its autocomplete (a hosted chat model would answer
    // a code completion tool's prompt as a message).
    assert.doesNotMatch(config, /roles: \[autocomplete\]/);
  });

  it("gives Codex and Continue the smallest context window of the Space's models, to fit the conversation to", async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const space = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const view = await client.getSpace(space.id);
    const active = [...view.main.base_model_settings, ...view.main.custom_model_settings]
      .filter((m) => m.active)
      .map((m) => m.namespace);
    const windows = (await client.listModels())
      .filter((m) => active.includes(m.namespace) && m.context_window > 0)
      .map((m) => m.context_window);
    assert.ok(windows.length > 0, 'the Space has a model whose window is known');
    await answering(['My first Space', 'Codex CLI'], ['Copy Anyway', 'Leave a Placeholder'], () =>
      vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
    );
    assert.match(
      await vscode.env.clipboard.readText(),
      new RegExp(`\nmodel_context_window = ${Math.min(...windows)}\n`),
    );
    await answering(['My first Space', 'Continue'], ['Copy Anyway', 'Leave a Placeholder'], () =>
      vscode.commands.executeCommand('llmSpaces.copySpaceEndpoint'),
    );
    assert.match(
      await vscode.env.clipboard.readText(),
      new RegExp(`\n {4}defaultCompletionOptions:\n {6}contextLength: ${Math.min(...windows)}\n`),
    );
  });

  it("gives Continue Codestral for autocomplete with a Mistral key, and the Space answers Continue's request", async () => {
    const api = await extension();
    await api.connection.client();
    const v1 = `${api.connection.url}/v1`;
    const mistral = await startMistralFake();
    try {
      const { said, config } = await continueSettingsWithKey('mistral', mistral);
      assert.match(said ?? '', /^The Mistral key works/);
      const entry = continueEntry(config, 'Autocomplete', 'autocomplete');
      assert.ok(entry, 'an autocomplete entry');
      const [, provider, model, apiBase, key] = entry;
      assert.deepEqual([provider, model, apiBase], ['mistral', 'mistral/codestral', v1]);
      assert.match(config, /# Continue's autocomplete, through the same Space: the model fills in the middle/);
      // What Continue's Mistral provider sends for autocomplete: POST {apiBase}/fim/completions, streamed.
      const answer = await fetch(`${apiBase}/fim/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: 'const x = ', suffix: ';\n', max_tokens: 64, stream: true }),
      });
      assert.equal(answer.status, 200);
      const text = (await answer.text())
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .map(
          (e) =>
            (JSON.parse(e.slice(6)) as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content,
        )
        .join('');
      assert.equal(text, fimFill('const x = ', ';\n'));
      assert.equal(mistral.seen.at(-1)!.path, '/v1/fim/completions');
      assert.deepEqual(mistral.problems, []);
    } finally {
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'mistral' });
      await mistral.close();
    }
  });

  it("gives Continue Voyage's code model for its codebase index with a Voyage key, and the Space embeds Continue's request", async () => {
    const api = await extension();
    await api.connection.client();
    const voyage = await startVoyageFake();
    try {
      const { said, config } = await continueSettingsWithKey('voyage', voyage);
      assert.equal(said, 'The Voyage AI key works: voyage/voyage-code-3 answered.');
      const entry = continueEntry(config, 'Embeddings', 'embed');
      assert.ok(entry, 'an embeddings entry');
      const [, provider, model, apiBase, key] = entry;
      assert.deepEqual([provider, model], ['openai', 'voyage/voyage-code-3']);
      assert.doesNotMatch(config, /add your OpenAI key first/);
      // What Continue's OpenAI provider sends to index a codebase: POST {apiBase}/embeddings.
      const answer = await fetch(`${apiBase}/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: ['export function total() {}'] }),
      });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { data: Array<{ embedding: number[] }> };
      assert.deepEqual(body.data[0]!.embedding, fakeVector('export function total() {}', 1024));
      assert.equal(voyage.seen.at(-1)!.body.model, 'voyage-code-3');
      assert.deepEqual(voyage.problems, []);
    } finally {
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'voyage' });
      await voyage.close();
    }
  });
});
