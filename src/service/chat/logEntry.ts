// What one request leaves in the database, as plain data: its conversation (made or touched), its log
// row, and what it adds to the organization's counters. The ledger makes it on the event loop's thread;
// the writer thread (ledgerThread.ts), or the service's own connection when there is none, writes it.
import type { Database } from '../db';
import { findConversation, insertConversation, touchConversation } from '../domain/conversationRows';
import { insertRequest, type RequestLog } from '../domain/requests';
import { countFailedRequest, recordUsage, type UsageDelta } from '../domain/usage';

export interface LogEntry {
  /** The conversation the request belongs to, and the name it gets if it is new. */
  conversation: { appId: string; id: string; name: string } | null;
  request: RequestLog;
  /** What the request spent; null when it spent nothing (it still counts as a request). */
  usage: UsageDelta | null;
}

/** Writes the entry; only inside a transaction. */
export function writeEntry(db: Database, entry: LogEntry): void {
  const c = entry.conversation;
  if (c) {
    if (findConversation(db, c.appId, c.id)) touchConversation(db, c.id);
    else insertConversation(db, { ...c, settings: null });
  }
  insertRequest(db, entry.request);
  if (entry.usage) recordUsage(db, entry.request.orgId, entry.usage);
  else countFailedRequest(db, entry.request.orgId);
}
