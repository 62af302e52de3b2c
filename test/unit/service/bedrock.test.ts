// Amazon Bedrock's models through a Space, with the official OpenAI and Anthropic SDKs as clients: a
// Bedrock API key from AWS_BEARER_TOKEN_BEDROCK, its region's address from AWS_REGION; its models
// under the ids Bedrock takes (its own, and Claude's global inference profiles), priced by the price
// list, with their makers' capabilities; which of them the key reaches read from its foundation models
// and inference profiles; Claude through Bedrock's Anthropic Messages API, its signed thinking carried
// back, and the other models through the Converse API, each whole, streamed (AWS's binary event
// frames) and with a tool call, billed with the input read from the cache. Bedrock's fake checks each
// request against the reference of the API it was sent on.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ProviderKeys } from '../../../src/service/providers/keys';
import { embeddingModel } from '../../../src/service/providers/embedders';
import { claudeToolLoop } from '../support/claudeToolLoop';
import { chatsWholeAndStreamed, LATER_SYSTEM } from '../support/openAiChat';
import { pdfBase64 } from '../support/pdf';
import { startProxy, type FakeProxy } from '../support/fakeProxy';
import { raw } from '../support/http';
import { fakeVector, FILTERED, FILTERED_SO_FAR, startBedrockFake, type ProviderFake } from '../support/providerFakes';
import { removeDir, spaceOf, startService, tempDir, type RunningService } from '../support/service';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';
import { until } from '../support/until';
import { dayLabel } from '../../../src/shared/labels';

const HAIKU = 'bedrock/global.anthropic.claude-haiku-4-5-20251001-v1:0';
const NOVA = 'bedrock/amazon.nova-micro-v1:0';
const LLAMA = 'bedrock/meta.llama3-3-70b-instruct-v1:0';
/** Claude 3.7 Sonnet through the inference profile of the region's geography (`us.…` in a US region). */
const SONNET_37 = 'bedrock/regional.anthropic.claude-3-7-sonnet-20250219-v1:0';
const OPUS_41 = 'bedrock/regional.anthropic.claude-opus-4-1-20250805-v1:0';

type Attempt = { namespace: string; error: string | null };

