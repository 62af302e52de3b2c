// Usage counters and the alert e-mail stamps a request's spend crosses.
import assert from 'node:assert/strict';
import { openDataFolder } from '../../../src/service/dataFolder';
import { AlertEmails } from '../../../src/api/schemas';
import { defaultOrganizationId, getOrganization, migrateAlertStamps } from '../../../src/service/domain/orgs';
import { recordUsage } from '../../../src/service/domain/usage';
import { removeDir, tempDir } from '../support/service';
import { spend } from '../support/usage';

describe('organization usage and alert e-mails', () => {
  it('adds each request to the counters and stamps each limit once, when spend crosses it', async () => {
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      const org = defaultOrganizationId(db);
      const before = getOrganization(db, org);
      assert.equal(before.spending_limit_soft, 20);
      assert.equal(before.spending_limit_hard, 50);
      await db.transaction(() => recordUsage(db, org, spend(10)));
      assert.equal(getOrganization(db, org).alert_emails, null, 'nothing crossed at $10');
      await db.transaction(() => recordUsage(db, org, spend(16)));
      const at26 = getOrganization(db, org);
      assert.deepEqual(Object.keys(at26.alert_emails ?? {}).sort(), ['soft_limit', 'usage_50']);
      assert.equal(at26.num_requests, 2);
      assert.equal(at26.total_tokens, 60);
      assert.ok(Math.abs(at26.total_tokens_cost - 26) < 1e-9);
      await db.transaction(() => recordUsage(db, org, spend(30)));
      const stamps = getOrganization(db, org).alert_emails ?? {};
      assert.deepEqual(Object.keys(stamps).sort(), [
        'hard_limit',
        'soft_limit',
        'usage_100',
        'usage_50',
        'usage_80',
        'usage_90',
      ]);
      for (const at of Object.values(stamps))
        assert.match(String(at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'an ISO timestamp');
    } finally {
      await db.close();
      removeDir(dir);
    }
  });

  it('turns alert stamps stored as epoch seconds (0.1.0) into ISO timestamps, and the client reads either', () => {
    const dir = tempDir();
    const db = openDataFolder(dir);
    try {
      const org = defaultOrganizationId(db);
      db.transactionNow(() =>
        db.run('UPDATE orgs SET alert_emails = $a WHERE id = $id', {
          a: JSON.stringify({ soft_limit: 1_800_000_000, usage_50: null }),
          id: org,
        }),
      );
      db.transactionNow(() => migrateAlertStamps(db));
      const stamps = getOrganization(db, org).alert_emails as Record<string, unknown>;
      assert.deepEqual(stamps, { soft_limit: '2027-01-15T08:00:00.000Z', usage_50: null });
      const parsed = AlertEmails.parse({ soft_limit: 1_800_000_000, hard_limit: '2027-01-15T08:00:00.000Z' });
      assert.equal(parsed.soft_limit, '2027-01-15T08:00:00.000Z');
      assert.equal(parsed.hard_limit, '2027-01-15T08:00:00.000Z');
    } finally {
      void db.close();
      removeDir(dir);
    }
  });
});
