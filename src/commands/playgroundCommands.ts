// Commands that open the webviews: playgrounds, "Send Selection to Playground", a Space's settings
// editor and the organization panel.
import * as vscode from 'vscode';
import { applyPrompt, fencedCode } from '../prompts/promptState';
import type { Services } from '../services';
import type { ModelNode } from '../views/modelsTree';
import type { SpaceNode } from '../views/spaceNodes';

const t = vscode.l10n.t;
const spaceIdOf = (node: unknown): string | undefined => {
  if (typeof node === 'string') return node;
  const n = node as SpaceNode | undefined;
  return n?.kind === 'space' ? n.space.id : undefined;
};

export function openPlayground(s: Services, node?: unknown): void {
  s.webviews.openPlayground(spaceIdOf(node));
}

/** A conversation of the Spaces view, shown in the playground used last (or a new one). */
export function openConversation(s: Services, node?: SpaceNode): void {
  if (node?.kind !== 'conversation') return;
  s.webviews.openConversation(node.spaceId, { id: node.conversation.id, name: node.conversation.name });
}

/**
 * The selection (or the current line) as a fenced block with its language and file name, wrapped in a
 * saved prompt if one is picked, goes to the playground used last. `presetPromptId` skips the pick
 * (null: send as is).
 */
export async function sendSelectionToPlayground(s: Services, preset?: unknown): Promise<void> {
  // From the editor's context menu VS Code passes the file's URI: that is no preset, the user picks.
  const presetPromptId = typeof preset === 'string' || preset === null ? preset : undefined;
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error(t('Open a file and select some code first.'));
  const selection = editor.selection.isEmpty
    ? editor.document.lineAt(editor.selection.active.line).range
    : editor.selection;
  const code = editor.document.getText(selection);
  if (!code.trim()) throw new Error(t('The selection is empty.'));
  const block = fencedCode(
    code,
    editor.document.languageId,
    vscode.workspace.asRelativePath(editor.document.uri, false),
  );
  const template = presetPromptId === undefined ? await pickTemplate(s) : await presetTemplate(s, presetPromptId);
  if (template === undefined) return;
  s.webviews.sendToPlayground(template ? applyPrompt(template, block) : block, null);
}

async function presetTemplate(s: Services, id: unknown): Promise<string> {
  if (id === null) return '';
  const prompt = typeof id === 'string' ? await s.promptStore.fetch(id) : undefined;
  if (!prompt) throw new Error(t('No saved prompt has the id {0}.', String(id)));
  return prompt.prompt;
}

/** '' sends the code as is; undefined means the pick was dismissed. */
async function pickTemplate(s: Services): Promise<string | undefined> {
  const prompts = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: t('Reading saved prompts') },
    () => s.promptStore.load('all'),
  );
  const asIs = { label: `$(send) ${t('Send the code as is')}`, template: '' };
  const items = prompts.map((p) => ({
    label: `$(note) ${p.title}`,
    description: p.prompt.includes('{{prompt}}') ? t('fills {{prompt}}') : t('code appended'),
    detail: p.description,
    template: p.prompt,
  }));
  const pick = await vscode.window.showQuickPick(
    [asIs, { label: t('Saved prompts'), kind: vscode.QuickPickItemKind.Separator, template: '' }, ...items],
    {
      title: t('Send Selection to Playground'),
      placeHolder: t('Wrap the code in a saved prompt, or send it as is'),
      matchOnDetail: true,
    },
  );
  return pick?.template;
}

export async function openSpaceSettings(s: Services, node?: unknown): Promise<void> {
  const id = spaceIdOf(node) ?? (await pickSpace(s));
  if (id) await s.webviews.openSpaceSettings(id);
}

async function pickSpace(s: Services): Promise<string | undefined> {
  const spaces = await s.spaces.list();
  if (spaces.length === 0) throw new Error(t('There is no Space yet. Create one, or add one by id.'));
  const pick = await vscode.window.showQuickPick(
    spaces.map((space) => ({
      label: space.name ?? space.id,
      description: space.sandbox_of ? t('sandbox') : '',
      id: space.id,
    })),
    { title: t('Open Space Settings'), placeHolder: t('Choose a Space') },
  );
  return pick?.id;
}

/**
 * Compare Models…: from a Space (its active models), from the models selected in the Models view, or
 * from the Command Palette (the selection in the editor, if any, as the prompt).
 */
export function compareModels(s: Services, node?: unknown, selected?: unknown): void {
  const nodes = Array.isArray(selected) && selected.length ? (selected as unknown[]) : [node];
  const models = nodes.flatMap((n) =>
    (n as ModelNode | undefined)?.kind === 'model'
      ? [(n as Extract<ModelNode, { kind: 'model' }>).model.namespace]
      : [],
  );
  if (models.length > 4)
    void vscode.window.showInformationMessage(
      t('A comparison takes up to 4 models: the first 4 selected are compared.'),
    );
  s.webviews.openCompare({
    appId: spaceIdOf(node) ?? null,
    prompt: selectionAsPrompt() ?? '',
    models: models.slice(0, 4),
  });
}

/** The editor's selection as a fenced block with its language and file name; undefined with none. */
function selectionAsPrompt(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const code = editor.document.getText(editor.selection);
  return code.trim()
    ? fencedCode(code, editor.document.languageId, vscode.workspace.asRelativePath(editor.document.uri, false))
    : undefined;
}

export function openOrganization(s: Services): void {
  s.webviews.openOrganization();
}
