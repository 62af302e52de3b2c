// OpenAI's legacy text completion (POST /v1/completions) through a Space, as code completion tools send
// it: the official OpenAI SDK's completions.create, the AI SDK's completion model, and the request Continue's autocomplete sends
// (a prompt written for the model's own fill-in-the-middle markers, a dozen stop strings). A model
// server (a fake speaking OpenAI's /v1/completions, as Ollama does) continues the prompt as it is and
// fills in before a suffix; a hosted chat model (the OpenAI fake) answers the prompt as a message and
// is passed over, or refused in words, when the text after the cursor is to be filled in.
import assert from 'node:assert/strict';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import OpenAI from 'openai';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { raw } from '../support/http';
import { startOpenAiFake, type ProviderFake } from '../support/providerFakes';
import { removeDir, spaceOf, startService, type RunningService } from '../support/service';

const CODER = 'local/qwen2.5-coder:1.5b';
const HOSTED = 'openai/gpt-4o-mini';

describe('text completions through a Space', function () {
  this.timeout(60_000);
  let provider: ProviderFake;
  let server: FakeUpstream;
  let service: RunningService;
  let sdk: OpenAI;
  let key: string;

  before(async () => {
    provider = await startOpenAiFake();
    server = await startFakeUpstream({ models: [{ id: 'qwen2.5-coder:1.5b', context: 32_768 }] });
    service = await startService({
      upstream: server.url,
      env: { OPENAI_API_KEY: provider.key, OPENAI_BASE_URL: provider.baseUrl },
    });
    // Both are candidates of the Space's routing unless a request needs what one cannot do.
    key = (await spaceOf(service, 'Autocomplete', [CODER, HOSTED])).key;
    sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    await Promise.all([provider?.close(), server?.close()]);
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => assert.deepEqual(provider.problems, []));

  it("continues a prompt on a model server's own /v1/completions, as it is, with the SDK", async () => {
    const before = Math.floor(Date.now() / 1000);
    const completion = await sdk.completions.create({
      model: CODER,
      prompt: 'def add(a, b):',
      max_tokens: 40,
      temperature: 0.1,
      stop: ['\n\n'],
    });
    assert.equal(completion.object, 'text_completion');
    assert.equal(completion.choices[0]!.text, 'more:qwen2.5-coder:1.5b:def add(a, b):');
    assert.equal(completion.choices[0]!.finish_reason, 'stop');
    assert.equal(completion.model, CODER);
    assert.ok(completion.created >= before - 1 && completion.created <= before + 60, 'created is in seconds');
    assert.ok(completion.usage!.total_tokens > 0);
    const sent = server.continued.at(-1)!;
    assert.deepEqual(
      [sent.model, sent.prompt, sent.suffix, sent.max_tokens, sent.temperature, sent.stop],
      ['qwen2.5-coder:1.5b', 'def add(a, b):', undefined, 40, 0.1, ['\n\n']],
      'the server gets the prompt alone, under its own name for the model',
    );
    assert.equal(server.received.length, 0, 'nothing went to its chat completions');
  });

  it("streams to the AI SDK's completion model, which writes its own prompt of the conversation", async () => {
    const spaces = createOpenAICompatible({ name: 'llm-spaces', baseURL: `${service.url}/v1`, apiKey: key });
    // The SDK warns that its completion model takes no tool choice, which it gives itself: not ours to say.
    const sdkGlobals = globalThis as { AI_SDK_LOG_WARNINGS?: boolean };
    sdkGlobals.AI_SDK_LOG_WARNINGS = false;
    try {
      const result = streamText({ model: spaces.completionModel(CODER), prompt: 'def f():', maxOutputTokens: 16 });
      assert.equal(await result.text, 'more:qwen2.5-coder:1.5b:user:\ndef f():\n\nassistant:\n');
      assert.equal(await result.finishReason, 'stop');
    } finally {
      delete sdkGlobals.AI_SDK_LOG_WARNINGS;
    }
    assert.equal(server.continued.at(-1)!.max_tokens, 16);
  });

  it('fills in the middle: a suffix routes to the model server, never to the hosted chat model, streamed', async () => {
    const seenBefore = provider.seen.length;
    const pieces: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    let rejected: Array<{ namespace: string; reason: string }> = [];
    const stream = await sdk.completions.create({
      model: 'Autocomplete',
      prompt: 'function sum(xs) {\n  return ',
      suffix: '\n}\n',
      max_tokens: 30,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.text) pieces.push(chunk.choices[0].text);
      assert.equal(chunk.object, 'text_completion');
      if (chunk.usage) usage = chunk.usage;
      // The routing receipt comes with the last chunk, as on chat completions.
      const receipt = (chunk as { metadata?: { routing?: { rejected: typeof rejected } } }).metadata?.routing;
      if (receipt) rejected = receipt.rejected;
    }
    assert.equal(pieces.join(''), 'fill:qwen2.5-coder:1.5b:function sum(xs) {\n  return |\n}\n');
    assert.ok(usage && usage.total_tokens > 0, 'include_usage ends the stream with the usage');
    assert.equal(server.continued.at(-1)!.suffix, '\n}\n');
    assert.equal(server.continued.at(-1)!.stream, true);
    assert.equal(provider.seen.length, seenBefore, 'the hosted chat model was passed over');
    assert.deepEqual(
      rejected.filter((r) => r.reason !== 'inactive'),
      [{ namespace: HOSTED, reason: 'cannot fill in the middle' }],
    );
  });

  it("takes Continue's autocomplete request as it sends it: a templated prompt and a dozen stops", async () => {
    // core/llm/llms/OpenAI.ts, _legacystreamComplete: the chat arguments with `prompt` for `messages`,
    // stop strings cut to 4 only for api.openai.com and a few other hosts.
    const stop = ['<fim_prefix>', '<fim_suffix>', '<fim_middle>', '<|endoftext|>', '\n\n', '\r\n\r\n', '/src/', '```'];
    const res = await raw(service.url, 'POST', '/v1/completions', {
      token: key,
      body: {
        model: CODER,
        max_tokens: 64,
        temperature: 0.01,
        stream: true,
        stop,
        prompt: '<fim_prefix>const x = <fim_suffix>;\n<fim_middle>',
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /"object":"text_completion"/);
    assert.match(res.text, /data: \[DONE\]/);
    assert.deepEqual(server.continued.at(-1)!.stop, stop);
    assert.equal(server.continued.at(-1)!.prompt, '<fim_prefix>const x = <fim_suffix>;\n<fim_middle>');
  });

  it('answers the prompt as a message on a hosted chat model, and refuses it the middle in words', async () => {
    const completion = await sdk.completions.create({ model: HOSTED, prompt: 'Say hello', max_tokens: 20 });
    assert.equal(completion.choices[0]!.text, 'echo: Say hello');
    const sent = provider.seen.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.deepEqual(sent.body.messages, [{ role: 'user', content: 'Say hello' }]);

    await assert.rejects(
      sdk.completions.create({ model: HOSTED, prompt: 'a', suffix: 'b' }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        /openai\/gpt-4o-mini cannot fill in the middle/.test(error.message) &&
        error.param === 'suffix',
    );
  });

  it('says what a Space of hosted chat models lacks to fill in the middle', async () => {
    const res = await raw(service.url, 'POST', '/v1/completions', {
      token: (await spaceOf(service, 'Hosted only', [HOSTED])).key,
      body: { prompt: 'let x = ', suffix: ';' },
    });
    assert.equal(res.status, 422, res.text);
    const error = (res.json as { error: { message: string; param: string } }).error;
    assert.equal(error.param, 'suffix');
    assert.match(
      error.message,
      /No active model of this Space can fill in the middle of a text \(suffix\): a model server.s model can .*and so can Mistral.s Codestral and DeepSeek.s V4 models with their provider.s key/,
    );
  });

  it('refuses in words what it cannot honour, and logs and counts each completion', async () => {
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ prompt: [1, 2, 3] }, /prompt.*must be a text \(one prompt a request; token ids are not taken\)/],
      [{ prompt: ['a', 'b'] }, /prompt.*must be a text/],
      [{ prompt: 'x', echo: true }, /echo.*is not supported/],
      [{ prompt: 'x', logprobs: 2 }, /logprobs.*not supported on text completions/],
      [{ prompt: 'x', best_of: 3 }, /best_of.*only 1 is supported/],
      [{ prompt: 'x', messages: [] }, /messages/],
    ];
    for (const [body, words] of refusals) {
      const res = await raw(service.url, 'POST', '/v1/completions', { token: key, body: { model: CODER, ...body } });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.match((res.json as { error: { message: string } }).error.message, words);
    }
    const before = await service.client().getOrganization();
    await sdk.completions.create({ model: CODER, prompt: 'one more' });
    const after = await service.client().getOrganization();
    assert.equal(after.num_requests - before.num_requests, 1, 'a text completion is a request of the organization');
    assert.ok(after.total_tokens > before.total_tokens, 'and its tokens are counted');
  });
});
