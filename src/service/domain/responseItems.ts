// The output items of the Space's Responses answers, kept so that a later request may name one by its
// id alone (`item_reference`), as OpenAI's SDKs do when `store` is true, its default: the AI SDK sends
// the assistant's earlier message so on every turn after the first. And each response's own input, and
// the response it continued, so that a later request may continue it by its id
// (`previous_response_id`), sending only what is new. Both are kept with the request they answered,
// and go with it (the log's retention); only in a Space whose privacy level keeps text, since they
// hold what was written.
import type { Database } from '../db';

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

/** A response as kept: its id, the one it continued, and its own input items. */
export interface KeptResponse {
  id: string;
  previousId: string | null;
  input: unknown[];
}

/** Keeps a response (its output items are kept by keepItems); only inside a transaction. */
export function keepResponse(db: Database, owner: ItemsOwner, response: KeptResponse): void {
  db.run(
    `INSERT OR REPLACE INTO kept_responses (id, request_id, org_id, app_id, previous_id, input)
     VALUES ($id, $request, $org, $app, $previous, $input)`,
    {
      id: response.id,
      request: owner.requestId,
      org: owner.orgId,
      app: owner.appId,
      previous: response.previousId,
      input: JSON.stringify(response.input),
    },
  );
}

/**
 * A kept response of the Space and what it holds in order, as JSON texts: its own input items, then
 * its output items; undefined when the Space does not keep it.
 */
export function keptResponse(
  db: Database,
  orgId: string,
  appId: string,
  id: string,
): { previousId: string | null; input: string; output: string[] } | undefined {
  const row = db.get<{ request_id: string; previous_id: string | null; input: string }>(
    'SELECT request_id, previous_id, input FROM kept_responses WHERE id = $id AND org_id = $org AND app_id = $app',
    { id, org: orgId, app: appId },
  );
  if (!row) return undefined;
  const output = db
    .all<{ item: string }>('SELECT item FROM response_items WHERE request_id = $r ORDER BY rowid', {
      r: row.request_id,
    })
    .map((r) => r.item);
  return { previousId: row.previous_id, input: row.input, output };
}
