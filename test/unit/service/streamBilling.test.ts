// A streamed reply the client leaves halfway: what the model had streamed was produced, so it is billed
// exactly as it is logged, in the log row and in the organization's counters alike.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { removeDir, startService, type RunningService } from '../support/service';

describe('a stream the client leaves', function () {
  this.timeout(60_000);
  let service: RunningService;

  before(async () => {
    service = await startService({ streamDelayMs: 30 });
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('is billed as logged: the tokens and cost of what was streamed reach the counters', async () => {
    const client = service.client();
    const space = await client.createSpace({ name: 'Left halfway' });
    const before = await client.getOrganization();
    const conversationId = randomUUID();
    const response = await request(`${service.url}/v1/playground/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: space.id,
        model: 'test/lorem',
        prompt: 'a long answer, please',
        stream: true,
        conversation_id: conversationId,
      }),
    });
    let received = '';
    for await (const bytes of response.body) {
      received += Buffer.from(bytes as Uint8Array).toString();
      if ((received.match(/data: /g) ?? []).length >= 5) break;
    }
    response.body.destroy();
    const logged = await waitForLog(client, space.id, conversationId);
    assert.equal(logged.status_code, 502);
    assert.match(logged.error ?? '', /the client went away/);
    assert.ok(logged.completion_tokens > 0, 'some of the reply was streamed');
    assert.ok(logged.cost > 0);
    const after = await client.getOrganization();
    assert.equal(after.prompt_tokens - before.prompt_tokens, logged.prompt_tokens);
    assert.equal(after.completion_tokens - before.completion_tokens, logged.completion_tokens);
    assert.ok(
      Math.abs(after.total_tokens_cost - before.total_tokens_cost - logged.cost) < 1e-12,
      'billed exactly as logged',
    );
    assert.equal(after.num_requests - before.num_requests, 1);
  });
});

async function waitForLog(client: ReturnType<RunningService['client']>, appId: string, conversationId: string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    const conversation = await client.getConversation(appId, conversationId, true).catch(() => undefined);
    const row = conversation?.requests?.[0];
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the request was not logged');
}
