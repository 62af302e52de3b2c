// Commands on saved prompts.
import * as vscode from 'vscode';
import { PROMPT_DESCRIPTION_MAX, PROMPT_TITLE_MAX } from '../api/limits';
import type { PromptShow } from '../api/schemas';
import { promptUri } from '../prompts/promptFileSystem';
import { api } from '../lazy/api';
import type { Services } from '../services';
import type { PromptNode } from '../views/promptsTree';
import { variablesOf } from '../shared/promptVariables';

const t = vscode.l10n.t;

export const checkTitle = (v: string) =>
  v.length >= 1 && v.length <= PROMPT_TITLE_MAX
    ? undefined
    : t('The title needs 1 to {0} characters ({1} now).', PROMPT_TITLE_MAX, v.length);
export const checkDescription = (v: string) =>
  v.length >= 1 && v.length <= PROMPT_DESCRIPTION_MAX
    ? undefined
    : t('The description needs 1 to {0} characters ({1} now).', PROMPT_DESCRIPTION_MAX, v.length);

export async function filterPrompts(s: Services): Promise<void> {
  const items: Array<vscode.QuickPickItem & { show: PromptShow }> = [
    { label: t('All prompts'), show: 'all' },
    { label: t('Organization prompts'), show: 'org' },
    { label: t('Public prompts'), show: 'public' },
  ];
  const pick = await vscode.window.showQuickPick(
    items.map((i) => ({
      ...i,
      picked: i.show === s.views.prompts.show,
      description: i.show === s.views.prompts.show ? t('current') : '',
    })),
    { title: t('Show prompts') },
  );
  if (pick) await s.views.prompts.setShow(pick.show);
}

/**
 * Creates a prompt from the editor's selection (or empty). Title and description are asked for, or
 * taken from `preset` when a caller (a keybinding, a test) passes them; both pass the same checks.
 */
export async function createPrompt(s: Services, fromSelection: boolean, preset?: unknown): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const text = fromSelection && editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
  const given = api().presets.newPromptPreset(preset);
  const title = given
    ? given.title
    : await vscode.window.showInputBox({
        title: t('New prompt (1/2)'),
        prompt: t('Title'),
        validateInput: checkTitle,
        ignoreFocusOut: true,
      });
  if (title === undefined) return;
  const description = given
    ? given.description
    : await vscode.window.showInputBox({
        title: t('New prompt (2/2)'),
        prompt: t('Description'),
        validateInput: checkDescription,
        ignoreFocusOut: true,
      });
  if (description === undefined) return;
  const problem = checkTitle(title) ?? checkDescription(description);
  if (problem) throw new Error(problem);
  const created = await s.connection.call((c) => c.createPrompt({ title, description, prompt: text }));
  s.promptStore.remember(created, true);
  await vscode.window.showTextDocument(promptUri(created));
}

export async function insertPrompt(_s: Services, node: PromptNode): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    const doc = await vscode.workspace.openTextDocument({ content: node.prompt.prompt, language: 'markdown' });
    await vscode.window.showTextDocument(doc);
    return;
  }
  await editor.edit((edit) => edit.replace(editor.selection, node.prompt.prompt));
}

export async function copyPrompt(_s: Services, node: PromptNode): Promise<void> {
  await vscode.env.clipboard.writeText(node.prompt.prompt);
  vscode.window.setStatusBarMessage(t('Copied "{0}"', node.prompt.title), 3000);
}

/**
 * A saved prompt as OpenAI's Responses API names it (`prompt`: its id, and each placeholder to fill in),
 * which the built-in service reads before a request's instructions, for the OpenAI SDK or any client of
 * that API sending through a Space.
 */
export async function copyPromptForResponses(_s: Services, node: PromptNode): Promise<void> {
  const variables = Object.fromEntries(variablesOf(node.prompt.prompt).map((name) => [name, '']));
  const prompt = { id: node.prompt.id, ...(Object.keys(variables).length ? { variables } : {}) };
  await vscode.env.clipboard.writeText(JSON.stringify({ prompt }, null, 2));
  vscode.window.setStatusBarMessage(
    t('Copied "{0}" for the prompt field of a Responses request', node.prompt.title),
    3000,
  );
}

export async function deletePrompt(s: Services, node: PromptNode, confirmed?: unknown): Promise<void> {
  const remove = t('Delete');
  if (confirmed !== true) {
    const choice = await vscode.window.showWarningMessage(
      t('Delete the prompt "{0}"?', node.prompt.title),
      { modal: true, detail: t('It is removed from the service for the whole organization.') },
      remove,
    );
    if (choice !== remove) return;
  }
  await s.connection.call((c) => c.deletePrompt(node.prompt.id));
  s.promptStore.forget(node.prompt.id);
  await s.promptFs.deleted(node.prompt.id);
}

export const refreshPrompts = (s: Services) => s.views.prompts.refresh();
