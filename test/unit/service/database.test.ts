// The database facade on a real SQLite file: writes that arrive together share one commit, a request
// that throws rolls back only its own part, nothing is visible to readers before the commit, the
// request log's retention deletes by age, and unknown tokens are never kept in memory.
import assert from 'node:assert/strict';
import { readResponse, responseInputItems } from '../../../src/service/chat/keptResponses';
import { openDataFolder } from '../../../src/service/dataFolder';
import type { Database } from '../../../src/service/db';
import { issueToken } from '../../../src/service/domain/auth';
import { syncCatalogueModels } from '../../../src/service/domain/models';
import { defaultOrganizationId } from '../../../src/service/domain/orgs';
import { insertRequest } from '../../../src/service/domain/requests';
import {
  keepItems,
  keepResponse,
  keptItems,
  keptOutputItems,
  keptResponse,
} from '../../../src/service/domain/responseItems';
import { listSpaces } from '../../../src/service/domain/spaces';
import { addAzureDeployment, migrateDeploymentParents } from '../../../src/service/providers/azureDeployments';
import { versionBefore } from '../../../src/service/migrations';
import { DATASET, datasetModels } from '../../../src/service/providers/dataset';
import { TokenCache } from '../../../src/service/http/tokenCache';
import { Problem } from '../../../src/service/problem';
import { startRetention } from '../../../src/service/retention';
import { removeDir, tempDir } from '../support/service';

function logRequest(db: Database, orgId: string, appId: string, id: string): void {
  insertRequest(db, {
    id,
    orgId,
    appId,
    conversationId: null,
    parentRequestId: null,
    model: 'test/echo',
    prompt: 'p',
    response: 'r',
    promptTokens: 1,
    completionTokens: 1,
    cost: 0,
    savings: 0,
    latency: 0,
    status: 200,
    error: null,
    privacyLevel: 1,
  });
}

const count = (db: Database) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM requests')!.n;

