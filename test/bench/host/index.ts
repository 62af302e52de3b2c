// Benchmarks inside the real extension host (code-server), run by test/bench/run.ts through the
// integration runner. Not tests: they measure and write their figures to LLM_SPACES_BENCH_OUT.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ModelRecord, PromptRecord } from '../../../src/api/schemas';
import type { ExtensionApi } from '../../../src/extension';
import { median } from '../stats';
import { syntheticModels, syntheticPrompts } from '../synthetic';

const EXTENSION_ID = 'llm-spaces.llm-spaces';

/** An ExtensionContext with what activate() uses, so it can run many times without the real one. */
function contextFor(ext: vscode.Extension<unknown>, run: number): vscode.ExtensionContext {
  const store = new Map<string, unknown>();
  const memento: vscode.Memento = { keys: () => [...store.keys()], get: <T>(k: string, d?: T) => (store.has(k) ? (store.get(k) as T) : d), update: async (k, v) => void store.set(k, v) };
  const secrets = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    subscriptions: [],
    extensionUri: ext.extensionUri,
    extensionPath: ext.extensionPath,
    globalState: Object.assign(memento, { setKeysForSync: () => undefined }),
    workspaceState: memento,
    globalStorageUri: vscode.Uri.file(path.join(os.tmpdir(), `llm-spaces-bench-${process.pid}-${run}`)),
    secrets: { get: async (k: string) => secrets.get(k), store: async (k: string, v: string) => void secrets.set(k, v), delete: async (k: string) => void secrets.delete(k), onDidChange: changed.event, keys: async () => [...secrets.keys()] },
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

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  if (ext.isActive) throw new Error('The extension was already active: the activation figure would not be cold.');
  const activate = activation(ext, 20);
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
  const out = process.env.LLM_SPACES_BENCH_OUT;
  const figures = { activationMs: activate.median, activationRuns: activate.runs, modelsViewMs: view, memoryBefore: before, memoryAfter: after };
  if (out) writeFileSync(out, JSON.stringify(figures, null, 2));
  else console.log(JSON.stringify(figures, null, 2));
}
