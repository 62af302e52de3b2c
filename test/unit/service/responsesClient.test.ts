// The official OpenAI SDK's Responses API against the built-in service's /v1/responses, as Codex CLI
// or a script would use it with a Space key: create, the stream() helper and its events, a function
// call and its output sent back, JSON by text.format, errors with their words, and the receipt; a kept
// response read back, its input items listed, and deleted.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ChatMetadata } from '../../../src/api/schemas';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';

describe("the OpenAI SDK's Responses API against the built-in service", function () {
  this.timeout(60_000);
  let service: RunningService;
  let openai: OpenAI;

  before(async () => {
    service = await startService();
    const created = await echoSpace(service, 'For Responses');
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: created.key, maxRetries: 0 });
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  it('creates a response dated in seconds, with its output text, usage, and the routing receipt as llm_spaces', async () => {
    const before = Math.floor(Date.now() / 1000);
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const response = await openai.responses.create({
      instructions: 'Be brief.',
      input: 'Hello, Responses',
      max_output_tokens: 50,
      metadata: { ticket: '42' },
    });
    assert.equal(response.object, 'response');
    assert.equal(response.status, 'completed');
    assert.equal(response.output_text, 'Hello, Responses');
    assert.equal(response.model, 'test/echo', 'no model: the Space routed');
    assert.ok(response.created_at >= before - 1 && response.created_at <= before + 60, 'created_at is in seconds');
    assert.deepEqual(response.metadata, { ticket: '42' }, "the caller's metadata is echoed");
    assert.equal(response.usage!.input_tokens_details.cached_tokens, 0);
    assert.equal(response.usage!.total_tokens, response.usage!.input_tokens + response.usage!.output_tokens);
    const receipt = (response as unknown as { llm_spaces: ChatMetadata }).llm_spaces;
    assert.equal(receipt.routing!.strategy, 'routed');
    assert.deepEqual(
      receipt.routing!.attempts.map((a) => a.namespace),
      ['test/echo'],
    );
    const organization = await service.client().getOrganization();
    assert.equal(organization.num_requests, requestsBefore + 1, 'the request is logged and counted like any other');
  });

  it("streams the Responses events in order, which the SDK's stream() helper puts together", async () => {
    const stream = openai.responses.stream({ model: 'test/echo', input: 'Streamed, piece by piece' });
    const types: string[] = [];
    let text = '';
    stream.on('event', (event) => types.push(event.type));
    stream.on('response.output_text.delta', (event) => (text += event.delta));
    const final = await stream.finalResponse();
    assert.equal(text, 'Streamed, piece by piece');
    assert.equal(final.output_text, 'Streamed, piece by piece');
    assert.equal(types[0], 'response.created');
    assert.equal(types.at(-1), 'response.completed');
    for (const type of ['response.output_item.added', 'response.output_text.done', 'response.output_item.done'])
      assert.ok(types.includes(type), `${type} is sent`);
  });

  it('asks for a function, and answers from its output when the client sends it back', async () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'lookup',
        description: 'Looks a word up',
        parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
        strict: false,
      },
    ];
    const asked = await openai.responses.create({
      model: 'test/echo',
      input: 'call lookup {"word":"gateway"}',
      tools,
    });
    const call = asked.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call', 'the model asks for the function');
    assert.equal(call.name, 'lookup');
    assert.deepEqual(JSON.parse(call.arguments), { word: 'gateway' });

    const streamed = openai.responses.stream({
      model: 'test/echo',
      input: [
        { role: 'user', content: 'call lookup {"word":"gateway"}' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'a door every tool goes through' },
      ],
      tools,
    });
    const answer = await streamed.finalResponse();
    assert.equal(answer.output_text, 'a door every tool goes through', "test/echo answers with the function's output");
  });

  it("gives Codex's custom tool (apply_patch) as a function of its text, and its web search to no model but OpenAI's and Anthropic's, saying so", async () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch\n';
    // As Codex offers its tools: apply_patch as free text following a grammar, OpenAI's web search, a
    // function; and a tool that runs only at OpenAI (its file search).
    const tools = [
      {
        type: 'custom' as const,
        name: 'apply_patch',
        description: 'Edits files with a patch.',
        format: { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: begin_patch hunk+ end_patch' },
      },
      { type: 'web_search' as const, external_web_access: false },
      { type: 'file_search' as const, vector_store_ids: ['vs_1'] },
      {
        type: 'function' as const,
        name: 'exec_command',
        parameters: { type: 'object', properties: {} },
        strict: false,
      },
    ];
    const ask = `call apply_patch ${JSON.stringify({ input: patch })}`;
    const asked = await openai.responses.create({ model: 'test/echo', input: ask, tools: tools as never });
    const call = asked.output.find((item) => item.type === 'custom_tool_call');
    assert.ok(call && call.type === 'custom_tool_call', JSON.stringify(asked.output));
    assert.deepEqual([call.name, call.input], ['apply_patch', patch], 'the text itself, not a JSON of it');
    assert.deepEqual(
      (asked.tools as Array<{ type: string }>).map((t) => t.type),
      ['custom', 'web_search', 'file_search', 'function'],
      'echoed as asked',
    );
    const receipt = (asked as unknown as { llm_spaces: ChatMetadata }).llm_spaces;
    assert.match(
      receipt.warning ?? '',
      /OpenAI's web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models \(Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked\), so test\/echo answered without searching\./,
    );
    assert.match(
      receipt.warning ?? '',
      /OpenAI's hosted tools \(file_search\) run only at OpenAI, and LLM Spaces does not ask for them, so the model was not given them\./,
    );

    // Streamed, its input comes as custom_tool_call_input events, which the SDK puts together.
    const stream = openai.responses.stream({ model: 'test/echo', input: ask, tools: tools as never });
    let streamedInput = '';
    stream.on('response.custom_tool_call_input.delta', (event) => (streamedInput += event.delta));
    const final = await stream.finalResponse();
    const streamedCall = final.output.find((item) => item.type === 'custom_tool_call');
    assert.deepEqual([streamedInput, streamedCall && 'input' in streamedCall && streamedCall.input], [patch, patch]);

    // The call and its output sent back, as Codex sends the next turn.
    const answer = await openai.responses.create({
      model: 'test/echo',
      tools: tools as never,
      input: [
        { role: 'user', content: ask },
        { type: 'custom_tool_call', call_id: call.call_id, name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Success. Updated hello.txt' },
      ],
    });
    assert.equal(answer.output_text, 'Success. Updated hello.txt', "test/echo answers with the tool's output");
  });

  it("gives a namespace's tools (an MCP server's, as Codex groups them) and answers their calls under it", async () => {
    const tools = [
      {
        type: 'namespace',
        name: 'mcp__calendar',
        description: 'Tools of the calendar server.',
        tools: [
          {
            type: 'function',
            name: 'create_event',
            parameters: { type: 'object', properties: { title: { type: 'string' } } },
          },
          { type: 'custom', name: 'raw_query' },
        ],
      },
    ];
    const asked = await openai.responses.create({
      model: 'test/echo',
      input: 'call mcp__calendar__create_event {"title":"Review"}',
      tools: tools as never,
    });
    const call = asked.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call', JSON.stringify(asked.output));
    assert.deepEqual(
      [call.namespace, call.name, JSON.parse(call.arguments)],
      ['mcp__calendar', 'create_event', { title: 'Review' }],
    );
    const custom = await openai.responses.create({
      model: 'test/echo',
      input: 'call mcp__calendar__raw_query {"input":"SELECT 1"}',
      tools: tools as never,
    });
    const raw = custom.output.find((item) => item.type === 'custom_tool_call');
    assert.ok(raw && raw.type === 'custom_tool_call', JSON.stringify(custom.output));
    assert.deepEqual([raw.namespace, raw.name, raw.input], ['mcp__calendar', 'raw_query', 'SELECT 1']);
    // Sent back under its namespace, the call is the one the model made.
    const answer = await openai.responses.create({
      model: 'test/echo',
      tools: tools as never,
      input: [
        { role: 'user', content: 'call mcp__calendar__create_event {"title":"Review"}' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'Created.' },
      ],
    });
    assert.equal(answer.output_text, 'Created.');
  });

  it("runs a client's tool search (as Codex offers it): its call comes back as such, and the tools it loads can be called", async () => {
    const toolSearch = {
      type: 'tool_search',
      execution: 'client',
      description: 'Searches the deferred tools.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    };
    const tools = [toolSearch, { type: 'function', name: 'exec_command', parameters: { type: 'object' } }];
    const ask = 'call tool_search {"query":"calendar"}';
    const asked = await openai.responses.create({ model: 'test/echo', input: ask, tools: tools as never });
    const call = asked.output.find((item) => item.type === 'tool_search_call');
    assert.ok(call && call.type === 'tool_search_call', JSON.stringify(asked.output));
    assert.deepEqual([call.execution, call.status, call.arguments], ['client', 'completed', { query: 'calendar' }]);
    assert.ok(call.call_id);
    // Streamed, the call is an item of its own, added then done.
    const stream = openai.responses.stream({ model: 'test/echo', input: ask, tools: tools as never });
    const added: string[] = [];
    stream.on('response.output_item.added', (event) => added.push(event.item.type));
    const streamed = (await stream.finalResponse()).output.find((item) => item.type === 'tool_search_call');
    assert.deepEqual(added, ['tool_search_call']);
    assert.deepEqual(streamed && streamed.type === 'tool_search_call' && streamed.arguments, { query: 'calendar' });

    // The client's search found a namespace of tools: the model is told so, then may call them (test/echo
    // answers with the tool's output, and calls what the text asks when it was given that tool).
    const found = {
      type: 'tool_search_output',
      call_id: call.call_id,
      execution: 'client',
      status: 'completed',
      tools: [
        {
          type: 'namespace',
          name: 'mcp__calendar',
          description: 'Tools of the calendar server.',
          tools: [{ type: 'function', name: 'create_event', parameters: { type: 'object' }, defer_loading: true }],
        },
      ],
    };
    const history = [{ role: 'user', content: ask }, call, found];
    const told = await openai.responses.create({ model: 'test/echo', tools: tools as never, input: history as never });
    assert.equal(told.output_text, 'These tools are loaded and can be called now: mcp__calendar__create_event.');
    const next = await openai.responses.create({
      model: 'test/echo',
      tools: tools as never,
      input: [...history, { role: 'user', content: 'call mcp__calendar__create_event {"title":"Review"}' }] as never,
    });
    const created = next.output.find((item) => item.type === 'function_call');
    assert.ok(created && created.type === 'function_call', JSON.stringify(next.output));
    assert.deepEqual([created.namespace, created.name], ['mcp__calendar', 'create_event']);
    // Before the search loaded it, the model had no such tool: test/echo only echoes.
    const before = await openai.responses.create({
      model: 'test/echo',
      tools: tools as never,
      input: 'call mcp__calendar__create_event {"title":"Review"}',
    });
    assert.equal(before.output_text, 'call mcp__calendar__create_event {"title":"Review"}');
  });

  it("shows a model that cannot run OpenAI's own tool search every tool, deferred or not, and says so", async () => {
    const deferred = { type: 'function', name: 'get_weather', parameters: { type: 'object' }, defer_loading: true };
    const response = await openai.responses.create({
      model: 'test/echo',
      input: 'call get_weather {"city":"Oslo"}',
      tools: [{ type: 'tool_search' }, deferred] as never,
    });
    const call = response.output.find((item) => item.type === 'function_call');
    assert.deepEqual([call?.name, call?.arguments], ['get_weather', '{"city":"Oslo"}']);
    assert.equal(
      (response as unknown as { llm_spaces: ChatMetadata }).llm_spaces.warning,
      "OpenAI's tool search runs only on OpenAI's models from GPT-5.4 on, and as Anthropic's own on Claude 4.5 and later at Anthropic when a tool is not deferred, so test/echo was shown every tool.",
    );
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        input: [
          { role: 'user', content: 'Hello' },
          { type: 'tool_search_output', call_id: 'c1', execution: 'client', tools: [{ type: 'web_search' }] },
        ] as never,
      }),
      (error: InstanceType<typeof OpenAI.APIError>) =>
        error.status === 422 && /must be a function, a custom tool or a namespace of them/.test(error.message),
    );
  });

  it('writes JSON when text.format asks for an object', async () => {
    const response = await openai.responses.create({
      model: 'test/echo',
      input: 'As JSON',
      text: { format: { type: 'json_object' } },
    });
    assert.deepEqual(JSON.parse(response.output_text), { text: 'As JSON' });
  });

  it('takes what Codex sends with each turn: a prompt cache key, verbosity, the service tier, no storing', async () => {
    // Fields this SDK version does not type yet, which Codex sends: Codex 0.171 says of each turn, in
    // JSON, the workspace it runs in (774 characters in a run here).
    const turnMetadata = JSON.stringify({
      turn_id: 'a'.repeat(36),
      workspaces: { '/work': { remote: 'x'.repeat(700) } },
    });
    const codexOnly: Record<string, unknown> = {
      client_metadata: { 'x-codex-turn': '1', 'x-codex-turn-metadata': turnMetadata },
    };
    const response = await openai.responses.create({
      ...codexOnly,
      model: 'test/echo',
      instructions: 'You are a coding agent.',
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: 'Ask before running commands.' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Fix the build.' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Runs a command.',
          strict: false,
          parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
        },
      ],
      tool_choice: 'auto',
      prompt_cache_key: 'codex-session-1',
      text: { verbosity: 'low' },
      service_tier: 'auto',
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
      parallel_tool_calls: false,
    });
    assert.equal(response.output_text, 'Fix the build.');
    // Echoed as asked, as OpenAI's responses do.
    assert.deepEqual(
      [response.parallel_tool_calls, response.prompt_cache_key, response.text?.verbosity, response.service_tier],
      [false, 'codex-session-1', 'low', 'default'],
    );
  });

  it("keeps a response's output items for an item_reference, as OpenAI's SDKs send them back, in its Space only", async () => {
    const first = await openai.responses.create({ model: 'test/echo', input: 'Remember the word teal.' });
    // This SDK does not type `store`, which OpenAI's responses echo.
    assert.equal((first as unknown as { store: boolean }).store, true, 'kept, as OpenAI keeps by default');
    const message = first.output.find((o) => o.type === 'message')!;
    const turn = (earlier: OpenAI.Responses.ResponseInputItem) =>
      openai.responses.create({
        model: 'test/echo',
        input: [
          { role: 'user', content: 'Remember the word teal.' },
          earlier,
          { role: 'user', content: 'Which word?' },
        ],
      });
    const referred = await turn({ type: 'item_reference', id: message.id });
    assert.equal(referred.output_text, 'Which word?');
    // The item the reference names reaches the model whole: the prompt is what it is with the item itself.
    const sent = await turn(message as OpenAI.Responses.ResponseInputItem);
    assert.equal(referred.usage!.input_tokens, sent.usage!.input_tokens);
    assert.ok(referred.usage!.input_tokens > first.usage!.input_tokens + 5);

    const refused = (id: string, client = openai) =>
      assert.rejects(
        client.responses.create({ model: 'test/echo', input: [{ type: 'item_reference', id }] }),
        (error: unknown) =>
          error instanceof OpenAI.UnprocessableEntityError &&
          error.param === 'input.0' &&
          error.message.includes(`names ${id}, an item this Space does not keep`) &&
          /send the item itself/.test(error.message),
      );
    await refused('msg_nothing_here');
    // Not kept: a request that says store false, and a Space whose privacy level keeps no text.
    const unstored = await openai.responses.create({ model: 'test/echo', input: 'Forget this.', store: false });
    assert.equal((unstored as unknown as { store: boolean }).store, false);
    await refused(unstored.output[0]!.id!);
    const privateSpace = await echoSpace(service, 'Keeps no text');
    await service.client().updateSpace({ id: privateSpace.id, policies: { privacy_level: 2 } });
    const privateClient = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: privateSpace.key, maxRetries: 0 });
    const unkept = await privateClient.responses.create({ model: 'test/echo', input: 'Private words.' });
    await refused(unkept.output[0]!.id!, privateClient);
    // Another Space does not see this one's items.
    const other = await echoSpace(service, 'Another Space');
    await refused(message.id, new OpenAI({ baseURL: `${service.url}/v1`, apiKey: other.key, maxRetries: 0 }));
  });

  it('continues a kept response by previous_response_id: the earlier input and output come before the new input', async () => {
    const first = await openai.responses.create({
      model: 'test/echo',
      instructions: 'Be brief.',
      input: 'My name is Ada.',
    });
    const second = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: first.id,
      input: [{ role: 'user', content: 'What is my name?' }],
    });
    assert.equal(second.output_text, 'What is my name?');
    assert.equal(second.previous_response_id, first.id);
    // Streamed, a third turn continues the second, so the chain is read back two responses deep.
    const third = await openai.responses
      .stream({ model: 'test/echo', previous_response_id: second.id, input: 'And my age?' })
      .finalResponse();
    assert.equal(third.output_text, 'And my age?');
    // The model reads what it would with the whole conversation sent (instructions are not carried over).
    const message = (r: OpenAI.Responses.Response) =>
      r.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseInputItem;
    const whole = await openai.responses.create({
      model: 'test/echo',
      input: [
        { role: 'user', content: 'My name is Ada.' },
        message(first),
        { role: 'user', content: 'What is my name?' },
        message(second),
        { role: 'user', content: 'And my age?' },
      ],
    });
    assert.equal(third.usage!.input_tokens, whole.usage!.input_tokens);
    assert.ok(third.usage!.input_tokens > second.usage!.input_tokens);
    // A fault in the new input is named by its place there, not after the items it continues.
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        previous_response_id: third.id,
        input: [
          { role: 'user', content: 'Think again.' },
          { type: 'reasoning', id: 'rs_forged', summary: [], encrypted_content: 'llm-spaces.thinking.1.Zm9yZ2Vk' },
        ],
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'input.1.encrypted_content' &&
        /is not reasoning this service gave/.test(error.message),
    );

    const refused = (previous: string, client = openai) =>
      assert.rejects(
        client.responses.create({ model: 'test/echo', previous_response_id: previous, input: 'Next.' }),
        (error: unknown) =>
          error instanceof OpenAI.UnprocessableEntityError &&
          error.param === 'previous_response_id' &&
          error.message.includes(`names ${previous}, a response this Space does not keep`) &&
          /send the earlier items in input/.test(error.message),
      );
    await refused('resp_nothing_here');
    const unstored = await openai.responses.create({ model: 'test/echo', input: 'Not kept.', store: false });
    await refused(unstored.id);
    const other = await echoSpace(service, 'Continues nothing of others');
    await refused(first.id, new OpenAI({ baseURL: `${service.url}/v1`, apiKey: other.key, maxRetries: 0 }));
  });

  it("compacts a conversation with a model of the Space: the user's messages kept, the rest summed up, and the summary read next turn", async () => {
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const conversation: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Find the bug in cart.ts' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"cart.ts"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'export const total = 0;' },
      { role: 'assistant', content: 'The total is never summed.' },
      { role: 'user', content: [{ type: 'input_text', text: 'Fix it, then run the tests.' }] },
    ];
    const compacted = await openai.responses.compact({
      model: 'test/echo',
      instructions: 'Be brief.',
      input: conversation,
    });
    assert.equal(compacted.object, 'response.compaction');
    assert.match(compacted.id, /^resp_/);
    assert.deepEqual(
      compacted.output.map((o) => (o.type === 'message' ? [o.role, o.content] : [o.type])),
      [
        ['user', [{ type: 'input_text', text: 'Find the bug in cart.ts' }]],
        ['user', [{ type: 'input_text', text: 'Fix it, then run the tests.' }]],
        ['compaction'],
      ],
    );
    const item = compacted.output.at(-1) as OpenAI.Responses.ResponseCompactionItem;
    assert.match(item.id, /^cmp_/);
    // test/echo's summary is what it was asked to sum up: the conversation as a transcript, every turn in it.
    const sealed = item.encrypted_content;
    assert.match(sealed, /^llm-spaces\.compaction\.1\./);
    const { summary } = JSON.parse(
      Buffer.from(sealed.slice('llm-spaces.compaction.1.'.length), 'base64url').toString('utf8'),
    ) as { summary: string };
    assert.equal(
      summary,
      [
        'Instructions:\nBe brief.',
        'User:\nFind the bug in cart.ts',
        'Assistant called read_file with {"path":"cart.ts"}',
        'Result of read_file:\nexport const total = 0;',
        'Assistant:\nThe total is never summed.',
        'User:\nFix it, then run the tests.',
      ].join('\n\n'),
    );
    assert.equal(compacted.usage.total_tokens, compacted.usage.input_tokens + compacted.usage.output_tokens);
    const organization = await service.client().getOrganization();
    assert.equal(
      organization.num_requests,
      requestsBefore + 1,
      'the compaction is logged and counted like any request',
    );

    // Sent back in place of the conversation, the summary is what the model reads: more than the bare turn.
    const next: OpenAI.Responses.ResponseInputItem[] = [
      ...(compacted.output as OpenAI.Responses.ResponseInputItem[]),
      { role: 'user', content: 'Go on.' },
    ];
    const answered = await openai.responses.create({ model: 'test/echo', input: next });
    assert.equal(answered.output_text, 'Go on.');
    const bare = await openai.responses.inputTokens.count({
      model: 'test/echo',
      input: next.filter((i) => i !== item),
    });
    assert.ok(
      answered.usage!.input_tokens > bare.input_tokens + 20,
      `${bare.input_tokens} then ${answered.usage!.input_tokens}`,
    );

    // A kept response's conversation is compacted by its id, the earlier turns with it.
    const first = await openai.responses.create({ model: 'test/echo', input: 'My name is Ada.' });
    const byId = await openai.responses.compact({ model: 'test/echo', previous_response_id: first.id });
    assert.deepEqual(
      byId.output.map((o) => o.type),
      ['message', 'compaction'],
    );
    // Compacted again, an earlier summary is part of what is summed up, and not kept as a message of the user's.
    const again = await openai.responses.compact({ model: 'test/echo', input: next });
    assert.deepEqual(
      again.output.map((o) => (o.type === 'message' ? o.content : o.type)),
      [
        [{ type: 'input_text', text: 'Find the bug in cart.ts' }],
        [{ type: 'input_text', text: 'Fix it, then run the tests.' }],
        [{ type: 'input_text', text: 'Go on.' }],
        'compaction',
      ],
    );

    // OpenAI's own compaction, which only OpenAI reads, is refused in words by its place; so is a forged one.
    const refused = (encrypted: string, words: RegExp) =>
      assert.rejects(
        openai.responses.create({
          model: 'test/echo',
          input: [
            { type: 'compaction', encrypted_content: encrypted },
            { role: 'user', content: 'Go on.' },
          ],
        }),
        (error: unknown) =>
          error instanceof OpenAI.UnprocessableEntityError &&
          error.param === 'input.0.encrypted_content' &&
          words.test(error.message),
      );
    await refused('gAAAAABpZ2F0ZXdheS1jb21wYWN0', /another service made, which only it can read/);
    await refused('llm-spaces.compaction.1.Zm9yZ2Vk', /is not a compaction this service gave/);
    await assert.rejects(
      openai.responses.compact({ model: 'test/echo' }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /must give the conversation to compact/.test(error.message),
    );
    await assert.rejects(
      openai.responses.compact({ model: 'test/echo', input: [{ type: 'reasoning', id: 'rs_1', summary: [] }] }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /has nothing to sum up/.test(error.message),
    );
  });

  it('compacts a conversation past its context_management threshold before the reply, which goes on from the summary', async () => {
    const conversation: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Find the bug in cart.ts' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"cart.ts"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'export const total = 0;' },
      { role: 'assistant', content: 'The total is never summed.' },
      { role: 'user', content: 'Fix it.' },
    ];
    const context_management = [{ type: 'compaction', compact_threshold: 20 }];
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const response = await openai.responses.create({ model: 'test/echo', input: conversation, context_management });
    assert.deepEqual(
      response.output.map((o) => o.type),
      ['compaction', 'message'],
    );
    const item = response.output[0] as OpenAI.Responses.ResponseCompactionItem;
    assert.match(item.id, /^cmp_/);
    // test/echo answers the last message it reads: the summary, which is the conversation as a transcript.
    assert.match(response.output_text, /^A summary of the conversation so far, written when it was compacted:/);
    assert.match(response.output_text, /Result of read_file:\nexport const total = 0;\n\nAssistant:\nThe total/);
    const receipt = (response as unknown as { llm_spaces: ChatMetadata }).llm_spaces;
    assert.match(receipt.warning ?? '', /passed its compaction threshold \(20\), so test\/echo summed it up first/);
    assert.equal(
      (await service.client().getOrganization()).num_requests,
      requestsBefore + 2,
      'the summing up is logged and counted as a request of its own',
    );

    // Next turn, the compaction stands for the items before it: sent with them or without, as OpenAI's
    // guide lets a client drop them, or by the kept response's id, the model reads the same.
    const followUp: OpenAI.Responses.ResponseInputItem = { role: 'user', content: 'Go on.' };
    const output = response.output as OpenAI.Responses.ResponseInputItem[];
    const whole = await openai.responses.create({
      model: 'test/echo',
      input: [...conversation, ...output, followUp],
      context_management: [{ type: 'compaction', compact_threshold: 100_000 }],
    });
    assert.deepEqual(
      whole.output.map((o) => o.type),
      ['message'],
      'under its threshold, nothing is compacted',
    );
    assert.equal(whole.output_text, 'Go on.');
    const pruned = await openai.responses.create({ model: 'test/echo', input: [...output, followUp] });
    const chained = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: response.id,
      input: [followUp],
    });
    const withoutSummary = await openai.responses.inputTokens.count({ model: 'test/echo', input: [followUp] });
    assert.ok(whole.usage!.input_tokens > withoutSummary.input_tokens + 20, 'the summary is read');
    assert.equal(pruned.usage!.input_tokens, whole.usage!.input_tokens);
    assert.equal(chained.usage!.input_tokens, whole.usage!.input_tokens);
    // Streamed, the compaction is the first item, added and done before the reply's.
    const stream = openai.responses.stream({ model: 'test/echo', input: conversation, context_management });
    const added: Array<[number, string]> = [];
    stream.on('response.output_item.added', (event) => added.push([event.output_index, event.item.type]));
    const final = await stream.finalResponse();
    assert.deepEqual(added, [
      [0, 'compaction'],
      [1, 'message'],
    ]);
    assert.deepEqual(
      final.output.map((o) => o.type),
      ['compaction', 'message'],
    );

    // A conversation of the user's messages alone has nothing to sum up, nor one whose turns since its
    // last summary are: it is answered as it is.
    const alone = await openai.responses.create({
      model: 'test/echo',
      input:
        'A long question, longer than the threshold of twenty tokens it is sent with, all of it asked by the user.',
      context_management,
    });
    const sinceSummary = await openai.responses.create({
      model: 'test/echo',
      input: [item, followUp],
      context_management,
    });
    assert.deepEqual(
      [alone, sinceSummary].map((r) => r.output.map((o) => o.type)),
      [['message'], ['message']],
    );
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        input: conversation,
        context_management: [{ type: 'truncation', compact_threshold: 20 }],
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'context_management.0.type' &&
        /must be compaction/.test(error.message),
    );
  });

  it('compacts a conversation now when its input ends with a compaction_trigger, as Codex asks: the compaction item alone, nothing sampled', async () => {
    const conversation: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Rename total to sum in cart.ts' },
      { type: 'function_call', call_id: 'call_1', name: 'apply_patch', arguments: '{"patch":"…"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'Done.' },
    ];
    const trigger: OpenAI.Responses.ResponseInputItem = { type: 'compaction_trigger' };
    const requestsBefore = (await service.client().getOrganization()).num_requests;
    const response = await openai.responses.create({ model: 'test/echo', input: [...conversation, trigger] });
    assert.equal(response.status, 'completed');
    assert.deepEqual(
      response.output.map((o) => o.type),
      ['compaction'],
    );
    assert.equal(response.output_text, '');
    assert.ok(response.usage!.output_tokens > 0, 'the summary the model wrote is billed');
    assert.equal((await service.client().getOrganization()).num_requests, requestsBefore + 1);
    const item = response.output[0] as OpenAI.Responses.ResponseCompactionItem;
    const next = await openai.responses.create({
      model: 'test/echo',
      input: [item, { role: 'user', content: 'Now run the tests.' }],
    });
    assert.equal(next.output_text, 'Now run the tests.');
    // Continued by its id, the summary stands for the conversation before it.
    const chained = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: response.id,
      input: 'Now run the tests.',
    });
    assert.equal(chained.usage!.input_tokens, next.usage!.input_tokens);

    // A kept response compacted by its id, streamed: the compaction item added and done, then the end.
    const kept = await openai.responses.create({ model: 'test/echo', input: conversation });
    const stream = openai.responses.stream({ model: 'test/echo', previous_response_id: kept.id, input: [trigger] });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.deepEqual(
      final.output.map((o) => o.type),
      ['compaction'],
    );

    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        input: [...conversation, trigger, { role: 'user', content: 'Hi' }],
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'input.3' &&
        /The 'compaction_trigger' item must be the final input item/.test(error.message),
    );
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: [trigger] }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /must give the conversation to compact/.test(error.message),
    );
  });

  it("keeps a conversation (OpenAI's Conversations API): a response named to it reads its items and adds its turn", async () => {
    const conversation = await openai.conversations.create({
      items: [{ role: 'user', content: 'My cart holds 3 apples.' }],
      metadata: { topic: 'cart' },
    });
    assert.match(conversation.id, /^conv_/);
    assert.equal(conversation.object, 'conversation');
    assert.deepEqual(conversation.metadata, { topic: 'cart' });
    assert.ok(Math.abs(conversation.created_at - Date.now() / 1000) < 60, 'created_at in seconds');

    // test/echo answers the last user message; the conversation's items are read before it.
    const first = await openai.responses.create({
      model: 'test/echo',
      conversation: conversation.id,
      input: 'How many?',
    });
    assert.equal(first.output_text, 'How many?');
    assert.deepEqual(first.conversation, { id: conversation.id });
    const alone = await openai.responses.inputTokens.count({ model: 'test/echo', input: 'How many?' });
    assert.ok(first.usage!.input_tokens > alone.input_tokens, 'the earlier message is read');
    const streamed = await openai.responses
      .stream({ model: 'test/echo', conversation: { id: conversation.id }, input: 'And now?', store: false })
      .finalResponse();
    assert.equal(streamed.output_text, 'And now?');
    assert.ok(streamed.usage!.input_tokens > first.usage!.input_tokens, 'the turn before is read');

    // Every turn is in it, oldest first when asked so, each item with its id.
    const items = await openai.conversations.items.list(conversation.id, { order: 'asc' });
    const texts = items.data.map((item) =>
      item.type === 'message'
        ? `${item.role}: ${item.content.map((part) => ('text' in part ? part.text : '')).join('')}`
        : item.type,
    );
    assert.deepEqual(texts, [
      'user: My cart holds 3 apples.',
      'user: How many?',
      'assistant: How many?',
      'user: And now?',
      'assistant: And now?',
    ]);
    assert.equal(new Set(items.data.map((item) => item.id)).size, 5);
    assert.equal(items.data[2]!.id, (first.output[0] as { id: string }).id, 'an output item keeps its id');
    // Newest first by default, a page at a time.
    const newest = await openai.conversations.items.list(conversation.id, { limit: 2 });
    assert.deepEqual(
      newest.data.map((item) => item.id),
      items.data
        .slice(3)
        .reverse()
        .map((item) => item.id),
    );
    assert.equal(newest.has_more, true);
    const next = await openai.conversations.items.list(conversation.id, { limit: 2, after: newest.last_id! });
    assert.deepEqual(
      next.data.map((item) => item.id),
      items.data
        .slice(1, 3)
        .reverse()
        .map((item) => item.id),
    );

    // Items added, read, and deleted one by one; the metadata replaced.
    const added = await openai.conversations.items.create(conversation.id, {
      items: [{ role: 'user', content: 'Add 2 pears.' }],
    });
    const [pears] = added.data;
    assert.match(pears!.id!, /^msg_/);
    const read = await openai.conversations.items.retrieve(pears!.id!, { conversation_id: conversation.id });
    assert.deepEqual(read, pears);
    // Each item has its own id: one the conversation holds, or one given twice, is refused by its place.
    for (const items of [
      [{ type: 'message' as const, id: pears!.id!, role: 'user' as const, content: 'Again.' }],
      [
        { type: 'message' as const, id: 'msg_twice', role: 'user' as const, content: 'One.' },
        { type: 'message' as const, id: 'msg_twice', role: 'user' as const, content: 'Two.' },
      ],
    ])
      await assert.rejects(
        openai.conversations.items.create(conversation.id, { items }),
        (error: unknown) =>
          error instanceof OpenAI.APIError &&
          error.status === 422 &&
          error.param === `items.${items.length - 1}.id` &&
          /holds already/.test(error.message),
      );
    const after = await openai.conversations.items.delete(pears!.id!, { conversation_id: conversation.id });
    assert.equal(after.id, conversation.id);
    assert.equal((await openai.conversations.items.list(conversation.id)).data.length, 5);
    const updated = await openai.conversations.update(conversation.id, { metadata: { topic: 'fruit' } });
    assert.deepEqual(updated.metadata, { topic: 'fruit' });
    assert.deepEqual((await openai.conversations.retrieve(conversation.id)).metadata, { topic: 'fruit' });

    // What cannot be honoured is refused in words.
    const refused = async (sending: Promise<unknown>, status: number, words: RegExp) =>
      assert.rejects(
        sending,
        (error: unknown) => error instanceof OpenAI.APIError && error.status === status && words.test(error.message),
      );
    await refused(
      openai.responses.create({
        model: 'test/echo',
        conversation: conversation.id,
        previous_response_id: first.id,
        input: 'Hi',
      }),
      422,
      /cannot be sent with conversation/,
    );
    await refused(
      openai.responses.create({ model: 'test/echo', conversation: 'conv_none', input: 'Hi' }),
      422,
      /conv_none, a conversation this Space does not keep/,
    );
    await refused(
      openai.responses.create({
        model: 'test/echo',
        conversation: conversation.id,
        input: [items.data[0] as OpenAI.Responses.ResponseInputItem, { role: 'user', content: 'Hi' }],
      }),
      422,
      /is an item the conversation .* holds already/,
    );
    const privateSpace = await echoSpace(service, 'Keeps no conversation');
    await service.client().updateSpace({ id: privateSpace.id, policies: { privacy_level: 2 } });
    const privateSdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: privateSpace.key, maxRetries: 0 });
    await refused(privateSdk.conversations.create({}), 403, /keeps no conversation/);
    // Another Space's key does not reach it.
    await refused(privateSdk.conversations.retrieve(conversation.id), 404, /No conversation/);

    // Compacted past its threshold, the model sums up the conversation's items with the input.
    const worked = await openai.conversations.create({
      items: [
        { role: 'user', content: 'Find the bug in cart.ts' },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"cart.ts"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'export const total = 0;' },
      ],
    });
    const compacted = await openai.responses.create({
      model: 'test/echo',
      conversation: worked.id,
      input: 'Fix it.',
      context_management: [{ type: 'compaction', compact_threshold: 20 }],
    });
    assert.deepEqual(
      compacted.output.map((o) => o.type),
      ['compaction', 'message'],
    );
    assert.match(compacted.output_text, /Result of read_file:\nexport const total = 0;\n\nUser:\nFix it\./);

    const deleted = await openai.conversations.delete(conversation.id);
    assert.deepEqual(deleted, { id: conversation.id, object: 'conversation.deleted', deleted: true });
    await refused(openai.conversations.items.list(conversation.id), 404, /No conversation conv_/);
  });

  it('counts the input tokens of a request as its response would be billed, a continued one with its earlier items', async () => {
    const asked = {
      model: 'test/echo',
      instructions: 'Answer in one word.',
      input: 'How many tokens is this?',
      tools: [
        {
          type: 'function' as const,
          name: 'lookup',
          description: 'Looks a word up.',
          parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
          strict: false,
        },
      ],
    };
    const counted = await openai.responses.inputTokens.count(asked);
    assert.equal(counted.object, 'response.input_tokens');
    const answered = await openai.responses.create(asked);
    assert.equal(counted.input_tokens, answered.usage!.input_tokens);
    // Without its tool, fewer: what the model is given is counted, not only the text.
    const bare = await openai.responses.inputTokens.count({ ...asked, tools: [] });
    assert.ok(bare.input_tokens < counted.input_tokens, `${bare.input_tokens} then ${counted.input_tokens}`);
    // Continuing a kept response counts its earlier input and output, as the next response would bill.
    const next = { model: 'test/echo', previous_response_id: answered.id, input: 'And this?' };
    const continued = await openai.responses.inputTokens.count(next);
    const alone = await openai.responses.inputTokens.count({ model: 'test/echo', input: 'And this?' });
    assert.ok(continued.input_tokens > alone.input_tokens, `${alone.input_tokens} then ${continued.input_tokens}`);
    assert.equal(continued.input_tokens, (await openai.responses.create(next)).usage!.input_tokens);
    // No reply is asked for: a Space whose cost cap refuses the response's reply still counts its input.
    const capped = await echoSpace(service, 'Counts under a cost cap');
    await service.client().updateSpace({ id: capped.id, policies: { max_cost: 0.0001 } });
    const cappedClient = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: capped.key, maxRetries: 0 });
    await assert.rejects(cappedClient.responses.create(asked), /more than this Space's cost cap/);
    assert.equal((await cappedClient.responses.inputTokens.count(asked)).input_tokens, counted.input_tokens);
    // What shapes only the answer is not taken here, by name.
    await assert.rejects(
      openai.post('/responses/input_tokens', { body: { ...asked, stream: true } }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /stream is not a field here/.test(error.message),
    );
  });

  it("takes one of the organization's saved prompts as OpenAI's reusable prompt, its placeholders filled from variables", async () => {
    const saved = await service.client().createPrompt({
      title: 'Translate',
      description: 'Translates a text.',
      prompt: 'Translate into {{language}}:\n\n{{prompt}}',
    });
    const variables = { language: 'French', prompt: { type: 'input_text' as const, text: 'a way in' } };
    const response = await openai.responses.create({
      prompt: { id: saved.id, variables },
      instructions: 'Be brief.',
      input: 'Go on.',
    });
    // The prompt's text, filled in, comes before the request's own instructions; the prompt is echoed.
    assert.equal(response.instructions, 'Translate into French:\n\na way in\n\nBe brief.');
    assert.deepEqual(response.prompt, { id: saved.id, variables });
    const counted = (prompt?: OpenAI.Responses.ResponsePrompt) =>
      openai.responses.inputTokens.count({ input: 'Go on.', ...(prompt ? { prompt } : {}) });
    assert.ok((await counted({ id: saved.id, variables })).input_tokens > (await counted()).input_tokens);
    const refused = (prompt: OpenAI.Responses.ResponsePrompt) =>
      openai.responses.create({ prompt, input: 'Go on.' }).then(
        () => assert.fail('not refused'),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.APIError && error.status === 422, String(error));
          return error.message;
        },
      );
    assert.match(
      await refused({ id: 'pmpt_68ab00', variables }),
      /No saved prompt of this organization has the id pmpt_68ab00: the prompts of OpenAI's dashboard are not kept here/,
    );
    assert.match(
      await refused({ id: saved.id, variables: { prompt: 'a way in' } }),
      /has no "language", which the prompt "Translate" fills in/,
    );
    assert.match(
      await refused({ id: saved.id, variables: { ...variables, tone: 'dry' } }),
      /is no placeholder of the prompt "Translate"/,
    );
    assert.match(await refused({ id: saved.id, version: '2', variables }), /a saved prompt here has one, its latest/);
  });

  it('reads a kept response back as it was answered, lists its input items, and deletes it', async () => {
    const created = await openai.responses.create({
      model: 'test/echo',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'First question.' },
        { role: 'assistant', content: 'First answer.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Second question.' }] },
      ],
    });
    assert.deepEqual(await openai.responses.retrieve(created.id), created);
    // Streamed: the response its last event gave.
    let streamed: OpenAI.Responses.Response | undefined;
    for await (const event of await openai.responses.create({ model: 'test/echo', input: 'Streamed.', stream: true }))
      if (event.type === 'response.completed') streamed = event.response;
    // (The SDK adds output_text to what it retrieves, not to an event.)
    assert.deepEqual(await openai.responses.retrieve(streamed!.id), { ...streamed, output_text: 'Streamed.' });
    // An organization token reads any Space's; include is taken as OpenAI's SDK sends it (include[]=).
    const org = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: service.token, maxRetries: 0 });
    assert.deepEqual(await org.responses.retrieve(created.id, { include: ['reasoning.encrypted_content'] }), created);

    // Newest first, as OpenAI lists them, a page at a time; each with an id.
    const texts = (items: OpenAI.Responses.ResponseItem[]) =>
      items.map((item) => {
        assert.equal(item.type, 'message');
        const { role, content } = item as OpenAI.Responses.ResponseInputMessageItem;
        return `${role}: ${content.map((c) => (c as { text: string }).text).join('')}`;
      });
    const newestFirst = ['user: Second question.', 'assistant: First answer.', 'user: First question.'];
    const page = await openai.responses.inputItems.list(created.id);
    assert.deepEqual(texts(page.data), newestFirst);
    assert.equal(new Set(page.data.map((item) => item.id)).size, 3);
    const paged: OpenAI.Responses.ResponseItem[] = [];
    for await (const item of openai.responses.inputItems.list(created.id, { limit: 1 })) paged.push(item);
    assert.deepEqual(texts(paged), newestFirst);
    assert.deepEqual(
      texts((await openai.responses.inputItems.list(created.id, { order: 'asc' })).data),
      [...newestFirst].reverse(),
    );
    assert.deepEqual(texts((await openai.responses.inputItems.list(streamed!.id)).data), ['user: Streamed.']);

    const missing = (id: string, client = openai) =>
      assert.rejects(
        client.responses.retrieve(id),
        (error: unknown) =>
          error instanceof OpenAI.NotFoundError && error.message.includes(`The response ${id} is not kept`),
      );
    const unstored = await openai.responses.create({ model: 'test/echo', input: 'Not kept.', store: false });
    await missing(unstored.id);
    const other = await echoSpace(service, 'Reads nothing of others');
    await missing(created.id, new OpenAI({ baseURL: `${service.url}/v1`, apiKey: other.key, maxRetries: 0 }));
    await assert.rejects(
      openai.responses.retrieve(created.id, { stream: true }).then((s) => s.toReadableStream()),
      (error: unknown) => error instanceof OpenAI.UnprocessableEntityError && /stream/.test(error.message),
    );

    assert.deepEqual(await openai.responses.delete(created.id), { id: created.id, object: 'response', deleted: true });
    await missing(created.id);
    await assert.rejects(
      openai.responses.retrieve(created.id),
      (error: unknown) => error instanceof OpenAI.NotFoundError && /or the response was deleted/.test(error.message),
      'the words say a response may have been deleted',
    );
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', previous_response_id: created.id, input: 'Next.' }),
      OpenAI.UnprocessableEntityError,
    );
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: [{ type: 'item_reference', id: created.output[0]!.id! }] }),
      OpenAI.UnprocessableEntityError,
    );
    await assert.rejects(openai.responses.delete(created.id), OpenAI.NotFoundError);
  });

  it('keeps the items of a streamed response as it gives them', async () => {
    const stream = openai.responses.stream({ model: 'test/echo', input: 'Streamed and kept.' });
    const final = await stream.finalResponse();
    const message = final.output.find((o) => o.type === 'message')!;
    const next = await openai.responses.create({
      model: 'test/echo',
      input: [
        { type: 'item_reference', id: message.id },
        { role: 'user', content: 'And now?' },
      ],
    });
    assert.equal(next.output_text, 'And now?');
  });

  it('answers errors in OpenAI shape with their words, and refuses what it cannot honour by name', async () => {
    const badKey = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: 'lls_not_a_key', maxRetries: 0 });
    await assert.rejects(
      badKey.responses.create({ model: 'test/echo', input: 'x' }),
      (error: unknown) => error instanceof OpenAI.AuthenticationError && /Invalid token/.test(error.message),
    );
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: 'x', temperature: 7 }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'temperature' &&
        /must be between 0 and 2/.test(error.message),
    );
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        input: 'x',
        text: { format: { type: 'json_schema', name: 'word', schema: { type: 'object' } } },
      }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'text.format' &&
        /test\/echo cannot follow a JSON schema/.test(error.message),
      'the refused field as the Responses request names it',
    );
    await assert.rejects(
      openai.responses.create({ model: 'test/echo', input: 'x', tools: [{ type: 'local_shell' }] }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        /must be a function, a custom tool, a namespace of them, the shell or apply_patch, or one of OpenAI's hosted tools/.test(
          error.message,
        ),
    );
    // A wrong item is named by its place and what is wrong with it, not as input that is not valid.
    const wrongItem = async (input: unknown, param: string, words: RegExp) =>
      assert.rejects(
        openai.responses.create({ model: 'test/echo', input } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
        (error: unknown) =>
          error instanceof OpenAI.UnprocessableEntityError && error.param === param && words.test(error.message),
      );
    await wrongItem(
      [
        { role: 'user', content: 'x' },
        { type: 'computer_call_output', call_id: 'c', output: {} },
      ],
      'input.1',
      /must be a message \(role user, assistant, system or developer\) or an item of type function_call, .* or item_reference/,
    );
    await wrongItem([{ role: 'robot', content: 'x' }], 'input.0.role', /must be one of "user", "assistant"/);
    await wrongItem(
      [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }],
      'input.0.content.0.type',
      /must be a part of type input_text, output_text, refusal, input_image or input_file/,
    );
    // A file named by id: no file store is kept here.
    await wrongItem(
      [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }],
      'input.0.content.0.file_data',
      /must be a PDF as a data URL .*; files are not kept here to name by id/,
    );
    await wrongItem([{ type: 'item_reference' }], 'input.0.id', /is required/);
    await assert.rejects(
      openai.responses.create({ model: 'nobody/nothing', input: 'x' }),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError && /Unknown model "nobody\/nothing"/.test(error.message),
    );
  });
});
