// Commands on prompt files in the workspace: export a saved prompt, import a file as a new prompt,
// compare with the service, push and pull. Without an argument they act on the active editor.
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { PromptNode } from '../views/promptsTree';

const t = vscode.l10n.t;

function promptFileOf(uri: unknown): vscode.Uri {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (!target || !target.path.endsWith('.prompt.md')) throw new Error(t('Open a prompt file (.prompt.md) first.'));
  return target;
}

export async function exportPrompt(s: Services, node?: PromptNode): Promise<void> {
  let prompt = node?.prompt;
  if (!prompt) {
    const prompts = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: t('Reading saved prompts') },
      () => s.promptStore.load('all'),
    );
    const pick = await vscode.window.showQuickPick(
      prompts.map((p) => ({ label: p.title, description: p.description, prompt: p })),
      { title: t('Export Prompt to Workspace'), placeHolder: t('Choose the saved prompt to write as a prompt file') },
    );
    if (!pick) return;
    prompt = pick.prompt;
  }
  const uri = await s.promptFiles.exportPrompt(prompt);
  await vscode.window.showTextDocument(uri);
  vscode.window.setStatusBarMessage(
    t('Exported "{0}" to {1}', prompt.title, vscode.workspace.asRelativePath(uri, false)),
    5000,
  );
}

export async function importPromptFile(s: Services, uri?: unknown): Promise<void> {
  const created = await s.promptFiles.importFile(promptFileOf(uri));
  void vscode.window.showInformationMessage(t('Saved on the service as "{0}", a draft.', created.title));
}

export async function comparePromptWithService(s: Services, uri?: unknown): Promise<void> {
  await s.promptFiles.compare(promptFileOf(uri));
}

export async function pushPromptFile(s: Services, uri?: unknown): Promise<void> {
  const done = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: t('Pushing the prompt file') },
    () => s.promptFiles.push(promptFileOf(uri)),
  );
  if (done === 'pushed') vscode.window.setStatusBarMessage(t('Pushed to the service.'), 5000);
  if (done === 'same') void vscode.window.showInformationMessage(t('The file is already the same as the service.'));
}

export async function pullPromptFile(s: Services, uri?: unknown): Promise<void> {
  const done = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: t('Pulling the prompt file') },
    () => s.promptFiles.pull(promptFileOf(uri)),
  );
  if (done === 'pulled') vscode.window.setStatusBarMessage(t('Pulled from the service.'), 5000);
  if (done === 'same') void vscode.window.showInformationMessage(t('The file is already the same as the service.'));
}
