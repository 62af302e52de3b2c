// Remote MCP servers through the built-in service, with the vendors' official SDKs over HTTP: a request
// names a remote MCP server (a real one, the MCP SDK's, behind a bearer token), as Anthropic's MCP
// connector or OpenAI's `mcp` tool; the service lists the server's tools, offers them to whichever model
// the Space picks (a test model here; Claude through the Anthropic fake in providers.test.ts), runs the
// calls (after the client's approval, where OpenAI's tool asks it), and answers with them in each
// vendor's shape, whole and streamed.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { startFakeMcpServer, type FakeMcpServer } from '../support/mcpFake';
import { echoSpace, removeDir, startService, type RunningService } from '../support/service';

const TOKEN = 'mcp-secret-0f9e8d';
const BETA = 'mcp-client-2025-11-20';

describe("Anthropic's MCP connector through a Space, with the Anthropic SDK", function () {
  this.timeout(60_000);
  let service: RunningService;
  let anthropic: Anthropic;
  let dictionary: FakeMcpServer;
  let servers: Anthropic.Beta.BetaRequestMCPServerURLDefinition[];

  before(async () => {
    [service, dictionary] = await Promise.all([startService(), startFakeMcpServer(TOKEN)]);
    const created = await echoSpace(service, 'With a dictionary');
    anthropic = new Anthropic({ baseURL: service.url, apiKey: created.key, maxRetries: 0 });
    servers = [{ type: 'url', name: 'dictionary', url: dictionary.url, authorization_token: TOKEN }];
  });
  after(async () => {
    await Promise.all([service?.stop(), dictionary?.close()]);
    if (service) removeDir(service.dataDir);
  });

  const ask = (content: string, more: Partial<Anthropic.Beta.MessageCreateParamsNonStreaming> = {}) =>
    anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 200,
      betas: [BETA],
      mcp_servers: servers,
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'dictionary' }],
      messages: [{ role: 'user', content }],
      ...more,
    });

  it("runs a call of the server's tool and answers with it as Anthropic's blocks, whole and streamed", async () => {
    const before = dictionary.calls.length;
    const message = await ask('call mcp__dictionary__lookup {"word":"gateway"}');
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['mcp_tool_use', 'mcp_tool_result', 'text'],
    );
    const [use, result, text] = message.content as [
      Anthropic.Beta.BetaMCPToolUseBlock,
      Anthropic.Beta.BetaMCPToolResultBlock,
      Anthropic.Beta.BetaTextBlock,
    ];
    assert.deepEqual(
      { name: use.name, server: use.server_name, input: use.input },
      { name: 'lookup', server: 'dictionary', input: { word: 'gateway' } },
    );
    assert.equal(result.tool_use_id, use.id);
    assert.equal(result.is_error, false);
    assert.deepEqual(result.content, [{ type: 'text', text: 'gateway: a door every tool goes through' }]);
    // The model read the result and answered from it (test/echo answers with a tool's result).
    assert.equal(text.text, 'gateway: a door every tool goes through');
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual(dictionary.calls.slice(before), [{ name: 'lookup', arguments: { word: 'gateway' } }]);
    assert.ok(
      dictionary.authorizations.length > 0 && dictionary.authorizations.every((a) => a === `Bearer ${TOKEN}`),
      'every request to the server carried the token',
    );

    const streamed = await anthropic.beta.messages
      .stream({
        model: 'test/echo',
        max_tokens: 200,
        betas: [BETA],
        mcp_servers: servers,
        tools: [{ type: 'mcp_toolset', mcp_server_name: 'dictionary' }],
        messages: [{ role: 'user', content: 'call mcp__dictionary__lookup {"word":"space"}' }],
      })
      .finalMessage();
    assert.deepEqual(
      streamed.content.map((b) => b.type),
      ['mcp_tool_use', 'mcp_tool_result', 'text'],
    );
    assert.deepEqual((streamed.content[0] as Anthropic.Beta.BetaMCPToolUseBlock).input, { word: 'space' });
    assert.equal((streamed.content[2] as Anthropic.Beta.BetaTextBlock).text, 'space: a room of its own');
  });

  it("counts the server's tools among the input tokens, as the model is offered them", async () => {
    const count = (withServer: boolean) =>
      anthropic.beta.messages.countTokens({
        model: 'test/echo',
        betas: [BETA],
        messages: [{ role: 'user', content: 'Look a word up' }],
        ...(withServer
          ? { mcp_servers: servers, tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'dictionary' }] }
          : {}),
      });
    const [plain, offered] = [await count(false), await count(true)];
    assert.ok(offered.input_tokens > plain.input_tokens + 20, `${offered.input_tokens} against ${plain.input_tokens}`);
  });

  it('tells the model when a call failed, and goes on from the turn sent back with its blocks', async () => {
    const failed = await ask('call mcp__dictionary__lookup {"word":"nowhere"}');
    const result = failed.content[1] as Anthropic.Beta.BetaMCPToolResultBlock;
    assert.equal(result.is_error, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'No entry for nowhere' }]);
    assert.equal((failed.content[2] as Anthropic.Beta.BetaTextBlock).text, 'Error: No entry for nowhere');
    // The turn goes back as it was given: its call and result are read as a tool call and its result.
    const next = await anthropic.beta.messages.create({
      model: 'test/echo',
      max_tokens: 200,
      betas: [BETA],
      mcp_servers: servers,
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'dictionary' }],
      messages: [
        { role: 'user', content: 'call mcp__dictionary__lookup {"word":"nowhere"}' },
        { role: 'assistant', content: failed.content },
        { role: 'user', content: 'Then what?' },
      ],
    });
    assert.deepEqual(next.content, [{ type: 'text', text: 'Then what?' }]);
  });

  it("offers only the tools the toolset or the server's tool_configuration allows", async () => {
    const before = dictionary.calls.length;
    const off = await ask('call mcp__dictionary__forget {"word":"gateway"}', {
      tools: [{ type: 'mcp_toolset', mcp_server_name: 'dictionary', configs: { forget: { enabled: false } } }],
    });
    assert.deepEqual(
      off.content.map((b) => b.type),
      ['text'],
      'the model is not offered forget',
    );
    const allowed = await ask('call mcp__dictionary__lookup {"word":"gateway"}', {
      tools: [],
      mcp_servers: [{ ...servers[0]!, tool_configuration: { allowed_tools: ['lookup'] } }] as never,
    });
    assert.equal(allowed.content[0]!.type, 'mcp_tool_use', 'the connector as first given: its allowed tools');
    const notAllowed = await ask('call mcp__dictionary__forget {"word":"gateway"}', {
      tools: [],
      mcp_servers: [{ ...servers[0]!, tool_configuration: { allowed_tools: ['lookup'] } }] as never,
    });
    assert.deepEqual(
      notAllowed.content.map((b) => b.type),
      ['text'],
    );
    assert.ok(!dictionary.calls.slice(before).some((c) => c.name === 'forget'), 'forget never ran');
  });

  it('says in words when the server refuses the token or a toolset names no server, never repeating the token', async () => {
    await assert.rejects(
      ask('call mcp__dictionary__lookup {"word":"gateway"}', {
        mcp_servers: [{ ...servers[0]!, authorization_token: 'not-the-token-7c1d' }],
      }),
      (e: InstanceType<typeof Anthropic.APIError>) =>
        e.status === 424 &&
        /The MCP server dictionary refused the authorization it was given \(HTTP 401\)/.test(e.message) &&
        !e.message.includes('not-the-token-7c1d') &&
        !e.message.includes(dictionary.url),
    );
    await assert.rejects(
      ask('Hello', { mcp_servers: [{ ...servers[0]!, url: 'http://127.0.0.1:9/mcp' }] }),
      (e: InstanceType<typeof Anthropic.APIError>) =>
        e.status === 424 && /The MCP server dictionary could not be reached/.test(e.message),
    );
    await assert.rejects(
      ask('Hello', { tools: [{ type: 'mcp_toolset', mcp_server_name: 'thesaurus' }] }),
      (e: InstanceType<typeof Anthropic.APIError>) =>
        e.status === 422 && /toolset of thesaurus, which no server of mcp_servers is named/.test(e.message),
    );
    // The tokens are nowhere in what the service printed, nor in its data folder.
    for (const secret of [TOKEN, 'not-the-token-7c1d']) {
      assert.ok(!service.output().includes(secret), 'not in its output');
      for (const file of readdirSync(service.dataDir, { recursive: true }) as string[]) {
        const where = path.join(service.dataDir, file);
        let text: string;
        try {
          text = readFileSync(where).toString('latin1');
        } catch {
          continue;
        }
        assert.ok(!text.includes(secret), `not in ${file}`);
      }
    }
  });
});

