// One attempt at a hosted provider (chat/reach/hostedProviders.ts) and the client's going: a client gone
// before the attempt starts stops it before the provider is asked, and one that goes while the provider
// thinks stops it then, with the client's reason in both cases and the provider not cooled down for it.
// And OpenAI's reasoning summaries for an organization it has not verified: asked again an hour after
// the refusal, with the clock moved on. And a request a provider's package cannot write for its API.
import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import assert from 'node:assert/strict';
import type { ModelRecord } from '../../../src/api/schemas';
import { HostedProviders } from '../../../src/service/chat/reach/hostedProviders';
import { failureOf } from '../../../src/service/chat/reach/hosted/providerFailure';
import type { Generation } from '../../../src/service/chat/reach/reach';
import { Cooldown } from '../../../src/service/providers/cooldown';
import { ProviderKeys } from '../../../src/service/providers/keys';
import { providerSpec } from '../../../src/service/providers/providers';
import { startOpenAiFake, type ProviderFake } from '../support/providerFakes';

describe('an attempt at a hosted provider when the client goes', function () {
  this.timeout(30_000);
  let openai: ProviderFake;
  let reach: HostedProviders;
  let cooldown: Cooldown;
  const model = { provider: 'openai', model: 'gpt-4o-mini', namespace: 'openai/gpt-4o-mini' } as ModelRecord;
  const generation = (signal: AbortSignal): Generation => ({
    model,
    messages: [{ role: 'user', content: 'Hello' }],
    prompt: 'Hello',
    images: 0,
    files: 0,
    maxTokens: 16,
    temperature: 0,
    tools: {},
    signal,
  });

  before(async () => {
    openai = await startOpenAiFake();
    const keys = new ProviderKeys();
    keys.set('openai', openai.key, openai.baseUrl);
    cooldown = new Cooldown();
    reach = new HostedProviders(keys, cooldown);
  });
  after(() => openai.close());

  it('answers while the client stays', async () => {
    const reply = await reach.generate(generation(new AbortController().signal));
    assert.equal(reply.text, 'echo: Hello');
    assert.deepEqual(openai.problems, []);
  });

  it('does not ask the provider for a client already gone', async () => {
    const asked = openai.seen.length;
    const reason = new Error('the client went');
    await assert.rejects(reach.generate(generation(AbortSignal.abort(reason))), (error) => error === reason);
    assert.equal(openai.seen.length, asked);
    assert.ok(cooldown.allows('openai'));
  });

  it('stops an attempt under way when the client goes', async () => {
    openai.failNext('hang');
    const client = new AbortController();
    const reason = new Error('the client went');
    const attempt = reach.generate(generation(client.signal));
    setTimeout(() => client.abort(reason), 100);
    await assert.rejects(attempt, (error) => error === reason);
    assert.ok(cooldown.allows('openai'));
    openai.recover();
  });
});

describe("a reasoning model's summaries for an organization OpenAI has not verified", function () {
  this.timeout(30_000);
  let openai: ProviderFake;
  let reach: HostedProviders;
  const model = {
    provider: 'openai',
    model: 'gpt-5.4-mini',
    namespace: 'openai/gpt-5.4-mini',
    supports_reasoning: true,
  } as ModelRecord;
  const generation = (prompt: string): Generation => ({
    model,
    messages: [{ role: 'user', content: prompt }],
    prompt,
    images: 0,
    files: 0,
    maxTokens: 16,
    temperature: 0.7,
    tools: {},
    signal: new AbortController().signal,
  });
  const summaryAsked = (from: number) =>
    openai.seen.slice(from).map((r) => (r.body.reasoning as { summary?: string } | undefined)?.summary ?? null);

  before(async () => {
    openai = await startOpenAiFake();
    openai.unverified = true;
    const keys = new ProviderKeys();
    keys.set('openai', openai.key, openai.baseUrl);
    reach = new HostedProviders(keys, new Cooldown());
  });
  after(() => openai.close());

  it('asks again an hour after the refusal, not before: verifying takes OpenAI a while to apply', async () => {
    const realNow = Date.now;
    try {
      const first = await reach.generate(generation('Why is the sky blue?'));
      assert.equal(first.text, 'echo: Why is the sky blue?');
      assert.match(first.warning ?? '', /only to organizations it has verified/);
      assert.deepEqual(summaryAsked(0), ['auto', null]);
      const refusedAt = realNow();
      Date.now = () => refusedAt + 59 * 60_000;
      await reach.generate(generation('And at sunset?'));
      assert.deepEqual(summaryAsked(2), [null], 'not asked within the hour');
      // Verified meanwhile: asked again after the hour, and the reply has its summary, with no warning.
      openai.unverified = false;
      Date.now = () => refusedAt + 61 * 60_000;
      const later = await reach.generate(generation('And at night?'));
      assert.deepEqual(summaryAsked(3), ['auto']);
      assert.equal(later.warning, undefined);
      assert.ok(later.reasoning, 'the summary shows');
    } finally {
      Date.now = realNow;
    }
  });
});

describe("a request a provider's package cannot write in its API's terms", function () {
  it('says so in words, as a 400 that does not count against the provider, which was never asked', () => {
    const failure = failureOf(
      new UnsupportedFunctionalityError({
        functionality: 'system messages are only supported at the beginning of the conversation',
      }),
      providerSpec('google')!,
      [],
    );
    assert.equal(
      failure.message,
      'Google Gemini cannot take this request as it is: system messages are only supported at the beginning of the conversation',
    );
    assert.deepEqual([failure.status, failure.unreachable], [400, false]);
  });
});
