// Provider outage drills: a Space whose failover chain names two providers, the first of them down in
// one of four ways (refusing connections, answering 500s, answering 429 with Retry-After, hanging),
// the second answering. No request the user sends fails; the provider that is down gets only the few
// requests it takes to cool it down; every receipt names the hops with their cause. Then the cooldown's
// own pace over a minute of steady traffic, on a clock the test moves: a few probes, no more.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMetadata } from '../../../src/api/schemas';
import { Cooldown } from '../../../src/service/providers/cooldown';
import { raw } from '../support/http';
import { startAnthropicFake, startOpenAiFake, type Failure, type ProviderFake } from '../support/providerFakes';
import { removeDir, startService, type RunningService } from '../support/service';

const DOWN = 'openai/gpt-4o-mini';
const UP = 'anthropic/claude-haiku-4-5';
const REQUESTS = 12;

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

const drills: Array<{ name: string; failure: Failure | 'refused'; cause: RegExp; reached: number }> = [
  { name: 'refuses connections', failure: 'refused', cause: /could not be reached: nothing answers/, reached: 0 },
  { name: 'answers 500', failure: { status: 500 }, cause: /OpenAI answered HTTP 500/, reached: 3 },
  {
    name: 'answers 429 with Retry-After',
    failure: { status: 429, retryAfter: 120 },
    cause: /OpenAI is rate limiting \(HTTP 429, retry after 120 s\)/,
    reached: 1,
  },
  { name: 'hangs', failure: 'hang', cause: /OpenAI did not answer within/, reached: 3 },
];

describe('provider outage drills: two providers in the chain, the first one down', function () {
  this.timeout(120_000);
  let anthropic: ProviderFake;
  let openai: ProviderFake;

  before(async () => {
    [openai, anthropic] = await Promise.all([startOpenAiFake(), startAnthropicFake()]);
  });
  after(async () => {
    await Promise.all([openai?.close(), anthropic?.close()]);
  });

  for (const drill of drills)
    it(`the first provider ${drill.name}: every request answered by the second, the first cooled down, each hop named`, async () => {
      const service: RunningService = await startService({
        firstTokenTimeoutMs: 200,
        env: {
          OPENAI_API_KEY: openai.key,
          OPENAI_BASE_URL: drill.failure === 'refused' ? await closedPortUrl() : openai.baseUrl,
          ANTHROPIC_API_KEY: anthropic.key,
          ANTHROPIC_BASE_URL: anthropic.baseUrl,
        },
      });
      try {
        const client = service.client();
        const models = await client.listModels();
        const space = await client.createSpace({ name: `drill ${drill.name}` });
        await client.updateSpace({
          id: space.id,
          has_failover_chain: true,
          failover_model_ids: [DOWN, UP].map((ns) => models.find((m) => m.namespace === ns)!.id!),
          policies: { max_same_model_retries: 0, max_switch_model_retries: 1 },
        });
        if (drill.failure !== 'refused') openai.failNext(...Array<Failure>(50).fill(drill.failure));
        const reachedBefore = openai.seen.length;
        const receipts: ChatMetadata['routing'][] = [];
        for (let i = 0; i < REQUESTS; i++) {
          const res = await raw(service.url, 'POST', '/v1/playground/chat', {
            token: service.token,
            body: { app_id: space.id, prompt: `request ${i}`, model: DOWN },
          });
          assert.equal(res.status, 200, `request ${i}: ${res.text}`);
          const reply = res.json as { model: string; metadata: ChatMetadata };
          assert.equal(reply.model, UP, `request ${i} answered by the provider that is up`);
          receipts.push(reply.metadata.routing);
        }
        const reached = openai.seen.length - reachedBefore;
        assert.ok(reached <= drill.reached, `${reached} requests reached the provider that is down`);
        for (const [i, receipt] of receipts.entries()) {
          const hops = receipt!.attempts.map((a) => a.namespace);
          assert.deepEqual(hops, [DOWN, UP], `request ${i}: both hops named`);
          assert.equal(receipt!.strategy, 'failover');
        }
        // While it was tried, the receipt says why it failed; once cooled down, that it was not asked.
        assert.match(receipts[0]!.attempts[0]!.error!, drill.cause);
        assert.match(receipts.at(-1)!.attempts[0]!.error!, /cooling down after repeated failures; not asked/);
        const states = (await raw(service.url, 'GET', '/v1/providers', { token: service.token })).json as Array<{
          id: string;
          cooling_until: string | null;
        }>;
        assert.ok(states.find((p) => p.id === 'openai')!.cooling_until, 'OpenAI shows as cooling down');
      } finally {
        openai.recover();
        await service.stop();
        removeDir(service.dataDir);
      }
    });
});

describe('the cooldown of a provider that stays down', () => {
  it('lets through a few probes a minute under steady traffic, fewer as the outage lasts, and all once it answers', () => {
    let now = 0;
    const cooldown = new Cooldown(() => now);
    const allowedPerMinute: number[] = [];
    for (let minute = 0; minute < 5; minute++) {
      let allowed = 0;
      // A request every 100 ms; each one let through fails.
      for (let t = 0; t < 60_000; t += 100) {
        now = minute * 60_000 + t;
        if (cooldown.allows('openai')) {
          allowed++;
          cooldown.failed('openai', null);
        }
      }
      allowedPerMinute.push(allowed);
    }
    assert.ok(allowedPerMinute[0]! <= 6, `first minute: ${allowedPerMinute[0]} requests`);
    assert.ok(
      allowedPerMinute.slice(1).every((n) => n <= 2),
      `later minutes: ${allowedPerMinute.join(', ')}`,
    );
    // An answer ends the cooldown at once.
    now += 300_000;
    assert.equal(cooldown.allows('openai'), true);
    cooldown.succeeded('openai');
    assert.equal(cooldown.allows('openai'), true);
    assert.equal(cooldown.coolingUntil('openai'), null);
  });
});
