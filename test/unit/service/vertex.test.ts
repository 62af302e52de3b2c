// Google Vertex AI through a Space, with the official OpenAI and Anthropic SDKs as clients: the key the
// machine's Google Cloud credentials (a service account's key file that GOOGLE_APPLICATION_CREDENTIALS
// names) for the project GOOGLE_VERTEX_PROJECT names; its models Google's price list prices for Vertex
// AI (Gemini, Claude, the open models it serves as endpoints), Claude under the version Vertex AI takes;
// Gemini through Gemini's API and Claude through Anthropic's Messages API as Vertex AI serves them, each
// with a token the service account signs for itself; a key given through the extension's endpoint, and
// one Google does not know, and none at all, said in plain words. Then an API key in express mode
// (GOOGLE_VERTEX_API_KEY): Gemini at the global address without a project, Claude neither routed to nor
// asked. Vertex AI's fake checks each token's signature (or the API key) and each request against the
// reference of the API it was sent on.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ModelRecord } from '../../../src/api/schemas';
import { raw } from '../support/http';
import { claudeToolLoop } from '../support/claudeToolLoop';
import { chatsWholeAndStreamed, LATER_SYSTEM } from '../support/openAiChat';
import {
  googleSearchResults,
  serviceAccountKey,
  startVertexExpressFake,
  startVertexFake,
  VERTEX_EXPRESS_KEY,
  VERTEX_PROJECT,
} from '../support/providerFakes';
import { removeDir, spaceOf, startService, tempDir } from '../support/service';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';

const FLASH_LITE = 'vertex/gemini-3.5-flash-lite';
const FLASH = 'vertex/gemini-3.5-flash';
const SONNET = 'vertex/claude-sonnet-4-5';
const OPUS = 'vertex/claude-opus-4-6';