describe('Amazon Bedrock through a Space', function () {
  this.timeout(60_000);
  const bedrock = throughASpace(
    'bedrock',
    startBedrockFake,
    { name: 'Bedrock', active: [HAIKU, NOVA, SONNET_37] },
    (fake) => {
      // The region serves Nova Micro on demand, Claude Haiku 4.5 through its global and US profiles,
      // Claude 3.7 Sonnet through its US profile; Llama 3.3 only through a US profile, which the catalogue
      // does not name. Two profiles to a page.
      fake.listed = [
        'amazon.nova-micro-v1:0',
        'global.anthropic.claude-haiku-4-5-20251001-v1:0',
        'us.anthropic.claude-haiku-4-5-20251001-v1:0',
        'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
        'us.meta.llama3-3-70b-instruct-v1:0',
        // The newer Claude models, by the ids Anthropic's table of Claude on Bedrock gives.
        'global.anthropic.claude-opus-4-6-v1',
        'us.anthropic.claude-sonnet-4-6',
        'us.anthropic.claude-opus-4-5-20251101-v1:0',
        'global.anthropic.claude-opus-4-7',
      ];
      fake.listPage = 2;
    },
  );
  const { said } = bedrock;

  it("lists the models Bedrock answers here, by its ids, priced, with their makers' capabilities", async () => {
    // Its lists are read in the background from the start (a busy machine may not have them yet): until
    // then every model of a key counts as answering.
    let models = bedrock.models;
    await until("Bedrock's lists read", async () => {
      models = await bedrock.service.client().listModels();
      return models.find((m) => m.namespace === LLAMA)?.answers_here === false;
    });
    const own = models.filter((m) => m.provider === 'bedrock');
    const names = own.map((m) => m.namespace);
    assert.ok(
      [HAIKU, NOVA, LLAMA, SONNET_37, OPUS_41].every((n) => names.includes(n)),
      names.join(' '),
    );
    // Not Nova Sonic's speech, nor OpenAI's GPT-5 models (Bedrock's OpenAI-compatible endpoint serves those).
    assert.deepEqual(
      names.filter((n) => /sonic|openai\.gpt-5/.test(n)),
      [],
    );
    const haiku = own.find((m) => m.namespace === HAIKU)!;
    assert.deepEqual(
      [haiku.prompt_token_cost, haiku.cache_read_token_cost, haiku.completion_token_cost].map((p) =>
        Math.round(p! * 1e9),
      ),
      [1000, 100, 5000],
    );
    // Claude Haiku 4.5 is Anthropic's model: it reads images and reasons; the Converse API takes no penalties.
    assert.deepEqual(
      [haiku.supports_vision, haiku.supports_reasoning, haiku.supports_penalties, haiku.context_window],
      [true, true, false, 200_000],
    );
    const nova = own.find((m) => m.namespace === NOVA)!;
    assert.deepEqual([nova.supports_vision, nova.supports_functions], [false, true]);
    // Read from its lists: Llama 3.3 answers in this region only through a profile the catalogue does not
    // name; of the geography's profiles, the region lists Claude 3.7 Sonnet's, not Claude Opus 4.1's.
    assert.deepEqual(
      Object.fromEntries(
        own
          .filter((m) => [HAIKU, NOVA, LLAMA, SONNET_37, OPUS_41].includes(m.namespace))
          .map((m) => [m.namespace, m.answers_here]),
      ),
      { [NOVA]: true, [HAIKU]: true, [LLAMA]: false, [SONNET_37]: true, [OPUS_41]: false },
    );
    // Named for people as its maker names it (where models.dev knows the model), with where a profile's
    // requests go.
    assert.match(
      haiku.description,
      /, through Bedrock's global inference profile: it may answer from any commercial AWS region\.$/,
    );
    const sonnet = own.find((m) => m.namespace === SONNET_37)!;
    assert.equal(
      sonnet.description,
      "Claude Sonnet 3.7, through the inference profile of your AWS region's geography (eu., us., apac., …): its requests stay in that geography.",
    );
    // It thinks, as at Anthropic (models.dev's Bedrock list says it does not; Anthropic's entry says it does).
    assert.deepEqual(
      [sonnet.prompt_token_cost, sonnet.completion_token_cost, sonnet.supports_vision, sonnet.supports_reasoning].map(
        (p) => (typeof p === 'number' ? Math.round(p * 1e9) : p),
      ),
      [3000, 15000, true, true],
    );
  });

  it('tries the key with Nova Micro, after reading its foundation models and its inference profiles', async () => {
    const listings = bedrock.fake.listings;
    assert.deepEqual(await keyCheck(bedrock), {
      ok: true,
      message: `The Amazon Bedrock key works: ${NOVA} answered.`,
      model: NOVA,
    });
    // The foundation models, then four pages of two profiles.
    assert.equal(bedrock.fake.listings - listings, 5);
    const sent = bedrock.fake.seen.at(-1)!;
    assert.equal(sent.path, `/model/${encodeURIComponent('amazon.nova-micro-v1:0')}/converse`);
    assert.equal(sent.headers.authorization, `Bearer ${bedrock.fake.key}`);
  });

  it('answers through the OpenAI SDK, whole and streamed in its event frames, billed with what its cache read', async () => {
    const haiku = bedrock.models.find((m) => m.namespace === HAIKU)!;
    said.push(
      await chatsWholeAndStreamed(bedrock.sdk, haiku, {
        asked: HAIKU,
        text: 'hello Bedrock',
        thinks: false,
      }),
    );
    assert.match(bedrock.fake.seen.at(-1)!.path, /\/invoke-with-response-stream$/);
  });

  it("answers Claude Code's way on Claude through Bedrock's Anthropic Messages API, its signed thinking carried back", async () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 2_000 };
    const seen = bedrock.fake.seen.length;
    // The next turn sends the thinking back, signed, before the tool use: Bedrock's Claude checks it.
    const { message, call, final, pieces } = await claudeToolLoop(bedrock.claude, {
      model: HAIKU,
      maxTokens: 3_000,
      thinking,
      then: 'sum it up',
    });
    said.push(JSON.stringify(message));
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    assert.deepEqual([call.name, call.input], ['lookup', { q: 'gateway routing' }]);
    const [asked, back] = bedrock.fake.seen.slice(seen);
    assert.equal(asked!.path, `/model/${encodeURIComponent(HAIKU.slice('bedrock/'.length))}/invoke`);
    // Anthropic's body as Bedrock takes it: its version, no model, the thinking within max_tokens.
    assert.deepEqual(
      [
        asked!.body.anthropic_version,
        asked!.body.model,
        asked!.body.system,
        asked!.body.thinking,
        asked!.body.max_tokens,
      ],
      ['bedrock-2023-05-31', undefined, [{ type: 'text', text: 'Be brief.' }], thinking, 3_000],
    );
    assert.equal(final.stop_reason, 'end_turn');
    assert.ok(pieces.length > 1, 'arrived in pieces');
    assert.equal(pieces.join(''), 'echo: sum it up');
    assert.equal(final.content[0]!.type, 'thinking', 'thinking streamed in its event frames');
    assert.match(back!.path, /\/invoke-with-response-stream$/);
    const sentBack = back!.body.messages as Array<{ role: string; content: Array<{ type: string }> }>;
    assert.deepEqual(
      sentBack[1]!.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    // Bedrock counts the input read from its cache apart, as Anthropic does.
    assert.deepEqual([final.usage.input_tokens, final.usage.cache_read_input_tokens], [8, 3]);
  });

  it('answers a tool call on another model through the Converse API, its result sent back as a toolResult', async () => {
    const tools: Anthropic.Tool[] = [
      { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
    ];
    const ask = 'call lookup {"q":"gateway routing"}';
    const message = await bedrock.claude.messages.create({
      model: NOVA,
      max_tokens: 1024,
      system: 'Be brief.',
      tools,
      messages: [{ role: 'user', content: ask }],
    });
    said.push(JSON.stringify(message));
    assert.equal(message.stop_reason, 'tool_use');
    const call = message.content.find((b) => b.type === 'tool_use')!;
    assert.deepEqual([call.name, call.input], ['lookup', { q: 'gateway routing' }]);
    const asked = bedrock.fake.seen.at(-1)!;
    assert.match(asked.path, /\/converse$/);
    const body = asked.body as {
      system: unknown;
      toolConfig: { tools: Array<{ toolSpec: { name: string; inputSchema: { json: unknown } } }> };
    };
    assert.deepEqual(body.system, [{ text: 'Be brief.' }]);
    assert.deepEqual(
      body.toolConfig.tools.map((t) => [t.toolSpec.name, t.toolSpec.inputSchema.json]),
      [['lookup', tools[0]!.input_schema]],
    );

    const turn: Anthropic.MessageParam[] = [
      { role: 'user', content: ask },
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'found it' }] },
    ];
    const pieces: string[] = [];
    const stream = bedrock.claude.messages.stream({ model: NOVA, max_tokens: 1024, tools, messages: turn });
    stream.on('text', (piece) => pieces.push(piece));
    assert.equal((await stream.finalMessage()).stop_reason, 'end_turn');
    assert.equal(pieces.join(''), 'echo: found it');
    const back = bedrock.fake.seen.at(-1)!.body.messages as Array<{ role: string; content: unknown[] }>;
    assert.deepEqual(
      back.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(back[2]!.content, [{ toolResult: { toolUseId: call.id, content: [{ text: 'found it' }] } }]);

    // A tool call streamed in its event frames, its input in pieces.
    const called = await bedrock.claude.messages
      .stream({ model: NOVA, max_tokens: 1024, tools, messages: [{ role: 'user', content: ask }] })
      .finalMessage();
    assert.deepEqual(
      called.content.filter((b) => b.type === 'tool_use').map((b) => b.input),
      [{ q: 'gateway routing' }],
    );
    assert.deepEqual([called.usage.input_tokens, called.usage.cache_read_input_tokens], [8, 3]);
  });

  it("holds a tool's calls to its schema on the Converse API where the schema allows it, and says where it does not", async () => {
    const properties = { q: { type: 'string' } };
    const ask = (input_schema: Anthropic.Tool['input_schema']) =>
      bedrock.claude.messages.create({
        model: NOVA,
        max_tokens: 1024,
        tools: [{ name: 'lookup', input_schema, strict: true }],
        messages: [{ role: 'user', content: 'call lookup {"q":"gateway"}' }],
      });
    const specOf = () =>
      (bedrock.fake.seen.at(-1)!.body as { toolConfig: { tools: Array<{ toolSpec: { strict?: unknown } }> } })
        .toolConfig.tools[0]!.toolSpec;
    type Said = { llm_spaces: { warning: string | null } };

    const held = await ask({ type: 'object', properties, additionalProperties: false });
    said.push(JSON.stringify(held));
    assert.equal(held.stop_reason, 'tool_use');
    assert.equal(specOf().strict, true);
    assert.doesNotMatch(String((held as unknown as Said).llm_spaces.warning), /strict/);
    // Bedrock holds a call to a schema only when its objects allow nothing more: this one is sent
    // without, and the answer says so.
    const loose = await ask({ type: 'object', properties });
    said.push(JSON.stringify(loose));
    assert.equal(loose.stop_reason, 'tool_use');
    assert.equal(specOf().strict, undefined);
    assert.match(
      String((loose as unknown as Said).llm_spaces.warning),
      /The model that answered cannot be held to a tool's schema \(strict\), so the calls of lookup were not checked against it\./,
    );
  });

  it('sends a later system message with the first, as the Converse API takes them only at the top', async () => {
    await bedrock.sdk.chat.completions.create({ model: NOVA, messages: LATER_SYSTEM.messages });
    const sent = bedrock.fake.seen.at(-1)!.body as { system: unknown; messages: unknown };
    assert.deepEqual(sent.system, [{ text: LATER_SYSTEM.joined }]);
    // The user's two messages, now together, as one of two blocks (roles alternate on the Converse API).
    assert.deepEqual(sent.messages, [{ role: 'user', content: [{ text: 'hi' }, { text: 'where am I?' }] }]);
  });

  it('gives Claude through Bedrock a PDF whole, as at Anthropic, and keeps it from a model that cannot read one', async () => {
    const data = pdfBase64(['Gateways route requests.']);
    const ask = (model: string) =>
      bedrock.claude.messages.create({
        model,
        max_tokens: 100,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Summarize it.' },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } },
            ],
          },
        ],
      });
    await ask(HAIKU);
    const sent = bedrock.fake.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.deepEqual(sent[0]!.content.find((b) => b.type === 'document')!.source, {
      type: 'base64',
      media_type: 'application/pdf',
      data,
    });
    const asked = bedrock.fake.seen.length;
    await assert.rejects(ask(NOVA), /cannot read PDFs/);
    assert.equal(bedrock.fake.seen.length, asked, 'Nova Micro was not asked');
  });

  it("sends a geography's model as the profile the region lists, and a profile it does not list nowhere", async () => {
    const answer = await bedrock.claude.messages.create({
      model: SONNET_37,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'from the US' }],
    });
    said.push(JSON.stringify(answer));
    assert.deepEqual(
      answer.content.map((b) => b.type === 'text' && b.text),
      ['echo: from the US'],
    );
    const sent = bedrock.fake.seen.at(-1)!;
    assert.equal(sent.path, `/model/${encodeURIComponent('us.anthropic.claude-3-7-sonnet-20250219-v1:0')}/invoke`);
    // Claude Opus 4.1's profile is not listed in this region: not asked, the Space fails over.
    const seen = bedrock.fake.seen.length;
    const other = await bedrock.sdk.chat.completions.create({
      model: OPUS_41,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'from the US' }],
    });
    said.push(JSON.stringify(other));
    const { attempts } = (other as unknown as { metadata: { routing: { attempts: Attempt[] } } }).metadata.routing;
    assert.equal(attempts[0]!.namespace, OPUS_41);
    assert.match(attempts[0]!.error ?? '', /Amazon Bedrock does not list it among the models your key can use/);
    assert.ok(
      bedrock.fake.seen.slice(seen).every((sent) => !sent.path.includes('opus')),
      'nothing sent for a profile the region does not list',
    );
  });

  it('keeps a request asked to run in the US only (inference_geo) to the models this US region runs itself or by its US profile', async () => {
    const ask = (model: string) =>
      bedrock.claude.messages.create({
        model,
        max_tokens: 100,
        inference_geo: 'us',
        messages: [{ role: 'user', content: 'in the US' }],
      });
    const answer = await ask(SONNET_37);
    said.push(JSON.stringify(answer));
    assert.equal(bedrock.fake.seen.at(-1)!.body.inference_geo, undefined, 'the region keeps it there, not a field');
    // A global profile may run anywhere: named, it is refused in words; routed, left out.
    await assert.rejects(ask(HAIKU), (error: Error) =>
      /cannot promise to run in the US only: only models on Anthropic's own API, or on Amazon Bedrock or Vertex AI in a US region/.test(
        error.message,
      ),
    );
    const routed = await ask('Bedrock');
    said.push(JSON.stringify(routed));
    const { rejected } = (routed as unknown as { llm_spaces: { routing: { rejected: Attempt[] } } }).llm_spaces
      .routing as unknown as { rejected: Array<{ namespace: string; reason: string }> };
    assert.deepEqual(
      rejected.filter((r) => r.reason === 'cannot run in the US only').map((r) => r.namespace),
      [HAIKU],
    );
    assert.notEqual(routed.model, HAIKU);
  });

  it("takes a geography's profile by Bedrock's own name, sent as that profile, which the region must list", async () => {
    const us = 'us.anthropic.claude-3-7-sonnet-20250219-v1:0';
    const answer = await bedrock.sdk.chat.completions.create({
      model: `bedrock/${us}`,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'by its Bedrock name' }],
    });
    said.push(JSON.stringify(answer));
    assert.equal(answer.choices[0]!.message.content, 'echo: by its Bedrock name');
    assert.equal(bedrock.fake.seen.at(-1)!.path, `/model/${encodeURIComponent(us)}/invoke`);
    // The EU's profile is not served from this (US) region: not sent, and said so; the Space fails over.
    const seen = bedrock.fake.seen.length;
    const other = await bedrock.sdk.chat.completions.create({
      model: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'from the EU' }],
    });
    said.push(JSON.stringify(other));
    const { attempts } = (other as unknown as { metadata: { routing: { attempts: Attempt[] } } }).metadata.routing;
    assert.equal(attempts[0]!.namespace, SONNET_37);
    assert.match(attempts[0]!.error ?? '', /Amazon Bedrock does not list it among the models your key can use/);
    assert.ok(
      bedrock.fake.seen.slice(seen).every((sent) => !sent.path.includes(encodeURIComponent('eu.'))),
      'nothing sent for the EU profile',
    );
  });

  it('sends the newer Claude models by the ids Bedrock takes, which the price list labels otherwise, and finds them by those ids', async () => {
    // The price list names each `…-v1:0`; Bedrock dates Claude Opus 4.5, versions Opus 4.6 `-v1`, and
    // names Sonnet 4.6 and later with no version at all.
    const labels = {
      'bedrock/global.anthropic.claude-opus-4-6-v1:0': 'global.anthropic.claude-opus-4-6-v1',
      'bedrock/regional.anthropic.claude-sonnet-4-6-v1:0': 'us.anthropic.claude-sonnet-4-6',
      'bedrock/regional.anthropic.claude-opus-4-5-v1:0': 'us.anthropic.claude-opus-4-5-20251101-v1:0',
      'bedrock/global.anthropic.claude-opus-4-7-v1:0': 'global.anthropic.claude-opus-4-7',
    };
    const models = await bedrock.service.client().listModels();
    for (const [namespace, sentAs] of Object.entries(labels)) {
      assert.equal(models.find((m) => m.namespace === namespace)?.answers_here, true, namespace);
      const answer = await bedrock.claude.messages.create({
        model: namespace,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'newer' }],
      });
      said.push(JSON.stringify(answer));
      assert.equal(answer.model, namespace);
      assert.equal(bedrock.fake.seen.at(-1)!.path, `/model/${encodeURIComponent(sentAs)}/invoke`);
    }
    // Asked by Bedrock's own id, as AWS's tools name it, with or without `bedrock/`: the same model.
    for (const name of [
      'bedrock/global.anthropic.claude-opus-4-6-v1',
      'bedrock/us.anthropic.claude-sonnet-4-6',
      'global.anthropic.claude-opus-4-7',
      'us.anthropic.claude-opus-4-5-20251101-v1:0',
    ]) {
      const answer = await bedrock.sdk.chat.completions.create({
        model: name,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'by its id' }],
      });
      said.push(JSON.stringify(answer));
      assert.equal(answer.choices[0]!.message.content, 'echo: by its id');
      assert.equal(
        bedrock.fake.seen.at(-1)!.path,
        `/model/${encodeURIComponent(name.replace(/^bedrock\//, ''))}/invoke`,
      );
    }
  });

  it("says Bedrock's guardrail stopped an answer as a content filter", async () => {
    const answer = await bedrock.sdk.chat.completions.create({
      model: NOVA,
      messages: [{ role: 'user', content: `tell me ${FILTERED}` }],
    });
    assert.deepEqual(
      [answer.choices[0]!.finish_reason, answer.choices[0]!.message.content],
      ['content_filter', FILTERED_SO_FAR],
    );
  });

  it("embeds with Titan through InvokeModel, one text a call and a few at once, the vectors in order, billed with Bedrock's count; a refusal stops the rest", async () => {
    const titan = 'bedrock/amazon.titan-embed-text-v1';
    const listed = await bedrock.service.client().listEmbeddingModels();
    assert.equal(listed.find((m) => m.namespace === titan)?.answers_here, true, 'listed, answering with the key');
    const before = await bedrock.service.client().getOrganization();
    const sent = bedrock.fake.seen.length;
    const texts = Array.from({ length: 12 }, (_, i) => `chunk number ${i} of a file`);
    bedrock.fake.embedHoldMs = 100;
    const answer = await bedrock.sdk.embeddings.create({ model: titan, input: texts, encoding_format: 'float' });
    bedrock.fake.embedHoldMs = undefined;
    said.push(JSON.stringify(answer));
    assert.equal(answer.model, titan);
    assert.deepEqual(
      answer.data.map((d) => [d.index, d.embedding]),
      texts.map((t, i) => [i, fakeVector(t, 1536)]),
    );
    const calls = bedrock.fake.seen.slice(sent);
    assert.deepEqual(
      calls.map((c) => c.path),
      texts.map(() => '/model/amazon.titan-embed-text-v1/invoke'),
    );
    assert.deepEqual(calls.map((c) => c.body.inputText).sort(), [...texts].sort());
    assert.equal(bedrock.fake.mostEmbeddingAtOnce, 5, 'five calls at once');
    // Bedrock's count (the fake counts words), billed at the price list's price of Titan V1.
    assert.equal(answer.usage.prompt_tokens, 12 * 6);
    const after = await bedrock.service.client().getOrganization();
    assert.equal(after.prompt_tokens - before.prompt_tokens, 72);
    const price = listed.find((m) => m.namespace === titan)!.prompt_token_cost;
    assert.ok(price > 0 && Math.abs(after.total_tokens_cost - before.total_tokens_cost - 72 * price) < 1e-12);
    // Titan V1 makes one size: dimensions are refused in words, and nothing is sent.
    const seen = bedrock.fake.seen.length;
    const refused = await bedrock.sdk.embeddings.create({ model: titan, input: 'x', dimensions: 256 }).then(
      () => assert.fail('answered'),
      (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
    );
    said.push(refused.message);
    assert.equal(refused.status, 400);
    assert.match(
      refused.message,
      /amazon\.titan-embed-text-v1 makes vectors of one size: dimensions cannot be asked of it/,
    );
    assert.equal(bedrock.fake.seen.length, seen);

    // The first refusal stops the calls not yet made: at most the five under way were sent, and nothing is billed.
    const billed = (await bedrock.service.client().getOrganization()).total_tokens_cost;
    bedrock.fake.embedHoldMs = 100;
    bedrock.fake.failNext({
      status: 400,
      message: 'Malformed input request, please reformat your input and try again.',
    });
    const failed = await bedrock.sdk.embeddings.create({ model: titan, input: texts }).then(
      () => assert.fail('answered'),
      (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
    );
    bedrock.fake.embedHoldMs = undefined;
    said.push(failed.message);
    assert.equal(failed.status, 400);
    assert.match(
      failed.message,
      /bedrock\/amazon\.titan-embed-text-v1 could not embed the texts: .*Malformed input request/,
    );
    // Calls still going would have sent the next ones within a few holds.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sentAfter = bedrock.fake.seen.length - seen;
    assert.ok(sentAfter >= 1 && sentAfter <= 5, `${sentAfter} calls sent`);
    assert.equal((await bedrock.service.client().getOrganization()).total_tokens_cost, billed);
  });

  it("asks Bedrock's other embedding families for the dimensions asked, in each family's words", async () => {
    const reach = { apiKey: bedrock.fake.key, baseURL: bedrock.fake.baseUrl };
    const cases: Array<[string, number, (body: Record<string, unknown>) => unknown]> = [
      ['amazon.titan-embed-text-v2:0', 512, (b) => b.dimensions],
      ['cohere.embed-v4:0', 256, (b) => b.output_dimension],
      [
        'amazon.nova-2-multimodal-embeddings-v1:0',
        384,
        (b) => (b.singleEmbeddingParams as { embeddingDimension: number }).embeddingDimension,
      ],
    ];
    for (const [id, size, asked] of cases) {
      const model = embeddingModel('bedrock', reach, id)!;
      const result = await model.doEmbed({ values: ['a text to embed'], dimensions: size });
      assert.deepEqual(result.embeddings, [fakeVector('a text to embed', size)], id);
      assert.equal(asked(bedrock.fake.seen.at(-1)!.body), size, id);
      assert.equal(result.usage?.tokens, 4, id);
      await assert.rejects(
        async () => model.doEmbed({ values: ['x'], dimensions: 100 }),
        /makes .* dimensions, not 100/,
      );
    }
  });

  keyKeptOut(bedrock, 'Bedrock');
});

