// Commands on Spaces and what hangs under them.
import * as vscode from 'vscode';
import { assistantVersionUri } from '../assistantDocuments';
import { setPinned } from '../settings';
import { api } from '../lazy/api';
import type { Services } from '../services';
import type { SpaceNode } from '../views/spaceNodes';

const t = vscode.l10n.t;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Of<K extends SpaceNode['kind']> = Extract<SpaceNode, { kind: K }>;

export const refreshSpaces = (s: Services) => s.spaces.refresh();

export async function addSpaceById(s: Services, given?: unknown): Promise<void> {
  if (typeof given === 'string') {
    if (!UUID.test(given)) throw new Error(t('A Space id is a uuid.'));
    return s.spaces.addById(given);
  }
  const id = await vscode.window.showInputBox({
    title: t('Add a Space by id'),
    placeHolder: '00000000-0000-0000-0000-000000000000',
    validateInput: (v) => (UUID.test(v.trim()) ? undefined : t('A Space id is a uuid.')),
  });
  if (id) await s.spaces.addById(id.trim());
}

export async function createSpace(s: Services): Promise<void> {
  const name = await vscode.window.showInputBox({
    title: t('New Space'),
    prompt: t('Name'),
    validateInput: (v) => (v.trim() && v.length <= 120 ? undefined : t('1 to 120 characters')),
  });
  if (!name) return;
  const created = await s.spaces.create({ name: name.trim() });
  const copy = t('Copy Key');
  const choice = await vscode.window.showInformationMessage(
    t('Space "{0}" created. Copy its key now: it cannot be shown again.', name),
    {
      modal: true,
      detail: t(
        'The key ends in …{0}. Copy Key puts the whole key on the clipboard; VS Code keeps it for the chat either way.',
        created.key_end,
      ),
    },
    copy,
  );
  if (choice === copy) await vscode.env.clipboard.writeText(created.created_key);
}

export async function toggleModel(s: Services, node: Of<'spaceModel'>): Promise<void> {
  const result = await s.spaces.toggleModel(node.spaceId, node.setting.id, !node.setting.active);
  vscode.window.setStatusBarMessage(result.active ? t('{0} is on', result.model) : t('{0} is off', result.model), 3000);
}

/** Offers a model of a Space in VS Code's chat on its own (or stops offering it). */
export async function pinModelToChat(_s: Services, node: Of<'spaceModel'>, pin = true): Promise<void> {
  await setPinned({ space: node.spaceId, model: node.setting.namespace }, pin);
  vscode.window.setStatusBarMessage(
    pin
      ? t("{0} is in VS Code's chat", node.setting.namespace)
      : t("{0} is no longer in VS Code's chat", node.setting.namespace),
    3000,
  );
}

export const unpinModelFromChat = (s: Services, node: Of<'spaceModel'>) => pinModelToChat(s, node, false);

export async function renameConversation(s: Services, node: Of<'conversation'>, newName?: unknown): Promise<void> {
  const name =
    typeof newName === 'string'
      ? newName
      : await vscode.window.showInputBox({
          title: t('Rename conversation'),
          value: node.conversation.name,
          validateInput: (v) => (v.trim() && v.length <= 200 ? undefined : t('1 to 200 characters')),
        });
  if (!name || name === node.conversation.name) return;
  if (name.trim().length === 0 || name.length > 200) throw new Error(t('A conversation name has 1 to 200 characters.'));
  await s.connection.call((c) => c.updateConversation(node.spaceId, node.conversation.id, { name: name.trim() }));
  s.spaces.changedSpace(node.spaceId);
}

/** Picks the conversation's assistant version, or applies `preset` ({assistant_id, assistant_version_id}). */
export async function changeConversationAssistant(
  s: Services,
  node: Of<'conversation'>,
  preset?: unknown,
): Promise<void> {
  if (preset !== undefined) {
    const settings = api().presets.conversationSettingsPreset(preset);
    await s.connection.call((c) => c.updateConversation(node.spaceId, node.conversation.id, { settings }));
    return s.spaces.changedSpace(node.spaceId);
  }
  const assistants = (await s.spaces.assistants(node.spaceId)) ?? [];
  const none = {
    label: `$(circle-slash) ${t('No assistant')}`,
    settings: { assistant_id: null, assistant_version_id: null },
  };
  const items = assistants.flatMap((a) =>
    a.versions.map((v, i) => ({
      label: `$(person) ${a.name}`,
      description: `${t('version {0}', i + 1)}${v.published ? ` · ${t('published')}` : ''}`,
      settings: { assistant_id: a.id, assistant_version_id: v.id },
    })),
  );
  const pick = await vscode.window.showQuickPick([none, ...items], {
    title: t('Assistant for "{0}"', node.conversation.name),
  });
  if (!pick) return;
  await s.connection.call((c) => c.updateConversation(node.spaceId, node.conversation.id, { settings: pick.settings }));
  s.spaces.changedSpace(node.spaceId);
}

export async function openAssistantVersion(s: Services, node: Of<'assistantVersion'>): Promise<void> {
  const uri = assistantVersionUri(node.spaceId, node.assistantId, node.version.id, t('Version {0}', node.index + 1));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(doc, { preview: true });
}

export async function copyId(_s: Services, node: SpaceNode): Promise<void> {
  const id =
    node.kind === 'space'
      ? node.space.id
      : node.kind === 'conversation'
        ? node.conversation.id
        : node.kind === 'assistant'
          ? node.assistant.id
          : node.kind === 'assistantVersion'
            ? node.version.id
            : node.kind === 'spaceModel'
              ? node.setting.id
              : undefined;
  if (!id) return;
  await vscode.env.clipboard.writeText(id);
  vscode.window.setStatusBarMessage(t('Copied {0}', id), 3000);
}