describe('service database', () => {
  let dir: string;
  let db: Database;
  let orgId: string;
  let appId: string;

  beforeEach(() => {
    dir = tempDir();
    db = openDataFolder(dir);
    orgId = defaultOrganizationId(db);
    appId = listSpaces(db, { orgId, appId: null, identity: 'test' }, { search: '', page: 1, size: 40 }).items[0]!.id;
  });
  afterEach(async () => {
    await db.close();
    removeDir(dir);
  });

  it('commits writes that arrive together once; one that throws loses only its own part; readers see nothing before the commit', async () => {
    const version = db.version;
    const first = db.transaction(() => logRequest(db, orgId, appId, 'a'));
    const failing = db.transaction(() => {
      logRequest(db, orgId, appId, 'b');
      throw new Error('this request fails after its insert');
    });
    const third = db.transaction(() => logRequest(db, orgId, appId, 'c'));
    assert.equal(count(db), 0, 'not visible to a reader before the commit');
    await assert.rejects(failing, /fails after its insert/);
    await Promise.all([first, third]);
    assert.equal(db.version, version + 1, 'one commit for the three');
    assert.deepEqual(
      db.all<{ id: string }>('SELECT id FROM requests ORDER BY id').map((r) => r.id),
      ['a', 'c'],
    );
  });

  it('deletes requests older than the retention period in batches, with the items kept of their answers, and keeps the rest', async () => {
    const kept = (requestId: string) => ({ requestId, orgId, appId });
    await db.transaction(() => {
      for (let i = 0; i < 4500; i++) logRequest(db, orgId, appId, `old-${i}`);
      for (let i = 0; i < 10; i++) logRequest(db, orgId, appId, `new-${i}`);
      db.run("UPDATE requests SET added_on = '2020-01-01T00:00:00.000Z' WHERE id LIKE 'old-%'");
      keepItems(db, kept('old-7'), [{ id: 'msg_old' }, { id: 'fc_old' }]);
      keepResponse(db, kept('old-7'), { id: 'resp_old', previousId: null, input: [], answer: {} });
      keepItems(db, kept('new-3'), [{ id: 'msg_new' }]);
      keepResponse(db, kept('new-3'), { id: 'resp_new', previousId: 'resp_old', input: [], answer: {} });
    });
    const retention = startRetention(db, 90, () => undefined);
    try {
      assert.equal(await retention.runOnce(), 4500);
      assert.equal(count(db), 10);
      assert.deepEqual([...keptItems(db, orgId, appId, ['msg_old', 'fc_old', 'msg_new']).keys()], ['msg_new']);
      assert.equal(keptResponse(db, orgId, appId, 'resp_old'), undefined);
      assert.deepEqual(keptOutputItems(db, keptResponse(db, orgId, appId, 'resp_new')!.requestId), [
        JSON.stringify({ id: 'msg_new' }),
      ]);
    } finally {
      retention.stop();
    }
  });

  it('says in words that a response kept before answers were cannot be read back, though it can be continued', async () => {
    const caller = { orgId, appId, identity: 'test' };
    await db.transaction(() => {
      logRequest(db, orgId, appId, 'before-answers');
      keepResponse(
        db,
        { requestId: 'before-answers', orgId, appId },
        {
          id: 'resp_before',
          previousId: null,
          input: [{ role: 'user', content: 'hi' }],
          answer: {},
        },
      );
      // As the migration leaves a response kept before it.
      db.run("UPDATE kept_responses SET answer = NULL WHERE id = 'resp_before'");
    });
    assert.throws(
      () => readResponse(db, caller, 'resp_before', []),
      (error: unknown) =>
        error instanceof Problem && error.status === 404 && /kept before this service kept answers/.test(error.message),
    );
    assert.equal(keptResponse(db, orgId, appId, 'resp_before')?.input, '[{"role":"user","content":"hi"}]');
    assert.deepEqual(responseInputItems(db, caller, 'resp_before', { include: [] }).data, [
      {
        type: 'message',
        id: 'msg_before_in0',
        role: 'user',
        status: 'completed',
        content: [{ type: 'input_text', text: 'hi' }],
      },
    ]);
  });

  it('keeps only tokens that exist in memory, however many unknown ones arrive', () => {
    const cache = new TokenCache(db, 100);
    for (let i = 0; i < 5000; i++) assert.equal(cache.caller(`lls_unknown_${i}`), undefined);
    assert.equal(cache.size, 0);
    const token = db.transactionNow(() => issueToken(db, orgId, null)).token;
    assert.equal(cache.caller(token)?.orgId, orgId);
    assert.equal(cache.size, 1, 'a token that exists is kept');
  });
});

