// POST /v1/embeddings through a Space, with the official OpenAI SDK and the AI SDK as a client (as
// Continue's codebase index or a RAG script sends it), fakes of OpenAI's (also playing Azure's and
// Mistral's) and Gemini's embeddings APIs and an OpenAI-compatible model server behind the service: the vectors come back as the provider made
// them (as numbers, or base64 as the OpenAI SDK asks by default), in one call or as many as the
// provider takes, billed and counted in the organization; what cannot be embedded is refused in words.
import { createOpenAI } from '@ai-sdk/openai';
import { embed, embedMany } from 'ai';
import assert from 'node:assert/strict';
import { getEncoding } from 'js-tiktoken';
import OpenAI from 'openai';
import { VoyageAIClient } from 'voyageai';
import type { LlmSpacesClient } from '../../../src/api/client';
import { startFakeUpstream, type FakeUpstream } from '../support/fakeUpstream';
import { raw } from '../support/http';
import {
  fakeVector,
  startAzureFake,
  startGeminiFake,
  startOpenAiFake,
  startVoyageFake,
  type ProviderFake,
} from '../support/providerFakes';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';

/** A float32 rounding of a vector, as base64 carries it. */
const float32 = (vector: number[]) => [...new Float32Array(vector)];

describe('embeddings through a Space', function () {
  this.timeout(60_000);
  let openaiFake: ProviderFake;
  let gemini: ProviderFake;
  let azure: ProviderFake;
  let server: FakeUpstream;
  let service: RunningService;
  let client: LlmSpacesClient;
  let spaceKey: string;
  let sdk: OpenAI;
  const answers: string[] = [];

  before(async () => {
    [openaiFake, gemini, azure] = await Promise.all([startOpenAiFake(), startGeminiFake(), startAzureFake()]);
    // As Ollama lists it: with its tag.
    server = await startFakeUpstream({ models: [{ id: 'llama3.2' }, { id: 'nomic-embed-text:latest' }] });
    service = await startService({
      upstream: server.url,
      env: {
        OPENAI_API_KEY: openaiFake.key,
        OPENAI_BASE_URL: openaiFake.baseUrl,
        GEMINI_API_KEY: gemini.key,
        GEMINI_BASE_URL: gemini.baseUrl,
        AZURE_API_KEY: azure.key,
        AZURE_BASE_URL: azure.baseUrl,
        // Mistral's embeddings API is OpenAI's: the OpenAI fake plays it.
        MISTRAL_API_KEY: openaiFake.key,
        MISTRAL_BASE_URL: openaiFake.baseUrl,
      },
    });
    client = service.client();
    spaceKey = (await echoSpace(service, 'For embeddings')).key;
    sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: spaceKey, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    await Promise.all([openaiFake?.close(), gemini?.close(), azure?.close(), server?.close()]);
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => {
    assert.deepEqual([...openaiFake.problems, ...gemini.problems, ...azure.problems], []);
  });

  async function post(body: Record<string, unknown>) {
    const res = await raw(service.url, 'POST', '/v1/embeddings', { token: spaceKey, body });
    answers.push(res.text);
    return res;
  }

  it("embeds with the OpenAI SDK: its default base64 and plain numbers, the provider's vectors, billed at the model's price", async () => {
    const before = await client.getOrganization();
    const texts = ['function total(items)', 'the cart of a shop', 'Hello'];
    // The SDK asks for base64 unless told otherwise, and decodes it into numbers itself.
    const answer = await sdk.embeddings.create({ model: 'text-embedding-3-small', input: texts });
    assert.equal(answer.model, 'openai/text-embedding-3-small');
    assert.deepEqual(
      answer.data.map((d) => d.embedding),
      texts.map((t) => float32(fakeVector(t))),
    );
    const sent = openaiFake.seen.at(-1)!;
    assert.equal(sent.path, '/v1/embeddings');
    assert.deepEqual([sent.body.model, sent.body.input], ['text-embedding-3-small', texts]);
    // The provider's count: the fake counts words.
    assert.equal(answer.usage.prompt_tokens, 8);
    const after = await client.getOrganization();
    assert.equal(after.num_requests - before.num_requests, 1);
    assert.equal(after.prompt_tokens - before.prompt_tokens, 8);
    assert.equal(after.completion_tokens, before.completion_tokens);
    assert.ok(Math.abs(after.total_tokens_cost - before.total_tokens_cost - (8 * 0.02) / 1e6) < 1e-15);

    const floats = await sdk.embeddings.create({
      model: 'openai/text-embedding-3-large',
      input: 'one text',
      encoding_format: 'float',
      dimensions: 256,
    });
    assert.deepEqual(floats.data[0]!.embedding, fakeVector('one text', 256));
    assert.equal(openaiFake.seen.at(-1)!.body.dimensions, 256);
    // Each answer names its entry in the Space's log where the SDK reads a request's id.
    const ids = await Promise.all(
      ['one', 'two'].map(
        async (input) =>
          (await sdk.embeddings.create({ model: 'text-embedding-3-small', input }).withResponse()).request_id,
      ),
    );
    assert.ok(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? '')) && ids[0] !== ids[1], ids.join(', '));
  });

  it('takes texts as token ids of cl100k_base, as LangChain sends them, and embeds their text', async () => {
    // LangChain's OpenAIEmbeddings cuts each text with tiktoken (js-tiktoken in JavaScript) and sends the ids.
    const cl100k = getEncoding('cl100k_base');
    const texts = ['function total(items) { return 42 }', 'naïve café — 東京'];
    const many = await sdk.embeddings.create({
      model: 'text-embedding-3-small',
      input: texts.map((t) => cl100k.encode(t)),
      encoding_format: 'float',
    });
    assert.deepEqual(
      many.data.map((d) => d.embedding),
      texts.map((t) => fakeVector(t)),
    );
    assert.deepEqual(openaiFake.seen.at(-1)!.body.input, texts, 'the provider is sent the texts');
    const one = await sdk.embeddings.create({
      model: 'test/embed',
      input: cl100k.encode(texts[0]!),
      encoding_format: 'float',
    });
    const text = await sdk.embeddings.create({ model: 'test/embed', input: texts[0]!, encoding_format: 'float' });
    assert.deepEqual(one.data[0]!.embedding, text.data[0]!.embedding);
  });

  it("embeds with the AI SDK's embed and embedMany through the service", async () => {
    const provider = createOpenAI({ baseURL: `${service.url}/v1`, apiKey: spaceKey });
    const model = provider.embedding('openai/text-embedding-3-small');
    const one = await embed({ model, value: 'a single text', maxRetries: 0 });
    assert.deepEqual(one.embedding, fakeVector('a single text'));
    const many = await embedMany({ model, values: ['first', 'second'], maxRetries: 0 });
    assert.deepEqual(many.embeddings, [fakeVector('first'), fakeVector('second')]);
    assert.equal(many.usage.tokens, 2);
  });

  it("reaches Gemini's embeddings, one text or a batch, with the dimensions asked", async () => {
    const single = await sdk.embeddings.create({
      model: 'google/gemini-embedding-001',
      input: 'one',
      encoding_format: 'float',
      dimensions: 8,
    });
    assert.deepEqual(single.data[0]!.embedding, fakeVector('one', 8));
    assert.match(gemini.seen.at(-1)!.path, /\/models\/gemini-embedding-001:embedContent$/);
    assert.equal(gemini.seen.at(-1)!.body.outputDimensionality, 8);
    const batch = await sdk.embeddings.create({
      model: 'gemini-embedding-001',
      input: ['two', 'three'],
      encoding_format: 'float',
    });
    assert.deepEqual(
      batch.data.map((d) => d.embedding),
      [fakeVector('two', 3072), fakeVector('three', 3072)],
    );
    assert.match(gemini.seen.at(-1)!.path, /:batchEmbedContents$/);
    // Gemini counts no tokens: the service's own count is billed.
    assert.ok(batch.usage.prompt_tokens > 0);
  });

  it("reaches Azure's deployment named as its model, and Mistral's embeddings, each with its own key", async () => {
    const atAzure = await sdk.embeddings.create({
      model: 'azure/text-embedding-3-small',
      input: ['one', 'two'],
      encoding_format: 'float',
    });
    assert.equal(atAzure.model, 'azure/text-embedding-3-small');
    assert.deepEqual(atAzure.data[1]!.embedding, fakeVector('two'));
    const sent = azure.seen.at(-1)!;
    assert.equal(sent.path, '/openai/v1/embeddings');
    assert.deepEqual([sent.body.model, sent.headers['api-key']], ['text-embedding-3-small', azure.key]);

    const atMistral = await sdk.embeddings.create({ model: 'mistral-embed', input: 'three', encoding_format: 'float' });
    assert.equal(atMistral.model, 'mistral/mistral-embed');
    assert.deepEqual(atMistral.data[0]!.embedding, fakeVector('three'));
    assert.deepEqual(
      [openaiFake.seen.at(-1)!.path, openaiFake.seen.at(-1)!.body.model],
      ['/v1/embeddings', 'mistral-embed'],
    );
  });

  it("reaches a model server's embedding model, by its name there or as local/<name>, with or without Ollama's tag", async () => {
    for (const model of ['nomic-embed-text', 'local/nomic-embed-text', 'nomic-embed-text:latest']) {
      const answer = await sdk.embeddings.create({
        model,
        input: ['chunk one', 'chunk two'],
        encoding_format: 'float',
      });
      assert.equal(answer.model, 'local/nomic-embed-text');
      assert.deepEqual(
        answer.data.map((d) => d.embedding),
        [fakeVector('chunk one', 768), fakeVector('chunk two', 768)],
      );
      const sent = server.embedded.at(-1)!;
      assert.deepEqual([sent.model, sent.input], ['nomic-embed-text:latest', ['chunk one', 'chunk two']]);
    }
    // Its model server failing is said, with the server's words.
    server.failing.add('nomic-embed-text:latest');
    try {
      const res = await post({ model: 'nomic-embed-text', input: 'x' });
      assert.equal(res.status, 502, res.text);
      assert.match(res.text, /local\/nomic-embed-text could not embed the texts: the model server answered 500/);
    } finally {
      server.failing.delete('nomic-embed-text:latest');
    }
  });

  it('lists the embedding models that answer here in OpenAI’s model list, and none in Anthropic’s', async () => {
    const ids: string[] = [];
    for await (const model of sdk.models.list()) ids.push(model.id);
    for (const id of [
      'test/embed',
      'openai/text-embedding-3-small',
      'azure/text-embedding-3-large',
      'google/gemini-embedding-001',
      'mistral/mistral-embed',
      'cohere/embed-v4.0',
      'local/nomic-embed-text',
    ])
      assert.ok(ids.includes(id), `${id} is listed: ${ids.join(', ')}`);
    const one = await sdk.models.retrieve('local/nomic-embed-text');
    assert.deepEqual([one.id, one.owned_by], ['local/nomic-embed-text', 'local']);
    const anthropic = await raw(service.url, 'GET', '/v1/models?limit=1000', {
      token: spaceKey,
      headers: { 'anthropic-version': '2023-06-01' },
    });
    const anthropicIds = (anthropic.json as { data: Array<{ id: string }> }).data.map((m) => m.id);
    assert.ok(anthropicIds.includes('test/echo'), anthropicIds.join(', '));
    assert.ok(!anthropicIds.some((id) => /test\/embed|embedding-|-embed/.test(id)), anthropicIds.join(', '));
  });

  it('lists every embedding model it knows for the Models view, with its price and whether it answers here', async () => {
    const listed = await client.listEmbeddingModels();
    const byName = new Map(listed.map((m) => [m.namespace, m]));
    assert.deepEqual(
      [byName.get('test/embed'), byName.get('local/nomic-embed-text')].map((m) => [m?.provider, m?.answers_here]),
      [
        ['test', true],
        ['local', true],
      ],
    );
    const small = byName.get('openai/text-embedding-3-small')!;
    assert.equal(small.answers_here, true);
    assert.ok(Math.abs(small.prompt_token_cost * 1e6 - 0.02) < 1e-9, `$${small.prompt_token_cost * 1e6} per M tokens`);
  });

  it('refuses in words what it cannot embed, in OpenAI’s error shape', async () => {
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ model: 'openai/gpt-4o-mini', input: 'x' }, /openai\/gpt-4o-mini is a chat model, not an embedding model/],
      [{ model: 'text-embedding-3-small', input: [[1, 2, 100_300]] }, /token ids of cl100k_base \(0 to 100255\)/],
      [{ model: 'text-embedding-3-small', input: ['text', 42] }, /must be a text, 1 to 2048 texts, or token ids/],
      [{ model: 'text-embedding-3-small', input: [[]] }, /must have at least one token/],
      [{ model: 'text-embedding-3-small', input: [] }, /input: must be a text, 1 to 2048 texts, or token ids/],
      [{ model: 'text-embedding-3-small', input: 'x', truncate: 'END' }, /truncate/],
    ];
    for (const [body, words] of refusals) {
      const res = await post(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.match((res.json as { error: { message: string } }).error.message, words);
    }
  });

  it("says a provider's refusal and its rate limit in words, cools it down after the limit, and logs each failure without billing it", async () => {
    const before = await client.getOrganization();
    // OpenAI refuses dimensions for a model before text-embedding-3: the caller's to fix, so a 400,
    // which says nothing of OpenAI's health.
    const refused = await post({ model: 'text-embedding-ada-002', input: 'x', dimensions: 64 });
    assert.equal(refused.status, 400, refused.text);
    assert.match(
      refused.text,
      /openai\/text-embedding-ada-002 could not embed the texts: OpenAI answered HTTP 400: This model does not support specifying dimensions/,
    );
    openaiFake.failNext({ status: 429, retryAfter: 7 });
    const limited = await post({ model: 'text-embedding-3-small', input: 'x' });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.headers['retry-after'], '7');
    assert.match(String(limited.headers['x-request-id']), /^[0-9a-f-]{36}$/, 'the logged failure names its entry');
    assert.match(limited.text, /OpenAI is rate limiting \(HTTP 429, retry after 7 s\)/);
    // Asked to wait, OpenAI is left alone for a while (chats too): not asked, and the caller told when to come back.
    const asked = openaiFake.seen.length;
    const cooling = await post({ model: 'text-embedding-3-small', input: 'x' });
    assert.equal(cooling.status, 503, cooling.text);
    assert.match(cooling.text, /OpenAI is cooling down after repeated failures; not asked/);
    assert.ok(Number(cooling.headers['retry-after']) > 0, `retry-after ${cooling.headers['retry-after']}`);
    assert.equal(openaiFake.seen.length, asked);
    const providers = await client.listProviders();
    assert.ok(providers.find((p) => p.id === 'openai')!.cooling_until, 'GET /v1/providers says so');
    const after = await client.getOrganization();
    assert.equal(after.num_requests - before.num_requests, 3, 'each failure is counted as a request');
    assert.equal(after.total_tokens_cost, before.total_tokens_cost, 'and costs nothing');
  });

  it("keeps to the Space's max_cost, and the providers' keys out of every answer and the service's output", async () => {
    const created = await client.createSpace({ name: 'Embeddings on a budget' });
    await client.updateSpace({ id: created.id, policies: { max_cost: 1e-9 } });
    const res = await raw(service.url, 'POST', '/v1/embeddings', {
      token: created.created_key,
      body: { model: 'text-embedding-3-large', input: 'a text long enough to cost more than a billionth' },
    });
    assert.equal(res.status, 422, res.text);
    assert.match(
      res.text,
      /may cost \$[\d.]+ for this input, more than this Space's cost cap of \$[\d.]+ a request: raise the Space's cost cap per request/,
    );
    for (const text of [...answers, res.text, service.output()]) {
      for (const secret of [openaiFake.key, gemini.key, azure.key])
        assert.ok(!text.includes(secret), 'no key in what the service said');
    }
  });
});

