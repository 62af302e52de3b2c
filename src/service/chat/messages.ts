// The messages a request sends: the Space's instructions (its policy prompt, settings and assistant
// version) as one system message, then the chat completion's own messages, or the conversation's
// earlier turns and the new prompt with its images.
import type { Database } from '../db';
import { checkAssistantChoice, findVersion, latestVersionId } from '../domain/assistants';
import type { Caller } from '../domain/caller';
import { findConversation } from '../domain/conversationRows';
import { conversationExists } from '../domain/conversations';
import { findPrompt } from '../domain/prompts';
import { conversationTurns, requestInConversation } from '../domain/requests';
import type { AppConfig } from '../domain/spaces';
import { Problem, invalid } from '../problem';
import { attachedText, dataUrlBase64, dataUrlType } from '../../shared/attachedText';
import { PDF_DATA, type Body, type ChatMessage } from './request';

/** Earlier turns of a conversation sent with a playground prompt. */
const MAX_HISTORY = 20;

export function resolveConversation(db: Database, appId: string, body: Body) {
  if (!body.conversation_id) {
    if (body.parent_request_id)
      throw invalid(['body', 'parent_request_id'], 'A parent request needs a conversation_id');
    return null;
  }
  const own = findConversation(db, appId, body.conversation_id);
  if (!own && conversationExists(db, body.conversation_id)) throw new Problem(404, 'Conversation not found');
  if (body.parent_request_id && !requestInConversation(db, body.parent_request_id, body.conversation_id)) {
    throw invalid(['body', 'parent_request_id'], 'Request not found in this conversation', 'not_found');
  }
  return own
    ? {
        settings: own.settings
          ? (JSON.parse(own.settings) as { assistant_id?: string; assistant_version_id?: string })
          : null,
      }
    : null;
}

export function resolveAssistantVersion(
  db: Database,
  appId: string,
  body: Body,
  conversation: { assistant_id?: string; assistant_version_id?: string } | null,
  config: AppConfig,
) {
  const assistantId = body.assistant_id ?? conversation?.assistant_id ?? config.settings.assistant_id ?? null;
  const versionId =
    body.assistant_version_id ?? conversation?.assistant_version_id ?? config.settings.assistant_version_id ?? null;
  if (body.assistant_id) checkAssistantChoice(db, appId, body.assistant_id, null, ['body']);
  if (versionId) return checkAssistantChoice(db, appId, assistantId, versionId, ['body'])!;
  if (!assistantId) return null;
  const latest = latestVersionId(db, assistantId);
  return latest ? (findVersion(db, appId, latest) ?? null) : null;
}

export function buildMessages(
  db: Database,
  caller: Caller,
  config: AppConfig,
  version: ReturnType<typeof resolveAssistantVersion>,
  conversationApp: string | null,
  body: Body,
): ChatMessage[] {
  const policyPrompt = config.policies.prompt_id
    ? findPrompt(db, caller, config.policies.prompt_id)?.prompt
    : undefined;
  const system = [
    policyPrompt,
    config.settings.instructions,
    version?.persona,
    version?.instructions,
    version?.writing_style ? `Writing style: ${version.writing_style}` : null,
  ]
    .filter((s): s is string => !!s && s.trim() !== '')
    .join('\n\n');
  const messages: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  if (body.completion) return [...messages, ...body.completion.messages];
  if (conversationApp && body.conversation_id) {
    for (const turn of conversationTurns(db, conversationApp, body.conversation_id, MAX_HISTORY))
      messages.push({ role: 'user', content: turn.prompt }, { role: 'assistant', content: turn.response });
  }
  const attached = [
    ...(body.images ?? []).map((url) => ({ type: 'image_url', image_url: { url } })),
    ...fileParts(body.files ?? []),
  ];
  messages.push({
    role: 'user',
    content: attached.length ? [{ type: 'text', text: body.prompt }, ...attached] : body.prompt,
  });
  return messages;
}

/**
 * The files attached to a playground prompt as parts of it: an image as itself, a PDF whole (for a
 * model that reads one), any other file as its text, after a line that says which file it is. A file
 * that is not text (its bytes not UTF-8, or holding a NUL) is refused: no model here would read it.
 */
function fileParts(files: readonly string[]): Array<Record<string, unknown>> {
  return files.map((url, i) => {
    const type = dataUrlType(url);
    if (type.startsWith('image/')) return { type: 'image_url', image_url: { url } };
    if (url.startsWith(PDF_DATA)) return { type: 'file', file: { file_data: url } };
    const text = attachedText(type, Buffer.from(dataUrlBase64(url), 'base64'), i);
    if (text === null)
      throw invalid(
        ['body', 'files', i],
        `is a file of type ${type} that is not text; a model here reads text files, PDFs and images`,
        'file_type',
      );
    return { type: 'text', text };
  });
}