describe('migrating Azure deployments', () => {
  it('gives a deployment added before deployments kept the model they run that model, from its description', async () => {
    const dir = tempDir();
    try {
      const db = openDataFolder(dir);
      const caller = { orgId: defaultOrganizationId(db), appId: null, identity: 'test' };
      // The hosted providers' models, as the service writes them at its start.
      const today = new Date().toISOString().slice(0, 10);
      db.transactionNow(() =>
        syncCatalogueModels(db, datasetModels(new Date().toISOString(), today), DATASET.name, today),
      );
      const runs = db.get<{ id: string; namespace: string }>(
        "SELECT id, namespace FROM models WHERE namespace = 'openai/gpt-5.4'",
      )!;
      const added = db.transactionNow(() => addAzureDeployment(db, caller, 'prod-54', { model: runs.namespace }));
      assert.equal(added.parent_id, runs.id);
      // As a deployment was kept before: no parent; and the database before this migration.
      db.transactionNow(() => {
        db.run('UPDATE models SET record = $record WHERE id = $id', {
          id: added.id,
          record: JSON.stringify({ ...added, parent_id: null }),
        });
        db.exec(`PRAGMA user_version = ${versionBefore(migrateDeploymentParents)}`);
      });
      await db.close();
      const again = openDataFolder(dir);
      try {
        const record = JSON.parse(
          again.get<{ record: string }>('SELECT record FROM models WHERE id = $id', { id: added.id })!.record,
        );
        assert.equal(record.parent_id, runs.id);
        assert.equal(record.description, added.description);
      } finally {
        await again.close();
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('migrating privacy levels', () => {
  it('turns the model-filtering levels 0-2 of 0.1.0 into the logging levels 1-3, and keeps the logged requests', async () => {
    const dir = tempDir();
    try {
      const db = openDataFolder(dir);
      const orgId = defaultOrganizationId(db);
      const appId = listSpaces(db, { orgId, appId: null, identity: 'test' }, { search: '', page: 1, size: 40 })
        .items[0]!.id;
      const fresh = db.get<{ policies: string }>('SELECT policies FROM apps WHERE id = $id', { id: appId })!;
      assert.equal(JSON.parse(fresh.policies).privacy_level, 1, 'a new database starts at level 1');
      // Back to the shape before the migration to logging levels (version 6; a later migration does not
      // move it): no kept responses (nor answers) or their items, no change count of the configuration,
      // no model servers, the old request table (no levels, no cited pages, no search suggestions), and a
      // level of that time.
      db.transactionNow(() => {
        for (const trigger of db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
          db.exec(`DROP TRIGGER ${trigger.name}`);
        db.exec('DROP TABLE kept_responses');
        db.exec('DROP TABLE response_items');
        db.exec('DROP TABLE config_version');
        db.exec('DROP TABLE model_servers');
        db.exec('DROP TABLE requests');
        db.exec(`CREATE TABLE requests (id TEXT PRIMARY KEY, org_id TEXT NOT NULL, app_id TEXT NOT NULL, conversation_id TEXT, parent_request_id TEXT, model TEXT,
          prompt TEXT NOT NULL, response TEXT, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, total_tokens INTEGER NOT NULL, cost REAL NOT NULL,
          cost_savings REAL NOT NULL, latency REAL NOT NULL, status_code INTEGER NOT NULL, error TEXT, added_on TEXT NOT NULL)`);
        db.run(
          `INSERT INTO requests VALUES ('r1', $org, $app, NULL, NULL, 'test/echo', 'old prompt', 'old reply', 1, 1, 2, 0, 0, 0, 200, NULL, '2026-01-01T00:00:00Z')`,
          { org: orgId, app: appId },
        );
        db.run('UPDATE apps SET policies = $p WHERE id = $id', {
          id: appId,
          p: JSON.stringify({ ...JSON.parse(fresh.policies), privacy_level: 2 }),
        });
        db.exec('PRAGMA user_version = 6');
      });
      await db.close();
      const again = openDataFolder(dir);
      try {
        const policies = JSON.parse(
          again.get<{ policies: string }>('SELECT policies FROM apps WHERE id = $id', { id: appId })!.policies,
        );
        assert.equal(policies.privacy_level, 3, 'the old most private level is the new most private one');
        const row = again.get<{ prompt: string; privacy_level: number }>(
          "SELECT prompt, privacy_level FROM requests WHERE id = 'r1'",
        )!;
        assert.deepEqual({ ...row }, { prompt: 'old prompt', privacy_level: 1 });
        again.transactionNow(() => logRequest(again, orgId, appId, 'r2'));
        assert.equal(count(again), 2);
        const kept = again.all<{ name: string }>("SELECT name FROM pragma_table_info('kept_responses')");
        assert.ok(
          kept.some((c) => c.name === 'answer'),
          'a kept response keeps its answer',
        );
        const logged = again.all<{ name: string }>("SELECT name FROM pragma_table_info('requests')");
        assert.ok(
          logged.some((c) => c.name === 'sources'),
          'a logged request keeps the pages its reply cites',
        );
        assert.ok(
          logged.some((c) => c.name === 'search_suggestions'),
          'a logged request keeps the search suggestions shown with its reply',
        );
      } finally {
        await again.close();
      }
    } finally {
      removeDir(dir);
    }
  });
});
