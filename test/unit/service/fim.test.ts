// Filling in the middle at hosted providers, and Mistral's own API for it served through a Space:
// - a text completion with a suffix, sent with the OpenAI SDK, reaches Mistral's Codestral on its
//   POST /v1/fim/completions and DeepSeek's V4 Flash on its beta POST /beta/completions (fakes of
//   both, which check each request against the provider's reference), streamed or not, billed by the
//   provider's own counts; routing takes them where a hosted chat model is passed over;
// - POST /v1/fim/completions, as Mistral's SDK (`fim.complete`, `fim.stream`) and Continue's Codestral
//   autocomplete send it, answers in Mistral's shape, through Codestral or a model server;
// - a text completion without a suffix reaches Together's, Fireworks' and OpenRouter's models on their
//   own POST /v1/completions, the prompt as it is (fakes that check each request);
// - a chat at Mistral streams, its usage with its last choice as Mistral sends it.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { Mistral } from '@mistralai/mistralai';
import OpenAI from 'openai';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { raw } from '../support/http';
import {
  continuation,
  fakeEnv,
  fimFill,
  startDeepSeekFake,
  startFireworksFake,
  startMistralFake,
  startOpenAiFake,
  startOpenRouterFake,
  startTogetherFake,
  type ProviderFake,
} from '../support/providerFakes';
import { removeDir, spaceOf, startService, type RunningService } from '../support/service';

/** A streamed text completion's text, and the usage its last chunk gave. */
async function read(stream: AsyncIterable<OpenAI.Completion>) {
  let text = '';
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.text ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage };
}

const CODESTRAL = 'mistral/codestral';
const DEEPSEEK = 'deepseek/deepseek-v4-flash';
const HOSTED = 'openai/gpt-4o-mini';
const CODER = 'local/qwen2.5-coder:1.5b';

