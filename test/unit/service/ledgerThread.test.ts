// The request log's writer thread (src/service/ledgerThread.ts), run from the built dist/ledgerWorker.js
// against a data folder opened here: what it acknowledges is committed and readable, an entry that
// fails fails alone, and closing the database ends the thread first, so the folder is left as a clean
// close leaves it (rollback journal, which a read-only folder can open).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LogEntry } from '../../../src/service/chat/logEntry';
import { openDataFolder } from '../../../src/service/dataFolder';
import { DB_FILE, type Database } from '../../../src/service/db';
import { defaultOrganizationId, getOrganization } from '../../../src/service/domain/orgs';
import { record, startLedgerThread } from '../../../src/service/ledgerThread';
import { StorageError } from '../../../src/service/storageError';
import { removeDir, SERVICE, tempDir } from '../support/service';
import { spend } from '../support/usage';

const WORKER = path.join(path.dirname(SERVICE), 'ledgerWorker.js');

function entry(db: Database, id: string, cost: number, conversation?: string): LogEntry {
  const orgId = defaultOrganizationId(db);
  const appId = db.get<{ id: string }>('SELECT id FROM apps WHERE org_id = $org', { org: orgId })!.id;
  return {
    request: {
      id,
      orgId,
      appId,
      conversationId: conversation ?? null,
      parentRequestId: null,
      model: 'test/echo',
      prompt: `prompt of ${id}`,
      response: 'reply',
      promptTokens: 3,
      completionTokens: 4,
      cost,
      savings: 0,
      latency: 0.01,
      status: 200,
      error: null,
      privacyLevel: 1,
    },
    usage: spend(cost, 3, 4),
  };
}

const logged = (db: Database, id: string) =>
  db.get<{ n: number }>('SELECT count(*) AS n FROM requests WHERE id = $id', { id })!.n;

describe('the request log writer thread', function () {
  this.timeout(30_000);
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = tempDir();
    db = openDataFolder(dir);
    assert.equal(await startLedgerThread(db, WORKER), undefined, 'the thread started');
  });
  afterEach(async () => {
    await db.close();
    removeDir(dir);
  });

  it('acknowledges each entry once it is committed: rows, conversations and counters are readable', async () => {
    const org = defaultOrganizationId(db);
    const before = getOrganization(db, org);
    const conversation = randomUUID();
    const ids = Array.from({ length: 200 }, () => randomUUID());
    await Promise.all(ids.map((id, i) => record(db, entry(db, id, 0.001, i % 2 ? conversation : undefined))));
    // Read on the service's own connection, which sees only committed data.
    assert.deepEqual(
      ids.filter((id) => logged(db, id) !== 1),
      [],
    );
    const conversationRequests = db.get<{ n: number }>(
      'SELECT count(*) AS n FROM requests WHERE conversation_id = $c',
      { c: conversation },
    )!.n;
    assert.equal(conversationRequests, 100);
    assert.ok(db.get('SELECT 1 AS x FROM conversations WHERE id = $c', { c: conversation }));
    const after = getOrganization(db, org);
    assert.equal(after.num_requests - before.num_requests, 200);
    assert.equal(after.total_tokens - before.total_tokens, 200 * 7);
    assert.ok(Math.abs(after.total_tokens_cost - before.total_tokens_cost - 0.2) < 1e-9);
  });

  it('fails an entry that cannot be written alone: the others sent with it are written', async () => {
    const first = randomUUID();
    await record(db, entry(db, first, 0));
    const others = [randomUUID(), randomUUID()];
    const outcomes = await Promise.allSettled([
      record(db, entry(db, others[0]!, 0)),
      record(db, entry(db, first, 0)),
      record(db, entry(db, others[1]!, 0)),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const refusal = (outcomes[1] as PromiseRejectedResult).reason as Error;
    assert.ok(!(refusal instanceof StorageError), 'a duplicate is not a storage failure');
    assert.match(refusal.message, /UNIQUE constraint failed/);
    assert.deepEqual(
      [first, ...others].map((id) => logged(db, id)),
      [1, 1, 1],
    );
  });

  it('is ended before the database closes, so the close leaves the folder in rollback mode', async () => {
    const id = randomUUID();
    const pending = record(db, entry(db, id, 0));
    await db.close();
    await pending;
    const reopened = new DatabaseSync(path.join(dir, DB_FILE), { readOnly: true });
    try {
      assert.equal(reopened.prepare('PRAGMA journal_mode').get()?.journal_mode, 'delete');
      assert.equal(reopened.prepare('SELECT count(*) AS n FROM requests WHERE id = ?').get(id)?.n, 1);
    } finally {
      reopened.close();
    }
  });
});

describe('without the request log writer thread', () => {
  it('says why it did not start, and the service’s own connection writes the entries', async () => {
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      const why = await startLedgerThread(db, path.join(dir, 'ledgerWorker.js'));
      assert.equal(why, 'ledgerWorker.js is missing');
      const id = randomUUID();
      await record(db, entry(db, id, 0.5));
      assert.equal(logged(db, id), 1);
    } finally {
      await db.close();
      removeDir(dir);
    }
  });
});
