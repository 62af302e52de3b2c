// `@spaces` in VS Code's chat: the conversation so far and the new prompt, sent to the Space chosen in
// the chat's model picker (the first Space VS Code lists when the picker holds another vendor's model),
// the reply streamed back. VS Code's own agent needs GitHub Copilot's extension and a sign-in before it
// sends; a participant of this extension answers without either.
import * as vscode from 'vscode';
import { CHAT_VENDOR } from './spaceModels';

const t = vscode.l10n.t;
/** As package.json's chatParticipants names it. */
const PARTICIPANT_ID = 'llmSpaces.spaces';

export function registerSpacesParticipant(): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, answer);
  participant.iconPath = new vscode.ThemeIcon('layers');
  return participant;
}

async function answer(
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const model =
    request.model.vendor === CHAT_VENDOR
      ? request.model
      : (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR }))[0];
  if (!model) {
    stream.markdown(
      t(
        'No Space can answer yet. Open the LLM Spaces view to add a provider key, start a local model server or sign in.',
      ),
    );
    return {};
  }
  try {
    const reply = await model.sendRequest(
      [...earlierTurns(context), vscode.LanguageModelChatMessage.User(request.prompt)],
      {},
      token,
    );
    for await (const piece of reply.text) stream.markdown(piece);
    return {};
  } catch (error) {
    // The provider's errors are already in words (chatProvider.ts).
    return { errorDetails: { message: error instanceof Error ? error.message : String(error) } };
  }
}

/** This participant's earlier prompts and replies, as the messages of the conversation. */
function earlierTurns(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  return context.history.flatMap((turn) => {
    if (turn instanceof vscode.ChatRequestTurn) return [vscode.LanguageModelChatMessage.User(turn.prompt)];
    const text = turn.response
      .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
      .join('');
    return text ? [vscode.LanguageModelChatMessage.Assistant(text)] : [];
  });
}
