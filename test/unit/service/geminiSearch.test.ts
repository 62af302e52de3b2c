// Google Search on Gemini models (grounding), asked as the clients ask a web search: Claude Code's
// WebSearch (Anthropic's web_search tool) and Codex's (OpenAI's web_search on the Responses API),
// through a Space to a fake of the Gemini API that searches when offered Google Search and tells of it
// as Google's grounding reference shows (providerFakes.ts). The official Anthropic and OpenAI SDKs read
// the answers; the fake checks each request it gets.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import {
  googlePages,
  googleQueries,
  googleSearchResults,
  googleSearchSuggestions,
  startGeminiFake,
} from '../support/providerFakes';
import { raw } from '../support/http';
import { spaceOf } from '../support/service';
import { keyKeptOut, throughASpace } from '../support/throughASpace';

const GEMINI_2 = 'google/gemini-2.5-flash-lite';
const GEMINI_3 = 'google/gemini-3.5-flash';
const SEARCH = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 8 };
const LOOKUP: Anthropic.Tool = {
  name: 'lookup',
  description: 'Looks a word up.',
  input_schema: { type: 'object', properties: { word: { type: 'string' } } },
};

interface Receipt {
  llm_spaces: { warning: string | null; costs: { total_tokens: number } };
}
const receiptOf = (answer: unknown) => (answer as Receipt).llm_spaces;
/** The pages the fake's search finds for a text, as Anthropic cites them from the stretch they ground (the text). */
const citationsOf = (text: string) =>
  googlePages(text).map((p) => ({
    type: 'web_search_result_location',
    url: p.uri,
    title: p.title,
    encrypted_index: '',
    cited_text: text,
  }));