/**
 * The built-in service with a Bedrock key that signs (an IAM access key, a profile), given by `env`,
 * against a fake that checks each signature with its own copy of `fakeKey`: the hooks of the describe it
 * is called in, and what its tests ask.
 */
function signingService(fakeKey: string, env: () => Record<string, string>) {
  const s = { fake: undefined as unknown as ProviderFake, service: undefined as unknown as RunningService };
  const said: string[] = [];
  before(async () => {
    s.fake = await startBedrockFake(fakeKey);
    s.fake.listed = ['amazon.nova-micro-v1:0', 'global.anthropic.claude-haiku-4-5-20251001-v1:0'];
    s.service = await startService({ env: { ...env(), AWS_ENDPOINT_URL_BEDROCK_RUNTIME: s.fake.baseUrl } });
  });
  after(async () => {
    await s.service?.stop();
    await s.fake?.close();
    if (s.service) removeDir(s.service.dataDir);
  });
  afterEach(() => assert.deepEqual(s.fake.problems, []));

  /** The service's check of the key, as Add Provider Key asks it. */
  const check = async () => {
    const res = await raw(s.service.url, 'POST', '/v1/providers/bedrock/check', { token: s.service.token, body: {} });
    said.push(res.text);
    return res.json as { ok: boolean; message: string };
  };

  /** The key tried, its lists read and Claude asked through a Space: each request signed with the access key `id`. */
  const signsEach = async (id: string, secret: string) => {
    assert.deepEqual(await check(), {
      ok: true,
      message: `The Amazon Bedrock key works: ${NOVA} answered.`,
      model: NOVA,
    });
    // Its lists were read, signed (the fake refuses a signature not made with the key; they may have been
    // read at the start): Llama 3.3, which they do not name, does not answer.
    const models = await s.service.client().listModels();
    assert.equal(models.find((m) => m.namespace === LLAMA)?.answers_here, false);
    const { key } = await spaceOf(s.service, 'Signed', [HAIKU]);
    const claude = new Anthropic({ baseURL: s.service.url, apiKey: key, maxRetries: 0 });
    const answer = await claude.messages.create({
      model: HAIKU,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'signed' }],
    });
    said.push(JSON.stringify(answer));
    assert.deepEqual(
      answer.content.map((b) => b.type === 'text' && b.text),
      ['echo: signed'],
    );
    for (const sent of s.fake.seen) {
      assert.match(String(sent.headers.authorization), new RegExp(`^AWS4-HMAC-SHA256 Credential=${id}/`));
      assert.ok(!JSON.stringify(sent).includes(secret), 'the secret is not sent');
    }
  };

  /** Another key handed over, as Add Provider Key hands it. */
  const putKey = async (key: string) => {
    const put = await raw(s.service.url, 'PUT', '/v1/providers/bedrock/key', {
      token: s.service.token,
      body: { key, base_url: s.fake.baseUrl },
    });
    assert.equal(put.status, 200, put.text);
  };

  /** The variable the providers' list says the environment's key came from. */
  const keyVariable = async () => {
    const res = await raw(s.service.url, 'GET', '/v1/providers', { token: s.service.token });
    return (res.json as { id: string; key_variable: string }[]).find((p) => p.id === 'bedrock')?.key_variable;
  };

  /** Everything the service said, to its clients and in its output. */
  const allSaid = () => [...said, s.service.output()];
  return Object.assign(s, { check, signsEach, putKey, keyVariable, allSaid });
}

