// The organization's logs integration: each logged request goes to its Loki as a line, through Loki's
// push API (POST /loki/api/v1/push, JSON streams of [nanoseconds, line] values, answered 204), without
// holding a reply up, sent again while Loki cannot take it, never with the prompt or the reply.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startPushReceiver } from '../support/pushReceiver';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';
import { until } from '../support/until';

interface Push {
  authorization: string | undefined;
  contentType: string | undefined;
  body: { streams: Array<{ stream: Record<string, string>; values: Array<[string, string]> }> };
}

/** A Loki: each push read as its API reference says (JSON streams of [nanoseconds, line] values). */
async function startLoki() {
  const receiver = await startPushReceiver<Push>(
    '/loki/api/v1/push',
    (req, body, problems) => {
      const pushed = JSON.parse(body.toString()) as Push['body'];
      for (const s of pushed.streams ?? [])
        for (const [at, line] of s.values ?? [])
          if (!/^\d{19}$/.test(at) || typeof line !== 'string') problems.push('a value is not [nanoseconds, line]');
      return { authorization: req.headers.authorization, contentType: req.headers['content-type'], body: pushed };
    },
    'server returned HTTP status',
  );
  return {
    ...receiver,
    lines: () => receiver.taken.flatMap((p) => p.body.streams.flatMap((s) => s.values.map(([, l]) => JSON.parse(l)))),
  };
}

describe("the organization's logs integration", function () {
  this.timeout(60_000);
  let service: RunningService;
  let loki: Awaited<ReturnType<typeof startLoki>>;
  let openai: OpenAI;
  let appId: string;
  const TOKEN = 'glc_fake-loki-0123456789abcdef';

  before(async () => {
    [service, loki] = await Promise.all([startService(), startLoki()]);
    const space = await echoSpace(service, 'Shipped');
    appId = space.id;
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.key, maxRetries: 0 });
    await service.client().updateIntegrations({ logs: { id: '123456', token: TOKEN, endpoint: loki.url } });
  });
  after(async () => {
    await service?.stop();
    await loki?.close();
    if (service) removeDir(service.dataDir);
  });

  const ask = (content: string) =>
    openai.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content }] });

  it('sends each logged request to Loki as a line, with the id and token, and never its prompt or reply', async () => {
    const answer = await ask('a prompt that stays here');
    await until('the push', () => loki.lines().some((l) => l.request_id === answer.id));
    const push = loki.taken.at(-1)!;
    assert.equal(push.authorization, `Basic ${Buffer.from(`123456:${TOKEN}`).toString('base64')}`);
    assert.match(push.contentType ?? '', /^application\/json/);
    const stream = push.body.streams.find((s) => s.values.some(([, l]) => l.includes(answer.id)))!;
    assert.deepEqual(stream.stream, { service_name: 'llm-spaces', space_id: appId, level: 'info' });
    const [at] = stream.values[0]!;
    assert.ok(Math.abs(Number(BigInt(at) / 1_000_000n) - Date.now()) < 60_000, 'stamped when it was logged');
    const line = loki.lines().find((l) => l.request_id === answer.id);
    assert.equal(line.space_id, appId);
    assert.equal(line.model, 'test/echo');
    assert.equal(line.status, 200);
    assert.equal(line.prompt_tokens, answer.usage!.prompt_tokens);
    assert.equal(line.completion_tokens, answer.usage!.completion_tokens);
    // A test model's tokens are the service's own count: no cached or reasoning tokens to tell of.
    assert.deepEqual([line.cached_tokens, line.reasoning_tokens], [undefined, undefined]);
    assert.equal(
      line.cost,
      (answer as unknown as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens,
    );
    assert.equal(line.error, null);
    const sent = JSON.stringify(loki.taken);
    assert.ok(!sent.includes('a prompt that stays here'), 'no prompt');
    assert.ok(!sent.includes(answer.choices[0]!.message.content!), 'no reply');
    assert.deepEqual(loki.problems, []);
  });

  it('answers while Loki cannot take the lines, and sends them again once it can', async () => {
    loki.statuses.push(503, 503, 429);
    const started = Date.now();
    const answers = await Promise.all([ask('one'), ask('two'), ask('three')]);
    assert.ok(Date.now() - started < 5_000, 'the replies did not wait for Loki');
    await until('the lines after three refusals', () =>
      answers.every((a) => loki.lines().some((l) => l.request_id === a.id)),
    );
    assert.equal(loki.statuses.length, 0, 'Loki was asked again until it took them');
    assert.match(service.output(), /Loki at http:\/\/127\.0\.0\.1:\d+ did not take request log lines: HTTP 503/);
  });

  it('lets a batch Loki refuses for good go, says why in the log, and never says the token', async () => {
    loki.statuses.push(401);
    const refused = await ask('refused');
    await until('the log line', () => /refused request log lines: HTTP 401/.test(service.output()));
    const next = await ask('after');
    await until('the next push', () => loki.lines().some((l) => l.request_id === next.id));
    assert.ok(!loki.lines().some((l) => l.request_id === refused.id), 'the refused batch is not sent again');
    assert.ok(!service.output().includes(TOKEN));
  });

  it('sends nothing once the integration is cleared', async () => {
    await service.client().updateIntegrations({ logs: null });
    const before = loki.taken.length;
    await ask('not shipped');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(loki.taken.length, before);
  });
});