describe('Google Search on Gemini models, asked as Anthropic’s or OpenAI’s web search', function () {
  this.timeout(60_000);
  const s = throughASpace('google', () => startGeminiFake(), { name: 'Gemini', active: [GEMINI_2] });
  /**
   * A Space's SDKs with only `model` active, and no cost cap: a new Space's would refuse a request that
   * may run as many searches as Claude Code allows.
   */
  const sdksFor = async (model: string) => {
    const { id, key } = await spaceOf(s.service, model, [model]);
    await s.service.client().updateSpace({ id, policies: { max_cost: 0 } });
    return {
      claude: new Anthropic({ baseURL: s.service.url, apiKey: key, maxRetries: 0 }),
      openai: new OpenAI({ baseURL: `${s.service.url}/v1`, apiKey: key, maxRetries: 0 }),
    };
  };
  const modelOf = (ns: string) => s.models.find((m) => m.namespace === ns)!;
  /** What the tokens alone cost, as the fake counts them. */
  const tokensCost = (ns: string) => {
    const m = modelOf(ns);
    const { input, cached, output } = s.fake.usage;
    return (
      (input - cached) * m.prompt_token_cost +
      cached * (m.cache_read_token_cost ?? 0) +
      output * m.completion_token_cost
    );
  };
  const assertCost = (answer: unknown, expected: number) => {
    const cost = receiptOf(answer).costs.total_tokens;
    assert.ok(Math.abs(cost - expected) < 1e-12, `cost ${cost}, expected ${expected}`);
  };
  /** What the organization's counters were billed for what `send` asked (a stream's answer has no receipt). */
  const billed = async (send: () => Promise<unknown>) => {
    const before = (await s.service.client().getOrganization()).total_tokens_cost;
    await send();
    return (await s.service.client().getOrganization()).total_tokens_cost - before;
  };
  const assertNear = (actual: number, expected: number) =>
    assert.ok(Math.abs(actual - expected) < 1e-12, `billed ${actual}, expected ${expected}`);

  it('prices a search by Google’s price: a Gemini 3 model’s each query, an earlier model’s each grounded prompt', () => {
    assert.equal(modelOf(GEMINI_3).web_search_cost, 0.014);
    assert.equal(modelOf(GEMINI_2).web_search_cost, 0.035);
    // A model Google does not ground has no price for it.
    assert.equal(modelOf('google/gemini-2.0-flash-lite').web_search_cost, null);
  });

  it('runs Claude Code’s WebSearch on Gemini 2.5 as Google Search: its queries and pages come as Anthropic’s search, billed once', async () => {
    const { claude } = await sdksFor(GEMINI_2);
    const text = 'What is new in gateways?';
    const message = await claude.messages.create({
      model: GEMINI_2,
      max_tokens: 300,
      messages: [{ role: 'user', content: text }],
      tools: [SEARCH],
    });
    s.said.push(JSON.stringify(message));
    assert.deepEqual(s.fake.seen.at(-1)!.body.tools, [{ googleSearch: {} }]);
    const [call, result, lead, answer] = message.content as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['server_tool_use', 'web_search_tool_result', 'text', 'text'],
    );
    assert.deepEqual(call!.input, { query: googleQueries(text).join('; ') });
    assert.equal(result!.tool_use_id, call!.id);
    assert.deepEqual(result!.content, googleSearchResults(text));
    // The stretch Google says the pages ground is a block of its own, citing them as Anthropic cites.
    assert.deepEqual(lead, { type: 'text', text: 'echo: ' });
    assert.equal(answer!.text, text);
    assert.deepEqual(answer!.citations, citationsOf(text));
    assert.equal(message.usage.server_tool_use?.web_search_requests, 1);
    assert.equal(receiptOf(message).warning, null);
    // Two queries, one grounded prompt: Gemini 2.5's search is billed once.
    assertCost(message, tokensCost(GEMINI_2) + 0.035);
    // Sent back in the next turn, the search is not Gemini's to read: the model gets the text alone.
    await claude.messages.create({
      model: GEMINI_2,
      max_tokens: 300,
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: message.content },
        { role: 'user', content: 'More?' },
      ],
      tools: [SEARCH],
    });
    const contents = s.fake.seen.at(-1)!.body.contents as Array<{ role: string; parts: unknown[] }>;
    assert.deepEqual(contents[1], { role: 'model', parts: [{ text: `echo: ${text}` }] });
  });

  it('searches on Gemini 3 beside Claude Code’s own tools, streamed: Google’s own steps are no calls of the client’s, each query billed', async () => {
    const { claude } = await sdksFor(GEMINI_3);
    const text = 'Find the newest gateway';
    const ask = {
      model: GEMINI_3,
      max_tokens: 300,
      messages: [{ role: 'user' as const, content: text }],
      tools: [SEARCH, LOOKUP],
    };
    let message!: Anthropic.Message;
    const cost = await billed(async () => (message = await claude.messages.stream(ask).finalMessage()));
    s.said.push(JSON.stringify(message));
    const sent = s.fake.seen.at(-1)!.body as {
      tools: Array<Record<string, unknown>>;
      toolConfig?: { includeServerSideToolInvocations?: boolean };
    };
    assert.deepEqual(sent.tools[0], { googleSearch: {} });
    assert.deepEqual(
      (sent.tools[1]!.functionDeclarations as Array<{ name: string }>).map((d) => d.name),
      ['lookup'],
    );
    assert.equal(sent.toolConfig?.includeServerSideToolInvocations, true);
    // The text as it streamed, then what the search found, which comes with the stream's end; the pages
    // the text rests on are its block's citations, each with the stretch it grounds.
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result'],
    );
    const said = message.content[0] as Anthropic.TextBlock;
    assert.equal(said.text, `echo: ${text}`);
    assert.deepEqual(said.citations, citationsOf(text));
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual((message.content[2] as Anthropic.WebSearchToolResultBlock).content, googleSearchResults(text));
    // Two queries, each billed.
    assertNear(cost, tokensCost(GEMINI_3) + 2 * 0.014);
    // A call of the client's tool after the search: the client is asked to run its tool, and no other.
    const calls = await claude.messages.create({
      ...ask,
      messages: [{ role: 'user', content: 'Look it up | call lookup {"word":"gateway"}' }],
    });
    s.said.push(JSON.stringify(calls));
    assert.deepEqual(
      calls.content.map((b) => (b.type === 'tool_use' ? `tool_use ${b.name}` : b.type)),
      // The call's thought signature first, as a thinking block for Claude Code to send back.
      ['thinking', 'server_tool_use', 'web_search_tool_result', 'text', 'tool_use lookup'],
    );
    assert.equal(calls.stop_reason, 'tool_use');
    assertCost(calls, tokensCost(GEMINI_3) + 2 * 0.014);
    // The loop goes on: the call goes back signed (the fake refuses it unsigned), the search not at all.
    const use = calls.content.at(-1) as Anthropic.ToolUseBlock;
    await claude.messages.create({
      ...ask,
      messages: [
        { role: 'user', content: 'Look it up | call lookup {"word":"gateway"}' },
        { role: 'assistant', content: calls.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'a way in' }] },
      ],
    });
    const model = (
      s.fake.seen.at(-1)!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
    )[1]!;
    assert.deepEqual(
      model.parts.map((p) => Object.keys(p).sort().join('+')),
      ['text', 'functionCall+thoughtSignature'],
    );
  });

  it('answers on Gemini 2.5 without searching when the client offers its own tools, says why, and sends the tools whole', async () => {
    const { claude } = await sdksFor(GEMINI_2);
    const message = await claude.messages.create({
      model: GEMINI_2,
      max_tokens: 300,
      messages: [{ role: 'user', content: 'What is new?' }],
      tools: [SEARCH, LOOKUP],
    });
    const tools = s.fake.seen.at(-1)!.body.tools as Array<{ functionDeclarations?: Array<{ name: string }> }>;
    assert.deepEqual(
      tools.map((t) => Object.keys(t)),
      [['functionDeclarations']],
    );
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text'],
    );
    assert.equal(
      receiptOf(message).warning,
      `Anthropic's web search runs only on Anthropic's models, OpenAI's reasoning models and Gemini models (Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked), so ${GEMINI_2} answered without searching.`,
    );
    assertCost(message, tokensCost(GEMINI_2));
    // Domains to keep to are not Google Search's to take: asked them, Gemini 3 answers without searching.
    const three = (await sdksFor(GEMINI_3)).claude;
    const kept = await three.messages.create({
      model: GEMINI_3,
      max_tokens: 300,
      messages: [{ role: 'user', content: 'What is new?' }],
      tools: [{ ...SEARCH, allowed_domains: ['example.com'] }],
    });
    assert.equal(s.fake.seen.at(-1)!.body.tools, undefined);
    assert.match(receiptOf(kept).warning ?? '', /so google\/gemini-3\.5-flash answered without searching\.$/);
  });

  it('runs Codex’s web search on Gemini 3 as Google Search, told as OpenAI’s web_search_call, whole and streamed', async () => {
    const { openai } = await sdksFor(GEMINI_3);
    // Google places what its pages ground in bytes; the text's characters are not all one byte.
    const text = 'What is new in routers — über alles?';
    const ask = {
      model: GEMINI_3,
      input: text,
      tools: [{ type: 'web_search' as const }],
      include: ['web_search_call.action.sources' as const],
    };
    const whole = await openai.responses.create(ask);
    s.said.push(JSON.stringify(whole));
    assert.deepEqual(s.fake.seen.at(-1)!.body.tools, [{ googleSearch: {} }]);
    const search = whole.output.find((o) => o.type === 'web_search_call');
    assert.ok(search, JSON.stringify(whole.output.map((o) => o.type)));
    assert.deepEqual(search.action, {
      type: 'search',
      query: googleQueries(text).join('; '),
      sources: googlePages(text).map((p) => ({ type: 'url', url: p.uri })),
    });
    assert.equal(whole.output_text, `echo: ${text}`);
    // The text cites the pages Google says ground it, as OpenAI's annotations.
    const cites = googlePages(text).map((p) => ({
      type: 'url_citation',
      start_index: 'echo: '.length,
      end_index: whole.output_text.length,
      url: p.uri,
      title: p.title,
    }));
    const annotationsOf = (r: OpenAI.Responses.Response) =>
      (
        (r.output.find((o) => o.type === 'message') as OpenAI.Responses.ResponseOutputMessage)
          .content[0] as OpenAI.Responses.ResponseOutputText
      ).annotations;
    assert.deepEqual(annotationsOf(whole), cites);
    assertCost(whole, tokensCost(GEMINI_3) + 2 * 0.014);
    let streamed!: OpenAI.Responses.Response;
    const cost = await billed(async () => (streamed = await openai.responses.stream(ask).finalResponse()));
    s.said.push(JSON.stringify(streamed));
    assert.deepEqual(
      streamed.output.filter((o) => o.type !== 'reasoning').map((o) => o.type),
      ['message', 'web_search_call'],
    );
    assertNear(cost, tokensCost(GEMINI_3) + 2 * 0.014);
    assert.deepEqual(annotationsOf(streamed), cites);
    // Sent back, the search goes nowhere: Gemini gets its own text and the next question.
    await openai.responses.create({
      ...ask,
      input: [{ role: 'user', content: text }, ...(whole.output as never[]), { role: 'user', content: 'More?' }],
    });
    const contents = s.fake.seen.at(-1)!.body.contents as Array<{ role: string; parts: unknown[] }>;
    assert.deepEqual(
      contents.map((c) => c.role),
      ['user', 'model', 'user'],
    );
    assert.deepEqual(contents[1]!.parts, [{ text: `echo: ${text}` }]);
  });

  it('runs Chat Completions’ web_search_options on Gemini 3 as Google Search, its pages in the message’s annotations, whole and streamed', async () => {
    const { openai } = await sdksFor(GEMINI_3);
    const text = 'What is new in proxies?';
    const ask = {
      model: GEMINI_3,
      messages: [{ role: 'user' as const, content: text }],
      web_search_options: {
        search_context_size: 'low' as const,
        user_location: { type: 'approximate' as const, approximate: { country: 'DE', city: 'Berlin' } },
      },
    };
    const cites = googlePages(text).map((p) => ({
      type: 'url_citation',
      url_citation: { start_index: 'echo: '.length, end_index: `echo: ${text}`.length, url: p.uri, title: p.title },
    }));
    let whole!: OpenAI.ChatCompletion;
    const cost = await billed(async () => (whole = await openai.chat.completions.create(ask)));
    s.said.push(JSON.stringify(whole));
    assert.deepEqual(s.fake.seen.at(-1)!.body.tools, [{ googleSearch: {} }]);
    assert.equal(whole.choices[0]!.message.content, `echo: ${text}`);
    assert.deepEqual(whole.choices[0]!.message.annotations, cites);
    // Nothing of the service's own shapes comes with the answer (Google's Search Suggestions are the
    // service's own field, which OpenAI's clients do not read).
    assert.deepEqual(
      Object.keys(whole).filter((k) => ['cited', 'webTools', 'thinking', 'paused', 'searchSuggestions'].includes(k)),
      [],
    );
    assert.equal((whole.choices[0]!.message as { search_suggestions?: string }).search_suggestions, undefined);
    assertNear(cost, tokensCost(GEMINI_3) + 2 * 0.014);
    const chunks = await openai.chat.completions.create({ ...ask, stream: true });
    const streamed: unknown[] = [];
    let said = '';
    for await (const chunk of chunks) {
      said += chunk.choices[0]?.delta.content ?? '';
      streamed.push(...((chunk.choices[0]?.delta as { annotations?: unknown[] } | undefined)?.annotations ?? []));
      assert.equal((chunk.choices[0]?.delta as { search_suggestions?: string }).search_suggestions, undefined);
    }
    assert.equal(said, `echo: ${text}`);
    assert.deepEqual(streamed, cites);
    // A model that cannot search answers without, and says so; domains are not Chat Completions' to ask.
    const two = (await sdksFor(GEMINI_2)).openai;
    const without = await two.chat.completions.create({
      ...ask,
      model: GEMINI_2,
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    });
    assert.equal(without.choices[0]!.message.annotations, undefined);
    assert.match(
      (without as unknown as { metadata: { warning: string | null } }).metadata.warning ?? '',
      /^OpenAI's web search runs only on .*, so google\/gemini-2\.5-flash-lite answered without searching\.$/,
    );
    // A field of the options this service does not know is refused by its name.
    await assert.rejects(
      openai.chat.completions.create({
        ...ask,
        web_search_options: { ...ask.web_search_options, filters: {} },
      } as never),
      (e: Error) => /web_search_options/.test(e.message) && /filters/.test(e.message),
    );
  });

  it('runs the playground’s web_search plugin as the model’s search, and refuses a plugin it does not have by name', async () => {
    const { id } = await spaceOf(s.service, 'Playground', [GEMINI_3]);
    await s.service.client().updateSpace({ id, policies: { max_cost: 0 } });
    const text = 'What is new in caches?';
    const ask = { app_id: id, prompt: text, plugins: ['web_search'] };
    // The playground names the conversation a first prompt starts.
    const conversation = randomUUID();
    const answer = await raw(s.service.url, 'POST', '/v1/playground/chat', {
      token: s.service.token,
      body: { ...ask, conversation_id: conversation },
    });
    s.said.push(answer.text);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(s.fake.seen.at(-1)!.body.tools, [{ googleSearch: {} }]);
    type Message = { annotations?: unknown[]; search_suggestions?: string };
    const { choices } = answer.json as { choices: Array<{ message: Message }> };
    assert.deepEqual(
      choices[0]!.message.annotations,
      googlePages(text).map((p) => ({
        type: 'url_citation',
        url_citation: { start_index: 'echo: '.length, end_index: `echo: ${text}`.length, url: p.uri, title: p.title },
      })),
    );
    // Google's Search Suggestions, which Google asks to be shown with the answer, as Google gave them.
    assert.equal(choices[0]!.message.search_suggestions, googleSearchSuggestions(text));
    // The extension's client reads them too, whole.
    const read = await s.service.client().chat(ask);
    assert.equal(read.choices[0]!.message.search_suggestions, googleSearchSuggestions(text));
    // Streamed, they come in a chunk of their own after the text, as the extension's client reads them.
    const events = [];
    for await (const event of s.service.client().chatStream({ ...ask, stream: true })) events.push(event);
    assert.deepEqual(
      events.filter((e) => e.type === 'searchSuggestions'),
      [{ type: 'searchSuggestions', html: googleSearchSuggestions(text) }],
    );
    assert.ok(
      events.findIndex((e) => e.type === 'searchSuggestions') > events.findLastIndex((e) => e.type === 'delta'),
      'after the text',
    );
    // The conversation read again has the pages the reply cited, once each, and Google's Search
    // Suggestions, kept with its text.
    const client = s.service.client();
    const keptOf = async (conversationId: string) =>
      (await client.getConversation(id, conversationId, true)).requests!.map((r) => [r.sources, r.search_suggestions]);
    const pages = googlePages(text).map((p) => ({ url: p.uri, title: p.title }));
    assert.deepEqual(await keptOf(conversation), [[pages, googleSearchSuggestions(text)]]);
    // A Space whose log keeps no text keeps neither.
    await client.updateSpace({ id, policies: { privacy_level: 2 } });
    const elsewhere = randomUUID();
    const unkept = await raw(s.service.url, 'POST', '/v1/playground/chat', {
      token: s.service.token,
      body: { ...ask, conversation_id: elsewhere },
    });
    assert.equal(unkept.status, 200, unkept.text);
    assert.equal(
      (unkept.json as { choices: Array<{ message: Message }> }).choices[0]!.message.search_suggestions,
      googleSearchSuggestions(text),
    );
    assert.deepEqual(await keptOf(elsewhere), [[[], undefined]]);
    await client.updateSpace({ id, policies: { privacy_level: 1 } });
    const refused = await raw(s.service.url, 'POST', '/v1/playground/chat', {
      token: s.service.token,
      body: { ...ask, plugins: ['web_search', 'web_browser'] },
    });
    assert.equal(refused.status, 422);
    assert.deepEqual((refused.json as { detail: Array<{ loc: unknown[]; msg: string }> }).detail, [
      {
        loc: ['body', 'plugins', 1],
        msg: 'web_browser is not a plugin of this service; it has web_search (the model searches the web before it answers, where its provider runs a search)',
        type: 'value_error',
      },
    ]);
  });

  it('counts the playground’s web search in the cost band before sending, and says in words when the Space’s cost cap would refuse it', async () => {
    const { id } = await spaceOf(s.service, 'Priced first', [GEMINI_3]);
    const client = s.service.client();
    const question = { prompt: 'What is new in caches?', model: GEMINI_3, max_tokens: 256 };
    const searching = { ...question, plugins: ['web_search'] };
    await client.updateSpace({ id, policies: { max_cost: 0 } });
    const plain = (await client.previewRoute(id, question)).band!;
    const searched = await client.previewRoute(id, searching);
    // The playground sets no limit: one search, at Google's price for each query, if the model writes
    // anything; none in the least it may cost.
    const price = modelOf(GEMINI_3).web_search_cost!;
    assertNear(searched.band!.max - plain.max, price);
    assertNear(searched.band!.expected - plain.expected, price);
    assert.equal(searched.band!.min, plain.min);
    assert.equal(searched.refused, null);
    assert.equal(searched.candidates[0]!.estimated_cost, searched.band!.max, 'routing weighs the search too');
    // A cap between the two: the plain request may go; the searched one would be refused, and the
    // preview says why in the words the send would, before anything is sent.
    const seen = s.fake.seen.length;
    await client.updateSpace({ id, policies: { max_cost: (plain.max + searched.band!.max) / 2 } });
    const uncapped = await client.previewRoute(id, question);
    assert.ok(uncapped.band && uncapped.refused === null);
    const capped = await client.previewRoute(id, searching);
    assert.equal(capped.band, null);
    assert.match(
      capped.refused!,
      new RegExp(
        `^${GEMINI_3} may cost up to \\$[\\d.]+ for this request \\(its prompt, the longest reply its max_tokens allows, and a web search at \\$0\\.014\\), more than this Space's cost cap of \\$[\\d.]+ a request: raise the Space's cost cap per request in its settings \\(0 means no cap\\), or ask for a shorter reply \\(max_tokens\\)$`,
      ),
    );
    const sent = await raw(s.service.url, 'POST', '/v1/playground/chat', {
      token: s.service.token,
      body: { app_id: id, ...searching },
    });
    assert.equal(sent.status, 422);
    assert.equal((sent.json as { detail: Array<{ msg: string }> }).detail[0]!.msg, capped.refused);
    assert.equal(s.fake.seen.length, seen, 'nothing was sent to Google');
    // A plugin the service does not have is refused by the preview as by the send.
    const unknown = await raw(s.service.url, 'POST', `/v1/apps/${id}/route`, {
      token: s.service.token,
      body: { ...question, plugins: ['web_browser'] },
    });
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /web_browser is not a plugin of this service/);
  });

  keyKeptOut(s, 'Gemini');
});
