// Anthropic's MCP connector through the built-in service, with the official Anthropic SDK over HTTP: a
// request names a remote MCP server (a real one, the MCP SDK's, behind a bearer token) and its
// toolset; the service lists the server's tools, offers them to whichever model the Space picks (a
// test model here; Claude through the Anthropic fake in providers.test.ts), runs the calls, and answers
// with them as Anthropic's mcp_tool_use and mcp_tool_result blocks, whole and streamed.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
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
        /The MCP server dictionary could not be reached/.test(e.message) &&
        !e.message.includes('not-the-token-7c1d') &&
        !e.message.includes(dictionary.url),
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
