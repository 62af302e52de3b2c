// VS Code's chat runs its small tasks (a conversation's title, summaries) on a "utility model", which
// by default is GitHub Copilot's, and so asks for a Copilot sign-in ("Sign in to use GitHub Copilot")
// before it sends anything, even to a Space. The setting `chat.byokUtilityModelDefault` set to
// "mainAgent" runs those tasks on the model chatted with. This finds that state, says why in words,
// and sets the setting when the user agrees (offered once; the command does it at any time). Whether
// the chat's own agent then sends without Copilot is VS Code's to decide: builds without Copilot's
// extension still ask for a sign-in in agent mode, which the README says; `@spaces`
// (chatParticipant.ts) answers without it.
import * as vscode from 'vscode';

const t = vscode.l10n.t;
const SECTION = 'chat';
const KEY = 'byokUtilityModelDefault';
const OFFERED = 'llmSpaces.chatSetupOffered';
/** The extension that provides Copilot's models, which the default needs. */
const COPILOT_CHAT = 'GitHub.copilot-chat';

/** Whether this VS Code's chat would ask for a Copilot sign-in before it lets a Space answer. */
export function chatNeedsSetup(): boolean {
  const setting = vscode.workspace.getConfiguration(SECTION).inspect<string>(KEY);
  // A VS Code without the setting (before 1.107) has no utility model to set.
  if (setting?.defaultValue === undefined) return false;
  const value = setting.workspaceValue ?? setting.globalValue ?? setting.defaultValue;
  return value === 'copilot' && !vscode.extensions.getExtension(COPILOT_CHAT);
}

/** Sets the chat's small tasks to run on the model chatted with, and says so. */
export async function useChatModelForSmallTasks(): Promise<void> {
  if (vscode.workspace.getConfiguration(SECTION).inspect<string>(KEY)?.defaultValue === undefined) {
    void vscode.window.showInformationMessage(
      t("This version of VS Code's chat has no utility model to set: a Space answers there as it is."),
    );
    return;
  }
  await vscode.workspace.getConfiguration(SECTION).update(KEY, 'mainAgent', vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(
    t(
      "VS Code's chat now runs its small tasks (titles, summaries) on the model you chat with instead of GitHub Copilot's (setting: Chat: Byok Utility Model Default). If it still asks for a Copilot sign-in, type @spaces before your question.",
    ),
  );
}

/** Offers the setting once, when the chat would refuse to send to a Space as VS Code is set up now. */
export async function offerChatSetup(state: vscode.Memento): Promise<void> {
  if (!chatNeedsSetup() || state.get<boolean>(OFFERED)) return;
  const use = t("Use the Chat's Model");
  const later = t('Not Now');
  const answer = await vscode.window.showInformationMessage(
    t(
      "To ask a Space in VS Code's chat, type @spaces before your question. Without it, the chat asks for a Copilot sign-in before it sends: it runs its small tasks (titles, summaries) on GitHub Copilot's model. Run them on the model you chat with instead? (Without GitHub Copilot's extension, the chat's own agent may still ask.)",
    ),
    use,
    later,
  );
  if (answer === undefined) return;
  await state.update(OFFERED, true);
  if (answer === use) await useChatModelForSmallTasks();
}