describe('Google Vertex AI through a Space', function () {
  this.timeout(60_000);
  const dir = tempDir('llm-spaces-vertex-');
  const vertex = throughASpace('vertex', () => startVertexFake(dir), {
    name: 'Vertex',
    active: [FLASH_LITE, FLASH, SONNET],
  });
  const { said } = vertex;
  after(() => removeDir(dir));

  it("lists Vertex AI's Gemini and Claude models at Google's prices, Claude by the version Vertex AI takes", () => {
    const own = vertex.models.filter((m) => m.provider === 'vertex');
    const byName = (ns: string) => own.find((m) => m.namespace === ns);
    const sonnet = byName(SONNET)!;
    assert.deepEqual(
      [
        sonnet.api_target,
        byName(OPUS)?.api_target,
        byName('vertex/claude-sonnet-4')?.api_target,
        byName('vertex/claude-opus-4-5')?.api_target,
      ],
      // Claude Opus 4.6 is named without a date by Anthropic; Claude Sonnet 4, `claude-4-sonnet` in the
      // price list, by its Model Garden name; Claude Opus 4.5 by the date Anthropic's table gives it,
      // which neither dataset has.
      ['claude-sonnet-4-5@20250929', 'claude-opus-4-6', 'claude-sonnet-4@20250514', 'claude-opus-4-5@20251101'],
    );
    // Listed at the price of the key's location (us-east5): Vertex AI bills Claude Sonnet 4.5 10% above
    // its global price ($3 and $15 a million) in a region; Claude Sonnet 4 has one price everywhere.
    const prices = (m: ModelRecord) =>
      [m.prompt_token_cost, m.cache_read_token_cost, m.completion_token_cost].map((p) => Math.round(p! * 1e9));
    assert.deepEqual(prices(sonnet), [3300, 330, 16500]);
    assert.deepEqual(prices(byName('vertex/claude-sonnet-4')!), [3000, 300, 15000]);
    // Claude reads images and reasons, as at Anthropic; Vertex AI's APIs take no penalties.
    assert.deepEqual(
      [sonnet.supports_vision, sonnet.supports_reasoning, sonnet.supports_penalties],
      [true, true, false],
    );
    const flash = byName(FLASH_LITE)!;
    assert.deepEqual(
      [flash.prompt_token_cost * 1e6, flash.completion_token_cost * 1e6, flash.api_target, flash.answers_here],
      [0.3, 2.5, 'gemini-3.5-flash-lite', true],
    );
    assert.ok(byName('vertex/gemma-4-26b-a4b-it-maas'), 'the open models Vertex AI serves as endpoints');
    // Gemini's own API serves no Claude nor Vertex AI's endpoints; neither serves the Live API's models here.
    const names = vertex.models.map((m) => m.namespace);
    assert.deepEqual(
      names.filter((n) => /^google\/(claude-|.*-maas$)|live/.test(n)),
      [],
    );
    assert.ok(names.includes('google/gemini-3.5-flash-lite'));
    assert.match(sonnet.url ?? '', /cloud\.google\.com\/vertex-ai/);
  });

  it("estimates a request, and keeps it to the Space's cost cap, at the price of the key's location, as it is billed", async () => {
    const { id } = await spaceOf(vertex.service, 'Regional', [SONNET]);
    const listed = vertex.models.find((m) => m.namespace === SONNET)!;
    const preview = await vertex.service
      .client()
      .previewRoute(id, { prompt: 'hello', model: SONNET, max_tokens: 1_000 });
    const { max, prompt_tokens } = preview.band!;
    const regional = prompt_tokens * listed.prompt_token_cost + 1_000 * listed.completion_token_cost;
    assert.ok(Math.abs(max - regional) < 1e-12, `estimated ${max}, at the regional price ${regional}`);
    assert.equal(preview.candidates[0]!.estimated_cost, max, 'routing weighs it at that price too');
  });

  it("takes the key from the machine's Google Cloud credentials, and tries it with Gemini", async () => {
    const states = (await vertex.service.client().listProviders()).filter((p) => p.id === 'vertex');
    assert.deepEqual(
      states.map((p) => [p.has_key, p.key_source, p.key_variable]),
      [[true, 'environment', 'GOOGLE_APPLICATION_CREDENTIALS']],
    );
    assert.deepEqual(await keyCheck(vertex), {
      ok: true,
      message: `The Google Vertex AI key works: ${FLASH_LITE} answered.`,
      model: FLASH_LITE,
    });
    const sent = vertex.fake.seen.at(-1)!;
    assert.equal(
      sent.path,
      `/v1/projects/${VERTEX_PROJECT}/locations/us-east5/publishers/google/models/gemini-3.5-flash-lite:generateContent`,
    );
    assert.match(sent.headers.authorization ?? '', /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/, 'a signed JWT');
  });

  it('answers Gemini through the OpenAI SDK, whole and streamed, billed with what its cache read', async () => {
    const flash = vertex.models.find((m) => m.namespace === FLASH_LITE)!;
    said.push(
      await chatsWholeAndStreamed(vertex.sdk, flash, { asked: FLASH_LITE, text: 'hello Vertex', thinks: false }),
    );
    assert.match(vertex.fake.seen.at(-1)!.path, /:streamGenerateContent\?alt=sse$/);
  });

  it("answers Claude through Vertex AI's Anthropic Messages API, whole and streamed, its signed thinking carried back", async () => {
    // Billed as Vertex AI bills Claude Sonnet 4.5 in a region (us-east5 here), as it is listed: 10% above
    // its global price.
    const sonnet = vertex.models.find((m) => m.namespace === SONNET)!;
    said.push(await chatsWholeAndStreamed(vertex.sdk, sonnet, { asked: SONNET, text: 'hello Claude', thinks: false }));
    assert.match(
      vertex.fake.seen.at(-1)!.path,
      /\/publishers\/anthropic\/models\/claude-sonnet-4-5@20250929:streamRawPredict$/,
    );

    // Within the Space's cost cap per request ($0.02) at Claude Sonnet's price.
    const thinking = { type: 'enabled' as const, budget_tokens: 1_024 };
    const seen = vertex.fake.seen.length;
    const { message, final } = await claudeToolLoop(vertex.claude, { model: SONNET, maxTokens: 1_200, thinking });
    said.push(JSON.stringify(message));
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    const [asked, next] = vertex.fake.seen.slice(seen);
    assert.match(asked!.path, /claude-sonnet-4-5@20250929:rawPredict$/);
    // Anthropic's body as Vertex AI takes it: its version, no model.
    assert.deepEqual(
      [asked!.body.anthropic_version, asked!.body.model, asked!.body.thinking],
      ['vertex-2023-10-16', undefined, thinking],
    );
    assert.equal(final.stop_reason, 'end_turn');
    const sentBack = next!.body.messages as Array<{ content: Array<{ type: string }> }>;
    assert.deepEqual(
      sentBack[1]!.content.map((b) => b.type),
      ['thinking', 'tool_use'],
      "Claude's signed thinking goes back (the fake checks its signature)",
    );
  });

  it('takes a request asked to run in the US only (inference_geo) at this US location', async () => {
    const answer = await vertex.claude.messages.create({
      model: SONNET,
      max_tokens: 100,
      inference_geo: 'us',
      messages: [{ role: 'user', content: 'in the US' }],
    });
    said.push(JSON.stringify(answer));
    assert.match(vertex.fake.seen.at(-1)!.path, /\/locations\/us-east5\/publishers\/anthropic\//);
    assert.equal(vertex.fake.seen.at(-1)!.body.inference_geo, undefined, 'the location keeps it there, not a field');
  });

  it("sends Claude Code's thinking to no Claude that cannot think (Claude 3 Haiku, on Vertex AI's own schedule)", async () => {
    // Every Claude of Anthropic's own API thinks since Claude 3 Haiku retired there; Vertex AI serves it
    // still, and refuses thinking for it as Anthropic did.
    const old = 'vertex/claude-3-haiku';
    const message = await vertex.claude.messages.create({
      model: old,
      max_tokens: 3_000,
      thinking: { type: 'enabled', budget_tokens: 2_000 },
      messages: [{ role: 'user', content: 'Think first.' }],
    });
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text'],
    );
    const asked = vertex.fake.seen.at(-1)!;
    assert.match(asked.path, /\/publishers\/anthropic\/models\/claude-3-haiku@\d{8}:rawPredict$/);
    assert.equal(asked.body.thinking, undefined);
  });

  it("gives Gemini 3 its thought signature back with its call in Claude Code's tool loop", async () => {
    const tools: Anthropic.Tool[] = [
      { name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
    ];
    const ask = {
      model: FLASH,
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user' as const, content: 'call Read {"path":"a.ts"}' }],
    };
    const message = await vertex.claude.messages.create(ask);
    said.push(JSON.stringify(message));
    const use = message.content.find((b) => b.type === 'tool_use')!;
    const final = await vertex.claude.messages.create({
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the file' }] },
      ],
    });
    // Gemini 3 refuses a call sent back without the signature it gave (the fake's problems, checked after).
    assert.equal(final.stop_reason, 'end_turn');
    const contents = vertex.fake.seen.at(-1)!.body.contents as Array<{
      role: string;
      parts: Array<Record<string, unknown>>;
    }>;
    assert.match(String(contents.find((c) => c.role === 'model')?.parts[0]?.thoughtSignature), /^gsig-/);
  });

  it("runs Claude Code's WebSearch on Gemini 3 as Google Search on Vertex AI, beside its own tools", async () => {
    const text = 'What is new in gateways?';
    const message = await vertex.claude.messages.create({
      model: FLASH,
      max_tokens: 300,
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 1 },
        { name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
      ],
      messages: [{ role: 'user', content: text }],
    });
    said.push(JSON.stringify(message));
    const sent = vertex.fake.seen.at(-1)!.body as { tools: Array<Record<string, unknown>> };
    assert.deepEqual(
      sent.tools.map((t) => Object.keys(t)[0]),
      ['googleSearch', 'functionDeclarations'],
    );
    assert.deepEqual(
      message.content.map((b) => b.type),
      // The stretch its pages ground a block of its own, with its citations.
      ['server_tool_use', 'web_search_tool_result', 'text', 'text'],
    );
    assert.deepEqual((message.content[1] as Anthropic.WebSearchToolResultBlock).content, googleSearchResults(text));
  });

  it('sends a later system message with the first, as Gemini takes them only at the start', async () => {
    await vertex.sdk.chat.completions.create({ model: FLASH_LITE, messages: LATER_SYSTEM.messages });
    const sent = vertex.fake.seen.at(-1)!.body as { systemInstruction: { parts: Array<{ text: string }> } };
    assert.deepEqual(
      sent.systemInstruction.parts.map((p) => p.text),
      [LATER_SYSTEM.joined],
    );
  });

  it("embeds texts with Gemini's embedding models on Vertex AI, as many at once as its API takes", async () => {
    const vectors = await vertex.sdk.embeddings.create({
      model: 'vertex/gemini-embedding-001',
      input: ['route requests', 'through a Space'],
      dimensions: 256,
    });
    said.push(JSON.stringify(vectors));
    assert.deepEqual(
      vectors.data.map((d) => [d.index, d.embedding.length]),
      [
        [0, 256],
        [1, 256],
      ],
    );
    assert.equal(vectors.usage.prompt_tokens, 5, "the tokens Vertex AI counted, the texts' words here");
    const sent = vertex.fake.seen.at(-1)!;
    assert.match(sent.path, /\/publishers\/google\/models\/gemini-embedding-001:predict$/);
    assert.deepEqual(sent.body, {
      instances: [{ content: 'route requests' }, { content: 'through a Space' }],
      parameters: { outputDimensionality: 256 },
    });
    // Gemini Embedding 2 takes one text a request, on its own endpoint.
    const seen = vertex.fake.seen.length;
    const two = await vertex.sdk.embeddings.create({ model: 'vertex/gemini-embedding-2', input: ['a', 'b c'] });
    assert.deepEqual([two.data.length, two.data[0]!.embedding.length, two.usage.prompt_tokens], [2, 3072, 3]);
    assert.deepEqual(
      vertex.fake.seen.slice(seen).map((r) => r.path.split('/').at(-1)),
      ['gemini-embedding-2:embedContent', 'gemini-embedding-2:embedContent'],
    );
  });

  it("says a service account's key Google does not know was refused, and keeps the key out of it", async () => {
    const stranger = serviceAccountKey().json;
    const put = (body: Record<string, unknown>) =>
      raw(vertex.service.url, 'PUT', '/v1/providers/vertex/key', { token: vertex.service.token, body });
    // Not a key file, or no project and location: refused in words, nothing kept.
    const notKey = await put({ key: '{"name":"my-extension"}', base_url: vertex.fake.baseUrl });
    assert.equal(notKey.status, 422);
    assert.match(
      notKey.text,
      /is not a Google Cloud key file \(the JSON of a service account's key\), nor application-default/,
    );
    const nowhere = await put({ key: stranger });
    assert.equal(nowhere.status, 422);
    assert.match(nowhere.text, /Google Vertex AI needs the address of your project and location/);
    // A key file Google does not know (signed by another key): tried, and Google's 401 said.
    assert.equal((await put({ key: stranger, base_url: vertex.fake.baseUrl })).status, 200);
    const check = (await keyCheck(vertex)) as { ok: boolean; message: string };
    assert.equal(check.ok, false);
    assert.equal(
      check.message,
      'The Google Vertex AI key did not work: the Google Vertex AI key was refused (HTTP 401): check it with Add Provider Key.',
    );
    said.push(check.message);
    const pem = (JSON.parse(stranger) as { private_key: string }).private_key;
    for (const text of [...said, vertex.service.output()])
      for (const line of pem.split('\n').filter((l) => l.length >= 16))
        assert.ok(!text.includes(line), 'no line of a private key in what was said');
  });

  keyKeptOut(vertex, 'Vertex AI');
});