describe('Amazon Bedrock with an IAM access key', function () {
  this.timeout(60_000);
  // A temporary key (its ID ASIA…) with its session token, as AWS's variables give it.
  const [ID, SECRET, TOKEN] = [
    'ASIAFAKEBEDROCK00000',
    'fakeBedrockSecret0123456789abcdefABCDEF',
    'FwoFakeSessionToken0123456789',
  ];
  const signing = signingService(`${ID}:${SECRET}:${TOKEN}`, () => ({
    AWS_ACCESS_KEY_ID: ID,
    AWS_SECRET_ACCESS_KEY: SECRET,
    AWS_SESSION_TOKEN: TOKEN,
  }));

  it('signs each request with it, its lists and the models on both APIs, and never sends the secret', async () => {
    assert.equal(await signing.keyVariable(), 'AWS_ACCESS_KEY_ID');
    await signing.signsEach(ID, SECRET);
    for (const sent of signing.fake.seen) assert.equal(sent.headers['x-amz-security-token'], TOKEN);
  });

  it('is refused in words when its secret is not the one AWS has, and the secret is in nothing said', async () => {
    await signing.putKey(`${ID}:wrongSecret0123456789abcdefABCDEFGH:${TOKEN}`);
    const refused = await signing.check();
    assert.equal(refused.ok, false);
    assert.match(refused.message, /Amazon Bedrock .*(refused|401)/);
    for (const text of signing.allSaid()) {
      assert.ok(!text.includes(SECRET) && !text.includes('wrongSecret0123456789abcdefABCDEFGH'), 'no secret said');
      assert.ok(!text.includes(TOKEN), 'no session token said');
    }
  });
});

