// The playground engine: routing by weights, policies, retries and failover, deprecation, test models,
// the upstream server, costs, savings, conversations and streaming.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LlmSpacesClient } from '../../../src/api/client';
import type { ModelRecord } from '../../../src/api/schemas';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { locs, raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';
import { dayLabel } from '../../../src/shared/labels';

describe('playground engine', function () {
  this.timeout(30_000);
  let service: RunningService;
  let upstream: FakeUpstream;
  let client: LlmSpacesClient;
  let models: ModelRecord[];
  const byName = (ns: string) => models.find((m) => m.namespace === ns)!;

  /** A fresh Space whose active models are exactly `namespaces`. */
  async function spaceWith(namespaces: string[], failover: string[] = []) {
    const created = await client.createSpace({ name: `space ${namespaces.join(',')}` });
    const current = await client.getSpaceModels(created.id);
    for (const s of current.base_model_settings) {
      const want = namespaces.includes(s.namespace);
      if (s.active !== want) await client.toggleModel(created.id, s.id, want);
    }
    await client.updateSpace({ id: created.id, failover_model_ids: failover.map((ns) => byName(ns).id!) });
    return created.id;
  }

  before(async () => {
    upstream = await startFakeUpstream();
    service = await startService({ upstream: upstream.url });
    client = service.client();
    models = await client.listModels();
  });
  after(async () => {
    await service.stop();
    await upstream.close();
    removeDir(service.dataDir);
  });
  beforeEach(() => {
    upstream.received.length = 0;
    upstream.failing.clear();
  });

  it('routes by weights: quality picks the best model, cost the cheapest; latency ties on the prior and goes to the cheaper', async () => {
    const app = await spaceWith(['openai/gpt-4o', 'openai/gpt-6-luna', 'groq/llama-3.1-8b-instant']);
    await client.updateSpace({ id: app, weights: { cost: 1, latency: 0, quality: 0 } });
    assert.equal((await client.chat({ app_id: app, prompt: 'hi' })).model, 'groq/llama-3.1-8b-instant');
    assert.equal(upstream.received.at(-1)!.model, 'llama-3.1-8b-instant', 'forwarded under its api_target');
    // Nothing measured (a model server's pace is not weighed): every model has the same prior.
    await client.updateSpace({ id: app, weights: { cost: 0, latency: 1, quality: 0 } });
    const tie = await client.chat({ app_id: app, prompt: 'hi' });
    assert.equal(tie.model, 'groq/llama-3.1-8b-instant', 'a tie goes to the cheaper');
    assert.ok(tie.metadata.routing!.candidates.every((c) => c.latency_source === 'prior' && c.latency_score === 1));
    await client.updateSpace({ id: app, weights: { cost: 0, latency: 0, quality: 1 } });
    assert.equal((await client.chat({ app_id: app, prompt: 'hi' })).model, 'openai/gpt-4o');
  });

  it('routing leaves out models over max_cost; the privacy level does not choose models', async () => {
    const app = await spaceWith(['openai/gpt-4o', 'mistral/mistral-small-latest']);
    await client.updateSpace({ id: app, weights: { cost: 0, latency: 0, quality: 1 }, settings: { max_tokens: 100 } });
    assert.equal((await client.chat({ app_id: app, prompt: 'hi' })).model, 'openai/gpt-4o');
    await client.updateSpace({ id: app, policies: { max_cost: 0.0005 } });
    assert.equal(
      (await client.chat({ app_id: app, prompt: 'hi' })).model,
      'mistral/mistral-small-latest',
      'gpt-4o may cost more than $0.0005 for 100 tokens',
    );
    // Named, it is refused in words that say what it may cost and what to do.
    const named = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { app_id: app, model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(named.status, 422);
    assert.match(
      named.text,
      /openai\/gpt-4o may cost up to \$0\.001\d* for this request \(its prompt and the longest reply its max_tokens allows\), more than this Space's cost cap of \$0\.0005\d* a request: raise the Space's cost cap per request in its settings \(0 means no cap\), or ask for a shorter reply \(max_tokens\)/,
    );
    for (const privacy_level of [1, 2, 3]) {
      await client.updateSpace({ id: app, policies: { max_cost: 0, privacy_level } });
      assert.equal(
        (await client.chat({ app_id: app, prompt: 'hi' })).model,
        'openai/gpt-4o',
        `the same choice at privacy level ${privacy_level}`,
      );
    }
  });

  it('explains a route without running a model: candidates with their scores, the rest with the reason', async () => {
    const app = await spaceWith(
      ['openai/gpt-4o', 'groq/llama-3.1-8b-instant', 'local/llama3.2', 'test/echo'],
      ['openai/gpt-4o', 'test/echo'],
    );
    await client.updateSpace({
      id: app,
      weights: { cost: 0, latency: 0, quality: 1 },
      policies: { max_cost: 0.0005 },
      settings: { max_tokens: 100 },
    });
    const before = upstream.received.length;
    const res = await raw(service.url, 'POST', `/v1/apps/${app}/route`, {
      token: service.token,
      body: { prompt: 'Which model?', images: 1 },
    });
    assert.equal(res.status, 200, res.text);
    const preview = res.json as {
      chosen: string;
      candidates: Array<{ namespace: string; score: number; quality_score: number; estimated_cost: number }>;
      rejected: Array<{ namespace: string; reason: string }>;
      failover: Array<{ namespace: string }>;
    };
    const activeRejected = preview.rejected.filter((r) => r.reason !== 'inactive');
    assert.deepEqual(activeRejected.map((r) => [r.namespace, r.reason]).sort(), [
      ['groq/llama-3.1-8b-instant', 'cannot read images'],
      ['local/llama3.2', 'cannot read images'],
      ['openai/gpt-4o', 'over max_cost'],
    ]);
    const off = new Set(
      (await client.getSpaceModels(app)).base_model_settings.filter((m) => !m.active).map((m) => m.namespace),
    );
    const named = preview.rejected.filter((r) => r.reason === 'inactive').map((r) => r.namespace);
    assert.ok(
      named.length > 0 && named.every((n) => off.has(n)),
      `the models this Space turned off are named as inactive: ${named.join(', ')}`,
    );
    assert.deepEqual(
      preview.candidates.map((c) => c.namespace),
      ['test/echo'],
    );
    assert.equal(preview.chosen, 'test/echo');
    assert.deepEqual(
      preview.failover.map((f) => f.namespace),
      ['openai/gpt-4o', 'test/echo'],
    );
    const text = await raw(service.url, 'POST', `/v1/apps/${app}/route`, {
      token: service.token,
      body: { prompt: 'Which model?' },
    });
    const ranked = (text.json as typeof preview).candidates;
    assert.deepEqual(
      ranked.map((c) => c.namespace),
      ['local/llama3.2', 'groq/llama-3.1-8b-instant', 'test/echo'],
      'by quality, best first',
    );
    assert.equal(ranked[0]!.quality_score, 1);
    assert.equal(upstream.received.length, before, 'no model ran');
  });

  it('gives every reply its routing receipt: candidates with scores and cost, each model left out and why, each attempt', async () => {
    const app = await spaceWith([
      'openai/gpt-4o',
      'mistral/mistral-small-latest',
      'openai/gpt-6-luna',
      'openai/gpt-4o-mini',
    ]);
    const settings = await client.getSpaceModels(app);
    await client.toggleModel(
      app,
      settings.base_model_settings.find((m) => m.namespace === 'openai/gpt-4o-mini')!.id,
      false,
    );
    await client.updateSpace({
      id: app,
      weights: { cost: 0, latency: 0, quality: 1 },
      policies: { max_cost: 0.0005 },
      settings: { max_tokens: 100 },
    });
    const reply = await client.chat({ app_id: app, prompt: 'Which model?' });
    const receipt = reply.metadata.routing!;
    assert.equal(receipt.strategy, 'routed');
    assert.equal(receipt.candidates[0]!.namespace, reply.model, 'the best candidate answered');
    assert.deepEqual(receipt.candidates.map((c) => c.namespace).sort(), [
      'mistral/mistral-small-latest',
      'openai/gpt-6-luna',
    ]);
    for (const c of receipt.candidates) {
      for (const score of [c.score, c.cost_score, c.latency_score, c.quality_score])
        assert.ok(score >= 0 && score <= 1, JSON.stringify(c));
      assert.ok(c.estimated_cost > 0 && c.estimated_cost <= 0.0005, 'within max_cost');
    }
    assert.deepEqual(
      receipt.rejected
        .filter((r) => r.namespace.startsWith('openai/gpt-4o'))
        .map((r) => [r.namespace, r.reason])
        .sort(),
      [
        ['openai/gpt-4o', 'over max_cost'],
        ['openai/gpt-4o-mini', 'inactive'],
      ],
    );
    assert.deepEqual(receipt.attempts, [{ namespace: reply.model, status_code: 200, error: null }]);
  });

  it('a receipt says when the named model failed and which hop of the failover chain answered, streamed or not', async () => {
    const app = await spaceWith(
      ['openai/gpt-4o-mini'],
      ['openai/gpt-4o-mini', 'anthropic/claude-haiku-4-5', 'test/echo'],
    );
    await client.updateSpace({ id: app, policies: { max_same_model_retries: 1, max_switch_model_retries: 1 } });
    upstream.failing.add('gpt-4o-mini');
    const reply = await client.chat({ app_id: app, prompt: 'fail over', model: 'openai/gpt-4o-mini' });
    const receipt = reply.metadata.routing!;
    assert.equal(receipt.strategy, 'failover');
    assert.deepEqual(
      receipt.attempts.map((a) => [a.namespace, a.status_code]),
      [
        ['openai/gpt-4o-mini', 500],
        ['openai/gpt-4o-mini', 500],
        ['anthropic/claude-haiku-4-5', 200],
      ],
    );
    assert.match(receipt.attempts[0]!.error!, /500/);
    upstream.failing.clear();
    let streamed: typeof reply.metadata | undefined;
    for await (const event of client.chatStream({ app_id: app, prompt: 'named', model: 'openai/gpt-4o-mini' }))
      if (event.type === 'done') streamed = event.metadata;
    assert.equal(streamed!.routing!.strategy, 'model');
    assert.deepEqual(streamed!.routing!.attempts, [{ namespace: 'openai/gpt-4o-mini', status_code: 200, error: null }]);
    const completion = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { app_id: app, messages: [{ role: 'user', content: 'through the OpenAI endpoint' }] },
    });
    assert.equal(completion.status, 200, completion.text);
    const routing = (completion.json as { metadata: { routing: { strategy: string; attempts: unknown[] } } }).metadata
      .routing;
    assert.equal(routing.strategy, 'routed');
    assert.equal(routing.attempts.length, 1);
  });

  it('gives the cost band of a request as it would be sent, earlier turns counted; a test model bills exactly the expected cost', async () => {
    const app = await spaceWith(['test/echo', 'test/lorem'], ['test/echo', 'test/lorem']);
    const conversation = randomUUID();
    await client.chat({
      app_id: app,
      prompt: 'An earlier turn that the next request carries along.',
      model: 'test/echo',
      conversation_id: conversation,
    });
    const question = {
      prompt: 'How much will this cost?',
      model: 'test/echo',
      max_tokens: 50,
      conversation_id: conversation,
    };
    const alone = (await client.previewRoute(app, { prompt: question.prompt, model: 'test/echo', max_tokens: 50 }))
      .band!;
    const band = (await client.previewRoute(app, question)).band!;
    assert.ok(
      band.prompt_tokens > alone.prompt_tokens,
      `the earlier turn counts: ${band.prompt_tokens} > ${alone.prompt_tokens}`,
    );
    assert.equal(band.model, 'test/echo');
    assert.ok(band.min <= band.expected && band.expected <= band.max, JSON.stringify(band));
    const reply = await client.chat({ app_id: app, ...question });
    assert.equal(reply.metadata.costs.total_tokens, band.expected, 'a test model bills exactly what was expected');
  });

  it('bands a routed request over the model that answers first and its failover chain, and the bill falls inside', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini', 'mistral/mistral-small-latest'], ['openai/gpt-4o', 'test/echo']);
    await client.updateSpace({ id: app, weights: { cost: 1, latency: 0, quality: 0 } });
    const preview = await client.previewRoute(app, { prompt: 'Summarize the plan in two lines.', max_tokens: 200 });
    const band = preview.band!;
    assert.equal(band.model, preview.chosen);
    const gpt4o = byName('openai/gpt-4o');
    assert.ok(
      band.max >= band.prompt_tokens * gpt4o.prompt_token_cost + 200 * gpt4o.completion_token_cost - 1e-12,
      'the dearest model of the chain writing max_tokens sets the top',
    );
    const reply = await client.chat({ app_id: app, prompt: 'Summarize the plan in two lines.', max_tokens: 200 });
    const billed = reply.metadata.costs.total_tokens;
    assert.ok(band.min <= billed && billed <= band.max, `${billed} within ${band.min}–${band.max}`);
    const nothing = await client.previewRoute(app, {
      prompt: 'x',
      conversation_id: randomUUID(),
      parent_request_id: randomUUID(),
    });
    assert.equal(
      nothing.band ?? null,
      null,
      'no band for a request that could not be sent (a reply to an unknown request)',
    );
  });

  it('a model the dataset marks deprecated is refused with 422, by name', async () => {
    const app = await spaceWith(['test/echo']);
    const deprecated = byName('mistral/mistral-tiny');
    assert.ok(deprecated.deprecated_on, 'the dataset marks it deprecated');
    const retired = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: app, prompt: 'x', model: 'mistral/mistral-tiny' },
    });
    assert.equal(retired.status, 422);
    assert.deepEqual(locs(retired.json), ['body.model']);
    assert.match(
      JSON.stringify(retired.json),
      new RegExp(`mistral/mistral-tiny was retired on ${dayLabel(deprecated.deprecated_on!)} and is no longer served`),
    );
  });

  it('retries the same model max_same_model_retries times, then switches along the failover chain', async () => {
    const app = await spaceWith(
      ['openai/gpt-5.4-mini'],
      ['openai/gpt-5.4-mini', 'anthropic/claude-haiku-4-5', 'test/echo'],
    );
    await client.updateSpace({ id: app, policies: { max_same_model_retries: 2, max_switch_model_retries: 1 } });
    upstream.failing.add('gpt-5.4-mini');
    const reply = await client.chat({ app_id: app, prompt: 'fail over', model: 'openai/gpt-5.4-mini' });
    assert.equal(reply.model, 'anthropic/claude-haiku-4-5');
    assert.deepEqual(
      upstream.received.map((r) => r.model),
      ['gpt-5.4-mini', 'gpt-5.4-mini', 'gpt-5.4-mini', 'claude-haiku-4-5'],
    );
    assert.equal(reply.metadata.retries, 3);
    assert.match(
      reply.metadata.warning!,
      /^Failed over from openai\/gpt-5.4-mini to anthropic\/claude-haiku-4-5 after 3 failed attempts: /,
    );
  });

  it('stops after max_switch_model_retries and answers 502, logging the failed request', async () => {
    const app = await spaceWith(
      ['openai/gpt-4o-mini'],
      ['openai/gpt-4o-mini', 'anthropic/claude-haiku-4-5', 'test/echo'],
    );
    await client.updateSpace({ id: app, policies: { max_same_model_retries: 0, max_switch_model_retries: 1 } });
    upstream.failing.add('gpt-4o-mini').add('claude-haiku-4-5');
    const conversation = '6f1b2a44-2c55-4b1e-9a7e-0a0a0a0a0a0a';
    const res = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: app, prompt: 'x', model: 'openai/gpt-4o-mini', conversation_id: conversation },
    });
    assert.equal(res.status, 502);
    assert.match((res.json as { detail: string }).detail, /No model could answer/);
    assert.equal(upstream.received.length, 2);
    const logged = await client.getConversation(app, conversation, true);
    assert.equal(logged.requests![0]!.status_code, 502);
  });

  it('without a failover chain a routed request switches to the other active models by quality, a named model to none', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini', 'openai/gpt-4o'], ['test/echo']);
    await client.updateSpace({
      id: app,
      has_failover_chain: false,
      weights: { cost: 1, latency: 0, quality: 0 },
      policies: { max_same_model_retries: 1, max_switch_model_retries: 1 },
    });
    upstream.failing.add('gpt-4o-mini');
    // Routed: the cheapest first, then the best other active model.
    const routed = await client.chat({ app_id: app, prompt: 'x' });
    assert.equal(routed.model, 'openai/gpt-4o');
    assert.deepEqual(
      upstream.received.map((r) => r.model),
      ['gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o'],
    );
    // Named: nothing the Space did not name for failing over replaces it, and the answer says why.
    upstream.received.length = 0;
    const named = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: app, prompt: 'x', model: 'openai/gpt-4o-mini' },
    });
    assert.equal(named.status, 502, JSON.stringify(named.json));
    assert.match(JSON.stringify(named.json), /openai\/gpt-4o-mini: the model server answered 500/);
    assert.deepEqual(
      upstream.received.map((r) => r.model),
      ['gpt-4o-mini', 'gpt-4o-mini'],
    );
  });

  it('keeps in the log what the privacy level says, and nothing more', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini']);
    const orgBefore = await client.getOrganization();
    const turn = async (conversation: string, prompt: string, parent?: string) =>
      client.chat({
        app_id: app,
        prompt,
        model: 'openai/gpt-4o-mini',
        conversation_id: conversation,
        parent_request_id: parent,
      });
    const level = async (privacy_level: number) => client.updateSpace({ id: app, policies: { privacy_level } });
    await level(2);
    const two = randomUUID();
    const first = await turn(two, 'secret one');
    await turn(two, 'secret two', first.id);
    assert.deepEqual(
      upstream.received
        .at(-1)!
        .messages.filter((m) => m.role !== 'system')
        .map((m) => m.content),
      ['secret two'],
      'no earlier text to carry',
    );
    const readTwo = await client.getConversation(app, two, true);
    assert.equal(readTwo.requests!.length, 2, 'the details are retrievable');
    assert.deepEqual(
      readTwo.requests!.map((r) => [r.prompt, r.response]),
      [
        [null, null],
        [null, null],
      ],
    );
    assert.ok(readTwo.requests!.every((r) => r.total_tokens > 0 && r.model === 'openai/gpt-4o-mini'));
    await level(3);
    const three = randomUUID();
    const a = await turn(three, 'very secret');
    await turn(three, 'still secret', a.id);
    assert.deepEqual((await client.getConversation(app, three, true)).requests, [], 'nothing is retrievable as a log');
    const orgAfter = await client.getOrganization();
    assert.equal(orgAfter.num_requests, orgBefore.num_requests + 4, 'billing still counts every request');
    const dump = await raw(service.url, 'GET', '/v1/orgs/self', { token: service.token });
    assert.ok(!JSON.stringify(dump.json).includes('secret'));
    await level(1);
    const one = randomUUID();
    await turn(one, 'kept text');
    assert.equal((await client.getConversation(app, one, true)).requests![0]!.prompt, 'kept text');
    await assert.rejects(client.updateSpace({ id: app, policies: { privacy_level: 0 } }), /must be 1, 2 or 3/);
  });

  it('test models answer deterministically and honour max_tokens', async () => {
    const app = await spaceWith(['test/lorem']);
    const one = await client.chat({ app_id: app, prompt: 'the same prompt', model: 'test/lorem' });
    const two = await client.chat({ app_id: app, prompt: 'the same prompt', model: 'test/lorem' });
    assert.equal(one.choices[0]!.message.content, two.choices[0]!.message.content);
    assert.notEqual(
      one.choices[0]!.message.content,
      (await client.chat({ app_id: app, prompt: 'another prompt', model: 'test/lorem' })).choices[0]!.message.content,
    );
    const cut = await client.chat({ app_id: app, prompt: 'the same prompt', model: 'test/lorem', max_tokens: 5 });
    assert.equal(cut.usage.completion_tokens, 5);
    assert.equal(cut.choices[0]!.finish_reason, 'length');
    assert.ok(one.choices[0]!.message.content.startsWith(cut.choices[0]!.message.content));
    assert.equal(upstream.received.length, 0, 'test models make no model request');
  });

  it('costs come from the listed prices and savings from the benchmark model', async () => {
    const app = await spaceWith(['test/echo']);
    const gpt4o = byName('openai/gpt-4o');
    await client.updateSpace({ id: app, benchmark_model_id: gpt4o.id! });
    const echo = byName('test/echo');
    const reply = await client.chat({ app_id: app, prompt: 'count these tokens please', model: 'test/echo' });
    const { prompt_tokens: p, completion_tokens: c } = reply.usage;
    assert.ok(p > 0 && c > 0);
    const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);
    close(reply.metadata.costs.prompt_tokens, p * echo.prompt_token_cost);
    close(reply.metadata.costs.completion_tokens, c * echo.completion_token_cost);
    close(
      reply.metadata.costs.total_tokens,
      p * echo.prompt_token_cost + c * echo.completion_token_cost + echo.base_cost,
    );
    close(
      reply.metadata.cost_savings.total_tokens,
      p * gpt4o.prompt_token_cost + c * gpt4o.completion_token_cost - reply.metadata.costs.total_tokens,
    );
  });

  it('a conversation carries its earlier turns to the model and threads replies with parent_request_id', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini']);
    const conversation = '0b7c9d1e-1111-4222-8333-444455556666';
    const first = await client.chat({
      app_id: app,
      prompt: 'first question',
      model: 'openai/gpt-4o-mini',
      conversation_id: conversation,
    });
    const second = await client.chat({
      app_id: app,
      prompt: 'second question',
      model: 'openai/gpt-4o-mini',
      conversation_id: conversation,
      parent_request_id: first.id,
    });
    assert.equal(second.metadata.parent_request_id, first.id);
    const sent = upstream.received
      .at(-1)!
      .messages.filter((m) => m.role !== 'system')
      .map((m) => m.content);
    assert.deepEqual(sent, ['first question', 'upstream:gpt-4o-mini:first question', 'second question']);
    const read = await client.getConversation(app, conversation, true);
    assert.equal(read.name, 'first question', 'named after its first prompt');
    assert.deepEqual(
      read.requests!.map((r) => r.id),
      [first.id, second.id],
    );
    const bad = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: {
        app_id: app,
        prompt: 'x',
        conversation_id: conversation,
        parent_request_id: '0b7c9d1e-1111-4222-8333-000000000000',
      },
    });
    assert.deepEqual(locs(bad.json), ['body.parent_request_id']);
  });

  it('passes tools to an upstream model that can call them, and its tool calls back, whole or streamed', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini']);
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    const body = { app_id: app, model: 'openai/gpt-4o-mini', tools, messages: [{ role: 'user', content: 'find it' }] };
    const whole = await raw(service.url, 'POST', '/v1/chat/completions', { token: service.token, body });
    assert.equal(whole.status, 200, whole.text);
    assert.deepEqual(upstream.received.at(-1)!.tools, tools, 'the tools reached the model server');
    const choice = (
      whole.json as {
        choices: Array<{
          finish_reason: string;
          message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> };
        }>;
      }
    ).choices[0]!;
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.deepEqual(
      choice.message.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]),
      [['call_up_1', 'lookup', '{"q":"find it"}']],
    );
    const events: string[] = [];
    for await (const event of client.completionStream(body as never))
      if (event.type === 'toolCall') events.push(`${event.id} ${event.name} ${event.arguments}`);
    assert.deepEqual(events, ['call_up_1 lookup {"q":"find it"}'], 'the pieces of a streamed call are put together');
  });

  it('images go only to models with vision, as data URLs', async () => {
    const app = await spaceWith(['test/echo']);
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const seen = await client.chat({ app_id: app, prompt: 'what is this', model: 'test/echo', images: [image] });
    assert.match(seen.choices[0]!.message.content, /\[1 image attached\]/);
    const blind = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: app, prompt: 'x', model: 'groq/llama-3.1-8b-instant', images: [image] },
    });
    assert.deepEqual(locs(blind.json), ['body.images']);
    const notData = await raw(service.url, 'POST', '/v1/playground/chat', {
      token: service.token,
      body: { app_id: app, prompt: 'x', model: 'test/echo', images: ['https://example.com/a.png'] },
    });
    assert.deepEqual(locs(notData.json), ['body.images.0']);
    await client.chat({ app_id: app, prompt: 'look', model: 'openai/gpt-4o', images: [image] });
    const parts = upstream.received.at(-1)!.messages.at(-1)!.content as Array<{
      type: string;
      image_url?: { url: string };
    }>;
    assert.deepEqual(
      parts.map((p) => p.type),
      ['text', 'image_url'],
    );
    assert.equal(parts[1]!.image_url!.url, image);
  });

  it('the assistant version supplies instructions, temperature and max_tokens', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini']);
    const assistant = await client.createAssistant(app, { name: 'Pirate' });
    const version = await client.createAssistantVersion(app, assistant.id, {
      instructions: 'Talk like a pirate.',
      temperature: 0.9,
      max_tokens: 42,
    });
    await client.chat({
      app_id: app,
      prompt: 'hello',
      model: 'openai/gpt-4o-mini',
      assistant_id: assistant.id,
      assistant_version_id: version.id,
    });
    const sent = upstream.received.at(-1)!;
    assert.equal(sent.temperature, 0.9);
    assert.equal(sent.max_tokens, 42);
    assert.match(String(sent.messages[0]!.content), /Talk like a pirate\./);
  });

  it('streams upstream replies through, and the deltas add up to the logged reply', async () => {
    const app = await spaceWith(['openai/gpt-4o-mini']);
    const conversation = '0b7c9d1e-2222-4222-8333-444455556666';
    let text = '';
    let done: { usage: { completion_tokens: number }; id: string } | undefined;
    for await (const event of client.chatStream({
      app_id: app,
      prompt: 'stream me',
      model: 'openai/gpt-4o-mini',
      conversation_id: conversation,
    })) {
      if (event.type === 'delta') text += event.content;
      else if (event.type === 'done') done = event;
    }
    assert.equal(text, 'upstream:gpt-4o-mini:stream me');
    assert.ok(upstream.received.at(-1)!.stream);
    assert.ok(done && done.usage.completion_tokens > 0);
    const logged = await client.getConversation(app, conversation, true);
    assert.equal(logged.requests![0]!.response, text);
    assert.equal(logged.requests![0]!.id, done!.id);
  });

  it('without a model server, a new Space has only the test models active, and routing says so when nothing can answer', async () => {
    const local = await startService();
    const c = local.client();
    const created = await c.createSpace({ name: 'cloud only' });
    const settings = (await c.getSpaceModels(created.id)).base_model_settings;
    assert.deepEqual(
      settings.filter((s) => s.active).map((s) => s.namespace),
      ['test/echo', 'test/lorem'],
    );
    assert.equal(
      settings.find((s) => s.namespace === 'openai/gpt-4o-mini')?.answers_here,
      false,
      'a model nothing serves is marked',
    );
    await c.toggleModel(created.id, settings.find((s) => s.namespace === 'openai/gpt-4o-mini')!.id, true);
    for (const s of settings) if (s.active) await c.toggleModel(created.id, s.id, false);
    const res = await raw(local.url, 'POST', '/v1/playground/chat', {
      token: local.token,
      body: { app_id: created.id, prompt: 'x' },
    });
    assert.equal(res.status, 422);
    // It says which model could not answer, and what would let it.
    assert.match(
      JSON.stringify(res.json),
      /No active model of this Space can serve this request \(openai\/gpt-4o-mini: cannot answer here, add your OpenAI key \(LLM Spaces: Add Provider Key…, or OPENAI_API_KEY/,
    );
    await local.stop();
    removeDir(local.dataDir);
  });
});