describe("OpenAI's remote MCP tool through a Space, with the OpenAI SDK", function () {
  this.timeout(60_000);
  let service: RunningService;
  let openai: OpenAI;
  let dictionary: FakeMcpServer;
  let mcp: OpenAI.Responses.Tool.Mcp;

  before(async () => {
    [service, dictionary] = await Promise.all([startService(), startFakeMcpServer(TOKEN)]);
    const created = await echoSpace(service, 'With a dictionary for OpenAI');
    openai = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: created.key, maxRetries: 0 });
    mcp = {
      type: 'mcp',
      server_label: 'dictionary',
      server_url: dictionary.url,
      authorization: TOKEN,
      headers: { 'x-dictionary-edition': 'second' },
    };
  });
  after(async () => {
    await Promise.all([service?.stop(), dictionary?.close()]);
    if (service) removeDir(service.dataDir);
  });

  const LOOKUP = 'call mcp__dictionary__lookup {"word":"gateway"}';

  it('lists the tools and runs a call that needs no approval, whole and streamed, never echoing the authorization', async () => {
    const before = dictionary.calls.length;
    const response = await openai.responses.create({
      model: 'test/echo',
      input: LOOKUP,
      tools: [{ ...mcp, require_approval: 'never' }],
    });
    assert.deepEqual(
      response.output.map((o) => o.type),
      ['mcp_list_tools', 'mcp_call', 'message'],
    );
    const [listed, call] = response.output as [
      OpenAI.Responses.ResponseOutputItem.McpListTools,
      OpenAI.Responses.ResponseOutputItem.McpCall,
    ];
    assert.equal(listed.server_label, 'dictionary');
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['lookup', 'forget'],
    );
    assert.deepEqual(
      {
        name: call.name,
        server: call.server_label,
        args: JSON.parse(call.arguments),
        output: call.output,
        status: call.status,
      },
      {
        name: 'lookup',
        server: 'dictionary',
        args: { word: 'gateway' },
        output: 'gateway: a door every tool goes through',
        status: 'completed',
      },
    );
    assert.equal(response.output_text, 'gateway: a door every tool goes through');
    assert.deepEqual(dictionary.calls.slice(before), [{ name: 'lookup', arguments: { word: 'gateway' } }]);
    const echoed = response.tools[0] as OpenAI.Responses.Tool.Mcp;
    assert.equal(echoed.authorization, undefined);
    assert.equal(echoed.headers ?? undefined, undefined);
    assert.ok(!JSON.stringify(response).includes(TOKEN));

    const stream = openai.responses.stream({
      model: 'test/echo',
      input: LOOKUP,
      tools: [{ ...mcp, require_approval: 'never' }],
    });
    const events: string[] = [];
    stream.on('event', (e) => events.push(e.type));
    const streamed = await stream.finalResponse();
    assert.deepEqual(
      streamed.output.map((o) => o.type),
      ['mcp_list_tools', 'mcp_call', 'message'],
    );
    for (const type of [
      'response.mcp_list_tools.completed',
      'response.mcp_call_arguments.done',
      'response.mcp_call.completed',
    ])
      assert.ok(events.includes(type), `${type} is sent`);
    assert.ok(events.indexOf('response.mcp_call.completed') < events.indexOf('response.output_text.delta'));
  });

  it('asks approval first, as OpenAI does by default; runs the call once approved, and tells the model of a refusal', async () => {
    const before = dictionary.calls.length;
    const asked = await openai.responses.create({ model: 'test/echo', input: LOOKUP, tools: [mcp] });
    assert.deepEqual(
      asked.output.map((o) => o.type),
      ['mcp_list_tools', 'mcp_approval_request'],
    );
    assert.equal(dictionary.calls.length, before, 'nothing ran before the approval');
    const request = asked.output[1] as OpenAI.Responses.ResponseOutputItem.McpApprovalRequest;
    assert.deepEqual([request.name, JSON.parse(request.arguments)], ['lookup', { word: 'gateway' }]);

    const approved = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: asked.id,
      tools: [mcp],
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
    });
    assert.deepEqual(
      approved.output.map((o) => o.type),
      ['mcp_call', 'message'],
      'the listing is in the conversation already',
    );
    assert.equal((approved.output[0] as OpenAI.Responses.ResponseOutputItem.McpCall).approval_request_id, request.id);
    assert.equal(approved.output_text, 'gateway: a door every tool goes through');
    assert.equal(dictionary.calls.length, before + 1);
    // Going on from there runs nothing again.
    const next = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: approved.id,
      tools: [mcp],
      input: 'Thank you',
    });
    assert.equal(next.output_text, 'Thank you');
    assert.equal(dictionary.calls.length, before + 1);

    // Refused, the call does not run; the model is told (test/echo answers with what it was told).
    const refused = await openai.responses.create({
      model: 'test/echo',
      tools: [mcp],
      input: [
        { role: 'user', content: LOOKUP },
        request,
        { type: 'mcp_approval_response', approval_request_id: request.id, approve: false, reason: 'not now' },
      ],
    });
    assert.equal(refused.output_text, 'The user did not approve this call: not now.');
    assert.equal(dictionary.calls.length, before + 1);
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        tools: [mcp],
        input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_nothing', approve: true }],
      }),
      (e: InstanceType<typeof OpenAI.APIError>) =>
        e.status === 422 && /no mcp_approval_request before it/.test(e.message),
    );
  });

  it('asks a server for its tools once a conversation: a later turn connects only to run a call, as at OpenAI', async () => {
    const tools = [{ ...mcp, require_approval: 'never' as const }];
    const since = (n: number) => dictionary.methods.slice(n).filter((m) => !m.startsWith('notifications/'));
    let before = dictionary.methods.length;
    const first = await openai.responses.create({ model: 'test/echo', input: LOOKUP, tools });
    assert.deepEqual(since(before), ['initialize', 'tools/list', 'tools/call']);
    const listing = first.output[0] as OpenAI.Responses.ResponseOutputItem.McpListTools;

    // Going on from it without a call asks the server nothing.
    before = dictionary.methods.length;
    const thanks = await openai.responses.create({
      model: 'test/echo',
      previous_response_id: first.id,
      input: 'Thank you',
      tools,
    });
    assert.deepEqual([thanks.output.map((o) => o.type), thanks.output_text], [['message'], 'Thank you']);
    assert.deepEqual(since(before), []);

    // A call in a later turn, the listing carried by the previous response or sent back in the input
    // (a client that keeps its own conversation), connects to run it and lists nothing.
    for (const turn of [
      { previous_response_id: thanks.id, input: LOOKUP },
      { input: [listing, { role: 'user' as const, content: LOOKUP }] },
    ]) {
      before = dictionary.methods.length;
      const again = await openai.responses.create({ model: 'test/echo', tools, ...turn });
      assert.deepEqual(
        again.output.map((o) => o.type),
        ['mcp_call', 'message'],
      );
      assert.equal(again.output_text, 'gateway: a door every tool goes through');
      assert.deepEqual(since(before), ['initialize', 'tools/call']);
    }

    // A server gone since it listed its tools: the call fails in words, and the model is told.
    const gone = await openai.responses.create({
      model: 'test/echo',
      tools: [{ ...tools[0]!, server_url: 'http://127.0.0.1:9/mcp' }],
      input: [listing, { role: 'user', content: LOOKUP }],
    });
    const [failedCall] = gone.output as [OpenAI.Responses.ResponseOutputItem.McpCall];
    assert.deepEqual([failedCall.type, failedCall.status], ['mcp_call', 'failed']);
    assert.equal(gone.output_text, 'Error: The MCP server dictionary could not be reached: fetch failed');

    // A listing that failed is no listing: the server is asked again.
    before = dictionary.methods.length;
    const failed = { ...listing, tools: [], error: 'the server could not be reached' };
    const relisted = await openai.responses.create({
      model: 'test/echo',
      tools,
      input: [failed, { role: 'user', content: LOOKUP }],
    });
    assert.equal(relisted.output[0]?.type, 'mcp_list_tools');
    assert.deepEqual(since(before), ['initialize', 'tools/list', 'tools/call']);
  });

  it("keeps to allowed_tools and require_approval's filters, and refuses a connector in words", async () => {
    const only = await openai.responses.create({
      model: 'test/echo',
      input: LOOKUP,
      tools: [{ ...mcp, allowed_tools: ['lookup'], require_approval: { never: { tool_names: ['lookup'] } } }],
    });
    assert.deepEqual(
      (only.output[0] as OpenAI.Responses.ResponseOutputItem.McpListTools).tools.map((t) => t.name),
      ['lookup'],
    );
    assert.equal(only.output[1]!.type, 'mcp_call', 'lookup needs no approval by the filter');
    await assert.rejects(
      openai.responses.create({
        model: 'test/echo',
        input: 'Hello',
        tools: [{ type: 'mcp', server_label: 'mail', connector_id: 'connector_gmail', authorization: 'x' }],
      }),
      (e: InstanceType<typeof OpenAI.APIError>) =>
        e.status === 422 && /connectors and tunnels reach only from OpenAI/.test(e.message),
    );
  });

  it('sends the authorization and headers to the server alone: not to the log, the kept responses or the output', async () => {
    assert.ok(dictionary.authorizations.length > 0 && dictionary.authorizations.every((a) => a === `Bearer ${TOKEN}`));
    assert.ok(!service.output().includes(TOKEN));
    for (const file of readdirSync(service.dataDir, { recursive: true }) as string[]) {
      let text: string;
      try {
        text = readFileSync(path.join(service.dataDir, file)).toString('latin1');
      } catch {
        continue;
      }
      assert.ok(!text.includes(TOKEN) && !text.includes('x-dictionary-edition'), `not in ${file}`);
    }
  });
});
