// Property-based bad input on the surfaces other tools send to (OpenAI's Chat Completions, Responses,
// legacy Completions and Embeddings, Mistral's fill in the middle, Anthropic's Messages and its token
// count), with a Space's key as those tools hold it: whatever arrives, the answer is 2xx, or 4xx in the
// error shape of that API (the shape its SDKs read), never 5xx; and a 4xx leaves the organization's
// request count and the Space's conversations as they were.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { raw } from '../support/http';
import { removeDir, startService, type RunningService } from '../support/service';

/** Each case here may be a chat answered and logged; FC_RUNS sets more, as for properties.test.ts. */
const RUNS = Number(process.env.FC_RUNS ?? 1000);

type Dialect = 'openai' | 'anthropic';

describe('gateway surfaces under arbitrary input (fast-check)', function () {
  this.timeout(600_000);
  let service: RunningService;
  let key: string;
  let appId: string;

  before(async () => {
    service = await startService();
    const space = await service.client().createSpace({ name: 'Arbitrary input' });
    key = space.created_key!;
    appId = space.id;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  /** What a refused request must leave as it was: the organization's request count and the Space's conversations. */
  const observe = async () => [
    ((await raw(service.url, 'GET', '/v1/orgs/self', { token: service.token })).json as { num_requests: number })
      .num_requests,
    (await raw(service.url, 'GET', `/v1/apps/${appId}/conversations`, { token: service.token })).text,
  ];

  // ---------------------------------------------------------------- generators
  const junk = fc.jsonValue({ maxDepth: 2 });
  const field = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: junk });
  /** An object with each field plausible or junk, any of them left out. */
  const shape = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, field(v)])), { requiredKeys: [] });
  /**
   * Bodies of four kinds: each field plausible or junk (refused nearly always), `rich` ones (the rarer
   * options a tool sends, each within its range, which should reach the model), `valid` ones, and
   * anything at all.
   */
  const body = (fields: Record<string, fc.Arbitrary<unknown>>, valid: fc.Arbitrary<unknown>, rich = valid) =>
    fc.oneof(
      { weight: 4, arbitrary: shape(fields) },
      { weight: 3, arbitrary: rich },
      { weight: 2, arbitrary: valid },
      { weight: 1, arbitrary: junk },
    );
  /** Any text, now and then with a special token's text in it (a prompt about tokenizers, a file naming one). */
  const text = (max: number) =>
    fc.oneof(
      { weight: 5, arbitrary: fc.string({ maxLength: max }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.string({ maxLength: max }), fc.constantFrom('<|endoftext|>', '<|im_start|>', '<|fim_prefix|>'))
          .map(([before, special]) => `${before}${special}`),
      },
    );
  const num = fc.oneof(fc.double({ noNaN: true, min: -2, max: 3 }), fc.integer({ min: -5, max: 5000 }));
  const model = fc.oneof(fc.constantFrom('test/echo', 'test/lorem', 'openai/gpt-4o-mini', 'echo'), text(10));
  const testModel = fc.constantFrom('test/echo', 'test/lorem');
  const image = fc.constantFrom('data:image/png;base64,iVBORw0KGgo=', 'https://example.com/cat.png', 'data:,');
  const schema = fc.oneof(
    fc.constant({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    junk,
  );
  const small = fc.integer({ min: 1, max: 40 });

  // OpenAI's Chat Completions
  const openAiPart = fc.oneof(
    shape({ type: fc.constant('text'), text: text(20) }),
    shape({ type: fc.constant('image_url'), image_url: shape({ url: image, detail: fc.constantFrom('low', 'auto') }) }),
    shape({ type: fc.constant('input_audio'), input_audio: shape({ data: text(8), format: fc.constant('wav') }) }),
  );
  const toolCall = shape({
    id: text(8),
    type: fc.constant('function'),
    function: shape({ name: text(10), arguments: fc.oneof(fc.constant('{"city":"Paris"}'), text(10)) }),
  });
  const openAiMessage = shape({
    role: fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'function'),
    content: fc.oneof(text(30), fc.array(openAiPart, { maxLength: 3 }), fc.constant(null)),
    name: text(8),
    tool_calls: fc.array(toolCall, { maxLength: 2 }),
    tool_call_id: text(8),
  });
  const openAiTool = shape({
    type: fc.constant('function'),
    function: shape({ name: text(12), description: text(20), parameters: schema, strict: fc.boolean() }),
  });
  const chatFields = {
    model,
    messages: fc.array(openAiMessage, { maxLength: 4 }),
    tools: fc.array(openAiTool, { maxLength: 2 }),
    tool_choice: fc.oneof(
      fc.constantFrom('auto', 'none', 'required'),
      shape({ type: fc.constant('function'), function: shape({ name: text(8) }) }),
    ),
    response_format: fc.oneof(
      shape({ type: fc.constantFrom('text', 'json_object') }),
      shape({ type: fc.constant('json_schema'), json_schema: shape({ name: text(8), schema, strict: fc.boolean() }) }),
    ),
    stream: fc.boolean(),
    stream_options: shape({ include_usage: fc.boolean() }),
    max_tokens: num,
    max_completion_tokens: num,
    temperature: num,
    top_p: num,
    n: fc.integer({ min: 0, max: 3 }),
    stop: fc.oneof(text(5), fc.array(text(5), { maxLength: 5 })),
    seed: num,
    logprobs: fc.boolean(),
    top_logprobs: fc.integer({ min: -1, max: 25 }),
    reasoning_effort: fc.constantFrom('minimal', 'low', 'medium', 'high', 'none'),
    user: text(10),
    metadata: fc.dictionary(text(5), text(5), { maxKeys: 3 }),
  };
  const validChat = fc.record(
    {
      model: testModel,
      messages: fc.array(fc.record({ role: fc.constantFrom('system', 'user'), content: text(30) }), {
        minLength: 1,
        maxLength: 3,
      }),
      stream: fc.boolean(),
      max_tokens: small,
    },
    { requiredKeys: ['model', 'messages'] },
  );

  /** A conversation as an agent sends it: instructions, a question, a tool called and answered, a picture. */
  const richChat = fc.record(
    {
      model: testModel,
      messages: fc.tuple(text(20), text(20), fc.boolean()).map(([system, question, picture]) => [
        { role: 'system', content: system || 'Be brief.' },
        {
          role: 'user',
          content: picture
            ? [
                { type: 'text', text: question || 'What is this?' },
                { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              ]
            : question || 'Weather in Paris?',
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      ]),
      tools: fc.constant([
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'The weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ]),
      tool_choice: fc.constantFrom('auto', 'none', 'required'),
      response_format: fc.constantFrom({ type: 'text' }, { type: 'json_object' }),
      stream: fc.boolean(),
      stream_options: fc.constant({ include_usage: true }),
      max_completion_tokens: small,
      temperature: fc.double({ noNaN: true, min: 0, max: 2 }),
      top_p: fc.double({ noNaN: true, min: 0, max: 1 }),
      stop: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 4 }),
      seed: fc.integer({ min: 0, max: 1000 }),
      // The test models report no token probabilities, and say so (a refusal, not what this generator is for).
      logprobs: fc.constant(false),
      parallel_tool_calls: fc.boolean(),
      user: text(10),
    },
    { requiredKeys: ['model', 'messages'] },
  );

  // OpenAI's Responses
  const responsesItem = fc.oneof(
    shape({
      role: fc.constantFrom('user', 'assistant', 'system', 'developer'),
      content: fc.oneof(
        text(20),
        fc.array(
          fc.oneof(
            shape({ type: fc.constant('input_text'), text: text(20) }),
            shape({ type: fc.constant('input_image'), image_url: image }),
            shape({ type: fc.constant('output_text'), text: text(20) }),
          ),
          { maxLength: 2 },
        ),
      ),
    }),
    shape({ type: fc.constant('function_call'), call_id: text(8), name: text(8), arguments: text(10) }),
    shape({ type: fc.constant('function_call_output'), call_id: text(8), output: text(10) }),
    shape({ type: fc.constant('reasoning'), id: text(8), summary: fc.array(junk, { maxLength: 1 }) }),
    shape({
      type: fc.constant('compaction'),
      encrypted_content: fc.oneof(
        text(10),
        text(10).map((t) => `llm-spaces.compaction.1.${t}`),
      ),
    }),
    shape({ type: fc.constant('compaction_trigger') }),
  );
  const responsesFields = {
    model,
    input: fc.oneof(text(30), fc.array(responsesItem, { maxLength: 3 })),
    instructions: text(20),
    tools: fc.array(shape({ type: fc.constantFrom('function', 'web_search'), name: text(8), parameters: schema }), {
      maxLength: 2,
    }),
    tool_choice: fc.oneof(
      fc.constantFrom('auto', 'none', 'required'),
      shape({ type: fc.constant('function'), name: text(8) }),
    ),
    max_output_tokens: num,
    temperature: num,
    stream: fc.boolean(),
    store: fc.boolean(),
    previous_response_id: text(12),
    reasoning: shape({ effort: fc.constantFrom('low', 'high'), summary: fc.constantFrom('auto', 'detailed') }),
    text: shape({ format: shape({ type: fc.constantFrom('text', 'json_schema'), name: text(8), schema }) }),
    context_management: fc.array(shape({ type: fc.constantFrom('compaction', 'truncation'), compact_threshold: num }), {
      maxLength: 2,
    }),
  };
  // A conversation with a turn of the model's, which a low compaction threshold sums up before the reply.
  const turns = fc.tuple(text(20), text(20)).map(([asked, answered]) => [
    { role: 'user', content: asked },
    { role: 'assistant', content: answered },
    { role: 'user', content: 'Go on.' },
  ]);
  const validResponses = fc.record(
    {
      model: testModel,
      // Ending with a compaction_trigger, it is summed up now, and answered with the summary alone.
      input: fc.oneof(
        text(30),
        turns,
        turns.map((t) => [...t, { type: 'compaction_trigger' }]),
      ),
      stream: fc.boolean(),
      max_output_tokens: small,
      context_management: fc.constant([{ type: 'compaction', compact_threshold: 1 }]),
    },
    { requiredKeys: ['model', 'input'] },
  );
  /** A valid Responses body with only what shapes the request, for the count and the standalone compaction. */
  const askedOnly = validResponses.map(
    ({ stream: _, max_output_tokens: __, context_management: ___, ...asked }) => asked,
  );

  // Anthropic's Messages
  const block = fc.oneof(
    shape({ type: fc.constant('text'), text: text(20), cache_control: shape({ type: fc.constant('ephemeral') }) }),
    shape({
      type: fc.constant('image'),
      source: shape({
        type: fc.constantFrom('base64', 'url'),
        media_type: fc.constant('image/png'),
        data: text(8),
        url: image,
      }),
    }),
    shape({ type: fc.constant('tool_use'), id: text(8), name: text(8), input: junk }),
    shape({
      type: fc.constant('tool_result'),
      tool_use_id: text(8),
      content: fc.oneof(text(10), fc.array(junk, { maxLength: 2 })),
    }),
    shape({ type: fc.constant('thinking'), thinking: text(10), signature: text(10) }),
    shape({ type: fc.constant('redacted_thinking'), data: text(10) }),
    shape({ type: fc.constant('compaction'), content: fc.option(text(20)), encrypted_content: fc.option(text(8)) }),
    shape({
      type: fc.constant('document'),
      source: shape({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: text(10) }),
    }),
  );
  const anthropicMessage = shape({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.oneof(text(30), fc.array(block, { maxLength: 3 })),
  });
  const messagesFields = {
    model,
    max_tokens: num,
    messages: fc.array(anthropicMessage, { maxLength: 4 }),
    system: fc.oneof(text(20), fc.array(block, { maxLength: 2 })),
    tools: fc.array(shape({ name: text(10), description: text(20), input_schema: schema }), { maxLength: 2 }),
    tool_choice: shape({ type: fc.constantFrom('auto', 'any', 'tool', 'none'), name: text(8) }),
    thinking: shape({ type: fc.constantFrom('enabled', 'disabled', 'adaptive'), budget_tokens: num }),
    stream: fc.boolean(),
    stop_sequences: fc.array(text(5), { maxLength: 3 }),
    temperature: num,
    top_k: num,
    top_p: num,
    metadata: shape({ user_id: text(10) }),
    compaction: shape({ type: fc.constantFrom('summarize', 'auto'), instructions: fc.option(text(20)) }),
    context_management: shape({
      edits: fc.array(
        shape({
          type: fc.constantFrom('compact_20260112', 'clear_thinking_20251015'),
          trigger: shape({ type: fc.constant('input_tokens'), value: num }),
          pause_after_compaction: fc.boolean(),
          instructions: text(20),
        }),
        { maxLength: 2 },
      ),
    }),
  };
  const validMessages = fc.record(
    {
      model: testModel,
      max_tokens: small,
      // Now and then after a summary of the turns before them (Anthropic's compaction), which stands for them.
      messages: fc
        .tuple(
          fc.option(text(30)),
          fc.array(fc.record({ role: fc.constant('user'), content: text(30) }), { minLength: 1, maxLength: 2 }),
        )
        .map(([summary, turns]) =>
          summary === null
            ? turns
            : [{ role: 'assistant', content: [{ type: 'compaction', content: summary || 'A summary.' }] }, ...turns],
        ),
      stream: fc.boolean(),
      // Asked to sum the conversation up, the answer is the summary alone (a count ignores it).
      compaction: fc.constant({ type: 'summarize' }),
    },
    { requiredKeys: ['model', 'max_tokens', 'messages'] },
  );

  /** A turn of Claude Code's: cached instructions, tools, thinking, a tool used and its result. */
  const richMessages = fc.record(
    {
      model: testModel,
      max_tokens: fc.integer({ min: 1100, max: 4000 }),
      system: fc.constant([{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }]),
      messages: fc.tuple(text(20), fc.boolean()).map(([question, picture]) => [
        {
          role: 'user',
          content: [
            { type: 'text', text: question || 'Read the file.' },
            ...(picture
              ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }]
              : []),
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' }] },
      ]),
      tools: fc.constant([
        {
          name: 'read',
          description: 'Reads a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ]),
      tool_choice: fc.constantFrom({ type: 'auto' }, { type: 'any' }, { type: 'tool', name: 'read' }),
      thinking: fc.constantFrom({ type: 'enabled', budget_tokens: 1024 }, { type: 'disabled' }),
      stream: fc.boolean(),
      stop_sequences: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 3 }),
      metadata: fc.constant({ user_id: 'someone' }),
    },
    { requiredKeys: ['model', 'max_tokens', 'messages'] },
  );

  interface Surface {
    path: string;
    dialect: Dialect;
    body: fc.Arbitrary<unknown>;
    /** Anthropic's SDK sends its key as x-api-key; the others as a bearer token. */
    header?: 'x-api-key';
  }

  const surfaces: Record<string, Surface> = {
    'POST /v1/chat/completions': {
      path: '/v1/chat/completions',
      dialect: 'openai',
      body: body(chatFields, validChat, richChat),
    },
    'POST /v1/responses': {
      path: '/v1/responses',
      dialect: 'openai',
      body: body(responsesFields, validResponses),
    },
    // As OpenAI's count, it refuses what shapes only the answer (stream, store, max_output_tokens).
    'POST /v1/responses/input_tokens': {
      path: '/v1/responses/input_tokens',
      dialect: 'openai',
      body: body(responsesFields, askedOnly),
    },
    // As OpenAI's compaction, it takes the conversation and what picks its model, nothing of an answer.
    'POST /v1/responses/compact': {
      path: '/v1/responses/compact',
      dialect: 'openai',
      body: body(
        { model: responsesFields.model, input: responsesFields.input, instructions: responsesFields.instructions },
        askedOnly,
      ),
    },
    'POST /v1/completions': {
      path: '/v1/completions',
      dialect: 'openai',
      body: body(
        {
          model,
          prompt: fc.oneof(text(30), fc.array(text(10), { maxLength: 3 }), fc.array(fc.integer(), { maxLength: 3 })),
          suffix: text(20),
          max_tokens: num,
          temperature: num,
          stream: fc.boolean(),
          echo: fc.boolean(),
          best_of: fc.integer({ min: 0, max: 3 }),
          logprobs: fc.integer({ min: -1, max: 6 }),
          stop: fc.oneof(text(5), fc.array(text(5), { maxLength: 5 })),
        },
        fc.record({ model: testModel, prompt: text(30), max_tokens: small, stream: fc.boolean() }),
      ),
    },
    'POST /v1/fim/completions': {
      path: '/v1/fim/completions',
      dialect: 'openai',
      body: body(
        {
          model,
          prompt: text(30),
          suffix: text(20),
          max_tokens: num,
          min_tokens: num,
          temperature: num,
          stream: fc.boolean(),
          stop: fc.oneof(text(5), fc.array(text(5), { maxLength: 3 })),
          random_seed: num,
        },
        fc.record({ model: testModel, prompt: text(30), suffix: text(20), max_tokens: small, stream: fc.boolean() }),
      ),
    },
    'POST /v1/embeddings': {
      path: '/v1/embeddings',
      dialect: 'openai',
      body: body(
        {
          model: fc.oneof(model, fc.constantFrom('openai/text-embedding-3-small', 'test/embed')),
          input: fc.oneof(text(30), fc.array(text(10), { maxLength: 3 }), fc.array(fc.integer(), { maxLength: 3 })),
          dimensions: num,
          encoding_format: fc.constantFrom('float', 'base64', 'int8'),
        },
        fc.record({ model: fc.constant('test/embed'), input: text(30) }),
      ),
    },
    'POST /v1/messages': {
      path: '/v1/messages',
      dialect: 'anthropic',
      header: 'x-api-key',
      body: body(messagesFields, validMessages, richMessages),
    },
    // As Anthropic's count, it refuses `stream` (and takes max_tokens, which some clients send along).
    'POST /v1/messages/count_tokens': {
      path: '/v1/messages/count_tokens',
      dialect: 'anthropic',
      header: 'x-api-key',
      body: body(
        messagesFields,
        validMessages.map(({ stream: _, ...b }) => b),
        richMessages.map(({ stream: _, ...b }) => b),
      ),
    },
  };

  /** The error shape each API's SDKs read: OpenAI's `{"error": {"message"}}`, Anthropic's `{"type": "error", "error": {"type", "message"}}`. */
  function assertErrorShape(dialect: Dialect, status: number, json: unknown, text: string): void {
    const error = (json as { error?: { message?: unknown; type?: unknown } } | undefined)?.error;
    assert.equal(typeof error?.message, 'string', `a ${status} without an error message: ${text.slice(0, 200)}`);
    assert.ok((error!.message as string).length > 0, `a ${status} with an empty message`);
    if (dialect === 'anthropic') {
      assert.equal(
        (json as { type?: unknown }).type,
        'error',
        `a ${status} not in Anthropic's shape: ${text.slice(0, 200)}`,
      );
      assert.equal(typeof error!.type, 'string');
    }
  }

  for (const [name, surface] of Object.entries(surfaces)) {
    it(`${name}: ${RUNS} arbitrary requests with a Space key, never a 5xx, a 4xx in the API's own error shape that leaves nothing behind`, async () => {
      let before = await observe();
      const seen = { ok: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(surface.body, async (sent) => {
          const res = await raw(service.url, 'POST', surface.path, {
            ...(surface.header ? { headers: { 'x-api-key': key } } : { token: key }),
            body: sent,
          });
          assert.ok(res.status < 500, `${res.status} ${res.text.slice(0, 300)}`);
          if (res.status >= 400) {
            seen.refused++;
            assertErrorShape(surface.dialect, res.status, res.json, res.text);
            assert.deepEqual(
              await observe(),
              before,
              `a ${res.status} left something behind: ${res.text.slice(0, 200)}`,
            );
          } else {
            seen.ok++;
            before = await observe();
          }
        }),
        { numRuns: RUNS },
      );
      // Generators that only ever produce refusals (or only successes) would prove little.
      assert.ok(seen.ok > 0, `no request of ${RUNS} succeeded`);
      assert.ok(seen.refused > 0, `no request of ${RUNS} was refused`);
    });
  }
});
