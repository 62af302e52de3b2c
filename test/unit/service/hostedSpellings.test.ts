// The built-in service reads the hosted service's spellings in request bodies and answers with the
// interface's names (conventions.md, "The hosted service as it really answers").
import assert from 'node:assert/strict';
import { raw } from '../support/http';
import { removeDir, startService } from '../support/service';

describe('the hosted service’s spellings in request bodies', function () {
  this.timeout(30_000);

  it('sets the integrations from `prom` and `loki`, and answers with metrics_* and logs_*', async () => {
    const service = await startService();
    try {
      const res = await raw(service.url, 'PUT', '/v1/orgs/integrations', {
        token: service.token,
        body: { prom: { id: 'p1', token: 'prom-token', endpoint: 'https://prom.example' }, loki: { id: 'l1', token: 'loki-token', endpoint: 'https://loki.example' } },
      });
      assert.equal(res.status, 200, res.text);
      const org = res.json as Record<string, unknown>;
      assert.equal(org.metrics_id, 'p1');
      assert.equal(org.logs_endpoint, 'https://loki.example');
      assert.ok(!('prom_id' in org) && !('loki_id' in org), 'answers with the interface’s names');
      const cleared = await raw(service.url, 'PUT', '/v1/orgs/integrations', { token: service.token, body: { loki: null } });
      assert.equal((cleared.json as Record<string, unknown>).logs_id, null);
      assert.equal((cleared.json as Record<string, unknown>).metrics_id, 'p1', 'an omitted group keeps its values');
    } finally {
      await service.stop();
      removeDir(service.dataDir);
    }
  });
});
