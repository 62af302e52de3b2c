// Cohere's models through a Space, with the official OpenAI and Anthropic SDKs as clients: its key from
// COHERE_API_KEY, its Command models under the dated ids its API takes, priced by the price list, with
// the context windows its models page states; its list of models read from its v1 API; a chat whole,
// streamed and with a tool call (its tool messages sent back in its shape), billed at the units Cohere
// bills; sampling held within its ranges; its embeddings, with a query or documents said in its words.
// Cohere's fake checks each request against its API reference.
import type Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { chatsWholeAndStreamed } from '../support/openAiChat';
import { fakeVector, MODEL_ERROR, startCohereFake } from '../support/providerFakes';
import { spaceOf } from '../support/service';
import { until } from '../support/until';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';

const A = 'cohere/command-a-03-2025';
const R7B = 'cohere/command-r7b-12-2024';
const R = 'cohere/command-r-08-2024';

describe('Cohere through a Space', function () {
  this.timeout(60_000);
  const cohere = throughASpace('cohere', startCohereFake, { name: 'Cohere', active: [A, R7B] }, (fake) => {
    // The key reaches every model but Command R+ (held back from the account), two to a page.
    fake.listed = [
      'command-a-plus-05-2026',
      'command-a-03-2025',
      'command-r7b-12-2024',
      'command-r-08-2024',
      'embed-v4.0',
    ];
    fake.listPage = 2;
  });
  const { said } = cohere;

  it('lists its Command models by the dated ids its API takes, priced, with the context its models page states', async () => {
    // Its list is read in the background from the start (a busy machine may not have it yet): until then
    // every model of a key counts as answering.
    let models = cohere.models;
    await until("Cohere's list read", async () => {
      models = await cohere.service.client().listModels();
      return models.some((m) => m.provider === 'cohere' && !m.answers_here);
    });
    const own = models.filter((m) => m.provider === 'cohere');
    assert.deepEqual(own.map((m) => m.namespace).sort(), [A, R, 'cohere/command-r-plus-08-2024', R7B]);
    const a = own.find((m) => m.namespace === A)!;
    assert.deepEqual(
      [a.prompt_token_cost, a.completion_token_cost].map((p) => Math.round(p * 1e9)),
      [2500, 10000],
    );
    // The price list's entry describes the model its dated id is a snapshot of.
    assert.match(a.description, /^Command A is an open-weights 111B parameter model/);
    assert.deepEqual(
      own.map((m) => m.context_window),
      own.map((m) => (m.namespace === A ? 256_000 : 128_000)),
    );
    // None of these reasons or reads images; Cohere takes penalties.
    assert.ok(own.every((m) => m.supports_reasoning === false && m.supports_penalties && !m.supports_vision));
    // Read from its list (two to a page): Command R+ is not the key's.
    assert.deepEqual(
      own.map((m) => [m.namespace, m.answers_here]).filter(([, here]) => !here),
      [['cohere/command-r-plus-08-2024', false]],
    );
  });

  it('tries the key with Command R7B, after reading its list of models at its v1 API', async () => {
    const listings = cohere.fake.listings;
    assert.deepEqual(await keyCheck(cohere), {
      ok: true,
      message: `The Cohere key works: ${R7B} answered.`,
      model: R7B,
    });
    // Three pages of two.
    assert.equal(cohere.fake.listings - listings, 3);
    const sent = cohere.fake.seen.at(-1)!;
    assert.deepEqual([sent.path, sent.body.model], ['/v2/chat', 'command-r7b-12-2024']);
    assert.equal(sent.headers.authorization, `Bearer ${cohere.fake.key}`);
  });

  it('answers through the OpenAI SDK, whole and streamed, billed at the units Cohere bills', async () => {
    const a = cohere.models.find((m) => m.namespace === A)!;
    // The fake bills 11 tokens in and counts 211 (its prompt template's too): 11 is what is billed.
    said.push(
      await chatsWholeAndStreamed(cohere.sdk, a, {
        asked: 'command-a-03-2025',
        text: 'hello Cohere',
        thinks: false,
        cached: 0,
      }),
    );
    assert.equal(cohere.fake.seen.at(-1)!.body.stream, true);
  });

  it("answers Claude Code's way with a tool call, whole and streamed, its result sent back in Cohere's shape", async () => {
    const tools: Anthropic.Tool[] = [
      { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
    ];
    const ask = 'call lookup {"q":"gateway routing"}';
    const message = await cohere.claude.messages.create({
      model: A,
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: ask }],
    });
    said.push(JSON.stringify(message));
    assert.equal(message.stop_reason, 'tool_use');
    const call = message.content.find((b) => b.type === 'tool_use')!;
    assert.deepEqual([call.name, call.input], ['lookup', { q: 'gateway routing' }]);
    const sentTools = cohere.fake.seen.at(-1)!.body.tools as Array<{ type: string; function: { name: string } }>;
    assert.deepEqual(
      sentTools.map((t) => [t.type, t.function.name]),
      [['function', 'lookup']],
    );

    const turn: Anthropic.MessageParam[] = [
      { role: 'user', content: ask },
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'found it' }] },
    ];
    const stream = cohere.claude.messages.stream({ model: A, max_tokens: 1024, tools, messages: turn });
    const pieces: string[] = [];
    stream.on('text', (piece) => pieces.push(piece));
    const final = await stream.finalMessage();
    assert.equal(final.stop_reason, 'end_turn');
    assert.ok(pieces.length > 1, 'arrived in pieces');
    // The fake echoes the tool's result, the last thing said.
    const back = cohere.fake.seen.at(-1)!.body.messages as Array<Record<string, unknown>>;
    assert.deepEqual(
      back.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.deepEqual(
      [back[2]!.tool_call_id, back[2]!.content, pieces.join('')],
      [call.id, 'found it', 'echo: found it'],
    );

    // A tool call streamed, its arguments in pieces.
    const streamedCall = cohere.claude.messages.stream({
      model: R7B,
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: ask }],
    });
    const called = await streamedCall.finalMessage();
    assert.deepEqual(
      called.content.filter((b) => b.type === 'tool_use').map((b) => b.input),
      [{ q: 'gateway routing' }],
    );
    assert.equal(called.usage.input_tokens, 11);
  });

  it("holds sampling within Cohere's ranges: top_p at most 0.99, penalties within [0, 1]", async () => {
    await cohere.sdk.chat.completions.create({
      model: A,
      messages: [{ role: 'user', content: 'ranges' }],
      temperature: 0,
      top_p: 1,
      frequency_penalty: -1,
      presence_penalty: 2,
      stop: ['END'],
    });
    const sent = cohere.fake.seen.at(-1)!.body;
    assert.deepEqual(
      [sent.temperature, sent.p, sent.frequency_penalty, sent.presence_penalty, sent.stop_sequences],
      [0, 0.99, 0, 1, ['END']],
    );
  });

  it("fails over from Cohere's refusal to the next model of the chain, the receipt saying it in Cohere's words", async () => {
    const space = await spaceOf(cohere.service, 'Command R', [R]);
    const r = new OpenAI({ baseURL: `${cohere.service.url}/v1`, apiKey: space.key, maxRetries: 0 });
    // Command R (08-2024) takes no tool_choice; Command R7B, first in the Space's failover chain, does.
    const answer = await r.chat.completions.create({
      model: R,
      messages: [{ role: 'user', content: 'must call' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      tool_choice: 'required',
    });
    said.push(JSON.stringify(answer));
    assert.equal(answer.model, R7B);
    const receipt = (
      answer as unknown as {
        metadata: { warning: string; routing: { attempts: Array<{ namespace: string; status_code: number }> } };
      }
    ).metadata;
    // Refused as it was asked, Command R is not asked it again.
    assert.deepEqual(
      receipt.routing.attempts.map((a) => [a.namespace, a.status_code]),
      [
        [R, 400],
        [R7B, 200],
      ],
    );
    assert.match(
      receipt.warning,
      /Failed over from cohere\/command-r-08-2024 to cohere\/command-r7b-12-2024 .*Cohere answered HTTP 400: invalid request: tool_choice is not supported for command-r-08-2024/,
    );
    const sent = cohere.fake.seen.at(-1)!.body;
    assert.deepEqual([sent.model, sent.tool_choice], ['command-r7b-12-2024', 'REQUIRED']);
    // A refusal of one request is not Cohere failing: it is not cooled down.
    const again = await r.chat.completions.create({ model: R, messages: [{ role: 'user', content: 'again' }] });
    assert.deepEqual([again.model, again.choices[0]!.message.content], [R, 'echo: again']);
  });

  it('answers a model that stopped with an error before answering as a failure in words, not an empty answer', async () => {
    const asked = cohere.fake.seen.length;
    for (const stream of [false, true]) {
      const failed = await cohere.sdk.chat.completions
        .create({ model: A, messages: [{ role: 'user', content: `hello ${MODEL_ERROR}` }], stream })
        .then(async (answer) => {
          // A stream that fails before its first token still opens, and ends with the error.
          if (stream) for await (const chunk of answer as AsyncIterable<unknown>) void chunk;
          return assert.fail(`answered: ${JSON.stringify(answer)}`);
        })
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
      said.push(String(failed));
      assert.match(
        String(failed?.message),
        /^502 No model could answer: cohere\/command-a-03-2025: the model stopped with an error before it answered \(ERROR\)/,
        `stream: ${stream}`,
      );
    }
    // Retried as any failure is (the Space's same-model retry: each request asked twice); the model was
    // named, and the Space has no failover chain.
    assert.equal(cohere.fake.seen.length - asked, 4);
    // Cohere answered, so it is not cooling down: the next request is asked of it and answered.
    const next = await cohere.sdk.chat.completions.create({ model: A, messages: [{ role: 'user', content: 'after' }] });
    assert.equal(next.choices[0]!.message.content, 'echo: after');
  });

  it("embeds with embed-v4.0: the dimensions and a query or documents in Cohere's words, billed at its count", async () => {
    const docs = await cohere.sdk.embeddings.create({
      model: 'cohere/embed-v4.0',
      input: ['first text', 'second one here'],
      dimensions: 512,
      // Voyage's field, which Cohere's models take as theirs.
      input_type: 'document',
    } as OpenAI.EmbeddingCreateParams);
    const sent = cohere.fake.seen.at(-1)!;
    assert.equal(sent.path, '/v2/embed');
    assert.deepEqual(
      [sent.body.model, sent.body.texts, sent.body.input_type, sent.body.output_dimension, sent.body.embedding_types],
      ['embed-v4.0', ['first text', 'second one here'], 'search_document', 512, ['float']],
    );
    assert.deepEqual(docs.data[0]!.embedding, fakeVector('search_document first text', 512));
    // Cohere's own count of the texts (the fake's: one a word).
    assert.equal(docs.usage.prompt_tokens, 5);

    // Without a word of which it is, a query (as Cohere's package sends).
    const query = await cohere.sdk.embeddings.create({ model: 'cohere/embed-v4.0', input: 'where is it' });
    assert.equal(cohere.fake.seen.at(-1)!.body.input_type, 'search_query');
    assert.equal(query.data[0]!.embedding.length, 1536);

    // Dimensions it does not make are refused in words, and nothing is sent.
    const before = cohere.fake.seen.length;
    const refused = await cohere.sdk.embeddings
      .create({ model: 'cohere/embed-v4.0', input: 'x', dimensions: 100 })
      .then(
        () => assert.fail('answered'),
        (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
      );
    said.push(refused.message);
    assert.equal(refused.status, 400);
    assert.match(refused.message, /embed-v4\.0 makes 256, 512, 1024, 1536 dimensions, not 100/);
    assert.equal(cohere.fake.seen.length, before);
  });

  keyKeptOut(cohere, 'Cohere');
});
