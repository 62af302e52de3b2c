// The output items of the Space's Responses answers, kept so that a later request may name one by its
// id alone (`item_reference`), as OpenAI's SDKs do when `store` is true, its default: the AI SDK sends
// the assistant's earlier message so on every turn after the first. And each response's own input, and
// the response it continued, so that a later request may continue it by its id
// (`previous_response_id`), sending only what is new, or read it back (GET /v1/responses/{id}, as
// answered, and its input items). Both are kept with the request they answered, and go with it (the
// log's retention) or when the client deletes the response; only in a Space whose privacy level keeps
// text, since they hold what was written.
import type { Database } from '../db';

/** How long a Space keeps a response and its items, for the words of a refusal that names one not kept. */
export const KEPT_WHILE =
  "while they are in its log, unless the request's store was false, the Space's privacy level keeps no text or the response was deleted";

export const RESPONSE_ITEMS_SCHEMA = `CREATE TABLE response_items (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  item TEXT NOT NULL
);
CREATE INDEX response_items_request ON response_items(request_id);
CREATE TRIGGER requests_delete_items AFTER DELETE ON requests BEGIN
  DELETE FROM response_items WHERE request_id = old.id;
END;`;

/** Each kept response: its own input (item references read), and the response it continued. */
export const KEPT_RESPONSES_SCHEMA = `CREATE TABLE kept_responses (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  previous_id TEXT,
  input TEXT NOT NULL
);
CREATE INDEX kept_responses_request ON kept_responses(request_id);
CREATE TRIGGER requests_delete_responses AFTER DELETE ON requests BEGIN
  DELETE FROM kept_responses WHERE request_id = old.id;
END;`;

/** The request whose answer gave the items, and its Space. */
export interface ItemsOwner {
  requestId: string;
  orgId: string;
  appId: string;
}

/** Keeps a response's output items; only inside a transaction. */
export function keepItems(db: Database, owner: ItemsOwner, items: ReadonlyArray<{ id: string }>): void {
  for (const item of items)
    db.run(
      `INSERT OR REPLACE INTO response_items (id, request_id, org_id, app_id, item)
       VALUES ($id, $request, $org, $app, $item)`,
      { id: item.id, request: owner.requestId, org: owner.orgId, app: owner.appId, item: JSON.stringify(item) },
    );
}

/** The kept items of these ids in the Space (as JSON text), by id; an id it does not keep is absent. */
export function keptItems(db: Database, orgId: string, appId: string, ids: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const id of new Set(ids)) {
    const row = db.get<{ item: string }>(
      'SELECT item FROM response_items WHERE id = $id AND org_id = $org AND app_id = $app',
      { id, org: orgId, app: appId },
    );
    if (row) found.set(id, row.item);
  }
  return found;
}

/** A response as kept: its id, the one it continued, its own input items, and the answer as given. */
export interface KeptResponse {
  id: string;
  previousId: string | null;
  input: unknown[];
  answer: Record<string, unknown>;
}

/** Keeps a response (its output items are kept by keepItems); only inside a transaction. */
export function keepResponse(db: Database, owner: ItemsOwner, response: KeptResponse): void {
  db.run(
    `INSERT OR REPLACE INTO kept_responses (id, request_id, org_id, app_id, previous_id, input, answer)
     VALUES ($id, $request, $org, $app, $previous, $input, $answer)`,
    {
      id: response.id,
      request: owner.requestId,
      org: owner.orgId,
      app: owner.appId,
      previous: response.previousId,
      input: JSON.stringify(response.input),
      answer: JSON.stringify(response.answer),
    },
  );
}

/**
 * Keeps every background response left running when the service stopped (chat/backgroundResponses.ts)
 * as failed, saying why; returns how many. Only inside a transaction.
 */
export function failUnfinished(db: Database): number {
  return db.run(
    `UPDATE kept_responses SET answer = json_set(answer, '$.status', 'failed', '$.error', json_object('code', 'server_error',
       'message', 'The service stopped before this background response was finished: send it again.'))
     WHERE answer IS NOT NULL AND json_extract(answer, '$.status') IN ('queued', 'in_progress')`,
  );
}

/** A response as read back: its request, the one it continued, and as JSON texts its input and answer. */
export interface ReadResponse {
  requestId: string;
  previousId: string | null;
  input: string;
  /** The response object as answered; null for one kept before answers were (it can still be continued). */
  answer: string | null;
}

/** A kept response of the Space (of any Space of the organization when `appId` is null), else undefined. */
export function keptResponse(db: Database, orgId: string, appId: string | null, id: string): ReadResponse | undefined {
  const row = db.get<{ request_id: string; previous_id: string | null; input: string; answer: string | null }>(
    `SELECT request_id, previous_id, input, answer FROM kept_responses
     WHERE id = $id AND org_id = $org AND ($app IS NULL OR app_id = $app)`,
    { id, org: orgId, app: appId },
  );
  return row && { requestId: row.request_id, previousId: row.previous_id, input: row.input, answer: row.answer };
}

/** The output items a kept response gave, in their order, as JSON texts. */
export function keptOutputItems(db: Database, requestId: string): string[] {
  return db
    .all<{ item: string }>('SELECT item FROM response_items WHERE request_id = $r ORDER BY rowid', { r: requestId })
    .map((r) => r.item);
}

/** Deletes a kept response and its output items; false when there was none. Only inside a transaction. */
export function forgetResponse(db: Database, orgId: string, appId: string | null, id: string): boolean {
  const row = db.get<{ request_id: string }>(
    'SELECT request_id FROM kept_responses WHERE id = $id AND org_id = $org AND ($app IS NULL OR app_id = $app)',
    { id, org: orgId, app: appId },
  );
  if (!row) return false;
  db.run('DELETE FROM response_items WHERE request_id = $r', { r: row.request_id });
  db.run('DELETE FROM kept_responses WHERE request_id = $r', { r: row.request_id });
  return true;
}
