// The built-in service reads the hosted service's spellings in request bodies and answers with the
// interface's names (conventions.md, "The hosted service as it really answers").
import assert from 'node:assert/strict';
import { raw } from '../support/http';
import { removeDir, startService } from '../support/service';

describe('the hosted service’s spellings and bounds in request bodies', function () {
  this.timeout(30_000);

  it('sets the integrations from `prom` and `loki`, and answers with metrics_* and logs_*', async () => {
    const service = await startService();
    try {
      const res = await raw(service.url, 'PUT', '/v1/orgs/integrations', {
        token: service.token,
        body: {
          prom: { id: 'p1', token: 'prom-token', endpoint: 'https://prom.example' },
          loki: { id: 'l1', token: 'loki-token', endpoint: 'https://loki.example' },
        },
      });
      assert.equal(res.status, 200, res.text);
      const org = res.json as Record<string, unknown>;
      assert.equal(org.metrics_id, 'p1');
      assert.equal(org.logs_endpoint, 'https://loki.example');
      assert.ok(!('prom_id' in org) && !('loki_id' in org), 'answers with the interface’s names');
      const cleared = await raw(service.url, 'PUT', '/v1/orgs/integrations', {
        token: service.token,
        body: { loki: null },
      });
      assert.equal((cleared.json as Record<string, unknown>).logs_id, null);
      assert.equal((cleared.json as Record<string, unknown>).metrics_id, 'p1', 'an omitted group keeps its values');
    } finally {
      await service.stop();
      removeDir(service.dataDir);
    }
  });

  it('bounds the retry policies as the hosted service does: same model 0 to 3, switches 0 to 5', async () => {
    const service = await startService();
    try {
      const id = (await service.client().listSpaces()).items[0]!.id;
      const update = (policies: Record<string, number>) =>
        raw(service.url, 'PUT', '/v1/apps/update', { token: service.token, body: { id, policies } });
      assert.equal(
        (await update({ max_same_model_retries: 3, max_switch_model_retries: 5, optimize_internal_requests: 1 }))
          .status,
        200,
      );
      const refused: Array<Record<string, number>> = [
        { max_same_model_retries: 4 },
        { max_switch_model_retries: 6 },
        { optimize_internal_requests: 2 },
        { max_same_model_retries: -1 },
      ];
      for (const policies of refused) {
        const res = await update(policies);
        assert.equal(res.status, 422, `${JSON.stringify(policies)}: ${res.text}`);
        assert.deepEqual((res.json as { detail: Array<{ loc: string[] }> }).detail[0]!.loc, [
          'body',
          'policies',
          Object.keys(policies)[0]!,
        ]);
      }
      const policies = (await service.client().getSpace(id)).main.app.policies;
      assert.equal(policies?.max_same_model_retries, 3, 'a refused update changed nothing');
    } finally {
      await service.stop();
      removeDir(service.dataDir);
    }
  });
});