describe('Google Vertex AI in express mode, with an API key', function () {
  this.timeout(60_000);
  const dir = tempDir('llm-spaces-vertex-express-');
  const express = throughASpace('vertex', startVertexExpressFake, { name: 'Express', active: [FLASH_LITE, SONNET] });
  const { said } = express;
  after(() => removeDir(dir));

  it('takes the key from GOOGLE_VERTEX_API_KEY and tries it with Gemini at the global address, no project asked', async () => {
    const states = (await express.service.client().listProviders()).filter((p) => p.id === 'vertex');
    assert.deepEqual(
      states.map((p) => [p.has_key, p.key_source, p.key_variable]),
      [[true, 'environment', 'GOOGLE_VERTEX_API_KEY']],
    );
    assert.deepEqual(await keyCheck(express), {
      ok: true,
      message: `The Google Vertex AI key works: ${FLASH_LITE} answered.`,
      model: FLASH_LITE,
    });
    const sent = express.fake.seen.at(-1)!;
    assert.equal(sent.path, '/v1/publishers/google/models/gemini-3.5-flash-lite:generateContent');
    assert.equal(sent.headers['x-goog-api-key'], VERTEX_EXPRESS_KEY);
    assert.equal(sent.headers.authorization, undefined);
  });

  it('answers Gemini through the OpenAI SDK, whole and streamed, and embeds texts', async () => {
    const flash = express.models.find((m) => m.namespace === FLASH_LITE)!;
    said.push(
      await chatsWholeAndStreamed(express.sdk, flash, { asked: FLASH_LITE, text: 'hello express', thinks: false }),
    );
    const vectors = await express.sdk.embeddings.create({ model: 'vertex/gemini-embedding-001', input: ['one text'] });
    said.push(JSON.stringify(vectors));
    assert.deepEqual([vectors.data.length, vectors.usage.prompt_tokens], [1, 2]);
    assert.equal(express.fake.seen.at(-1)!.path, '/v1/publishers/google/models/gemini-embedding-001:predict');
  });

  it('refuses a request asked to run in the US only at the global endpoint, which may run it anywhere', async () => {
    await assert.rejects(
      express.claude.messages.create({
        model: FLASH_LITE,
        max_tokens: 100,
        inference_geo: 'us',
        messages: [{ role: 'user', content: 'in the US' }],
      }),
      (error: Error) => /vertex\/gemini-3\.5-flash-lite cannot promise to run in the US only/.test(error.message),
    );
  });

  it('routes nothing to Claude, which takes no API key on Vertex AI, and says so when it is asked by name', async () => {
    const sonnet = (await express.service.client().listModels()).find((m) => m.namespace === SONNET)!;
    assert.equal(sonnet.answers_here, false);
    assert.equal(
      sonnet.not_offered_because,
      "Claude on Google Vertex AI takes no API key: add its key again as your Google Cloud login or a service account's key file",
      'the Models view says why',
    );
    // The Space has Claude and Gemini on, and routes (asked by its own name, as a tool names it): Gemini answers.
    const routed = await express.sdk.chat.completions.create({
      model: 'Express',
      messages: [{ role: 'user', content: 'anyone' }],
    });
    assert.equal(routed.model, FLASH_LITE);
    // Asked by name: the Space's failover chain answers with Gemini; without one, refused in words.
    const failedOver = await express.claude.messages.create({
      model: SONNET,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello' }],
    });
    assert.equal(failedOver.model, FLASH_LITE);
    const client = express.service.client();
    const space = (await client.listSpaces()).items.find((a) => a.name === 'Express')!;
    await client.updateSpace({ id: space.id, has_failover_chain: false });
    const asked = await express.claude.messages
      .create({ model: SONNET, max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] })
      .then(
        () => assert.fail('Claude answered with an API key'),
        (error: InstanceType<typeof Anthropic.APIError>) => error,
      );
    said.push(asked.message);
    assert.equal(asked.status, 422);
    assert.match(
      asked.message,
      /vertex\/claude-sonnet-4-5 cannot answer here: Claude on Google Vertex AI takes no API key: add its key again as your Google Cloud login or a service account's key file/,
    );
    assert.deepEqual(
      express.fake.seen.filter((r) => r.path.includes('/publishers/anthropic/')),
      [],
    );
  });

  it("signs a service account's key with its token, never with the environment's API key", async () => {
    // The package Vertex AI's requests go through reads GOOGLE_VERTEX_API_KEY when it is given no key:
    // a key file handed over later is used as itself.
    const account = serviceAccountKey().json;
    const baseUrl = `${express.fake.baseUrl}/projects/${VERTEX_PROJECT}/locations/us-east5`;
    const put = await raw(express.service.url, 'PUT', '/v1/providers/vertex/key', {
      token: express.service.token,
      body: { key: account, base_url: baseUrl },
    });
    assert.equal(put.status, 200);
    const check = (await keyCheck(express)) as { ok: boolean };
    assert.equal(check.ok, false, 'the fake knows only its API key');
    const sent = express.fake.seen.at(-1)!;
    assert.match(sent.path, new RegExp(`^/v1/projects/${VERTEX_PROJECT}/locations/us-east5/publishers/google/`));
    assert.equal(sent.headers['x-goog-api-key'], undefined);
    assert.match(sent.headers.authorization ?? '', /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/, 'a signed JWT');
    // What the fake of express mode says of such a request is what this test sent it.
    assert.deepEqual(express.fake.problems.splice(0), [
      `vertex express: ${sent.path} is not express mode's`,
      'vertex express: a bearer token beside the API key',
    ]);
  });

  it("refuses a key that is no API key, key file, nor the machine's credentials, in words", async () => {
    const res = await raw(express.service.url, 'PUT', '/v1/providers/vertex/key', {
      token: express.service.token,
      body: { key: 'not a key at all' },
    });
    assert.equal(res.status, 422);
    assert.match(
      res.text,
      /is not a Google Cloud API key, a key file \(the JSON of a service account's key\), nor application-default/,
    );
  });

  keyKeptOut(express, 'Vertex AI express mode');
});

