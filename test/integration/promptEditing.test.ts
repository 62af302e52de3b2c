// Editing saved prompts in the editor through the llm-prompt file system.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { promptUri } from '../../src/prompts/promptFileSystem';
import { extension, serviceClient, waitFor } from './support';

async function openFresh(title: string) {
  const api = await extension();
  const client = await serviceClient(api);
  const prompt = await client.createPrompt({ prompt: 'original text', title, description: 'for editing' });
  await api.promptStore.load('all');
  const editor = await vscode.window.showTextDocument(promptUri(prompt));
  return { api, client, prompt, editor };
}

async function replaceAll(editor: vscode.TextEditor, text: string) {
  const doc = editor.document;
  await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
}

describe('editing prompts in the editor', () => {
  it('opens a prompt as a document and saving sends it to the service', async () => {
    const { client, prompt, editor } = await openFresh('Edit me');
    assert.equal(editor.document.getText(), 'original text');
    assert.equal(editor.document.uri.path, '/Edit me.md', 'the tab and the breadcrumbs read as the title, with no id');
    await replaceAll(editor, 'edited in VS Code');
    assert.ok(await editor.document.save());
    const stored = (await client.listPrompts('org')).find((p) => p.id === prompt.id)!;
    assert.equal(stored.prompt, 'edited in VS Code');
    assert.ok(!editor.document.isDirty);
  });

  it('a failed save keeps the editor dirty with the user’s text, and says why in words', async () => {
    const { client, prompt, editor } = await openFresh('Deleted underneath');
    await client.deletePrompt(prompt.id);
    await replaceAll(editor, 'words I must not lose');
    const saved = await editor.document.save();
    assert.equal(saved, false);
    assert.ok(editor.document.isDirty);
    assert.equal(editor.document.getText(), 'words I must not lose');
    const api = await extension();
    await assert.rejects(
      Promise.resolve(api.promptFs.writeFile(editor.document.uri, new TextEncoder().encode('x'))),
      (error: Error) =>
        /This prompt was deleted\. Your text is still in the editor/.test(error.message) &&
        !/read-only|llm-prompt:|NoPermissions/.test(error.message),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('closes the editor of a prompt deleted from the Prompts view, and keeps one with unsaved text open', async () => {
    const tabsOf = (id: string) =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.query === id);
    const clean = await openFresh('Deleted clean');
    await vscode.commands.executeCommand('llmSpaces.deletePrompt', { prompt: clean.prompt, own: true }, true);
    await waitFor(() => tabsOf(clean.prompt.id).length === 0 || undefined, 'the clean editor to close');

    const dirty = await openFresh('Deleted dirty');
    await replaceAll(dirty.editor, 'not saved yet');
    await vscode.commands.executeCommand('llmSpaces.deletePrompt', { prompt: dirty.prompt, own: true }, true);
    assert.equal(tabsOf(dirty.prompt.id).length, 1, 'the text not saved stays open');
    assert.equal(dirty.editor.document.getText(), 'not saved yet');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('asks before overwriting a prompt changed on the service since it was opened', async () => {
    const { api, client, prompt, editor } = await openFresh('Changed elsewhere');
    await client.updatePrompt(prompt.id, { prompt: 'changed by a colleague' });
    await replaceAll(editor, 'my version');
    const asked: string[] = [];
    api.promptFs.askConflict = async (p) => {
      asked.push(p.prompt);
      return 'cancel';
    };
    assert.equal(await editor.document.save(), false);
    assert.deepEqual(asked, ['changed by a colleague']);
    assert.equal((await client.listPrompts('org')).find((p) => p.id === prompt.id)!.prompt, 'changed by a colleague');
    assert.equal(editor.document.getText(), 'my version');
    api.promptFs.askConflict = async () => 'overwrite';
    assert.ok(await editor.document.save());
    assert.equal((await client.listPrompts('org')).find((p) => p.id === prompt.id)!.prompt, 'my version');
  });

  it('opens public prompts of others read-only', async () => {
    const api = await extension();
    const client = await serviceClient(api);
    const publicPrompt = (await client.listPrompts('public'))[0]!;
    await api.promptStore.load('all');
    const stat = await vscode.workspace.fs.stat(promptUri(publicPrompt));
    assert.equal(stat.permissions, vscode.FilePermission.Readonly);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(promptUri(publicPrompt), Buffer.from('mine'))));
    await waitFor(
      async () => (await client.listPrompts('public'))[0]!.prompt === publicPrompt.prompt,
      'unchanged public prompt',
    );
  });
});
