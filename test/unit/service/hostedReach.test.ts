// One attempt at a hosted provider (chat/reach/hostedProviders.ts) and the client's going: a client gone
// before the attempt starts stops it before the provider is asked, and one that goes while the provider
// thinks stops it then, with the client's reason in both cases and the provider not cooled down for it.
import assert from 'node:assert/strict';
import type { ModelRecord } from '../../../src/api/schemas';
import { HostedProviders } from '../../../src/service/chat/reach/hostedProviders';
import type { Generation } from '../../../src/service/chat/reach/reach';
import { Cooldown } from '../../../src/service/providers/cooldown';
import { ProviderKeys } from '../../../src/service/providers/keys';
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