describe("Voyage's embeddings: a provider of nothing else", function () {
  this.timeout(60_000);
  let voyage: ProviderFake;
  let service: RunningService;
  let sdk: OpenAI;
  let spaceKey: string;
  const said: string[] = [];
  const check = async () => {
    const res = await raw(service.url, 'POST', '/v1/providers/voyage/check', { token: service.token, body: {} });
    said.push(res.text);
    return res.json as { ok: boolean; message: string; model: string | null };
  };
  const handOver = async (key: string) => {
    const put = await raw(service.url, 'PUT', '/v1/providers/voyage/key', {
      token: service.token,
      body: { key, base_url: voyage.baseUrl },
    });
    assert.equal(put.status, 200, put.text);
  };

  before(async () => {
    voyage = await startVoyageFake();
    service = await startService();
    spaceKey = (await echoSpace(service, 'Index')).key;
    sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: spaceKey, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    await voyage?.close();
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => assert.deepEqual(voyage.problems, []));

  it('tries a key by embedding one word with its model for code, and says in words when it is refused', async () => {
    await handOver('pa-not-the-right-key-0123456789');
    const refused = await check();
    assert.deepEqual(refused, {
      ok: false,
      message:
        'The Voyage AI key did not work: the Voyage AI key was refused (HTTP 401): check it with Add Provider Key.',
      model: 'voyage/voyage-code-3',
    });
    await handOver(voyage.key);
    const before = voyage.seen.length;
    assert.deepEqual(await check(), {
      ok: true,
      message: 'The Voyage AI key works: voyage/voyage-code-3 answered.',
      model: 'voyage/voyage-code-3',
    });
    const tried = voyage.seen.slice(before);
    assert.deepEqual(
      tried.map((r) => [r.path, r.body.model, r.body.input]),
      [['/v1/embeddings', 'voyage-code-3', ['OK']]],
    );
    assert.equal(tried[0]!.headers.authorization, `Bearer ${voyage.key}`);
  });

  it('lists its text embedding models with their prices, answering once the key is there', async () => {
    const listed = (await service.client().listEmbeddingModels()).filter((m) => m.provider === 'voyage');
    const code = listed.find((m) => m.namespace === 'voyage/voyage-code-3');
    assert.ok(code?.answers_here, JSON.stringify(code));
    assert.ok(code.prompt_token_cost > 0);
    // Contextualized chunk embeddings are another endpoint, not OpenAI's Embeddings API.
    assert.ok(!listed.some((m) => /context/.test(m.namespace)));
    assert.ok(listed.some((m) => m.namespace === 'voyage/voyage-3.5-lite'));
    // No chat model: nothing of Voyage's is routed.
    assert.ok(!(await service.client().listModels()).some((m) => m.provider === 'voyage'));
  });

  it('embeds through the OpenAI SDK with the dimensions asked as its output_dimension, billed with its count', async () => {
    const before = voyage.seen.length;
    const answer = await sdk.embeddings.create({
      model: 'voyage-code-3',
      input: ['function total(cart) {}', 'class Cart {}'],
      dimensions: 256,
      encoding_format: 'float',
    });
    assert.equal(answer.model, 'voyage/voyage-code-3');
    assert.deepEqual(
      answer.data.map((d) => d.embedding),
      [fakeVector('function total(cart) {}', 256), fakeVector('class Cart {}', 256)],
    );
    const sent = voyage.seen.at(-1)!;
    assert.equal(voyage.seen.length, before + 1);
    assert.deepEqual(sent.body, {
      input: ['function total(cart) {}', 'class Cart {}'],
      model: 'voyage-code-3',
      output_dimension: 256,
    });
    // Voyage's own count (the fake's: one a word) is what is billed.
    assert.deepEqual(answer.usage, { prompt_tokens: 6, total_tokens: 6 });
    const base64 = await sdk.embeddings.create({ model: 'voyage/voyage-3.5-lite', input: 'one' });
    assert.deepEqual(float32(base64.data[0]!.embedding), float32(fakeVector('one', 1024)));
    assert.deepEqual(voyage.seen.at(-1)!.body, { input: ['one'], model: 'voyage-3.5-lite' });
  });

  it("answers Voyage's own SDK in Voyage's words: a query or documents, truncation, output_dimension", async () => {
    const voyageSdk = new VoyageAIClient({ apiKey: spaceKey, baseUrl: `${service.url}/v1`, maxRetries: 0 });
    const before = voyage.seen.length;
    const query = await voyageSdk.embed({
      input: 'where is the total computed?',
      model: 'voyage-code-3',
      inputType: 'query',
      outputDimension: 512,
      truncation: false,
    });
    assert.deepEqual(query.data?.[0]?.embedding, fakeVector('where is the total computed?', 512));
    assert.equal(query.model, 'voyage/voyage-code-3');
    assert.equal(query.usage?.totalTokens, 5);
    const documents = await voyageSdk.embed({
      input: ['function total(cart) {}'],
      model: 'voyage-code-3',
      inputType: 'document',
      outputDtype: 'float',
    });
    assert.deepEqual(documents.data?.[0]?.embedding, fakeVector('function total(cart) {}', 1024));
    assert.deepEqual(
      voyage.seen.slice(before).map((r) => r.body),
      [
        {
          input: ['where is the total computed?'],
          model: 'voyage-code-3',
          input_type: 'query',
          output_dimension: 512,
          truncation: false,
        },
        { input: ['function total(cart) {}'], model: 'voyage-code-3', input_type: 'document' },
      ],
    );
  });

  it("refuses Voyage's fields for a model that does not take them, and numbers other than floats, in words", async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [
        { model: 'test/embed', input: 'x', input_type: 'query' },
        "input_type: is Voyage AI's and Cohere's: test/embed does not take it",
      ],
      [
        { model: 'test/embed', input: 'x', truncation: true },
        "truncation: is Voyage AI's and Cohere's: test/embed does not take it",
      ],
      [
        { model: 'voyage-code-3', input: 'x', output_dtype: 'int8' },
        'output_dtype: must be float: the vectors are answered as floats, not int8',
      ],
      [
        { model: 'voyage-code-3', input: 'x', dimensions: 256, output_dimension: 512 },
        'output_dimension: is 512 where dimensions is 256: send one of them',
      ],
    ];
    const before = voyage.seen.length;
    for (const [body, words] of refusals) {
      const res = await raw(service.url, 'POST', '/v1/embeddings', { token: spaceKey, body });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal((res.json as { error: { message: string } }).error.message, words);
    }
    assert.equal(voyage.seen.length, before, 'nothing refused reached Voyage');
  });

  it("takes a codebase's batch in as many calls as Voyage's package sends, the vectors in their order", async () => {
    const chunks = Array.from({ length: 300 }, (_, i) => `chunk ${i}`);
    const before = voyage.seen.length;
    const answer = await sdk.embeddings.create({ model: 'voyage-code-3', input: chunks, encoding_format: 'float' });
    assert.deepEqual(
      answer.data.map((d) => d.embedding),
      chunks.map((text) => fakeVector(text, 1024)),
    );
    const calls = voyage.seen.slice(before).map((r) => (r.body.input as string[]).length);
    assert.deepEqual(calls, [128, 128, 44]);
  });

  it("says Voyage's refusal in its words, and keeps its key out of every answer and the service's output", async () => {
    const refused = await raw(service.url, 'POST', '/v1/embeddings', {
      token: spaceKey,
      body: { model: 'voyage-law-2', input: 'a clause', dimensions: 256 },
    });
    said.push(refused.text);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(
      (refused.json as { error: { message: string } }).error.message,
      'voyage/voyage-law-2 could not embed the texts: Voyage AI answered HTTP 400: Model voyage-law-2 does not support output_dimension.',
    );
    for (const text of [...said, service.output()]) assert.ok(!text.includes(voyage.key), 'no key in what was said');
  });
});

