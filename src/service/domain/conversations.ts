// Conversations of a Space and the playground requests logged in them.
import { randomUUID } from 'node:crypto';
import type { Conversation, ConversationWithRequests, LoggedRequest } from '../../api/schemas';
import type { Database } from '../db';
import { notFound } from '../problem';
import { laterThan, parseJson } from './caller';
import { checkAssistantChoice } from './assistants';
import { findConversation, insertConversation, type ConversationRow } from './conversationRows';

type Settings = { assistant_id?: string | null; assistant_version_id?: string | null } | null | undefined;

const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  name: row.name,
  deleted_on: row.deleted_on,
  settings: parseJson(row.settings, null),
  added_on: row.added_on,
  modified_on: row.modified_on,
});

/** Whether a conversation of any Space has this id. */
export function conversationExists(db: Database, id: string): boolean {
  return db.get('SELECT 1 AS x FROM conversations WHERE id = $id', { id }) !== undefined;
}

function checkSettings(db: Database, appId: string, settings: Settings): void {
  if (settings)
    checkAssistantChoice(db, appId, settings.assistant_id, settings.assistant_version_id, ['body', 'settings']);
}

export function createConversation(
  db: Database,
  appId: string,
  body: { name: string; settings?: Settings },
  id: string = randomUUID(),
): Conversation {
  checkSettings(db, appId, body.settings);
  insertConversation(db, {
    id,
    appId,
    name: body.name,
    settings: body.settings ? JSON.stringify(body.settings) : null,
  });
  return toConversation(findConversation(db, appId, id)!);
}

export function listConversations(db: Database, appId: string): Conversation[] {
  return db
    .all<ConversationRow>(
      'SELECT * FROM conversations WHERE app_id = $app AND deleted_on IS NULL ORDER BY modified_on DESC, id',
      { app: appId },
    )
    .map(toConversation);
}

export function getConversation(
  db: Database,
  appId: string,
  id: string,
  includeRequests: boolean,
): ConversationWithRequests {
  const row = findConversation(db, appId, id);
  if (!row) throw notFound('Conversation');
  const conversation = toConversation(row);
  if (!includeRequests) return conversation;
  const requests = db
    .all<
      LoggedRequest & {
        cited: string | null;
        suggestions: string | null;
        cached: number | null;
        reasoning: number | null;
      }
    >(
      `SELECT id, app_id, conversation_id, parent_request_id, model, CASE WHEN privacy_level = 1 THEN prompt END AS prompt, response, prompt_tokens, completion_tokens, total_tokens,
            cost, cost_savings, latency, status_code, error, added_on, sources AS cited,
            search_suggestions AS suggestions, cached_tokens AS cached, reasoning_tokens AS reasoning FROM requests
     WHERE conversation_id = $id AND app_id = $app AND privacy_level < 3 ORDER BY added_on, rowid`,
      { id, app: appId },
    )
    // The pages cited, kept as JSON, Google's Search Suggestions, and the cached and reasoning tokens,
    // only for a reply that has them.
    .map(({ cited, suggestions, cached, reasoning, ...request }) => ({
      ...request,
      ...(cited ? { sources: parseJson(cited, []) } : {}),
      ...(suggestions ? { search_suggestions: suggestions } : {}),
      ...(cached !== null ? { cached_tokens: cached } : {}),
      ...(reasoning !== null ? { reasoning_tokens: reasoning } : {}),
    }));
  return { ...conversation, requests };
}

/** A null or omitted name or settings keeps the stored value. */
export function updateConversation(
  db: Database,
  appId: string,
  id: string,
  body: { name?: string | null; settings?: Settings },
): Conversation {
  const row = findConversation(db, appId, id);
  if (!row) throw notFound('Conversation');
  checkSettings(db, appId, body.settings);
  db.run('UPDATE conversations SET name = $name, settings = $settings, modified_on = $now WHERE id = $id', {
    id,
    name: body.name ?? row.name,
    settings: body.settings ? JSON.stringify(body.settings) : row.settings,
    now: laterThan(row.modified_on),
  });
  return toConversation(findConversation(db, appId, id)!);
}
