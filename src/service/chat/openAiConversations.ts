// OpenAI's Conversations API through a Space (the OpenAI SDK's conversations and conversations.items,
// the Agents SDK's OpenAIConversationsSession): a conversation holds items, which a Responses request
// names by `conversation` to have them read before its input; its input and output items are added to
// it once it is answered. A Space key reaches its own Space's conversations; an organization token,
// any of its Spaces'. Only a Space whose privacy level keeps text keeps conversations.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { OpenAiConversationCreateBody, OpenAiConversationItemsBody, ResponsesItem } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import {
  appendItems,
  conversationItem,
  conversationItems,
  conversationRow,
  deleteConversation,
  deleteItem,
  insertConversation,
  setConversationMetadata,
  type ConversationRow,
} from '../domain/responseConversations';
import { invalid, Problem } from '../problem';
import { asIncluded, listed, listPage, type Included, type PageQuery } from './keptResponses';
import { requestedSpace } from './request';
import { ownItems, requireKeepsText } from './responsesRequest';

type Item = Record<string, unknown>;
type Given = z.output<typeof ResponsesItem>;

const notFound = (caller: Caller, id: string) =>
  new Problem(404, `No conversation ${id} ${caller.appId ? 'in this Space' : 'in this organization'}.`);

function found(db: Database, caller: Caller, id: string): ConversationRow {
  const row = conversationRow(db, caller.orgId, caller.appId, id);
  if (!row) throw notFound(caller, id);
  return row;
}

/** The conversation object as OpenAI gives it. */
const conversationObject = (row: ConversationRow) => ({
  id: row.id,
  object: 'conversation',
  created_at: row.createdAt,
  metadata: row.metadata,
});

/** Items as a conversation keeps them: as OpenAI lists them, each with an id, the one given or a new one. */
function keptItems(items: readonly Given[]): Array<Item & { id: string }> {
  return items.map((item) => {
    const fresh = randomBytes(16).toString('hex');
    // A message without an id is given msg_…, another item item_….
    return listed(item, 'role' in item ? fresh : `item_${fresh}`, INCLUDE_ALL) as Item & { id: string };
  });
}

/** What a kept item carries (what a client reading it did not ask to include is left out then). */
const INCLUDE_ALL: Included[] = ['reasoning.encrypted_content', 'web_search_call.action.sources'];

export function createConversation(
  db: Database,
  caller: Caller,
  body: z.output<typeof OpenAiConversationCreateBody>,
): Item {
  const appId = requestedSpace(caller, body.app_id);
  requireKeepsText(db, caller, appId);
  const items = keptItems(ownItems(db, caller, appId, body.items ?? [], ['body', 'items']));
  const row = {
    id: `conv_${randomBytes(24).toString('hex')}`,
    appId,
    createdAt: Math.floor(Date.now() / 1000),
    metadata: body.metadata ?? {},
  };
  insertConversation(db, caller.orgId, row);
  appendItems(db, row.id, items);
  return conversationObject(row);
}

export const readConversation = (db: Database, caller: Caller, id: string): Item =>
  conversationObject(found(db, caller, id));

export function updateConversation(
  db: Database,
  caller: Caller,
  id: string,
  metadata: Record<string, string> | null,
): Item {
  const row = { ...found(db, caller, id), metadata: metadata ?? {} };
  setConversationMetadata(db, id, row.metadata);
  return conversationObject(row);
}

export function removeConversation(db: Database, caller: Caller, id: string): Item {
  found(db, caller, id);
  deleteConversation(db, id);
  return { id, object: 'conversation.deleted', deleted: true };
}

/** Adds items at the conversation's end; the answer lists them as kept, with their ids. */
export function addItems(
  db: Database,
  caller: Caller,
  id: string,
  body: z.output<typeof OpenAiConversationItemsBody>,
  include: readonly Included[],
): Item {
  const row = found(db, caller, id);
  const items = keptItems(ownItems(db, caller, row.appId, body.items, ['body', 'items']));
  refuseKnownIds(db, id, items, ['body', 'items']);
  appendItems(db, id, items);
  return listPage(
    items.map((item) => asIncluded(item, include)),
    { order: 'asc', limit: items.length },
    'an item added',
  );
}

export function listItems(
  db: Database,
  caller: Caller,
  id: string,
  query: PageQuery & { include: readonly Included[] },
): Item {
  found(db, caller, id);
  const items = conversationItems(db, id).map((row) => asIncluded(JSON.parse(row.item) as Item, query.include));
  return listPage(items, query, `an item of the conversation ${id}`);
}

export function readItem(db: Database, caller: Caller, id: string, itemId: string, include: readonly Included[]): Item {
  found(db, caller, id);
  const item = conversationItem(db, id, itemId);
  if (item === undefined) throw new Problem(404, `The conversation ${id} has no item ${itemId}.`);
  return asIncluded(JSON.parse(item) as Item, include);
}

/** Deletes an item; the answer is the conversation, as OpenAI's is. */
export function removeItem(db: Database, caller: Caller, id: string, itemId: string): Item {
  const row = found(db, caller, id);
  if (!deleteItem(db, id, itemId)) throw new Problem(404, `The conversation ${id} has no item ${itemId}.`);
  return conversationObject(row);
}

/** Refuses items whose ids the conversation holds already, or which repeat one another (each item has its own). */
function refuseKnownIds(db: Database, id: string, items: ReadonlyArray<{ id: string }>, loc: Array<string | number>) {
  const again = items.findIndex(
    (item, i) => conversationItem(db, id, item.id) !== undefined || items.findIndex((o) => o.id === item.id) < i,
  );
  if (again >= 0) throw invalid([...loc, again, 'id'], `is the id of an item the conversation ${id} holds already`);
}

/** The conversations a response is being answered in: one at a time each, as at OpenAI. */
const answering = new Set<string>();

/**
 * Takes a conversation for a response, refused as OpenAI refuses it while another response is answered
 * in it (whose turn would be added in the middle); the returned function gives it back.
 */
export function answeringIn(id: string): () => void {
  if (answering.has(id))
    throw new Problem(400, [
      {
        loc: ['body', 'conversation'],
        msg: 'Another request is currently operating on this conversation: retry once its response is answered.',
        type: 'conversation_locked',
      },
    ]);
  answering.add(id);
  return () => answering.delete(id);
}

/** Adds an answered request's input and output items to its conversation; only inside a transaction. */
export function keepTurn(db: Database, id: string, input: readonly Given[], output: ReadonlyArray<{ id: string }>) {
  appendItems(db, id, [...keptItems(input), ...output]);
}
