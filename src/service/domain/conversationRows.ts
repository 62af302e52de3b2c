// A conversation's row as the request log writes it: found, touched by a new turn, or made by the
// first. Written with each request's log entry (chat/logEntry.ts), on the request log's writer thread
// too, so this module imports nothing that thread does not need.
import type { Database } from '../db';
import { nowIso } from './caller';

export interface ConversationRow {
  id: string;
  app_id: string;
  name: string;
  settings: string | null;
  deleted_on: string | null;
  added_on: string;
  modified_on: string;
}

export function findConversation(db: Database, appId: string, id: string): ConversationRow | undefined {
  return db.get<ConversationRow>('SELECT * FROM conversations WHERE id = $id AND app_id = $app', { id, app: appId });
}

export function insertConversation(
  db: Database,
  row: { id: string; appId: string; name: string; settings: string | null },
): void {
  db.run(
    'INSERT INTO conversations (id, app_id, name, settings, added_on, modified_on) VALUES ($id, $app, $name, $settings, $now, $now)',
    { ...row, app: row.appId, now: nowIso() },
  );
}

/** Marks the conversation as used now, so lists put it first. */
export function touchConversation(db: Database, id: string): void {
  db.run('UPDATE conversations SET modified_on = $now WHERE id = $id', { id, now: nowIso() });
}
