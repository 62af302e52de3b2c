// Model ids in the workspace's files, in the real extension host against the built-in service's
// catalogue: each diagnostic, the hover card, the quick fix (the file's text checked after), the
// bounded scan of files not open and its count, and the catalogue saved on disk for startup and offline.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CatalogueStore } from '../../src/stores/catalogueStore';
import type { Connection } from '../../src/connection/connection';
import { CatalogueCache } from '../../src/workspace/catalogueCache';
import { WorkspaceModelIds } from '../../src/workspace/modelIds';
import { extension, waitFor } from './support';
import { dayLabel } from '../../src/shared/labels';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const write = async (relative: string, text: string) => {
  const uri = vscode.Uri.joinPath(folder(), relative);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
};
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'LLM Spaces');
const hoverText = (hovers: vscode.Hover[]) =>
  hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');

describe('model ids in the workspace', () => {
  const CONFIG = [
    '# models the app uses',
    'PRIMARY_MODEL=mistral/mistral-tiny',
    'FALLBACK_MODEL=google/gemini-2.5-flash-preview',
    'EXPERIMENT=openai/gpt-9-mini',
    'CHEAP=gpt-4o-mini',
    'NEWER=gpt-5.4-mini',
    '',
  ].join('\n');
  let config: vscode.Uri;

  before(async () => {
    const api = await extension();
    // The catalogue as every surface reads it; the model ids follow.
    await api.catalogue.models();
    await api.modelIds.ready;
    config = await write('models.env', CONFIG);
    await vscode.window.showTextDocument(config);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of ['models.env', 'pipeline.yaml'])
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), name)).then(undefined, () => undefined);
  });

  it('marks a retired model as an error, one to be retired as a warning, each with its day, and an unknown id of a known provider as a hint', async () => {
    const diagnostics = await waitFor(() => (ours(config).length === 4 ? ours(config) : undefined), 'four diagnostics');
    const by = (line: number) => diagnostics.find((d) => d.range.start.line === line)!;
    assert.equal(by(1).severity, vscode.DiagnosticSeverity.Error);
    // The day in words, as every view writes one (dayLabel: "23 Sept 2026").
    const retiredOn = dayLabel('2026-09-23');
    assert.equal(by(1).message, `mistral/mistral-tiny was retired on ${retiredOn} and is no longer served.`);
    assert.deepEqual([by(1).range.start.character, by(1).range.end.character], [14, 34]);
    assert.equal(by(2).severity, vscode.DiagnosticSeverity.Error);
    assert.equal(by(2).message, `google/gemini-2.5-flash-preview was retired on ${retiredOn} and is no longer served.`);
    assert.equal(by(3).severity, vscode.DiagnosticSeverity.Information);
    assert.match(
      by(3).message,
      /^openai\/gpt-9-mini is not in the model catalogue, which has \d+ other models of openai\.$/,
    );
    // By its bare name; OpenAI retires it (providers/retirements.ts), and the file says so ahead of the day.
    assert.equal(by(4).severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(
      by(4).message,
      `openai/gpt-4o-mini is deprecated: it stops being served on ${dayLabel('2027-01-14')}.`,
    );
    assert.ok(!diagnostics.some((d) => d.range.start.line === 5), 'a current model is not marked');
  });

  it('shows the same card as the Models view on hover: price, context window, capabilities, deprecation', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      config,
      new vscode.Position(1, 20),
    );
    const text = hoverText(hovers);
    assert.match(text, /\*\*mistral\/mistral-tiny\*\*/);
    assert.match(text, /\$0\.25 in \/ \$0\.25 out per M tokens/);
    assert.match(text, /context window 32,768 tokens/);
    assert.ok(text.includes(`Retired on ${dayLabel('2026-09-23')}: no longer served`), text);
    const current = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        config,
        new vscode.Position(4, 8),
      ),
    );
    assert.match(current, /\*\*openai\/gpt-4o-mini\*\*/, 'found by its api target');
  });

  it('offers successors as quick fixes, its own family first, then cheapest, and replaces the id with the one chosen', async () => {
    const error = ours(config).find((d) => d.range.start.line === 1)!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      config,
      error.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.filter((a) => a.title.startsWith('Replace with')).map((a) => a.title);
    assert.ok(titles.length >= 2, titles.join(' | '));
    // The same provider's, each with its price: mistral-… (the family of mistral-tiny) first, then
    // the others, each cheapest first.
    const offered = titles.map((title) => {
      const price = /^Replace with mistral\/(\S+) \(\$([\d.]+) in \/ \$([\d.]+) out per M tokens\)$/.exec(title);
      assert.ok(price, title);
      return [price[1]!.startsWith('mistral-') ? 0 : 1, Number(price[2]) + Number(price[3])] as const;
    });
    assert.deepEqual(
      offered,
      [...offered].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    );
    assert.ok(!actions.some((a) => a.isPreferred), 'offered, not applied for you');
    const second = actions.find((a) => a.title === titles[1])!;
    assert.ok(await vscode.workspace.applyEdit(second.edit!));
    const document = await vscode.workspace.openTextDocument(config);
    const chosen = /^Replace with (\S+)/.exec(titles[1]!)![1]!;
    assert.equal(document.lineAt(1).text, `PRIMARY_MODEL=${chosen}`);
    assert.equal(
      document.getText().replace(`PRIMARY_MODEL=${chosen}`, 'PRIMARY_MODEL=mistral/mistral-tiny'),
      CONFIG,
      'nothing else changed',
    );
    await waitFor(() => ours(config).length === 3 || undefined, 'the error gone once fixed');
    await document.save();
  });

  it('scans the files that are not open, and counts the deprecated ids in the status bar', async () => {
    const api = await extension();
    const pipeline = await write('pipeline.yaml', 'steps:\n  - name: summarize\n    model: mistral/devstral-small\n');
    await api.modelIds.scanWorkspace();
    const diagnostics = await waitFor(
      () => (ours(pipeline).length ? ours(pipeline) : undefined),
      'a diagnostic on a file never opened',
    );
    assert.equal(diagnostics[0]!.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([diagnostics[0]!.range.start.line, diagnostics[0]!.range.start.character], [2, 11]);
    const places = api.modelIds
      .deprecatedPlaces()
      .map((p) => `${vscode.workspace.asRelativePath(p.uri)}:${p.range.start.line + 1}:${p.found.text}`);
    assert.ok(places.includes('pipeline.yaml:3:mistral/devstral-small'), places.join(', '));
    assert.ok(places.includes('models.env:3:google/gemini-2.5-flash-preview'), places.join(', '));
    assert.match(api.modelIds.status.text, /^\$\(warning\) \d+ deprecated model ids$/);
    // A change on disk to a file that is not open is noticed.
    await write('pipeline.yaml', 'steps:\n  - name: summarize\n    model: anthropic/claude-haiku-4-5\n');
    await waitFor(() => ours(pipeline).length === 0 || undefined, 'the fixed file to be clear');
  });

  it('saves the catalogue on disk, and marks hovers from the saved copy, stale once a week old', async () => {
    const api = await extension();
    // The copy the extension wrote when it read the catalogue, beside the built-in service's data.
    const saved = await new CatalogueCache(vscode.Uri.file(path.dirname(api.connection.localDataDir))).read('local');
    assert.ok(saved && saved.models.length === (await api.catalogue.models()).length, 'the whole catalogue saved');
    // A window with no service answering: the saved copy is all there is.
    const offlineDir = path.join(os.tmpdir(), `llm-spaces-cache-${process.pid}`);
    const offline = new CatalogueCache(vscode.Uri.file(offlineDir));
    await offline.write('local', saved.models, Date.now() - 10 * 24 * 3600 * 1000);
    const noService = { mode: 'local', url: undefined } as unknown as Connection;
    const neverRead = {
      onDidRead: () => ({ dispose: () => undefined }),
      models: () => Promise.reject(new Error('Nothing answers.')),
    } as unknown as CatalogueStore;
    const ids = new WorkspaceModelIds(noService, neverRead, offline);
    try {
      await ids.ready;
      const document = await vscode.workspace.openTextDocument(config);
      const hover = ids.provideHover(document, new vscode.Position(2, 20))!;
      const text = hoverText([hover]);
      assert.match(text, /\*\*google\/gemini-2\.5-flash-preview\*\*/);
      assert.match(text, /From the catalogue saved on .*, which is more than a week old and may be out of date\./);
      assert.ok(
        ids.diagnostics.get(config)?.some((d) => d.severity === vscode.DiagnosticSeverity.Error),
        'diagnostics from the saved copy too',
      );
    } finally {
      ids.dispose();
      rmSync(offlineDir, { recursive: true, force: true });
    }
  });
});
