// Hosted providers through the built-in service, with keys and base URLs from the standard variables
// and fakes of OpenAI's, Anthropic's and Gemini's wire formats behind them: plain, streamed and tool
// answers, billing from the provider's counts, each failure of "When a provider fails", the cooldown,
// the keys handed over by the extension, and no key anywhere it must not be.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, streamText } from 'ai';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import OpenAI from 'openai';
import type { LlmSpacesClient } from '../../../src/api/client';
import type { ModelRecord, ProviderState } from '../../../src/api/schemas';
import { cheapestFirst } from '../../../src/shared/models';
import { raw } from '../support/http';
import { startFakeMcpServer } from '../support/mcpFake';
import { pdfBase64 } from '../support/pdf';
import { pngBase64 } from '../support/png';
import { LATER_SYSTEM } from '../support/openAiChat';
import {
  CITED_PASSAGE,
  FETCH_LEAD,
  FILTERED,
  FILTERED_SO_FAR,
  pageRead,
  pageText,
  SEARCH_LEAD,
  SKIP_SIGNATURE,
  startAnthropicFake,
  startGeminiFake,
  startAzureFake,
  OPENAI_NO_QUOTA,
  startOpenAiFake,
  type ProviderFake,
} from '../support/providerFakes';
import { removeDir, startService, type RunningService } from '../support/service';
import { dayLabel } from '../../../src/shared/labels';

const OPENAI = 'openai/gpt-4o-mini';
/** What every answer of OPENAI says first, once OpenAI announced it retires (providers/retirements.ts). */
const OPENAI_RETIRES = `${OPENAI} is deprecated and will stop being served on ${dayLabel('2027-01-14')}. `;
const OPENAI_2 = 'openai/gpt-4o';
const ANTHROPIC = 'anthropic/claude-haiku-4-5';
const GEMINI = 'google/gemini-2.5-flash-lite';

/** The first turn of Codex's tool loop: stateless, the reasoning's content included, one tool to call. */
const codexTurn = (model: string, path: string) => ({
  model,
  include: ['reasoning.encrypted_content' as const],
  store: false,
  tools: [{ type: 'function' as const, name: 'Read', parameters: { type: 'object', properties: {} }, strict: false }],
  input: [{ role: 'user' as const, content: `call Read {"path":"${path}"}` }],
});

/** Anthropic's web search as Claude Code's WebSearch asks for it, with how far it may go. */
const CLAUDE_CODE_SEARCH = {
  type: 'web_search_20250305' as const,
  name: 'web_search' as const,
  max_uses: 8,
  allowed_domains: ['example.com'],
  user_location: { type: 'approximate' as const, country: 'DE', timezone: 'Europe/Berlin' },
};

/** Claude Code's WebSearch request: one request of its own, with Anthropic's web search. */
const claudeCodeSearch = (model: string) => ({
  model,
  max_tokens: 2_000,
  system: 'You are an assistant for performing a web search tool use',
  messages: [{ role: 'user' as const, content: 'Perform a web search for the query: gateway' }],
  tools: [CLAUDE_CODE_SEARCH],
});

/** The warning of a vendor's answer (Anthropic's message, OpenAI's response), in its field `llm_spaces`. */
/** A JSON schema of an object with these properties and no others. */
const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });

/**
 * As OpenAI's tool search guide has it: a namespace whose tools wait for the search, a deferred
 * function, one given at once, and the search itself (run where the model is: no `execution`).
 */
const SEARCHED_TOOLS = [
  { type: 'tool_search' },
  {
    type: 'namespace',
    name: 'crm',
    description: 'Customer records.',
    tools: [
      {
        type: 'function',
        name: 'get_customer',
        description: 'One customer by id.',
        parameters: objectOf({ id: { type: 'string' } }),
        defer_loading: true,
      },
    ],
  },
  { type: 'function', name: 'get_weather', parameters: objectOf({ city: { type: 'string' } }), defer_loading: true },
  { type: 'function', name: 'now', parameters: objectOf({}) },
];

/** SEARCHED_TOOLS as a model that does not run the search is shown them: every one, a namespace's by `<namespace>__<name>`. */
const EVERY_TOOL_SHOWN = [
  ['function', 'crm__get_customer', undefined],
  ['function', 'get_weather', undefined],
  ['function', 'now', undefined],
];

const warningOf = (answer: unknown) => (answer as { llm_spaces: { warning: unknown } }).llm_spaces.warning;

/** Checks what an answer's receipt says the request cost. */
function assertCost(answer: unknown, expected: number): void {
  const cost = (answer as { llm_spaces: { costs: { total_tokens: number } } }).llm_spaces.costs.total_tokens;
  assert.ok(Math.abs(cost - expected) < 1e-12, `cost ${cost}, expected ${expected}`);
}

