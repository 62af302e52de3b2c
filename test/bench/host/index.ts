// Benchmarks inside the real extension host (code-server), run by test/bench/run.ts through the
// integration runner. Not tests: they measure and write their figures to LLM_SPACES_BENCH_OUT.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { LlmSpacesClient } from '../../../src/api/client';
import type { ModelRecord, PromptRecord } from '../../../src/api/schemas';
import type { ExtensionApi } from '../../../src/extension';
import { median } from '../stats';
import { syntheticModels, syntheticPrompts } from '../synthetic';

const EXTENSION_ID = 'llm-spaces.llm-spaces';

/** An ExtensionContext with what activate() uses, so it can run many times without the real one. */
function contextFor(ext: vscode.Extension<unknown>, run: number): vscode.ExtensionContext {
  const store = new Map<string, unknown>();
  const memento: vscode.Memento = {
    keys: () => [...store.keys()],
    get: <T>(k: string, d?: T) => (store.has(k) ? (store.get(k) as T) : d),
    update: async (k, v) => void store.set(k, v),
  };
  const secrets = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    subscriptions: [],
    extensionUri: ext.extensionUri,
    extensionPath: ext.extensionPath,
    globalState: Object.assign(memento, { setKeysForSync: () => undefined }),
    workspaceState: memento,
    globalStorageUri: vscode.Uri.file(path.join(os.tmpdir(), `llm-spaces-bench-${process.pid}-${run}`)),
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
      onDidChange: changed.event,
      keys: async () => [...secrets.keys()],
    },
  } as unknown as vscode.ExtensionContext;
}

/** require() of dist/extension.js plus activate(), cold each time (the module cache is cleared). */
function activation(ext: vscode.Extension<unknown>, runs: number): { median: number; runs: number[] } {
  const main = path.join(ext.extensionPath, 'dist', 'extension.js');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    delete require.cache[require.resolve(main)];
    const context = contextFor(ext, i);
    const start = performance.now();
    // A cold require of the shipped bundle is what is measured.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(main) as { activate(c: vscode.ExtensionContext): unknown };
    mod.activate(context);
    times.push(performance.now() - start);
    context.subscriptions.forEach((d) => d.dispose());
  }
  return { median: median(times), runs: times };
}

async function modelsView(api: ExtensionApi, models: ModelRecord[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    api.catalogue.setModels(models);
    const start = performance.now();
    const providers = await api.views.models.getChildren();
    for (const p of providers) await api.views.models.getChildren(p);
    api.catalogue.setFilter({ text: 'model-7', capabilities: [] });
    const filtered = await api.views.models.getChildren();
    for (const p of filtered) await api.views.models.getChildren(p);
    times.push(performance.now() - start);
    api.catalogue.setFilter({ text: '', capabilities: [] });
  }
  return median(times);
}

function memory(): { heapMB: number; rssMB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { heapMB: m.heapUsed / 2 ** 20, rssMB: m.rss / 2 ** 20 };
}

/**
 * The first token of a reply through VS Code's language model API and the chat provider, against the
 * same request made straight to the service, alternating, in the same run: the provider's added time.
 */
async function chatFirstToken(api: ExtensionApi, runs: number): Promise<{ providerMs: number; directMs: number }> {
  const client = await api.connection.client();
  const direct = new LlmSpacesClient({ baseUrl: client.baseUrl, token: async () => api.connection.remoteToken() });
  const spaceId = (await direct.listSpaces()).items.find((s) => !s.sandbox_of)!.id;
  // The Models view figure replaced the catalogue with synthetic models: read the service's again.
  api.catalogue.reload();
  await vscode.workspace
    .getConfiguration('llmSpaces')
    .update('chat.pinnedModels', [{ space: spaceId, model: 'test/echo' }], vscode.ConfigurationTarget.Global);
  let model: vscode.LanguageModelChat | undefined;
  for (let i = 0; i < 100 && !model; i++) {
    model = (await vscode.lm.selectChatModels({ vendor: 'llm-spaces' })).find(
      (m) => m.id === `space:${spaceId}|model:test/echo`,
    );
    if (!model) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!model)
    throw new Error(
      `No pinned test/echo among the chat models: ${JSON.stringify((await vscode.lm.selectChatModels({ vendor: 'llm-spaces' })).map((m) => m.id))}`,
    );
  const prompt = 'How long until the first token arrives? '.repeat(20);
  const provider: number[] = [];
  const straight: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cancel = new vscode.CancellationTokenSource();
    let start = performance.now();
    const response = await model!.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, cancel.token);
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) break;
    }
    provider.push(performance.now() - start);
    cancel.cancel();
    const abort = new AbortController();
    start = performance.now();
    for await (const event of direct.completionStream(
      { app_id: spaceId, model: 'test/echo', messages: [{ role: 'user', content: prompt }] },
      abort.signal,
    )) {
      if (event.type === 'delta') break;
    }
    straight.push(performance.now() - start);
    abort.abort();
  }
  await direct.close();
  await vscode.workspace
    .getConfiguration('llmSpaces')
    .update('chat.pinnedModels', undefined, vscode.ConfigurationTarget.Global);
  return { providerMs: median(provider), directMs: median(straight) };
}

export async function run(): Promise<void> {
  try {
    await measure();
  } catch (error) {
    // The runner shows only the exit code; the reason goes where the figures would have gone.
    const out = process.env.LLM_SPACES_BENCH_OUT;
    if (out) writeFileSync(`${out}.error`, String((error as Error).stack ?? error));
    throw error;
  }
}

async function measure(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  if (ext.isActive) throw new Error('The extension was already active: the activation figure would not be cold.');
  const activate = activation(ext, 20);
  // The measured activations registered and dropped the chat provider twenty times; the host takes
  // those drops in order, after a moment, and would otherwise drop the real registration with them.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const api = (await ext.activate()) as ExtensionApi;
  const models = syntheticModels(10_000);
  const prompts: PromptRecord[] = syntheticPrompts(1_000);
  const before = memory();
  api.catalogue.setModels(models);
  for (const p of await api.views.models.getChildren()) await api.views.models.getChildren(p);
  prompts.forEach((p, i) => api.promptStore.remember(p, i % 2 === 0));
  await api.views.prompts.getChildren();
  const after = memory();
  const view = await modelsView(api, models, 7);
  const chat = await chatFirstToken(api, 15);
  const out = process.env.LLM_SPACES_BENCH_OUT;
  const figures = {
    activationMs: activate.median,
    activationRuns: activate.runs,
    modelsViewMs: view,
    memoryBefore: before,
    memoryAfter: after,
    chatFirstToken: chat,
  };
  if (out) writeFileSync(out, JSON.stringify(figures, null, 2));
  else console.log(JSON.stringify(figures, null, 2));
}
