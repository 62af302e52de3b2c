// OpenAI's conversations (its Conversations API, and the `conversation` of a Responses request), as a
// Space keeps them: each conversation with its metadata, and its items in order, as OpenAI lists them.
// Kept until the client deletes them, only in a Space whose privacy level keeps text.
import type { Database } from '../db';

export const RESPONSE_CONVERSATIONS_SCHEMA = `CREATE TABLE IF NOT EXISTS response_conversations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS response_conversation_items (
  conversation_id TEXT NOT NULL REFERENCES response_conversations(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  item TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS response_conversation_item_ids ON response_conversation_items(conversation_id, id);`;

/** A conversation as kept: its Space, when it began (seconds), and its metadata. */
export interface ConversationRow {
  id: string;
  appId: string;
  createdAt: number;
  metadata: Record<string, string>;
}

/** A conversation of the Space (of any Space of the organization when `appId` is null), else undefined. */
export function conversationRow(
  db: Database,
  orgId: string,
  appId: string | null,
  id: string,
): ConversationRow | undefined {
  const row = db.get<{ app_id: string; created_at: number; metadata: string }>(
    `SELECT app_id, created_at, metadata FROM response_conversations
     WHERE id = $id AND org_id = $org AND ($app IS NULL OR app_id = $app)`,
    { id, org: orgId, app: appId },
  );
  return (
    row && {
      id,
      appId: row.app_id,
      createdAt: row.created_at,
      metadata: JSON.parse(row.metadata) as Record<string, string>,
    }
  );
}

/** Keeps a new conversation; only inside a transaction. */
export function insertConversation(db: Database, orgId: string, row: ConversationRow): void {
  db.run(
    `INSERT INTO response_conversations (id, org_id, app_id, created_at, metadata)
     VALUES ($id, $org, $app, $created, $metadata)`,
    { id: row.id, org: orgId, app: row.appId, created: row.createdAt, metadata: JSON.stringify(row.metadata) },
  );
}

/** Replaces a conversation's metadata; only inside a transaction. */
export function setConversationMetadata(db: Database, id: string, metadata: Record<string, string>): void {
  db.run('UPDATE response_conversations SET metadata = $metadata WHERE id = $id', {
    id,
    metadata: JSON.stringify(metadata),
  });
}

/** Deletes a conversation and its items; only inside a transaction. */
export function deleteConversation(db: Database, id: string): void {
  db.run('DELETE FROM response_conversations WHERE id = $id', { id });
}

/** Adds items after the conversation's last, in their order; only inside a transaction. */
export function appendItems(db: Database, id: string, items: ReadonlyArray<{ id: string }>): void {
  const last = db.get<{ seq: number | null }>(
    'SELECT MAX(seq) AS seq FROM response_conversation_items WHERE conversation_id = $id',
    { id },
  );
  let seq = last?.seq ?? -1;
  for (const item of items)
    db.run(
      `INSERT INTO response_conversation_items (conversation_id, seq, id, item) VALUES ($conversation, $seq, $id, $item)`,
      { conversation: id, seq: ++seq, id: item.id, item: JSON.stringify(item) },
    );
}

/** A conversation's items in their order (as JSON texts), with their ids. */
export function conversationItems(db: Database, id: string): Array<{ id: string; item: string }> {
  return db.all<{ id: string; item: string }>(
    'SELECT id, item FROM response_conversation_items WHERE conversation_id = $id ORDER BY seq',
    { id },
  );
}

/** One item of a conversation (as JSON text), else undefined. */
export function conversationItem(db: Database, conversationId: string, itemId: string): string | undefined {
  return db.get<{ item: string }>(
    'SELECT item FROM response_conversation_items WHERE conversation_id = $c AND id = $id',
    { c: conversationId, id: itemId },
  )?.item;
}

/** Deletes one item of a conversation; false when it has none of that id. Only inside a transaction. */
export function deleteItem(db: Database, conversationId: string, itemId: string): boolean {
  return (
    db.run('DELETE FROM response_conversation_items WHERE conversation_id = $c AND id = $id', {
      c: conversationId,
      id: itemId,
    }) > 0
  );
}