describe('hosted providers (fakes of their wire formats)', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let anthropic: ProviderFake;
  let gemini: ProviderFake;
  let service: RunningService;
  let client: LlmSpacesClient;
  let models: ModelRecord[];
  /** Every answer the service gave in this suite, to look for keys in. */
  const answers: string[] = [];

  const byName = (ns: string) => models.find((m) => m.namespace === ns)!;
  /** What a fake's usage costs on a model: 11 tokens in (3 of them read from the cache), 7 out. */
  const tokensCost = (m: ModelRecord) =>
    8 * m.prompt_token_cost + 3 * (m.cache_read_token_cost ?? m.prompt_token_cost) + 7 * m.completion_token_cost;

  /** Each Space's key, by its id, for a vendor's SDK to send with. */
  const keys = new Map<string, string>();

  /**
   * An Anthropic request with a server tool, sent through a Space of OpenAI's model: the model answers
   * text, given no tool. Answers what the answer says of it.
   */
  async function askedOfOpenAi(ask: Anthropic.MessageCreateParamsNonStreaming): Promise<unknown> {
    const other = await spaceWith([OPENAI]);
    const elsewhere = await new Anthropic({
      baseURL: service.url,
      apiKey: keys.get(other)!,
      maxRetries: 0,
    }).messages.create({ ...ask, model: OPENAI });
    assert.deepEqual(
      elsewhere.content.map((b) => b.type),
      ['text'],
    );
    assert.equal(openai.seen.at(-1)!.body.tools, undefined);
    return warningOf(elsewhere);
  }

  async function spaceWith(active: string[], failover: string[] = []) {
    const created = await client.createSpace({ name: `providers ${active.join(',')} ${failover.join(',')}` });
    keys.set(created.id, created.created_key);
    const current = await client.getSpaceModels(created.id);
    for (const s of current.base_model_settings) {
      const want = active.includes(s.namespace);
      if (s.active !== want) await client.toggleModel(created.id, s.id, want);
    }
    await client.updateSpace({
      id: created.id,
      has_failover_chain: failover.length > 0,
      failover_model_ids: failover.map((ns) => byName(ns).id!),
      policies: { max_same_model_retries: 1, max_switch_model_retries: 3 },
    });
    return created.id;
  }

  async function send(body: Record<string, unknown>, route = '/v1/playground/chat') {
    const res = await raw(service.url, 'POST', route, { token: service.token, body });
    answers.push(res.text);
    return res;
  }

  /** The first turn of Claude Code's tool loop, with one tool to call. */
  const claudeTurn = (model: string, path: string) => ({
    model,
    max_tokens: 2_000,
    tools: [{ name: 'Read', input_schema: { type: 'object' as const, properties: {} } }],
    messages: [{ role: 'user' as const, content: `call Read {"path":"${path}"}` }],
  });

  before(async () => {
    [openai, anthropic, gemini] = await Promise.all([startOpenAiFake(), startAnthropicFake(), startGeminiFake()]);
    service = await startService({
      firstTokenTimeoutMs: 1000,
      compactingEveryMs: 50,
      env: {
        OPENAI_API_KEY: openai.key,
        OPENAI_BASE_URL: openai.baseUrl,
        ANTHROPIC_API_KEY: anthropic.key,
        // Without /v1: the service accepts both spellings of Anthropic's base URL.
        ANTHROPIC_BASE_URL: anthropic.baseUrl.replace(/\/v1$/, ''),
        GEMINI_API_KEY: gemini.key,
        GEMINI_BASE_URL: gemini.baseUrl,
        // DeepSeek's API is OpenAI's Chat Completions: the OpenAI fake plays it.
        DEEPSEEK_API_KEY: openai.key,
        DEEPSEEK_BASE_URL: openai.baseUrl,
      },
    });
    client = service.client();
    models = await client.listModels();
  });
  after(async () => {
    await service?.stop();
    await Promise.all([openai?.close(), anthropic?.close(), gemini?.close()]);
    if (service) removeDir(service.dataDir);
  });
  afterEach(() => {
    assert.deepEqual(
      [...openai.problems, ...anthropic.problems, ...gemini.problems],
      [],
      'every request followed its reference',
    );
  });

  it('says which providers have a key and which models can answer, never the key', async () => {
    const res = await raw(service.url, 'GET', '/v1/providers', { token: service.token });
    answers.push(res.text);
    const states = res.json as ProviderState[];
    const state = (id: string) => states.find((p) => p.id === id)!;
    assert.deepEqual(
      ['openai', 'anthropic', 'google', 'mistral'].map((id) => [id, state(id).has_key, state(id).key_source ?? null]),
      [
        ['openai', true, 'environment'],
        ['anthropic', true, 'environment'],
        ['google', true, 'environment'],
        ['mistral', false, null],
      ],
    );
    assert.equal(state('openai').key_variable, 'OPENAI_API_KEY');
    assert.equal(byName(OPENAI).answers_here, true);
    assert.equal(byName(ANTHROPIC).answers_here, true);
    assert.equal(byName(GEMINI).answers_here, true);
    assert.equal(byName('mistral/mistral-small-latest').answers_here, false);
    assert.match(service.output(), /Provider keys from the environment: OpenAI, Anthropic, Google Gemini/);
  });

  it('routes the first Space, which nobody has changed, to the providers that have a key instead of the test models', async () => {
    const first = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const view = await client.getSpace(first.id);
    const active = view.main.base_model_settings.filter((m) => m.active).map((m) => m.namespace);
    // Each provider's current small models of our choice (STARTERS), no older ones.
    assert.deepEqual(active.sort(), [
      'anthropic/claude-haiku-4-5',
      'deepseek/deepseek-v4-flash',
      'google/gemini-3.5-flash',
      'google/gemini-3.5-flash-lite',
      'openai/gpt-5.4-mini',
      'openai/gpt-6-luna',
    ]);
    assert.ok(!active.some((ns) => ns.startsWith('test/')), 'no test model while real ones answer');
    // Its failover chain crosses providers: the first starter of each, in the order of STARTERS.
    const chain = (await client.getSpaceModels(first.id)).failover_models.map((m) => m.namespace);
    assert.deepEqual(chain, [
      'openai/gpt-5.4-mini',
      'anthropic/claude-haiku-4-5',
      'google/gemini-3.5-flash-lite',
      'deepseek/deepseek-v4-flash',
    ]);
    assert.match(view.main.app.description ?? '', /^Routes to /);
    const reply = await client.chat({ app_id: first.id, prompt: 'first' });
    assert.ok(!reply.model.startsWith('test/'), reply.model);
  });

  for (const [ns, fake] of [
    [OPENAI, () => openai],
    [ANTHROPIC, () => anthropic],
    [GEMINI, () => gemini],
  ] as const) {
    it(`answers through ${ns}, whole and streamed, billed at the provider's own counts`, async () => {
      const app = await spaceWith([ns]);
      const seenBefore = fake().seen.length;
      const res = await send({ app_id: app, prompt: 'hello there', model: ns });
      assert.equal(res.status, 200, res.text);
      const reply = res.json as {
        choices: Array<{ message: { content: string } }>;
        usage: Record<string, unknown>;
        metadata: { costs: { total_tokens: number }; routing: { usage: string } };
      };
      assert.equal(reply.choices[0]!.message.content, 'echo: hello there');
      assert.deepEqual(reply.usage, {
        prompt_tokens: 11,
        completion_tokens: 7,
        total_tokens: 18,
        prompt_tokens_details: { cached_tokens: 3, cache_write_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      });
      assert.equal(reply.metadata.routing.usage, 'provider');
      const m = byName(ns);
      const expected =
        8 * m.prompt_token_cost + 3 * (m.cache_read_token_cost ?? m.prompt_token_cost) + 7 * m.completion_token_cost;
      assert.ok(
        Math.abs(reply.metadata.costs.total_tokens - expected) < 1e-12,
        `${reply.metadata.costs.total_tokens} vs ${expected}`,
      );
      assert.equal(fake().seen.length, seenBefore + 1);
      const sent = fake().seen.at(-1)!;
      assert.match(JSON.stringify(sent.body), /hello there/);

      const pieces: string[] = [];
      let done: { usage: { prompt_tokens: number } } | undefined;
      for await (const event of client.chatStream({ app_id: app, prompt: 'stream me', model: ns })) {
        if (event.type === 'delta') pieces.push(event.content);
        if (event.type === 'done') done = event;
      }
      assert.ok(pieces.length > 1, 'arrived in pieces');
      assert.equal(pieces.join(''), 'echo: stream me');
      assert.equal(done!.usage.prompt_tokens, 11);
    });

    it(`passes tools to ${ns} and hands back its tool call, streamed too`, async () => {
      const app = await spaceWith([ns]);
      const tools = [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Looks a word up',
            parameters: { type: 'object', properties: { word: { type: 'string' } } },
          },
        },
      ];
      const body = {
        app_id: app,
        model: ns,
        messages: [{ role: 'user', content: 'call lookup {"word":"gateway"}' }],
        tools,
      };
      const res = await send(body, '/v1/chat/completions');
      assert.equal(res.status, 200, res.text);
      const choice = (
        res.json as {
          choices: Array<{
            finish_reason: string;
            message: { tool_calls: Array<{ function: { name: string; arguments: string } }> };
          }>;
        }
      ).choices[0]!;
      assert.equal(choice.finish_reason, 'tool_calls');
      assert.equal(choice.message.tool_calls[0]!.function.name, 'lookup');
      assert.deepEqual(JSON.parse(choice.message.tool_calls[0]!.function.arguments), { word: 'gateway' });
      const calls = [];
      for await (const event of client.completionStream(body as never))
        if (event.type === 'toolCall') calls.push(event);
      assert.deepEqual(
        calls.map((c) => [c.name, JSON.parse(c.arguments)]),
        [['lookup', { word: 'gateway' }]],
      );
    });
  }

  it('asks OpenAI and Anthropic for one tool call a reply when the client does, each in its own words', async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const ask = (model: string) =>
      send(
        {
          app_id: app,
          model,
          messages: [{ role: 'user', content: 'call lookup {"word":"one"}' }],
          tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
          parallel_tool_calls: false,
        },
        '/v1/chat/completions',
      );
    assert.equal((await ask(OPENAI)).status, 200);
    assert.equal(openai.seen.at(-1)!.body.parallel_tool_calls, false);
    assert.equal((await ask(ANTHROPIC)).status, 200);
    const choice = anthropic.seen.at(-1)!.body.tool_choice as { type: string; disable_parallel_tool_use?: boolean };
    assert.deepEqual(choice, { type: 'auto', disable_parallel_tool_use: true });
    // Anthropic's clients say it in their tool choice: to either provider in its own words again.
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    for (const [model, said] of [
      [OPENAI, () => openai.seen.at(-1)!.body.parallel_tool_calls],
      [ANTHROPIC, () => (anthropic.seen.at(-1)!.body.tool_choice as typeof choice).disable_parallel_tool_use],
    ] as const) {
      await sdk.messages.create({
        model,
        max_tokens: 100,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: 'call lookup {"word":"one"}' }],
      });
      assert.equal(said(), model === OPENAI ? false : true, model);
    }
  });

  it("gives OpenAI and Anthropic the older API's functions as tools, one call a reply, and its results as tool results", async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const asked = { role: 'user', content: 'call lookup {"word":"one"}' };
    const functions = [{ name: 'lookup', parameters: { type: 'object', properties: { word: { type: 'string' } } } }];
    for (const ns of [OPENAI, ANTHROPIC]) {
      const res = await send(
        { app_id: app, model: ns, messages: [asked], functions, function_call: { name: 'lookup' } },
        '/v1/chat/completions',
      );
      assert.equal(res.status, 200, res.text);
      const [choice] = (res.json as { choices: Array<{ finish_reason: string; message: Record<string, unknown> }> })
        .choices;
      assert.equal(choice!.finish_reason, 'function_call', ns);
      const call = choice!.message.function_call as { name: string; arguments: string };
      assert.equal(call.name, 'lookup');
      assert.deepEqual(JSON.parse(call.arguments), { word: 'one' });
      const result = { role: 'function', name: 'lookup', content: 'the first number' };
      const answered = await send(
        { app_id: app, model: ns, messages: [asked, choice!.message, result], functions },
        '/v1/chat/completions',
      );
      assert.equal(answered.status, 200, answered.text);
    }
    const [toOpenAi, answeredByOpenAi] = openai.seen.slice(-2).map((r) => r.body) as Array<Record<string, unknown>>;
    assert.equal(toOpenAi!.functions, undefined, 'OpenAI gets tools, not the older field');
    assert.deepEqual(toOpenAi!.tool_choice, { type: 'function', function: { name: 'lookup' } });
    assert.equal(toOpenAi!.parallel_tool_calls, false);
    const [, called, result] = answeredByOpenAi!.messages as Array<Record<string, unknown>>;
    const [sentCall] = called!.tool_calls as Array<{ id: string; function: { name: string } }>;
    assert.equal(sentCall!.function.name, 'lookup');
    assert.deepEqual(result, { role: 'tool', tool_call_id: sentCall!.id, content: 'the first number' });
    const [toAnthropic, answeredByAnthropic] = anthropic.seen.slice(-2).map((r) => r.body) as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(toAnthropic!.tool_choice, { type: 'tool', name: 'lookup', disable_parallel_tool_use: true });
    const [, used, answer] = answeredByAnthropic!.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.equal(used!.content.find((b) => b.type === 'tool_use')!.id, answer!.content[0]!.tool_use_id);
    assert.equal(answer!.content[0]!.type, 'tool_result');
  });

  it("gives Claude the picture and the PDF a remote MCP tool returned, in the tool_result, as Anthropic's API takes them", async () => {
    const png = pngBase64(32, 24);
    const pdf = pdfBase64(['The spec']);
    const mcp = await startFakeMcpServer('mcp-provider-token', { png, pdf });
    try {
      const app = await spaceWith([ANTHROPIC]);
      const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
      const resultOf = async (tool: string) => {
        const message = await sdk.beta.messages.create({
          model: ANTHROPIC,
          max_tokens: 200,
          betas: ['mcp-client-2025-11-20'],
          mcp_servers: [{ type: 'url', name: 'desk', url: mcp.url, authorization_token: 'mcp-provider-token' }],
          tools: [{ type: 'mcp_toolset', mcp_server_name: 'desk' }],
          messages: [{ role: 'user', content: `call mcp__desk__${tool} {}` }],
        });
        const told = message.content.find((b) => b.type === 'mcp_tool_result') as Anthropic.Beta.BetaMCPToolResultBlock;
        const asked = anthropic.seen.at(-1)!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
        return { told: told.content, sent: asked.messages.at(-1)!.content[0]!.content };
      };
      // The client is told the result in words; Claude is given the picture after its word.
      assert.deepEqual(await resultOf('screenshot'), {
        told: [{ type: 'text', text: 'The screen:\n[an image (image/png)]' }],
        sent: [
          { type: 'text', text: 'The screen:' },
          { type: 'text', text: '[an image (image/png)]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        ],
      });
      // A text file embedded is its text, a PDF a document, a link and audio in words.
      const readme = await resultOf('readme');
      assert.deepEqual(readme.sent, [
        { type: 'text', text: 'file:///README.md:\n# Hello' },
        { type: 'text', text: '[a PDF file:///spec.pdf]' },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
        { type: 'text', text: '[guide.md: file:///guide.md]' },
        { type: 'text', text: '[audio the tool gave, not passed on]' },
      ]);
      assert.deepEqual(anthropic.problems, []);
    } finally {
      await mcp.close();
    }
  });

  it("runs a remote MCP server's tools for Claude (Anthropic's MCP connector): offered as functions, each call's result sent back", async () => {
    const mcp = await startFakeMcpServer('mcp-provider-token');
    try {
      const app = await spaceWith([ANTHROPIC]);
      const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
      const seen = anthropic.seen.length;
      const lookUp = () =>
        sdk.beta.messages.create({
          model: ANTHROPIC,
          max_tokens: 200,
          betas: ['mcp-client-2025-11-20'],
          mcp_servers: [{ type: 'url', name: 'dictionary', url: mcp.url, authorization_token: 'mcp-provider-token' }],
          tools: [{ type: 'mcp_toolset', mcp_server_name: 'dictionary' }],
          messages: [{ role: 'user', content: 'call mcp__dictionary__lookup {"word":"gateway"}' }],
        });
      const message = await lookUp();
      assert.deepEqual(
        message.content.map((b) => b.type),
        ['mcp_tool_use', 'mcp_tool_result', 'text'],
      );
      assert.equal((message.content[2] as Anthropic.Beta.BetaTextBlock).text, 'echo: ');
      const [first, second] = anthropic.seen.slice(seen).map((r) => r.body) as Array<{
        tools: Array<{ name: string }>;
        messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
        mcp_servers?: unknown;
      }>;
      assert.equal(anthropic.seen.length - seen, 2, 'the model is asked again with the result');
      // Claude is offered the server's tools as its own (the service runs them), not Anthropic's connector.
      assert.deepEqual(
        first!.tools.map((t) => t.name),
        ['mcp__dictionary__lookup', 'mcp__dictionary__forget'],
      );
      assert.equal(first!.mcp_servers, undefined);
      const [, called, answered] = second!.messages;
      const use = called!.content.find((b) => b.type === 'tool_use')!;
      assert.deepEqual([use.name, use.input], ['mcp__dictionary__lookup', { word: 'gateway' }]);
      assert.equal(answered!.content[0]!.type, 'tool_result');
      assert.equal(answered!.content[0]!.tool_use_id, use.id);
      assert.equal(answered!.content[0]!.content, 'gateway: a door every tool goes through');
      // Both rounds are billed: the answer's usage is theirs together (the fake's is 11 in, 3 of them cached, 7 out).
      const usage = message.usage;
      assert.deepEqual(
        [usage.input_tokens + (usage.cache_read_input_tokens ?? 0), usage.cache_read_input_tokens, usage.output_tokens],
        [22, 6, 14],
      );

      // A round that cost as much as the Space's cost cap is the last: its calls are not run, and it says so.
      const before = { ...anthropic.usage };
      const calls = mcp.calls.length;
      try {
        Object.assign(anthropic.usage, { input: 200_000, cached: 0 });
        await client.updateSpace({ id: app, policies: { max_cost: 0.1 } });
        const capped = await lookUp();
        assert.equal(mcp.calls.length, calls, 'no call ran');
        assert.ok(!capped.content.some((b) => b.type === 'mcp_tool_use'));
        assert.match(
          String(warningOf(capped)),
          /calls to MCP servers were not run: its rounds so far cost \$0\.20\d*, as much as this Space's cost cap of \$0\.10/,
        );
      } finally {
        Object.assign(anthropic.usage, before);
        await client.updateSpace({ id: app, policies: { max_cost: 0 } });
      }
    } finally {
      await mcp.close();
    }
  });

  it('passes JSON asked by a schema to each provider in its own form', async () => {
    const schema = { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] };
    const sent: Array<Record<string, unknown>> = [];
    for (const [ns, fake] of [
      [OPENAI, openai],
      [ANTHROPIC, anthropic],
      [GEMINI, gemini],
    ] as const) {
      const app = await spaceWith([ns]);
      const res = await send(
        {
          app_id: app,
          model: ns,
          messages: [{ role: 'user', content: 'a word' }],
          response_format: { type: 'json_schema', json_schema: { name: 'word', schema } },
        },
        '/v1/chat/completions',
      );
      assert.equal(res.status, 200, res.text);
      sent.push(fake.seen.at(-1)!.body);
    }
    type Schema = { type: string; properties: unknown };
    const [toOpenAi, toAnthropic, toGemini] = sent as [
      { response_format: unknown },
      { output_config: { format: { type: string; schema: Schema } } },
      { generationConfig: { responseMimeType: string; responseJsonSchema: Schema } },
    ];
    assert.deepEqual(toOpenAi.response_format, {
      type: 'json_schema',
      json_schema: { name: 'word', schema, strict: false },
    });
    assert.equal(toAnthropic.output_config.format.type, 'json_schema');
    assert.deepEqual(toAnthropic.output_config.format.schema.properties, schema.properties);
    assert.equal(toGemini.generationConfig.responseMimeType, 'application/json');
    assert.deepEqual(toGemini.generationConfig.responseJsonSchema.properties, schema.properties);
  });

  it("holds a tool's calls to its schema where the client asks it (strict), in each provider's words, and says where it cannot", async () => {
    const schema = {
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
      additionalProperties: false,
    };
    const ask = 'call lookup {"word":"gateway"}';
    const app = await spaceWith([OPENAI, ANTHROPIC, GEMINI, 'deepseek/deepseek-v4-flash']);
    const openAiSdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const anthropicSdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const chat = (model: string, strict?: boolean) =>
      openAiSdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: ask }],
        tools: [
          {
            type: 'function',
            function: { name: 'lookup', parameters: schema, ...(strict === undefined ? {} : { strict }) },
          },
        ],
      });
    type OpenAiTools = { tools: Array<{ function: { strict?: unknown } }> };
    /** A chat completion's warning, in the service's metadata beside OpenAI's fields. */
    const chatWarning = (answer: unknown) => (answer as { metadata: { warning: unknown } }).metadata.warning;

    // OpenAI's Chat Completions, as asked: strict, not strict, or not said.
    for (const strict of [true, false, undefined]) {
      const answer = await chat(OPENAI, strict);
      assert.equal(answer.choices[0]!.finish_reason, 'tool_calls');
      assert.equal((openai.seen.at(-1)!.body as OpenAiTools).tools[0]!.function.strict, strict);
    }
    // OpenAI's Responses API: its function tool's own `strict`.
    await openAiSdk.responses.create({
      model: OPENAI,
      input: ask,
      tools: [{ type: 'function', name: 'lookup', parameters: schema, strict: true }],
    });
    assert.equal((openai.seen.at(-1)!.body as OpenAiTools).tools[0]!.function.strict, true);
    // Anthropic's Messages API (Claude Code's shape of a tool): to Anthropic as its own `strict`, and
    // to OpenAI as OpenAI's.
    const claudeTool = { name: 'lookup', input_schema: { ...schema, type: 'object' as const }, strict: true };
    const message = await anthropicSdk.messages.create({
      model: ANTHROPIC,
      max_tokens: 1024,
      tools: [claudeTool],
      messages: [{ role: 'user', content: ask }],
    });
    assert.equal(message.stop_reason, 'tool_use');
    const toAnthropic = anthropic.seen.at(-1)!.body as { tools: Array<{ name: string; strict?: unknown }> };
    assert.deepEqual(
      toAnthropic.tools.map((t) => [t.name, t.strict]),
      [['lookup', true]],
    );
    await anthropicSdk.messages.create({
      model: OPENAI,
      max_tokens: 1024,
      tools: [claudeTool],
      messages: [{ role: 'user', content: ask }],
    });
    assert.equal((openai.seen.at(-1)!.body as OpenAiTools).tools[0]!.function.strict, true);
    // Gemini: its function calling validated against the declarations.
    await chat(GEMINI, true);
    const toGemini = gemini.seen.at(-1)!.body as { toolConfig?: { functionCallingConfig?: { mode?: string } } };
    assert.equal(toGemini.toolConfig?.functionCallingConfig?.mode, 'VALIDATED');
    await chat(GEMINI, false);
    assert.notEqual((gemini.seen.at(-1)!.body as typeof toGemini).toolConfig?.functionCallingConfig?.mode, 'VALIDATED');
    // DeepSeek holds calls to a schema only at its beta address: elsewhere the tool goes without, and
    // the answer says so rather than failing.
    const deepseek = await chat('deepseek/deepseek-v4-flash', true);
    assert.equal(deepseek.choices[0]!.finish_reason, 'tool_calls');
    assert.equal((openai.seen.at(-1)!.body as OpenAiTools).tools[0]!.function.strict, undefined);
    assert.match(
      String(chatWarning(deepseek)),
      /DeepSeek holds tool calls to their schema \(strict\) only at its beta address .* the calls of lookup were not checked against it\./,
    );
    assert.equal(chatWarning(await chat(OPENAI, true)), OPENAI_RETIRES.trim());
  });

  it("bills a prompt longer than the price list's tier at its longer prompt's prices, as OpenAI counted it", async () => {
    const ns = 'openai/gpt-5.4';
    const app = await spaceWith([ns]);
    const m = byName(ns);
    const before = { ...openai.usage };
    try {
      // OpenAI counted 300,000 prompt tokens (100,000 from its cache): past GPT-5.4's 272,000.
      Object.assign(openai.usage, { input: 300_000, output: 1_000, cached: 100_000 });
      const res = await send(
        { app_id: app, model: ns, messages: [{ role: 'user', content: 'hello' }] },
        '/v1/chat/completions',
      );
      assert.equal(res.status, 200, res.text);
      const cost = (res.json as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens;
      // Every token at twice the input and cache-read prices and 1.5 times the output price.
      const expected =
        200_000 * 2 * m.prompt_token_cost +
        100_000 * 2 * m.cache_read_token_cost! +
        1_000 * 1.5 * m.completion_token_cost;
      assert.ok(Math.abs(cost - expected) < 1e-9, `${cost} vs ${expected}`);
      // Below the tier, the listed prices.
      Object.assign(openai.usage, { input: 271_999, output: 1_000, cached: 0 });
      const short = await send(
        { app_id: app, model: ns, messages: [{ role: 'user', content: 'hello' }] },
        '/v1/chat/completions',
      );
      const listed = 271_999 * m.prompt_token_cost + 1_000 * m.completion_token_cost;
      assert.ok(
        Math.abs(
          (short.json as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens - listed,
        ) < 1e-9,
      );
    } finally {
      Object.assign(openai.usage, before);
    }
  });

  it("passes OpenAI's current reasoning efforts (none to xhigh) to its reasoning models", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    const sent: unknown[] = [];
    for (const effort of ['none', 'low', 'xhigh']) {
      const res = await send(
        { app_id: app, model: ns, messages: [{ role: 'user', content: 'think' }], reasoning_effort: effort },
        '/v1/chat/completions',
      );
      assert.equal(res.status, 200, res.text);
      sent.push((openai.seen.at(-1)!.body.reasoning as { effort?: string } | undefined)?.effort);
    }
    assert.deepEqual(sent, ['none', 'low', 'xhigh']);
  });

  it("asks a model that refuses the reasoning effort again at once without one, and from then on (xAI's Grok 4.20)", async () => {
    // xAI's key, handed over, to the OpenAI fake, which plays xAI for Grok's models.
    const put = await raw(service.url, 'PUT', '/v1/providers/xai/key', {
      token: service.token,
      body: { key: openai.key, base_url: openai.baseUrl },
    });
    assert.equal(put.status, 200, put.text);
    try {
      // Nobody's dataset says whether Grok 4.20 takes an effort; it reasons, and refuses one.
      const ns = 'xai/grok-4.20';
      assert.equal(byName(ns).supports_reasoning, undefined);
      const app = await spaceWith([ns]);
      const ask = { app_id: app, model: ns, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Grok?' }] };
      const before = openai.seen.length;
      const first = await send(ask, '/v1/chat/completions');
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(
        openai.seen.slice(before).map((r) => r.body.reasoning_effort),
        ['high', undefined],
      );
      // The fake recorded the refusal it was sent; that one was expected.
      assert.deepEqual(openai.problems.splice(0), [
        `openai: Model grok-4.20 does not support parameter reasoningEffort. (grok-4.20)`,
      ]);
      const said = first.json as { choices: Array<{ message: { content: string } }>; metadata: { warning: string } };
      assert.equal(said.choices[0]!.message.content, 'echo: Grok?');
      assert.match(said.metadata.warning, /^xai\/grok-4\.20 refused the reasoning asked of it, so it answered without/);
      // It is not asked for one again: one request, no warning.
      const again = await send(ask, '/v1/chat/completions');
      assert.equal(again.status, 200, again.text);
      assert.equal(openai.seen.length, before + 3);
      assert.equal(openai.seen.at(-1)!.body.reasoning_effort, undefined);
      assert.equal((again.json as { metadata: { warning: unknown } }).metadata.warning, null);
    } finally {
      await raw(service.url, 'DELETE', '/v1/providers/xai/key', { token: service.token });
    }
  });

  it("lets OpenAI's reasoning models reason while they call tools (its Responses API), and shows their summary", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    const ask = {
      model: ns,
      reasoning_effort: 'high' as const,
      tools,
      messages: [{ role: 'user', content: 'call lookup {"q":1}' }],
    };
    const first = await send({ ...ask, app_id: app }, '/v1/chat/completions');
    assert.equal(first.status, 200, first.text);
    const sent = openai.seen.at(-1)!;
    // On Chat Completions OpenAI holds GPT-5.6 and later to no reasoning when function tools are sent.
    assert.equal(sent.path, '/v1/responses');
    assert.deepEqual(
      [(sent.body.reasoning as { effort: string }).effort, (sent.body.tools as Array<{ name: string }>)[0]!.name],
      ['high', 'lookup'],
    );
    // OpenAI keeps no copy of the conversation, as on Chat Completions.
    assert.equal(sent.body.store, false);
    const message = (
      first.json as {
        choices: Array<{
          message: { reasoning_content: string; tool_calls: Array<{ id: string; function: { arguments: string } }> };
        }>;
      }
    ).choices[0]!.message;
    assert.equal(message.reasoning_content, 'Thinking about: call lookup {"q":1}');
    assert.equal(message.tool_calls[0]!.function.arguments, '{"q":1}');
    // The tool's result goes back as the call's output (the fake checks it answers a call it was sent).
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    let reasoning = '';
    let text = '';
    const stream = await sdk.chat.completions.create({
      ...ask,
      tools: tools as never,
      stream: true,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: null, tool_calls: message.tool_calls as never },
        { role: 'tool', tool_call_id: message.tool_calls[0]!.id, content: 'found it' },
        { role: 'user', content: 'and so?' },
      ] as never,
    });
    for await (const piece of stream) {
      const delta = piece.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    assert.deepEqual([reasoning, text], ['Thinking about: and so?', 'echo: and so?']);
    const items = openai.seen.at(-1)!.body.input as Array<{ type?: string; output?: string }>;
    assert.deepEqual(
      items.filter((i) => i.type === 'function_call_output').map((i) => i.output),
      ['found it'],
    );
    // A model that does not reason stays on Chat Completions.
    const plain = await send({ app_id: await spaceWith([OPENAI]), model: OPENAI, prompt: 'plain' });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(openai.seen.at(-1)!.path, '/v1/chat/completions');
  });

  it("passes on Anthropic's pause of a long searching turn, and the turn sent back as it is goes on", async () => {
    const app = await spaceWith([ANTHROPIC]);
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = {
      model: ANTHROPIC,
      max_tokens: 2_000,
      tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const }],
      messages: [{ role: 'user' as const, content: 'Search long (the fake pauses: pause_turn)' }],
    };
    const paused = await sdk.messages.create(ask);
    assert.equal(paused.stop_reason, 'pause_turn');
    assert.deepEqual(
      paused.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result'],
    );
    const streamed = await sdk.messages.stream(ask).finalMessage();
    assert.equal(streamed.stop_reason, 'pause_turn');
    assert.deepEqual(streamed.content, paused.content);
    // As Anthropic's reference says to go on: the response back as it is, after the question.
    const goesOn = await sdk.messages.create({
      ...ask,
      messages: [...ask.messages, { role: 'assistant', content: paused.content }],
    });
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ role: string; content: Array<{ type: string }> }>;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.deepEqual(
      sent[1]!.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result'],
    );
    assert.equal(goesOn.stop_reason, 'end_turn');
    assert.deepEqual(
      goesOn.content.map((b) => b.type),
      ['text'],
    );
  });

  it("runs Codex's web search at OpenAI for an OpenAI reasoning model, whole and streamed, and sends it back in its place", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    // As Codex asks: its web search among its tools, stateless, the reasoning to come back encrypted.
    const ask = {
      model: ns,
      store: false,
      include: ['reasoning.encrypted_content' as const],
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      tools: [
        {
          type: 'web_search' as const,
          search_context_size: 'low' as const,
          filters: { allowed_domains: ['example.com'] },
          user_location: { type: 'approximate' as const, country: 'DE' },
        },
      ],
      input: 'What is new in gateways?',
    };
    const whole = await sdk.responses.create(ask);
    const given = openai.seen.at(-1)!.body;
    assert.equal(openai.seen.at(-1)!.path, '/v1/responses');
    assert.deepEqual(given.tools, [
      {
        type: 'web_search',
        filters: { allowed_domains: ['example.com'] },
        search_context_size: 'low',
        user_location: { type: 'approximate', country: 'DE' },
      },
    ]);
    // No limit asked, none sent; one asked is sent, and answered as OpenAI echoes it.
    assert.equal(given.max_tool_calls, undefined);
    assert.equal(whole.max_tool_calls, null);
    const limited = await sdk.responses.create({ ...ask, max_tool_calls: 1 });
    assert.equal(openai.seen.at(-1)!.body.max_tool_calls, 1);
    assert.equal(limited.max_tool_calls, 1);
    // The Space's cost cap counts as many searches as it allows; none allowed, the search is not offered.
    const sent = openai.seen.length;
    await assert.rejects(sdk.responses.create({ ...ask, max_tool_calls: 5 }), (e: Error) =>
      e.message.includes("and 5 web searches at $0.010 each), more than this Space's cost cap of $0.020 a request"),
    );
    assert.equal(openai.seen.length, sent);
    await sdk.responses.create({ ...ask, max_tool_calls: 0 });
    assert.equal(openai.seen.at(-1)!.body.tools, undefined);
    // As OpenAI gives them: the reasoning that led to the search, the search, the reasoning after it.
    assert.deepEqual(
      whole.output.map((o) => o.type),
      ['reasoning', 'web_search_call', 'reasoning', 'message'],
    );
    assert.deepEqual(
      [whole.output[0], whole.output[2]].map((o) => (o as OpenAI.Responses.ResponseReasoningItem).summary),
      [
        [{ type: 'summary_text', text: 'Thinking about: What is new in gateways?' }],
        [{ type: 'summary_text', text: 'Reading what it found on: What is new in gateways?' }],
      ],
    );
    const call = whole.output[1] as OpenAI.Responses.ResponseFunctionWebSearch;
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.action, { type: 'search', query: 'What is new in gateways?' });
    // The pages it found, when the request asks for them.
    const withPages = await sdk.responses.create({
      ...ask,
      include: [...ask.include, 'web_search_call.action.sources' as const],
    });
    assert.deepEqual((withPages.output[1] as OpenAI.Responses.ResponseFunctionWebSearch).action, {
      ...call.action,
      sources: [1, 2].map((n) => ({
        type: 'url',
        url: `https://example.com/${n}?q=What%20is%20new%20in%20gateways%3F`,
      })),
    });
    assert.equal(whole.output_text, 'echo: What is new in gateways?');
    assert.equal(warningOf(whole), null);
    // The text cites the first page where OpenAI said it does.
    const cites = [
      {
        type: 'url_citation',
        start_index: 6,
        end_index: whole.output_text.length,
        url: 'https://example.com/1?q=What%20is%20new%20in%20gateways%3F',
        title: 'Page 1 on What is new in gateways?',
      },
    ];
    assert.deepEqual((whole.output[3] as OpenAI.Responses.ResponseOutputMessage).content[0], {
      type: 'output_text',
      text: whole.output_text,
      annotations: cites,
      logprobs: [],
    });
    // OpenAI bills each search apart from the tokens, as the price dataset lists it for the model.
    const m = byName(ns);
    assert.equal(m.web_search_cost, 0.01);
    assertCost(whole, tokensCost(m) + 0.01);
    // Streamed, as OpenAI streams a search; the SDK's helper puts the same response together.
    const events: string[] = [];
    const stream = sdk.responses.stream(ask);
    stream.on('event', (e) =>
      events.push(e.type === 'response.output_item.done' ? `${e.type} ${e.item.type}` : e.type),
    );
    const streamed = await stream.finalResponse();
    assert.deepEqual(
      streamed.output.map((o) => o.type),
      ['reasoning', 'web_search_call', 'reasoning', 'message'],
    );
    assert.deepEqual(streamed.output[1], { ...call, id: (streamed.output[1] as { id: string }).id });
    assert.deepEqual(
      ((streamed.output[3] as OpenAI.Responses.ResponseOutputMessage).content[0] as OpenAI.Responses.ResponseOutputText)
        .annotations,
      cites,
    );
    // Each item ends before the next begins, so that Codex shows the reasoning, then the search.
    assert.deepEqual(
      events.filter((e) => e.startsWith('response.output_item.done')),
      ['reasoning', 'web_search_call', 'reasoning', 'message'].map((t) => `response.output_item.done ${t}`),
    );
    assert.ok(
      events.indexOf('response.output_item.done reasoning') < events.indexOf('response.web_search_call.in_progress'),
    );
    for (const type of [
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_text.annotation.added',
    ])
      assert.ok(events.includes(type), `${type} in ${events.join(', ')}`);
    // The next turn, as Codex sends it: everything back. OpenAI gets its reasoning item, then the
    // search, then its reasoning after it, then the message, in their order (the fake checks each
    // follows as it must).
    await sdk.responses.create({
      ...ask,
      input: [
        { role: 'user', content: ask.input },
        ...(streamed.output as never[]),
        { role: 'user', content: 'More?' },
      ],
    });
    const items = openai.seen.at(-1)!.body.input as Array<{
      type?: string;
      role?: string;
      id?: string;
      action?: unknown;
    }>;
    assert.deepEqual(
      items.map((i) => i.type ?? i.role),
      ['user', 'reasoning', 'web_search_call', 'reasoning', 'assistant', 'user'],
    );
    const search = items[2]!;
    assert.equal(search.id, (streamed.output[1] as { id: string }).id);
    // As OpenAI gave it, with its pages (which the service asks for, to send back whole).
    assert.deepEqual(search.action, (withPages.output[1] as OpenAI.Responses.ResponseFunctionWebSearch).action);
    // A model of another provider answers without searching, and says so.
    const other = await spaceWith([GEMINI]);
    const elsewhere = await new OpenAI({
      baseURL: `${service.url}/v1`,
      apiKey: keys.get(other)!,
      maxRetries: 0,
    }).responses.create({ ...ask, model: GEMINI, reasoning: undefined });
    assert.deepEqual(
      elsewhere.output.map((o) => o.type),
      ['message'],
    );
    assert.equal(gemini.seen.at(-1)!.body.tools, undefined);
    assert.equal(
      warningOf(elsewhere),
      `OpenAI's web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models (Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked), so ${GEMINI} answered without searching.`,
    );
  });

  it("runs OpenAI's tool search at OpenAI on GPT-5.4 and later, the deferred tools in their namespaces, and shows any other model every tool", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const tools = SEARCHED_TOOLS;
    const ask = {
      model: ns,
      store: false,
      include: ['reasoning.encrypted_content' as const],
      reasoning: { effort: 'low' as const },
      tools: tools as never,
      input: 'call get_customer {"id":"c-42"}',
    };
    const whole = await sdk.responses.create(ask);
    // OpenAI gets its search, the namespace as one, each tool under its own name, deferred as asked.
    const given = openai.seen.at(-1)!.body.tools as Array<Record<string, unknown>>;
    assert.deepEqual(
      given.map((t) => [
        t.type,
        t.name,
        t.defer_loading,
        (t.tools as Array<Record<string, unknown>> | undefined)?.map((f) => [f.name, f.defer_loading]),
      ]),
      [
        ['namespace', 'crm', undefined, [['get_customer', true]]],
        ['function', 'get_weather', true, undefined],
        ['function', 'now', undefined, undefined],
        ['tool_search', undefined, undefined, undefined],
      ],
    );
    assert.equal(given[0]!.description, 'Customer records.');
    // As OpenAI gives them: the reasoning, the search it ran and what it found, then the call, in its namespace.
    assert.deepEqual(
      whole.output.map((o) => o.type),
      ['reasoning', 'tool_search_call', 'tool_search_output', 'function_call'],
    );
    const [, call, found, fn] = whole.output as [
      unknown,
      OpenAI.Responses.ResponseToolSearchCall,
      OpenAI.Responses.ResponseToolSearchOutputItem,
      OpenAI.Responses.ResponseFunctionToolCall,
    ];
    assert.deepEqual(
      [call.execution, call.call_id, call.status, call.arguments],
      ['server', null, 'completed', { paths: ['crm'] }],
    );
    assert.deepEqual(
      [found.execution, found.call_id, found.tools.map((t) => [t.type, (t as { name: string }).name])],
      ['server', null, [['namespace', 'crm']]],
    );
    assert.deepEqual([fn.namespace, fn.name, JSON.parse(fn.arguments)], ['crm', 'get_customer', { id: 'c-42' }]);
    assert.equal(warningOf(whole), null);
    // Streamed, each item added and done in its place; the SDK's helper puts the same response together.
    const done: string[] = [];
    const stream = sdk.responses.stream(ask);
    stream.on('response.output_item.done', (e) => done.push(e.item.type));
    const streamed = await stream.finalResponse();
    assert.deepEqual(done, ['reasoning', 'tool_search_call', 'tool_search_output', 'function_call']);
    assert.deepEqual(streamed.output[2], { ...found, id: (streamed.output[2] as { id: string }).id });
    // The next turn, as a stateless client sends it: everything back, with the tool's output. OpenAI
    // gets its search in its place (the fake checks it is the one it gave, and that the call's
    // namespace holds the tool), and answers from the output.
    const nextTurn = {
      ...ask,
      input: [
        { role: 'user' as const, content: ask.input },
        ...(streamed.output as never[]),
        { type: 'function_call_output' as const, call_id: fn.call_id, output: 'Ada Lovelace' },
      ],
    };
    const next = await sdk.responses.create(nextTurn);
    assert.equal(next.output_text, 'echo: Ada Lovelace');
    const items = openai.seen.at(-1)!.body.input as Array<Record<string, unknown>>;
    assert.deepEqual(
      items.map((i) => i.type ?? i.role),
      ['user', 'reasoning', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output'],
    );
    assert.deepEqual([items[4]!.namespace, items[4]!.name], ['crm', 'get_customer']);
    // Counted as the model reads them: a tool waiting for the search not before a search loaded it.
    const count = async ({ store: _, include: __, ...body }: typeof ask | typeof nextTurn) =>
      (await sdk.responses.inputTokens.count(body)).input_tokens;
    const [search, crm, , now] = tools as [object, { tools: object[] }, object, object];
    assert.equal(await count(ask), await count({ ...ask, tools: [search, now] as never }));
    // Once the search loaded the namespace, its tool counts (the one it did not load still does not).
    const loaded = { ...crm, tools: crm.tools.map((t) => ({ ...t, defer_loading: false })) };
    assert.equal(await count(nextTurn), await count({ ...nextTurn, tools: [search, loaded, now] as never }));
    assert.ok((await count(nextTurn)) > (await count({ ...nextTurn, tools: [search, now] as never })));
    // A client that does not include the reasoning's encrypted content sends the search back as its two
    // items alone: OpenAI gets them in their place, as it gave them, and the namespace's tool counts.
    const alone = {
      ...nextTurn,
      include: [],
      input: nextTurn.input.filter((i) => (i as { type?: string }).type !== 'reasoning'),
    };
    assert.equal((await sdk.responses.create(alone)).output_text, 'echo: Ada Lovelace');
    const resent = openai.seen.at(-1)!.body.input as Array<Record<string, unknown>>;
    assert.deepEqual(
      resent.map((i) => i.type ?? i.role),
      ['user', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output'],
    );
    assert.deepEqual(
      [resent[1]!.id, resent[2]!.id],
      streamed.output.slice(1, 3).map((o) => (o as { id: string }).id),
    );
    assert.equal(await count(alone), await count({ ...alone, tools: [search, loaded, now] as never }));
    // An OpenAI model before GPT-5.4 is shown every tool (a namespace's by `<namespace>__<name>`), and told so.
    const older = 'openai/o3';
    const other = await spaceWith([older]);
    const olderSdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(other)!, maxRetries: 0 });
    const elsewhere = await olderSdk.responses.create({
      ...ask,
      model: older,
      input: 'call crm__get_customer {"id":"c-42"}',
    });
    const shown = openai.seen.at(-1)!.body.tools as Array<Record<string, unknown>>;
    assert.deepEqual(
      shown.map((t) => [t.type, t.name, t.defer_loading]),
      EVERY_TOOL_SHOWN,
    );
    const called = elsewhere.output.find((o) => o.type === 'function_call');
    assert.deepEqual([called?.namespace, called?.name], ['crm', 'get_customer']);
    assert.match(
      String(warningOf(elsewhere)),
      /OpenAI's tool search runs only on OpenAI's models from GPT-5\.4 on, and as Anthropic's own on Claude 4\.5 and later at Anthropic when a tool is not deferred, so openai\/o3 was shown every tool\./,
    );
    // A search sent back as its items alone does not go to it either: it reads the call by its flat name.
    assert.equal((await olderSdk.responses.create({ ...alone, model: older })).output_text, 'echo: Ada Lovelace');
    assert.deepEqual(
      (openai.seen.at(-1)!.body.input as Array<Record<string, unknown>>).map((i) => [i.type ?? i.role, i.name]),
      [
        ['user', undefined],
        ['function_call', 'crm__get_customer'],
        ['function_call_output', undefined],
      ],
    );
  });

  it("runs OpenAI's tool search on a Claude model at Anthropic as Anthropic's own, over the same deferred tools", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = {
      model: ANTHROPIC,
      store: false,
      include: ['reasoning.encrypted_content' as const],
      tools: SEARCHED_TOOLS as never,
      input: 'call crm__get_customer {"id":"c-42"}',
    };
    const first = await sdk.responses.create(ask);
    // Anthropic gets its BM25 search, and the tools that wait for OpenAI's deferred for its own.
    const given = anthropic.seen.at(-1)!.body.tools as Array<Record<string, unknown>>;
    assert.deepEqual(
      given.map((t) => [t.type ?? 'custom', t.name, t.defer_loading]),
      [
        ['custom', 'crm__get_customer', true],
        ['custom', 'get_weather', true],
        ['custom', 'now', undefined],
        ['tool_search_tool_bm25_20251119', 'tool_search_tool_bm25', undefined],
      ],
    );
    // The model searched, then called the tool it found: the call comes back in its namespace.
    const fn = first.output.find((o) => o.type === 'function_call');
    assert.deepEqual([fn?.namespace, fn?.name], ['crm', 'get_customer']);
    assert.equal(warningOf(first), null);
    const streamed = await sdk.responses.stream(ask).finalResponse();
    const streamedCall = streamed.output.find((o) => o.type === 'function_call');
    assert.deepEqual([streamedCall?.namespace, streamedCall?.name], ['crm', 'get_customer']);
    // The next turn: the tool it called is shown at once (its search does not come back through the
    // client), the one nobody loaded still waits for the search.
    const next = await sdk.responses.create({
      ...ask,
      input: [
        { role: 'user', content: ask.input },
        ...(first.output as never[]),
        { type: 'function_call_output', call_id: fn!.call_id, output: 'Ada Lovelace' },
      ],
    });
    assert.equal(next.status, 'completed');
    assert.deepEqual(
      (anthropic.seen.at(-1)!.body.tools as Array<Record<string, unknown>>).map((t) => [t.name, t.defer_loading]),
      [
        ['crm__get_customer', undefined],
        ['get_weather', true],
        ['now', undefined],
        ['tool_search_tool_bm25', undefined],
      ],
    );
    // A request that defers every tool is shown them all (Anthropic shows none otherwise), and told so.
    const everyDeferred = await sdk.responses.create({ ...ask, tools: SEARCHED_TOOLS.slice(0, 3) as never });
    assert.deepEqual(
      (anthropic.seen.at(-1)!.body.tools as Array<Record<string, unknown>>).map((t) => [t.name, t.defer_loading]),
      [
        ['crm__get_customer', undefined],
        ['get_weather', undefined],
      ],
    );
    assert.match(String(warningOf(everyDeferred)), /so anthropic\/claude-haiku-4-5 was shown every tool\./);
    assert.deepEqual(anthropic.problems, []);
  });

  it("runs Codex's web search at Anthropic for an Anthropic model, as Anthropic's, and tells it as OpenAI's", async () => {
    const app = await spaceWith([ANTHROPIC]);
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const query = 'What is new in gateways?';
    const ask = {
      model: ANTHROPIC,
      store: false,
      include: ['reasoning.encrypted_content' as const, 'web_search_call.action.sources' as const],
      tools: [
        {
          type: 'web_search' as const,
          search_context_size: 'low' as const,
          filters: { allowed_domains: ['example.com'] },
          user_location: { type: 'approximate' as const, country: 'DE' },
        },
      ],
      input: query,
    };
    const whole = await sdk.responses.create(ask);
    // Anthropic was given its own search, with the domains it may search and where the user is.
    const asAnthropics = {
      type: 'web_search_20250305',
      name: 'web_search',
      allowed_domains: ['example.com'],
      user_location: { type: 'approximate', country: 'DE' },
    };
    assert.deepEqual(anthropic.seen.at(-1)!.body.tools, [asAnthropics]);
    // How many searches the request allows, as Anthropic's max_uses.
    await sdk.responses.create({ ...ask, max_tool_calls: 2 });
    assert.deepEqual(anthropic.seen.at(-1)!.body.tools, [{ ...asAnthropics, max_uses: 2 }]);
    // The search as Codex reads one: a web_search_call with its query and the pages found, then the
    // message, which cites the first page.
    const items = whole.output.filter((o) => o.type !== 'reasoning');
    assert.deepEqual(
      items.map((o) => o.type),
      ['web_search_call', 'message'],
    );
    const call = items[0] as OpenAI.Responses.ResponseFunctionWebSearch;
    const pages = [1, 2].map((n) => `https://example.com/${n}?q=${encodeURIComponent(query)}`);
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.action, { type: 'search', query, sources: pages.map((url) => ({ type: 'url', url })) });
    const message = (items[1] as OpenAI.Responses.ResponseOutputMessage)
      .content[0] as OpenAI.Responses.ResponseOutputText;
    assert.ok(message.text.startsWith(SEARCH_LEAD), message.text);
    assert.deepEqual(
      message.annotations.map((a) => [a.type, (a as { url?: string }).url]),
      [['url_citation', pages[0]]],
    );
    assert.equal(warningOf(whole), null);
    // Anthropic bills the search apart from the tokens.
    const m = byName(ANTHROPIC);
    assertCost(whole, tokensCost(m) + m.web_search_cost!);
    // Streamed, the search is told as OpenAI streams one.
    const events: string[] = [];
    const stream = sdk.responses.stream(ask);
    stream.on('event', (e) =>
      events.push(e.type === 'response.output_item.done' ? `${e.type} ${e.item.type}` : e.type),
    );
    await stream.finalResponse();
    for (const type of [
      'response.output_item.done web_search_call',
      'response.web_search_call.completed',
      'response.output_text.annotation.added',
    ])
      assert.ok(events.includes(type), `${type} in ${events.join(', ')}`);
    // The next turn, as Codex sends it: everything back. Anthropic gets its own thinking only (the
    // fake checks each signature), not OpenAI's item for its search.
    await sdk.responses.create({
      ...ask,
      input: [{ role: 'user', content: query }, ...(whole.output as never[]), { role: 'user', content: 'More?' }],
    });
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    // As Codex offers its search by default (from OpenAI's index, not the live web), it runs as well.
    await sdk.responses.create({ ...ask, tools: [{ type: 'web_search', external_web_access: false }] });
    assert.deepEqual(anthropic.seen.at(-1)!.body.tools, [{ type: 'web_search_20250305', name: 'web_search' }]);
  });

  it("runs Chat Completions' web_search_options at Anthropic and at OpenAI, each as its own search, the pages in the message's annotations", async () => {
    const query = 'What is new in gateways?';
    const ask = {
      messages: [{ role: 'user' as const, content: query }],
      web_search_options: { user_location: { type: 'approximate' as const, approximate: { country: 'DE' } } },
    };
    const pages = [1, 2].map((n) => `https://example.com/${n}?q=${encodeURIComponent(query)}`);
    const cited = (c: OpenAI.ChatCompletion) =>
      (c.choices[0]!.message.annotations ?? []).map((a) => [a.type, a.url_citation.url]);
    /** Asks through a Space of `model` alone, with no cost cap (a new Space's would refuse a search). */
    const askOf = async (model: string) => {
      const app = await spaceWith([model]);
      await client.updateSpace({ id: app, policies: { max_cost: 0 } });
      const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
      return sdk.chat.completions.create({ ...ask, model });
    };
    // On an Anthropic model, as Anthropic's search, where the user is carried over.
    const claudeAnswer = await askOf(ANTHROPIC);
    assert.deepEqual(anthropic.seen.at(-1)!.body.tools, [
      { type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', country: 'DE' } },
    ]);
    assert.ok(claudeAnswer.choices[0]!.message.content!.startsWith(SEARCH_LEAD));
    assert.deepEqual(cited(claudeAnswer), [['url_citation', pages[0]]]);
    const m = byName(ANTHROPIC);
    // Billed as Anthropic bills the search, apart from the tokens.
    assertCost(
      { llm_spaces: (claudeAnswer as unknown as { metadata: unknown }).metadata },
      tokensCost(m) + m.web_search_cost!,
    );
    // On an OpenAI reasoning model, as OpenAI's search on its Responses API.
    const ns = 'openai/gpt-5.4-mini';
    const gptAnswer = await askOf(ns);
    const sent = openai.seen.at(-1)!;
    assert.equal(sent.path, '/v1/responses');
    assert.deepEqual(sent.body.tools, [{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }]);
    assert.deepEqual(cited(gptAnswer), [['url_citation', pages[0]]]);
  });

  it('gives an effort only to a model that reasons, as Codex sends one whichever model the Space picks', async () => {
    const app = await spaceWith([OPENAI]);
    // OpenAI refuses an effort for gpt-4o-mini with a 400; the fake too (see afterEach).
    const chat = await send(
      { app_id: app, model: OPENAI, messages: [{ role: 'user', content: 'think' }], reasoning_effort: 'medium' },
      '/v1/chat/completions',
    );
    assert.equal(chat.status, 200, chat.text);
    assert.equal(openai.seen.at(-1)!.body.reasoning_effort, undefined);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const response = await sdk.responses.create({
      model: OPENAI,
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
      input: 'think',
    });
    assert.equal(response.output_text, 'echo: think');
    assert.equal(openai.seen.at(-1)!.body.reasoning_effort, undefined);
  });

  it("passes OpenAI's prompt cache key and verbosity to OpenAI, takes them from any client, and refuses a dearer tier", async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const hints = {
      prompt_cache_key: 'session-42',
      prompt_cache_retention: '24h',
      verbosity: 'low',
      service_tier: 'auto',
      safety_identifier: 'u1',
    };
    const ask = (model: string, extra: Record<string, unknown> = hints) =>
      send({ app_id: app, model, messages: [{ role: 'user', content: 'hint' }], ...extra }, '/v1/chat/completions');
    assert.equal((await ask(OPENAI)).status, 200);
    const sent = openai.seen.at(-1)!.body;
    assert.deepEqual(
      [sent.prompt_cache_key, sent.prompt_cache_retention, sent.verbosity],
      ['session-42', '24h', 'low'],
      'as OpenAI names them',
    );
    assert.equal((await ask(ANTHROPIC)).status, 200, 'a hint other models go without');
    assert.doesNotMatch(JSON.stringify(anthropic.seen.at(-1)!.body), /session-42|verbosity|retention|24h/);
    const priority = await ask(OPENAI, { service_tier: 'priority' });
    assert.equal(priority.status, 422);
    const error = (priority.json as { error: { param: string; message: string } }).error;
    assert.equal(error.param, 'service_tier');
    assert.match(error.message, /flex and priority tiers cost otherwise/);
  });

  it("leaves a Responses conversation's earliest turns out to fit the model's window when asked (truncation: auto), and refuses it whole otherwise", async () => {
    const app = await spaceWith([OPENAI]);
    // Two long turns, each about 64,000 tokens: together more than gpt-4o-mini's 128,000.
    const long = (word: string) => `${word} `.repeat(64_000);
    const input = [
      { role: 'user', content: long('alpha') },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: long('beta') },
      { role: 'assistant', content: 'Noted too.' },
      { role: 'user', content: 'What came last?' },
    ];
    const ask = (truncation?: string) =>
      send({ app_id: app, model: OPENAI, input, ...(truncation ? { truncation } : {}) }, '/v1/responses');
    const whole = await ask();
    assert.equal(whole.status, 422, 'disabled, as by default: refused');
    assert.match(whole.text, /longer than the context window of openai\/gpt-4o-mini/);
    const res = await ask('auto');
    assert.equal(res.status, 200, res.text);
    const answer = res.json as { truncation: string; llm_spaces: { warning: string } };
    assert.equal(answer.truncation, 'auto');
    assert.match(
      answer.llm_spaces.warning,
      /The conversation's first 2 messages were left out \(truncation: auto\) to fit a context window of 128,000 tokens/,
    );
    // OpenAI is sent the turns from the second long one on.
    const sent = openai.seen.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(
      sent.map((m) => [m.role, m.content.slice(0, 5)]),
      [
        ['user', 'beta '],
        ['assistant', 'Noted'],
        ['user', 'What '],
      ],
    );
  });

  it("passes the prompt-cache marks of Anthropic's clients (Claude Code) to Anthropic, and to no other provider", async () => {
    const ephemeral = { type: 'ephemeral' };
    const body = (app: string, ns: string) => ({
      app_id: app,
      model: ns,
      max_tokens: 100,
      system: [
        { type: 'text', text: 'You are a coding agent.' },
        { type: 'text', text: 'Be brief.', cache_control: ephemeral },
      ],
      tools: [
        { name: 'Read', input_schema: { type: 'object', properties: {} } },
        { name: 'Bash', input_schema: { type: 'object', properties: {} }, cache_control: ephemeral },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Read the file.', cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'the file', cache_control: ephemeral },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
    });
    const app = await spaceWith([ANTHROPIC]);
    Object.assign(anthropic.usage, { written: 4, hour: 1 });
    const res = await send({ ...body(app, ANTHROPIC), output_config: { effort: 'max' } }, '/v1/messages');
    const asked = anthropic.seen.at(-1)!;
    const streamed = await send({ ...body(app, ANTHROPIC), stream: true }, '/v1/messages');
    Object.assign(anthropic.usage, { written: 0, hour: 0 });
    assert.equal(res.status, 200, res.text);
    // What Anthropic wrote to its cache is said as it says it, and billed at its cache-write price.
    const answer = res.json as {
      usage: Record<string, number>;
      llm_spaces: { costs: { total_tokens: number } };
    };
    assert.deepEqual(answer.usage, {
      input_tokens: 4,
      output_tokens: 7,
      cache_creation_input_tokens: 4,
      cache_read_input_tokens: 3,
    });
    const m = byName(ANTHROPIC);
    // An hour's write costs more than five minutes', which cost more than the plain prompt.
    assert.ok(
      m.cache_write_1h_token_cost! > m.cache_write_token_cost! && m.cache_write_token_cost! > m.prompt_token_cost,
    );
    const expected =
      4 * m.prompt_token_cost +
      3 * m.cache_read_token_cost! +
      3 * m.cache_write_token_cost! +
      m.cache_write_1h_token_cost! +
      7 * m.completion_token_cost;
    assert.ok(
      Math.abs(answer.llm_spaces.costs.total_tokens - expected) < 1e-12,
      `${answer.llm_spaces.costs.total_tokens}`,
    );
    // Streamed, the same counts and cost arrive with the message's last delta.
    const delta = JSON.parse(/event: message_delta\ndata: (.*)/.exec(streamed.text)![1]!) as typeof answer;
    assert.deepEqual(delta.usage, answer.usage);
    assert.ok(
      Math.abs(delta.llm_spaces.costs.total_tokens - expected) < 1e-12,
      `${delta.llm_spaces.costs.total_tokens}`,
    );
    // The conversation's last turn called a tool, and Claude Code sent back no thinking before it:
    // Anthropic would refuse the effort's thinking, so the model answers without it, and says why.
    assert.deepEqual(asked.body.thinking, { type: 'disabled' });
    assert.equal(asked.body.max_tokens, 100);
    assert.equal(
      (res.json as { llm_spaces: { warning: string } }).llm_spaces.warning,
      'anthropic/claude-haiku-4-5 answered without thinking: the turn it continues called tools without the thinking before those calls, which Anthropic needs back.',
    );
    type Block = { type: string; cache_control?: unknown };
    const seen = asked.body as {
      system: Block[];
      tools: Array<{ name: string; cache_control?: unknown }>;
      messages: Array<{ role: string; content: Block[] }>;
    };
    assert.deepEqual(seen.system.at(-1)!.cache_control, ephemeral, 'the system prompt');
    assert.deepEqual(
      seen.tools.map((t) => [t.name, t.cache_control]),
      [
        ['Read', undefined],
        ['Bash', ephemeral],
      ],
    );
    assert.deepEqual(seen.messages[0]!.content.at(-1)!.cache_control, ephemeral, 'the first question');
    const result = seen.messages.at(-1)!.content.find((b) => b.type === 'tool_result')!;
    assert.deepEqual(result.cache_control, ephemeral, 'the tool result');
    assert.equal(JSON.stringify(seen).match(/cache_control/g)!.length, 4, 'no more marks than were sent');
    // Anthropic's automatic caching (a top-level mark): a breakpoint at the end of the last message,
    // none past the four Anthropic takes.
    const later = [
      ...body(app, ANTHROPIC).messages,
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Next.' },
    ];
    const automatic = (messages: unknown[]) =>
      send({ ...body(app, ANTHROPIC), messages, cache_control: ephemeral }, '/v1/messages');
    assert.equal((await automatic(later)).status, 200);
    assert.equal(JSON.stringify(anthropic.seen.at(-1)!.body).match(/cache_control/g)!.length, 4, 'four already');
    assert.equal(
      (
        await automatic([
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Again' },
        ])
      ).status,
      200,
    );
    const marked = anthropic.seen.at(-1)!.body as { messages: Array<{ content: Block[] }> };
    assert.deepEqual(marked.messages.at(-1)!.content.at(-1)!.cache_control, ephemeral, 'the last message');
    assert.equal(JSON.stringify(marked.messages).match(/cache_control/g)!.length, 1);
    const other = await spaceWith([OPENAI]);
    assert.equal((await send(body(other, OPENAI), '/v1/messages')).status, 200);
    assert.doesNotMatch(JSON.stringify(openai.seen.at(-1)!.body), /cache_control|cacheControl/);
  });

  it("gives an effort on a model that thinks by budget its thinking inside max_tokens, which the Space's max_cost priced", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const m = byName(ANTHROPIC);
    // Room for 8,000 tokens of output and the prompt, not for the 38,400-token budget (60% of Haiku
    // 4.5's 64,000) the AI SDK would add on top of them.
    const maxCost = 9_000 * m.completion_token_cost;
    await client.updateSpace({ id: app, policies: { max_cost: maxCost } });
    const ask = (effort: string, maxTokens: number) =>
      send(
        {
          app_id: app,
          model: ANTHROPIC,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'Think it over.' }],
          output_config: { effort },
        },
        '/v1/messages',
      );
    const high = await ask('high', 8_000);
    assert.equal(high.status, 200, high.text);
    const asked = anthropic.seen.at(-1)!.body as { max_tokens: number; thinking?: unknown };
    assert.equal(asked.max_tokens, 8_000);
    assert.deepEqual(asked.thinking, { type: 'enabled', budget_tokens: 4_800 });
    assert.equal((high.json as { llm_spaces: { warning: unknown } }).llm_spaces.warning, null);
    assert.ok(asked.max_tokens * m.completion_token_cost < maxCost);
    // The least budget, when a low effort's share of max_tokens is smaller.
    assert.equal((await ask('low', 4_000)).status, 200);
    assert.deepEqual(anthropic.seen.at(-1)!.body.thinking, { type: 'enabled', budget_tokens: 1_024 });
    assert.equal(anthropic.seen.at(-1)!.body.max_tokens, 4_000);
    // No thinking when max_tokens cannot hold the least budget and an answer; the answer says why.
    const small = await ask('high', 1_000);
    assert.equal(small.status, 200, small.text);
    assert.equal(anthropic.seen.at(-1)!.body.thinking, undefined);
    assert.equal(anthropic.seen.at(-1)!.body.max_tokens, 1_000);
    assert.equal(
      (small.json as { llm_spaces: { warning: string } }).llm_spaces.warning,
      'anthropic/claude-haiku-4-5 answered without thinking: a max_tokens of 1,000 cannot hold its least thinking budget (1,024 tokens) and an answer.',
    );
  });

  it("keeps a request asked to run in the US only (inference_geo) to Anthropic's own API, at its price for that", async () => {
    const NEWER = 'anthropic/claude-sonnet-4-6';
    const app = await spaceWith([OPENAI, NEWER]);
    await client.updateSpace({ id: app, name: 'In the US only' });
    const ask = (fields: Record<string, unknown>) =>
      send(
        {
          app_id: app,
          model: 'In the US only',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Where does this run?' }],
          ...fields,
        },
        '/v1/messages',
      );
    type Answer = {
      model: string;
      llm_spaces: { routing: { rejected: Array<{ namespace: string; reason: string }> } };
    };
    // Left to the Space, the cheaper OpenAI model answers; asked to stay in the US, Claude on Anthropic's API.
    const anywhere = await ask({});
    assert.equal((anywhere.json as Answer).model, OPENAI, anywhere.text);
    const us = await ask({ inference_geo: 'us' });
    assert.equal(us.status, 200, us.text);
    assert.equal((us.json as Answer).model, NEWER);
    assert.deepEqual(
      (us.json as Answer).llm_spaces.routing.rejected.filter((r) => r.namespace === OPENAI),
      [{ namespace: OPENAI, reason: 'cannot run in the US only' }],
    );
    assert.equal(anthropic.seen.at(-1)!.body.inference_geo, 'us');
    // Anthropic bills its models since Claude Opus 4.6 10% more to run in the US only.
    assertCost(us.json, 1.1 * tokensCost(byName(NEWER)));
    const global = await ask({ model: NEWER, inference_geo: 'global' });
    assert.equal(anthropic.seen.at(-1)!.body.inference_geo, 'global');
    assertCost(global.json, tokensCost(byName(NEWER)));
    // An older Claude keeps one price; a model named that cannot promise it is refused in words.
    const older = await send(
      {
        app_id: await spaceWith([ANTHROPIC]),
        model: ANTHROPIC,
        max_tokens: 100,
        inference_geo: 'us',
        messages: [{ role: 'user', content: 'Where does this run?' }],
      },
      '/v1/messages',
    );
    assertCost(older.json, tokensCost(byName(ANTHROPIC)));
    const named = await ask({ model: OPENAI, inference_geo: 'us' });
    assert.equal(named.status, 422);
    assert.match(
      named.text,
      /openai\/gpt-4o-mini cannot promise to run in the US only: only models on Anthropic's own API, or on Amazon Bedrock or Vertex AI in a US region/,
    );
    assert.equal((await ask({ inference_geo: 'eu' })).status, 422);
    // A Space with no Claude model of Anthropic's API says what could serve it.
    const noClaude = await spaceWith([OPENAI]);
    await client.updateSpace({ id: noClaude, name: 'No Claude' });
    const none = await send(
      {
        app_id: noClaude,
        model: 'No Claude',
        max_tokens: 100,
        inference_geo: 'us',
        messages: [{ role: 'user', content: 'Hi' }],
      },
      '/v1/messages',
    );
    assert.equal(none.status, 422);
    assert.match(
      none.text,
      /inference_geo: No active model of this Space can promise to run in the US only: Claude models on Anthropic’s own API can/,
    );
  });

  it("hands Claude Code an Anthropic model's thinking, whole and streamed, and sends it back signed in a tool loop", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const tools = [{ name: 'Read', input_schema: { type: 'object' as const, properties: {} } }];
    const first = {
      model: ANTHROPIC,
      max_tokens: 3_000,
      thinking: { type: 'enabled' as const, budget_tokens: 2_000 },
      tools,
      messages: [{ role: 'user' as const, content: 'call Read {"path":"a.ts"}' }],
    };
    const whole = await sdk.messages.create(first);
    // Asked as Anthropic counts it: the budget inside max_tokens.
    assert.deepEqual(anthropic.seen.at(-1)!.body.thinking, { type: 'enabled', budget_tokens: 2_000 });
    assert.equal(anthropic.seen.at(-1)!.body.max_tokens, 3_000);
    assert.deepEqual(
      whole.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    const thought = whole.content[0] as { thinking: string; signature: string };
    assert.equal(thought.thinking, 'Thinking about: call Read {"path":"a.ts"}');
    assert.match(thought.signature, /^sig-/);
    // Streamed, the SDK's helper puts the same blocks together from thinking_delta and signature_delta.
    const streamed = await sdk.messages.stream(first).finalMessage();
    assert.deepEqual(streamed.content, whole.content);
    // The next turn sends the thinking back before the tool use, as Anthropic needs in a tool loop.
    const next = await sdk.messages.create({
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: streamed.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: (streamed.content[1] as { id: string }).id, content: 'the file' },
            { type: 'text', text: 'Now explain it.' },
          ],
        },
      ],
    });
    assert.deepEqual(
      next.content.map((b) => b.type),
      ['thinking', 'text'],
    );
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    assert.deepEqual(sent[1]!.content[0], {
      type: 'thinking',
      thinking: thought.thinking,
      signature: thought.signature,
    });
    assert.equal(warningOf(next), null);
    // Chat Completions carry the thinking's text to show, as `reasoning_content` (DeepSeek's and
    // LiteLLM's name, which Cline and the AI SDK read), whole and streamed, and never a signature.
    const ask = {
      model: ANTHROPIC,
      max_tokens: 3_000,
      reasoning_effort: 'low' as const,
      messages: [{ role: 'user' as const, content: 'Think first.' }],
    };
    const chat = await send({ ...ask, app_id: app }, '/v1/chat/completions');
    assert.equal(chat.status, 200, chat.text);
    assert.equal(anthropic.seen.at(-1)!.body.thinking !== undefined, true);
    const said = (chat.json as { choices: Array<{ message: { content: string; reasoning_content: string } }> })
      .choices[0]!.message;
    assert.deepEqual([said.reasoning_content, said.content], ['Thinking about: Think first.', 'echo: Think first.']);
    assert.doesNotMatch(chat.text, /signature|sig-/i);
    const openaiSdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    let reasoning = '';
    let text = '';
    for await (const piece of await openaiSdk.chat.completions.create({ ...ask, stream: true })) {
      const delta = piece.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    assert.deepEqual([reasoning, text], [said.reasoning_content, said.content]);
  });

  it("runs Claude Code's web search at Anthropic for an Anthropic model, whole and streamed, and sends the search back in later turns", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = claudeCodeSearch(ANTHROPIC);
    // Each search is billed: a new Space's cost cap counts the eight the tool allows, and says so.
    await assert.rejects(
      sdk.messages.create(ask),
      (e: Error) =>
        e.message.includes(
          `${ANTHROPIC} may cost up to $0.090 for this request (its prompt, the longest reply its max_tokens allows, and 8 web searches at $0.010 each), more than this Space's cost cap of $0.020 a request`,
        ) && e.message.endsWith('or ask for a shorter reply (max_tokens) or fewer web searches (max_uses)"}}'),
    );
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    const whole = await sdk.messages.create(ask);
    // Anthropic was given the tool as the client asked it, with its limits.
    const given = anthropic.seen.at(-1)!.body.tools as Array<Record<string, unknown>>;
    assert.deepEqual(given, [
      {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 8,
        allowed_domains: ['example.com'],
        user_location: { type: 'approximate', country: 'DE', timezone: 'Europe/Berlin' },
      },
    ]);
    // What the model wrote before it searched comes before the search, whole as streamed.
    assert.deepEqual(
      whole.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result', 'text'],
    );
    assert.equal((whole.content[0] as Anthropic.TextBlock).text, SEARCH_LEAD);
    const [, use, result] = whole.content as [
      Anthropic.TextBlock,
      Anthropic.ServerToolUseBlock,
      Anthropic.WebSearchToolResultBlock,
    ];
    assert.deepEqual(use.input, { query: 'Perform a web search for the query: gateway' });
    assert.equal(result.tool_use_id, use.id);
    const pages = result.content as Anthropic.WebSearchResultBlock[];
    assert.deepEqual(
      pages.map((p) => [p.title, p.page_age]),
      [
        ['Page 1 on Perform a web search for the query: gateway', 'November 26, 2026'],
        ['Page 2 on Perform a web search for the query: gateway', 'November 26, 2026'],
      ],
    );
    assert.match(pages[0]!.encrypted_content, /^enc-/);
    // The answer cites the first page, as Anthropic gave it, with its encrypted index.
    const citations = (whole.content[3] as Anthropic.TextBlock)
      .citations as Anthropic.CitationsWebSearchResultLocation[];
    assert.deepEqual(
      citations.map(({ encrypted_index, ...rest }) => ({ ...rest, sealed: /^enc-/.test(encrypted_index) })),
      [
        {
          type: 'web_search_result_location',
          url: pages[0]!.url,
          title: pages[0]!.title,
          cited_text: 'What page 1 says of Perform a web search for the query: gateway',
          sealed: true,
        },
      ],
    );
    assert.equal(whole.usage.server_tool_use?.web_search_requests, 1);
    assert.equal(warningOf(whole), null);
    // Anthropic bills each search apart from the tokens, as the price dataset lists it for the model.
    const m = byName(ANTHROPIC);
    assert.equal(m.web_search_cost, 0.01);
    assertCost(whole, tokensCost(m) + 0.01);
    // Streamed, the SDK's helper puts the same blocks together from Anthropic's events.
    const streamed = await sdk.messages.stream(ask).finalMessage();
    assert.deepEqual(streamed.content, whole.content);
    assert.equal(streamed.usage.server_tool_use?.web_search_requests, 1);
    // The next turn sends the search back as it was given (the pages' encrypted content, which
    // Anthropic checks), in its place in the text; the fake finds nothing wrong with it (afterEach).
    await sdk.messages.create({
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: whole.content },
        { role: 'user', content: 'And more?' },
      ],
    });
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    assert.deepEqual(
      sent[1]!.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result', 'text'],
    );
    assert.deepEqual(
      [sent[1]!.content[0]!.text, sent[1]!.content[3]!.text],
      [SEARCH_LEAD, (whole.content[3] as Anthropic.TextBlock).text],
    );
    assert.deepEqual(sent[1]!.content[2]!.content, JSON.parse(JSON.stringify(pages)));
    // A search Anthropic could not run comes as its error, and goes back so.
    const failed = await sdk.messages
      .stream({
        ...ask,
        messages: [{ role: 'user', content: 'Search for: max_uses_exceeded' }],
      })
      .finalMessage();
    assert.deepEqual(failed.content[2], {
      type: 'web_search_tool_result',
      tool_use_id: (failed.content[1] as Anthropic.ServerToolUseBlock).id,
      content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
    });
    await sdk.messages.create({
      ...ask,
      messages: [
        { role: 'user', content: 'Search for: max_uses_exceeded' },
        { role: 'assistant', content: failed.content },
        { role: 'user', content: 'Try again.' },
      ],
    });
    const again = anthropic.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.deepEqual(again[1]!.content[2], failed.content[2]);
    // A search that failed is not billed.
    assertCost(
      await sdk.messages.create({ ...ask, messages: [{ role: 'user', content: 'Search for: max_uses_exceeded' }] }),
      tokensCost(m),
    );
    // To a model of another provider the search is not given, and the answer says so in words.
    assert.equal(
      await askedOfOpenAi(ask),
      `${OPENAI_RETIRES}Anthropic's web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models (Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked), so ${OPENAI} answered without searching.`,
    );
  });

  it("runs Claude Code's web search at OpenAI for an OpenAI reasoning model, and never sends its pages to Anthropic", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns, ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const query = 'Perform a web search for the query: gateway';
    const ask = claudeCodeSearch(ns);
    const search = CLAUDE_CODE_SEARCH;
    // Each search is billed at OpenAI's price: a new Space's cost cap counts the eight the tool allows.
    await assert.rejects(sdk.messages.create(ask), (e: Error) =>
      e.message.includes("and 8 web searches at $0.010 each), more than this Space's cost cap of $0.020 a request"),
    );
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    const whole = await sdk.messages.create(ask);
    // OpenAI was given its own search, with the domains it may search and where the user is, and as
    // many searches as the tool allows (OpenAI's max_tool_calls: the search is its only built-in tool).
    assert.equal(openai.seen.at(-1)!.path, '/v1/responses');
    assert.deepEqual(openai.seen.at(-1)!.body.tools, [
      {
        type: 'web_search',
        filters: { allowed_domains: ['example.com'] },
        user_location: { type: 'approximate', country: 'DE', timezone: 'Europe/Berlin' },
      },
    ]);
    assert.equal(openai.seen.at(-1)!.body.max_tool_calls, search.max_uses);
    // The search as Claude Code's WebSearch reads one: its query and the pages OpenAI found, then the
    // text, its cited stretch a block of its own.
    const blocks = whole.content.filter((b) => b.type !== 'thinking');
    assert.deepEqual(
      blocks.map((b) => b.type),
      ['server_tool_use', 'web_search_tool_result', 'text', 'text'],
    );
    const [use, result, , cited] = blocks as [
      Anthropic.ServerToolUseBlock,
      Anthropic.WebSearchToolResultBlock,
      Anthropic.TextBlock,
      Anthropic.TextBlock,
    ];
    assert.deepEqual(use.input, { query });
    assert.equal(result.tool_use_id, use.id);
    const pages = [1, 2].map((n) => `https://example.com/${n}?q=${encodeURIComponent(query)}`);
    assert.deepEqual(
      (result.content as Anthropic.WebSearchResultBlock[]).map((p) => p.url),
      pages,
    );
    assert.deepEqual(
      (cited.citations as Anthropic.CitationsWebSearchResultLocation[]).map((c) => [c.type, c.url, c.title]),
      [['web_search_result_location', pages[0], `Page 1 on ${query}`]],
    );
    assert.equal(whole.usage.server_tool_use?.web_search_requests, 1);
    assert.equal(warningOf(whole), null);
    // OpenAI bills the search apart from the tokens.
    const m = byName(ns);
    assertCost(whole, tokensCost(m) + m.web_search_cost!);
    // Streamed, the same search; the pages cited come after the text, so they are its whole block's.
    const streamed = await sdk.messages.stream(ask).finalMessage();
    const [streamedUse, streamedResult, text] = streamed.content.filter((b) => b.type !== 'thinking') as [
      Anthropic.ServerToolUseBlock,
      Anthropic.WebSearchToolResultBlock,
      Anthropic.TextBlock,
    ];
    assert.deepEqual(streamedUse, { ...use, id: streamedUse.id });
    assert.deepEqual(streamedResult, { ...result, tool_use_id: streamedUse.id });
    assert.deepEqual(text, { type: 'text', text: `echo: ${query}`, citations: cited.citations });
    // Sent back to the OpenAI model, the search goes back in its place (the fake checks it is as given);
    // to an Anthropic model, neither OpenAI's search nor its pages go (Anthropic would refuse pages it
    // did not encrypt: the fake checks that too).
    const later = (model: string) =>
      sdk.messages.create({
        ...ask,
        model,
        messages: [
          { role: 'user', content: query },
          { role: 'assistant', content: streamed.content },
          { role: 'user', content: 'And the second page?' },
        ],
      });
    await later(ns);
    const items = openai.seen.at(-1)!.body.input as Array<{ type?: string; role?: string }>;
    assert.ok(
      items.some((i) => i.type === 'web_search_call'),
      JSON.stringify(items.map((i) => i.type ?? i.role)),
    );
    await later(ANTHROPIC);
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.ok(!JSON.stringify(sent).includes('server_tool_use'), JSON.stringify(sent[1]));
    // OpenAI's search cannot leave domains out: asked to, the model answers without searching, and says so.
    const blocked = await sdk.messages.create({
      ...ask,
      tools: [{ ...search, allowed_domains: undefined, blocked_domains: ['example.org'] }],
    });
    assert.equal(openai.seen.at(-1)!.body.tools, undefined);
    assert.equal(
      warningOf(blocked),
      `Anthropic's web search with blocked domains runs only on Anthropic's models, so ${ns} answered without searching.`,
    );
  });

  it("runs Anthropic's web fetch at Anthropic for an Anthropic model, whole and streamed, and sends the page back in later turns", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const url = 'https://example.com/gateways';
    const fetchTool = {
      type: 'web_fetch_20250910' as const,
      name: 'web_fetch' as const,
      max_uses: 2,
      allowed_domains: ['example.com'],
      citations: { enabled: true },
      max_content_tokens: 50_000,
    };
    const ask = {
      model: ANTHROPIC,
      max_tokens: 2_000,
      messages: [{ role: 'user' as const, content: `Summarize ${url}` }],
      tools: [fetchTool],
    };
    // A page read is billed as prompt tokens: a new Space's cost cap counts the two pages of 50,000
    // tokens at most that the tool allows, and says so.
    await assert.rejects(
      sdk.messages.create(ask),
      (e: Error) =>
        /may cost up to \$0\.\d+ for this request \(its prompt, the longest reply its max_tokens allows, and 100,000 tokens of pages its web fetch may read\), more than this Space's cost cap of \$0\.020 a request/.test(
          e.message,
        ) &&
        e.message.endsWith(
          'or ask for a shorter reply (max_tokens) or fewer tokens of pages (max_content_tokens, max_uses)"}}',
        ),
    );
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    const whole = await sdk.messages.create(ask);
    // Anthropic was given the tool as the client asked it, with its limits (and the beta header of
    // this version, which the fake checks).
    assert.deepEqual(anthropic.seen.at(-1)!.body.tools, [
      {
        type: 'web_fetch_20250910',
        name: 'web_fetch',
        max_uses: 2,
        allowed_domains: ['example.com'],
        citations: { enabled: true },
        max_content_tokens: 50_000,
      },
    ]);
    assert.deepEqual(
      whole.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_fetch_tool_result', 'text'],
    );
    assert.equal((whole.content[0] as Anthropic.TextBlock).text, FETCH_LEAD);
    const use = whole.content[1] as Anthropic.ServerToolUseBlock;
    assert.deepEqual([use.name, use.input], ['web_fetch', { url }]);
    const read = whole.content[2] as unknown as { tool_use_id: string; content: Record<string, unknown> };
    assert.equal(read.tool_use_id, use.id);
    assert.deepEqual(read.content, pageRead(url));
    // The answer cites the passage of the page it read, as Anthropic gave it.
    assert.deepEqual((whole.content[3] as Anthropic.TextBlock).citations, [
      {
        type: 'char_location',
        cited_text: CITED_PASSAGE,
        document_index: 0,
        document_title: `The page at ${url}`,
        start_char_index: pageText(url).indexOf(CITED_PASSAGE),
        end_char_index: pageText(url).length,
      },
    ]);
    assert.deepEqual(whole.usage.server_tool_use, { web_search_requests: 0, web_fetch_requests: 1 });
    assert.equal(warningOf(whole), null);
    // A page read costs its tokens only: no search is billed.
    assertCost(whole, tokensCost(byName(ANTHROPIC)));
    // Streamed, the SDK's helper puts the same blocks together from the service's events.
    const streamed = await sdk.messages.stream(ask).finalMessage();
    assert.deepEqual(streamed.content, whole.content);
    assert.equal(streamed.usage.server_tool_use?.web_fetch_requests, 1);
    // The next turn sends the page back as Anthropic gave it, in its place in the text; the fake finds
    // nothing wrong with it (afterEach).
    await sdk.messages.create({
      ...ask,
      messages: [...ask.messages, { role: 'assistant', content: whole.content }, { role: 'user', content: 'Thanks.' }],
    });
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      sent[1]!.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_fetch_tool_result', 'text'],
    );
    assert.deepEqual(sent[1]!.content[2], { ...read, type: 'web_fetch_tool_result' });
    // A page Anthropic could not read comes as its error, streamed too, and goes back so.
    const unreachable = { ...ask, messages: [{ role: 'user' as const, content: 'Read https://unreachable.example' }] };
    const failed = await sdk.messages.stream(unreachable).finalMessage();
    assert.deepEqual((failed.content[2] as unknown as { content: unknown }).content, {
      type: 'web_fetch_tool_result_error',
      error_code: 'url_not_accessible',
    });
    await sdk.messages.create({
      ...ask,
      messages: [
        ...unreachable.messages,
        { role: 'assistant', content: failed.content },
        { role: 'user', content: 'Again.' },
      ],
    });
    const again = anthropic.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.deepEqual(again[1]!.content[2], JSON.parse(JSON.stringify(failed.content[2])));
    // A page sent back is read again as prompt, so the Space's cap counts it: a turn after a long page
    // (about 40,000 tokens) is refused where the same turn without the page is not.
    const long = await sdk.messages.create({
      ...ask,
      messages: [{ role: 'user', content: 'Summarize https://example.com/long' }],
    });
    await client.updateSpace({ id: app, policies: { max_cost: 0.03 } });
    const after = (content: Anthropic.ContentBlockParam[]) => ({
      model: ANTHROPIC,
      max_tokens: 2_000,
      messages: [
        { role: 'user' as const, content: 'Summarize https://example.com/long' },
        { role: 'assistant' as const, content },
        { role: 'user' as const, content: 'Thanks.' },
      ],
    });
    await assert.rejects(sdk.messages.create(after(long.content)), (e: Error) =>
      /may cost up to \$0\.0[4-9]\d* for this request \(its prompt and the longest reply/.test(e.message),
    );
    await sdk.messages.create(after(long.content.filter((b) => b.type === 'text')));
    await client.updateSpace({ id: app, policies: { max_cost: 0 } });
    // To a model of another provider the fetch is not given, and the answer says so in words.
    assert.equal(
      await askedOfOpenAi(ask),
      `${OPENAI_RETIRES}Anthropic's web fetch runs only on Anthropic's models, so ${OPENAI} answered without reading pages.`,
    );
    // An app written with the AI SDK's Anthropic package, sending through the Space, reads the page the
    // model read as the package reads Anthropic's own answer, whole and streamed.
    const aiSdk = createAnthropic({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)! });
    const tools = { web_fetch: aiSdk.tools.webFetch_20250910({ maxUses: 1 }) };
    const prompt = `Summarize ${url}`;
    const generated = await generateText({ model: aiSdk(ANTHROPIC), prompt, tools, maxRetries: 0 });
    const streamedSdk = streamText({ model: aiSdk(ANTHROPIC), prompt, tools, maxRetries: 0 });
    for (const content of [generated.content, await streamedSdk.content]) {
      const page = content.find((p) => p.type === 'tool-result' && p.toolName === 'web_fetch');
      assert.ok(page?.type === 'tool-result' && page.providerExecuted, JSON.stringify(content));
      assert.equal((page.output as { content: { source: { data: string } } }).content.source.data, pageText(url));
      assert.equal(content.at(-1)?.type === 'text' && content.at(-1)!.type, 'text');
    }
    assert.ok(generated.text.startsWith(FETCH_LEAD) && generated.text.endsWith(prompt), generated.text);
  });

  it("passes instructions given in the course of a conversation (Claude Code's, to a model it does not know) to Anthropic and to OpenAI", async () => {
    const app = await spaceWith([ANTHROPIC, OPENAI]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = (model: string) =>
      sdk.messages.create({
        model,
        max_tokens: 200,
        system: 'You are a coding agent.',
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'system', content: [{ type: 'text', text: 'Environment: linux, /work' }] },
        ],
      });
    const claude = await ask(ANTHROPIC);
    assert.deepEqual(claude.content, [{ type: 'text', text: 'echo: Hello' }]);
    // Anthropic takes them in their place with its mid-conversation-system beta (the fake checks both).
    const sent = anthropic.seen.at(-1)!;
    assert.deepEqual(
      (sent.body.messages as Array<{ role: string; content: unknown }>).map((m) => [m.role, m.content]),
      [
        ['user', [{ type: 'text', text: 'Hello' }]],
        ['system', [{ type: 'text', text: 'Environment: linux, /work' }]],
      ],
    );
    assert.match(String(sent.headers['anthropic-beta']), /mid-conversation-system-2026-04-07/);
    // OpenAI takes a system message anywhere.
    assert.deepEqual((await ask(OPENAI)).content, [{ type: 'text', text: 'echo: Hello' }]);
    assert.deepEqual(
      (openai.seen.at(-1)!.body.messages as Array<{ role: string; content: unknown }>).map((m) => [m.role, m.content]),
      [
        ['system', 'You are a coding agent.'],
        ['user', 'Hello'],
        ['system', 'Environment: linux, /work'],
      ],
    );
  });

  it("reads a system message's tool changes, clear_at and effort before any provider's model is asked: Claude and GPT-5 get the tools as changed", async () => {
    const REASONS = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ANTHROPIC, REASONS]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const tool = (name: string) => ({ name, input_schema: { type: 'object' as const, properties: {} } });
    const ask = (model: string) =>
      sdk.beta.messages.create({
        model,
        max_tokens: 2_000,
        tools: [tool('Read'), tool('Bash')],
        messages: [
          { role: 'user', content: 'Hello' },
          {
            role: 'system',
            clear_at: 'next_user_message',
            content: [
              { type: 'text', text: 'Plan mode: read only.' },
              { type: 'tool_removal', tool: { type: 'tool_reference', name: 'Bash' } },
            ],
          },
          { role: 'assistant', content: 'I will read.' },
          { role: 'user', content: 'Go on.' },
          {
            role: 'system',
            content: [
              { type: 'text', text: 'Plan mode is over.' },
              { type: 'tool_addition', tool: { type: 'tool_reference', name: 'Bash' } },
              { type: 'tool_addition', tool: { type: 'tool_definition', definition: tool('Grep') } },
            ],
            output_config: { effort: 'low' },
          },
        ],
      });
    await ask(ANTHROPIC);
    const claude = anthropic.seen.at(-1)!.body as {
      tools: Array<{ name: string }>;
      system: Array<{ text: string }>;
      thinking?: { type: string };
      messages: Array<{ role: string; content: Array<{ text?: string }> }>;
    };
    // The first system message's text is gone once a user message follows it; its withdrawal stands
    // until the second gives Bash back.
    assert.deepEqual(
      claude.tools.map((t) => t.name),
      ['Read', 'Bash', 'Grep'],
    );
    // (A system message after the last turn is Claude's system prompt.)
    assert.deepEqual(
      claude.messages.map((m) => [m.role, m.content.map((b) => b.text).join('')]),
      [
        ['user', 'Hello'],
        ['assistant', 'I will read.'],
        ['user', 'Go on.'],
      ],
    );
    assert.deepEqual(claude.system, [{ type: 'text', text: 'Plan mode is over.' }]);
    // The turn's effort is the last system message's: a low one, for which Claude thinks a little.
    assert.equal(claude.thinking?.type, 'enabled');
    await ask(REASONS);
    const gpt = openai.seen.at(-1)!.body as {
      reasoning?: { effort?: string };
      tools: Array<{ name: string }>;
      input: Array<{ role?: string }>;
    };
    // The turn's effort is the last system message's.
    assert.equal(gpt.reasoning?.effort, 'low');
    assert.deepEqual(
      gpt.tools.map((t) => t.name),
      ['Read', 'Bash', 'Grep'],
    );
    const refused = (content: Anthropic.Beta.BetaSystemMessageParam['content']) =>
      sdk.beta.messages
        .create({
          model: ANTHROPIC,
          max_tokens: 100,
          tools: [tool('Read')],
          messages: [
            { role: 'user', content: 'Hello' },
            { role: 'system', content },
          ],
        })
        .then(
          () => assert.fail('not refused'),
          (error: unknown) => {
            assert.ok(error instanceof Anthropic.APIError && error.status === 400, String(error));
            return [
              (error.error as { error: { details: { error_code: string } } }).error.details.error_code,
              error.message,
            ];
          },
        );
    const [conflict, conflictWords] = await refused([
      { type: 'tool_addition', tool: { type: 'tool_definition', definition: tool('Read') } },
    ]);
    assert.equal(conflict, 'tool_name_conflict');
    assert.match(conflictWords!, /adds a tool named Read, and the model is offered one of that name already/);
    const [unresolved] = await refused([{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'Write' } }]);
    assert.equal(unresolved, 'tool_reference_unresolved');
  });

  it("shows another provider's reasoning (DeepSeek's V4, which thinks unless asked not to) to OpenAI-shaped clients and the playground, and none to Anthropic's", async () => {
    const ns = 'deepseek/deepseek-v4-flash';
    const app = await spaceWith([ns]);
    const ask = { model: ns, messages: [{ role: 'user' as const, content: 'Why?' }] };
    const chat = await send({ ...ask, app_id: app }, '/v1/chat/completions');
    assert.equal(chat.status, 200, chat.text);
    const said = (chat.json as { choices: Array<{ message: { content: string; reasoning_content: string } }> })
      .choices[0]!.message;
    assert.deepEqual([said.reasoning_content, said.content], ['Thinking about: Why?', 'echo: Why?']);
    // What DeepSeek read from its cache (its prompt_cache_hit_tokens) is billed as cached input.
    const usage = (chat.json as { usage: { prompt_tokens: number; prompt_tokens_details?: { cached_tokens: number } } })
      .usage;
    assert.deepEqual(
      [usage.prompt_tokens, usage.prompt_tokens_details?.cached_tokens],
      [openai.usage.input, openai.usage.cached],
    );
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    let reasoning = '';
    for await (const piece of await sdk.chat.completions.create({ ...ask, stream: true }))
      reasoning += (piece.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
    assert.equal(reasoning, said.reasoning_content);
    // The playground shows it too: whole, and streamed (through the extension's client) before the reply.
    const asked = { app_id: app, model: ns, prompt: 'Why?' };
    const playground = await send(asked);
    assert.equal(playground.status, 200, playground.text);
    const shown = (playground.json as { choices: Array<{ message: { reasoning_content: string } }> }).choices[0]!;
    assert.equal(shown.message.reasoning_content, said.reasoning_content);
    const events: string[] = [];
    for await (const event of client.chatStream(asked))
      if (event.type === 'thinking' || event.type === 'delta') events.push(`${event.type}:${event.content}`);
    const firstText = events.findIndex((e) => e.startsWith('delta:'));
    assert.equal(
      events
        .slice(0, firstText)
        .map((e) => e.replace(/^thinking:/, ''))
        .join(''),
      said.reasoning_content,
    );
    assert.equal(
      events
        .slice(firstText)
        .map((e) => e.replace(/^delta:/, ''))
        .join(''),
      said.content,
    );
    // Unsigned, it is no thinking block for Claude Code to send back to Anthropic.
    const claude = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const message = await claude.messages.stream({ ...ask, max_tokens: 500 }).finalMessage();
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text'],
    );
    // An effort of none turns its thinking off, in DeepSeek's words.
    const quick = await send({ ...ask, app_id: app, reasoning_effort: 'none' }, '/v1/chat/completions');
    assert.equal(quick.status, 200, quick.text);
    const plain = (quick.json as { choices: Array<{ message: { content: string; reasoning_content?: string } }> })
      .choices[0]!.message;
    assert.deepEqual([plain.reasoning_content, plain.content], [undefined, 'echo: Why?']);
    assert.deepEqual(openai.seen.at(-1)!.body.thinking, { type: 'disabled' });
  });

  it("refuses DeepSeek's retired names in words, and starts no Space with them", async () => {
    const retired = models.filter((m) => /^deepseek\/deepseek-(chat|reasoner)$/.test(m.namespace));
    assert.deepEqual(
      retired.map((m) => [m.namespace, m.deprecated_on]),
      [
        ['deepseek/deepseek-chat', '2026-07-24'],
        ['deepseek/deepseek-reasoner', '2026-07-24'],
      ],
    );
    const app = await spaceWith(['deepseek/deepseek-v4-flash']);
    const before = openai.seen.length;
    const chat = await send(
      { app_id: app, model: 'deepseek/deepseek-chat', messages: [{ role: 'user', content: 'hi' }] },
      '/v1/chat/completions',
    );
    assert.equal(chat.status, 422, chat.text);
    assert.match(chat.text, /deepseek\/deepseek-chat was retired on 24 Jul 2026 and is no longer served/);
    // No model of its own line replaces it: the refusal names none rather than DeepSeek's cheapest.
    assert.doesNotMatch(chat.text, /ask for/);
    assert.equal(openai.seen.length, before, 'DeepSeek was not asked');
  });

  it('waits for an OpenAI reasoning model that reasons longer than a provider may take to start, once it began', async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    // The service gives a provider 1 s to start answering (firstTokenTimeoutMs); this one reasons for
    // 1.5 s after it said it began, and nothing else comes until it is done (its summary, its answer).
    openai.thinkingMs = 1_500;
    const before = openai.seen.length;
    try {
      const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
      let text = '';
      for await (const piece of await sdk.chat.completions.create({
        model: ns,
        stream: true,
        messages: [{ role: 'user', content: 'Reason long.' }],
      }))
        text += piece.choices[0]?.delta?.content ?? '';
      assert.equal(text, 'echo: Reason long.');
      assert.equal(openai.seen.length - before, 1, 'asked once, not given up on');
    } finally {
      openai.thinkingMs = 0;
    }
  });

  it("waits for a whole reply as long as the official SDKs do (10 times the first token's wait), not giving it up and asking again", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    // The service gives a provider 1 s to start a streamed answer (firstTokenTimeoutMs), so 10 s for a
    // whole one; this one is done after 5.5 s, longer than the 5 s the service once gave.
    openai.thinkingMs = 5_500;
    const before = openai.seen.length;
    try {
      const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
      const reply = await sdk.chat.completions.create({
        model: ns,
        messages: [{ role: 'user', content: 'Reason long, then answer whole.' }],
      });
      assert.equal(reply.choices[0]?.message.content, 'echo: Reason long, then answer whole.');
      assert.equal(openai.seen.length - before, 1, 'asked once, not given up on');
    } finally {
      openai.thinkingMs = 0;
    }
  });

  it('waits for the answer of a model that thinks longer than a provider may take to start, its thinking streamed', async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    // The service gives a provider 1 s to start answering (firstTokenTimeoutMs); this one thinks for 1.5 s.
    anthropic.thinkingMs = 1_500;
    const before = anthropic.seen.length;
    try {
      const events: string[] = [];
      const stream = sdk.messages.stream({
        model: ANTHROPIC,
        max_tokens: 3_000,
        thinking: { type: 'enabled', budget_tokens: 1_024 },
        messages: [{ role: 'user', content: 'Think long.' }],
      });
      stream.on('streamEvent', (event) =>
        events.push(event.type === 'content_block_delta' ? event.delta.type : event.type),
      );
      const message = await stream.finalMessage();
      assert.deepEqual(
        message.content.map((b) => b.type),
        ['thinking', 'text'],
      );
      assert.equal((message.content[1] as { text: string }).text, 'echo: Think long.');
      // The thinking came as it was produced, before the answer.
      const at = (type: string) => events.indexOf(type);
      assert.ok(
        at('thinking_delta') >= 0 &&
          at('thinking_delta') < at('signature_delta') &&
          at('signature_delta') < at('text_delta'),
        events.join(' '),
      );
      assert.equal(anthropic.seen.length - before, 1, 'asked once: not given up on and asked again');
    } finally {
      anthropic.thinkingMs = 0;
    }
  });

  it("carries an OpenAI model's reasoning, as OpenAI encrypted it, through Codex's and Claude Code's tool loops", async () => {
    const ns = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ns]);
    /** The reasoning items OpenAI was sent in the last request: their ids and encrypted content. */
    const sentBack = () =>
      (openai.seen.at(-1)!.body.input as Array<{ type?: string; id?: string; encrypted_content?: string }>)
        .filter((i) => i.type === 'reasoning')
        .map((i) => [i.id, i.encrypted_content]);
    const given = (text: string) => `enc-${Buffer.from(`Thinking about: ${text}`).toString('base64url')}`;
    // Codex: the Responses API, stateless, the reasoning's content included; streamed, as Codex asks.
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const first = { ...codexTurn(ns, 'a.ts'), reasoning: { effort: 'medium' as const, summary: 'auto' as const } };
    const streamed = await sdk.responses.stream(first).finalResponse();
    const [reasoning, call] = streamed.output as [
      OpenAI.Responses.ResponseReasoningItem,
      OpenAI.Responses.ResponseFunctionToolCall,
    ];
    assert.deepEqual(
      [reasoning.type, reasoning.summary, call.type],
      ['reasoning', [{ type: 'summary_text', text: 'Thinking about: call Read {"path":"a.ts"}' }], 'function_call'],
    );
    // OpenAI's encryption rides under this service's mark, never bare.
    assert.match(reasoning.encrypted_content ?? '', /^llm-spaces\.thinking\.1\./);
    const output = { type: 'function_call_output' as const, call_id: call.call_id, output: 'the file' };
    const next = await sdk.responses.create({ ...first, input: [...first.input, reasoning, call, output] });
    // OpenAI gets its reasoning item back as it gave it, before the call it made (see afterEach).
    const back = sentBack();
    assert.equal(back.length, 1);
    assert.match(String(back[0]![0]), /^rs_\d+$/);
    assert.equal(back[0]![1], given('call Read {"path":"a.ts"}'));
    // The fake answers from the tool's output, after reasoning anew.
    assert.deepEqual(
      next.output.map((o) => o.type),
      ['reasoning', 'message'],
    );
    assert.equal(next.output_text, 'echo: the file');
    // Claude Code: the reasoning is a thinking block, its summary the text, the item its signature.
    const claude = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = { ...claudeTurn(ns, 'b.ts'), thinking: { type: 'enabled' as const, budget_tokens: 1_024 } };
    const message = await claude.messages.stream(ask).finalMessage();
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    const thought = message.content[0] as Anthropic.ThinkingBlock;
    assert.match(thought.signature, /^llm-spaces\.thinking\.1\./);
    const use = message.content[1] as Anthropic.ToolUseBlock;
    const again = await claude.messages.create({
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the file' }] },
      ],
    });
    assert.equal(sentBack()[0]![1], given('call Read {"path":"b.ts"}'));
    assert.deepEqual(
      again.content.map((b) => b.type),
      ['thinking', 'text'],
    );
    assert.equal((again.content[1] as Anthropic.TextBlock).text, 'echo: the file');
    // A turn sent back with its thinking alone (Claude Code keeps no call it took for a repeat) leaves
    // the item out: OpenAI refuses a reasoning item nothing follows (the fake checks it, afterEach).
    await claude.messages.create({
      ...ask,
      messages: [...ask.messages, { role: 'assistant', content: [thought] }, { role: 'user', content: 'Go on.' }],
    });
    assert.deepEqual(sentBack(), []);
    // Sent to another model, the items stay behind: OpenAI's encryption is for the model that wrote it.
    const other = new Anthropic({
      baseURL: service.url,
      apiKey: keys.get(await spaceWith(['openai/gpt-5.4-nano']))!,
      maxRetries: 0,
    });
    await other.messages.create({
      ...ask,
      model: 'openai/gpt-5.4-nano',
      messages: [
        ...ask.messages,
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the file' }] },
      ],
    });
    assert.deepEqual(sentBack(), []);
  });

  it("gives Claude Codex's apply_patch, a custom tool, as a tool of one text input, and its call and result back", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n-old\n+new\n*** End Patch\n';
    const grammar = 'start: begin_patch hunk+ end_patch';
    const tools = [
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: grammar } },
      { type: 'web_search', external_web_access: false },
      {
        type: 'namespace',
        name: 'mcp__docs',
        description: 'Tools of the docs server.',
        tools: [{ type: 'function', name: 'search', parameters: { type: 'object', properties: {} } }],
      },
    ];
    const ask = `call apply_patch ${JSON.stringify({ input: patch })}`;
    const first = await sdk.responses.create({ model: ANTHROPIC, store: false, input: ask, tools: tools as never });
    const call = first.output.find((o) => o.type === 'custom_tool_call');
    assert.ok(call && call.type === 'custom_tool_call', JSON.stringify(first.output));
    assert.equal(call.input, patch);
    const sent = anthropic.seen.at(-1)!.body as {
      tools: Array<{ name: string; input_schema: { properties: { input: { type: string; description: string } } } }>;
    };
    // The namespace's tool is named with it; Codex's web search runs as Anthropic's.
    assert.deepEqual(
      sent.tools.map((t) => t.name),
      ['apply_patch', 'mcp__docs__search', 'web_search'],
    );
    assert.equal(sent.tools[0]!.input_schema.properties.input.type, 'string');
    assert.match(sent.tools[0]!.input_schema.properties.input.description, /Lark grammar:\nstart: begin_patch/);
    const second = await sdk.responses.create({
      model: ANTHROPIC,
      store: false,
      tools: tools as never,
      input: [
        { role: 'user', content: ask },
        { type: 'custom_tool_call', call_id: call.call_id, name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Success. Updated a.ts' },
        { type: 'function_call', call_id: 'call_docs', namespace: 'mcp__docs', name: 'search', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_docs', output: 'Nothing found.' },
        { role: 'user', content: 'Done?' },
      ],
    });
    // The fake's model searches the web first when it may.
    assert.equal(second.output_text, `${SEARCH_LEAD}echo: Done?`);
    const messages = (anthropic.seen.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.deepEqual(messages.slice(1), [
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: call.call_id, name: 'apply_patch', input: { input: patch } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: call.call_id, content: 'Success. Updated a.ts' }],
      },
      // The namespace's call under the name Claude was given the tool by.
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_docs', name: 'mcp__docs__search', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_docs', content: 'Nothing found.' },
          { type: 'text', text: 'Done?' },
        ],
      },
    ]);
  });

  it("gives any model OpenAI's shell and apply_patch as tools the client runs, their calls as OpenAI's items, whole and streamed", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'shell', environment: { type: 'local' } }, { type: 'apply_patch' }];
    const shellAsk = `call shell ${JSON.stringify({ commands: ['ls', 'cat a.txt'], timeout_ms: 5000 })}`;
    const first = await sdk.responses.create({ model: ANTHROPIC, store: false, input: shellAsk, tools });
    const sent = anthropic.seen.at(-1)!.body as {
      tools: Array<{ name: string; input_schema: { required: string[]; properties: Record<string, unknown> } }>;
    };
    assert.deepEqual(
      sent.tools.map((t) => [t.name, t.input_schema.required]),
      [
        ['shell', ['commands']],
        ['apply_patch', ['type', 'path']],
      ],
    );
    /** The shell call asked, as Claude gets it back. */
    const shellUse = (id: string) => ({
      type: 'tool_use',
      id,
      name: 'shell',
      input: { commands: ['ls', 'cat a.txt'], timeout_ms: 5000 },
    });
    const shellCall = first.output.find((o) => o.type === 'shell_call');
    assert.ok(shellCall && shellCall.type === 'shell_call', JSON.stringify(first.output));
    assert.deepEqual(shellCall.action, { commands: ['ls', 'cat a.txt'], timeout_ms: 5000, max_output_length: null });
    assert.equal(shellCall.status, 'completed');

    // Streamed: the call's commands as OpenAI streams them, the item whole at its end.
    const events: string[] = [];
    const stream = sdk.responses.stream({ model: ANTHROPIC, store: false, input: shellAsk, tools });
    stream.on('event', (e) => events.push(e.type));
    const streamed = await stream.finalResponse();
    const streamedCall = streamed.output.find((o) => o.type === 'shell_call');
    assert.ok(streamedCall && streamedCall.type === 'shell_call');
    assert.deepEqual(streamedCall.action.commands, ['ls', 'cat a.txt']);
    assert.deepEqual(
      events.filter((e) => e.startsWith('response.shell_call_command')),
      [...Array(2)].flatMap(() => [
        'response.shell_call_command.added',
        'response.shell_call_command.delta',
        'response.shell_call_command.done',
      ]),
    );

    const patchAsk = `call apply_patch ${JSON.stringify({ type: 'update_file', path: 'a.txt', diff: '@@\n-old\n+new\n' })}`;
    const patched = await sdk.responses.create({ model: ANTHROPIC, store: false, input: patchAsk, tools });
    const patchCall = patched.output.find((o) => o.type === 'apply_patch_call');
    assert.ok(patchCall && patchCall.type === 'apply_patch_call', JSON.stringify(patched.output));
    assert.deepEqual(patchCall.operation, { type: 'update_file', path: 'a.txt', diff: '@@\n-old\n+new\n' });

    // The client ran both and sends the turn back: the model reads each call and what it gave.
    const back = await sdk.responses.create({
      model: ANTHROPIC,
      store: false,
      tools,
      input: [
        { role: 'user', content: shellAsk },
        { type: 'shell_call', call_id: shellCall.call_id, action: shellCall.action },
        {
          type: 'shell_call_output',
          call_id: shellCall.call_id,
          output: [
            { stdout: 'a.txt\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
            { stdout: '', stderr: 'cat: a.txt: Permission denied', outcome: { type: 'exit', exit_code: 1 } },
          ],
        },
        { type: 'apply_patch_call', call_id: patchCall.call_id, status: 'completed', operation: patchCall.operation },
        { type: 'apply_patch_call_output', call_id: patchCall.call_id, status: 'failed', output: 'a.txt: no match' },
        { role: 'user', content: 'Done?' },
      ],
    });
    assert.equal(back.status, 'completed');
    const messages = (anthropic.seen.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.deepEqual(messages.slice(1), [
      {
        role: 'assistant',
        content: [shellUse(shellCall.call_id)],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: shellCall.call_id,
            content: 'command 1: exit code 0\na.txt\n\ncommand 2: exit code 1\nstderr:\ncat: a.txt: Permission denied',
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: patchCall.call_id, name: 'apply_patch', input: patchCall.operation }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: patchCall.call_id, content: 'failed: a.txt: no match' },
          { type: 'text', text: 'Done?' },
        ],
      },
    ]);

    // Kept in the Space (store, as the Agents SDK leaves it), the call goes on from the response's id.
    const kept = await sdk.responses.create({ model: ANTHROPIC, input: shellAsk, tools });
    const keptCall = kept.output.find((o) => o.type === 'shell_call');
    assert.ok(keptCall && keptCall.type === 'shell_call');
    const goesOn = await sdk.responses.create({
      model: ANTHROPIC,
      previous_response_id: kept.id,
      tools,
      input: [
        {
          type: 'shell_call_output',
          call_id: keptCall.call_id,
          output: [{ stdout: 'done', stderr: '', outcome: { type: 'timeout' } }],
        },
      ],
    });
    assert.equal(goesOn.status, 'completed');
    const continued = (anthropic.seen.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.deepEqual(continued.slice(1), [
      {
        role: 'assistant',
        content: [shellUse(keptCall.call_id)],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: keptCall.call_id, content: 'command 1: timed out\ndone' }],
      },
    ]);

    // A shell in OpenAI's containers runs only at OpenAI: not given to the model, and the answer says so.
    const hosted = await sdk.responses.create({
      model: ANTHROPIC,
      store: false,
      input: 'hello',
      tools: [{ type: 'shell', environment: { type: 'container_auto' } }],
    });
    assert.equal(anthropic.seen.at(-1)!.body.tools, undefined);
    assert.match(String(warningOf(hosted)), /OpenAI's hosted tools \(shell\) run only at OpenAI/);
  });

  it("gives a Claude model Anthropic's bash, text editor, memory and computer-use tools as its own, any other model as functions, each called back by its name", async () => {
    const app = await spaceWith([ANTHROPIC, OPENAI]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const tools: Anthropic.ToolUnion[] = [
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10_000 },
      { type: 'memory_20250818', name: 'memory' },
      { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 } as never,
    ];
    const ask = 'call bash {"command":"ls -la"}';
    type Sent = { tools: Array<Record<string, unknown>> };

    const claude = await sdk.messages.create({
      model: ANTHROPIC,
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: ask }],
    });
    assert.equal(claude.stop_reason, 'tool_use');
    const use = claude.content.find((b) => b.type === 'tool_use')!;
    assert.deepEqual([use.name, use.input], ['bash', { command: 'ls -la' }]);
    assert.deepEqual((anthropic.seen.at(-1)!.body as Sent).tools, [
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10_000 },
      { type: 'memory_20250818', name: 'memory' },
      { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 },
    ]);
    // The result the client sends back reaches Claude as the tool's.
    await sdk.messages.create({
      model: ANTHROPIC,
      max_tokens: 1024,
      tools,
      messages: [
        { role: 'user', content: ask },
        { role: 'assistant', content: claude.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'a.txt' }] },
      ],
    });
    const back = (anthropic.seen.at(-1)!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> })
      .messages;
    assert.deepEqual(back[1]!.content.at(-1), {
      type: 'tool_use',
      id: use.id,
      name: 'bash',
      input: { command: 'ls -la' },
    });
    assert.deepEqual(back[2]!.content, [{ type: 'tool_result', tool_use_id: use.id, content: 'a.txt' }]);

    // Any other model: functions of what each tool takes, under Anthropic's names.
    const other = await sdk.messages.create({
      model: OPENAI,
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: 'call str_replace_based_edit_tool {"command":"view","path":"/a.txt"}' }],
    });
    const otherUse = other.content.find((b) => b.type === 'tool_use')!;
    assert.deepEqual(
      [otherUse.name, otherUse.input],
      ['str_replace_based_edit_tool', { command: 'view', path: '/a.txt' }],
    );
    const functions = (
      openai.seen.at(-1)!.body as {
        tools: Array<{
          function: {
            name: string;
            description?: string;
            parameters: { properties: Record<string, unknown>; required: string[] };
          };
        }>;
      }
    ).tools;
    assert.deepEqual(
      functions.map((t) => [t.function.name, t.function.parameters.required]),
      [
        ['bash', ['command']],
        ['str_replace_based_edit_tool', ['command', 'path']],
        ['memory', ['command']],
        ['computer', ['action']],
      ],
    );
    assert.match(String(functions[3]!.function.description), /its screen \(1280 × 800 pixels\)/);
    assert.ok(
      'insert_text' in functions[1]!.function.parameters.properties,
      'the 2025-07-28 editor inserts insert_text',
    );

    // Each is refused as Anthropic refuses it: under another name than Anthropic's, or computer use
    // without the screen's size.
    const refusal = async (tool: Record<string, unknown>, words: RegExp) => {
      const res = await raw(service.url, 'POST', '/v1/messages', {
        token: keys.get(app)!,
        body: { model: ANTHROPIC, max_tokens: 10, tools: [tool], messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(res.status, 422, res.text);
      assert.match(res.text, words);
    };
    await refusal({ type: 'bash_20250124', name: 'shell' }, /must be bash for bash_20250124, as Anthropic names it/);
    await refusal({ type: 'computer_20250124', name: 'computer' }, /tools\.0\.display_width_px: is required/);
  });

  it("loads the tools Claude Code's tool search defers: a Claude model by Anthropic's references, any other by the tools named so far", async () => {
    const app = await spaceWith([ANTHROPIC, OPENAI]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const forecast = 'mcp__weather__forecast';
    const tools: Anthropic.Tool[] = [
      {
        name: 'ToolSearch',
        description: 'Finds tools.',
        input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
      {
        name: forecast,
        description: 'The forecast for a city.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        defer_loading: true,
        input_examples: [{ city: 'Oslo' }],
      },
    ];
    const ask = `call ${forecast} {"city":"Oslo"}`;
    // Claude Code's ToolSearch found the tool: its result names it, and the model may call it from then on.
    const searched: Anthropic.MessageParam[] = [
      { role: 'user', content: 'the forecast for Oslo' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: { query: `select:${forecast}` } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: forecast }] },
          { type: 'text', text: ask },
        ],
      },
    ];
    type Sent = { tools: Array<Record<string, unknown>>; messages: Array<{ content: unknown }> };
    type OpenAiSent = {
      tools: Array<{ function: { name: string; description?: string } }>;
      messages: Array<{ role: string; content: unknown }>;
    };
    for (const model of [ANTHROPIC, OPENAI]) {
      // Before the search the model is not shown the deferred tool, so it does not call it.
      const before = await sdk.messages.create({
        model,
        max_tokens: 1024,
        tools,
        messages: [{ role: 'user', content: ask }],
      });
      assert.equal(before.stop_reason, 'end_turn', model);
      const after = await sdk.messages.create({ model, max_tokens: 1024, tools, messages: searched });
      const use = after.content.find((b) => b.type === 'tool_use');
      assert.deepEqual([use?.name, use?.input], [forecast, { city: 'Oslo' }], model);
    }
    // Claude gets the tool deferred with its examples, and the reference as Anthropic's block.
    const toClaude = anthropic.seen.at(-1)!.body as Sent;
    assert.deepEqual(toClaude.tools[1], { ...tools[1], input_examples: [{ city: 'Oslo' }] });
    assert.deepEqual(toClaude.messages[2]!.content, [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: forecast }] },
      { type: 'text', text: ask },
    ]);
    // Another model is shown the tool once it is found, its examples in its description, and is told so.
    const [shownBefore, shownAfter] = openai.seen.slice(-2).map((r) => r.body as OpenAiSent);
    assert.deepEqual(
      shownBefore!.tools.map((t) => t.function.name),
      ['ToolSearch'],
    );
    assert.deepEqual(
      shownAfter!.tools.map((t) => t.function.name),
      ['ToolSearch', forecast],
    );
    assert.equal(
      shownAfter!.tools[1]!.function.description,
      'The forecast for a city.\n\nExamples of its input:\n{"city":"Oslo"}',
    );
    assert.deepEqual(
      shownAfter!.messages.find((m) => m.role === 'tool')?.content,
      `The tool ${forecast} is loaded: it can be called now.`,
    );

    // A deferred tool is not read, so not counted, until a tool's result loads it.
    const count = async (shown: Anthropic.Tool[], messages: Anthropic.MessageParam[]) =>
      (await sdk.messages.countTokens({ model: OPENAI, tools: shown, messages })).input_tokens;
    const question: Anthropic.MessageParam[] = [{ role: 'user', content: ask }];
    assert.equal(await count(tools, question), await count([tools[0]!], question));
    assert.equal(
      await count(tools, searched),
      await count([tools[0]!, { ...tools[1]!, defer_loading: false }], searched),
    );

    // Refused as Anthropic refuses them: every tool deferred, or a reference to a tool not in the request.
    for (const [body, words] of [
      [
        { tools: [tools[1]], messages: [{ role: 'user', content: 'hi' }] },
        /tools: must have a tool without defer_loading/,
      ],
      [
        {
          tools,
          messages: [
            ...searched.slice(0, 2),
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: 'toolu_1',
                  content: [{ type: 'tool_reference', tool_name: 'nope' }],
                },
              ],
            },
          ],
        },
        /messages\.2\.content\.0\.content\.0\.tool_name: names no tool of the request's tools: nope/,
      ],
    ] as const) {
      const res = await raw(service.url, 'POST', '/v1/messages', {
        token: keys.get(app)!,
        body: { model: OPENAI, max_tokens: 10, ...body },
      });
      assert.equal(res.status, 422, res.text);
      assert.match(res.text, words);
    }
  });

  it("runs Anthropic's tool search tool on a Claude model at Anthropic, and shows any other model every tool", async () => {
    const app = await spaceWith([ANTHROPIC, OPENAI]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const forecast = 'get_forecast';
    const tools: Anthropic.ToolUnion[] = [
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      { name: 'get_time', description: 'The time now.', input_schema: { type: 'object', properties: {} } },
      {
        name: forecast,
        description: 'The forecast for a city.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        defer_loading: true,
      },
    ];
    const ask = `call ${forecast} {"city":"Oslo"}`;
    const asked = { max_tokens: 1024, tools, messages: [{ role: 'user' as const, content: ask }] };

    // Claude searches at Anthropic, finds the deferred tool and calls it, in one turn, whole and streamed.
    const found = await sdk.messages.create({ model: ANTHROPIC, ...asked });
    assert.deepEqual(
      found.content.map((b) => b.type),
      ['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use'],
    );
    const [, use, result, call] = found.content as [
      Anthropic.TextBlock,
      Anthropic.ServerToolUseBlock,
      Anthropic.ToolSearchToolResultBlock,
      Anthropic.ToolUseBlock,
    ];
    assert.deepEqual([use.name, use.input], ['tool_search_tool_bm25', { query: forecast }]);
    assert.deepEqual(result.tool_use_id, use.id);
    assert.deepEqual(result.content, {
      type: 'tool_search_tool_search_result',
      tool_references: [{ type: 'tool_reference', tool_name: forecast }],
    });
    assert.deepEqual([call.name, call.input, found.stop_reason], [forecast, { city: 'Oslo' }, 'tool_use']);
    type Sent = { tools: Array<Record<string, unknown>>; messages: Array<{ content: unknown }> };
    const toClaude = anthropic.seen.at(-1)!.body as Sent;
    assert.deepEqual(
      toClaude.tools.map((t) => [t.name, t.type, t.defer_loading]),
      [
        ['get_time', undefined, undefined],
        [forecast, undefined, true],
        ['tool_search_tool_bm25', 'tool_search_tool_bm25_20251119', undefined],
      ],
    );
    const streamed = await sdk.messages.stream({ model: ANTHROPIC, ...asked }).finalMessage();
    assert.deepEqual(
      streamed.content.map((b) => b.type),
      ['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use'],
    );
    assert.deepEqual(streamed.content.slice(1, 3), [use, result]);

    // Sent back with the tool's result, the search goes to Anthropic as it ran (the fake checks it), and
    // the tool it found stays loaded.
    const next = await sdk.messages.create({
      model: ANTHROPIC,
      ...asked,
      messages: [
        ...asked.messages,
        { role: 'assistant', content: found.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny' }] },
      ],
    });
    assert.equal(next.stop_reason, 'end_turn');
    const back = (anthropic.seen.at(-1)!.body as Sent).messages[1]!.content as Array<Record<string, unknown>>;
    assert.deepEqual(
      back.map((b) => b.type),
      ['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use'],
    );
    assert.deepEqual((back[2]!.content as { tool_references: unknown }).tool_references, [
      { type: 'tool_reference', tool_name: forecast },
    ]);
    // The deferred tool counts in the prompt's tokens once the search has loaded it, not before.
    const count = async (shown: Anthropic.ToolUnion[], messages: Anthropic.MessageParam[]) =>
      (await sdk.messages.countTokens({ model: ANTHROPIC, tools: shown, messages })).input_tokens;
    const searchedTurns: Anthropic.MessageParam[] = [...asked.messages, { role: 'assistant', content: found.content }];
    const undeferred = tools.map((t) => ('defer_loading' in t ? { ...t, defer_loading: false } : t));
    assert.equal(await count(tools, asked.messages), await count(tools.slice(0, 2), asked.messages));
    assert.equal(await count(tools, searchedTurns), await count(undeferred, searchedTurns));

    // A search that fails comes back as Anthropic's error, and goes back to it as such; the model
    // answers without the tool.
    const broken = 'lookup_unavailable';
    // (by regular expression this time, which Anthropic's model searches with a pattern)
    const withBroken: Anthropic.ToolUnion[] = [
      { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
      ...tools.slice(1),
      { ...(tools[2] as Anthropic.Tool), name: broken },
    ];
    const unfound = { role: 'user' as const, content: `call ${broken} {}` };
    const failed = await sdk.messages.create({ model: ANTHROPIC, ...asked, tools: withBroken, messages: [unfound] });
    assert.deepEqual(
      failed.content.map((b) => b.type),
      ['text', 'server_tool_use', 'tool_search_tool_result', 'text'],
    );
    assert.deepEqual((failed.content[1] as Anthropic.ServerToolUseBlock).input, { pattern: broken });
    assert.deepEqual((anthropic.seen.at(-1)!.body as Sent).tools.at(-1), {
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
    });
    assert.deepEqual((failed.content[2] as Anthropic.ToolSearchToolResultBlock).content, {
      type: 'tool_search_tool_result_error',
      error_code: 'unavailable',
      error_message: null,
    });
    const afterFailure = await sdk.messages.create({
      model: ANTHROPIC,
      ...asked,
      tools: withBroken,
      messages: [unfound, { role: 'assistant', content: failed.content }, { role: 'user', content: 'go on' }],
    });
    assert.equal(afterFailure.stop_reason, 'end_turn');
    assert.deepEqual(
      ((anthropic.seen.at(-1)!.body as Sent).messages[1]!.content as Array<Record<string, unknown>>)[2]!.content,
      { type: 'tool_search_tool_result_error', error_code: 'unavailable' },
    );

    // Another model cannot run it: it is shown every tool, the deferred one too, and the answer says so.
    const other = await sdk.messages.create({ model: OPENAI, ...asked });
    const otherCall = other.content.find((b) => b.type === 'tool_use');
    assert.deepEqual([otherCall?.name, otherCall?.input], [forecast, { city: 'Oslo' }]);
    assert.deepEqual(
      (openai.seen.at(-1)!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name),
      ['get_time', forecast],
    );
    assert.match(
      (other as unknown as { llm_spaces: { warning: string | null } }).llm_spaces.warning ?? '',
      /Anthropic's tool search runs only on Anthropic's models, so openai\/gpt-4o-mini was shown every tool\./,
    );

    // Refused as Anthropic refuses them: the search under another name, a search that found a tool the
    // request does not have.
    for (const [body, words] of [
      [
        { tools: [{ type: 'tool_search_tool_regex_20251119', name: 'search' }, tools[1]], messages: asked.messages },
        /tools\.0\.name: must be tool_search_tool_regex for tool_search_tool_regex_20251119, as Anthropic names it/,
      ],
      [
        {
          tools,
          messages: [
            ...asked.messages,
            {
              role: 'assistant',
              content: [
                use,
                {
                  ...result,
                  content: { ...result.content, tool_references: [{ type: 'tool_reference', tool_name: 'nope' }] },
                },
              ],
            },
            { role: 'user', content: 'go on' },
          ],
        },
        /messages\.1\.content\.1\.content\.tool_references\.0\.tool_name: names no tool of the request's tools: nope/,
      ],
    ] as const) {
      const res = await raw(service.url, 'POST', '/v1/messages', {
        token: keys.get(app)!,
        body: { model: ANTHROPIC, max_tokens: 10, ...body },
      });
      assert.equal(res.status, 422, res.text);
      assert.match(res.text, words);
    }
  });

  it("gives Gemini 3 its thought signatures back with its calls in Codex's and Claude Code's tool loops", async () => {
    const ns = 'google/gemini-3.5-flash';
    const app = await spaceWith([ns]);
    /** The thought signature of the model's call Gemini was sent in the last request. */
    const sentBack = () =>
      (gemini.seen.at(-1)!.body.contents as Array<{ role: string; parts: Array<{ thoughtSignature?: string }> }>).find(
        (c) => c.role === 'model',
      )?.parts[0]?.thoughtSignature;
    const signed = (text: string) => `gsig-${Buffer.from(text).toString('base64url')}`;
    // Codex: stateless, the reasoning's content included, streamed.
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const first = codexTurn(ns, 'a.ts');
    const streamed = await sdk.responses.stream(first).finalResponse();
    assert.deepEqual(
      streamed.output.map((o) => o.type),
      ['reasoning', 'function_call'],
    );
    const [reasoning, call] = streamed.output as [
      OpenAI.Responses.ResponseReasoningItem,
      OpenAI.Responses.ResponseFunctionToolCall,
    ];
    assert.match(reasoning.encrypted_content ?? '', /^llm-spaces\.thinking\.1\./);
    const output = { type: 'function_call_output' as const, call_id: call.call_id, output: 'the file' };
    await sdk.responses.create({ ...first, input: [...first.input, reasoning, call, output] });
    // (Gemini 3 refuses a call of the current turn without its signature or with another: see afterEach.)
    assert.equal(sentBack(), signed('call Read {"path":"a.ts"}'));
    // Claude Code: the signature rides as a thinking block's, with no text.
    const claude = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = claudeTurn(ns, 'b.ts');
    const message = await claude.messages.create(ask);
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['thinking', 'tool_use'],
    );
    assert.equal((message.content[0] as Anthropic.ThinkingBlock).thinking, '');
    const use = message.content[1] as Anthropic.ToolUseBlock;
    const again = await claude.messages
      .stream({
        ...ask,
        messages: [
          ...ask.messages,
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the file' }] },
        ],
      })
      .finalMessage();
    assert.equal(sentBack(), signed('call Read {"path":"b.ts"}'));
    assert.equal(again.stop_reason, 'end_turn');
    // A client that keeps no thinking (Chat Completions): the AI SDK sends Google's sentinel instead.
    const chat = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const tools = [
      { type: 'function' as const, function: { name: 'Read', parameters: { type: 'object', properties: {} } } },
    ];
    const asked = await chat.chat.completions.create({
      model: ns,
      tools,
      messages: [{ role: 'user', content: 'call Read {"path":"c.ts"}' }],
    });
    const calls = asked.choices[0]!.message.tool_calls!;
    await chat.chat.completions.create({
      model: ns,
      tools,
      messages: [
        { role: 'user', content: 'call Read {"path":"c.ts"}' },
        asked.choices[0]!.message,
        { role: 'tool', tool_call_id: calls[0]!.id, content: 'the file' },
      ],
    });
    assert.equal(sentBack(), SKIP_SIGNATURE);
  });

  it("joins a system message later in the conversation to the first for Gemini, whose API takes them only there (Claude Code's for a model it does not know)", async () => {
    const ns = 'google/gemini-3.5-flash';
    const app = await spaceWith([ns]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const answer = await sdk.chat.completions.create({
      model: ns,
      messages: LATER_SYSTEM.messages,
    });
    assert.equal(answer.choices[0]!.message.content, 'echo: where am I?');
    const sent = gemini.seen.at(-1)!.body as {
      systemInstruction?: { parts: Array<{ text: string }> };
      contents: Array<{ role: string }>;
    };
    assert.deepEqual(sent.systemInstruction?.parts.map((p) => p.text).join(''), LATER_SYSTEM.joined);
    assert.deepEqual(
      sent.contents.map((c) => c.role),
      ['user', 'user'],
    );
  });

  it('gives Gemini 3 the signature of a call it made after writing, streamed to Codex after the message', async () => {
    const ns = 'google/gemini-3.5-flash';
    const app = await spaceWith([ns]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const asked = 'Let me read it. | call Read {"path":"d.ts"}';
    const first = { ...codexTurn(ns, 'd.ts'), input: [{ role: 'user' as const, content: asked }] };
    // Codex builds the turn from each item as its stream says it is done.
    const done: OpenAI.Responses.ResponseOutputItem[] = [];
    const stream = sdk.responses.stream(first);
    stream.on('response.output_item.done', (event) => done.push(event.item));
    const streamed = await stream.finalResponse();
    assert.deepEqual(
      done.map((o) => o.type),
      ['message', 'reasoning', 'function_call'],
      'the signature comes when the model gave it: after its text, before its call',
    );
    assert.deepEqual(
      streamed.output.map((o) => [o.type, o.id]),
      done.map((o) => [o.type, o.id]),
      'the response says the same items in the same order',
    );
    const output = {
      type: 'function_call_output' as const,
      call_id: (done[2] as { call_id: string }).call_id,
      output: 'the file',
    };
    await sdk.responses.create({ ...first, input: [...first.input, ...done, output] } as typeof first);
    const model = (
      gemini.seen.at(-1)!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
    ).filter((c) => c.role === 'model');
    assert.equal(model.length, 1, 'the text and the call are one turn of the model');
    assert.deepEqual(
      model[0]!.parts.map((p) => [p.text ?? null, p.thoughtSignature ?? null]),
      [
        ['Let me read it.', null],
        [null, `gsig-${Buffer.from(asked).toString('base64url')}`],
      ],
    );
  });

  it("carries an Anthropic model's thinking through Codex's stateless Responses tool loop, signed, whole and streamed", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    // As Codex asks: an effort with a summary, the reasoning's content included, nothing stored.
    const first = {
      model: ANTHROPIC,
      max_output_tokens: 3_000,
      reasoning: { effort: 'high' as const, summary: 'auto' as const },
      include: ['reasoning.encrypted_content' as const],
      store: false,
      tools: [
        { type: 'function' as const, name: 'Read', parameters: { type: 'object', properties: {} }, strict: false },
      ],
      input: [{ role: 'user' as const, content: 'call Read {"path":"a.ts"}' }],
    };
    const whole = await sdk.responses.create(first);
    assert.deepEqual(
      whole.output.map((o) => o.type),
      ['reasoning', 'function_call'],
    );
    assert.deepEqual(whole.reasoning, { effort: 'high', summary: 'auto' }, 'echoed as asked');
    const reasoning = whole.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'Thinking about: call Read {"path":"a.ts"}' }]);
    assert.ok(reasoning.encrypted_content);
    // Streamed: the summary as it comes, then the same items, the reasoning first.
    const stream = sdk.responses.stream(first);
    const deltas: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => deltas.push(event.delta));
    const streamed = await stream.finalResponse();
    assert.equal(deltas.join(''), reasoning.summary[0]!.text);
    const done = streamed.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.deepEqual(
      [done.type, done.summary, done.encrypted_content],
      ['reasoning', reasoning.summary, reasoning.encrypted_content],
    );
    const call = streamed.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    assert.equal(call.name, 'Read');
    // The next turn sends the items back as they came, with the tool's output: Anthropic gets the
    // thinking signed, before the tool use, and thinks again.
    const second = {
      ...first,
      input: [
        ...first.input,
        ...[done, call],
        { type: 'function_call_output' as const, call_id: call.call_id, output: 'the file' },
      ],
    };
    const next = await sdk.responses.create(second);
    const sent = anthropic.seen.at(-1)!.body;
    // (The fake refuses a block whose signature is not the one it gave: see afterEach.)
    const back = (sent.messages as Array<{ content: Array<Record<string, unknown>> }>)[1]!.content[0]!;
    assert.deepEqual([back.type, back.thinking], ['thinking', reasoning.summary[0]!.text]);
    assert.match(String(back.signature), /^sig-/);
    assert.notDeepEqual(sent.thinking, { type: 'disabled' });
    assert.deepEqual(
      next.output.map((o) => o.type),
      ['reasoning', 'message'],
    );
    assert.equal(warningOf(next), null);
    // Streamed, the reasoning item ends before the message begins, as the SDK puts them together.
    const nextStreamed = await sdk.responses.stream(second).finalResponse();
    assert.deepEqual(
      nextStreamed.output.map((o) => o.type),
      ['reasoning', 'message'],
    );
    assert.equal(nextStreamed.output_text, next.output_text);
    // Codex keeps a reasoning item without its id, and writes its content as null.
    const codex = await send(
      {
        ...second,
        app_id: app,
        input: [
          ...first.input,
          { type: 'reasoning', summary: done.summary, content: null, encrypted_content: done.encrypted_content },
          { type: 'function_call', name: call.name, arguments: call.arguments, call_id: call.call_id },
          second.input.at(-1),
        ],
      },
      '/v1/responses',
    );
    assert.equal(codex.status, 200, codex.text);
    const resent = anthropic.seen.at(-1)!.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    assert.equal(resent[1]!.content[0]!.type, 'thinking');
  });

  it("leaves out reasoning another service gave, and refuses this service's mark on what it did not write", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const loop = (encrypted: string) =>
      sdk.responses.create({
        model: ANTHROPIC,
        max_output_tokens: 3_000,
        reasoning: { effort: 'high' },
        store: false,
        tools: [{ type: 'function', name: 'Read', parameters: { type: 'object', properties: {} }, strict: false }],
        input: [
          { role: 'user', content: 'Read a.ts' },
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: encrypted },
          { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'the file' },
        ],
      });
    // OpenAI's own (Fernet) reasoning cannot go to Anthropic: the turn goes without thinking, and says so.
    const other = await loop('gAAAAABpZ2F0ZXdheS1vdGhlcg==');
    assert.deepEqual(anthropic.seen.at(-1)!.body.thinking, { type: 'disabled' });
    assert.match((other as unknown as { llm_spaces: { warning: string } }).llm_spaces.warning, /without thinking/);
    assert.deepEqual(
      other.output.map((o) => o.type),
      ['message'],
    );
    // Without a summary or the content asked for, the reasoning item is there, bare, as OpenAI gives it.
    const bare = await sdk.responses.create({
      model: ANTHROPIC,
      max_output_tokens: 3_000,
      reasoning: { effort: 'high' },
      input: 'Think first.',
    });
    assert.deepEqual(bare.output[0], { type: 'reasoning', id: `rs_${bare.id.slice('resp_'.length)}`, summary: [] });
    // Read back, it is as answered; asked to include it, its reasoning carries the thinking, as OpenAI's does.
    assert.deepEqual(await sdk.responses.retrieve(bare.id), bare);
    const carried = await sdk.responses.retrieve(bare.id, { include: ['reasoning.encrypted_content'] });
    assert.match(
      String((carried.output[0] as { encrypted_content?: string }).encrypted_content),
      /^llm-spaces\.thinking\./,
    );
    assert.deepEqual(carried.output.slice(1), bare.output.slice(1));
    await assert.rejects(
      loop('llm-spaces.thinking.1.bm90IHRoaW5raW5n'),
      (error: unknown) =>
        error instanceof OpenAI.UnprocessableEntityError &&
        error.param === 'input.1.encrypted_content' &&
        /is not reasoning this service gave/.test(error.message),
    );
  });

  it('compacts a Responses conversation at OpenAI, and gives the summary to a Claude model next turn', async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const compacted = await sdk.responses.compact({
      model: OPENAI,
      input: [
        { role: 'user', content: 'Read a.ts' },
        { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{"path":"a.ts"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'the file' },
      ],
    });
    // OpenAI is asked for a summary of the transcript, with no tool, as a chat like any other.
    const asked = openai.seen.at(-1)!.body;
    assert.equal(asked.tools, undefined);
    const messages = asked.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.match(messages[0]!.content, /^You are compacting a conversation/);
    const transcript = 'User:\nRead a.ts\n\nAssistant called Read with {"path":"a.ts"}\n\nResult of Read:\nthe file';
    assert.equal(messages[1]!.content, transcript);
    assert.equal(compacted.usage.input_tokens, 11, "billed at OpenAI's own counts");
    const item = compacted.output.at(-1) as OpenAI.Responses.ResponseCompactionItem;

    await sdk.responses.create({
      model: ANTHROPIC,
      max_output_tokens: 500,
      input: [...(compacted.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Go on.' }],
    });
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ role: string; content: Array<{ text?: string }> }>;
    assert.deepEqual(
      sent.flatMap((m) => m.content.map((c) => [m.role, c.text])),
      [
        ['user', 'Read a.ts'],
        ['user', `A summary of the conversation so far, written when it was compacted:\n\necho: ${transcript}`],
        ['user', 'Go on.'],
      ],
    );
    assert.match(item.encrypted_content, /^llm-spaces\.compaction\./);
  });

  it('compacts a Responses conversation at Anthropic past its context_management threshold, then asks Claude for the reply from the summary', async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const seenBefore = anthropic.seen.length;
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'Read', parameters: { type: 'object', properties: {} }, strict: false },
    ];
    const response = await sdk.responses.create({
      model: ANTHROPIC,
      max_output_tokens: 500,
      tools,
      context_management: [{ type: 'compaction', compact_threshold: 10 }],
      input: [
        { role: 'user', content: 'Read a.ts' },
        { type: 'function_call', call_id: 'toolu_1', name: 'Read', arguments: '{"path":"a.ts"}' },
        { type: 'function_call_output', call_id: 'toolu_1', output: 'the file' },
      ],
    });
    // Two requests reached Anthropic: the summing up, with no tool, then the reply, with the tools.
    const [summing, replying] = anthropic.seen.slice(seenBefore).map((r) => r.body);
    assert.equal(anthropic.seen.length, seenBefore + 2);
    assert.match(String((summing!.system as Array<{ text: string }>)[0]!.text), /^You are compacting a conversation/);
    assert.equal(summing!.tools, undefined);
    const transcript = 'User:\nRead a.ts\n\nAssistant called Read with {"path":"a.ts"}\n\nResult of Read:\nthe file';
    assert.deepEqual(summing!.messages, [{ role: 'user', content: [{ type: 'text', text: transcript }] }]);
    assert.deepEqual(
      (replying!.tools as Array<{ name: string }>).map((t) => t.name),
      ['Read'],
    );
    const sent = replying!.messages as Array<{ role: string; content: Array<{ text?: string }> }>;
    assert.deepEqual(
      sent.flatMap((m) => m.content.map((c) => [m.role, c.text])),
      [
        ['user', 'Read a.ts'],
        ['user', `A summary of the conversation so far, written when it was compacted:\n\necho: ${transcript}`],
      ],
    );
    assert.deepEqual(
      response.output.map((o) => o.type),
      ['compaction', 'message'],
    );
  });

  it("sums an Anthropic conversation up at OpenAI by its own instructions (Anthropic's compaction), and gives Claude the summary next turn", async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const conversation: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'user', content: 'Read a.ts' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'the file' }] },
    ];
    const compacted = await sdk.beta.messages.create({
      model: OPENAI,
      max_tokens: 500,
      tools: [{ name: 'Read', input_schema: { type: 'object', properties: {} } }],
      messages: conversation,
      compaction: { type: 'summarize', instructions: 'Sum it up in one line.' },
    });
    // OpenAI is asked for a summary of the transcript by the instructions given, with no tool.
    const asked = openai.seen.at(-1)!.body;
    assert.equal(asked.tools, undefined);
    const transcript = 'User:\nRead a.ts\n\nAssistant called Read with {"path":"a.ts"}\n\nResult of Read:\nthe file';
    assert.deepEqual(asked.messages, [
      { role: 'system', content: 'Sum it up in one line.' },
      { role: 'user', content: transcript },
    ]);
    assert.deepEqual(compacted.content, [
      { type: 'compaction', content: `echo: ${transcript}`, encrypted_content: null },
    ]);
    assert.equal(compacted.stop_reason, 'compaction');

    await sdk.beta.messages.create({
      model: ANTHROPIC,
      max_tokens: 500,
      messages: [
        ...conversation,
        { role: 'assistant', content: compacted.content as Anthropic.Beta.BetaContentBlockParam[] },
        { role: 'user', content: 'Go on.' },
      ],
    });
    // Claude reads the summary as the user's, in place of every turn before it.
    const sent = anthropic.seen.at(-1)!.body.messages as Array<{ role: string; content: Array<{ text?: string }> }>;
    assert.deepEqual(
      sent.flatMap((m) => m.content.map((c) => [m.role, c.text])),
      [
        ['user', `A summary of the conversation so far, written when it was compacted:\n\necho: ${transcript}`],
        ['user', 'Go on.'],
      ],
    );
  });

  it("streams Anthropic's compaction as it runs: the block opened at once, pings while the model sums up, then the summary", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const conversation: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'user', content: 'Read a.ts' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'the file' }] },
    ];
    const asked = {
      model: ANTHROPIC,
      max_tokens: 500,
      messages: conversation,
      compaction: { type: 'summarize' as const },
    };
    // Claude takes 400 ms to sum it up; the service says every 50 ms that it still does (compactingEveryMs).
    anthropic.thinkingMs = 400;
    try {
      const res = await raw(service.url, 'POST', '/v1/messages', {
        token: keys.get(app)!,
        body: { ...asked, stream: true },
        headers: { 'anthropic-version': '2023-06-01' },
      });
      assert.equal(res.status, 200);
      const names = [...res.text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]!);
      const pings = names.filter((n) => n === 'ping').length;
      assert.ok(pings >= 2, `pings while Claude sums up: ${names.join(', ')}`);
      assert.deepEqual(
        names.filter((n) => n !== 'ping'),
        [
          'message_start',
          'content_block_start',
          'content_block_delta',
          'content_block_stop',
          'message_delta',
          'message_stop',
        ],
      );
      assert.equal(names.indexOf('ping'), 2, 'the block is opened before the model sums up');
      // The SDK's stream helper reads the same stream to the same message as the answer not streamed.
      const whole = await sdk.beta.messages.create(asked);
      const streamed = await sdk.beta.messages.stream(asked).finalMessage();
      assert.deepEqual(streamed.content, whole.content);
      assert.match(String((streamed.content[0] as { content: string }).content), /^echo: User:\nRead a\.ts/);
      assert.equal(streamed.stop_reason, 'compaction');

      // A summing up that fails after the stream began ends it with Anthropic's error event, in words.
      anthropic.failNext({ status: 500 }, { status: 500 });
      await assert.rejects(sdk.beta.messages.stream(asked).finalMessage(), (error: unknown) => {
        assert.ok(error instanceof Anthropic.APIError, String(error));
        assert.match(error.message, /anthropic\/claude-haiku-4-5/);
        return true;
      });
    } finally {
      anthropic.thinkingMs = undefined;
      anthropic.recover();
    }
  });

  it('streams a Responses conversation compacted before its reply as it runs: the compaction item first, its progress, then the reply', async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    anthropic.thinkingMs = 400;
    try {
      const stream = sdk.responses.stream({
        model: ANTHROPIC,
        max_output_tokens: 500,
        context_management: [{ type: 'compaction', compact_threshold: 10 }],
        input: [
          { role: 'user', content: 'Read a.ts' },
          { type: 'function_call', call_id: 'toolu_1', name: 'Read', arguments: '{"path":"a.ts"}' },
          { type: 'function_call_output', call_id: 'toolu_1', output: 'the file' },
        ],
      });
      const types: string[] = [];
      stream.on('event', (event) =>
        types.push(event.type === 'response.output_item.added' ? `added ${event.item.type}` : event.type),
      );
      const final = await stream.finalResponse();
      const compacting = types.filter((t) => t === 'response.compaction.compacting').length;
      assert.ok(compacting >= 2, `progress while Claude sums up: ${types.join(', ')}`);
      assert.deepEqual(types.slice(0, 4), [
        'response.created',
        'response.in_progress',
        'added compaction',
        'response.compaction.compacting',
      ]);
      const after = types.slice(types.lastIndexOf('response.compaction.compacting') + 1);
      assert.deepEqual(after.slice(0, 2), ['response.output_item.done', 'added message']);
      assert.equal(after.at(-1), 'response.completed');
      assert.deepEqual(
        final.output.map((o) => o.type),
        ['compaction', 'message'],
      );
      const item = final.output[0] as OpenAI.Responses.ResponseCompactionItem;
      assert.match(item.encrypted_content, /^llm-spaces\.compaction\./);
      // The reply went on from the summary, and is kept under the id the stream gave from its first event.
      const sent = anthropic.seen.at(-1)!.body.messages as Array<{ content: Array<{ text?: string }> }>;
      assert.match(
        sent.flatMap((m) => m.content.map((c) => c.text)).at(-1) ?? '',
        /^A summary of the conversation so far/,
      );
      const kept = await sdk.responses.retrieve(final.id);
      assert.deepEqual(
        kept.output.map((o) => o.id),
        final.output.map((o) => o.id),
      );
      assert.equal(kept.output_text, final.output_text);
    } finally {
      anthropic.thinkingMs = undefined;
    }
  });

  it('answers one response at a time in a conversation, refusing another meanwhile as OpenAI does', async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const conversation = await sdk.conversations.create({});
    const ask = (input: string) =>
      sdk.responses.create({ model: ANTHROPIC, max_output_tokens: 500, conversation: conversation.id, input });
    // Claude takes 400 ms to answer the first; the second comes meanwhile.
    anthropic.thinkingMs = 400;
    try {
      const first = ask('First.');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await assert.rejects(
        ask('Meanwhile.'),
        (error: unknown) =>
          error instanceof OpenAI.APIError &&
          error.status === 400 &&
          error.code === 'conversation_locked' &&
          error.param === 'conversation',
      );
      await first;
    } finally {
      anthropic.thinkingMs = undefined;
    }
    await ask('Then.');
    const items = await sdk.conversations.items.list(conversation.id, { order: 'asc' });
    assert.deepEqual(
      items.data.map((item) => (item.type === 'message' ? `${item.role}` : item.type)),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  it("sends Claude a thread's whole conversation each turn, though its client sends only the new messages", async () => {
    const app = await spaceWith([ANTHROPIC]);
    const sdk = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    const thread = sdk.beta.messages.thread({
      model: ANTHROPIC,
      max_tokens: 500,
      system: 'Be brief.',
      tools: [{ name: 'Read', input_schema: { type: 'object', properties: {} } }],
    });
    const first = await thread.send({ role: 'user', content: 'call Read {"path":"a.ts"}' });
    assert.equal(first.stop_reason, 'tool_use');
    const call = first.content.find((b) => b.type === 'tool_use')!;
    await thread.send({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'the file' }] });
    const sent = anthropic.seen.at(-1)!.body;
    assert.deepEqual(sent.system, [{ type: 'text', text: 'Be brief.' }]);
    assert.deepEqual(
      (sent.tools as Array<{ name: string }>).map((t) => t.name),
      ['Read'],
    );
    const messages = sent.messages as Array<{ role: string; content: Array<{ type: string }> }>;
    assert.deepEqual(
      messages.map((m) => [m.role, m.content.map((b) => b.type)]),
      [
        ['user', ['text']],
        ['assistant', ['tool_use']],
        ['user', ['tool_result']],
      ],
    );
  });

  it('answers a tool loop of a client that keeps no thinking (any OpenAI-shaped one) without thinking, not refused', async () => {
    const app = await spaceWith([ANTHROPIC]);
    const res = await send(
      {
        app_id: app,
        model: ANTHROPIC,
        max_tokens: 3_000,
        reasoning_effort: 'high',
        tools: [{ type: 'function', function: { name: 'Read', parameters: { type: 'object', properties: {} } } }],
        messages: [
          { role: 'user', content: 'Read a.ts' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'the file' },
        ],
      },
      '/v1/chat/completions',
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(anthropic.seen.at(-1)!.body.thinking, { type: 'disabled' });
    assert.match(
      (res.json as { metadata: { warning: string } }).metadata.warning,
      /answered without thinking: the turn it continues called tools without the thinking before those calls/,
    );
  });

  it("reports OpenAI's token probabilities when asked, whole and streamed, and refuses them where a model cannot", async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC]);
    const body = {
      app_id: app,
      model: OPENAI,
      messages: [{ role: 'user', content: 'probable words' }],
      logprobs: true,
      top_logprobs: 2,
    };
    const res = await send(body, '/v1/chat/completions');
    assert.equal(res.status, 200, res.text);
    const sent = openai.seen.at(-1)!.body;
    assert.deepEqual([sent.logprobs, sent.top_logprobs], [true, 2], 'asked of OpenAI as its reference says');
    const choice = (
      res.json as {
        choices: Array<{
          message: { content: string };
          logprobs: { content: Array<{ token: string; top_logprobs: unknown[] }> };
        }>;
      }
    ).choices[0]!;
    assert.equal(choice.logprobs.content.map((t) => t.token).join(''), choice.message.content);
    assert.ok(choice.logprobs.content.every((t) => t.top_logprobs.length === 2));
    const streamed = await raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { ...body, stream: true },
    });
    const tokens = streamed.text
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .flatMap(
        (l) =>
          (JSON.parse(l.slice(6)) as { choices: Array<{ logprobs?: { content: Array<{ token: string }> } }> })
            .choices[0]?.logprobs?.content ?? [],
      )
      .map((t) => t.token);
    assert.equal(tokens.join(''), 'echo: probable words');
    // On the Responses API, as its include asks: with the message's text, whole and when its stream ends.
    const asked = {
      app_id: app,
      model: OPENAI,
      input: 'probable words',
      include: ['message.output_text.logprobs'],
      top_logprobs: 2,
    };
    type Logprobs = Array<{ token: string; top_logprobs: unknown[] }>;
    const response = (await send(asked, '/v1/responses')).json as {
      top_logprobs: number;
      output: Array<{ type: string; content?: Array<{ text: string; logprobs: Logprobs }> }>;
    };
    const part = response.output.find((o) => o.type === 'message')!.content![0]!;
    assert.equal(part.logprobs.map((t) => t.token).join(''), part.text);
    assert.ok(part.logprobs.every((t) => t.top_logprobs.length === 2));
    assert.equal(response.top_logprobs, 2);
    const events = await raw(service.url, 'POST', '/v1/responses', {
      token: service.token,
      body: { ...asked, stream: true },
    });
    const done = JSON.parse(/event: response\.output_text\.done\ndata: (.*)/.exec(events.text)![1]!) as {
      text: string;
      logprobs: Logprobs;
    };
    assert.equal(done.logprobs.map((t) => t.token).join(''), done.text);
    const unasked = (await send({ ...asked, include: undefined }, '/v1/responses')).json as typeof response;
    assert.deepEqual(unasked.output.find((o) => o.type === 'message')!.content![0]!.logprobs, []);
    // Anthropic reports none: routing leaves it out, and a request naming it is refused, by name.
    const routed = await send({ ...body, model: null }, '/v1/chat/completions');
    assert.equal((routed.json as { model: string }).model, OPENAI);
    const named = await send({ ...body, model: ANTHROPIC }, '/v1/chat/completions');
    assert.equal(named.status, 422);
    assert.match(named.text, /anthropic\/claude-haiku-4-5 cannot report token probabilities/);
  });

  it("biases tokens by logit_bias on OpenAI's chat models only, whose tokenizers its ids are of", async () => {
    const REASONING = 'openai/gpt-5.4-mini';
    const app = await spaceWith([ANTHROPIC, OPENAI]);
    const body = {
      app_id: app,
      messages: [{ role: 'user', content: 'yes or no?' }],
      logit_bias: { '9891': 100, '2201': -100 },
    };
    const routed = await send(body, '/v1/chat/completions');
    assert.equal(routed.status, 200, routed.text);
    assert.equal((routed.json as { model: string }).model, OPENAI, 'the Anthropic model is left out');
    assert.deepEqual(openai.seen.at(-1)!.body.logit_bias, { '9891': 100, '2201': -100 });
    const unbiased = await send({ ...body, logit_bias: {} }, '/v1/chat/completions');
    assert.equal(unbiased.status, 200, unbiased.text);
    assert.equal(openai.seen.at(-1)!.body.logit_bias, undefined, 'an empty bias is no bias');
    for (const ns of [ANTHROPIC, REASONING]) {
      const named = await send({ ...body, model: ns }, '/v1/chat/completions');
      assert.equal(named.status, 422, ns);
      assert.match(
        named.text,
        new RegExp(`${ns.replace('/', '\\/')} cannot bias tokens: logit_bias is by the token ids`),
      );
    }
    const wrong = await send({ ...body, logit_bias: { cat: 1 } }, '/v1/chat/completions');
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /must be keyed by token ids/);
  });

  it("sends a predicted output only to OpenAI's models that take one, and says how much of it the reply kept", async () => {
    const REASONING = 'openai/gpt-5.4-mini';
    const OLDER = 'openai/gpt-chat-latest';
    const app = await spaceWith([OPENAI, OPENAI_2, REASONING, OLDER, ANTHROPIC]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const prediction = { type: 'content' as const, content: 'echo: the old words' };
    const asked = { messages: [{ role: 'user' as const, content: 'the new words' }], prediction };
    const whole = await sdk.chat.completions.create({ ...asked, model: OPENAI });
    answers.push(JSON.stringify(whole));
    assert.deepEqual(openai.seen.at(-1)!.body.prediction, prediction);
    // The fake keeps the predicted words the reply has ("echo:", "the", "words") and rejects "old".
    assert.deepEqual(whole.usage?.completion_tokens_details, {
      reasoning_tokens: 0,
      accepted_prediction_tokens: 3,
      rejected_prediction_tokens: 1,
    });
    const parts = { ...prediction, content: [{ type: 'text' as const, text: 'echo: the old words' }] };
    const stream = await sdk.chat.completions.create({
      ...asked,
      prediction: parts,
      model: OPENAI_2,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage ??= chunk.choices.length ? undefined : chunk.usage;
    assert.deepEqual(openai.seen.at(-1)!.body.prediction, parts);
    assert.equal(usage?.completion_tokens_details?.accepted_prediction_tokens, 3);
    assert.equal(usage?.completion_tokens_details?.rejected_prediction_tokens, 1);
    // The AI SDK sends it as OpenAI's provider option, and reads the counts back into its metadata.
    const aiSdk = createOpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)! });
    const generated = await generateText({
      model: aiSdk.chat(OPENAI),
      prompt: 'the new words',
      providerOptions: { openai: { prediction } },
    });
    assert.deepEqual(openai.seen.at(-1)!.body.prediction, prediction);
    assert.deepEqual(
      [
        generated.providerMetadata?.openai?.acceptedPredictionTokens,
        generated.providerMetadata?.openai?.rejectedPredictionTokens,
      ],
      [3, 1],
    );
    // Any other model answers the same without it: an older chat model of OpenAI's and its reasoning
    // models (which would refuse it), Anthropic's (whose fake refuses a field it does not know). The
    // reasoning model's answer counts the tokens it reasoned in, as OpenAI counted them.
    const older = await sdk.chat.completions.create({ ...asked, model: OLDER, max_completion_tokens: 100 });
    assert.equal(older.choices[0]!.message.content, 'echo: the new words');
    assert.equal(openai.seen.at(-1)!.body.model, 'gpt-chat-latest');
    assert.equal(openai.seen.at(-1)!.body.prediction, undefined);
    const reasoned = await sdk.chat.completions.create({ ...asked, model: REASONING, reasoning_effort: 'low' });
    assert.equal(reasoned.choices[0]!.message.content, 'echo: the new words');
    assert.equal(openai.seen.at(-1)!.body.prediction, undefined);
    assert.equal(reasoned.usage?.completion_tokens_details?.reasoning_tokens, 2);
    const claude = await sdk.chat.completions.create({ ...asked, model: ANTHROPIC });
    assert.equal(claude.choices[0]!.message.content, 'echo: the new words');
    assert.equal(anthropic.seen.at(-1)!.body.prediction, undefined);
    const wrong = await send({ app_id: app, ...asked, prediction: { type: 'content' } }, '/v1/chat/completions');
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /prediction/);
  });

  it("reports the tokens OpenAI's reasoning models reasoned in on its Responses API, as OpenAI counted them", async () => {
    const REASONING = 'openai/gpt-5.4-mini';
    const app = await spaceWith([REASONING]);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const response = await sdk.responses.create({ model: REASONING, input: 'think first' });
    answers.push(JSON.stringify(response));
    assert.equal(response.usage?.output_tokens, 7);
    assert.equal(response.usage?.output_tokens_details.reasoning_tokens, 2);
  });

  it('weighs the latency it measured of a model that answered, and the prior of one that has not; the receipt says which', async () => {
    const app = await spaceWith([OPENAI, 'openai/gpt-5-mini']);
    const preview = await client.previewRoute(app, { prompt: 'how fast?' });
    const source = (ns: string) => preview.candidates.find((c) => c.namespace === ns)?.latency_source;
    assert.equal(source(OPENAI), 'measured', 'it answered in the tests above');
    assert.equal(source('openai/gpt-5-mini'), 'prior');
  });

  it("does not cool a provider down for requests it refused as the caller's mistake, nor ask it them again", async () => {
    const app = await spaceWith([GEMINI], [GEMINI, OPENAI]);
    assert.equal(((await send({ app_id: app, prompt: 'zero' })).json as { model: string }).model, GEMINI);
    gemini.failNext({ status: 400 }, { status: 400 }, { status: 400 });
    const asked = gemini.seen.length;
    for (const prompt of ['one', 'two', 'three'])
      assert.equal(((await send({ app_id: app, prompt })).json as { model: string }).model, OPENAI);
    // Each refused request went once to Gemini: the same request would get the same answer.
    assert.equal(gemini.seen.length, asked + 3);
    const states = (await raw(service.url, 'GET', '/v1/providers', { token: service.token })).json as ProviderState[];
    assert.equal(states.find((p) => p.id === 'google')!.cooling_until, null, 'Gemini is not cooling down');
    const before = gemini.seen.length;
    const reply = (await send({ app_id: app, prompt: 'four' })).json as { model: string };
    assert.equal(gemini.seen.length, before + 1, 'the next request reached Gemini');
    assert.equal(reply.model, GEMINI);
  });

  it("says its provider's content filter stopped an answer, in each client's own words", async () => {
    const app = await spaceWith([OPENAI, ANTHROPIC, 'openai/gpt-5-mini']);
    const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: keys.get(app)!, maxRetries: 0 });
    const ask = `tell me ${FILTERED}`;
    // An OpenAI reasoning model, reached through the Responses API, whose filter leaves it incomplete.
    const reasoned = await sdk.chat.completions.create({
      model: 'openai/gpt-5-mini',
      messages: [{ role: 'user', content: ask }],
    });
    assert.equal(openai.seen.at(-1)!.path, '/v1/responses');
    assert.equal(reasoned.choices[0]!.finish_reason, 'content_filter');
    let reasonedFinish: string | null | undefined;
    const reasonedStream = await sdk.chat.completions.create({
      model: 'openai/gpt-5-mini',
      messages: [{ role: 'user', content: ask }],
      stream: true,
    });
    for await (const chunk of reasonedStream) reasonedFinish = chunk.choices[0]?.finish_reason ?? reasonedFinish;
    assert.equal(reasonedFinish, 'content_filter');
    // OpenAI's Chat Completions (Azure's content filter answers so): content_filter, with what came before it.
    const chat = await sdk.chat.completions.create({ model: OPENAI, messages: [{ role: 'user', content: ask }] });
    answers.push(JSON.stringify(chat));
    assert.deepEqual(
      [chat.choices[0]!.finish_reason, chat.choices[0]!.message.content],
      ['content_filter', FILTERED_SO_FAR],
    );
    const stream = await sdk.chat.completions.create({
      model: OPENAI,
      messages: [{ role: 'user', content: ask }],
      stream: true,
    });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.deepEqual([text, finish], [FILTERED_SO_FAR, 'content_filter']);
    // The Responses API marks such a response incomplete, and says why.
    const response = await sdk.responses.create({ model: OPENAI, input: ask });
    assert.deepEqual([response.status, response.incomplete_details?.reason], ['incomplete', 'content_filter']);
    // Anthropic's clients read a refusal (Claude Code tells its user the request was refused), whether
    // Anthropic's classifiers stopped the answer or another provider's filter did.
    const claude = new Anthropic({ baseURL: service.url, apiKey: keys.get(app)!, maxRetries: 0 });
    for (const model of [ANTHROPIC, OPENAI]) {
      const message = await claude.messages.create({
        model,
        max_tokens: 256,
        messages: [{ role: 'user', content: ask }],
      });
      answers.push(JSON.stringify(message));
      assert.equal(message.stop_reason, 'refusal', model);
      const streamed = await claude.messages
        .stream({ model, max_tokens: 256, messages: [{ role: 'user', content: ask }] })
        .finalMessage();
      assert.equal(streamed.stop_reason, 'refusal', model);
    }
  });

  it('skips a provider whose key is refused, says so in words, and answers from the next provider of the chain', async () => {
    const app = await spaceWith([OPENAI], [OPENAI, OPENAI_2, ANTHROPIC]);
    const before = openai.seen.length;
    openai.failNext({ status: 401 });
    const res = await send({ app_id: app, prompt: 'who answers?' });
    assert.equal(res.status, 200, res.text);
    const reply = res.json as {
      model: string;
      metadata: { routing: { attempts: Array<{ namespace: string; status_code: number; error: string | null }> } };
    };
    assert.equal(reply.model, ANTHROPIC);
    assert.equal(openai.seen.length, before + 1, 'the refused key was not tried again, for either OpenAI model');
    assert.deepEqual(
      reply.metadata.routing.attempts.map((a) => [a.namespace, a.status_code]),
      [
        [OPENAI, 401],
        [ANTHROPIC, 200],
      ],
    );
    assert.match(reply.metadata.routing.attempts[0]!.error!, /the OpenAI key was refused \(HTTP 401\)/);
  });

  it('fails over on 429 (Retry-After), on overloaded and on a stream cut before its first token, naming each hop', async () => {
    const app = await spaceWith([ANTHROPIC], [ANTHROPIC, GEMINI, OPENAI]);
    anthropic.failNext({ status: 529 }, { status: 529 });
    gemini.failNext({ status: 429, retryAfter: 1 });
    const res = await send({ app_id: app, prompt: 'keep going' });
    assert.equal(res.status, 200, res.text);
    const reply = res.json as {
      model: string;
      metadata: {
        routing: {
          strategy: string;
          attempts: Array<{ namespace: string; status_code: number; error: string | null }>;
        };
      };
    };
    assert.equal(reply.model, OPENAI);
    assert.equal(reply.metadata.routing.strategy, 'failover');
    assert.deepEqual(
      reply.metadata.routing.attempts.map((a) => [a.namespace, a.status_code]),
      [
        [ANTHROPIC, 529],
        [ANTHROPIC, 529],
        [GEMINI, 429],
        [OPENAI, 200],
      ],
    );
    assert.match(
      reply.metadata.routing.attempts[2]!.error!,
      /Google Gemini is rate limiting \(HTTP 429, retry after 1 s\)/,
    );

    // Streamed, a cut before the first token is retried like any failure.
    const streamed = await spaceWith([OPENAI], [OPENAI, ANTHROPIC]);
    openai.failNext('cut', 'cut');
    const pieces: string[] = [];
    let model = '';
    for await (const event of client.chatStream({ app_id: streamed, prompt: 'after the cut' })) {
      if (event.type === 'delta') pieces.push(event.content);
      if (event.type === 'done') model = event.model;
    }
    assert.equal(pieces.join(''), 'echo: after the cut');
    assert.equal(model, ANTHROPIC);

    // OpenAI's 429 for an account out of credit is said as that, not as a rate limit to wait out.
    const unpaid = await spaceWith([OPENAI], [OPENAI, ANTHROPIC]);
    openai.failNext({ status: 429, message: OPENAI_NO_QUOTA });
    const paid = await send({ app_id: unpaid, prompt: 'no credit' });
    const hops = (paid.json as typeof reply).metadata.routing.attempts;
    assert.deepEqual(
      [(paid.json as typeof reply).model, hops[0]!.status_code, hops[0]!.error],
      [ANTHROPIC, 429, `OpenAI refused: the account has no credit left for this (HTTP 429: ${OPENAI_NO_QUOTA})`],
    );
  });

  it('gives up on a provider that does not start answering, and fails over', async () => {
    const app = await spaceWith([ANTHROPIC], [ANTHROPIC, OPENAI]);
    anthropic.failNext('hang', 'hang');
    let model = '';
    const pieces: string[] = [];
    for await (const event of client.chatStream({ app_id: app, prompt: 'are you there?' })) {
      if (event.type === 'delta') pieces.push(event.content);
      if (event.type === 'done') model = event.model;
    }
    assert.equal(model, OPENAI);
    assert.equal(pieces.join(''), 'echo: are you there?');
  });

  it('cools a provider down after repeated failures: no requests reach it for a while, and the receipt says why', async () => {
    const app = await spaceWith([GEMINI], [GEMINI, OPENAI]);
    gemini.failNext({ status: 500 }, { status: 500 }, { status: 500 });
    await send({ app_id: app, prompt: 'one' });
    await send({ app_id: app, prompt: 'two' });
    const states = (await raw(service.url, 'GET', '/v1/providers', { token: service.token })).json as ProviderState[];
    assert.ok(states.find((p) => p.id === 'google')!.cooling_until, 'Gemini cools down');
    const before = gemini.seen.length;
    const res = await send({ app_id: app, prompt: 'three' });
    const reply = res.json as { model: string; metadata: { routing: { attempts: Array<{ error: string | null }> } } };
    assert.equal(reply.model, OPENAI);
    assert.equal(gemini.seen.length, before, 'no request reached the cooling provider');
    assert.match(reply.metadata.routing.attempts[0]!.error!, /cooling down/);
  });

  it('does not replace a named model that cannot answer here, and says how to reach it', async () => {
    const app = await spaceWith(['test/echo']);
    const res = await send({ app_id: app, prompt: 'x', model: 'mistral/mistral-small-latest' });
    assert.equal(res.status, 422, res.text);
    assert.match(
      res.text,
      /mistral\/mistral-small-latest cannot answer here: add your Mistral key \(LLM Spaces: Add Provider Key…, or MISTRAL_API_KEY/,
    );
  });

  it('never lets a test model answer for a named real one: Claude Code naming a model with no key is told so', async () => {
    // Through a Space whose chain ends in test/echo, as a new Space's does with no key.
    const echoing = await spaceWith(['test/echo'], ['test/echo']);
    const claude = new Anthropic({ baseURL: service.url, apiKey: keys.get(echoing)!, maxRetries: 0 });
    const refused = await claude.messages
      .create({ model: 'mistral/mistral-small-latest', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        (answer) => assert.fail(`answered by ${answer.model}`),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof Anthropic.UnprocessableEntityError, String(refused));
    assert.match(refused.message, /mistral-small-latest cannot answer here: add your Mistral key/);
  });

  it('takes a key handed over by the extension (memory only), checks it, and forgets it', async () => {
    const key = 'sk-handed-over-mistral-key-0123456789';
    const put = await raw(service.url, 'PUT', '/v1/providers/mistral/key', {
      token: service.token,
      body: { key, base_url: openai.baseUrl },
    });
    answers.push(put.text);
    assert.equal(put.status, 200, put.text);
    assert.equal((put.json as ProviderState).key_source, 'extension');
    assert.equal(
      (await client.listModels()).find((m) => m.namespace === 'mistral/mistral-small-latest')!.answers_here,
      true,
    );
    // The base URL points at a server that does not know this key's provider: the check says so, in words.
    const check = await raw(service.url, 'POST', '/v1/providers/mistral/check', { token: service.token, body: {} });
    answers.push(check.text);
    assert.equal((check.json as { ok: boolean }).ok, false, check.text);
    assert.match((check.json as { message: string }).message, /^The Mistral key did not work: /);
    const okCheck = await raw(service.url, 'POST', '/v1/providers/openai/check', { token: service.token, body: {} });
    answers.push(okCheck.text);
    assert.deepEqual(okCheck.json, {
      ok: true,
      message: `The OpenAI key works: ${(okCheck.json as { model: string }).model} answered.`,
      model: (okCheck.json as { model: string }).model,
    });
    const removed = await raw(service.url, 'DELETE', '/v1/providers/mistral/key', { token: service.token });
    assert.equal((removed.json as ProviderState).has_key, false);
    const fromEnv = await raw(service.url, 'DELETE', '/v1/providers/openai/key', { token: service.token });
    assert.equal(fromEnv.status, 422);
    assert.match(fromEnv.text, /comes from the service's environment \(OPENAI_API_KEY\)/);
    const bad = await raw(service.url, 'PUT', '/v1/providers/nobody/key', { token: service.token, body: { key } });
    assert.equal(bad.status, 404);
    assert.doesNotMatch(JSON.stringify(await client.listModels()), new RegExp(key));
  });

  it('keeps every key out of answers, the log and the data folder', async () => {
    await service.stop();
    const keys = [openai.key, anthropic.key, gemini.key, 'sk-handed-over-mistral-key-0123456789'];
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) =>
        statSync(path.join(dir, name)).isDirectory() ? files(path.join(dir, name)) : [path.join(dir, name)],
      );
    for (const key of keys) {
      for (const answer of answers) assert.ok(!answer.includes(key), 'an answer carries a key');
      assert.ok(!service.output().includes(key), "the service's output carries a key");
      for (const file of files(service.dataDir))
        assert.ok(!readFileSync(file).includes(key), `${path.basename(file)} carries a key`);
    }
    assert.ok(answers.length > 10);
  });
});