describe('embeddings without a provider', function () {
  this.timeout(30_000);
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it("lists the providers' embedding models, none of which answers without its key", async () => {
    const listed = await service.client().listEmbeddingModels();
    assert.ok(listed.some((m) => m.namespace === 'openai/text-embedding-3-small' && !m.answers_here));
    assert.deepEqual(
      listed.filter((m) => m.answers_here).map((m) => m.namespace),
      ['test/embed'],
    );
  });

  it('embeds with the test model, near for texts that share words', async () => {
    const key = (await echoSpace(service, 'Test embeddings')).key;
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: key, maxRetries: 0 });
    const answer = await sdk.embeddings.create({
      model: 'test/embed',
      input: ['the total of a cart', 'the cart total', 'weather in Paris'],
    });
    assert.equal(answer.model, 'test/embed');
    const [a, b, c] = answer.data.map((d) => d.embedding);
    const cosine = (x: number[], y: number[]) => x.reduce((n, v, i) => n + v * y[i]!, 0);
    assert.equal(a!.length, 256);
    assert.ok(Math.abs(cosine(a!, a!) - 1) < 1e-6, 'of length one');
    assert.ok(cosine(a!, b!) > 0.5 && cosine(a!, c!) < 0.2, `${cosine(a!, b!)} ${cosine(a!, c!)}`);
    const sized = await sdk.embeddings.create({ model: 'test/embed', input: 'x', dimensions: 16 });
    assert.equal(sized.data[0]!.embedding.length, 16);
    // A codebase index sends its chunks in batches of megabytes, as much as a chat's body may be.
    const chunks = Array.from({ length: 1000 }, (_, i) => `chunk ${i} ${'of a source file '.repeat(200)}`);
    const batch = await sdk.embeddings.create({ model: 'test/embed', input: chunks, encoding_format: 'float' });
    assert.ok(JSON.stringify(chunks).length > 3_000_000);
    assert.equal(batch.data.length, 1000);
  });

  it('says how to reach an embedding model whose provider has no key, and which embedding models there are', async () => {
    const key = (await echoSpace(service, 'Without keys')).key;
    const ask = (model: string) =>
      raw(service.url, 'POST', '/v1/embeddings', { token: key, body: { model, input: 'x' } });
    const keyless = await ask('mistral/mistral-embed');
    assert.equal(keyless.status, 422, keyless.text);
    assert.match(
      keyless.text,
      /mistral\/mistral-embed cannot answer here: add your Mistral key \(LLM Spaces: Add Provider Key…, or MISTRAL_API_KEY for the standalone service\)/,
    );
    // Without --upstream, a name no provider or model server has is unknown.
    const unknown = await ask('no-such-embedder');
    assert.equal(unknown.status, 422, unknown.text);
    assert.match(
      unknown.text,
      /Unknown embedding model \\"no-such-embedder\\"\. The embedding models here: openai\/text-embedding-3-large, .*mistral\/mistral-embed/,
    );
  });
});
