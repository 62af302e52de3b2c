// POST /v1/chat/completions: OpenAI's request through a Space, answered, streamed, logged and billed
// like the playground, with tool calls (test/echo's deterministic one) and tool results.
import assert from 'node:assert/strict';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];

describe('chat completions', function () {
  this.timeout(30_000);
  let service: RunningService;
  let appId: string;
  let spaceKey: string;
  const post = (body: unknown, token = service.token) =>
    raw(service.url, 'POST', '/v1/chat/completions', { token, body });

  before(async () => {
    service = await startService();
    const created = await service.client().createSpace({ name: 'Completions' });
    appId = created.id;
    spaceKey = created.created_key;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('answers through the Space named by app_id, and logs and bills the request', async () => {
    const before = await service.client().getOrganization();
    const res = await post({
      app_id: appId,
      model: 'test/echo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
    });
    assert.equal(res.status, 200, res.text);
    const answer = res.json as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: { total_tokens: number };
      metadata: { app_id: string; costs: { total_tokens: number } };
    };
    assert.equal(answer.choices[0]!.message.content, 'Hello there');
    assert.equal(answer.choices[0]!.finish_reason, 'stop');
    assert.equal(answer.metadata.app_id, appId);
    const after = await service.client().getOrganization();
    assert.equal(after.num_requests, before.num_requests + 1);
    assert.equal(after.total_tokens, before.total_tokens + answer.usage.total_tokens);
  });

  it('takes the Space from a Space key; an organization token must name it', async () => {
    const byKey = await post({ messages: [{ role: 'user', content: 'by key' }], model: 'test/echo' }, spaceKey);
    assert.equal(byKey.status, 200, byKey.text);
    assert.equal((byKey.json as { metadata: { app_id: string } }).metadata.app_id, appId);
    const unnamed = await post({ messages: [{ role: 'user', content: 'which Space?' }] });
    assert.equal(unnamed.status, 422);
    assert.match(unnamed.text, /app_id/);
    const empty = await post({ app_id: appId, messages: [] });
    assert.equal(empty.status, 422);
  });

  it("test/echo asks for the tool named in 'call <tool> <JSON>', and answers from the tool's result", async () => {
    const ask = await post({
      app_id: appId,
      model: 'test/echo',
      tools: TOOLS,
      messages: [{ role: 'user', content: 'call get_weather {"city": "Paris"}' }],
    });
    assert.equal(ask.status, 200, ask.text);
    const asked = (
      ask.json as {
        choices: Array<{
          finish_reason: string;
          message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> };
        }>;
      }
    ).choices[0]!;
    assert.equal(asked.finish_reason, 'tool_calls');
    const call = asked.message.tool_calls[0]!;
    assert.deepEqual([call.function.name, JSON.parse(call.function.arguments)], ['get_weather', { city: 'Paris' }]);
    const answered = await post({
      app_id: appId,
      model: 'test/echo',
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'call get_weather {"city": "Paris"}' },
        { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
        { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 °C' },
      ],
    });
    assert.equal(answered.status, 200, answered.text);
    assert.equal(
      (answered.json as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
      'Sunny, 21 °C',
    );
    const unknownTool = await post({
      app_id: appId,
      model: 'test/echo',
      tools: TOOLS,
      messages: [{ role: 'user', content: 'call delete_everything {}' }],
    });
    assert.equal(
      (unknownTool.json as { choices: Array<{ finish_reason: string }> }).choices[0]!.finish_reason,
      'stop',
      'only a tool that was offered is called',
    );
  });

  it('streams text, then the tool calls, then usage and metadata', async () => {
    const events = async (body: unknown) => {
      const res = await raw(service.url, 'POST', '/v1/chat/completions', {
        token: service.token,
        body: { ...(body as object), stream: true },
      });
      assert.equal(res.status, 200, res.text);
      return res.text
        .split('\n\n')
        .filter((e) => e.startsWith('data: '))
        .map((e) => e.slice(6));
    };
    const text = await events({
      app_id: appId,
      model: 'test/echo',
      messages: [{ role: 'user', content: 'stream this back' }],
    });
    assert.equal(text.at(-1), '[DONE]');
    const chunks = text
      .slice(0, -1)
      .map(
        (e) =>
          JSON.parse(e) as { choices: Array<{ delta: { content?: string; tool_calls?: unknown[] } }>; usage?: unknown },
      );
    assert.equal(chunks.map((c) => c.choices[0]!.delta.content ?? '').join(''), 'stream this back');
    assert.ok(chunks.at(-1)!.usage);
    const tool = await events({
      app_id: appId,
      model: 'test/echo',
      tools: TOOLS,
      messages: [{ role: 'user', content: 'call get_weather {"city":"Oslo"}' }],
    });
    const calls = tool.slice(0, -1).map(
      (e) =>
        JSON.parse(e) as {
          choices: Array<{
            delta: { tool_calls?: Array<{ index: number; function: { name: string } }> };
            finish_reason: string | null;
          }>;
        },
    );
    const withCalls = calls.find((c) => c.choices[0]!.delta.tool_calls);
    assert.equal(withCalls!.choices[0]!.delta.tool_calls![0]!.function.name, 'get_weather');
    assert.equal(calls.at(-1)!.choices[0]!.finish_reason, 'tool_calls');
  });

  it('answers a prompt that names a special token (<|endoftext|>) as text, whole, streamed and counted', async () => {
    const content = 'What does <|endoftext|> mean, and why does ChatML put <|im_start|> before a turn?';
    const whole = await post({ app_id: appId, model: 'test/echo', messages: [{ role: 'user', content }] });
    assert.equal(whole.status, 200, whole.text);
    const answer = whole.json as { choices: Array<{ message: { content: string } }>; usage: { prompt_tokens: number } };
    assert.equal(answer.choices[0]!.message.content, content);
    assert.ok(answer.usage.prompt_tokens > 10);
    const streamed = await post({
      app_id: appId,
      model: 'test/echo',
      stream: true,
      messages: [{ role: 'user', content }],
    });
    assert.equal(streamed.status, 200, streamed.text);
    assert.match(streamed.text, /data: \[DONE\]/);
    const counted = await raw(service.url, 'POST', '/v1/messages/count_tokens', {
      headers: { 'x-api-key': spaceKey, 'anthropic-version': '2023-06-01' },
      body: { model: 'test/echo', messages: [{ role: 'user', content }] },
    });
    assert.equal(counted.status, 200, counted.text);
    assert.equal((counted.json as { input_tokens: number }).input_tokens, answer.usage.prompt_tokens);
  });

  it("finds a named model by namespace, id, or a bare name only one model has (its maker's, not Azure's)", async () => {
    const models = await service.client().listModels();
    // Azure serves OpenAI's models under their names: those names are OpenAI's (below).
    const hosted = models.filter((m) => !m.is_test_model && m.provider !== 'local' && m.provider !== 'azure');
    const count = (name: string) => hosted.filter((m) => m.model === name).length;
    // One still served (a retired one is found too, but says that it is retired).
    const unique = hosted.find((m) => count(m.model) === 1 && !m.deprecated_on)!;
    const shared = hosted.find((m) => count(m.model) > 1)!;
    assert.ok(unique && shared, 'the catalogue has a bare name of one model and one of several');
    // A Space without a failover chain, so that a named model answers itself or not at all.
    const space = await service.client().createSpace({ name: 'Named models' });
    await service.client().updateSpace({ id: space.id, has_failover_chain: false });
    const said = async (model: string) => {
      const res = await post({ model, messages: [{ role: 'user', content: 'Hi' }] }, space.created_key);
      assert.equal(res.status, 422, res.text);
      return (res.json as { error: { message: string } }).error.message;
    };
    // Found, a hosted model without its provider's key cannot answer here, and says which it is.
    for (const name of [unique.namespace, String(unique.id), unique.model])
      assert.ok((await said(name)).startsWith(`model: ${unique.namespace} cannot answer here`), name);
    assert.equal(await said(shared.model), `model: Unknown model "${shared.model}"`);
    assert.ok(models.some((m) => m.namespace === 'azure/gpt-4o-mini'));
    assert.match(await said('gpt-4o-mini'), /^model: openai\/gpt-4o-mini cannot answer here/);
    assert.match(await said('azure/gpt-4o-mini'), /^model: azure\/gpt-4o-mini cannot answer here/);
  });

  it("names each request with a time-ordered UUID, so that the log's key grows at its end", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post({ model: 'test/echo', messages: [{ role: 'user', content: `Hi ${i}` }] }, spaceKey);
      assert.equal(res.status, 200, res.text);
      ids.push((res.json as { id: string }).id);
    }
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual([...ids].sort(), ids);
  });
});
