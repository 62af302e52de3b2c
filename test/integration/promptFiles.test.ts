// Saved prompts as prompt files in the workspace, in the real extension host against the built-in
// service: export and import round trips (text and placeholders unchanged), the lock file, the diff
// with the service, push and pull (each with its conflict question), the review state and a decline
// reason on the file.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptRecord } from '../../src/api/schemas';
import { LOCK_PATH, fromPromptFile, parseLock, toPromptFile } from '../../src/workspace/promptFiles';
import { extension, serviceClient, waitFor } from './support';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
const lock = async () => parseLock(await read(vscode.Uri.joinPath(folder(), LOCK_PATH)));
/** The code lenses' titles, as VS Code collects them (the document opened first: a file just written may not be known yet). */
async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  await vscode.workspace.openTextDocument(uri);
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)).map(
    (l) => l.command?.title ?? '',
  );
}

describe('prompt files in the workspace', () => {
  let prompt: PromptRecord;
  let file: vscode.Uri;

  before(async () => {
    const api = await extension();
    const client = await serviceClient(api);
    prompt = await client.createPrompt({
      title: 'Review a diff in a language',
      description: 'Reviews a diff: risks first.',
      prompt: 'Review this {{language}} diff. Risks first.\n\n{{prompt}}',
    });
    await api.promptStore.load('all');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs
      .delete(vscode.Uri.joinPath(folder(), '.github'), { recursive: true })
      .then(undefined, () => undefined);
    await vscode.workspace.fs
      .delete(vscode.Uri.joinPath(folder(), '.llm-spaces'), { recursive: true })
      .then(undefined, () => undefined);
  });

  it('exports a saved prompt as a prompt file VS Code can run, and records it in the lock file', async () => {
    await vscode.commands.executeCommand('llmSpaces.exportPrompt', { prompt, own: true });
    file = vscode.Uri.joinPath(folder(), '.github/prompts/review-a-diff-in-a-language.prompt.md');
    const text = await read(file);
    assert.equal(
      text,
      '---\nname: review-a-diff-in-a-language\ndescription: "Reviews a diff: risks first."\nargument-hint: language, prompt\n---\nReview this ${input:language} diff. Risks first.\n\n${input:prompt}',
    );
    assert.equal(fromPromptFile(text).prompt, prompt.prompt, 'the text and its placeholders come back unchanged');
    const entry = (await lock()).prompts['.github/prompts/review-a-diff-in-a-language.prompt.md'];
    assert.equal(entry?.id, prompt.id);
    assert.equal(entry?.state, 'draft');
    assert.equal(entry?.modifiedOn, prompt.modified_on);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.toString(), 'the file is opened');
    const again = await (await extension()).promptFiles.exportPrompt(prompt).then(
      () => 'exported',
      (error: Error) => error.message,
    );
    assert.match(
      again,
      /already in the workspace as \.github\/prompts\/review-a-diff-in-a-language\.prompt\.md; use Pull/,
    );
  });

  it('shows the review state and that the file is the same as the service', async () => {
    const titles = await waitFor(
      async () =>
        (await lensTitles(file)).some((l) => l.includes('Same as the service')) ? lensTitles(file) : undefined,
      'the lenses',
    );
    assert.deepEqual(titles, ['$(edit) Draft', '$(check) Same as the service']);
    assert.equal((await extension()).promptFiles.provideFileDecoration(file), undefined, 'no badge while in step');
  });

  it('imports a prompt file as a new saved prompt, placeholders as the service writes them', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const uri = vscode.Uri.joinPath(folder(), '.github/prompts/explain-sql.prompt.md');
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(
        '---\nname: explain-sql\ndescription: Explains a query in plain words.\n---\nExplain this ${input:dialect} query:\n\n${input:prompt}\n',
      ),
    );
    await vscode.commands.executeCommand('llmSpaces.importPromptFile', uri);
    const created = (await client.listPrompts('org')).find((p) => p.title === 'Explain sql');
    assert.ok(created, 'on the service');
    assert.equal(created.prompt, 'Explain this {{dialect}} query:\n\n{{prompt}}\n');
    assert.equal(created.description, 'Explains a query in plain words.');
    assert.equal((await lock()).prompts['.github/prompts/explain-sql.prompt.md']?.id, created.id);
    // Exported back, it is the same file.
    assert.equal(toPromptFile(created).split('\n---\n')[1], (await read(uri)).split('\n---\n')[1]);
  });

  it('marks a file changed here, compares it with the service in the diff editor, and pushes it', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, document.lineAt(document.lineCount - 1).range.end, '\n\nEnd with a verdict.');
    await vscode.workspace.applyEdit(edit);
    await document.save();
    await waitFor(
      async () => (await api.promptFiles.refresh(file))?.state === 'local' || undefined,
      'the change noticed',
    );
    assert.deepEqual(await lensTitles(file), [
      '$(edit) Draft',
      '$(arrow-up) Changed here: Push',
      'Compare with Service',
    ]);
    assert.equal(api.promptFiles.provideFileDecoration(file)?.badge, '≠');

    await vscode.commands.executeCommand('llmSpaces.comparePromptWithService', file);
    const tab = await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab, 'the diff tab');
    assert.ok(tab.input instanceof vscode.TabInputTextDiff, 'a diff editor');
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'llm-prompt-service');
    assert.equal(input.modified.toString(), file.toString());
    assert.equal(
      (await vscode.workspace.openTextDocument(input.original)).getText(),
      toPromptFile(prompt),
      "the service's side, as a prompt file",
    );

    assert.equal(await api.promptFiles.push(file), 'pushed');
    const pushed = (await client.listPrompts('org')).find((p) => p.id === prompt.id)!;
    assert.equal(pushed.prompt, `${prompt.prompt}\n\nEnd with a verdict.`);
    assert.equal(
      (await lock()).prompts['.github/prompts/review-a-diff-in-a-language.prompt.md']?.modifiedOn,
      pushed.modified_on,
    );
    assert.equal((await api.promptFiles.status(file))?.state, 'same');
  });

  it('asks before pushing over a newer service version, and saves nothing when told not to', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    await client.updatePrompt(prompt.id, { description: 'Changed on the service meanwhile.' });
    await api.promptStore.load('all');
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, document.lineAt(document.lineCount - 1).range.end, ' Be brief.');
    await vscode.workspace.applyEdit(edit);
    await document.save();
    const asked: string[][] = [];
    api.promptFiles.askPush = async (title, changed) => (asked.push([title, changed]), 'cancel');
    assert.equal(await api.promptFiles.push(file), 'cancelled');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]![0], 'Review a diff in a language');
    // When it was changed, as a person reads a date (not the service's ISO stamp).
    assert.match(asked[0]![1]!, /^\d{1,2} \w+ \d{4}, \d\d:\d\d$/);
    let now = (await client.listPrompts('org')).find((p) => p.id === prompt.id)!;
    assert.equal(now.description, 'Changed on the service meanwhile.', 'the service kept its version');
    assert.ok(!now.prompt.endsWith('Be brief.'));
    assert.deepEqual((await lensTitles(file)).slice(1), [
      '$(git-compare) Changed here and on the service',
      'Push',
      'Pull',
    ]);
    api.promptFiles.askPush = async () => 'overwrite';
    assert.equal(await api.promptFiles.push(file), 'pushed');
    now = (await client.listPrompts('org')).find((p) => p.id === prompt.id)!;
    assert.ok(now.prompt.endsWith('Be brief.'));
    assert.equal(now.description, 'Reviews a diff: risks first.', "the file's description won");
  });

  it("pulls the service's text into the file, and asks before discarding changes made here", async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const theirs = await client.updatePrompt(prompt.id, {
      prompt: 'Review this {{language}} diff, briefly.\n\n{{prompt}}',
    });
    await api.promptStore.load('all');
    assert.equal((await api.promptFiles.status(file))?.state, 'service');
    assert.equal(await api.promptFiles.pull(file), 'pulled');
    assert.equal(await read(file), toPromptFile(theirs));
    assert.equal((await api.promptFiles.status(file))?.state, 'same');
    // A change here, then a pull: asked first; declining keeps the change.
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, new vscode.Position(document.lineCount - 1, 0), 'Local note. ');
    await vscode.workspace.applyEdit(edit);
    await document.save();
    await client.updatePrompt(prompt.id, { prompt: 'Review this {{language}} diff, very briefly.\n\n{{prompt}}' });
    await api.promptStore.load('all');
    api.promptFiles.askPull = async () => false;
    assert.equal(await api.promptFiles.pull(file), 'cancelled');
    assert.ok((await read(file)).includes('Local note. '));
    api.promptFiles.askPull = async () => true;
    assert.equal(await api.promptFiles.pull(file), 'pulled');
    assert.ok((await read(file)).includes('very briefly') && !(await read(file)).includes('Local note. '));
  });

  it('shows a declined prompt as declined, with the reason as a diagnostic on the first line', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const declined = (await client.listPrompts('org')).find((p) => p.title === 'Marketing tagline')!;
    const uri = await api.promptFiles.exportPrompt(declined);
    const titles = await waitFor(
      async () => ((await lensTitles(uri)).length ? lensTitles(uri) : undefined),
      'the lenses',
    );
    assert.equal(titles[0], '$(error) Declined: Off-topic for an engineering organization.');
    const diagnostics = await waitFor(
      () => (vscode.languages.getDiagnostics(uri).length ? vscode.languages.getDiagnostics(uri) : undefined),
      'the decline diagnostic',
    );
    assert.equal(diagnostics[0]!.message, 'Declined in review: Off-topic for an engineering organization.');
    assert.equal(diagnostics[0]!.range.start.line, 0);
    assert.equal(diagnostics[0]!.severity, vscode.DiagnosticSeverity.Warning);
  });
});