describe('Amazon Bedrock with a profile of the AWS configuration', function () {
  this.timeout(60_000);
  // A profile with an access key in the credentials file, as `aws configure --profile work` writes it.
  const [ID, SECRET] = ['AKIAFAKEPROFILE00000', 'profileSecretFake0123456789abcdefABCDEF'];
  const signing = signingService(`${ID}:${SECRET}`, () => {
    const aws = tempDir('llm-spaces-aws-');
    writeFileSync(
      path.join(aws, 'credentials'),
      `[default]\naws_access_key_id = AKIANOTTHISONE000000\naws_secret_access_key = notThisSecret\n\n[work]\naws_access_key_id = ${ID}\naws_secret_access_key = ${SECRET}\n`,
    );
    writeFileSync(path.join(aws, 'config'), '[profile work]\nregion = eu-west-1\n');
    return {
      AWS_PROFILE: 'work',
      AWS_SHARED_CREDENTIALS_FILE: path.join(aws, 'credentials'),
      AWS_CONFIG_FILE: path.join(aws, 'config'),
    };
  });

  it('is the key where AWS_PROFILE names it: its credentials read as AWS reads them, each request signed', async () => {
    assert.equal(await signing.keyVariable(), 'AWS_PROFILE');
    await signing.signsEach(ID, SECRET);
  });

  it("says in AWS's words when the profile named is not there, and nothing is sent", async () => {
    const seen = signing.fake.seen.length;
    await signing.putKey('profile:nowhere');
    const refused = await signing.check();
    assert.equal(refused.ok, false);
    assert.equal(
      refused.message,
      'The Amazon Bedrock key did not work: Amazon Bedrock was not asked: the AWS profile nowhere gave no credentials (Could not resolve credentials using profile: [nowhere] in configuration/credentials file(s).).',
    );
    assert.equal(signing.fake.seen.length, seen);
    for (const text of signing.allSaid()) assert.ok(!text.includes(SECRET), 'no secret said');
  });
});