describe('Google Vertex AI without Google Cloud credentials', function () {
  this.timeout(60_000);

  it("says in Google's words that the machine has none, and asks Vertex AI nothing", async () => {
    // A home without gcloud's login, no key file, and no metadata server to ask (not on Google Cloud).
    const home = tempDir('llm-spaces-home-');
    mkdirSync(path.join(home, '.config'), { recursive: true });
    const service = await startService({
      env: {
        HOME: home,
        GOOGLE_VERTEX_PROJECT: VERTEX_PROJECT,
        GOOGLE_VERTEX_BASE_URL: 'http://127.0.0.1:9/v1/projects/llm-spaces-test/locations/global',
        METADATA_SERVER_DETECTION: 'none',
      },
    });
    try {
      const states = await service.client().listProviders();
      assert.deepEqual(
        states.filter((p) => p.id === 'vertex').map((p) => [p.has_key, p.key_variable]),
        [[true, 'GOOGLE_VERTEX_PROJECT']],
      );
      const res = await raw(service.url, 'POST', '/v1/providers/vertex/check', { token: service.token, body: {} });
      const check = res.json as { ok: boolean; message: string };
      assert.equal(check.ok, false);
      assert.match(check.message, /Google Cloud gave no credentials \(Could not load the default credentials/);
    } finally {
      await service.stop();
      removeDir(service.dataDir);
      removeDir(home);
    }
  });
});
