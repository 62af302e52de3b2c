// What every request reads and seldom changes is kept parsed until it changes: the database counts the
// changes to the catalogue, the Spaces and their models (triggers), so a chat's writes to the log keep
// it, a change to a Space drops it, and a transaction sees its own changes, never a stale copy.
import assert from 'node:assert/strict';
import { openDataFolder } from '../../../src/service/dataFolder';
import { keptUntilChanged } from '../../../src/service/domain/configCache';
import { defaultOrganizationId } from '../../../src/service/domain/orgs';
import { listSpaces, loadApp } from '../../../src/service/domain/spaces';
import { removeDir, tempDir } from '../support/service';

describe('the configuration kept until it changes', () => {
  it('is reused across commits that change other tables, and read again once a Space changes', async () => {
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      const caller = { orgId: defaultOrganizationId(db), appId: null, identity: 'test' };
      const appId = listSpaces(db, caller, { search: '', page: 1, size: 40 }).items[0]!.id;
      let reads = 0;
      const read = () => keptUntilChanged(db, 'probe', () => ++reads);
      assert.equal(read(), 1);
      assert.equal(read(), 1, 'kept');
      // A commit that touches no configuration table (as a chat's log and usage do).
      await db.transaction(() =>
        db.run('UPDATE orgs SET num_requests = num_requests + 1 WHERE id = $id', { id: caller.orgId }),
      );
      assert.equal(read(), 1, 'still kept after a commit of the log');
      const before = loadApp(db, caller, appId);
      assert.equal(loadApp(db, caller, appId), before, 'the same row, not read again');

      await db.transaction(() => {
        db.run('UPDATE apps SET name = $n WHERE id = $id', { n: 'Renamed', id: appId });
        // Inside the transaction that changed it, the change is seen.
        assert.equal(loadApp(db, caller, appId).name, 'Renamed');
        assert.equal(read(), 2, 'read anew inside the transaction that changed the configuration');
      });
      assert.equal(loadApp(db, caller, appId).name, 'Renamed', 'committed: read anew');
      assert.equal(read(), 3);
      assert.throws(() => loadApp(db, { ...caller, orgId: 'another' }, appId), /not found/i, 'another organization');
    } finally {
      await db.close();
      removeDir(dir);
    }
  });
});
