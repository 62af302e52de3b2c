// Every constraint at its boundaries, checked over raw HTTP: 422 with loc/msg/type, and nothing stored.
import assert from 'node:assert/strict';
import { locs, raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

describe('service input validation', () => {
  let service: RunningService;
  let appId: string;
  const call = (method: string, path: string, body?: unknown) =>
    raw(service.url, method, path, { token: service.token, body });

  before(async () => {
    service = await startService();
    appId = (await service.client().listSpaces()).items[0]!.id;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  const prompt = (title: string, description = 'd') => ({ prompt: 'p', title, description });

  for (const [length, status] of [
    [0, 422],
    [1, 200],
    [60, 200],
    [61, 422],
  ] as const) {
    it(`prompt title of ${length} characters → ${status}`, async () => {
      const before = await call('GET', '/v1/prompts?show=org');
      const res = await call('POST', '/v1/prompts', prompt('t'.repeat(length)));
      assert.equal(res.status, status);
      if (status === 422) {
        assert.deepEqual(locs(res.json), ['body.title']);
        const after = await call('GET', '/v1/prompts?show=org');
        assert.deepEqual(after.json, before.json, 'a 422 stores nothing');
      }
    });
  }

  for (const [length, status] of [
    [0, 422],
    [1, 200],
    [200, 200],
    [201, 422],
  ] as const) {
    it(`prompt description of ${length} characters → ${status}`, async () => {
      const res = await call('POST', '/v1/prompts', prompt('title', 'd'.repeat(length)));
      assert.equal(res.status, status);
      if (status === 422) assert.deepEqual(locs(res.json), ['body.description']);
    });
  }

  for (const endpoint of ['not a url', 'ftp:/bad', 'ftp://example.com/push']) {
    it(`an integration endpoint "${endpoint}" → 422, and nothing is saved`, async () => {
      const before = await service.client().getOrganization();
      const res = await call('PUT', '/v1/orgs/integrations', { metrics: { id: 'm', token: 't', endpoint } });
      assert.equal(res.status, 422);
      assert.deepEqual(locs(res.json), ['body.metrics.endpoint'], res.text);
      assert.match(res.text, /must be an http or https URL/);
      assert.equal((await service.client().getOrganization()).metrics_endpoint, before.metrics_endpoint);
    });
  }

  it('a prompt update checks the same limits', async () => {
    const created = (await call('POST', '/v1/prompts', prompt('ok'))).json as { id: string };
    const res = await call('PUT', `/v1/prompts/${created.id}`, { title: 't'.repeat(61) });
    assert.equal(res.status, 422);
    assert.deepEqual(locs(res.json), ['body.title']);
  });

  for (const [temperature, status] of [
    [-0.01, 422],
    [0, 200],
    [1, 200],
    [1.01, 422],
  ] as const) {
    it(`playground temperature ${temperature} → ${status}`, async () => {
      const res = await call('POST', '/v1/playground/chat', {
        prompt: 'x',
        app_id: appId,
        model: 'test/echo',
        temperature,
      });
      assert.equal(res.status, status);
      if (status === 422) assert.deepEqual(locs(res.json), ['body.temperature']);
    });
  }

  for (const [maxTokens, status] of [
    [0, 422],
    [1, 200],
  ] as const) {
    it(`playground max_tokens ${maxTokens} → ${status}`, async () => {
      const res = await call('POST', '/v1/playground/chat', {
        prompt: 'two words',
        app_id: appId,
        model: 'test/echo',
        max_tokens: maxTokens,
      });
      assert.equal(res.status, status);
      if (status === 422) assert.deepEqual(locs(res.json), ['body.max_tokens']);
      else assert.equal((res.json as { usage: { completion_tokens: number } }).usage.completion_tokens, 1);
    });
  }

  it('a bad `show` is refused with loc query.show', async () => {
    const res = await call('GET', '/v1/prompts?show=everyone');
    assert.equal(res.status, 422);
    assert.deepEqual(locs(res.json), ['query.show']);
  });

  it('malformed uuids in bodies and paths are refused with their loc', async () => {
    assert.deepEqual(locs((await call('PUT', '/v1/apps/update', { id: 'not-a-uuid' })).json), ['body.id']);
    assert.deepEqual(locs((await call('POST', '/v1/playground/chat', { prompt: 'x', app_id: '1234' })).json), [
      'body.app_id',
    ]);
    assert.deepEqual(locs((await call('GET', '/v1/apps/xyz/assistants/abc/versions/def')).json), [
      'path.app_id',
      'path.assistant_id',
      'path.version_id',
    ]);
    assert.deepEqual(
      locs((await call('PUT', `/v1/apps/${appId}/conversations/c1`, { settings: { assistant_id: 'nope' } })).json),
      ['body.settings.assistant_id'],
    );
  });

  it('wrong types are refused field by field', async () => {
    const res = await call('PUT', '/v1/apps/update', {
      id: appId,
      weights: { cost: 'cheap' },
      has_failover_chain: 'yes',
      policies: { max_same_model_retries: 1.5 },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(locs(res.json).sort(), [
      'body.has_failover_chain',
      'body.policies.max_same_model_retries',
      'body.weights.cost',
    ]);
    const detail = (res.json as { detail: Array<{ msg: string; type: string }> }).detail;
    assert.ok(detail.every((d) => d.msg && d.type));
  });

  it('missing required fields are reported as missing', async () => {
    const res = await call('POST', '/v1/prompts', { title: 't' });
    assert.deepEqual(locs(res.json).sort(), ['body.description', 'body.prompt']);
    assert.ok((res.json as { detail: Array<{ type: string }> }).detail.every((d) => d.type === 'missing'));
  });

  it('a body that is not JSON → 422 json_invalid; not application/json → 415; over 1 MiB → 413', async () => {
    const broken = await raw(service.url, 'POST', '/v1/prompts', { token: service.token, rawBody: '{"title": ' });
    assert.equal(broken.status, 422);
    assert.equal((broken.json as { detail: Array<{ type: string }> }).detail[0]!.type, 'json_invalid');
    const text = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      rawBody: 'title=x',
      contentType: 'text/plain',
    });
    assert.equal(text.status, 415);
    assert.equal(typeof (text.json as { detail: string }).detail, 'string');
    const big = await raw(service.url, 'POST', '/v1/prompts', {
      token: service.token,
      body: { prompt: 'x'.repeat(1024 * 1024 + 10), title: 't', description: 'd' },
    });
    assert.equal(big.status, 413);
    assert.equal(
      (big.json as { detail: string }).detail,
      'The request body is larger than this endpoint takes (1 MiB).',
    );
    // Read to its end before the answer, so the client is not cut off while it sends, and can go on.
    assert.notEqual(big.headers.connection, 'close');
  });

  it('a wrong method → 405 with Allow; an unknown path → 404; both JSON, in OpenAI\u2019s shape outside the interface', async () => {
    const res = await call('DELETE', '/v1/internal/models');
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET');
    const missing = await call('GET', `/v1/apps/${appId}/nothing-here`);
    assert.equal(missing.status, 404);
    assert.equal((missing.json as { detail: string }).detail, 'Not Found');
    // Not a path of the interface: another vendor's client asked (OpenAI's, unless it says Anthropic's).
    const other = await call('GET', '/v1/nothing-here');
    assert.equal(other.status, 404);
    assert.match(
      (other.json as { error: { message: string } }).error.message,
      /does not serve GET \/v1\/nothing-here\./,
    );
  });

  it('weights that are all zero after the merge are refused', async () => {
    const res = await call('PUT', '/v1/apps/update', { id: appId, weights: { cost: 0, latency: 0, quality: 0 } });
    assert.equal(res.status, 422);
    assert.deepEqual(locs(res.json), ['body.weights']);
  });

  it('references to things that do not exist are refused: sandbox, benchmark, policy prompt, assistant', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    assert.deepEqual(locs((await call('PUT', '/v1/apps/update', { id: appId, sandbox_of: appId })).json), [
      'body.sandbox_of',
    ]);
    assert.deepEqual(locs((await call('PUT', '/v1/apps/update', { id: appId, benchmark_model_id: ghost })).json), [
      'body.benchmark_model_id',
    ]);
    assert.deepEqual(locs((await call('PUT', '/v1/apps/update', { id: appId, policies: { prompt_id: ghost } })).json), [
      'body.policies.prompt_id',
    ]);
    assert.deepEqual(
      locs((await call('PUT', '/v1/apps/update', { id: appId, settings: { assistant_id: ghost } })).json),
      ['body.settings.assistant_id'],
    );
  });
});