describe('the first Space and a key handed over', function () {
  this.timeout(60_000);
  let openai: ProviderFake;
  let service: RunningService;

  before(async () => {
    openai = await startOpenAiFake();
    service = await startService();
  });
  after(async () => {
    await service?.stop();
    await openai?.close();
    if (service) removeDir(service.dataDir);
  });

  const firstSpaceModels = async () => {
    const client = service.client();
    const first = (await client.listSpaces()).items.find((s) => s.name === 'My first Space')!;
    const view = await client.getSpace(first.id);
    return view.main.base_model_settings.filter((m) => m.active).map((m) => m.namespace);
  };
  const put = (body: Record<string, unknown>, provider = 'openai') =>
    raw(service.url, 'PUT', `/v1/providers/${provider}/key`, { token: service.token, body });
  /** "Hello" to a model through a Space, as an OpenAI client sends it. */
  const hello = (space: string, model: string) =>
    raw(service.url, 'POST', '/v1/chat/completions', {
      token: service.token,
      body: { app_id: space, model, messages: [{ role: 'user', content: 'Hello' }] },
    });
  const check = async () =>
    (await raw(service.url, 'POST', '/v1/providers/openai/check', { token: service.token, body: {} })).json as {
      ok: boolean;
      message: string;
    };

  it('routes to the provider only once a check says the key works, or when the key worked before', async () => {
    const before = await firstSpaceModels();
    assert.ok(
      before.every((ns) => ns.startsWith('test/')),
      before.join(),
    );

    // A mistyped key: the provider refuses it, and the first Space stays as it was.
    assert.equal((await put({ key: 'sk-mistyped-0123456789', base_url: openai.baseUrl })).status, 200);
    assert.deepEqual(await firstSpaceModels(), before, 'a key nobody has tried routes nothing');
    const refused = await check();
    assert.equal(refused.ok, false);
    assert.match(refused.message, /^The OpenAI key did not work: the OpenAI key was refused \(HTTP 401\)/);
    assert.deepEqual(await firstSpaceModels(), before, 'a refused key routes nothing');

    // A base URL where nothing answers, or that names no host: said in words, not as a system code.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await put({ key: openai.key, base_url: `http://127.0.0.1:${port}/v1` });
    assert.match((await check()).message, /could not be reached: nothing answers at its address/);
    await put({ key: openai.key, base_url: 'http://no-such-host.invalid/v1' });
    const nowhere = (await check()).message;
    assert.match(nowhere, /could not be reached: its address was not found/);
    assert.doesNotMatch(nowhere, /ENOTFOUND|EAI_AGAIN/);
    assert.deepEqual(await firstSpaceModels(), before);

    // The right key: the check works, and the Space nobody has changed follows (a new key for the
    // Space, as its endpoint is copied for another tool, is no change to what it routes to).
    const client = service.client();
    await client.regenerateSpaceKey((await client.listSpaces()).items.find((s) => s.name === 'My first Space')!.id);
    await put({ key: openai.key, base_url: openai.baseUrl });
    assert.deepEqual(await firstSpaceModels(), before);
    assert.equal((await check()).ok, true);
    const after = await firstSpaceModels();
    assert.ok(
      after.some((ns) => ns.startsWith('openai/')) && !after.some((ns) => ns.startsWith('test/')),
      after.join(),
    );

    // After a restart the extension hands over the key it kept, marked as having worked: routed at once.
    await raw(service.url, 'DELETE', '/v1/providers/openai/key', { token: service.token });
    assert.deepEqual(await firstSpaceModels(), before, 'without the key, back to what answers');
    await put({ key: openai.key, base_url: openai.baseUrl, verified: true });
    assert.deepEqual(await firstSpaceModels(), after);
  });

  it('says how to reach a model of the failover chain that cannot answer here, and answers from the next real one', async () => {
    await put({ key: openai.key, base_url: openai.baseUrl, verified: true });
    const client = service.client();
    const catalogue = await client.listModels();
    const chained = async (namespaces: string[]) => {
      const space = (await client.createSpace({ name: `Chain ${namespaces.join(', ')}` })).id;
      await client.updateSpace({
        id: space,
        has_failover_chain: true,
        failover_model_ids: namespaces.map((ns) => catalogue.find((m) => m.namespace === ns)!.id!),
      });
      return space;
    };
    type Answer = {
      metadata: { model: { namespace: string }; warning: string; routing: { attempts: Array<{ namespace: string }> } };
    };
    const res = await hello(
      await chained(['mistral/mistral-small-latest', 'test/echo', 'openai/gpt-5.4-mini']),
      'mistral/mistral-small-latest',
    );
    assert.equal(res.status, 200, res.text);
    const { model, warning, routing } = (res.json as Answer).metadata;
    // The test model of the chain makes its answer up: it is passed over for the real one.
    assert.equal(model.namespace, 'openai/gpt-5.4-mini');
    assert.deepEqual(
      routing.attempts.map((a) => a.namespace),
      ['mistral/mistral-small-latest', 'openai/gpt-5.4-mini'],
    );
    assert.match(
      warning,
      /mistral\/mistral-small-latest: cannot answer here: add your Mistral key \(LLM Spaces: Add Provider Key…, or MISTRAL_API_KEY for the standalone service\)/,
    );
    // Asked once: a model that cannot answer here will not answer a second time either.
    assert.doesNotMatch(warning, /times\)/);

    // With only a test model behind it, the named model's refusal is the answer.
    const echoOnly = await chained(['mistral/mistral-small-latest', 'test/echo']);
    const refused = await hello(echoOnly, 'mistral/mistral-small-latest');
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /mistral-small-latest cannot answer here: add your Mistral key/);
    // And a named model that fails is not answered by the test model either.
    openai.failNext({ status: 500 }, { status: 500 });
    const failed = await hello(echoOnly, 'openai/gpt-5.4-mini');
    assert.equal(failed.status, 502, failed.text);
    assert.match(failed.text, /No model could answer: .*gpt-5\.4-mini/);
    assert.equal((await hello(echoOnly, 'openai/gpt-5.4-mini')).status, 200);
  });

  it("sends OpenAI's reasoning models through Chat Completions to a server that does not know the Responses API", async () => {
    const proxy = await startOpenAiFake(undefined, { responses: false });
    try {
      await put({ key: proxy.key, base_url: proxy.baseUrl, verified: true });
      const space = (await service.client().listSpaces()).items[0]!.id;
      const ask = () => hello(space, 'openai/gpt-5.4-mini');
      const first = await ask();
      assert.equal(first.status, 200, first.text);
      assert.equal(
        (first.json as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
        'echo: Hello',
      );
      // Asked once on the Responses API (404), then at once on Chat Completions; from then on only that.
      assert.deepEqual(
        proxy.seen.map((r) => r.path),
        ['/v1/responses', '/v1/chat/completions'],
      );
      assert.equal((await ask()).status, 200);
      assert.equal(proxy.seen.at(-1)!.path, '/v1/chat/completions');
      assert.equal(proxy.seen.length, 3);
      assert.deepEqual(proxy.problems, []);
    } finally {
      await proxy.close();
      await put({ key: openai.key, base_url: openai.baseUrl, verified: true });
    }
  });

  it('sends with the key the provider has now: a replaced key or address takes effect on the next request', async () => {
    const space = (await service.client().listSpaces()).items[0]!.id;
    const chat = () => hello(space, 'openai/gpt-4o-mini');
    await put({ key: 'sk-mistyped-0123456789', base_url: openai.baseUrl, verified: true });
    const refused = await chat();
    assert.equal(refused.status, 502, refused.text);
    assert.match(refused.text, /the OpenAI key was refused \(HTTP 401\)/);
    await put({ key: openai.key, base_url: openai.baseUrl, verified: true });
    const answered = await chat();
    assert.equal(answered.status, 200, answered.text);
    const elsewhere = await startOpenAiFake();
    try {
      await put({ key: elsewhere.key, base_url: elsewhere.baseUrl, verified: true });
      assert.equal((await chat()).status, 200);
      assert.equal(elsewhere.seen.length, 1, 'the new address is asked');
    } finally {
      await elsewhere.close();
    }
  });

  it("reaches Azure's deployments named as their models, says which is missing without cooling Azure down, and reasons through the Responses API", async () => {
    const azure = await startAzureFake(undefined, ['gpt-4o-mini', 'gpt-5-mini']);
    try {
      await put({ key: azure.key, base_url: azure.baseUrl }, 'azure');
      // The key is tried with the deployment most often made; Azure says there is none by that name
      // only once it took the key.
      const check = await raw(service.url, 'POST', '/v1/providers/azure/check', { token: service.token, body: {} });
      assert.deepEqual(check.json, {
        ok: true,
        message:
          'The Azure OpenAI key works, but your Azure OpenAI resource has no deployment named gpt-4.1-mini: deploy the model under that name, or turn azure/gpt-4.1-mini off in the Spaces that use it.',
        model: 'azure/gpt-4.1-mini',
      });
      const client = service.client();
      const catalogue = await client.listModels();
      const space = (await client.createSpace({ name: 'Azure' })).id;
      await client.updateSpace({
        id: space,
        has_failover_chain: true,
        failover_model_ids: ['azure/gpt-4.1-mini', 'azure/gpt-4o-mini'].map(
          (ns) => catalogue.find((m) => m.namespace === ns)!.id!,
        ),
      });
      const respond = (body: Record<string, unknown>) =>
        raw(service.url, 'POST', '/v1/responses', { token: service.token, body: { app_id: space, ...body } });
      // A model without a deployment: said so in words in the receipt, asked once a request (not again),
      // the Space failing over to the next of its chain; Azure is not cooled down for it, as it would
      // be for failures of its own.
      for (let i = 0; i < 3; i++) {
        const missing = await hello(space, 'azure/gpt-4.1-mini');
        assert.equal(missing.status, 200, missing.text);
        const { warning, routing } = (
          missing.json as { metadata: { warning: string; routing: { attempts: Array<{ status_code: number }> } } }
        ).metadata;
        assert.match(warning, /has no deployment named gpt-4\.1-mini: deploy the model under that name/);
        assert.deepEqual(
          routing.attempts.map((a) => a.status_code),
          [404, 200],
        );
      }
      assert.equal(azure.seen.filter((r) => r.body.model === 'gpt-4.1-mini').length, 4, 'the check, then once each');
      // Named in a Space without a failover chain, it fails the request, again and again.
      const alone = await client.createSpace({ name: 'Azure, no failover chain' });
      await client.updateSpace({ id: alone.id, has_failover_chain: false });
      let failed = { status: 0, text: '' };
      for (let i = 0; i < 3; i++) {
        failed = await hello(alone.id, 'azure/gpt-4.1-mini');
        assert.equal(failed.status, 502, failed.text);
        assert.match(failed.text, /has no deployment named gpt-4\.1-mini/);
      }
      const states = (await raw(service.url, 'GET', '/v1/providers', { token: service.token })).json as ProviderState[];
      assert.equal(states.find((p) => p.id === 'azure')!.cooling_until, null);
      // A deployment of a model that does not reason: Chat Completions, the deployment's name as the model.
      const plain = await hello(space, 'azure/gpt-4o-mini');
      assert.equal(plain.status, 200, plain.text);
      const sent = azure.seen.at(-1)!;
      assert.deepEqual(
        [sent.path, sent.body.model, sent.headers.authorization],
        ['/openai/v1/chat/completions', 'gpt-4o-mini', undefined],
      );
      // A reasoning model's deployment: the Responses API, where it reasons while it calls tools (on
      // Chat Completions the AI SDK holds GPT-5.6 and later to none), Azure keeping no copy.
      const turn = { ...codexTurn('azure/gpt-5-mini', 'a.ts'), reasoning: { effort: 'low', summary: 'auto' } };
      const first = await respond(turn);
      assert.equal(first.status, 200, first.text);
      const asked = azure.seen.at(-1)!;
      assert.deepEqual(
        [
          asked.path,
          asked.body.model,
          asked.body.store,
          (asked.body.reasoning as { effort?: string } | undefined)?.effort,
        ],
        ['/openai/v1/responses', 'gpt-5-mini', false, 'low'],
      );
      const output = (first.json as { output: Array<{ type: string; call_id?: string }> }).output;
      assert.deepEqual(
        output.map((o) => o.type),
        ['reasoning', 'function_call'],
      );
      // Codex's next turn: Azure gets its reasoning item back, as it encrypted it (the fake checks it).
      const call = output[1]!;
      const next = await respond({
        ...turn,
        input: [...turn.input, ...output, { type: 'function_call_output', call_id: call.call_id, output: 'the file' }],
      });
      assert.equal(next.status, 200, next.text);
      const back = (azure.seen.at(-1)!.body.input as Array<{ type?: string; encrypted_content?: string }>).filter(
        (i) => i.type === 'reasoning',
      );
      assert.deepEqual(
        back.map((i) => i.encrypted_content),
        [`enc-${Buffer.from('Thinking about: call Read {"path":"a.ts"}').toString('base64url')}`],
      );
      assert.deepEqual(azure.problems, []);
      // Azure's key is in no answer and not in the service's output.
      for (const said of [check.text, failed.text, plain.text, first.text, next.text, service.output()])
        assert.ok(!said.includes(azure.key), 'the Azure key is shown');
    } finally {
      await azure.close();
      await raw(service.url, 'DELETE', '/v1/providers/azure/key', { token: service.token });
    }
  });

  it('adds an Azure deployment named otherwise than its model, priced and reasoning as the model it runs', async () => {
    const azure = await startAzureFake(undefined, { 'prod-gpt5': 'gpt-5.4' });
    const client = service.client();
    const deploy = (name: string, model: string) =>
      raw(service.url, 'PUT', `/v1/providers/azure/deployments/${name}`, { token: service.token, body: { model } });
    try {
      await put({ key: azure.key, base_url: azure.baseUrl, verified: true }, 'azure');
      const added = await deploy('prod-gpt5', 'openai/gpt-5.4');
      assert.equal(added.status, 200, added.text);
      const models = await client.listModels();
      const runs = models.find((m) => m.namespace === 'openai/gpt-5.4')!;
      const mine = models.find((m) => m.namespace === 'azure/prod-gpt5')!;
      assert.deepEqual(
        [mine.prompt_token_cost, mine.completion_token_cost, mine.context_window, mine.supports_reasoning],
        [runs.prompt_token_cost, runs.completion_token_cost, runs.context_window, true],
      );
      assert.deepEqual([mine.answers_here, mine.is_public, mine.provider], [true, false, 'azure']);
      // What is not a deployment to add is refused in words.
      const refusals = await Promise.all([
        deploy('gpt-4o-mini', 'openai/gpt-4o-mini'),
        deploy('prod-claude', 'anthropic/claude-haiku-4-5'),
        deploy('x', 'openai/gpt-5.4'),
      ]);
      assert.deepEqual(
        refusals.map((r) => r.status),
        [409, 422, 422],
      );
      assert.match(refusals[0]!.text, /azure\/gpt-4o-mini is in the catalogue already/);
      assert.deepEqual(
        (refusals[1]!.json as { detail: Array<{ msg: string }> }).detail[0]!.msg,
        '"anthropic/claude-haiku-4-5" is not an OpenAI model of the catalogue',
      );
      // A Space sends to it by the deployment's name, through the Responses API as the model reasons,
      // and bills it at the model's prices.
      const space = (await client.createSpace({ name: 'Azure deployment' })).id;
      await client.updateSpace({ id: space, has_failover_chain: false });
      const ask = () => hello(space, 'azure/prod-gpt5');
      const res = await ask();
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([azure.seen.at(-1)!.path, azure.seen.at(-1)!.body.model], ['/openai/v1/responses', 'prod-gpt5']);
      const cost = (res.json as { metadata: { costs: { total_tokens: number } } }).metadata.costs.total_tokens;
      const expected =
        8 * runs.prompt_token_cost +
        3 * (runs.cache_read_token_cost ?? runs.prompt_token_cost) +
        7 * runs.completion_token_cost;
      assert.ok(Math.abs(cost - expected) < 1e-12, `${cost} vs ${expected}`);
      await client.toggleModel(space, mine.id!, true);
      // Forgotten, it is no model any more, not in the Space that had it on either, and not twice.
      const removed = await raw(service.url, 'DELETE', '/v1/providers/azure/deployments/prod-gpt5', {
        token: service.token,
      });
      assert.equal(removed.status, 200, removed.text);
      assert.ok(!(await client.getSpaceModels(space)).base_model_settings.some((m) => m.id === mine.id));
      const after = await ask();
      assert.equal(after.status, 422, after.text);
      assert.equal(
        (after.json as { error: { message: string } }).error.message,
        'model: Unknown model "azure/prod-gpt5"',
      );
      assert.equal(
        (await raw(service.url, 'DELETE', '/v1/providers/azure/deployments/prod-gpt5', { token: service.token }))
          .status,
        404,
      );
      assert.deepEqual(azure.problems, []);
    } finally {
      await azure.close();
      await raw(service.url, 'DELETE', '/v1/providers/azure/key', { token: service.token });
    }
  });

  it("runs OpenAI's tool search on an Azure deployment of GPT-5.4 whatever its name, and shows a deployment of an earlier model every tool", async () => {
    // Azure's tool search guide: the Responses API's tool_search, on deployments of GPT-5.4 and later.
    const azure = await startAzureFake(undefined, { 'prod-54': 'gpt-5.4', 'prod-5': 'gpt-5' });
    const client = service.client();
    const deploy = (name: string, model: string) =>
      raw(service.url, 'PUT', `/v1/providers/azure/deployments/${name}`, { token: service.token, body: { model } });
    try {
      await put({ key: azure.key, base_url: azure.baseUrl, verified: true }, 'azure');
      for (const [name, model] of [
        ['prod-54', 'openai/gpt-5.4'],
        ['prod-5', 'openai/gpt-5'],
      ] as const)
        assert.equal((await deploy(name, model)).status, 200);
      const space = await client.createSpace({ name: 'Azure tool search' });
      await client.updateSpace({ id: space.id, has_failover_chain: false });
      const sdk = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: space.created_key, maxRetries: 0 });
      const ask = {
        model: 'azure/prod-54',
        store: false,
        include: ['reasoning.encrypted_content' as const],
        reasoning: { effort: 'low' as const },
        tools: SEARCHED_TOOLS as never,
        input: 'call get_customer {"id":"c-42"}',
      };
      const first = await sdk.responses.create(ask);
      // Azure gets the search and the namespace, deferred as asked, under the deployment's name.
      const sent = azure.seen.at(-1)!;
      assert.deepEqual([sent.path, sent.body.model], ['/openai/v1/responses', 'prod-54']);
      assert.deepEqual(
        (sent.body.tools as Array<Record<string, unknown>>).map((t) => [t.type, t.name, t.defer_loading]),
        [
          ['namespace', 'crm', undefined],
          ['function', 'get_weather', true],
          ['function', 'now', undefined],
          ['tool_search', undefined, undefined],
        ],
      );
      assert.deepEqual(
        first.output.map((o) => o.type),
        ['reasoning', 'tool_search_call', 'tool_search_output', 'function_call'],
      );
      const fn = first.output[3] as OpenAI.Responses.ResponseFunctionToolCall;
      assert.deepEqual([fn.namespace, fn.name], ['crm', 'get_customer']);
      assert.equal(warningOf(first), null);
      // Streamed, the same items, each in its place.
      const done: string[] = [];
      const stream = sdk.responses.stream(ask);
      stream.on('response.output_item.done', (e) => done.push(e.item.type));
      const streamed = await stream.finalResponse();
      assert.deepEqual(done, ['reasoning', 'tool_search_call', 'tool_search_output', 'function_call']);
      const streamedCall = streamed.output[3] as OpenAI.Responses.ResponseFunctionToolCall;
      assert.deepEqual([streamedCall.namespace, streamedCall.name], ['crm', 'get_customer']);
      // The next turn, everything back: Azure gets the search it ran in its place, and the call in its namespace.
      const next = await sdk.responses.create({
        ...ask,
        input: [
          { role: 'user', content: ask.input },
          ...(first.output as never[]),
          { type: 'function_call_output', call_id: fn.call_id, output: 'Ada Lovelace' },
        ],
      });
      assert.equal(next.output_text, 'echo: Ada Lovelace');
      const items = azure.seen.at(-1)!.body.input as Array<Record<string, unknown>>;
      assert.deepEqual(
        items.map((i) => i.type ?? i.role),
        ['user', 'reasoning', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output'],
      );
      assert.deepEqual(
        [items[2]!.id, items[3]!.id],
        first.output.slice(1, 3).map((o) => (o as { id: string }).id),
      );
      assert.deepEqual([items[4]!.namespace, items[4]!.name], ['crm', 'get_customer']);
      // A deployment of GPT-5 is shown every tool, and the answer says so.
      const older = await sdk.responses.create({
        ...ask,
        model: 'azure/prod-5',
        input: 'call crm__get_customer {"id":"c-42"}',
      });
      const shown = azure.seen.at(-1)!.body.tools as Array<Record<string, unknown>>;
      assert.deepEqual(
        shown.map((t) => [t.type, t.name, t.defer_loading]),
        EVERY_TOOL_SHOWN,
      );
      assert.match(String(warningOf(older)), /so azure\/prod-5 was shown every tool\./);
      assert.deepEqual(azure.problems, []);
    } finally {
      await azure.close();
      for (const name of ['prod-54', 'prod-5'])
        await raw(service.url, 'DELETE', `/v1/providers/azure/deployments/${name}`, { token: service.token });
      await raw(service.url, 'DELETE', '/v1/providers/azure/key', { token: service.token });
    }
  });

  it('tries a key with a model models.dev lists where the price list keeps models the provider retired long ago (Together AI), and starts a new Space with those', async () => {
    const client = service.client();
    const together = (await client.listModels()).filter((m) => m.provider === 'together' && !m.deprecated_on);
    // The price list's cheapest is a model Together no longer serves (and nothing marks so).
    assert.equal([...together].sort(cheapestFirst)[0]!.namespace, 'together/google/gemma-2b');
    // Together's API is OpenAI's Chat Completions: the OpenAI fake plays it.
    const put = await raw(service.url, 'PUT', '/v1/providers/together/key', {
      token: service.token,
      body: { key: openai.key, base_url: openai.baseUrl },
    });
    assert.equal(put.status, 200, put.text);
    const check = await raw(service.url, 'POST', '/v1/providers/together/check', { token: service.token, body: {} });
    assert.deepEqual(check.json, {
      ok: true,
      message: 'The Together AI key works: together/meta-llama/Llama-3.3-70B-Instruct-Turbo answered.',
      model: 'together/meta-llama/Llama-3.3-70B-Instruct-Turbo',
    });
    assert.equal(openai.seen.at(-1)!.body.model, 'meta-llama/Llama-3.3-70B-Instruct-Turbo');
    const space = await client.createSpace({ name: 'Together' });
    const active = (await client.getSpaceModels(space.id)).base_model_settings
      .filter((m) => m.active)
      .map((m) => m.namespace);
    // Of Together's models, only the one models.dev lists (and calls tools), not gemma-2b.
    assert.deepEqual(
      active.filter((ns) => ns.startsWith('together/')),
      ['together/meta-llama/Llama-3.3-70B-Instruct-Turbo'],
    );
    assert.deepEqual(openai.problems, []);
  });
});
