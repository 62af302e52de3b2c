// The per-organization rate limit over a sliding minute, and the client that waits it out.
import assert from 'node:assert/strict';
import { RateLimitError } from '../../../src/api/errors';
import { raw } from '../support/http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SERVICE, removeDir, startService, tempDir, type RunningService } from '../support/service';

describe('service rate limit', function () {
  this.timeout(120_000);
  let service: RunningService;

  before(async () => {
    service = await startService({
      orgs: [
        { name: 'Limited', rateLimit: 3 },
        { name: 'Other', rateLimit: 3 },
      ],
    });
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('answers 429 with Retry-After and X-RateLimit-* after rate_limit requests within a minute, per organization', async () => {
    const get = (token: string) => raw(service.url, 'GET', '/v1/internal/models', { token });
    const token = service.orgs[0]!.token;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(token);
      statuses.push(res.status);
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      assert.equal(res.headers['x-ratelimit-remaining'], String(2 - i));
    }
    const limited = await get(token);
    assert.deepEqual(statuses, [200, 200, 200]);
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.ok(Number(limited.headers['x-ratelimit-reset']) >= 1);
    assert.match((limited.json as { detail: string }).detail, /Rate limit/);
    assert.equal((await get(service.orgs[1]!.token)).status, 200, 'another organization has its own budget');
  });

  it('the client raises RateLimitError with the retry time when the wait is too long for it', async () => {
    const client = service.client({ token: () => service.orgs[0]!.token, maxRateLimitWaitMs: 0 });
    await assert.rejects(client.listModels(), (error: unknown) => {
      assert.ok(error instanceof RateLimitError);
      assert.ok(error.retryAfterSeconds >= 1 && error.retryAfterSeconds <= 60);
      assert.ok(error.retryAt.getTime() > Date.now());
      return true;
    });
  });

  it('the client waits out Retry-After and then succeeds', async () => {
    const client = service.client({ token: () => service.orgs[0]!.token, maxRateLimitWaitMs: 65_000 });
    const started = Date.now();
    const models = await client.listModels();
    assert.ok(models.length > 0);
    assert.ok(Date.now() - started >= 1000, 'it waited');
  });

  it("'org limit' sets the rate limit of the organization VS Code's windows use, before the service starts", async () => {
    const dir = tempDir();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [
        SERVICE,
        'org',
        'limit',
        '--rate-limit',
        '2',
        '--data',
        dir,
      ]);
      assert.equal((JSON.parse(stdout) as { rate_limit: number }).rate_limit, 2);
      const { stdout: minted } = await promisify(execFile)(process.execPath, [
        SERVICE,
        'token',
        'create',
        '--data',
        dir,
      ]);
      const limited = await startService({
        dataDir: dir,
        orgs: [],
        token: (JSON.parse(minted) as { token: string }).token,
      });
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++)
          statuses.push((await raw(limited.url, 'GET', '/v1/internal/models', { token: limited.token })).status);
        assert.deepEqual(statuses, [200, 200, 429]);
      } finally {
        await limited.stop();
      }
      await assert.rejects(
        promisify(execFile)(process.execPath, [SERVICE, 'org', 'limit', '--rate-limit', '0', '--data', dir]),
        /rate-limit/,
      );
    } finally {
      removeDir(dir);
    }
  });
});
