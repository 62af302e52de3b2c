// Provider keys from the extension: Add Provider Key… stores the key in SecretStorage, hands it to
// the built-in service and tries it; the provider's models then answer through a Space in the
// playground and in VS Code's chat (a fake of OpenAI's wire format stands in for OpenAI); Remove
// Provider Key… forgets it. The key is in no setting and no message.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ProviderState } from '../../src/api/schemas';
import type { ReplyInfo } from '../../src/shared/protocol/playground';
import {
  FILTERED,
  FILTERED_SO_FAR,
  startAzureFake,
  startOpenAiFake,
  startVertexFake,
  VERTEX_EXPRESS_KEY,
  startZaiFake,
  VERTEX_PROJECT,
  type ProviderFake,
} from '../unit/support/providerFakes';
import { callWebview, extension, messagesDuring, serviceClient, waitFor } from './support';

const MODEL = 'openai/gpt-4o-mini';

describe('provider keys', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let spaceId: string;

  before(async () => {
    openai = await startOpenAiFake();
    const client = await serviceClient(await extension());
    const space = await client.createSpace({ name: 'Through OpenAI' });
    spaceId = space.id;
    const models = await client.getSpaceModels(spaceId);
    for (const s of models.base_model_settings)
      if (s.active !== (s.namespace === MODEL)) await client.toggleModel(spaceId, s.id, s.namespace === MODEL);
  });
  after(async () => {
    await openai?.close();
  });

  it('adds a key through the command, tries it, and the provider answers in the playground and in the chat', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const shown = await messagesDuring(() =>
      vscode.commands.executeCommand('llmSpaces.addProviderKey', {
        provider: 'openai',
        key: openai.key,
        baseUrl: openai.baseUrl,
      }),
    );
    assert.deepEqual(shown, [`The OpenAI key works: ${shown[0]?.match(/: (\S+) answered/)?.[1]} answered.`]);
    const states = await client.listProviders();
    assert.deepEqual(
      states.filter((p: ProviderState) => p.has_key).map((p) => [p.id, p.key_source]),
      [['openai', 'extension']],
    );
    assert.deepEqual(await api.providerKeys.stored(), ['openai']);
    assert.equal((await client.listModels()).find((m) => m.namespace === MODEL)!.answers_here, true);

    await vscode.commands.executeCommand('llmSpaces.openPlayground', spaceId);
    const panel = api.webviews.playgrounds.at(-1)!;
    try {
      const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
        body: { app_id: spaceId, prompt: 'from the playground' },
      });
      assert.ok(sent.ok, sent.error?.message);
      assert.equal(sent.result.namespace, MODEL);
      assert.equal(sent.result.content, 'echo: from the playground');
    } finally {
      panel.dispose();
    }

    const space = await waitFor(
      async () => (await vscode.lm.selectChatModels({ vendor: 'llm-spaces' })).find((m) => m.id === `space:${spaceId}`),
      'the Space among the chat models',
    );
    const response = await space.sendRequest(
      [vscode.LanguageModelChatMessage.User('from the chat')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const part of response.text) text += part;
    assert.match(text, /^echo: from the chat/);
    assert.deepEqual(openai.problems, []);
    assert.ok(openai.seen.length >= 3, 'the check, the playground and the chat reached the provider');
  });

  it("says in the chat and the playground that the provider's content filter stopped an answer", async () => {
    const api = await extension();
    const space = (await vscode.lm.selectChatModels({ vendor: 'llm-spaces' })).find(
      (m) => m.id === `space:${spaceId}`,
    )!;
    const response = await space.sendRequest(
      [vscode.LanguageModelChatMessage.User(`tell me ${FILTERED}`)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const part of response.text) text += part;
    assert.ok(text.startsWith(FILTERED_SO_FAR), text);
    assert.match(text, /· stopped by the provider's content filter_/);

    await vscode.commands.executeCommand('llmSpaces.openPlayground', spaceId);
    const panel = api.webviews.playgrounds.at(-1)!;
    try {
      const sent = await callWebview<ReplyInfo>(panel.channel, 'send', {
        body: { app_id: spaceId, prompt: `tell me ${FILTERED}` },
      });
      assert.ok(sent.ok, sent.error?.message);
      assert.deepEqual([sent.result.content, sent.result.finishReason], [FILTERED_SO_FAR, 'content_filter']);
    } finally {
      panel.dispose();
    }
    assert.deepEqual(openai.problems, []);
  });

  it('keeps the key out of the settings, and forgets it on Remove Provider Key…', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    assert.doesNotMatch(JSON.stringify(vscode.workspace.getConfiguration('llmSpaces')), new RegExp(openai.key));
    await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'openai' });
    assert.deepEqual(await api.providerKeys.stored(), []);
    assert.equal((await client.listProviders()).find((p) => p.id === 'openai')!.has_key, false);
    await waitFor(
      async () => (await client.listModels()).find((m) => m.namespace === MODEL)!.answers_here === false || undefined,
      'the model no longer answering',
    );
  });

  it("adds an Azure deployment named otherwise than its model, which answers at that model's prices, and forgets it", async () => {
    const azure = await startAzureFake(undefined, ['prod-gpt5']);
    const api = await extension();
    const client = await serviceClient(api);
    try {
      await vscode.commands.executeCommand('llmSpaces.addProviderKey', {
        provider: 'azure',
        key: azure.key,
        baseUrl: azure.baseUrl,
      });
      const shown = await messagesDuring(() =>
        vscode.commands.executeCommand('llmSpaces.addAzureDeployment', {
          deployment: 'prod-gpt5',
          model: 'openai/gpt-5.4',
        }),
      );
      assert.deepEqual(shown, [
        'azure/prod-gpt5 answers through your deployment prod-gpt5, at the prices of openai/gpt-5.4. Turn it on in a Space to route to it.',
      ]);
      const models = await api.catalogue.models();
      const mine = models.find((m) => m.namespace === 'azure/prod-gpt5')!;
      const runs = models.find((m) => m.namespace === 'openai/gpt-5.4')!;
      assert.deepEqual(
        [mine.answers_here, mine.prompt_token_cost, mine.completion_token_cost],
        [true, runs.prompt_token_cost, runs.completion_token_cost],
      );
      const reply = await client.chat({ app_id: spaceId, prompt: 'through Azure', model: 'azure/prod-gpt5' });
      assert.equal(reply.choices[0]!.message.content, 'echo: through Azure');
      assert.equal(azure.seen.at(-1)!.body.model, 'prod-gpt5');
      await vscode.commands.executeCommand('llmSpaces.removeAzureDeployment', { deployment: 'prod-gpt5' });
      assert.ok(!(await api.catalogue.models()).some((m) => m.namespace === 'azure/prod-gpt5'));
      assert.deepEqual(azure.problems, []);
    } finally {
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'azure' });
      await azure.close();
    }
  });

  it("asks which Z.ai plan a key is for, and tries it at that plan's address", async () => {
    const zai = await startZaiFake(undefined, 'coding');
    const api = await extension();
    const window = vscode.window as unknown as Record<string, unknown>;
    // The user's answers to VS Code's prompts, given here in place of the user (as messagesDuring does).
    const prompts = ['showQuickPick', 'showInputBox', 'showInformationMessage', 'showWarningMessage'] as const;
    const originals = prompts.map((name) => window[name]);
    const asked: string[][] = [];
    const shown: string[] = [];
    /** The plan to choose: none (the picker dismissed), or the Coding Plan. */
    let plan: 'none' | 'coding' = 'none';
    window.showInputBox = () => Promise.resolve(zai.key);
    window.showInformationMessage = (message: string) => (shown.push(message), Promise.resolve(undefined));
    window.showWarningMessage = (message: string) => (shown.push(message), Promise.resolve(undefined));
    window.showQuickPick = (items: Array<{ label: string; provider?: { id: string }; plan?: { baseUrl: string } }>) => {
      asked.push(items.map((i) => i.label));
      const zaiItem = items.find((i) => i.provider?.id === 'zai');
      if (zaiItem) return Promise.resolve(zaiItem);
      const coding = items.find((i) => i.label === 'GLM Coding Plan');
      // The plan's own address, as the fake stands in for Z.ai's: its Coding Plan root on this machine.
      return Promise.resolve(
        plan === 'coding' && coding ? { ...coding, plan: { ...coding.plan, baseUrl: zai.baseUrl } } : undefined,
      );
    };
    try {
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.deepEqual(asked.at(-1), ['Pay as you go', 'GLM Coding Plan']);
      assert.ok(!(await api.providerKeys.stored()).includes('zai'), 'no key kept when no plan is chosen');
      assert.deepEqual(shown, []);

      plan = 'coding';
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.deepEqual(shown, ['The Z.ai (GLM) key works: zai/glm-5.3-flash answered.']);
      assert.equal(zai.seen.at(-1)!.path, '/api/coding/paas/v4/chat/completions');
      assert.deepEqual(zai.problems, []);
      assert.ok(!shown.join('').includes(zai.key));
    } finally {
      prompts.forEach((name, i) => (window[name] = originals[i]));
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'zai' });
      await zai.close();
    }
  });

  it('asks which AWS region an Amazon Bedrock key is for, by its name, and keeps no key without one; an access key ID alone is told apart', async () => {
    const api = await extension();
    const restore = awsConfiguration(undefined);
    const window = vscode.window as unknown as Record<string, unknown>;
    const prompts = ['showQuickPick', 'showInputBox'] as const;
    const originals = prompts.map((name) => window[name]);
    const asked: Array<Array<[string, string | undefined]>> = [];
    let validate: ((value: string) => unknown) | undefined;
    window.showInputBox = (options: { validateInput?: (value: string) => unknown }) => {
      validate = options.validateInput;
      return Promise.resolve('ABSK-not-a-real-key-0123456789');
    };
    window.showQuickPick = (items: Array<{ label: string; description?: string; provider?: { id: string } }>) => {
      asked.push(items.map((i) => [i.label, i.description]));
      return Promise.resolve(items.find((i) => i.provider?.id === 'bedrock'));
    };
    try {
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      const regions = asked.at(-1)!;
      assert.deepEqual(regions.slice(0, 3), [
        ['US East (N. Virginia)', 'us-east-1'],
        ['US East (Ohio)', 'us-east-2'],
        ['US West (Oregon)', 'us-west-2'],
      ]);
      assert.ok(regions.some(([name, code]) => name === 'Europe (Frankfurt)' && code === 'eu-central-1'));
      assert.ok(!(await api.providerKeys.stored()).includes('bedrock'), 'no key kept when no region is chosen');
      // An IAM access key's ID pasted without its secret is told apart, in words; with it, it is taken.
      assert.equal(
        await validate!('AKIAEXAMPLENOTAKEY00'),
        'This is an access key ID alone: put a colon and its secret access key after it (ACCESS_KEY_ID:SECRET_ACCESS_KEY), or paste a Bedrock API key.',
      );
      assert.equal(await validate!('AKIAEXAMPLENOTAKEY00:notASecretButLongEnough0123'), undefined);
      assert.equal(await validate!('ABSK-not-a-real-key-0123456789'), undefined);
    } finally {
      prompts.forEach((name, i) => (window[name] = originals[i]));
      restore();
    }
  });

  it("asks how to sign in to Google Cloud for Vertex AI, reads a service account's key file, and tries it in the project and location picked", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-vertex-'));
    const vertex = await startVertexFake(dir);
    const api = await extension();
    const window = vscode.window as unknown as Record<string, unknown>;
    const prompts = [
      'showQuickPick',
      'showInputBox',
      'showOpenDialog',
      'showInformationMessage',
      'showWarningMessage',
      'showErrorMessage',
    ] as const;
    const originals = prompts.map((name) => window[name]);
    const asked: Array<Array<[string, string | undefined]>> = [];
    const shown: string[] = [];
    const notKey = path.join(dir, 'package.json');
    writeFileSync(notKey, '{"name":"not-a-key"}');
    let file = notKey;
    let project: string | undefined;
    window.showOpenDialog = () => Promise.resolve([vscode.Uri.file(file)]);
    /** Whether to sign in with an API key, and the input boxes shown. */
    let express = false;
    const boxes: Array<{ password?: boolean; title?: string }> = [];
    let validate: ((value: string) => unknown) | undefined;
    window.showInputBox = (options: {
      value?: string;
      password?: boolean;
      title?: string;
      validateInput?: (value: string) => unknown;
    }) => {
      boxes.push({ password: options.password, title: options.title });
      validate = options.validateInput;
      if (express) return Promise.resolve(VERTEX_EXPRESS_KEY);
      project = options.value;
      return Promise.resolve(options.value);
    };
    for (const name of ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'])
      window[name] = (message: string) => (shown.push(message), Promise.resolve(undefined));
    type Item = { label: string; description?: string; provider?: { id: string }; baseUrl?: string };
    window.showQuickPick = (items: Item[]) => {
      asked.push(items.map((i) => [i.label, i.description]));
      const location = items.find((i) => i.description === 'us-east5');
      // The location's own address, as the fake stands in for Vertex AI: its project there on this machine.
      if (location) return Promise.resolve({ ...location, baseUrl: vertex.baseUrl });
      return Promise.resolve(
        items.find((i) => i.provider?.id === 'vertex') ??
          items.find((i) => i.label === (express ? 'An API key (express mode)' : 'A service account key file…')),
      );
    };
    try {
      // A file that is no key: said so, and nothing kept.
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.deepEqual(asked[1], [
        ['Your Google Cloud login', undefined],
        ['A service account key file…', undefined],
        ['An API key (express mode)', undefined],
      ]);
      assert.equal(shown.length, 1);
      assert.match(shown[0]!, /^package\.json is not a Google Cloud key file\. Make a key of a service account/);
      assert.ok(!(await api.providerKeys.stored()).includes('vertex'));

      // The service account's key file: its project offered, the locations by name, the key tried there.
      file = vertex.env!.GOOGLE_APPLICATION_CREDENTIALS!;
      shown.length = 0;
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.equal(project, VERTEX_PROJECT, "the key file's project offered");
      const locations = asked.at(-1)!;
      assert.deepEqual(locations[0], ['Global (any region Google chooses)', 'global']);
      assert.ok(locations.some(([name, code]) => name === 'Columbus, Ohio' && code === 'us-east5'));
      assert.deepEqual(shown, ['The Google Vertex AI key works: vertex/gemini-3.5-flash-lite answered.']);
      assert.ok((await api.providerKeys.stored()).includes('vertex'));
      assert.deepEqual(vertex.problems, []);
      const pem = (JSON.parse(vertex.key) as { private_key: string }).private_key.split('\n')[1]!;
      assert.ok(!JSON.stringify([asked, shown]).includes(pem), 'nothing of the private key shown');

      // An API key (express mode): asked hidden, and no project nor location asked after it.
      express = true;
      asked.length = 0;
      shown.length = 0;
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.equal(asked.length, 2, 'the provider and how to sign in, nothing after the key');
      assert.deepEqual(boxes.at(-1), { password: true, title: 'Google Vertex AI key' });
      // What is no API key is told apart as it is typed, in words.
      assert.equal(
        await validate!('my google password'),
        'A Google Cloud API key is 30 or more letters, digits, dots, hyphens or underscores (AIza… or AQ.…).',
      );
      assert.equal(await validate!(VERTEX_EXPRESS_KEY), undefined);
      assert.ok((await api.providerKeys.stored()).includes('vertex'));
      // Tried at express mode's address, which this machine cannot reach (with a network, Google refuses
      // a key it does not know): said in words, without the key.
      assert.equal(shown.length, 1);
      assert.match(shown[0]!, /^The Google Vertex AI key did not work: /);
      assert.ok(!shown[0]!.includes(VERTEX_EXPRESS_KEY));
    } finally {
      prompts.forEach((name, i) => (window[name] = originals[i]));
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'vertex' });
      await vertex.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("offers the profiles of the machine's AWS configuration for Bedrock, each by how it signs in, its region first", async () => {
    const api = await extension();
    // An SSO profile and one with an access key, and an sso-session section, which is not a profile.
    const restore = awsConfiguration({
      config:
        '[profile llm-spaces-sso]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = Dev\nregion = eu-west-1\n\n' +
        '[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1\n',
      credentials:
        '[llm-spaces-keys]\naws_access_key_id = AKIAEXAMPLENOTAKEY00\naws_secret_access_key = notASecretButLongEnough0123\n',
    });
    const window = vscode.window as unknown as Record<string, unknown>;
    const prompts = ['showQuickPick', 'showInputBox', 'showInformationMessage', 'showWarningMessage'] as const;
    const originals = prompts.map((name) => window[name]);
    const asked: Array<Array<Array<string | undefined>>> = [];
    const shown: string[] = [];
    let typed = 0;
    window.showInputBox = () => (typed++, Promise.resolve(undefined));
    window.showInformationMessage = (message: string) => (shown.push(message), Promise.resolve(undefined));
    window.showWarningMessage = (message: string) => (shown.push(message), Promise.resolve(undefined));
    type Item = {
      label: string;
      description?: string;
      detail?: string;
      kind?: number;
      provider?: { id: string };
      code?: string;
    };
    window.showQuickPick = (items: Item[]) => {
      asked.push(
        items
          .filter((i) => i.kind !== vscode.QuickPickItemKind.Separator)
          .map((i) => [i.label, i.description, i.detail]),
      );
      return Promise.resolve(
        items.find((i) => i.provider?.id === 'bedrock') ??
          items.find((i) => i.label === 'llm-spaces-sso') ??
          items.find((i) => i.code === 'eu-west-1'),
      );
    };
    try {
      await vscode.commands.executeCommand('llmSpaces.addProviderKey');
      assert.deepEqual(asked[1], [
        ['Paste a key…', undefined, 'A Bedrock API key, or an IAM access key'],
        ['llm-spaces-sso', 'eu-west-1', 'Signs in with AWS IAM Identity Center (SSO)'],
        ['llm-spaces-keys', undefined, 'An access key'],
      ]);
      assert.equal(typed, 0, 'no key box for a profile');
      assert.deepEqual(asked[2]![0], ['Europe (Ireland)', "eu-west-1 · the profile's region", undefined]);
      assert.ok((await api.providerKeys.stored()).includes('bedrock'));
      // This machine has no SSO login for it: the built-in service says so in AWS's words.
      assert.equal(shown.length, 1, shown.join('\n'));
      assert.match(
        shown[0]!,
        /^The Amazon Bedrock key did not work: Amazon Bedrock was not asked: the AWS profile llm-spaces-sso gave no credentials \(/,
      );
      assert.ok(
        !JSON.stringify([asked, shown]).includes('notASecretButLongEnough0123'),
        'no secret of a profile shown',
      );
    } finally {
      prompts.forEach((name, i) => (window[name] = originals[i]));
      restore();
      await vscode.commands.executeCommand('llmSpaces.removeProviderKey', { provider: 'bedrock' });
    }
  });
});

/**
 * The AWS configuration files this extension host reads (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE):
 * these, or none at all; returns what puts the machine's own back.
 */
function awsConfiguration(files: { config: string; credentials: string } | undefined): () => void {
  const names = ['AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'] as const;
  const before = names.map((name) => process.env[name]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'llm-spaces-aws-'));
  names.forEach((name, i) => {
    const file = path.join(dir, i === 0 ? 'config' : 'credentials');
    if (files) writeFileSync(file, i === 0 ? files.config : files.credentials);
    process.env[name] = file;
  });
  return () => {
    names.forEach((name, i) => (before[i] === undefined ? delete process.env[name] : (process.env[name] = before[i])));
    rmSync(dir, { recursive: true, force: true });
  };
}