describe('filling in the middle at hosted providers', function () {
  this.timeout(60_000);
  let mistral: ProviderFake;
  let deepseek: ProviderFake;
  let openai: ProviderFake;
  let server: FakeUpstream;
  let service: RunningService;

  /** The key of a new Space whose active models are these. */
  const spaceKey = async (name: string, active: string[]) => (await spaceOf(service, name, active)).key;

  before(async () => {
    [mistral, deepseek, openai] = await Promise.all([startMistralFake(), startDeepSeekFake(), startOpenAiFake()]);
    server = await startFakeUpstream({ models: [{ id: 'qwen2.5-coder:1.5b', context: 32_768 }] });
    service = await startService({
      upstream: server.url,
      env: {
        MISTRAL_API_KEY: mistral.key,
        MISTRAL_BASE_URL: mistral.baseUrl,
        DEEPSEEK_API_KEY: deepseek.key,
        DEEPSEEK_BASE_URL: deepseek.baseUrl,
        OPENAI_API_KEY: openai.key,
        OPENAI_BASE_URL: openai.baseUrl,
      },
    });
  });
  after(async () => {
    await service?.stop();
    await Promise.all([mistral?.close(), deepseek?.close(), openai?.close(), server?.close()]);
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => {
    assert.deepEqual(mistral.problems, []);
    assert.deepEqual(deepseek.problems, []);
    assert.deepEqual(openai.problems, []);
  });

  it("sends a text completion's prompt and suffix to Codestral's fill in the middle, as they are", async () => {
    const sdk = new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: await spaceKey('Codestral', [CODESTRAL]),
      maxRetries: 0,
    });
    const prompt = 'def add(a, b):\n    ';
    const completion = await sdk.completions.create({
      model: CODESTRAL,
      prompt,
      suffix: '\n\nprint(add(2, 3))',
      max_tokens: 64,
      temperature: 0.2,
      stop: ['\n\n'],
      seed: 7,
    });
    assert.equal(completion.choices[0]!.text, fimFill(prompt, '\n\nprint(add(2, 3))'));
    assert.equal(completion.model, CODESTRAL);
    const sent = mistral.seen.at(-1)!;
    assert.equal(sent.path, '/v1/fim/completions');
    assert.deepEqual(sent.body, {
      model: 'codestral-latest',
      prompt,
      suffix: '\n\nprint(add(2, 3))',
      max_tokens: 64,
      temperature: 0.2,
      stop: ['\n\n'],
      random_seed: 7,
      stream: false,
    });
    // Billed by Mistral's own counts (the fake reports 11 in, 7 out).
    assert.deepEqual(
      [completion.usage!.prompt_tokens, completion.usage!.completion_tokens],
      [mistral.usage.input, mistral.usage.output],
    );
  });

  it("streams DeepSeek's beta fill in the middle, held to its 4K tokens, with its usage", async () => {
    const sdk = new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: await spaceKey('DeepSeek', [DEEPSEEK]),
      maxRetries: 0,
    });
    const stream = await sdk.completions.create({
      model: DEEPSEEK,
      prompt: 'const total = ',
      suffix: ';\n',
      max_tokens: 8000,
      stream: true,
      stream_options: { include_usage: true },
    });
    const { text, usage } = await read(stream);
    assert.equal(text, fimFill('const total = ', ';\n'));
    const sent = deepseek.seen.at(-1)!;
    assert.equal(sent.path, '/beta/completions');
    assert.equal(sent.body.max_tokens, 4096, 'DeepSeek answers at most 4K tokens of a fill');
    assert.equal(sent.body.suffix, ';\n');
    assert.deepEqual([usage?.prompt_tokens, usage?.completion_tokens], [deepseek.usage.input, deepseek.usage.output]);
  });

  it('routes a suffix to a model that fills in the middle, passing over the hosted chat model', async () => {
    const sdk = new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: await spaceKey('Mixed', [CODESTRAL, HOSTED]),
      maxRetries: 0,
    });
    const before = openai.seen.length;
    const completion = await sdk.completions.create({ model: 'Mixed', prompt: 'let x = ', suffix: ';' });
    assert.equal(completion.model, CODESTRAL);
    assert.equal(completion.choices[0]!.text, fimFill('let x = ', ';'));
    assert.equal(openai.seen.length, before, 'the hosted chat model was not asked');
    const routing = (
      completion as { metadata?: { routing?: { rejected: Array<{ namespace: string; reason: string }> } } }
    ).metadata?.routing;
    assert.deepEqual(
      routing?.rejected.filter((r) => r.reason !== 'inactive'),
      [{ namespace: HOSTED, reason: 'cannot fill in the middle' }],
    );
  });

  it("fails over to the chain's next model that fills in the middle, saying in words why", async () => {
    const sdk = new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: await spaceKey('Refused', [CODESTRAL]),
      maxRetries: 0,
    });
    mistral.failNext({ status: 401 });
    const completion = await sdk.completions.create({ model: CODESTRAL, prompt: 'a', suffix: 'b' });
    // A new Space's failover chain holds DeepSeek's V4 Flash, which fills in the middle too.
    assert.equal(completion.model, DEEPSEEK);
    assert.equal(completion.choices[0]!.text, fimFill('a', 'b'));
    assert.equal(deepseek.seen.at(-1)!.path, '/beta/completions');
    const warning = (completion as { metadata?: { warning?: string } }).metadata?.warning ?? '';
    assert.match(
      warning,
      /mistral\/codestral: the Mistral key was refused \(HTTP 401\): check it with Add Provider Key/,
    );
    assert.ok(!warning.includes(mistral.key), 'the key is not in the words');
  });

  it("serves Mistral's POST /v1/fim/completions to Mistral's own SDK, whole and streamed", async () => {
    const client = new Mistral({ apiKey: await spaceKey('Mistral SDK', [CODESTRAL]), serverURL: service.url });
    const whole = await client.fim.complete({
      model: CODESTRAL,
      prompt: 'def f(x):',
      suffix: 'return y',
      maxTokens: 32,
    });
    assert.equal(whole.choices[0]!.message!.content, fimFill('def f(x):', 'return y'));
    assert.equal(whole.choices[0]!.finishReason, 'stop');
    assert.equal(whole.usage.promptTokens, mistral.usage.input);
    assert.deepEqual(
      [mistral.seen.at(-1)!.path, mistral.seen.at(-1)!.body.suffix, mistral.seen.at(-1)!.body.max_tokens],
      ['/v1/fim/completions', 'return y', 32],
    );

    const stream = await client.fim.stream({ model: CODESTRAL, prompt: 'for i in ', suffix: ':\n    pass' });
    let text = '';
    let finish: unknown;
    for await (const event of stream) {
      const choice = event.data.choices[0];
      if (typeof choice?.delta.content === 'string') text += choice.delta.content;
      if (choice?.finishReason) finish = choice.finishReason;
    }
    assert.equal(text, fimFill('for i in ', ':\n    pass'));
    assert.equal(finish, 'stop');
  });

  it("takes Continue's Codestral autocomplete request, on a model server's model too", async () => {
    // core/llm/llms/OpenAI.ts, _streamFim: POST {apiBase}fim/completions, every chunk's delta.content read.
    const key = await spaceKey('Continue', [CODESTRAL, CODER]);
    for (const model of [CODESTRAL, CODER]) {
      const res = await raw(service.url, 'POST', '/v1/fim/completions', {
        token: key,
        body: {
          model,
          prompt: 'const x = ',
          suffix: ';\n',
          max_tokens: 128,
          temperature: 0.01,
          stop: ['\n\n', '/src/', '```'],
          stream: true,
        },
      });
      assert.equal(res.status, 200, res.text);
      const chunks = res.text
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .map((e) => JSON.parse(e.slice(6)) as { object: string; choices: Array<{ delta: { content?: unknown } }> });
      assert.ok(chunks.length > 1);
      for (const chunk of chunks) {
        assert.equal(chunk.object, 'chat.completion.chunk');
        assert.equal(typeof chunk.choices[0]!.delta.content, 'string', 'each chunk has text, as Continue reads it');
      }
      const text = chunks.map((c) => c.choices[0]!.delta.content).join('');
      assert.equal(text, model === CODESTRAL ? fimFill('const x = ', ';\n') : 'fill:qwen2.5-coder:1.5b:const x = |;\n');
    }
    assert.equal(server.continued.at(-1)!.suffix, ';\n', "the model server's own /v1/completions got the suffix");
  });

  it("streams a chat at Mistral, text and a tool call, as Mistral streams them (Claude Code's way too)", async () => {
    const key = await spaceKey('Mistral chat', ['mistral/mistral-small-latest']);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: key, maxRetries: 0 });
    const stream = await sdk.chat.completions.create({
      model: 'mistral/mistral-small-latest',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.deepEqual([text, usage?.prompt_tokens, usage?.completion_tokens], ['echo: stream me', 11, 7]);
    const claude = new Anthropic({ baseURL: service.url, apiKey: key, maxRetries: 0 });
    const message = await claude.messages
      .stream({
        model: 'mistral/mistral-small-latest',
        max_tokens: 1024,
        tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
        messages: [{ role: 'user', content: 'Please | call Bash {"command":"ls"}' }],
      })
      .finalMessage();
    assert.deepEqual(
      message.content.map((b) => (b.type === 'tool_use' ? [b.name, b.input] : b.type)),
      [['Bash', { command: 'ls' }]],
    );
    assert.equal(mistral.seen.at(-1)!.body.stream, true);
  });

  it('refuses in words what Mistral takes and the service does not', async () => {
    const key = await spaceKey('Refusals', [CODESTRAL]);
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ prompt: 'x', min_tokens: 5 }, /min_tokens.*is not supported/],
      [{ prompt: 'x', metadata: { a: 1 } }, /metadata is not a field here/],
      [{ suffix: 'x' }, /prompt: is required/],
      [{ prompt: 'x', suffix: 'y', model: HOSTED }, /openai\/gpt-4o-mini cannot fill in the middle/],
    ];
    for (const [body, words] of refusals) {
      const res = await raw(service.url, 'POST', '/v1/fim/completions', {
        token: key,
        body: { model: CODESTRAL, ...body },
      });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.match((res.json as { error: { message: string } }).error.message, words);
    }
  });
});

