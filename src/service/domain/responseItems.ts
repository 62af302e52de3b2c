// The output items of the Space's Responses answers, kept so that a later request may name one by its
// id alone (`item_reference`), as OpenAI's SDKs do when `store` is true, its default: the AI SDK sends
// the assistant's earlier message so on every turn after the first. An item is kept with the request
// it answered, and goes with it (the log's retention); only in a Space whose privacy
// level keeps text, since an item holds what the model wrote.
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