/**
 * A fake of AWS STS's AssumeRole (query protocol, as its API reference gives it): it answers only a
 * request signed with the source profile's access key `sourceId` naming `roleArn`, with temporary
 * credentials; what it was asked, and what it refused, are kept.
 */
async function startStsFake(sourceId: string, roleArn: string, assumed: { id: string; secret: string; token: string }) {
  const asked: URLSearchParams[] = [];
  const problems: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      asked.push(form);
      const signedBy = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[^/]+\/sts\/aws4_request,/.exec(
        String(request.headers.authorization),
      )?.[1];
      const wrong = [
        request.method !== 'POST' && `method ${request.method}`,
        form.get('Action') !== 'AssumeRole' && `action ${form.get('Action')}`,
        form.get('Version') !== '2011-06-15' && `version ${form.get('Version')}`,
        form.get('RoleArn') !== roleArn && `role ${form.get('RoleArn')}`,
        !form.get('RoleSessionName') && 'no RoleSessionName',
        signedBy !== sourceId && `signed by ${signedBy}`,
      ].filter((w): w is string => Boolean(w));
      if (wrong.length) {
        problems.push(...wrong);
        response.writeHead(403, { 'content-type': 'text/xml' });
        response.end(
          '<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>refused</Message></Error></ErrorResponse>',
        );
        return;
      }
      const expires = new Date(Date.now() + 3_600_000).toISOString();
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>` +
          `<AssumedRoleUser><Arn>${roleArn.replace(':role/', ':assumed-role/')}/${form.get('RoleSessionName')}</Arn>` +
          `<AssumedRoleId>AROAFAKEROLE00000000:${form.get('RoleSessionName')}</AssumedRoleId></AssumedRoleUser>` +
          `<Credentials><AccessKeyId>${assumed.id}</AccessKeyId><SecretAccessKey>${assumed.secret}</SecretAccessKey>` +
          `<SessionToken>${assumed.token}</SessionToken><Expiration>${expires}</Expiration></Credentials>` +
          `</AssumeRoleResult><ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata></AssumeRoleResponse>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, asked, problems, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Amazon Bedrock with a profile that assumes a role, behind a proxy', function () {
  this.timeout(60_000);
  // `work` assumes a role with the access key of its source profile `base`, from STS (a fake only the
  // proxy knows the host of): AWS's sign-in goes through the proxy as the service's other requests do.
  const [BASE_ID, BASE_SECRET] = ['AKIAFAKESOURCE000000', 'sourceSecretFake0123456789abcdefABCDEF'];
  const ROLE = 'arn:aws:iam::123456789012:role/bedrock-user';
  const assumed = {
    id: 'ASIAFAKEASSUMED00000',
    secret: 'assumedSecretFake0123456789abcdefABCD',
    token: 'FwoFakeRoleToken0123',
  };
  let sts: Awaited<ReturnType<typeof startStsFake>>;
  let proxy: FakeProxy;
  before(async () => {
    sts = await startStsFake(BASE_ID, ROLE, assumed);
    proxy = await startProxy();
  });
  after(async () => {
    await Promise.all([sts.close(), proxy.close()]);
  });
  const signing = signingService(`${assumed.id}:${assumed.secret}:${assumed.token}`, () => {
    const aws = tempDir('llm-spaces-aws-');
    writeFileSync(
      path.join(aws, 'credentials'),
      `[base]\naws_access_key_id = ${BASE_ID}\naws_secret_access_key = ${BASE_SECRET}\n`,
    );
    writeFileSync(
      path.join(aws, 'config'),
      `[profile work]\nregion = eu-west-1\nrole_arn = ${ROLE}\nsource_profile = base\n`,
    );
    return {
      AWS_PROFILE: 'work',
      AWS_SHARED_CREDENTIALS_FILE: path.join(aws, 'credentials'),
      AWS_CONFIG_FILE: path.join(aws, 'config'),
      AWS_ENDPOINT_URL_STS: `http://sts.proxied.test:${sts.port}`,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
    };
  });

  it("assumes the role through the proxy, and signs each request with the role's credentials", async () => {
    await signing.signsEach(assumed.id, assumed.secret);
    assert.deepEqual(sts.problems, []);
    assert.ok(sts.asked.length >= 1, 'the role was assumed');
    assert.ok(
      proxy.tunnels.some((t) => t.target === `sts.proxied.test:${sts.port}`),
      'STS was reached through the proxy',
    );
    for (const text of signing.allSaid())
      for (const secret of [BASE_SECRET, assumed.secret, assumed.token])
        assert.ok(!text.includes(secret), 'no secret said');
  });
});

