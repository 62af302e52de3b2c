// MiniMax's models through a Space, with the official OpenAI and Anthropic SDKs as clients: its key from
// MINIMAX_API_KEY, its M3 and M2 models under the ids its API reference gives them, priced by the price
// list; a chat whole, streamed and with a tool, its thinking shown, billed at MiniMax's counts; only the
// fields its Anthropic-compatible API takes, within its ranges; its thinking turned off for an effort of
// none. MiniMax's fake checks each request against its API reference.
import type Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { chatsWholeAndStreamed, LATER_SYSTEM } from '../support/openAiChat';
import { startMiniMaxFake } from '../support/providerFakes';
import { keyCheck, keyKeptOut, throughASpace } from '../support/throughASpace';

const M27 = 'minimax/MiniMax-M2.7';
const M3 = 'minimax/MiniMax-M3';

describe('MiniMax through a Space', function () {
  this.timeout(60_000);
  const minimax = throughASpace('minimax', startMiniMaxFake, { name: 'MiniMax', active: [M27, M3] });
  const { said } = minimax;

  it('lists the M3 and M2 models its Anthropic-compatible API serves, named as its reference names them', () => {
    const own = minimax.models.filter((m) => m.provider === 'minimax');
    assert.deepEqual(own.map((m) => m.namespace).sort(), [
      'minimax/MiniMax-M2',
      'minimax/MiniMax-M2.1',
      'minimax/MiniMax-M2.1-highspeed',
      'minimax/MiniMax-M2.5',
      'minimax/MiniMax-M2.5-highspeed',
      M27,
      'minimax/MiniMax-M2.7-highspeed',
      M3,
    ]);
    const m27 = own.find((m) => m.namespace === M27)!;
    assert.equal(m27.answers_here, true);
    assert.deepEqual(
      [m27.prompt_token_cost, m27.cache_read_token_cost, m27.cache_write_token_cost, m27.completion_token_cost].map(
        (p) => Math.round(p! * 1e9),
      ),
      [300, 60, 375, 1200],
    );
    assert.deepEqual(
      own.map((m) => m.context_window),
      own.map((m) => (m.namespace === M3 ? 1_000_000 : 204_800)),
    );
    // Each thinks; its API takes no penalties and no images.
    assert.ok(own.every((m) => m.supports_reasoning && !m.supports_penalties && !m.supports_vision));
    // M2.1 is priced under M2's entry, but not described as M2.
    assert.equal(own.find((m) => m.namespace === 'minimax/MiniMax-M2.1')!.description, 'MiniMax-M2.1');
  });

  it('tries the key with MiniMax-M2.7 at its Anthropic-compatible address, asking no list of models', async () => {
    assert.deepEqual(await keyCheck(minimax), {
      ok: true,
      message: 'The MiniMax key works: minimax/MiniMax-M2.7 answered.',
      model: M27,
    });
    const sent = minimax.fake.seen.at(-1)!;
    assert.deepEqual([sent.path, sent.body.model], ['/anthropic/v1/messages', 'MiniMax-M2.7']);
    assert.equal(sent.headers['x-api-key'], minimax.fake.key);
    assert.equal(minimax.fake.listings, 0);
  });

  it('answers through the OpenAI SDK, whole and streamed, with its thinking, billed at its counts', async () => {
    const m27 = minimax.models.find((m) => m.namespace === M27)!;
    said.push(
      await chatsWholeAndStreamed(minimax.sdk, m27, { asked: 'MiniMax-M2.7', text: 'hello MiniMax', thinks: true }),
    );
    assert.equal(minimax.fake.seen.at(-1)!.body.stream, true);
  });

  it("answers Claude Code's way (Anthropic's Messages API) with its thinking and a tool call, whole and streamed", async () => {
    const tools: Anthropic.Tool[] = [
      { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
    ];
    const message = await minimax.claude.messages.create({
      model: M27,
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools,
      messages: [{ role: 'user', content: 'call lookup {"q":"gateway"}' }],
    });
    said.push(JSON.stringify(message));
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    assert.equal(
      (message.content[0] as Anthropic.ThinkingBlock).thinking,
      'Thinking about: call lookup {"q":"gateway"}',
    );
    assert.deepEqual((message.content[1] as Anthropic.ToolUseBlock).input, { q: 'gateway' });
    assert.equal(message.stop_reason, 'tool_use');
    // MiniMax's models think unasked: no budget is sent.
    assert.equal(minimax.fake.seen.at(-1)!.body.thinking, undefined);

    // The next turn, as Claude Code sends it: the reply whole, then the tool's result. MiniMax gets its
    // own block of thinking back as it gave it (its fake checks the signature), as its docs ask.
    const call = message.content[1] as Anthropic.ToolUseBlock;
    const turn: Anthropic.MessageParam[] = [
      { role: 'user', content: 'call lookup {"q":"gateway"}' },
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'found' }] },
    ];
    const next = await minimax.claude.messages.create({ model: M27, max_tokens: 4096, tools, messages: turn });
    assert.equal(next.stop_reason, 'end_turn');
    type Sent = Array<{ content: Array<{ type: string; thinking?: string }> }>;
    const back = (minimax.fake.seen.at(-1)!.body.messages as Sent)[1]!;
    assert.deepEqual(
      back.content.map((b) => [b.type, b.thinking]),
      [
        ['thinking', 'Thinking about: call lookup {"q":"gateway"}'],
        ['tool_use', undefined],
      ],
    );
    // Another model is not sent thinking it did not give.
    await minimax.claude.messages.create({ model: M3, max_tokens: 4096, tools, messages: turn });
    const toM3 = (minimax.fake.seen.at(-1)!.body.messages as Sent)[1]!;
    assert.deepEqual(
      toM3.content.map((b) => b.type),
      ['tool_use'],
    );

    const stream = minimax.claude.messages.stream({
      model: M3,
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'stream from M3' }],
    });
    const final = await stream.finalMessage();
    assert.deepEqual(
      final.content.map((b) => (b.type === 'text' ? b.text : b.type)),
      ['thinking', 'echo: stream from M3'],
    );
    assert.equal(minimax.fake.seen.at(-1)!.body.model, 'MiniMax-M3');
  });

  it('sends only the fields its API takes, within its ranges, whatever else a client asked for', async () => {
    // What Cline, Codex and Continue send to an OpenAI-shaped endpoint: a temperature of 0, penalties, a
    // prompt cache key, one tool call at a time. MiniMax takes temperature and top_p in (0, 1] only.
    const answer = await minimax.sdk.chat.completions.create({
      model: M27,
      messages: [{ role: 'user', content: 'only what it takes' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      temperature: 0,
      top_p: 1,
      parallel_tool_calls: false,
      prompt_cache_key: 'conversation-1',
      frequency_penalty: 0.5,
    });
    assert.equal(answer.choices[0]!.message.content, 'echo: only what it takes');
    const sent = minimax.fake.seen.at(-1)!.body;
    assert.deepEqual(Object.keys(sent).sort(), [
      'max_tokens',
      'messages',
      'model',
      'temperature',
      'tool_choice',
      'tools',
      'top_p',
    ]);
    assert.deepEqual([sent.temperature, sent.top_p], [0.01, 1]);
    assert.deepEqual(sent.tool_choice, { type: 'auto', disable_parallel_tool_use: true });
  });

  it('joins a system message sent later in the conversation to the first: its API takes them only at the start', async () => {
    await minimax.sdk.chat.completions.create({
      model: M27,
      messages: LATER_SYSTEM.messages,
    });
    const sent = minimax.fake.seen.at(-1)!.body;
    assert.deepEqual(sent.system, [{ type: 'text', text: LATER_SYSTEM.joined }]);
    assert.deepEqual(
      (sent.messages as Array<{ role: string }>).map((m) => m.role),
      ['user'],
    );
  });

  it('turns thinking off for an effort of none (M3 answers without), and sends no other effort', async () => {
    const ask = async (model: string, effort: 'none' | 'high') => {
      const answer = await minimax.sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: `effort ${effort}` }],
        reasoning_effort: effort,
      });
      const sent = minimax.fake.seen.at(-1)!.body;
      return [
        (sent.thinking as { type?: string } | undefined)?.type,
        'reasoning_content' in answer.choices[0]!.message,
      ];
    };
    assert.deepEqual(await ask(M3, 'none'), ['disabled', false]);
    assert.deepEqual(await ask(M3, 'high'), [undefined, true]);
    // An M2 model thinks whatever it is told.
    assert.deepEqual(await ask(M27, 'none'), ['disabled', true]);
  });

  keyKeptOut(minimax, 'MiniMax');
});
