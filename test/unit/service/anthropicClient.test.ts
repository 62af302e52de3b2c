// The official Anthropic SDK from npm against the built-in service's /v1/messages, as Claude Code or a
// script would use it with a Space key (ANTHROPIC_BASE_URL, x-api-key): a message, a stream with
// Anthropic's events, a tool round trip, the token count, compaction (asked, by the tool runner, and past a trigger),
// message threads (the SDK's thread helper and tool runner), and errors in Anthropic's shape.
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import assert from 'node:assert/strict';
import { echoSpace, removeDir, spaceOf, startService, type RunningService } from '../support/service';

/** A tool the SDK's tool runner runs: it looks a word up. */
const LOOKUP_SCHEMA = { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } as const;
const lookup = betaTool({
  name: 'lookup',
  description: 'Looks a word up.',
  inputSchema: LOOKUP_SCHEMA,
  run: ({ word }) => `${word}: a way in`,
});

describe('the Anthropic SDK against the built-in service', function () {
  this.timeout(60_000);
  let service: RunningService;
  let anthropic: Anthropic;
  let spaceId: string;
  let spaceKey: string;

  before(async () => {
    service = await startService();
    const created = await echoSpace(service, 'For the Anthropic SDK');
    spaceId = created.id;
    spaceKey = created.key;
    // The SDK sends the key as x-api-key; the base URL is the service's, as ANTHROPIC_BASE_URL would be.
    anthropic = new Anthropic({ baseURL: service.url, apiKey: created.key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('answers a message with its usage and the routing receipt alongside', async () => {
    const message = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello, Anthropic SDK' }],
    });
    assert.equal(message.type, 'message');
    assert.equal(message.role, 'assistant');
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello, Anthropic SDK' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
    // The SDK's request id is the id of the request's entry in the Space's log, the message's own id.
    assert.equal(message.id, `msg_${message._request_id!.replaceAll('-', '')}`);
    assert.equal(
      (message as unknown as { llm_spaces: { routing: { strategy: string } } }).llm_spaces.routing.strategy,
      'model',
    );
  });

  it("streams with Anthropic's events, so the SDK's stream helper puts the message together", async () => {
    const stream = anthropic.messages.stream({
      model: 'test/echo',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Streamed through the Anthropic SDK' }],
    });
    const pieces: string[] = [];
    stream.on('text', (text) => pieces.push(text));
    const final = await stream.finalMessage();
    assert.ok(pieces.length > 1, 'in pieces');
    assert.equal(pieces.join(''), 'Streamed through the Anthropic SDK');
    assert.deepEqual(final.content, [{ type: 'text', text: 'Streamed through the Anthropic SDK' }]);
    assert.equal(final.stop_reason, 'end_turn');
  });

  it('asks for a tool and answers from its result, whole and streamed', async () => {
    const tools = [
      {
        name: 'lookup',
        // As long as Claude Code's longest (over 10,000 characters in 2.1.332).
        description: `Looks a word up. ${'Say which word, and why. '.repeat(600)}`,
        input_schema: { type: 'object' as const, properties: { word: { type: 'string' } } },
      },
    ];
    const first = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'call lookup {"word":"door"}' }],
    });
    assert.equal(first.stop_reason, 'tool_use');
    const use = first.content.find((b) => b.type === 'tool_use')!;
    assert.ok(use.type === 'tool_use');
    assert.deepEqual([use.name, use.input], ['lookup', { word: 'door' }]);
    const streamed = await anthropic.messages
      .stream({
        model: 'test/echo',
        max_tokens: 100,
        tools,
        messages: [{ role: 'user', content: 'call lookup {"word":"door"}' }],
      })
      .finalMessage();
    assert.deepEqual(
      streamed.content.map((b) => (b.type === 'tool_use' ? [b.name, b.input] : b.type)),
      [['lookup', { word: 'door' }]],
    );
    const second = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'call lookup {"word":"door"}' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'a way in' }] },
      ],
    });
    assert.deepEqual(second.content, [{ type: 'text', text: 'a way in' }]);
  });

  it("answers Claude Code's web search request on a model that cannot search, saying so, and refuses a tool it cannot give", async () => {
    // As Claude Code's WebSearch tool asks: one request with Anthropic's web search, which runs only on
    // Anthropic's models (providers.test.ts), as its web fetch does; and its code execution, which is
    // given to no model.
    const message = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 200,
      system: 'You are an assistant for performing a web search tool use',
      messages: [{ role: 'user', content: 'Perform a web search for the query: gateway' }],
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 8 },
        { type: 'web_fetch_20250910', name: 'web_fetch' },
        { type: 'code_execution_20250825', name: 'code_execution' },
      ],
    });
    assert.deepEqual(message.content, [{ type: 'text', text: 'Perform a web search for the query: gateway' }]);
    const warning = (message as unknown as { llm_spaces: { warning: string | null } }).llm_spaces.warning;
    assert.match(
      warning ?? '',
      /Anthropic's server tools \(code_execution_20250825\) run only at Anthropic, and LLM Spaces does not ask for them, so the model was not given them\./,
    );
    assert.match(
      warning ?? '',
      /Anthropic's web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models \(Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked\), so test\/echo answered without searching\. Anthropic's web fetch runs only on Anthropic's models, so test\/echo answered without reading pages\./,
    );
    // A tool marked custom is a tool like any other; one of Anthropic's that the client runs is refused in words.
    const custom = await anthropic.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'call Read {"path":"a.ts"}' }],
      tools: [
        { type: 'custom', name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
      ],
    });
    assert.equal(custom.content[0]?.type, 'tool_use');
    await assert.rejects(
      anthropic.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'x' }],
        // Its advisor, which has another of Anthropic's models advise this one at Anthropic.
        tools: [{ type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-4-5' } as never],
      }),
      (error: unknown) =>
        error instanceof Anthropic.UnprocessableEntityError &&
        /tools\.0\.type: must be custom, one of Anthropic’s server tools, or its bash, text editor, memory or computer-use tool/.test(
          error.message,
        ),
    );
  });

  it("lists the Space and its models in Anthropic's shape, page by page, and gives one by its id", async () => {
    const seen = [];
    // One a page: the SDK follows has_more and last_id to the end.
    for await (const model of anthropic.models.list({ limit: 1 })) seen.push(model);
    assert.deepEqual(
      seen.map((m) => [m.type, m.id, m.display_name]),
      [
        ['model', 'For the Anthropic SDK', 'Space: For the Anthropic SDK'],
        ['model', 'test/echo', 'test/echo'],
      ],
    );
    assert.ok(seen.every((m) => !Number.isNaN(Date.parse(m.created_at))));
    const echo = await anthropic.models.retrieve('test/echo');
    assert.deepEqual([echo.type, echo.id, echo.display_name], ['model', 'test/echo', 'test/echo']);
    await assert.rejects(
      anthropic.models.retrieve('nobody/nothing'),
      (error: unknown) =>
        error instanceof Anthropic.NotFoundError &&
        (error.error as { error?: { type?: string } }).error?.type === 'not_found_error',
    );
    await assert.rejects(
      anthropic.models.list({ after_id: 'nobody/nothing' }),
      (error: unknown) => error instanceof Anthropic.UnprocessableEntityError && /query\.after_id/.test(error.message),
    );
  });

  it('answers a request as Claude Code sends it: adaptive thinking, an effort, context editing, cache marks, earlier thinking', async () => {
    // The fields of Claude Code 2.1 (beta messages): each of them was refused with a 422 before.
    const history = [
      {
        role: 'user' as const,
        content: [{ type: 'text' as const, text: 'List the files.', cache_control: { type: 'ephemeral' as const } }],
      },
      {
        role: 'assistant' as const,
        content: [
          { type: 'thinking' as const, thinking: 'I should list them.', signature: 'sig' },
          { type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'user' as const,
        content: [
          { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'README.md\nsrc\n'.repeat(200) },
          { type: 'text' as const, text: 'Now say hello.' },
        ],
      },
    ];
    // Streamed, as Claude Code asks.
    const message = await anthropic.beta.messages
      .stream({
        model: 'test/echo',
        max_tokens: 32_000,
        system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
        messages: history,
        tools: [{ name: 'Bash', description: 'Runs a command', input_schema: { type: 'object', properties: {} } }],
        metadata: { user_id: 'user_1_account__session_2' },
        thinking: { type: 'adaptive' },
        output_config: { effort: 'xhigh' },
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
        betas: ['context-management-2025-06-27'],
      } as never)
      .finalMessage();
    assert.deepEqual((message as { content: unknown }).content, [{ type: 'text', text: 'Now say hello.' }]);
    // Clearing the old tool results (keep none of one use) takes the long result out of the prompt.
    const count = (edits: unknown[]) =>
      anthropic.beta.messages.countTokens({
        model: 'test/echo',
        messages: history,
        context_management: { edits },
      } as never);
    const whole = (await count([])).input_tokens;
    const cleared = (
      await count([
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'tool_uses', value: 0 },
          keep: { type: 'tool_uses', value: 0 },
        },
      ])
    ).input_tokens;
    assert.ok(whole > 1000 && cleared < 100, `${whole} tokens, ${cleared} once cleared`);
    // JSON by a schema is asked for in output_config, and refused there by a model that cannot.
    await assert.rejects(
      anthropic.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'x' }],
        output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      }),
      (error: unknown) =>
        error instanceof Anthropic.UnprocessableEntityError &&
        /output_config\.format: test\/echo cannot follow a JSON schema/.test(error.message),
    );
  });

  it('takes a long agent session (1,500 turns, 3 MB) and refuses one over 32 MiB in words', async () => {
    const turns = Array.from({ length: 1500 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `turn ${i}: ${'context '.repeat(250)}`,
    }));
    turns.push({ role: 'user', content: 'And now?' });
    // 1,500 turns cost more than the Space's default policy lets a request (max_cost): lift it.
    await service.client().updateSpace({ id: spaceId, policies: { max_cost: 0 } });
    const message = await anthropic.messages.create({ model: 'test/echo', max_tokens: 100, messages: turns });
    assert.deepEqual(message.content, [{ type: 'text', text: 'And now?' }]);
    await assert.rejects(
      anthropic.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'x'.repeat(33 * 2 ** 20) }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        error.status === 413 &&
        /larger than this endpoint takes \(32 MiB\)/.test(error.message),
    );
  });

  it('counts the input tokens of a request', async () => {
    const counted = await anthropic.messages.countTokens({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
    });
    assert.ok(counted.input_tokens > 3 && counted.input_tokens < 20, String(counted.input_tokens));
    // Its tools are read by the model too (Claude Code's are thousands of tokens): counted with it.
    const withTool = await anthropic.messages.countTokens({
      model: 'test/echo',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
      tools: [
        {
          name: 'Read',
          description: 'Reads a file from the local filesystem, the whole of it or from a line on.',
          input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
        },
      ],
    });
    assert.ok(
      withTool.input_tokens - counted.input_tokens > 20,
      `${counted.input_tokens} then ${withTool.input_tokens}`,
    );
    // Thinking sent back is input the model reads: counted too.
    const turn = (thinking: string) =>
      anthropic.messages.countTokens({
        model: 'test/echo',
        messages: [
          { role: 'user', content: 'Read a.ts' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking, signature: 'sig' },
              { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'the file' }] },
        ],
      });
    const short = (await turn('Read it.')).input_tokens;
    const long = (await turn('I should read the file first, then see what it exports. '.repeat(20))).input_tokens;
    assert.ok(long - short > 150, `${short} then ${long}`);
  });

  it('sums a conversation up when asked (compaction), and reads the summary in place of every turn before it', async () => {
    const conversation: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'user', content: 'Find the bug in cart.ts' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'cart.ts' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const total = 0;' }],
      },
      { role: 'assistant', content: 'The total is never summed.' },
    ];
    const tools = [{ name: 'read_file', input_schema: { type: 'object' as const, properties: {} } }];
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const compacted = await anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 1000,
      system: 'Be brief.',
      tools,
      messages: conversation,
      compaction: { type: 'summarize' },
    });
    // test/echo's summary is what it was asked to sum up: the conversation as a transcript.
    const transcript = [
      'Instructions:\nBe brief.',
      'User:\nFind the bug in cart.ts',
      'Assistant called read_file with {"path":"cart.ts"}',
      'Result of read_file:\nexport const total = 0;',
      'Assistant:\nThe total is never summed.',
    ].join('\n\n');
    assert.deepEqual(compacted.content, [{ type: 'compaction', content: transcript, encrypted_content: null }]);
    assert.equal(compacted.stop_reason, 'compaction');
    assert.deepEqual(
      compacted.usage.iterations?.map((i) => i.type),
      ['compaction'],
    );
    assert.equal((await service.client().getOrganization()).num_requests, requestsBefore + 1);

    // Streamed, the SDK's helper puts the block together and tells of the summary.
    const stream = anthropic.beta.messages.stream({
      model: 'test/echo',
      max_tokens: 1000,
      system: 'Be brief.',
      messages: conversation,
      compaction: { type: 'summarize', instructions: 'Sum it up in one line.' },
    });
    const told: string[] = [];
    stream.on('compaction', (summary) => told.push(summary));
    const streamed = await stream.finalMessage();
    const block = streamed.content[0];
    assert.equal(block?.type, 'compaction');
    assert.equal(block.type === 'compaction' && block.content, transcript);
    assert.deepEqual(told, [block.type === 'compaction' ? block.content : '']);
    assert.equal(streamed.stop_reason, 'compaction');

    // Sent back first, the block stands for every turn before it: the model reads the summary, and what
    // came before it counts for nothing.
    const next: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'assistant', content: compacted.content as Anthropic.Beta.BetaContentBlockParam[] },
      { role: 'user', content: 'Go on.' },
    ];
    const answered = await anthropic.beta.messages.create({ model: 'test/echo', max_tokens: 100, messages: next });
    assert.deepEqual(answered.content, [{ type: 'text', text: 'Go on.' }]);
    const count = (messages: Anthropic.Beta.BetaMessageParam[]) =>
      anthropic.beta.messages.countTokens({ model: 'test/echo', messages }).then((c) => c.input_tokens);
    const summed = await count(next);
    assert.equal(await count([...conversation, ...next]), summed);
    assert.ok(summed > (await count([{ role: 'user', content: 'Go on.' }])) + 20, 'the summary is read');
    // A compaction that failed (no summary) stands for nothing.
    const failed: Anthropic.Beta.BetaMessageParam = {
      role: 'assistant',
      content: [{ type: 'compaction', content: null }],
    };
    assert.equal(await count([...conversation, failed, next[1]!]), await count([...conversation, next[1]!]));

    const refused = (body: Record<string, unknown>, pattern: RegExp) =>
      assert.rejects(
        anthropic.beta.messages.create({
          model: 'test/echo',
          max_tokens: 100,
          messages: conversation,
          ...body,
        } as never),
        (error: unknown) => error instanceof Anthropic.APIError && error.status === 422 && pattern.test(error.message),
      );
    await refused(
      {
        compaction: { type: 'summarize' },
        context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
      },
      /compaction: cannot be sent with context_management: a compaction request gives the summary alone/,
    );
    await refused(
      { compaction: { type: 'summarize' }, stop_sequences: ['END'] },
      /stop_sequences: shapes a reply, and a request with compaction gives the summary alone/,
    );
    await refused(
      { messages: [{ role: 'user', content: [{ type: 'compaction', content: 'A summary.' }] }] },
      /messages\.0\.content\.0: is a compaction, which only an assistant turn carries/,
    );
    await refused(
      { context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1000 } }] } },
      /trigger\.value: must be at least 50,000 input tokens/,
    );
  });

  it("compacts through the SDK's tool runner on its thread (compactBeforeNextTurn), which goes on from the summary", async () => {
    const runner = anthropic.beta.messages.toolRunner({
      model: 'test/echo',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'call lookup {"word":"door"}' }],
      tools: [lookup],
    });
    const seen: string[][] = [];
    for await (const message of runner) {
      seen.push(message.content.map((b) => b.type));
      // After the turn that answers from the tool's result, the conversation is summed up.
      if (message.stop_reason === 'end_turn' && seen.length === 2) runner.compactBeforeNextTurn();
    }
    assert.deepEqual(seen, [['tool_use'], ['text'], ['compaction']]);
    // The runner puts the summary in place of the conversation it sums up, and goes on from it.
    const history = runner.params.messages;
    assert.equal(history.length, 1);
    const [summary] = history[0]!.content as Anthropic.Beta.BetaContentBlockParam[];
    assert.equal(summary?.type, 'compaction');
    assert.match(
      String(summary?.type === 'compaction' && summary.content),
      /^User:\ncall lookup \{"word":"door"\}\n\nAssistant called lookup with \{"word":"door"\}\n\nResult of lookup:\ndoor: a way in/,
    );
    runner.pushMessages({ role: 'user', content: 'Go on.' });
    const next = await anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      messages: runner.params.messages,
    });
    assert.deepEqual(next.content, [{ type: 'text', text: 'Go on.' }]);
  });

  it('compacts a conversation past its compact_20260112 trigger before the reply, which goes on from the summary', async () => {
    // A file read whose text is over 50,000 tokens, the least trigger Anthropic takes.
    const file = Array.from({ length: 12_000 }, (_, i) => `line ${i}: total += price;`).join('\n');
    const conversation: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'user', content: 'Find the bug in cart.ts' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'cart.ts' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: file }] },
    ];
    const edit = { type: 'compact_20260112' as const, trigger: { type: 'input_tokens' as const, value: 50_000 } };
    const ask = (more: Record<string, unknown>) => ({
      model: 'test/echo',
      max_tokens: 200,
      system: 'Be brief.',
      messages: conversation,
      context_management: { edits: [edit] },
      betas: ['compact-2026-01-12'],
      ...more,
    });
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const message = await anthropic.beta.messages.create(ask({}) as never);
    const content = (message as Anthropic.Beta.BetaMessage).content;
    assert.deepEqual(
      content.map((b) => b.type),
      ['compaction', 'text'],
    );
    const summary = content[0]!.type === 'compaction' ? content[0].content! : '';
    assert.match(
      summary,
      /^Instructions:\nBe brief\.\n\nUser:\nFind the bug in cart\.ts\n\nAssistant called read_file/,
    );
    // test/echo answers the last message it reads: the summary, in place of the conversation.
    const text = content[1]!.type === 'text' ? content[1].text : '';
    assert.match(text, /^A summary of the conversation so far, written when it was compacted:\n\nInstructions:/);
    const usage = (message as Anthropic.Beta.BetaMessage).usage;
    assert.deepEqual(
      usage.iterations?.map((i) => i.type),
      ['compaction', 'message'],
    );
    assert.equal(usage.iterations?.[1]?.output_tokens, usage.output_tokens, "the reply's own usage at the top");
    const receipt = (message as unknown as { llm_spaces: { warning: string | null } }).llm_spaces;
    assert.match(receipt.warning ?? '', /passed its compaction threshold \(50,000\), so test\/echo summed it up first/);
    assert.equal(
      (await service.client().getOrganization()).num_requests,
      requestsBefore + 2,
      'the summing up is logged and counted as a request of its own',
    );

    // Streamed: the compaction block first, whole, then the reply.
    const streamed = await anthropic.beta.messages.stream(ask({}) as never).finalMessage();
    assert.deepEqual(
      streamed.content.map((b) => b.type),
      ['compaction', 'text'],
    );
    const first = streamed.content[0]!;
    assert.equal(first.type === 'compaction' && first.content, summary);

    // Paused after compaction, the answer is the summary alone.
    const paused = (await anthropic.beta.messages.create(
      ask({ context_management: { edits: [{ ...edit, pause_after_compaction: true }] } }) as never,
    )) as Anthropic.Beta.BetaMessage;
    assert.deepEqual(
      paused.content.map((b) => b.type),
      ['compaction'],
    );
    assert.equal(paused.stop_reason, 'compaction');

    // Under its trigger, a conversation is not summed up.
    const short = (await anthropic.beta.messages.create(
      ask({ messages: conversation.slice(0, 1) }) as never,
    )) as Anthropic.Beta.BetaMessage;
    assert.deepEqual(short.content, [{ type: 'text', text: 'Find the bug in cart.ts' }]);
  });

  /** The SDK with a Space's key, and the bodies of the requests it sends, in order. */
  function watchedAnthropic(key: string) {
    const sent: Array<Record<string, unknown>> = [];
    const client = new Anthropic({
      baseURL: service.url,
      apiKey: key,
      maxRetries: 0,
      fetch: (url, init) => {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return fetch(url, init);
      },
    });
    return { client, sent };
  }

  it("holds a conversation as a message thread (the SDK's thread helper, streamed, and its tool runner): each turn sends only its new messages", async () => {
    const { client: watched, sent } = watchedAnthropic(spaceKey);
    const thread = watched.beta.messages.thread({
      model: 'test/echo',
      max_tokens: 200,
      system: 'Be brief.',
      tools: [lookup],
      // Anthropic's automatic caching, as its guide to threads sends it each turn.
      cache_control: { type: 'ephemeral' },
    });
    const first = await thread.send({ role: 'user', content: 'Hello' });
    assert.deepEqual(sent[0]!.thread, { type: 'create' });
    assert.equal(sent[0]!.system, 'Be brief.');
    const second = await thread.send({ role: 'user', content: 'Again' });
    // Only the new message goes, with the reply it follows; the thread holds the rest and the system prompt.
    assert.deepEqual(sent[1]!.thread, { type: 'continue', previous_message_id: first.id });
    assert.deepEqual(sent[1]!.messages, [{ role: 'user', content: 'Again' }]);
    assert.equal(sent[1]!.system, undefined);
    assert.equal(sent[1]!.tools, undefined);
    assert.deepEqual(second.content, [{ type: 'text', text: 'Again' }]);
    // The model read the whole conversation, as if it had been sent whole.
    const whole = await anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 200,
      system: 'Be brief.',
      tools: [{ name: 'lookup', description: 'Looks a word up.', input_schema: LOOKUP_SCHEMA }],
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: first.content as Anthropic.Beta.BetaContentBlockParam[] },
        { role: 'user', content: 'Again' },
      ],
    });
    assert.equal(second.usage.input_tokens, whole.usage.input_tokens);
    assert.ok(second.usage.input_tokens > first.usage.input_tokens);

    // Streamed, the reply is held as well: the next turn continues from it.
    const streamed = await thread.stream({ role: 'user', content: 'Streamed' }).finalMessage();
    const third = await thread.send({ role: 'user', content: 'After the stream' });
    assert.deepEqual(sent.at(-1)!.thread, { type: 'continue', previous_message_id: streamed.id });
    assert.deepEqual(third.content, [{ type: 'text', text: 'After the stream' }]);

    // The tool runner runs on a thread unless told otherwise: its second turn sends the tool's result alone.
    const before = sent.length;
    const runner = watched.beta.messages.toolRunner({
      model: 'test/echo',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'call lookup {"word":"door"}' }],
      tools: [lookup],
    });
    const seen: string[][] = [];
    for await (const message of runner) seen.push(message.content.map((b) => b.type));
    assert.deepEqual(seen, [['tool_use'], ['text']]);
    const [created, continued] = sent.slice(before);
    assert.deepEqual(created!.thread, { type: 'create' });
    assert.equal((continued!.thread as { type: string }).type, 'continue');
    const results = continued!.messages as Array<{ role: string; content: Array<{ type: string }> }>;
    assert.deepEqual(
      results.map((m) => [m.role, m.content.map((b) => b.type)]),
      [['user', ['tool_result']]],
    );
  });

  it("changes a thread's tools with a system message's tool_addition and tool_removal, as the SDK's thread helper says to", async () => {
    const lookupTool = { name: 'lookup', description: 'Looks a word up.', input_schema: LOOKUP_SCHEMA };
    const created = await anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      thread: { type: 'create' },
      tools: [lookupTool],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const continued = (previous: string, change: Anthropic.Beta.BetaSystemMessageParam['content'], ask: string) =>
      anthropic.beta.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        thread: { type: 'continue', previous_message_id: previous },
        messages: [
          { role: 'system', content: change },
          { role: 'user', content: ask },
        ],
      });
    const swapped = await continued(
      created.id,
      [
        { type: 'tool_removal', tool: { type: 'tool_reference', name: 'lookup' } },
        { type: 'tool_addition', tool: { type: 'tool_definition', definition: { ...lookupTool, name: 'translate' } } },
      ],
      'call translate {"word":"door"}',
    );
    assert.deepEqual(
      swapped.content.map((b) => (b.type === 'tool_use' ? b.name : b.type)),
      ['translate'],
    );
    // The thread holds the change: lookup is withdrawn in the next turn too, so test/echo cannot call it.
    const withdrawn = await continued(swapped.id, 'Still here.', 'call lookup {"word":"door"}');
    assert.deepEqual(
      withdrawn.content.map((b) => b.type),
      ['text'],
    );
    // An MCP server's toolset is given in the request's tools, not changed mid-conversation: refused in words.
    await assert.rejects(
      continued(
        withdrawn.id,
        [{ type: 'tool_removal', tool: { type: 'mcp_toolset_reference', server_name: 'docs' } }],
        'Hi',
      ),
      (error: unknown) =>
        error instanceof Anthropic.APIError && /toolset is given in tools, not here/.test(error.message),
    );
  });

  it("refuses a continue it cannot serve with Anthropic's thread error codes; the SDK's helper then sends the whole conversation again", async () => {
    const turn = (thread: Anthropic.Beta.BetaMessageThreadParam, content = 'Hi') =>
      anthropic.beta.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        thread,
        messages: [{ role: 'user', content }],
      });
    const codeOf = (error: unknown) =>
      (error as { error?: { error?: { details?: { error_code?: string; unsupported?: string[] } } } }).error?.error
        ?.details;
    const refused = async (sending: Promise<unknown>, status: number, code: string) => {
      const error = await sending.then(
        () => assert.fail('not refused'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof Anthropic.APIError && error.status === status, String(error));
      assert.equal(codeOf(error)?.error_code, code);
      return error;
    };
    const gone = await refused(turn({ type: 'continue', previous_message_id: 'msg_none' }), 404, 'thread_not_found');
    assert.match(gone.message, /No thread holds the reply msg_none in this Space/);
    const created = await turn({ type: 'create' });
    await turn({ type: 'continue', previous_message_id: created.id }, 'Once');
    const twice = await refused(
      turn({ type: 'continue', previous_message_id: created.id }, 'Twice'),
      400,
      'thread_already_continued',
    );
    assert.match(twice.message, /was continued already/);
    const edits = await refused(
      anthropic.beta.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        thread: { type: 'create' },
        context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
        messages: [{ role: 'user', content: 'Hi' }],
      }),
      400,
      'thread_unsupported_request',
    );
    assert.deepEqual(codeOf(edits)?.unsupported, ['context_management']);
    await refused(
      anthropic.beta.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        system: 'Changed.',
        thread: { type: 'continue', previous_message_id: (await turn({ type: 'create' })).id },
        messages: [{ role: 'user', content: 'Hi' }],
      }),
      400,
      'thread_fingerprint_mismatch',
    );

    // A Space whose privacy level keeps no text holds no thread: the helper is told the thread is gone,
    // sends the whole conversation again, and the conversation goes on.
    const { id, key } = await echoSpace(service, 'Keeps no text');
    await service.client().updateSpace({ id, policies: { privacy_level: 2 } });
    const { client: keepsNoText, sent } = watchedAnthropic(key);
    const thread = keepsNoText.beta.messages.thread({ model: 'test/echo', max_tokens: 100 });
    await thread.send({ role: 'user', content: 'One' });
    const reply = await thread.send({ role: 'user', content: 'Two' });
    assert.deepEqual(reply.content, [{ type: 'text', text: 'Two' }]);
    assert.deepEqual(
      sent.map((body) => [(body.thread as { type: string }).type, (body.messages as unknown[]).length]),
      [
        ['create', 1],
        ['continue', 1],
        ['create', 3],
      ],
    );
  });

  it('tells a request that asks why the prompt cache missed: another model of the Space, another system prompt, an earlier message changed', async () => {
    const { key } = await spaceOf(service, 'Cache diagnostics', ['test/echo', 'test/lorem']);
    const client = new Anthropic({ baseURL: service.url, apiKey: key, maxRetries: 0 });
    const conversation: Anthropic.MessageParam[] = [{ role: 'user', content: 'Where is the router?' }];
    const first = await client.messages.create({
      model: 'test/echo',
      max_tokens: 100,
      system: 'Be brief.',
      messages: conversation,
      diagnostics: { previous_message_id: null },
    });
    // Asked with no reply to compare, nothing is in the way.
    assert.equal(first.diagnostics, null);
    conversation.push({ role: 'assistant', content: first.content }, { role: 'user', content: 'And its tests?' });
    const next = (fields: Partial<Anthropic.MessageCreateParamsNonStreaming>, previous = first.id) =>
      client.messages.create({
        model: 'test/echo',
        max_tokens: 100,
        system: 'Be brief.',
        messages: conversation,
        diagnostics: { previous_message_id: previous },
        ...fields,
      });
    assert.equal((await next({})).diagnostics, null);
    const moved = (await next({ model: 'test/lorem' })).diagnostics?.cache_miss_reason;
    assert.equal(moved?.type, 'model_changed');
    assert.equal((moved as Anthropic.CacheMissModelChanged).cache_missed_input_tokens, first.usage.input_tokens);
    assert.equal((await next({ system: 'Be thorough.' })).diagnostics?.cache_miss_reason?.type, 'system_changed');
    const edited = [{ role: 'user' as const, content: 'Where is the gateway?' }, ...conversation.slice(1)];
    assert.equal((await next({ messages: edited })).diagnostics?.cache_miss_reason?.type, 'messages_changed');
    assert.deepEqual((await next({}, 'msg_unknown')).diagnostics?.cache_miss_reason, {
      type: 'previous_message_not_found',
    });
    // Streamed, the diagnosis comes with the message's start, and the stream's reply is kept to compare.
    const stream = client.messages.stream({
      model: 'test/lorem',
      max_tokens: 100,
      system: 'Be brief.',
      messages: conversation,
      diagnostics: { previous_message_id: first.id },
    });
    const streamed = await stream.finalMessage();
    assert.equal(streamed.diagnostics?.cache_miss_reason?.type, 'model_changed');
    assert.equal((await next({ model: 'test/lorem' }, streamed.id)).diagnostics, null);
    // A request that does not ask is told nothing.
    const unasked = await client.messages.create({ model: 'test/echo', max_tokens: 100, messages: conversation });
    assert.equal('diagnostics' in unasked, false);
  });

  it("answers an API it does not serve (message batches) in Anthropic's shape, saying what it serves", async () => {
    await assert.rejects(
      anthropic.messages.batches.list(),
      (error: unknown) =>
        error instanceof Anthropic.NotFoundError &&
        (error.error as { error?: { type?: string } }).error?.type === 'not_found_error' &&
        /does not serve GET \/v1\/messages\/batches\. Through a Space/.test(error.message),
    );
    await assert.rejects(
      anthropic.post('/v1/models'),
      (error: unknown) =>
        error instanceof Anthropic.APIError &&
        error.status === 405 &&
        (error.error as { type?: string }).type === 'error' &&
        /POST \/v1\/models is not served: use GET/.test(error.message),
      'a path of both vendors, asked with the wrong method by Anthropic\u2019s client',
    );
  });

  it("answers errors in Anthropic's shape, with their words", async () => {
    const badKey = new Anthropic({ baseURL: service.url, apiKey: 'lls_not_a_key', maxRetries: 0 });
    await assert.rejects(
      badKey.messages.create({ model: 'test/echo', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
      (error: unknown) => error instanceof Anthropic.AuthenticationError && /Invalid token/.test(error.message),
    );
    await assert.rejects(
      anthropic.messages.create({
        model: 'nobody/nothing',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.UnprocessableEntityError &&
        (error.error as { error?: { type?: string } }).error?.type === 'invalid_request_error' &&
        // The SDK's message carries the error as JSON (quotes escaped).
        /Unknown model \\?"nobody\/nothing\\?"/.test(error.message),
    );
    // The standard capacity and speed are taken as asked (auto has no priority capacity here); fast mode,
    // which costs more than the catalogue lists, is refused by name.
    const sent = { model: 'test/echo', max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
    const standard = await anthropic.messages.create({ ...sent, service_tier: 'auto', speed: 'standard' });
    assert.deepEqual(standard.content, [{ type: 'text', text: 'x' }]);
    await assert.rejects(
      anthropic.messages.create({ ...sent, speed: 'fast' }),
      (error: unknown) =>
        error instanceof Anthropic.UnprocessableEntityError && /speed: only standard is supported/.test(error.message),
    );
    // A model Anthropic retired (Claude Sonnet 4.5, on 30 November 2026) is refused with its line's
    // successor, named as the client named the model.
    await assert.rejects(
      anthropic.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      }),
      (error: unknown) =>
        error instanceof Anthropic.UnprocessableEntityError &&
        /anthropic\/claude-sonnet-4-5 was retired on 30 Nov 2026 and is no longer served: ask for claude-sonnet-4-6 instead/.test(
          error.message,
        ),
    );
  });
});
