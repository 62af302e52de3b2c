// What one request leaves in the database, as plain data: its log row (which names its conversation,
// made or touched with it) and what it adds to the organization's counters; or, after a Responses
// answer, the response and its output items, kept for a later item_reference or previous_response_id.
// The ledger makes it on the event loop's thread; the writer thread (ledgerThread.ts), or the
// service's own connection when there is none, writes it.
import { conversationName } from '../../shared/conversationName';
import type { Database } from '../db';
import { findConversation, insertConversation, touchConversation } from '../domain/conversationRows';
import { insertRequest, type RequestLog } from '../domain/requests';
import { keepItems, keepResponse, type ItemsOwner, type KeptResponse } from '../domain/responseItems';
import { countFailedRequest, recordUsage, type UsageDelta } from '../domain/usage';

export type LogEntry =
  | {
      request: RequestLog;
      /** What the request spent; null when it spent nothing (it still counts as a request). */
      usage: UsageDelta | null;
    }
  | { kept: { owner: ItemsOwner; items: Array<{ id: string }>; response: KeptResponse } };

/** Writes the entry; only inside a transaction. */
export function writeEntry(db: Database, entry: LogEntry): void {
  if ('kept' in entry) {
    keepResponse(db, entry.kept.owner, entry.kept.response);
    return keepItems(db, entry.kept.owner, entry.kept.items);
  }
  const { appId, conversationId: id, prompt } = entry.request;
  if (id) {
    // A new conversation is named after its first prompt.
    if (findConversation(db, appId, id)) touchConversation(db, id);
    else insertConversation(db, { id, appId, name: conversationName(prompt), settings: null });
  }
  insertRequest(db, entry.request);
  if (entry.usage) recordUsage(db, entry.request.orgId, entry.usage);
  else countFailedRequest(db, entry.request.orgId);
}
