// Conditional requests: the service tags its catalogue and prompt lists with an ETag; the client
// revalidates with If-None-Match and reuses its validated answer on a 304, never a stale one.
import assert from 'node:assert/strict';
import { LlmSpacesClient } from '../../../src/api/client';
import type { RequestLogEntry } from '../../../src/api/transport';
import { startService, type RunningService } from '../support/service';

describe('conditional requests', () => {
  let service: RunningService;
  before(async () => {
    service = await startService({
      orgs: [
        { name: 'First org', rateLimit: 1_000_000 },
        { name: 'Other org', rateLimit: 1_000_000 },
      ],
    });
  });
  after(async () => {
    await service.stop();
  });

  it('revalidates an unchanged list with a 304 and returns the same answer', async () => {
    const log: RequestLogEntry[] = [];
    const client = service.client({ onRequest: (e) => log.push(e) });
    const first = await client.listModels();
    const second = await client.listModels();
    assert.deepEqual(second, first);
    assert.deepEqual(
      log.map((e) => e.status),
      [200, 304],
    );
  });

  it('gets the new answer after a write, never the kept one', async () => {
    const log: RequestLogEntry[] = [];
    const client = service.client({ onRequest: (e) => log.push(e) });
    const before = await client.listPrompts('org');
    const created = await client.createPrompt({
      prompt: 'x',
      title: 'After the ETag',
      description: 'a write moves the ETag',
    });
    const after = await client.listPrompts('org');
    assert.equal(after.length, before.length + 1);
    assert.ok(after.some((p) => p.id === created.id));
    assert.deepEqual(
      log.map((e) => e.status),
      [200, 200, 200],
    );
  });

  it("keeps answers apart by token: another organization never gets this one's list", async () => {
    const other = service.orgs[1]!;
    const shared = { value: service.token };
    const client = new LlmSpacesClient({ baseUrl: service.url, token: () => shared.value });
    try {
      await client.createPrompt({ prompt: 'mine', title: 'Only in the first org', description: 'token-keyed cache' });
      const mine = await client.listPrompts('org');
      shared.value = other.token;
      const theirs = await client.listPrompts('org');
      assert.ok(mine.some((p) => p.title === 'Only in the first org'));
      assert.ok(!theirs.some((p) => p.title === 'Only in the first org'));
    } finally {
      await client.close();
    }
  });

  it('sends no If-None-Match when conditional requests are off', async () => {
    const log: RequestLogEntry[] = [];
    const client = service.client({ conditionalRequests: false, onRequest: (e) => log.push(e) });
    await client.listModels();
    await client.listModels();
    assert.deepEqual(
      log.map((e) => e.status),
      [200, 200],
    );
  });
});