// Continue's autocomplete with `provider: openai` at a hosted code model: it writes the prompt for the
// model's own fill-in-the-middle markers and sends it to /v1/completions, without a suffix.
describe('continuing a prompt as it is at Together, Fireworks and OpenRouter', function () {
  this.timeout(60_000);
  const fakes: Record<string, ProviderFake> = {};
  let service: RunningService;
  const MODELS = {
    together: ['together/deepseek-ai/deepseek-coder-33b-instruct', 'deepseek-ai/deepseek-coder-33b-instruct'],
    fireworks: ['fireworks/deepseek-v4-flash', 'accounts/fireworks/models/deepseek-v4-flash'],
    openrouter: ['openrouter/qwen/qwen-2.5-coder-32b-instruct', 'qwen/qwen-2.5-coder-32b-instruct'],
  } as const;
  const PROMPT = '<|fim_prefix|>def add(a, b):\n    <|fim_suffix|>\n\nprint(add(2, 3))<|fim_middle|>';

  before(async () => {
    [fakes.together, fakes.fireworks, fakes.openrouter] = await Promise.all([
      startTogetherFake(),
      startFireworksFake(),
      startOpenRouterFake(),
    ]);
    service = await startService({ env: fakeEnv(fakes) });
  });
  after(async () => {
    await service?.stop();
    await Promise.all(Object.values(fakes).map((fake) => fake.close()));
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => {
    for (const [id, fake] of Object.entries(fakes)) assert.deepEqual(fake.problems, [], id);
  });

  for (const [provider, [namespace, apiId]] of Object.entries(MODELS))
    it(`sends the prompt as it is to ${namespace} on its text completion, whole and streamed, billed by its counts`, async () => {
      const fake = fakes[provider]!;
      const sdk = new OpenAI({
        baseURL: `${service.url}/v1`,
        apiKey: (await spaceOf(service, `Autocomplete at ${provider}`, [namespace])).key,
        maxRetries: 0,
      });
      const completion = await sdk.completions.create({
        model: namespace,
        prompt: PROMPT,
        max_tokens: 64,
        temperature: 0.2,
        stop: ['\n\n'],
      });
      assert.equal(completion.choices[0]!.text, continuation(PROMPT));
      const sent = fake.seen.at(-1)!;
      assert.equal(sent.path, '/v1/completions');
      assert.deepEqual(sent.body, {
        model: apiId,
        prompt: PROMPT,
        max_tokens: 64,
        temperature: 0.2,
        stop: ['\n\n'],
        stream: false,
      });
      assert.deepEqual(
        [completion.usage!.prompt_tokens, completion.usage!.completion_tokens],
        [fake.usage.input, fake.usage.output],
      );
      const stream = await sdk.completions.create({
        model: namespace,
        prompt: PROMPT,
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await read(stream);
      assert.equal(text, continuation(PROMPT));
      assert.equal(fake.seen.at(-1)!.body.stream, true);
      assert.deepEqual([usage?.prompt_tokens, usage?.completion_tokens], [fake.usage.input, fake.usage.output]);
    });

  it('still answers a chat at these providers as a chat', async () => {
    const sdk = new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: (await spaceOf(service, 'Chat at Together', [MODELS.together[0]])).key,
      maxRetries: 0,
    });
    await sdk.chat.completions.create({ model: MODELS.together[0], messages: [{ role: 'user', content: 'Hello' }] });
    assert.equal(fakes.together!.seen.at(-1)!.path, '/v1/chat/completions');
  });
});