describe("Amazon Bedrock's geography profiles", function () {
  this.timeout(60_000);
  const runs: { fake: ProviderFake; service: RunningService }[] = [];
  afterEach(async () => {
    for (const { fake, service } of runs.splice(0)) {
      assert.deepEqual(fake.problems, []);
      await service.stop();
      await fake.close();
      removeDir(service.dataDir);
    }
  });

  /** Claude 3.7 Sonnet asked through a Space, with a region that lists `listed` (none: its lists cannot be read). */
  async function sentFor(listed: string[] | undefined): Promise<string> {
    const fake = await startBedrockFake('ABSK-geography-test-key');
    fake.listed = listed;
    const service = await startService({
      env: { AWS_BEARER_TOKEN_BEDROCK: fake.key, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.baseUrl },
    });
    runs.push({ fake, service });
    const { key } = await spaceOf(service, 'Geography', [SONNET_37]);
    const claude = new Anthropic({ baseURL: service.url, apiKey: key, maxRetries: 0 });
    await claude.messages.create({ model: SONNET_37, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    return decodeURIComponent(/^\/model\/([^/]+)\//.exec(fake.seen.at(-1)!.path)![1]!);
  }

  it("is the narrowest the region lists: Japan's before Asia Pacific's", async () => {
    const profiles = ['apac.', 'jp.'].map((geo) => `${geo}anthropic.claude-3-7-sonnet-20250219-v1:0`);
    assert.equal(await sentFor(['amazon.nova-micro-v1:0', ...profiles]), profiles[1]);
  });

  it("is the geography of the region's name while its lists cannot be read", async () => {
    assert.equal(await sentFor(undefined), 'us.anthropic.claude-3-7-sonnet-20250219-v1:0');
  });
});

describe("Amazon Bedrock's end-of-life days", function () {
  this.timeout(60_000);
  let fake: ProviderFake;
  let service: RunningService;
  after(async () => {
    await service?.stop();
    await fake?.close();
    if (service) removeDir(service.dataDir);
  });

  it('retires a model on the day its foundation model reaches its end of life on Bedrock, profiles included', async () => {
    fake = await startBedrockFake('ABSK-end-of-life-test-key');
    fake.listed = [
      'amazon.nova-micro-v1:0',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'global.anthropic.claude-haiku-4-5-20251001-v1:0',
    ];
    // Bedrock's own schedule: Legacy, with the time each stops being served in every region.
    fake.shutdowns = {
      'anthropic.claude-3-7-sonnet-20250219-v1:0': '2027-04-28',
      'anthropic.claude-haiku-4-5-20251001-v1:0': '2027-10-15',
    };
    service = await startService({
      env: { AWS_BEARER_TOKEN_BEDROCK: fake.key, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.baseUrl },
    });
    const client = service.client();
    const days = async () =>
      Object.fromEntries(
        (await client.listModels())
          .filter((m) => [NOVA, SONNET_37, HAIKU].includes(m.namespace))
          .map((m) => [m.namespace, m.deprecated_on ?? null]),
      );
    await until('the end-of-life days were never taken in', async () => (await days())[SONNET_37] === '2027-04-28');
    assert.deepEqual(await days(), { [NOVA]: null, [SONNET_37]: '2027-04-28', [HAIKU]: '2027-10-15' });
    // Asked meanwhile, it answers, and says when it goes: to the playground's API and to the OpenAI SDK.
    const goes = `${SONNET_37} is deprecated and will stop being served on ${dayLabel('2027-04-28')}.`;
    const { id, key } = await spaceOf(service, 'Legacy', [SONNET_37]);
    const reply = await client.chat({ app_id: id, prompt: 'still there?', model: SONNET_37 });
    assert.equal(reply.model, SONNET_37);
    assert.equal(reply.metadata.warning, goes);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: key, maxRetries: 0 });
    const completion = await sdk.chat.completions.create({
      model: SONNET_37,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'still there?' }],
    });
    assert.equal(completion.choices[0]!.message.content, 'echo: still there?');
    assert.equal((completion as unknown as { metadata: { warning: string } }).metadata.warning, goes);
    assert.deepEqual(fake.problems, []);
    assert.ok(!service.output().includes(fake.key), "the key is not in the service's output");
  });
});

describe("Amazon Bedrock's region", () => {
  it('is read from AWS_REGION where the environment gives the key, and its address made of it', () => {
    const reachOf = (env: NodeJS.ProcessEnv) => {
      const keys = new ProviderKeys();
      keys.loadEnvironment({ AWS_BEARER_TOKEN_BEDROCK: 'ABSK-region-test-key', ...env });
      return keys.reach('bedrock')!.baseURL;
    };
    assert.equal(reachOf({ AWS_REGION: 'eu-west-1' }), 'https://bedrock-runtime.eu-west-1.amazonaws.com');
    // AWS's own variable for the runtime's address wins; a region that is not one is not used.
    assert.equal(
      reachOf({ AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'https://vpce.example.com' }),
      'https://vpce.example.com',
    );
    assert.equal(reachOf({ AWS_REGION: 'eu-west-1/../x' }), 'https://bedrock-runtime.us-east-1.amazonaws.com');
  });
});
