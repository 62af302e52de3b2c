// The official OpenAI SDK from npm against the built-in service's /v1/chat/completions and /v1/models,
// as Continue, Cline, aider or any script would use it with a Space key: create, stream, the
// stream() helper (which needs the role in the first delta), runTools, errors with their words, and the
// model list. Test models answer, so no provider is needed.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { raw } from '../support/http';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';

describe('the OpenAI SDK against the built-in service', function () {
  this.timeout(60_000);
  let service: RunningService;
  let openai: OpenAI;
  let spaceName: string;
  let key: string;

  before(async () => {
    service = await startService();
    spaceName = 'For the OpenAI SDK';
    const created = await echoSpace(service, spaceName);
    // A Space key selects its Space: the SDK needs nothing but the base URL and the key.
    key = created.key;
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('creates a completion dated in seconds, with usage and cached tokens, a developer message read as a system one', async () => {
    const before = Math.floor(Date.now() / 1000);
    const completion = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hello, SDK' },
      ],
      max_completion_tokens: 50,
      user: 'someone',
    });
    assert.equal(completion.choices[0]!.message.content, 'Hello, SDK');
    assert.equal(completion.choices[0]!.message.role, 'assistant');
    assert.ok(
      completion.created >= before - 1 && completion.created <= before + 60,
      `created ${completion.created} is in seconds`,
    );
    assert.equal(completion.usage!.prompt_tokens_details!.cached_tokens, 0);
    assert.ok(completion.usage!.total_tokens > 0);
    // The SDK's request id is the id of the request's entry in the Space's log, whole and streamed.
    const { data, request_id } = await openai.chat.completions
      .create({ model: 'test/echo', messages: [{ role: 'user', content: 'Which entry?' }] })
      .withResponse();
    assert.equal(request_id, data.id);
    const streamed = await openai.chat.completions
      .create({ model: 'test/echo', messages: [{ role: 'user', content: 'Which entry?' }], stream: true })
      .withResponse();
    const chunks: string[] = [];
    for await (const chunk of streamed.data) chunks.push(chunk.id);
    assert.deepEqual(new Set(chunks), new Set([streamed.request_id]));
  });

  it("streams, with the role in the first delta, so the SDK's stream() helper puts the message together", async () => {
    const pieces: string[] = [];
    const stream = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'Streamed through the SDK' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usageChunk = false;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
      if (chunk.choices.length === 0 && chunk.usage) usageChunk = true;
    }
    assert.equal(pieces.join(''), 'Streamed through the SDK');
    assert.ok(usageChunk, 'include_usage ends the stream with a usage chunk');

    const helper = openai.chat.completions.stream({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'With the helper' }],
    });
    const final = await helper.finalChatCompletion();
    assert.equal(final.choices[0]!.message.content, 'With the helper');
  });

  it("pads a stream's events when include_obfuscation asks, on Chat Completions and Responses, so their sizes tell nothing", async () => {
    const chunks = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'Padded, piece by piece' }],
      stream: true,
      stream_options: { include_obfuscation: true, include_usage: true },
    });
    const padding: unknown[] = [];
    let text = '';
    for await (const chunk of chunks) {
      text += chunk.choices[0]?.delta.content ?? '';
      padding.push((chunk as { obfuscation?: unknown }).obfuscation);
    }
    assert.equal(text, 'Padded, piece by piece');
    assert.ok(
      padding.length > 2 && padding.every((p) => typeof p === 'string' && p.length > 0),
      'each chunk is padded',
    );
    const events = openai.responses.stream({
      model: 'test/echo',
      input: 'Padded, piece by piece',
      stream_options: { include_obfuscation: true },
    });
    const deltas: unknown[] = [];
    events.on('response.output_text.delta', (event) => deltas.push((event as { obfuscation?: unknown }).obfuscation));
    assert.equal((await events.finalResponse()).output_text, 'Padded, piece by piece');
    assert.ok(deltas.length > 1 && deltas.every((p) => typeof p === 'string'), 'each delta is padded');

    // Each padded event is a multiple of 64 bytes whatever its text; unasked, none is padded.
    const sizes = async (options?: Record<string, unknown>) => {
      const streamed = await raw(service.url, 'POST', '/v1/chat/completions', {
        token: key,
        body: {
          model: 'test/echo',
          messages: [{ role: 'user', content: 'a b cc ddd eeee ünïcödé' }],
          stream: true,
          ...(options ? { stream_options: options } : {}),
        },
      });
      const lines = streamed.text.split('\n').filter((l) => l.startsWith('data: {'));
      return lines.map((l) => ({
        size: Buffer.byteLength(l.slice('data: '.length)),
        padded: l.includes('"obfuscation"'),
      }));
    };
    const padded = await sizes({ include_obfuscation: true });
    assert.ok(
      padded.every((e) => e.padded && e.size % 64 === 0),
      JSON.stringify(padded),
    );
    for (const plain of [await sizes(), await sizes({ include_obfuscation: false })])
      assert.ok(plain.length > 2 && plain.every((e) => !e.padded));
    const unknown = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: key,
      body: { model: 'test/echo', messages: [{ role: 'user', content: 'x' }], stream_options: { pad: true } },
    });
    assert.equal(unknown.status, 422, 'an option not served is refused by name, not dropped');
    assert.match(unknown.text, /stream_options/);
  });

  it('runs tools with runTools: the model asks, the SDK calls the function, the model answers from its result', async () => {
    let called: unknown;
    const runner = openai.chat.completions.runTools({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'call lookup {"word":"gateway"}' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Looks a word up',
            parameters: { type: 'object', properties: { word: { type: 'string' } } },
            parse: JSON.parse,
            function: (args: unknown) => {
              called = args;
              return 'a door every tool goes through';
            },
          },
        },
      ],
    });
    const answer = await runner.finalContent();
    assert.deepEqual(called, { word: 'gateway' });
    assert.equal(answer, 'a door every tool goes through', "test/echo answers with the tool's result");
  });

  it("takes the older API's functions, answering with a function_call whole and streamed, and reads its function results", async () => {
    const functions = [
      {
        name: 'lookup',
        description: 'Looks a word up',
        parameters: { type: 'object', properties: { word: { type: 'string' } } },
      },
    ];
    const asked = { role: 'user' as const, content: 'call lookup {"word":"gateway"}' };
    const whole = await openai.chat.completions.create({ model: 'test/echo', messages: [asked], functions });
    const [choice] = whole.choices;
    assert.equal(choice!.finish_reason, 'function_call');
    assert.deepEqual(choice!.message.function_call, { name: 'lookup', arguments: '{"word":"gateway"}' });
    assert.equal(choice!.message.tool_calls, undefined, 'the older API has no tool_calls');

    const stream = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [asked],
      functions,
      function_call: { name: 'lookup' },
      stream: true,
    });
    const calls: unknown[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const [streamed] = chunk.choices;
      if (streamed?.delta.function_call) calls.push(streamed.delta.function_call);
      if (streamed?.delta.tool_calls) assert.fail('a stream of the older API has no tool_calls');
      finish = streamed?.finish_reason ?? finish;
    }
    assert.deepEqual(calls, [{ name: 'lookup', arguments: '{"word":"gateway"}' }]);
    assert.equal(finish, 'function_call');

    // The function's result goes back by its name, as the older API sends it; test/echo answers from it.
    const answered = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [
        asked,
        choice!.message,
        { role: 'function', name: 'lookup', content: 'a door every tool goes through' },
      ],
      functions,
    });
    assert.equal(answered.choices[0]!.message.content, 'a door every tool goes through');
    assert.equal(answered.choices[0]!.finish_reason, 'stop');

    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [asked, { role: 'function', name: 'lookup', content: 'no call asked for this' }],
        functions,
      }),
      (e: InstanceType<typeof OpenAI.APIError>) =>
        e.status === 422 && /function lookup, which no assistant message before it calls/.test(e.message),
    );
    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [asked],
        functions,
        tools: [{ type: 'function', function: functions[0]! }],
      }),
      (e: InstanceType<typeof OpenAI.APIError>) => e.status === 422 && /send one of them/.test(e.message),
    );
  });

  it('answers in JSON when response_format asks for an object', async () => {
    const completion = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'As JSON' }],
      response_format: { type: 'json_object' },
    });
    assert.deepEqual(JSON.parse(completion.choices[0]!.message.content!), { text: 'As JSON' });
  });

  it('lets the Space route when the model named is the Space itself, and lists the Space and its models', async () => {
    const completion = await openai.chat.completions.create({
      model: spaceName,
      messages: [{ role: 'user', content: 'Routed' }],
    });
    assert.equal(completion.model, 'test/echo');
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    // The Space, the model it has turned on, and the embedding model that needs no provider.
    assert.deepEqual(ids, [spaceName, 'test/echo', 'test/embed']);
    // One by its id: the SDK escapes the slash of a model's id; the Space by its name.
    const echo = await openai.models.retrieve('test/echo');
    assert.deepEqual([echo.id, echo.object, echo.owned_by], ['test/echo', 'model', 'test']);
    assert.equal((await openai.models.retrieve(spaceName)).id, spaceName);
    await assert.rejects(
      openai.models.retrieve('test/lorem'),
      (error: unknown) =>
        error instanceof OpenAI.NotFoundError &&
        /test\/lorem does not exist here, or cannot answer here through this Space/.test(error.message),
      'a model this Space has not turned on is not one of its list',
    );
  });

  it('answers an API it does not serve (images) in OpenAI shape, saying what it serves', async () => {
    await assert.rejects(
      openai.images.generate({ model: 'test/echo', prompt: 'x' }),
      (error: unknown) =>
        error instanceof OpenAI.NotFoundError &&
        /does not serve POST \/v1\/images\/generations\. Through a Space it answers OpenAI's POST \/v1\/chat\/completions, POST \/v1\/responses, POST \/v1\/responses\/input_tokens, POST \/v1\/completions, POST \/v1\/embeddings/.test(
          error.message,
        ),
    );
    await assert.rejects(
      openai.get('/chat/completions'),
      (error: unknown) =>
        error instanceof OpenAI.APIError &&
        error.status === 405 &&
        /GET \/v1\/chat\/completions is not served: use POST/.test(error.message),
    );
  });

  it('answers errors in OpenAI shape, with their words, so the SDK shows the reason', async () => {
    const badKey = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: 'lls_not_a_key', maxRetries: 0 });
    await assert.rejects(
      badKey.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof OpenAI.AuthenticationError && /Invalid token/.test(error.message),
    );
    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [{ role: 'user', content: 'x' }],
        temperature: 7,
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'temperature' &&
        /temperature: must be between 0 and 2/.test(error.message),
    );
    await assert.rejects(
      openai.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content: 'x' }], n: 2 }),
      (error: unknown) => error instanceof OpenAI.UnprocessableEntityError && error.param === 'n',
    );
    // Not kept for reading back by id: false is what is done anyway, true is refused by name.
    const unstored = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'x' }],
      store: false,
    });
    assert.equal(unstored.choices[0]!.message.content, 'x');
    // Text is what any model answers: asked for, it is taken; audio is refused by name.
    const text = await openai.chat.completions.create({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'x' }],
      modalities: ['text'],
    });
    assert.equal(text.choices[0]!.message.content, 'x');
    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [{ role: 'user', content: 'x' }],
        modalities: ['text', 'audio'],
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /only text is answered here/.test(error.message),
    );
    await assert.rejects(
      openai.chat.completions.create({ model: 'test/echo', messages: [{ role: 'user', content: 'x' }], store: true }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'store' &&
        /only false is taken/.test(error.message),
    );
    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [{ role: 'user', content: 'x' }],
        logprobs: true,
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'logprobs' &&
        /test\/echo cannot report token probabilities/.test(error.message),
      'a field the model cannot honour is refused by its name, not dropped',
    );
    await assert.rejects(
      openai.chat.completions.create({
        model: 'test/echo',
        messages: [{ role: 'user', content: 'x' }],
        response_format: { type: 'json_schema', json_schema: { name: 'word', schema: { type: 'object' } } },
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'response_format' &&
        /test\/echo cannot follow a JSON schema/.test(error.message),
      'a model that cannot honour a field is refused, naming it',
    );
    await assert.rejects(
      openai.chat.completions.create({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /Unknown model "nobody\/nothing"/.test(error.message),
    );
  });
});
