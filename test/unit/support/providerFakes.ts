// Fakes of the hosted providers' wire formats, written from their published API references, for tests
// of the built-in service's way to them (no network here):
//   OpenAI Chat Completions  POST {base}/chat/completions, Authorization: Bearer, SSE chunks ending [DONE]
//   OpenAI Responses         POST {base}/responses, input items, named SSE events ending response.completed
//   Anthropic Messages       POST {base}/messages, x-api-key + anthropic-version, max_tokens required,
//                            system outside messages, named SSE events (message_start … message_stop)
//   Google Gemini            POST {base}/models/{model}:generateContent (:streamGenerateContent?alt=sse),
//                            x-goog-api-key, contents with user/model roles
//   Z.ai Chat Completions    POST {root}/chat/completions at its two plans' roots (/api/paas/v4 and the
//                            Coding Plan's /api/coding/paas/v4), a key answering only at its own
//   MiniMax (Anthropic's)    POST /anthropic/v1/messages, Anthropic's Messages with MiniMax's limits
//   Amazon Bedrock           POST /model/{id}/converse (/converse-stream), and for Claude /model/{id}/invoke
//                            (/invoke-with-response-stream: Anthropic's events in base64 chunks), a Bearer
//                            API key, streams in AWS's binary event frames; its lists at GET
//                            /foundation-models and /inference-profiles
//   Google Vertex AI         POST /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent
//                            (Gemini's API) and …/publishers/anthropic/models/{m}:rawPredict (Anthropic's
//                            Messages), a service account's self-signed JWT as the Bearer token
//   Embeddings               OpenAI's POST {base}/embeddings, Gemini's :embedContent and :batchEmbedContents
//                            and Voyage's POST {base}/embeddings (a provider of embeddings only)
//   Lists of models          GET {base}/models, when a test gives one (`listed`): OpenAI's whole, Anthropic's
//                            in pages by `limit` and `after_id`, Gemini's by `pageSize` and `pageToken`
// Each checks the requests it gets against its reference and records what is wrong with one in
// `problems`, answers "echo: <last user text>" (or the tool call `call <tool> <JSON>` asks for) with
// usage that includes cached input, and can be told to fail the next requests: an HTTP status (with
// Retry-After), a stream cut before its first token, or no answer at all.
// - OpenAI's refuses an effort for a model that does not reason, with a 400 in its words; its reasoning
//   models reason first on the Responses API (a summary when asked, encrypted when included, which it
//   checks when sent back), and, offered the web search tool, search for the text after reasoning, then
//   reason again (a web_search_call item between two reasoning items, its pages' URLs when included,
//   which it checks when sent back; the answer's text cites the first page in a url_citation
//   annotation); offered its tool search with deferred tools (functions, or namespaces of them) and
//   asked to call one not loaded yet, a GPT-5.4 or later model searches for it first (a tool_search_call
//   and its tool_search_output, run at OpenAI), then calls it in its namespace, and checks a search sent
//   back is the one it gave and a namespace's call names a tool of it. It also plays DeepSeek (whose
//   API is OpenAI's Chat Completions), whose V4 models write their reasoning as `reasoning_content`
//   before their answer unless `thinking: {type: "disabled"}` turns it off, and which refuses the names
//   it retired on 2026-07-24, deepseek-chat and deepseek-reasoner, and xAI, whose Grok 4 reasons but
//   refuses a reasoning effort, in xAI's words.
// - Anthropic's thinks first when asked (a signed thinking block, which it checks when sent back) and
//   refuses what its extended-thinking reference refuses (a budget out of bounds, a signature it did not
//   give, a tool loop whose last turn lost its thinking) with a 400. Offered its web search tool, it
//   says so and searches for the text first (a text, a server_tool_use and its web_search_tool_result,
//   as its web search reference shows them), and checks a search sent back: its result beside it, the
//   content it encrypted; the answer cites the first page (a citation with its encrypted index). Asked
//   to search for a text that names pause_turn, it pauses its turn after the
//   search, and goes on when the turn comes back as it is. Offered its web fetch tool (with the beta
//   header of its version) and a text naming an address, it reads that page first (a
//   web_fetch_tool_result with the page as a document, or url_not_accessible for an address that says
//   unreachable), and checks a page sent back is the one it read. Offered its tool search tool and asked
//   to call a deferred tool it has not loaded, it searches for it by name first (a server_tool_use and
//   its tool_search_tool_result, as its tool search reference shows them), then calls it (a tool whose
//   name says unavailable is not found: the result is Anthropic's error); a search sent back loads the
//   tools it found, and must be the one it gave.
// - Gemini 3 models sign their function calls and refuse, as Google's thought-signatures guide says, a
//   call of the current turn sent back without its signature (or Google's sentinel) or with one they did
//   not give. Offered Google Search (grounding), a Gemini model searches for the text with two queries
//   and tells of it in the candidate's groundingMetadata (its queries, two pages as Google's redirect
//   addresses, the answer's support, its Search Suggestions); a model before Gemini 3 refuses it beside function declarations,
//   and a Gemini 3 model asked for its server-side tool invocations tells of the search first as a
//   toolCall and a toolResponse part.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { AwsV4Signer } from 'aws4fetch';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createHash, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerName } from '../../../src/shared/providerNames';

export type Failure =
  /** An HTTP status, with Retry-After, in the provider's words for it or these. */
  | { status: number; retryAfter?: number; message?: string }
  /** The stream starts (200) and breaks before its first token. */
  | 'cut'
  /** The request is never answered. */
  | 'hang';

export interface SeenRequest {
  path: string;
  method?: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The body as sent (a signature covers it). */
  text?: string;
}

export interface ProviderFake {
  /** The base URL as the provider's SDK wants it (with the API's version path). */
  baseUrl: string;
  key: string;
  seen: SeenRequest[];
  /** What was wrong with a request, by the reference; a test asserts it stays empty. */
  problems: string[];
  /** Fails the next requests, one failure each, in order. */
  failNext: (...failures: Failure[]) => void;
  /** Forgets the failures not yet used, and lets go of the requests left hanging. */
  recover: () => void;
  /** How long a streamed reply thinks, after its reasoning, before it answers (a model that thinks). */
  thinkingMs?: number;
  /**
   * OpenAI's: the key's organization is one OpenAI has not verified, so a request through the
   * Responses API asking a summary of the reasoning is refused, in OpenAI's words.
   */
  unverified?: boolean;
  /** Token counts the next answers report (`written` to the cache, `hour` of them for an hour: Anthropic's alone). */
  usage: { input: number; output: number; cached: number; written: number; hour: number };
  /**
   * The models its list of models (GET …/models) names for the key, in the API's own shape and pages;
   * unset, the list is not found (a 404). Lists asked for are counted in `listings`, not kept in `seen`.
   */
  listed?: string[];
  /**
   * The day its list says a model shuts down, by id (OpenAI's `shutdown_date`, null for the others;
   * Bedrock's `endOfLifeTime`, by the foundation model's id).
   */
  shutdowns?: Record<string, string>;
  /** The most entries one page of the list holds (the APIs' own maximum is 1,000). */
  listPage?: number;
  listings: number;
  /** How long an embeddings answer waits before it is sent, so that requests made together overlap. */
  embedHoldMs?: number;
  /** The most embeddings requests it held at once. */
  mostEmbeddingAtOnce: number;
  /**
   * The variables that point the service at it, where they are not its key and base URL (Vertex AI's:
   * a key file's path and the project).
   */
  env?: Record<string, string>;
  close: () => Promise<void>;
}

interface Turn {
  /** The last user message's text. */
  text: string;
  /** Tools the request offers, by name. */
  tools: string[];
  stream: boolean;
  model: string;
  /** Token probabilities asked for (OpenAI's logprobs), with how many alternatives per token. */
  logprobs?: number;
  /** OpenAI's: the predicted output's text (`prediction`), whose words the reply keeps or not. */
  predicted?: string;
  /** The model thinks first (Anthropic's extended thinking, asked for; DeepSeek's reasoner always). */
  thinks?: boolean;
  /** Anthropic's, OpenAI's Responses and Gemini's: the web search tool is offered, so the model searches the web for the text first. */
  search?: string;
  /** Gemini 3's: its search is told of as toolCall and toolResponse parts too (includeServerSideToolInvocations). */
  serverSide?: boolean;
  /** Anthropic's: the web fetch tool is offered and the text names an address, which the model reads first. */
  fetch?: string;
  /** Anthropic's: the web fetch was asked to let the answer cite the page it read. */
  fetchCites?: boolean;
  /** Anthropic's: its tool search tool (by name) is offered, and the model searches for the deferred tool it calls. */
  toolSearch?: { name: string; tool: string };
  /**
   * Anthropic's: the model pauses its turn after the search (pause_turn, for a text that says so), to
   * go on when the client sends the turn back as it is.
   */
  pauses?: boolean;
  /** Why the provider refuses the request (400, or `refusedWith`), in its words. */
  refused?: string;
  refusedWith?: number;
  /** Asked on OpenAI's Responses API, which answers in its own items and events. */
  responses?: {
    /** A summary of the reasoning is asked for (`reasoning.summary`). */
    summary: boolean;
    /** The reasoning is to come back encrypted (`include`: reasoning.encrypted_content). */
    encrypted: boolean;
    /** A web search's pages are to come with it (`include`: web_search_call.action.sources). */
    sources: boolean;
    /** This response's number, in its items' ids (each of OpenAI's ids is its own). */
    serial: number;
    /**
     * Its tool search is offered: the deferred tools it has not loaded, by name, each as the search
     * finds it (its namespace with it, or the function).
     */
    searchable?: Map<string, Record<string, unknown>>;
    /** The namespace of each tool of one, by the tool's name. */
    namespaceOf: Map<string, string>;
  };
  /**
   * Asked to fill in the middle or continue a text (`text` is the prompt): Mistral's answer is a
   * chat's, the others' a text completion's.
   */
  fim?: { suffix: string; provider: TextProvider };
  /** Bedrock's: asked on its Anthropic Messages API (InvokeModel), answered as Anthropic answers. */
  invoked?: boolean;
}

type Reply =
  /** `filtered`: the provider's content filter stopped it there (a text that says `[filtered]`). */
  | { kind: 'text'; text: string; filtered?: true }
  /** A tool call, and (Gemini's fake) the text the model wrote before it. */
  | { kind: 'tool'; id: string; name: string; args: Record<string, unknown>; preface?: string };

/** What a fake answers: an echo, or the tool call the text asks for (`<text> | call <tool> <JSON>`: after writing). */
function replyTo(turn: Turn): Reply {
  const call = /^(?:([\s\S]+?)\s*\|\s*)?call\s+(\S+)\s*([\s\S]*)$/.exec(turn.text.trim());
  if (call && turn.tools.includes(call[2]!))
    return {
      kind: 'tool',
      id: `call_${call[2]}`,
      name: call[2]!,
      args: JSON.parse(call[3]!.trim() || '{}') as Record<string, unknown>,
      ...(call[1] ? { preface: call[1] } : {}),
    };
  if (turn.text.includes(FILTERED)) return { kind: 'text', text: FILTERED_SO_FAR, filtered: true };
  return { kind: 'text', text: `echo: ${turn.text}` };
}

/** What in a text makes the provider's content filter stop the answer, and what was answered before it stopped. */
export const FILTERED = '[filtered]';
export const FILTERED_SO_FAR = 'I can';

/** An API as a fake speaks it; its stream's events are text (server-sent events) unless said (Bedrock's binary frames). */
interface Dialect<Event extends string | Uint8Array = string> {
  /** Checks the request; returns the turn, or null when it is not one of this API's requests. */
  read: (req: SeenRequest, problems: string[]) => Turn | null;
  /** The key the request carries, where this API wants it (or the one it was signed with). */
  keyOf: (req: SeenRequest) => unknown;
  error: (status: number, message?: string) => unknown;
  whole: (turn: Turn, reply: Reply, usage: ProviderFake['usage']) => unknown;
  /** The stream's events, as written to the wire. */
  events: (turn: Turn, reply: Reply, usage: ProviderFake['usage']) => Event[];
  /** The stream's media type, where it is not server-sent events (Bedrock's binary frames). */
  streamType?: string;
  /** Checks and answers an embeddings request (200, or the provider's refusal); null when the request is not one. */
  embed?: (
    req: SeenRequest,
    problems: string[],
  ) => { status: number; body: unknown; headers?: Record<string, string> } | null;
  /**
   * A page of the list of models (`ids`, at most `page` of them); null when the request is not for
   * the list. A page the reference does not allow is a problem and a 400.
   */
  list?: (
    url: URL,
    ids: string[],
    page: number,
    problems: string[],
    shutdowns: Record<string, string>,
  ) => { status: number; body: unknown } | null;
  /** The words of the 404 for a model the provider does not serve to the key. */
  noModel?: (model: string) => string;
}

/** Whether a provider whose list is `listed` serves `model`: listed as it is, or a dated snapshot of it. */
const servedAs = (listed: string[], model: string) =>
  listed.some(
    (id) =>
      id === model || (id.startsWith(`${model}-`) && /^-\d{8}$|^-\d{4}-\d{2}-\d{2}$/.test(id.slice(model.length))),
  );

/** The `ids` after the one named (all of them when none is), at most `size` of them, and whether more follow. */
function pageOf(ids: string[], after: string | null, size: number): { items: string[]; more: boolean } {
  const start = after === null ? 0 : ids.indexOf(after) + 1;
  const items = ids.slice(start, start + size);
  return { items, more: start + size < ids.length };
}

/**
 * A page of a list paged by an opaque token (here the last id of the page before, in base64url), its
 * size asked in `names.size` (`fallback` unless said; 1 to 1,000, else a problem), at most `page`: its
 * ids, and the next page's token while more follow.
 */
function tokenPage(
  url: URL,
  ids: string[],
  page: number,
  names: { size: string; token: string; fallback: number },
  problems: string[],
): { items: string[]; next?: string } {
  const size = Number(url.searchParams.get(names.size) ?? names.fallback);
  if (!Number.isInteger(size) || size < 1 || size > 1000)
    problems.push(`${url.pathname}: ${names.size} ${size} is not a page`);
  const token = url.searchParams.get(names.token);
  const after = token === null ? null : Buffer.from(token, 'base64url').toString();
  const { items, more } = pageOf(ids, after, Math.min(size, page));
  return { items, ...(more ? { next: Buffer.from(items.at(-1)!).toString('base64url') } : {}) };
}

async function startFake(
  dialect: Dialect<string | Uint8Array>,
  versionPath: string,
  key: string,
): Promise<ProviderFake> {
  const seen: SeenRequest[] = [];
  const problems: string[] = [];
  const failures: Failure[] = [];
  const usage = { input: 11, output: 7, cached: 3, written: 0, hour: 0 };
  const hanging = new Set<ServerResponse>();
  let embedding = 0;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', async () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text || '{}') as Record<string, unknown>;
      } catch {
        problems.push(`${req.url}: the body is not JSON`);
      }
      const request: SeenRequest = { path: req.url ?? '', method: req.method, headers: req.headers, body, text };
      const listing =
        req.method === 'GET'
          ? (dialect.list?.(
              new URL(request.path, 'http://fake'),
              fake.listed ?? [],
              fake.listPage ?? 1000,
              problems,
              fake.shutdowns ?? {},
            ) ?? null)
          : null;
      if (listing) {
        fake.listings++;
        const status = !fake.listed ? 404 : (await dialect.keyOf(request)) === key ? listing.status : 401;
        const answer = status === listing.status ? listing.body : dialect.error(status);
        return void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }
      seen.push(request);
      const embedded = dialect.embed?.(request, problems) ?? null;
      const turn = embedded === null ? dialect.read(request, problems) : null;
      if (!turn && embedded === null)
        return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(dialect.error(404)));
      // Another key is refused, as the provider refuses it.
      if ((await dialect.keyOf(request)) !== key)
        return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(dialect.error(401)));
      const failure = failures.shift();
      if (failure === 'hang') return void hanging.add(res);
      if (failure === 'cut') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep-alive\n\n');
        return void setTimeout(() => res.destroy(), 20);
      }
      if (failure) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
        return void res
          .writeHead(failure.status, headers)
          .end(JSON.stringify(dialect.error(failure.status, failure.message)));
      }
      if (embedded !== null && fake.embedHoldMs) {
        embedding++;
        fake.mostEmbeddingAtOnce = Math.max(fake.mostEmbeddingAtOnce, embedding);
        await new Promise((resolve) => setTimeout(resolve, fake.embedHoldMs));
        embedding--;
      }
      if (embedded !== null)
        return void res
          .writeHead(embedded.status, { 'content-type': 'application/json', ...embedded.headers })
          .end(JSON.stringify(embedded.body));
      if (!turn) return;
      // A model its list does not name (when a test gives one) is refused, as the provider refuses it;
      // an alias of a dated snapshot listed (`claude-sonnet-4-5`, `gpt-4o`) answers.
      if (fake.listed && dialect.noModel && !servedAs(fake.listed, turn.model))
        return void res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify(dialect.error(404, dialect.noModel(turn.model))));
      if (fake.unverified && turn.responses?.summary)
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(UNVERIFIED));
      if (turn.refused)
        return void res
          .writeHead(turn.refusedWith ?? 400, { 'content-type': 'application/json' })
          .end(JSON.stringify(dialect.error(turn.refusedWith ?? 400, turn.refused)));
      const reply = replyTo(turn);
      // A whole answer comes once the model is done thinking.
      if (!turn.stream && fake.thinkingMs) await new Promise((resolve) => setTimeout(resolve, fake.thinkingMs));
      if (!turn.stream)
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(dialect.whole(turn, reply, usage)));
      res.writeHead(200, { 'content-type': dialect.streamType ?? 'text/event-stream', 'cache-control': 'no-cache' });
      void (async () => {
        for (const event of dialect.events(turn, reply, usage))
          if (event !== THOUGHT) res.write(event);
          else if (fake.thinkingMs) await new Promise((resolve) => setTimeout(resolve, fake.thinkingMs));
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: ProviderFake = {
    baseUrl: `http://127.0.0.1:${port}${versionPath}`,
    key,
    seen,
    problems,
    usage,
    listings: 0,
    mostEmbeddingAtOnce: 0,
    failNext: (...next) => failures.push(...next),
    recover: () => {
      failures.length = 0;
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

/** OpenAI's 429 for an account out of credit (its error codes guide), which waiting does not mend. */
export const OPENAI_NO_QUOTA = 'You exceeded your current quota, please check your plan and billing details.';

/** OpenAI's refusal of a reasoning summary to an organization it has not verified, as it answers it. */
const UNVERIFIED = {
  error: {
    message:
      'Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.',
    type: 'invalid_request_error',
    param: 'reasoning.summary',
    code: 'unsupported_value',
  },
};

/** Where a stream's thinking ends: the fake waits `thinkingMs` there before the answer. */
const THOUGHT = '';

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((p: { type?: string; text?: unknown }) =>
            p.type === 'text' && typeof p.text === 'string' ? p.text : '',
          )
          .join('')
      : '';

/** A list of names written with spaces, as an API reference's list is read here. */
const words = (text: string) => text.split(' ');

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

// ---------------------------------------------------------------- OpenAI Chat Completions

/** OpenAI's reasoning models: the o-series and GPT-5 but its chat models (its model list). */
const reasonsAtOpenAi = (model: unknown) => /^(o\d|gpt-5(?!-chat))/.test(String(model));

/**
 * OpenAI's API, or Azure OpenAI's v1 API (`azure`): the same wire format under /openai/v1, with the key
 * in an `api-key` header and a deployment's name as the model.
 */
const openAi = (responses: boolean, azure = false): Dialect => ({
  keyOf: (req) => (azure ? req.headers['api-key'] : /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]),
  // GET /v1/models: every model at once, no pages (Azure's models are its deployments: no such list),
  // each with its `shutdown_date` (null while none is announced: OpenAI's deprecations page).
  list: (url, ids, _page, _problems, shutdowns) =>
    !azure && url.pathname === '/v1/models'
      ? {
          status: 200,
          body: {
            object: 'list',
            data: ids.map((id) => ({
              id,
              object: 'model',
              created: 1_767_225_600,
              owned_by: 'system',
              shutdown_date: shutdowns[id] ?? null,
            })),
          },
        }
      : null,
  embed: (req, problems) =>
    req.path.startsWith(azure ? '/openai/v1/embeddings' : '/v1/embeddings')
      ? openAiEmbeddings(req.body, problems)
      : null,
  read: (req, problems) => {
    if (azure ? !req.headers['api-key'] : !/^Bearer \S+$/.test(req.headers.authorization ?? ''))
      problems.push(azure ? 'azure: api-key is missing' : 'openai: Authorization is not "Bearer <key>"');
    const root = azure ? '/openai/v1' : '/v1';
    if (req.path.startsWith(`${root}/responses`)) return responses ? readResponses(req.body, problems) : null;
    if (!req.path.startsWith(`${root}/chat/completions`)) return null;
    const b = req.body;
    // Every field of the reference is snake_case: one that is not is a stray option (`promptCacheKey`).
    for (const field of Object.keys(b)) if (/[A-Z]/.test(field)) problems.push(`openai: unknown field ${field}`);
    if (typeof b.model !== 'string' || !b.model) problems.push('openai: model is missing');
    const messages = b.messages as Array<{ role: string; content: unknown }> | undefined;
    if (!Array.isArray(messages) || messages.length === 0) problems.push('openai: messages is missing or empty');
    for (const m of messages ?? [])
      if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m.role))
        problems.push(`openai: unknown role ${m.role}`);
      else problems.push(...chatContentProblems(m));
    if (b.stream === true && (b.stream_options as { include_usage?: unknown } | undefined)?.include_usage !== true)
      problems.push('openai: a stream without stream_options.include_usage reports no usage');
    const tools =
      (b.tools as Array<{ type: string; function?: { name?: string; parameters?: unknown } }> | undefined) ?? [];
    for (const t of tools)
      if (t.type !== 'function' || !t.function?.name)
        problems.push('openai: a tool is not {type: "function", function: {name}}');
    if (b.top_logprobs !== undefined && b.logprobs !== true) problems.push('openai: top_logprobs without logprobs');
    // Only OpenAI's reasoning models (the o-series, GPT-5 but its chat models) and DeepSeek's V4 models
    // take an effort; of xAI's Grok models, Grok 3 mini and Grok 4.3 and later (Grok 4.20 reasons, but
    // refuses one: its reasoning is a model of its own).
    const model = String(b.model);
    const refused = /^deepseek-(chat|reasoner)$/.test(model)
      ? 'Model Not Exist'
      : b.reasoning_effort === undefined || model.startsWith('deepseek-v4-')
        ? undefined
        : model.startsWith('grok-')
          ? /^grok-(3-mini|4\.[3-9](?!\d))/.test(model)
            ? undefined
            : `Model ${model} does not support parameter reasoningEffort.`
          : reasonsAtOpenAi(model)
            ? undefined
            : "Unsupported parameter: 'reasoning_effort' is not supported with this model.";
    if (refused) problems.push(`openai: ${refused} (${String(b.model)})`);
    // A predicted output, by OpenAI's guide: its content as text or text parts, of GPT-4o and GPT-4.1
    // (and their mini and nano) only.
    const prediction = b.prediction as { type?: unknown; content?: unknown } | undefined;
    const predicted =
      prediction === undefined
        ? undefined
        : typeof prediction.content === 'string'
          ? prediction.content
          : Array.isArray(prediction.content)
            ? (prediction.content as Array<{ text?: unknown }>).map((p) => String(p.text)).join('')
            : undefined;
    if (prediction !== undefined && (prediction.type !== 'content' || predicted === undefined))
      problems.push('openai: prediction is not {type: "content", content}');
    const unpredictable =
      prediction !== undefined && !/^gpt-4(o|\.1)(-mini|-nano)?$/.test(model)
        ? "Unsupported parameter: 'prediction' is not supported with this model."
        : undefined;
    if (unpredictable) problems.push(`openai: ${unpredictable} (${model})`);
    const lastUser = [...(messages ?? [])].reverse().find((m) => m.role === 'user');
    return {
      ...(refused || unpredictable ? { refused: refused ?? unpredictable } : {}),
      ...(predicted !== undefined ? { predicted } : {}),
      thinks: model.startsWith('deepseek-v4-') && (b.thinking as { type?: unknown })?.type !== 'disabled',
      text: textOf(lastUser?.content),
      tools: tools.map((t) => t.function!.name!),
      stream: b.stream === true,
      model: String(b.model),
      ...(b.logprobs === true ? { logprobs: Number(b.top_logprobs ?? 0) } : {}),
    };
  },
  error: (status, refused) => ({
    error: {
      message: refused
        ? refused
        : status === 401
          ? 'Incorrect API key provided.'
          : status === 429
            ? 'Rate limit reached.'
            : status === 404
              ? 'Not Found'
              : 'The server had an error.',
      type:
        status === 401 || status === 404
          ? 'invalid_request_error'
          : refused === OPENAI_NO_QUOTA
            ? 'insufficient_quota'
            : status === 429
              ? 'rate_limit_exceeded'
              : 'server_error',
      param: refused && status !== 404 ? (/'([^']+)'/.exec(refused)?.[1] ?? null) : null,
      code:
        status === 401
          ? 'invalid_api_key'
          : refused === OPENAI_NO_QUOTA
            ? 'insufficient_quota'
            : status === 404 && refused
              ? 'model_not_found'
              : refused
                ? 'unsupported_parameter'
                : null,
    },
  }),
  noModel: (model) => `The model \`${model}\` does not exist or you do not have access to it.`,
  whole: (turn, reply, usage) => (turn.responses ? responsesWhole(turn, reply, usage) : chatWhole(turn, reply, usage)),
  events: (turn, reply, usage) =>
    turn.responses ? responsesEvents(turn, reply, usage) : chatEvents(turn, reply, usage),
});

const chatWhole = (turn: Turn, reply: Reply, usage: ProviderFake['usage']) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: turn.model,
  choices: [
    {
      index: 0,
      message:
        reply.kind === 'text'
          ? {
              role: 'assistant',
              content: reply.text,
              refusal: null,
              ...(turn.thinks ? { reasoning_content: thoughtOf(turn) } : {}),
            }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: reply.id,
                  type: 'function',
                  function: { name: reply.name, arguments: JSON.stringify(reply.args) },
                },
              ],
            },
      finish_reason: reply.kind === 'text' ? (reply.filtered ? 'content_filter' : 'stop') : 'tool_calls',
      logprobs:
        reply.kind === 'text' && turn.logprobs !== undefined
          ? { content: tokenLogprobs(reply.text.match(/.{1,6}/gs)!, turn.logprobs), refusal: null }
          : null,
    },
  ],
  usage: chatUsage(turn, usage, reply),
});

function chatEvents(turn: Turn, reply: Reply, usage: ProviderFake['usage']): string[] {
  const chunk = (delta: unknown, finish: string | null, logprobs: unknown = null) =>
    sse({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: turn.model,
      choices: [{ index: 0, delta, finish_reason: finish, ...(logprobs ? { logprobs } : {}) }],
    });
  const body =
    reply.kind === 'text'
      ? [
          chunk({ role: 'assistant', content: '' }, null),
          ...(turn.thinks
            ? [
                ...thoughtOf(turn)
                  .match(/.{1,6}/gs)!
                  .map((piece) => chunk({ reasoning_content: piece }, null)),
                THOUGHT,
              ]
            : []),
          ...reply.text
            .match(/.{1,6}/gs)!
            .map((piece) =>
              chunk(
                { content: piece },
                null,
                turn.logprobs !== undefined ? { content: tokenLogprobs([piece], turn.logprobs), refusal: null } : null,
              ),
            ),
        ]
      : [
          chunk(
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ index: 0, id: reply.id, type: 'function', function: { name: reply.name, arguments: '' } }],
            },
            null,
          ),
          chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(reply.args) } }] }, null),
        ];
  return [
    ...body,
    chunk({}, reply.kind === 'text' ? (reply.filtered ? 'content_filter' : 'stop') : 'tool_calls'),
    sse({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: turn.model,
      choices: [],
      usage: chatUsage(turn, usage, reply),
    }),
    'data: [DONE]\n\n',
  ];
}

// ---------------------------------------------------------------- OpenAI Responses
// POST {base}/responses: `input` items (messages with input_text / output_text parts, function_call,
// function_call_output, reasoning), tools named at their top level, `reasoning: {effort, summary}`,
// `max_output_tokens`; the answer is `output` items, streamed as named events ending response.completed.

/** Chat Completions' parameters that are not the Responses API's. */
const NOT_RESPONSES = [
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'stop',
  'n',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
];

/** The body fields of POST /v1/responses, as OpenAI's API reference lists them. */
const RESPONSES_FIELDS: ReadonlySet<string> = new Set(
  words(
    'background conversation include input instructions max_output_tokens max_tool_calls metadata model ' +
      'parallel_tool_calls previous_response_id prompt prompt_cache_key prompt_cache_retention reasoning ' +
      'safety_identifier service_tier store stream stream_options temperature text tool_choice tools ' +
      'top_logprobs top_p truncation user',
  ),
);

let responses = 0;

/** The reasoning OpenAI encrypts for a stateless conversation; the fake reads back only its own. */
const encrypt = (thought: string) => `enc-${Buffer.from(thought).toString('base64url')}`;

function readResponses(b: Record<string, unknown>, problems: string[]): Turn {
  if (typeof b.model !== 'string' || !b.model) problems.push('openai responses: model is missing');
  for (const name of NOT_RESPONSES)
    if (b[name] !== undefined) problems.push(`openai responses: ${name} is not a Responses parameter`);
  for (const name of Object.keys(b))
    if (!RESPONSES_FIELDS.has(name) && !NOT_RESPONSES.includes(name))
      problems.push(`openai responses: ${name} is not a field of the API`);
  const input = typeof b.input === 'string' ? [{ role: 'user', content: b.input }] : b.input;
  if (!Array.isArray(input) || input.length === 0) problems.push('openai responses: input is missing or empty');
  const items = (Array.isArray(input) ? input : []) as Array<Record<string, unknown>>;
  const calls = new Set<unknown>();
  /** The tools the searches sent back loaded. */
  const sentBack: Array<Record<string, unknown>> = [];
  let lastUser = '';
  for (const [i, item] of items.entries()) {
    const type = item.type ?? 'message';
    if (type === 'message') {
      if (!['user', 'assistant', 'system', 'developer'].includes(String(item.role)))
        problems.push(`openai responses: unknown role ${String(item.role)}`);
      // Text alone is a message's one part (an easy input message, of any role).
      const parts =
        typeof item.content === 'string'
          ? [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }]
          : item.content;
      if (!Array.isArray(parts)) problems.push('openai responses: a message has no content');
      const allowed =
        item.role === 'assistant' ? ['output_text', 'refusal'] : ['input_text', 'input_image', 'input_file'];
      for (const part of (Array.isArray(parts) ? parts : []) as Array<{ type?: string; text?: unknown }>)
        if (!allowed.includes(String(part.type)))
          problems.push(`openai responses: a ${String(item.role)} message has a ${String(part.type)} part`);
      if (item.role === 'user')
        lastUser = ((Array.isArray(parts) ? parts : []) as Array<{ type?: string; text?: unknown }>)
          .map((p) => (p.type === 'input_text' && typeof p.text === 'string' ? p.text : ''))
          .join('');
    } else if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string')
        problems.push('openai responses: a function_call lacks call_id, name or its arguments as a string');
      calls.add(item.call_id);
    } else if (type === 'function_call_output') {
      if (!calls.has(item.call_id)) problems.push('openai responses: a function_call_output answers no function_call');
      if (typeof item.output !== 'string' && !Array.isArray(item.output))
        problems.push('openai responses: a function_call_output has no output');
      // The model answers from the tool's output, once it has it.
      else lastUser = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
    } else if (type === 'reasoning') {
      if (!Array.isArray(item.summary)) problems.push('openai responses: a reasoning item has no summary list');
      // Without a stored response, the reasoning is only what its encrypted content says.
      const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : '';
      if (b.store === false && !encrypted.startsWith('enc-'))
        problems.push('openai responses: a reasoning item with store false lacks the encrypted content it was given');
      else if (encrypted && !/^rs_\d+(_2)?$/.test(String(item.id)))
        problems.push(`openai responses: reasoning item ${String(item.id)} was not given by this server`);
      // OpenAI: "Item rs_… of type reasoning was provided without its required following item".
      const next = items[i + 1];
      if (
        next?.type !== 'function_call' &&
        next?.type !== 'web_search_call' &&
        next?.type !== 'tool_search_call' &&
        !(next?.role === 'assistant' && (next.type ?? 'message') === 'message')
      )
        problems.push(
          `openai responses: reasoning item ${String(item.id)} was provided without its required following item`,
        );
    } else if (type === 'web_search_call') {
      const action = item.action as { type?: string; query?: unknown } | undefined;
      if (!/^ws_\d+$/.test(String(item.id)))
        problems.push(`openai responses: web_search_call ${String(item.id)} was not given by this server`);
      if (item.status !== 'completed' || action?.type !== 'search' || typeof action.query !== 'string')
        problems.push(
          `openai responses: web_search_call ${String(item.id)} is not as it was given: ${JSON.stringify(item)}`,
        );
    } else if (type === 'tool_search_call' || type === 'tool_search_output') {
      const prefix = type === 'tool_search_call' ? 'tsc' : 'tso';
      if (!new RegExp(`^${prefix}_\\d+$`).test(String(item.id)))
        problems.push(`openai responses: ${type} ${String(item.id)} was not given by this server`);
      if (item.execution !== 'server' || item.call_id !== null || item.status !== 'completed')
        problems.push(`openai responses: ${type} ${String(item.id)} is not as it was given: ${JSON.stringify(item)}`);
      if (type === 'tool_search_output') sentBack.push(...((item.tools as Array<Record<string, unknown>>) ?? []));
    } else if (type === 'item_reference' && b.store === false)
      problems.push('openai responses: an item_reference with store false (nothing was kept to refer to)');
    else if (type !== 'item_reference') problems.push(`openai responses: unknown input item ${String(type)}`);
  }
  const tools = (b.tools as ResponsesTool[] | undefined) ?? [];
  const search = tools.find((t) => t.type === 'web_search' || t.type === 'web_search_preview');
  const toolSearch = tools.find((t) => t.type === 'tool_search');
  const isFunction = (t: ResponsesTool) => t.type === 'function' && !!t.name && t.function === undefined;
  for (const t of tools)
    if (
      t !== search &&
      t !== toolSearch &&
      !isFunction(t) &&
      !(t.type === 'namespace' && t.name && Array.isArray(t.tools) && t.tools.every(isFunction))
    )
      problems.push(
        'openai responses: a tool is not {type: "function", name, parameters}, a namespace of them nor a search',
      );
  const { callable, searchable, namespaceOf } = toolsOfResponses(tools, sentBack, problems);
  for (const item of items)
    if (
      item.type === 'function_call' &&
      item.namespace !== undefined &&
      namespaceOf.get(String(item.name)) !== item.namespace
    )
      problems.push(
        `openai responses: function_call ${String(item.name)} names no tool of namespace ${String(item.namespace)}`,
      );
  if (toolSearch && !/^gpt-(5\.([4-9]|\d\d)|[6-9])/.test(String(b.model)))
    problems.push(`openai responses: tool_search is not supported with ${String(b.model)}`);
  if (!toolSearch && searchable.size)
    problems.push('openai responses: tools are deferred (defer_loading) without tool_search to load them');
  const reasoning = b.reasoning as { effort?: string; summary?: string } | undefined;
  const reasons = reasonsAtOpenAi(b.model);
  const refused =
    reasoning?.effort !== undefined && !reasons
      ? "Unsupported parameter: 'reasoning.effort' is not supported with this model."
      : reasons && b.temperature !== undefined && reasoning?.effort !== 'none'
        ? "Unsupported parameter: 'temperature' is not supported with this model."
        : undefined;
  if (refused) problems.push(`openai responses: ${refused} (${String(b.model)})`);
  const include = Array.isArray(b.include) ? b.include : [];
  if (search && !reasons) problems.push(`openai responses: web search is not supported with ${String(b.model)}`);
  return {
    ...(refused ? { refused } : {}),
    ...(search ? { search: lastUser } : {}),
    thinks: reasons && reasoning?.effort !== 'none',
    text: lastUser,
    tools: [...callable, ...(toolSearch ? searchable.keys() : [])],
    stream: b.stream === true,
    model: String(b.model),
    responses: {
      summary: reasoning?.summary !== undefined,
      encrypted: include.includes('reasoning.encrypted_content'),
      sources: include.includes('web_search_call.action.sources'),
      serial: ++responses,
      ...(toolSearch ? { searchable } : {}),
      namespaceOf,
    },
  };
}

/** A tool of a Responses request, as its reference lists them: a function, a namespace of them, a hosted tool. */
interface ResponsesTool {
  type?: string;
  name?: string;
  description?: string;
  function?: unknown;
  defer_loading?: boolean;
  tools?: ResponsesTool[];
}

/**
 * The tools a Responses request gives the model: those it may call (not deferred, or loaded by a search
 * sent back), those its tool search may find (deferred, not loaded yet: each as the search gives it,
 * in its namespace), and the namespace of each tool of one. A search sent back must have loaded
 * deferred tools of the request.
 */
function toolsOfResponses(tools: ResponsesTool[], sentBack: Array<Record<string, unknown>>, problems: string[]) {
  const loaded = new Set(
    sentBack.flatMap((t) =>
      t.type === 'namespace' ? ((t.tools as ResponsesTool[]) ?? []).map((f) => f.name) : [t.name],
    ),
  );
  const callable: string[] = [];
  const searchable = new Map<string, Record<string, unknown>>();
  const namespaceOf = new Map<string, string>();
  const deferred = new Set<unknown>();
  for (const t of tools) {
    const inner = t.type === 'namespace' ? (t.tools ?? []) : t.type === 'function' ? [t] : [];
    for (const f of inner) {
      if (t.type === 'namespace') namespaceOf.set(f.name!, t.name!);
      if (!f.defer_loading || loaded.has(f.name)) callable.push(f.name!);
      else
        searchable.set(
          f.name!,
          t.type === 'namespace'
            ? { type: 'namespace', name: t.name, description: t.description, tools: [f] }
            : { ...f },
        );
      if (f.defer_loading) deferred.add(f.name);
    }
  }
  for (const name of loaded)
    if (!deferred.has(name))
      problems.push(`openai responses: a tool_search_output loads ${String(name)}, which no tool defers`);
  return { callable, searchable, namespaceOf };
}

/**
 * The tool search a model runs for the deferred tool it calls (`found`): its call and what it found, as
 * OpenAI's items; none without one.
 */
const toolSearchItems = (turn: Turn, found: Record<string, unknown> | undefined) => {
  if (!found) return [];
  const ran = { execution: 'server', call_id: null, status: 'completed' };
  return [
    { id: `tsc_${turn.responses!.serial}`, type: 'tool_search_call', ...ran, arguments: { paths: [found.name] } },
    { id: `tso_${turn.responses!.serial}`, type: 'tool_search_output', ...ran, tools: [found] },
  ];
};

/** The deferred tool the reply calls, as the model's search finds it (none: no search first). */
const searchedFor = (turn: Turn, reply: Reply) =>
  reply.kind === 'tool' ? turn.responses!.searchable?.get(reply.name) : undefined;

/**
 * What an answer after a web search cites, as OpenAI annotates its text: the first page, for all but its
 * first six characters.
 */
const annotationsOf = (turn: Turn, text: string) =>
  turn.search === undefined
    ? []
    : [
        {
          type: 'url_citation',
          start_index: 6,
          end_index: text.length,
          url: `https://example.com/1?q=${encodeURIComponent(turn.search)}`,
          title: `Page 1 on ${turn.search}`,
        },
      ];

/** The web search a reasoning model runs for the text, as OpenAI's item has it (its pages when included). */
const webSearchItem = (turn: Turn) => ({
  id: `ws_${turn.responses!.serial}`,
  type: 'web_search_call',
  status: 'completed',
  action: {
    type: 'search',
    query: turn.search,
    ...(turn.responses!.sources
      ? {
          sources: [1, 2].map((n) => ({
            type: 'url',
            url: `https://example.com/${n}?q=${encodeURIComponent(turn.search ?? '')}`,
          })),
        }
      : {}),
  },
});

/**
 * The reasoning item a reasoning model writes first, and again after it searched: its summary when asked,
 * its encrypted self when asked.
 */
const reasoningItem = (turn: Turn, afterSearch = false) => {
  const thought = afterSearch ? `Reading what it found on: ${turn.search}` : thoughtOf(turn);
  return {
    id: `rs_${turn.responses!.serial}${afterSearch ? '_2' : ''}`,
    type: 'reasoning',
    summary: turn.responses!.summary ? [{ type: 'summary_text', text: thought }] : [],
    ...(turn.responses!.encrypted ? { encrypted_content: encrypt(thought) } : {}),
  };
};

const answerItem = (turn: Turn, reply: Reply) =>
  reply.kind === 'text'
    ? {
        id: `msg_${turn.responses!.serial}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: reply.text, annotations: annotationsOf(turn, reply.text) }],
      }
    : {
        id: `fc_${turn.responses!.serial}`,
        type: 'function_call',
        status: 'completed',
        call_id: reply.id,
        name: reply.name,
        ...(turn.responses!.namespaceOf.has(reply.name)
          ? { namespace: turn.responses!.namespaceOf.get(reply.name) }
          : {}),
        arguments: JSON.stringify(reply.args),
      };

/**
 * A response, with its usage once it is done. A filtered reply (its content filter stopped it) is
 * `incomplete`, with the reason `content_filter`, as OpenAI's Responses API marks it.
 */
const responseOf = (
  turn: Turn,
  status: string,
  output: unknown[],
  usage?: ProviderFake['usage'],
  filtered = false,
) => ({
  id: `resp_${turn.responses!.serial}`,
  object: 'response',
  created_at: Math.floor(Date.now() / 1000),
  status: filtered ? 'incomplete' : status,
  model: turn.model,
  output,
  incomplete_details: filtered ? { reason: 'content_filter' } : null,
  usage: usage
    ? {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: usage.cached },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: turn.thinks ? Math.min(2, usage.output) : 0 },
        total_tokens: usage.input + usage.output,
      }
    : null,
});

const responsesWhole = (turn: Turn, reply: Reply, usage: ProviderFake['usage']) =>
  responseOf(
    turn,
    'completed',
    [
      ...(turn.thinks ? [reasoningItem(turn)] : []),
      ...(turn.search !== undefined ? [webSearchItem(turn), ...(turn.thinks ? [reasoningItem(turn, true)] : [])] : []),
      ...toolSearchItems(turn, searchedFor(turn, reply)),
      answerItem(turn, reply),
    ],
    usage,
    reply.kind === 'text' && reply.filtered,
  );

function responsesEvents(turn: Turn, reply: Reply, usage: ProviderFake['usage']): string[] {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...fields }, type);
  const out: string[] = [
    event('response.created', { response: responseOf(turn, 'in_progress', []) }),
    event('response.in_progress', { response: responseOf(turn, 'in_progress', []) }),
  ];
  const output: unknown[] = [];
  const reason = (afterSearch: boolean) => {
    const item = reasoningItem(turn, afterSearch);
    const index = output.length;
    const at = { item_id: item.id, output_index: index, summary_index: 0 };
    // The item is announced as the model begins to reason, long before anything else comes.
    out.push(event('response.output_item.added', { output_index: index, item: { ...item, summary: [] } }));
    if (!afterSearch) out.push(THOUGHT);
    const text = item.summary[0]?.text;
    if (text !== undefined) {
      out.push(event('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } }));
      for (const delta of text.match(/.{1,6}/gs)!)
        out.push(event('response.reasoning_summary_text.delta', { ...at, delta }));
      out.push(event('response.reasoning_summary_text.done', { ...at, text }));
      out.push(event('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } }));
    }
    out.push(event('response.output_item.done', { output_index: index, item }));
    output.push(item);
  };
  if (turn.thinks) reason(false);
  if (turn.search !== undefined) {
    // As OpenAI streams a web search: its item, in progress, searching, completed, then the item whole.
    const item = webSearchItem(turn);
    const at = { output_index: output.length, item_id: item.id };
    out.push(
      event('response.output_item.added', {
        output_index: at.output_index,
        item: { id: item.id, type: item.type, status: 'in_progress' },
      }),
      event('response.web_search_call.in_progress', at),
      event('response.web_search_call.searching', at),
      event('response.web_search_call.completed', at),
      event('response.output_item.done', { output_index: at.output_index, item }),
    );
    output.push(item);
    if (turn.thinks) reason(true);
  }
  // As OpenAI streams a tool search it ran: each item added, then done.
  for (const item of toolSearchItems(turn, searchedFor(turn, reply))) {
    const index = output.length;
    out.push(
      event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } }),
      event('response.output_item.done', { output_index: index, item }),
    );
    output.push(item);
  }
  const item = answerItem(turn, reply);
  const index = output.length;
  if (reply.kind === 'text') {
    const at = { item_id: item.id, output_index: index, content_index: 0 };
    out.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      }),
      event('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } }),
      ...reply.text
        .match(/.{1,6}/gs)!
        .map((delta) => event('response.output_text.delta', { ...at, delta, logprobs: [] })),
      ...annotationsOf(turn, reply.text).map((annotation, i) =>
        event('response.output_text.annotation.added', { ...at, annotation_index: i, annotation }),
      ),
      event('response.output_text.done', { ...at, text: reply.text, logprobs: [] }),
      event('response.content_part.done', {
        ...at,
        part: { type: 'output_text', text: reply.text, annotations: annotationsOf(turn, reply.text) },
      }),
    );
  } else {
    const args = JSON.stringify(reply.args);
    const at = { item_id: item.id, output_index: index };
    out.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      }),
      event('response.function_call_arguments.delta', { ...at, delta: args }),
      event('response.function_call_arguments.done', { ...at, arguments: args }),
    );
  }
  out.push(event('response.output_item.done', { output_index: index, item }));
  output.push(item);
  const filtered = reply.kind === 'text' && reply.filtered === true;
  out.push(
    event(filtered ? 'response.incomplete' : 'response.completed', {
      response: responseOf(turn, 'completed', output, usage, filtered),
    }),
  );
  return out;
}

/** Token probabilities as OpenAI writes them: each token with its log probability, bytes and alternatives. */
const tokenLogprobs = (tokens: string[], top: number) =>
  tokens.map((token, i) => ({
    token,
    logprob: -0.01 * (i + 1),
    bytes: [...Buffer.from(token)],
    top_logprobs: Array.from({ length: top }, (_, k) => ({
      token: k === 0 ? token : `${token}~${k}`,
      logprob: -0.01 * (i + 1) - k,
      bytes: null,
    })),
  }));

/** Anthropic's split of the cache writes by how long they are kept. */
const anthropicWrites = (u: ProviderFake['usage']) => ({
  ephemeral_5m_input_tokens: u.written - u.hour,
  ephemeral_1h_input_tokens: u.hour,
});

/**
 * OpenAI's usage: of the output, the tokens of its reasoning (2 when the model thinks here), and of a
 * predicted output the words the reply has (accepted) and those it has not (rejected).
 */
const openAiUsage = (u: ProviderFake['usage'], turn: Turn, reply: Reply) => {
  const said = new Set(reply.kind === 'text' ? reply.text.split(/\s+/) : []);
  const predicted = turn.predicted?.split(/\s+/).filter(Boolean) ?? [];
  const accepted = predicted.filter((w) => said.has(w)).length;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: turn.thinks ? Math.min(2, u.output) : 0,
      audio_tokens: 0,
      accepted_prediction_tokens: accepted,
      rejected_prediction_tokens: predicted.length - accepted,
    },
  };
};

/** A chat's usage: DeepSeek says what it read from its cache in words of its own. */
const chatUsage = (turn: Turn, u: ProviderFake['usage'], reply: Reply) =>
  turn.model.startsWith('deepseek-') ? deepSeekUsage(u, turn) : openAiUsage(u, turn, reply);

/**
 * OpenAI's Embeddings API, by its reference: `input` a text or a list of them (or of token ids), the
 * model's vectors (1,536 numbers; 3,072 for text-embedding-3-large) or `dimensions` of them (only
 * text-embedding-3 models take it), as numbers or, with `encoding_format: base64`, as little-endian
 * float32s. A vector is made from the text's hash, so one text always gets the same.
 */
function openAiEmbeddings(b: Record<string, unknown>, problems: string[]): { status: number; body: unknown } {
  const model = String(b.model ?? '');
  if (!model) problems.push('openai embeddings: model is missing');
  const input = typeof b.input === 'string' ? [b.input] : b.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((t) => typeof t === 'string'))
    problems.push('openai embeddings: input is not a text or a list of texts');
  if (b.encoding_format !== undefined && b.encoding_format !== 'float' && b.encoding_format !== 'base64')
    problems.push(`openai embeddings: unknown encoding_format ${String(b.encoding_format)}`);
  if (b.dimensions !== undefined && !/^text-embedding-3/.test(model))
    return {
      status: 400,
      body: {
        error: {
          message: 'This model does not support specifying dimensions.',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    };
  const size = typeof b.dimensions === 'number' ? b.dimensions : /3-large/.test(model) ? 3072 : 1536;
  const texts = (Array.isArray(input) ? input : []).map(String);
  const vectorOf = (text: string) => fakeVector(text, size);
  const tokens = texts.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
  return {
    status: 200,
    body: {
      object: 'list',
      data: texts.map((text, index) => ({
        object: 'embedding',
        index,
        embedding:
          b.encoding_format === 'base64'
            ? Buffer.from(new Float32Array(vectorOf(text)).buffer).toString('base64')
            : vectorOf(text),
      })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

/** The fakes' vector for a text (OpenAI's, of `size` numbers), for a test to compare what it got. */
export const fakeVector = (text: string, size = 1536): number[] => {
  const hash = createHash('sha256').update(text).digest();
  return Array.from({ length: size }, (_, i) => (hash[i % hash.length]! - 128) / 128);
};

/**
 * The variables that point the service at fakes, as a user's would at the providers: each provider's
 * key and base URL under the first names its own SDK reads (providerNames.ts).
 */
export function fakeEnv(fakes: Record<string, ProviderFake>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fakes).flatMap(([id, fake]) => {
      const name = providerName(id);
      if (!name) throw new Error(`no provider ${id}`);
      if (fake.env) return Object.entries(fake.env);
      return [
        [name.keyVars[0]!, fake.key],
        [name.baseUrlVar, fake.baseUrl],
      ];
    }),
  );
}

/** OpenAI's fake; `responses: false` plays a proxy that speaks only Chat Completions (404 for the rest). */
export const startOpenAiFake = (key = 'sk-fake-openai-0123456789abcdef', { responses = true } = {}) =>
  startFake(openAi(responses), '/v1', key);

/**
 * Together's API: OpenAI's Chat Completions, its text completion, and its list of models as a bare
 * array of OpenAI's entries.
 */
export const startTogetherFake = (key = 'tgp_v1_fake-together-0123456789abcdef') => {
  const chat = withFim('together');
  const list: Dialect['list'] = (url, ids, page, problems, shutdowns) => {
    const answer = chat.list!(url, ids, page, problems, shutdowns);
    return answer && { ...answer, body: (answer.body as { data: unknown[] }).data };
  };
  return startFake({ ...chat, list }, '/v1', key);
};

/**
 * Azure OpenAI's fake, at the base URL a resource's v1 API has (`…/openai/v1`; for a host of Azure's own
 * the AI SDK adds the `/v1` and `api-version=v1` itself).
 */
export const startAzureFake = (key = 'azure-fake-key-0123456789abcdef', deployments?: Deployments) =>
  startFake(azureOpenAi(deployments), '/openai/v1', key);

/** A resource's deployments by name, or by name with the model each runs (where its name is not the model's). */
type Deployments = readonly string[] | Readonly<Record<string, string>>;

/** Azure's word for a model no deployment of the resource is named as. */
export const NO_DEPLOYMENT =
  'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.';

/**
 * Azure OpenAI's v1 API; with `deployments`, a model no deployment is named as is answered 404, as Azure
 * does, and a deployment answers as the model it runs (which is what OpenAI's checks are of).
 */
function azureOpenAi(deployments?: Deployments): Dialect {
  const dialect = openAi(true, true);
  const names = deployments && (Array.isArray(deployments) ? deployments : Object.keys(deployments));
  const runs = (name: unknown) =>
    deployments && !Array.isArray(deployments) ? (deployments as Record<string, string>)[String(name)] : undefined;
  return {
    ...dialect,
    read: (req, problems) => {
      const model = runs(req.body.model);
      const turn = dialect.read(model ? { ...req, body: { ...req.body, model } } : req, problems);
      return turn && names && !names.includes(String(req.body.model))
        ? { ...turn, refused: NO_DEPLOYMENT, refusedWith: 404 }
        : turn;
    },
    error: (status, refused) =>
      refused === NO_DEPLOYMENT
        ? { error: { code: 'DeploymentNotFound', message: refused } }
        : dialect.error(status, refused),
  };
}

// ---------------------------------------------------------------- Fill in the middle
// Mistral's POST /v1/fim/completions (Codestral): `prompt` and `suffix`, a seed as `random_seed`, no
// penalties and no stream_options; the answer is a chat completion's (`message`; streamed, `delta`
// chunks, the last with the usage). DeepSeek's beta POST /beta/completions: OpenAI's legacy text
// completion with `suffix`, for its V4 models, max_tokens at most 4096; the answer is `text` (streamed,
// the usage in a last chunk when stream_options.include_usage asks). The fill is
// `<between "prompt" and "suffix">`. Together's, Fireworks' and OpenRouter's POST /v1/completions:
// OpenAI's legacy text completion of any model, without a suffix; the answer is `text`, streamed with
// the usage in the last chunk unasked, and is `<after "prompt">`. The rest of each API is OpenAI's Chat
// Completions (the fake above).

type TextProvider = 'mistral' | 'deepseek' | 'together' | 'fireworks' | 'openrouter';

/** The providers whose text completion continues a prompt of any model, without a suffix. */
const CONTINUES: ReadonlySet<TextProvider> = new Set(['together', 'fireworks', 'openrouter']);

/** The body fields each API's reference lists. */
const FIM_FIELDS: Record<TextProvider, string[]> = {
  mistral: [
    'model',
    'prompt',
    'suffix',
    'temperature',
    'top_p',
    'max_tokens',
    'stream',
    'stop',
    'random_seed',
    'metadata',
    'min_tokens',
    'prompt_cache_key',
  ],
  deepseek: [
    'model',
    'prompt',
    'suffix',
    'echo',
    'frequency_penalty',
    'presence_penalty',
    'logprobs',
    'max_tokens',
    'stop',
    'stream',
    'stream_options',
    'temperature',
    'top_p',
  ],
  together: words(
    'model prompt max_tokens stop temperature top_p top_k repetition_penalty stream ' +
      'logprobs echo n safety_model min_p presence_penalty frequency_penalty logit_bias seed',
  ),
  fireworks: words(
    'model prompt max_tokens temperature top_p top_k min_p frequency_penalty ' +
      'presence_penalty repetition_penalty stop stream n logprobs echo seed user',
  ),
  openrouter: words(
    'model prompt max_tokens temperature top_p top_k stop stream seed ' +
      'frequency_penalty presence_penalty repetition_penalty min_p logit_bias logprobs provider models transforms',
  ),
};

export const fimFill = (prompt: string, suffix: string) =>
  `<between ${JSON.stringify(prompt)} and ${JSON.stringify(suffix)}>`;

/** What a provider's text completion writes after a prompt it continues as it is. */
export const continuation = (prompt: string) => `<after ${JSON.stringify(prompt)}>`;

/**
 * OpenAI's chat chunks as Mistral streams them (its API reference): every chunk has its one choice,
 * and the usage comes with the last one (the one that finishes), not in a chunk of no choices after it.
 */
function mistralChunks(events: string[]): string[] {
  const data = (event: string) => JSON.parse(event.slice('data: '.length)) as Record<string, unknown>;
  const usageAt = events.findIndex((e) => e.startsWith('data: {') && (data(e).choices as unknown[]).length === 0);
  if (usageAt < 1) return events;
  const finishing = data(events[usageAt - 1]!);
  return [
    ...events.slice(0, usageAt - 1),
    sse({ ...finishing, usage: data(events[usageAt]!).usage }),
    ...events.slice(usageAt + 1),
  ];
}

function withFim(provider: TextProvider): Dialect {
  const chat = openAi(false);
  const path =
    provider === 'mistral' ? '/v1/fim/completions' : provider === 'deepseek' ? '/beta/completions' : '/v1/completions';
  return {
    ...chat,
    read: (req, problems) => {
      if (!req.path.startsWith(path)) {
        // Mistral's chat streams its usage with its last choice, unasked (it has no stream_options).
        const own: string[] = [];
        const turn = chat.read(req, own);
        problems.push(...own.filter((p) => provider !== 'mistral' || !p.includes('stream_options.include_usage')));
        return turn;
      }
      const b = req.body;
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? ''))
        problems.push(`${provider}: Authorization is not "Bearer <key>"`);
      for (const name of Object.keys(b))
        if (!FIM_FIELDS[provider].includes(name)) problems.push(`${provider} fim: ${name} is not a parameter`);
      const model = String(b.model);
      if (
        !CONTINUES.has(provider) &&
        (provider === 'mistral' ? !/^codestral/.test(model) : !/^deepseek-v4-(flash|pro)$/.test(model))
      )
        problems.push(`${provider} fim: ${model} does not fill in the middle`);
      if (typeof b.prompt !== 'string') problems.push(`${provider} fim: prompt is not a text`);
      if (b.suffix !== undefined && typeof b.suffix !== 'string')
        problems.push(`${provider} fim: suffix is not a text`);
      if (provider === 'deepseek' && typeof b.max_tokens === 'number' && b.max_tokens > 4096)
        problems.push('deepseek fim: max_tokens is over 4096');
      if (
        provider === 'deepseek' &&
        b.stream === true &&
        (b.stream_options as { include_usage?: unknown })?.include_usage !== true
      )
        problems.push('deepseek fim: a stream without stream_options.include_usage reports no usage');
      return {
        text: String(b.prompt),
        tools: [],
        stream: b.stream === true,
        model,
        fim: { suffix: typeof b.suffix === 'string' ? b.suffix : '', provider },
      };
    },
    whole: (turn, reply, usage) => (turn.fim ? fimWhole(turn, turn.fim, usage) : chat.whole(turn, reply, usage)),
    events: (turn, reply, usage) =>
      turn.fim
        ? fimEvents(turn, turn.fim, usage)
        : provider === 'mistral'
          ? mistralChunks(chat.events(turn, reply, usage))
          : chat.events(turn, reply, usage),
  };
}

const deepSeekUsage = (u: ProviderFake['usage'], turn?: Turn) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output,
  total_tokens: u.input + u.output,
  prompt_cache_hit_tokens: u.cached,
  prompt_cache_miss_tokens: u.input - u.cached,
  ...(turn?.thinks ? { completion_tokens_details: { reasoning_tokens: Math.min(2, u.output) } } : {}),
});

/** Mistral's usage: the counts only, no cache details. */
const mistralUsage = (u: ProviderFake['usage']) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output,
  total_tokens: u.input + u.output,
});

/** What the fake writes: the fill of the middle, or the prompt's continuation. */
const textAnswer = (turn: Turn, fim: NonNullable<Turn['fim']>) =>
  CONTINUES.has(fim.provider) ? continuation(turn.text) : fimFill(turn.text, fim.suffix);

function fimWhole(turn: Turn, fim: NonNullable<Turn['fim']>, usage: ProviderFake['usage']) {
  const text = textAnswer(turn, fim);
  const created = Math.floor(Date.now() / 1000);
  return fim.provider === 'mistral'
    ? {
        id: 'cmpl-fake',
        object: 'chat.completion',
        model: turn.model,
        created,
        usage: mistralUsage(usage),
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, tool_calls: null, prefix: false },
            finish_reason: 'stop',
          },
        ],
      }
    : {
        id: 'cmpl-fake',
        object: 'text_completion',
        created,
        model: turn.model,
        system_fingerprint: 'fp_fake',
        choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }],
        usage: CONTINUES.has(fim.provider) ? mistralUsage(usage) : deepSeekUsage(usage),
      };
}

function fimEvents(turn: Turn, fim: NonNullable<Turn['fim']>, usage: ProviderFake['usage']): string[] {
  const created = Math.floor(Date.now() / 1000);
  const pieces = textAnswer(turn, fim).match(/.{1,6}/gs)!;
  if (fim.provider === 'mistral') {
    const chunk = (delta: unknown, finish: string | null, more: object = {}) =>
      sse({
        id: 'cmpl-fake',
        object: 'chat.completion.chunk',
        created,
        model: turn.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...more,
      });
    return [
      chunk({ role: 'assistant', content: '' }, null),
      ...pieces.map((piece) => chunk({ content: piece }, null)),
      chunk({ content: '' }, 'stop', { usage: mistralUsage(usage) }),
      'data: [DONE]\n\n',
    ];
  }
  const chunk = (text: string, finish: string | null, more: object = {}) =>
    sse({
      id: 'cmpl-fake',
      object: 'text_completion',
      created,
      model: turn.model,
      choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
      ...more,
    });
  // Together, Fireworks and OpenRouter: the usage with the last chunk, unasked.
  if (CONTINUES.has(fim.provider))
    return [
      ...pieces.map((piece) => chunk(piece, null)),
      chunk('', 'stop', { usage: mistralUsage(usage) }),
      'data: [DONE]\n\n',
    ];
  return [
    ...pieces.map((piece) => chunk(piece, null)),
    chunk('', 'stop'),
    sse({
      id: 'cmpl-fake',
      object: 'text_completion',
      created,
      model: turn.model,
      choices: [],
      usage: deepSeekUsage(usage),
    }),
    'data: [DONE]\n\n',
  ];
}

/** Mistral's fake: its Chat Completions (OpenAI's shape) and Codestral's fill in the middle. */
export const startMistralFake = (key = 'sk-fake-mistral-0123456789abcdef') => startFake(withFim('mistral'), '/v1', key);

/** DeepSeek's fake: its Chat Completions (OpenAI's shape) and its beta fill in the middle. */
export const startDeepSeekFake = (key = 'sk-fake-deepseek-0123456789abcdef') =>
  startFake(withFim('deepseek'), '/v1', key);

/** Fireworks' fake: its Chat Completions (OpenAI's shape) and its text completion. */
export const startFireworksFake = (key = 'fw_fake-fireworks-0123456789abcdef') =>
  startFake(withFim('fireworks'), '/v1', key);

/** OpenRouter's fake: its Chat Completions (OpenAI's shape) and its text completion. */
export const startOpenRouterFake = (key = 'sk-or-v1-fake-openrouter-0123456789abcdef') =>
  startFake(withFim('openrouter'), '/v1', key);

// ---------------------------------------------------------------- Anthropic Messages

/**
 * What OpenAI's chat reference refuses in a message's content: a tool message's is text (a string or
 * text parts only), and an image part is {image_url: {url, detail?}} with a detail of auto, low or high.
 */
function chatContentProblems(m: { role: string; content: unknown }): string[] {
  if (!Array.isArray(m.content)) return [];
  const parts = m.content as Array<{ type?: string; image_url?: { url?: unknown; detail?: unknown } }>;
  if (m.role === 'tool')
    return parts.some((p) => p.type !== 'text') ? ['openai: a tool message has a part that is not text'] : [];
  return parts.flatMap((p) =>
    p.type === 'image_url' &&
    (typeof p.image_url?.url !== 'string' ||
      (p.image_url.detail !== undefined && !['auto', 'low', 'high'].includes(String(p.image_url.detail))))
      ? [`openai: an image part is not {image_url: {url, detail?}}: ${JSON.stringify(p).slice(0, 200)}`]
      : p.type === 'file' &&
          !/^data:application\/pdf;base64,/.test(String((p as { file?: { file_data?: unknown } }).file?.file_data))
        ? [`openai: a file part is not {file: {file_data: a PDF's data URL}}: ${JSON.stringify(p).slice(0, 200)}`]
        : [],
  );
}

/**
 * What Anthropic's reference refuses in a message's images and documents, in its content or a
 * tool_result's: an image's source is base64 with an image's media type, or a URL; a document's is a
 * PDF in base64, plain text, or a URL. A tool_result holds text, images, documents, search results or
 * the tools a tool search found.
 */
function readBlockProblems(messages: Array<{ role: string; content: unknown }>): string[] {
  const problems: string[] = [];
  type Inner = { type?: string; content?: unknown; source?: Record<string, unknown> };
  const sourceProblem = (b: Inner) => {
    const source = b.source;
    const fine =
      b.type === 'image'
        ? source?.type === 'base64'
          ? typeof source.data === 'string' && /^image\//.test(String(source.media_type))
          : source?.type === 'url' && typeof source.url === 'string'
        : b.type === 'document'
          ? (source?.type === 'base64' && source.media_type === 'application/pdf') ||
            (source?.type === 'text' && source.media_type === 'text/plain') ||
            source?.type === 'url'
          : true;
    if (!fine) problems.push(`anthropic: a ${b.type} without a source it takes: ${JSON.stringify(b).slice(0, 200)}`);
  };
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as Inner[]) {
      sourceProblem(block);
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const inner of block.content as Inner[]) {
        if (!['text', 'image', 'document', 'search_result', 'tool_reference'].includes(String(inner.type)))
          problems.push(`anthropic: a tool_result holds a ${String(inner.type)} block`);
        sourceProblem(inner);
      }
    }
  }
  return problems;
}

/**
 * Anthropic's tools the client runs, by type, with the name each must have (its tool reference: the
 * bash tool, the text editor, the memory tool, computer use, which also needs the screen's size).
 */
const ANTHROPIC_CLIENT_TOOLS = new Map([
  ['bash_20241022', 'bash'],
  ['bash_20250124', 'bash'],
  ['text_editor_20241022', 'str_replace_editor'],
  ['text_editor_20250124', 'str_replace_editor'],
  ['text_editor_20250429', 'str_replace_based_edit_tool'],
  ['text_editor_20250728', 'str_replace_based_edit_tool'],
  ['memory_20250818', 'memory'],
  ['computer_20241022', 'computer'],
  ['computer_20250124', 'computer'],
  ['computer_20251124', 'computer'],
]);

/**
 * The tools the model is shown, as Anthropic's tool search reference has it: those without
 * `defer_loading`, and the deferred ones a tool_result's tool_reference has loaded. At least one tool is
 * not deferred; a reference names a tool of the request; input_examples is a list of inputs.
 */
function toolsShown(
  tools: Array<{ name?: string; defer_loading?: boolean; input_examples?: unknown }>,
  messages: Array<{ role: string; content: unknown }>,
  problems: string[],
): string[] {
  if (tools.length && tools.every((t) => t.defer_loading === true))
    problems.push('anthropic: every tool has defer_loading (at least one must be shown)');
  for (const t of tools)
    if (t.input_examples !== undefined && !(Array.isArray(t.input_examples) && t.input_examples.every(isRecord)))
      problems.push(`anthropic: ${String(t.name)}'s input_examples is not a list of objects`);
  const deferred = new Set(tools.filter((t) => t.defer_loading === true).map((t) => t.name!));
  const named = new Set(tools.map((t) => t.name!));
  const loaded = new Set<string>();
  const load = (inner: { type?: string; tool_name?: string }) => {
    if (inner.type !== 'tool_reference') return;
    if (named.has(String(inner.tool_name))) loaded.add(String(inner.tool_name));
    else problems.push(`anthropic: tool_reference to ${String(inner.tool_name)}, no tool of the request`);
  };
  for (const m of messages)
    for (const block of Array.isArray(m.content) ? (m.content as Array<{ type?: string; content?: unknown }>) : [])
      if (block.type === 'tool_result' && Array.isArray(block.content))
        for (const inner of block.content as Array<{ type?: string; tool_name?: string }>) load(inner);
      // What its tool search found in an earlier turn stays loaded.
      else if (block.type === 'tool_search_tool_result')
        for (const inner of (block.content as { tool_references?: Array<{ type?: string; tool_name?: string }> })
          .tool_references ?? [])
          load(inner);
  return tools.filter((t) => !deferred.has(t.name!) || loaded.has(t.name!)).map((t) => t.name!);
}

const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

const anthropic: Dialect = {
  keyOf: (req) => req.headers['x-api-key'],
  // GET /v1/models: newest first, `limit` a page (1 to 1,000; 20 unless said), the next after `after_id`.
  list: (url, ids, page, problems) => {
    if (url.pathname !== '/v1/models') return null;
    const limit = Number(url.searchParams.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      problems.push(`anthropic models: limit ${limit} is not 1 to 1000`);
      return { status: 400, body: anthropic.error(400, 'limit: must be between 1 and 1000') };
    }
    const { items, more } = pageOf(ids, url.searchParams.get('after_id'), Math.min(limit, page));
    return {
      status: 200,
      body: {
        data: items.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
        first_id: items[0] ?? null,
        last_id: items.at(-1) ?? null,
        has_more: more,
      },
    };
  },
  read: (req, problems) => {
    if (!req.path.startsWith('/v1/messages')) return null;
    const b = req.body;
    if (!req.headers['x-api-key']) problems.push('anthropic: x-api-key is missing');
    if (!req.headers['anthropic-version']) problems.push('anthropic: anthropic-version is missing');
    if (typeof b.max_tokens !== 'number') problems.push('anthropic: max_tokens is required');
    if (b.inference_geo !== undefined && b.inference_geo !== 'us' && b.inference_geo !== 'global')
      problems.push(`anthropic: inference_geo ${String(b.inference_geo)} is neither us nor global`);
    const messages = b.messages as Array<{ role: string; content: unknown }> | undefined;
    if (!Array.isArray(messages) || messages.length === 0) problems.push('anthropic: messages is missing or empty');
    // Instructions in the course of the conversation are system messages there, in beta.
    const midSystem = String(req.headers['anthropic-beta'] ?? '').includes('mid-conversation-system-2026-04-07');
    for (const [i, m] of (messages ?? []).entries())
      if (m.role === 'system' ? !midSystem || i === 0 : !['user', 'assistant'].includes(m.role))
        problems.push(
          `anthropic: role ${m.role} at messages.${i} (system goes in "system", or later with the mid-conversation-system beta)`,
        );
    const tools =
      (b.tools as
        | Array<{
            type?: string;
            name?: string;
            input_schema?: unknown;
            defer_loading?: boolean;
            input_examples?: unknown;
          }>
        | undefined) ?? [];
    const search = tools.find((t) => /^web_search_\d{8}$/.test(t.type ?? ''));
    const fetch = tools.find((t) => /^web_fetch_\d{8}$/.test(t.type ?? ''));
    const toolSearch = tools.find((t) => /^tool_search_tool_(regex|bm25)(_20251119)?$/.test(t.type ?? ''));
    for (const t of tools) {
      // Anthropic's tools the client runs go by their type and the name Anthropic gives each.
      const clientTool = ANTHROPIC_CLIENT_TOOLS.get(t.type ?? '');
      if (
        t === search || t === fetch || t === toolSearch
          ? t.name !== t.type!.replace(/_\d{8}$/, '') || t.input_schema
          : clientTool
            ? t.name !== clientTool ||
              t.input_schema ||
              (clientTool === 'computer' && !(t as { display_width_px?: number }).display_width_px)
            : !t.name || !t.input_schema
      )
        problems.push(
          `anthropic: a tool is not {name, input_schema}, {type, name: "web_search", "web_fetch" or a tool search's} nor one of Anthropic's client tools by its name: ${JSON.stringify(t)}`,
        );
    }
    // Its web fetch reference: the first version is a beta, asked for by its header.
    if (fetch?.type === 'web_fetch_20250910' && !String(req.headers['anthropic-beta']).includes('web-fetch-2025-09-10'))
      problems.push('anthropic: web_fetch_20250910 without the anthropic-beta header web-fetch-2025-09-10');
    problems.push(...searchesSentBack(messages ?? []), ...readBlockProblems(messages ?? []));
    const shown = toolsShown(tools, messages ?? [], problems);
    const lastUser = [...(messages ?? [])].reverse().find((m) => m.role === 'user');
    // Asked to call a deferred tool it was not shown, a model offered the tool search finds it first.
    const wanted = /\bcall\s+(\S+)/.exec(textOf(lastUser?.content))?.[1];
    const found =
      toolSearch && wanted && !shown.includes(wanted) && tools.some((t) => t.name === wanted)
        ? { name: toolSearch.name!, tool: wanted }
        : undefined;
    const address = /https?:\/\/\S+/.exec(textOf(lastUser?.content))?.[0];
    // A turn sent back to go on after a pause_turn: the model answers, searching no more.
    const goesOn = messages?.at(-1)?.role === 'assistant';
    const thinking = b.thinking as { type?: string; budget_tokens?: number } | undefined;
    const thinks = thinking?.type === 'enabled' || thinking?.type === 'adaptive';
    const refused = thinkingRefusal(thinking, b.max_tokens, messages ?? [], String(b.model));
    if (refused) problems.push(`anthropic: ${refused}`);
    return {
      text: textOf(lastUser?.content),
      tools: found && !toolSearchFails(found.tool) ? [...shown, found.tool] : shown,
      ...(found ? { toolSearch: found } : {}),
      stream: b.stream === true,
      model: String(b.model),
      thinks,
      ...(search && !goesOn ? { search: textOf(lastUser?.content) } : {}),
      ...(fetch && !search && !goesOn && address
        ? {
            fetch: address,
            ...((fetch as { citations?: { enabled?: boolean } }).citations?.enabled ? { fetchCites: true } : {}),
          }
        : {}),
      ...(search && !goesOn && /\bpause_turn\b/.test(textOf(lastUser?.content)) ? { pauses: true } : {}),
      ...(refused ? { refused } : {}),
    };
  },
  error: (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 401
          ? 'authentication_error'
          : status === 429
            ? 'rate_limit_error'
            : status === 529
              ? 'overloaded_error'
              : status === 404
                ? 'not_found_error'
                : 'api_error',
      message:
        message ?? (status === 401 ? 'invalid x-api-key' : status === 529 ? 'Overloaded' : 'Internal server error'),
    },
  }),
  noModel: (model) => `model: ${model}`,
  whole: (turn, reply, usage) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: turn.model,
    content: [
      ...(turn.thinks ? [{ type: 'thinking', thinking: thoughtOf(turn), signature: signed(thoughtOf(turn)) }] : []),
      ...(serverTool(turn) ? [{ type: 'text', text: serverTool(turn)!.lead }, ...serverTool(turn)!.blocks] : []),
      ...(turn.pauses
        ? []
        : reply.kind === 'text'
          ? [{ type: 'text', text: reply.text, ...(cites(turn).length ? { citations: cites(turn) } : {}) }]
          : [{ type: 'tool_use', id: reply.id, name: reply.name, input: reply.args }]),
    ],
    stop_reason: stopReason(turn, reply),
    stop_sequence: null,
    usage: {
      input_tokens: usage.input - usage.cached - usage.written,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cached,
      cache_creation_input_tokens: usage.written,
      cache_creation: anthropicWrites(usage),
      ...(serverTool(turn)?.count ? { server_tool_use: serverTool(turn)!.count } : {}),
    },
  }),
  events: (turn, reply, usage) => [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: turn.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.input - usage.cached - usage.written,
            output_tokens: 1,
            cache_read_input_tokens: usage.cached,
            cache_creation_input_tokens: usage.written,
            cache_creation: anthropicWrites(usage),
          },
        },
      },
      'message_start',
    ),
    ...(turn.thinks ? [...thinkingEvents(thoughtOf(turn)), THOUGHT] : []),
    ...(serverTool(turn)
      ? [
          ...textEvents(serverTool(turn)!.lead, turn.thinks ? 1 : 0),
          ...serverToolEvents(serverTool(turn)!.blocks, turn.thinks ? 2 : 1),
        ]
      : []),
    ...(turn.pauses
      ? []
      : [
          ...(reply.kind === 'text'
            ? [
                sse(
                  { type: 'content_block_start', index: last(turn), content_block: { type: 'text', text: '' } },
                  'content_block_start',
                ),
                sse({ type: 'ping' }, 'ping'),
                ...cites(turn).map((citation) =>
                  sse(
                    { type: 'content_block_delta', index: last(turn), delta: { type: 'citations_delta', citation } },
                    'content_block_delta',
                  ),
                ),
                ...reply.text
                  .match(/.{1,6}/gs)!
                  .map((piece) =>
                    sse(
                      { type: 'content_block_delta', index: last(turn), delta: { type: 'text_delta', text: piece } },
                      'content_block_delta',
                    ),
                  ),
              ]
            : [
                sse(
                  {
                    type: 'content_block_start',
                    index: last(turn),
                    content_block: { type: 'tool_use', id: reply.id, name: reply.name, input: {} },
                  },
                  'content_block_start',
                ),
                sse(
                  {
                    type: 'content_block_delta',
                    index: last(turn),
                    delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) },
                  },
                  'content_block_delta',
                ),
              ]),
          sse({ type: 'content_block_stop', index: last(turn) }, 'content_block_stop'),
        ]),
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason(turn, reply), stop_sequence: null },
        usage: {
          output_tokens: usage.output,
          ...(serverTool(turn)?.count ? { server_tool_use: serverTool(turn)!.count } : {}),
        },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  ],
};

/** The index of a reply's one block of text or tool use: after the thinking and the search or fetch, when there are. */
const last = (turn: Turn) => (turn.thinks ? 1 : 0) + (serverTool(turn) ? 3 : 0);

/**
 * The server tool a turn runs before it answers, as Anthropic's message has it: what the model writes
 * first, the tool's use and its result, and how Anthropic counts it in the usage.
 */
const serverTool = (
  turn: Turn,
): { lead: string; blocks: Array<Record<string, unknown>>; count?: object } | undefined =>
  turn.search !== undefined
    ? { lead: SEARCH_LEAD, blocks: searchBlocks(turn.search), count: { web_search_requests: 1 } }
    : turn.fetch !== undefined
      ? { lead: FETCH_LEAD, blocks: fetchBlocks(turn.fetch), count: { web_fetch_requests: 1 } }
      : turn.toolSearch !== undefined
        ? { lead: TOOL_SEARCH_LEAD, blocks: toolSearchBlocks(turn.toolSearch.name, turn.toolSearch.tool) }
        : undefined;

/**
 * Why Anthropic's model stopped: it paused its turn after searching, answered, was stopped by its
 * safety classifiers (`refusal`), or asks for a tool.
 */
const stopReason = (turn: Turn, reply: Reply) =>
  turn.pauses ? 'pause_turn' : reply.kind === 'text' ? (reply.filtered ? 'refusal' : 'end_turn') : 'tool_use';

/** What a model that searches writes first, as in Anthropic's web search reference. */
export const SEARCH_LEAD = "I'll search the web for that.";
/** What a model that reads a page writes first. */
export const FETCH_LEAD = "I'll read that page.";
/** What a model that searches for a tool writes first, as in Anthropic's tool search reference. */
export const TOOL_SEARCH_LEAD = "I'll search for a tool to do that.";

/**
 * A tool search as Anthropic's message has it (its tool search reference): the server tool's use, with
 * its input (a regular expression's pattern, or BM25's query), then the tools it found (the one
 * searched for, by name); for a tool whose name says unavailable, the error Anthropic gives in their
 * place.
 */
const toolSearchBlocks = (name: string, tool: string) => {
  const id = `srvtoolu_${createHash('sha256').update(`${name}:${tool}`).digest('hex').slice(0, 20)}`;
  return [
    {
      type: 'server_tool_use',
      id,
      name,
      input: name === 'tool_search_tool_regex' ? { pattern: tool } : { query: tool },
    },
    {
      type: 'tool_search_tool_result',
      tool_use_id: id,
      content: toolSearchFails(tool)
        ? { type: 'tool_search_tool_result_error', error_code: 'unavailable', error_message: null }
        : { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: tool }] },
    },
  ];
};

/** Whether the fake's tool search fails for a tool (its name says unavailable). */
const toolSearchFails = (tool: string) => tool.includes('unavailable');

/**
 * The text of a page the fake's web fetch reads (about 50,000 tokens of it at an address that says
 * long), and the passage of it an answer cites.
 */
export const pageText = (url: string) =>
  `The page at ${url} says: ${url.includes('long') ? 'gateways route requests. '.repeat(8_000) : ''}${CITED_PASSAGE}`;
export const CITED_PASSAGE = 'gateways route requests.';

/** The page at an address as the fake's web fetch gives it: its text as a document. */
export const pageRead = (url: string) => ({
  type: 'web_fetch_result',
  url,
  retrieved_at: '2026-11-27T10:00:00Z',
  content: {
    type: 'document',
    title: `The page at ${url}`,
    source: { type: 'text', media_type: 'text/plain', data: pageText(url) },
  },
});

/**
 * A web fetch as Anthropic's message has it (its web fetch reference): the server tool's use, then the
 * page as a document; for an address that says unreachable, the error Anthropic gives in its place.
 */
const fetchBlocks = (url: string) => {
  const id = `srvtoolu_${createHash('sha256').update(url).digest('hex').slice(0, 20)}`;
  return [
    { type: 'server_tool_use', id, name: 'web_fetch', input: { url } },
    {
      type: 'web_fetch_tool_result',
      tool_use_id: id,
      content: url.includes('unreachable')
        ? { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' }
        : pageRead(url),
    },
  ];
};

/** A text block as Anthropic streams it, whole in one delta. */
const textEvents = (text: string, index: number) => [
  sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'),
  sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta'),
  sse({ type: 'content_block_stop', index }, 'content_block_stop'),
];

/** What the fake's web search finds for a query: two pages, their content "encrypted" (a digest the fake checks). */
const pagesFound = (query: string) =>
  [1, 2].map((n) => {
    const url = `https://example.com/${n}?q=${encodeURIComponent(query)}`;
    return {
      type: 'web_search_result',
      title: `Page ${n} on ${query}`,
      url,
      encrypted_content: sealed(url),
      page_age: 'November 26, 2026',
    };
  });

const sealed = (url: string) => `enc-${createHash('sha256').update(url).digest('base64url').slice(0, 32)}`;

/** The fake's one search for a query: its id, as Anthropic's are (srvtoolu_…), from the query. */
const searchId = (query: string) => `srvtoolu_${createHash('sha256').update(query).digest('hex').slice(0, 20)}`;

/**
 * A web search as Anthropic's message has it: the server tool's use, then its result; for a query that
 * names one, the error Anthropic gives in its place (`too_many_requests`, `max_uses_exceeded`, …).
 */
const searchBlocks = (query: string) => {
  const failed = /\b(too_many_requests|max_uses_exceeded|unavailable)\b/.exec(query)?.[1];
  return [
    { type: 'server_tool_use', id: searchId(query), name: 'web_search', input: { query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: searchId(query),
      content: failed ? { type: 'web_search_tool_result_error', error_code: failed } : pagesFound(query),
    },
  ];
};

/**
 * What an answer after a web search cites, as Anthropic writes it: the first page it found, if it found
 * any; after a web fetch asked for citations, a passage of the page it read.
 */
const cites = (turn: Turn): Array<Record<string, unknown>> => {
  if (turn.fetch !== undefined && turn.fetchCites && !turn.fetch.includes('unreachable')) {
    const page = pageText(turn.fetch);
    return [
      {
        type: 'char_location',
        cited_text: CITED_PASSAGE,
        document_index: 0,
        document_title: `The page at ${turn.fetch}`,
        start_char_index: page.indexOf(CITED_PASSAGE),
        end_char_index: page.indexOf(CITED_PASSAGE) + CITED_PASSAGE.length,
      },
    ];
  }
  if (turn.search === undefined) return [];
  const found = searchBlocks(turn.search)[1]!.content;
  const page = Array.isArray(found) ? (found[0] as { url: string; title: string } | undefined) : undefined;
  return page
    ? [
        {
          type: 'web_search_result_location',
          url: page.url,
          title: page.title,
          encrypted_index: sealed(`index of ${page.url}`),
          cited_text: `What page 1 says of ${turn.search}`,
        },
      ]
    : [];
};

/**
 * A web search or fetch as Anthropic streams it (its web search reference): the use with its input in
 * pieces, then the result whole.
 */
const serverToolEvents = ([use, result]: Array<Record<string, unknown>>, index: number) => {
  return [
    sse({ type: 'content_block_start', index, content_block: { ...use, input: {} } }, 'content_block_start'),
    sse(
      {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(use!.input) },
      },
      'content_block_delta',
    ),
    sse({ type: 'content_block_stop', index }, 'content_block_stop'),
    sse({ type: 'content_block_start', index: index + 1, content_block: result }, 'content_block_start'),
    sse({ type: 'content_block_stop', index: index + 1 }, 'content_block_stop'),
  ];
};

/**
 * What is wrong with the web searches and fetches sent back in a conversation: each server_tool_use
 * needs its result in the same message, with the pages as the fake gave them.
 */
function searchesSentBack(messages: Array<{ role: string; content: unknown }>): string[] {
  const problems: string[] = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    const blocks = m.content as Array<Record<string, unknown>>;
    for (const use of blocks.filter((b) => b.type === 'server_tool_use')) {
      const searchedTools = /^tool_search_tool_/.test(String(use.name));
      const kind = searchedTools ? 'tool_search_tool_result' : `${String(use.name)}_tool_result`;
      const result = blocks.find((b) => b.type === kind && b.tool_use_id === use.id);
      if (m.role !== 'assistant') problems.push(`anthropic: server_tool_use in a ${m.role} message`);
      if (!result) problems.push(`anthropic: server_tool_use ${String(use.id)} has no ${kind}`);
      else if (searchedTools) {
        const input = use.input as { pattern?: unknown; query?: unknown };
        const [givenUse, givenResult] = toolSearchBlocks(String(use.name), String(input.pattern ?? input.query));
        // An error's message is Anthropic's to give, not the client's to send back.
        const said = (b: Record<string, unknown>) => {
          const content = { ...(b.content as Record<string, unknown> | undefined) };
          delete content.error_message;
          return JSON.stringify([b.id ?? b.tool_use_id, b.input ?? content]);
        };
        if (said(use) !== said(givenUse!) || said(result) !== said(givenResult!))
          problems.push(
            `anthropic: tool search ${String(use.id)} is not the one it ran: ${JSON.stringify([use, result])}`,
          );
      } else if (use.name === 'web_fetch') {
        const given = fetchBlocks(String((use.input as { url?: unknown }).url))[1]!.content;
        if (JSON.stringify(result.content) !== JSON.stringify(given))
          problems.push(`anthropic: web_fetch_tool_result ${String(use.id)} is not the page it read`);
      } else {
        const pages = result.content as
          Array<{ url?: string; encrypted_content?: string }> | { type?: string; error_code?: string };
        if (!Array.isArray(pages)) {
          if (pages.type !== 'web_search_tool_result_error' || !pages.error_code)
            problems.push(`anthropic: web_search_tool_result ${String(use.id)} is neither pages nor an error`);
        } else if (pages.some((p) => p.encrypted_content !== sealed(p.url ?? '')))
          problems.push(`anthropic: web_search_tool_result ${String(use.id)} has encrypted_content it did not give`);
      }
    }
  }
  return problems;
}

/** What the fake "thinks" about a turn. */
const thoughtOf = (turn: Turn) => `Thinking about: ${turn.text}`;

/** The signature of a block of thinking, which Anthropic checks when the block is sent back. */
const signed = (thinking: string) => `sig-${createHash('sha256').update(thinking).digest('base64url').slice(0, 24)}`;

/** A block of thinking as Anthropic streams it: its text in pieces, then its signature. */
const thinkingEvents = (thinking: string) => [
  sse(
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    'content_block_start',
  ),
  ...thinking
    .match(/.{1,8}/gs)!
    .map((piece) =>
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: piece } },
        'content_block_delta',
      ),
    ),
  sse(
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: signed(thinking) } },
    'content_block_delta',
  ),
  sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
];

/**
 * Why Anthropic refuses a request's thinking, by its extended-thinking reference: a model that thinks
 * (Claude 3.7 Sonnet and later, not Claude 3.5); a budget of at least 1,024 tokens and under
 * max_tokens; thinking sent back as it was signed; and, with thinking on, a last assistant turn that
 * called tools starting with the thinking before those calls.
 */
function thinkingRefusal(
  thinking: { type?: string; budget_tokens?: number } | undefined,
  maxTokens: unknown,
  messages: Array<{ role: string; content: unknown }>,
  model: string,
): string | undefined {
  if ((thinking?.type === 'enabled' || thinking?.type === 'adaptive') && /^claude-3-5-/.test(model))
    return `thinking: ${model} does not support extended thinking`;
  const blocks = (m: { content: unknown }) =>
    (Array.isArray(m.content) ? m.content : []) as Array<{ type?: string; thinking?: string; signature?: string }>;
  for (const m of messages)
    for (const b of blocks(m))
      if (b.type === 'thinking' && b.signature !== signed(b.thinking ?? ''))
        return 'Invalid `signature` in `thinking` block';
  if (thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens ?? 0;
    if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (typeof maxTokens === 'number' && budget >= maxTokens)
      return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  if (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive') return undefined;
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const turn = at >= 0 ? blocks(messages[at]!) : [];
  if (turn.some((b) => b.type === 'tool_use') && !['thinking', 'redacted_thinking'].includes(turn[0]?.type ?? ''))
    return `messages.${at}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${turn[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`;
  return undefined;
}

export const startAnthropicFake = (key = 'sk-ant-fake-0123456789abcdef') => startFake(anthropic, '/v1', key);

// ---------------------------------------------------------------- Google Gemini

const gemini: Dialect = {
  keyOf: (req) => req.headers['x-goog-api-key'],
  // GET /v1beta/models: `models/<id>` names, `pageSize` a page (50 unless said, at most 1,000), the next
  // by the opaque `nextPageToken` of the page before.
  list: (url, ids, page, problems) => {
    if (url.pathname !== '/v1beta/models') return null;
    const size = Number(url.searchParams.get('pageSize') ?? 50);
    if (!Number.isInteger(size) || size < 1) problems.push(`gemini models: pageSize ${size} is not a page`);
    const token = url.searchParams.get('pageToken');
    const after = token === null ? null : Buffer.from(token, 'base64url').toString();
    const { items, more } = pageOf(ids, after, Math.min(size, 1000, page));
    return {
      status: 200,
      body: {
        models: items.map((id) => ({
          name: `models/${id}`,
          version: '001',
          displayName: id,
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        })),
        ...(more ? { nextPageToken: Buffer.from(items.at(-1)!).toString('base64url') } : {}),
      },
    };
  },
  embed: geminiEmbeddings,
  read: (req, problems) => {
    const match = /^\/v1beta\/models\/([^:/?]+):(generateContent|streamGenerateContent)(\?alt=sse)?$/.exec(req.path);
    if (!match) return null;
    const b = req.body;
    if (!req.headers['x-goog-api-key']) problems.push('gemini: x-goog-api-key is missing');
    if (match[2] === 'streamGenerateContent' && !match[3]) problems.push('gemini: a stream without alt=sse');
    const contents = b.contents as
      Array<{ role?: string; parts?: Array<{ text?: string; functionCall?: unknown }> }> | undefined;
    if (!Array.isArray(contents) || contents.length === 0) problems.push('gemini: contents is missing or empty');
    for (const c of contents ?? [])
      if (!['user', 'model'].includes(c.role ?? '')) problems.push(`gemini: role ${c.role} in contents`);
    const tools =
      (b.tools as Array<{ functionDeclarations?: Array<{ name?: string }>; googleSearch?: unknown }> | undefined) ?? [];
    const declarations = tools.flatMap((t) => t.functionDeclarations ?? []);
    const search = tools.find((t) => t.googleSearch !== undefined);
    const gemini3 = /^gemini-[3-9]/.test(match[1]!);
    if (search && JSON.stringify(search.googleSearch) !== '{}')
      problems.push(`gemini: googleSearch is not {}: ${JSON.stringify(search.googleSearch)}`);
    const lastUser = [...(contents ?? [])].reverse().find((c) => c.role === 'user');
    const refused = gemini3
      ? unsignedCall(contents ?? [])
      : search && declarations.length
        ? 'Tool use with function calling is unsupported'
        : undefined;
    if (refused) problems.push(`gemini: ${refused}`);
    const text = (lastUser?.parts ?? []).map((p) => p.text ?? '').join('');
    const serverSide = (b.toolConfig as { includeServerSideToolInvocations?: unknown } | undefined)
      ?.includeServerSideToolInvocations;
    return {
      ...(refused ? { refused } : {}),
      ...(search ? { search: text, ...(gemini3 && serverSide === true ? { serverSide: true } : {}) } : {}),
      text,
      tools: declarations.map((d) => d.name ?? ''),
      stream: match[2] === 'streamGenerateContent',
      model: match[1]!,
    };
  },
  error: (status, refused) => ({
    error: {
      code: status,
      message: refused
        ? refused
        : status === 401 || status === 403
          ? 'API key not valid. Please pass a valid API key.'
          : status === 429
            ? 'Resource has been exhausted.'
            : 'Internal error.',
      status:
        status === 404
          ? 'NOT_FOUND'
          : refused
            ? 'INVALID_ARGUMENT'
            : status === 401 || status === 403
              ? 'UNAUTHENTICATED'
              : status === 429
                ? 'RESOURCE_EXHAUSTED'
                : 'INTERNAL',
    },
  }),
  noModel: (model) =>
    `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  whole: (turn, reply, usage) => geminiChunk(turn, geminiParts(turn, reply), usage, true),
  events: (turn, reply, usage) =>
    reply.kind === 'text'
      ? reply.text.match(/.{1,6}/gs)!.map((piece, i, all) => {
          const parts = [...(i === 0 && turn.serverSide ? serverSearchParts(turn) : []), { text: piece }];
          return `data: ${JSON.stringify(geminiChunk(turn, parts, usage, i === all.length - 1))}\r\n\r\n`;
        })
      : [`data: ${JSON.stringify(geminiChunk(turn, geminiParts(turn, reply), usage, true))}\r\n\r\n`],
};

/** Google's sentinel for a call replayed without its signature, which Gemini 3 accepts. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** The thought signature Gemini 3 gives its first function call of a step; the fake reads back only its own. */
const thoughtSigned = (text: string) => `gsig-${Buffer.from(text).toString('base64url')}`;

/**
 * Gemini's embeddings, by its reference: `models/{model}:embedContent` ({model, content: {parts}},
 * answered {embedding: {values}}) and `:batchEmbedContents` ({requests: [the same]}, answered
 * {embeddings: [{values}]}), each request naming its model as `models/{model}`; 3,072 numbers, or
 * `outputDimensionality` of them. No token count.
 */
function geminiEmbeddings(req: SeenRequest, problems: string[]): { status: number; body: unknown } | null {
  const match = /^\/v1beta\/models\/([^:/?]+):(embedContent|batchEmbedContents)$/.exec(req.path);
  if (!match) return null;
  if (!req.headers['x-goog-api-key']) problems.push('gemini: x-goog-api-key is missing');
  type One = { model?: unknown; content?: { parts?: Array<{ text?: unknown }> }; outputDimensionality?: unknown };
  const one = (r: One) => {
    if (r.model !== `models/${match[1]}`)
      problems.push(`gemini embeddings: model ${String(r.model)} is not models/${match[1]}`);
    const text = r.content?.parts?.map((p) => (typeof p.text === 'string' ? p.text : '')).join('') ?? '';
    if (!r.content?.parts?.length) problems.push('gemini embeddings: content has no parts');
    return { values: fakeVector(text, typeof r.outputDimensionality === 'number' ? r.outputDimensionality : 3072) };
  };
  if (match[2] === 'embedContent') return { status: 200, body: { embedding: one(req.body as One) } };
  const requests = (req.body as { requests?: One[] }).requests;
  if (!Array.isArray(requests) || requests.length === 0)
    problems.push('gemini embeddings: requests is missing or empty');
  return { status: 200, body: { embeddings: (requests ?? []).map(one) } };
}

/**
 * A reply's parts: its text, or the function call (after the text written before it), signed by a
 * Gemini 3 model; after a search the model was asked to tell of, its call and response first.
 */
const geminiParts = (turn: Turn, reply: Reply) => [
  ...(turn.serverSide ? serverSearchParts(turn) : []),
  ...(reply.kind === 'text'
    ? [{ text: reply.text }]
    : [
        ...(reply.preface ? [{ text: reply.preface }] : []),
        {
          functionCall: { name: reply.name, args: reply.args },
          ...(/^gemini-3/.test(turn.model) ? { thoughtSignature: thoughtSigned(turn.text) } : {}),
        },
      ]),
];

/** The queries the fake's Google Search runs for a text: two, so that a Gemini 3 model is billed each. */
export const googleQueries = (text: string) => [text, `${text} latest`];

/** The addresses of the pages it finds, as Google gives them: its redirects, which name no site. */
export const googlePages = (text: string) =>
  [1, 2].map((n) => ({
    uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(`${n}:${text}`).toString('base64url')}`,
    title: `example${n}.com`,
  }));

/** The pages the fake's Google Search finds for a text, as the service tells them in Anthropic's search results. */
export const googleSearchResults = (text: string) =>
  googlePages(text).map((p) => ({
    type: 'web_search_result',
    url: p.uri,
    title: p.title,
    page_age: null,
    encrypted_content: '',
  }));

/** A Gemini 3 model's search as its server-side tool invocation: the call, then Google's response. */
const serverSearchParts = (turn: Turn) => [
  {
    toolCall: { toolType: 'GOOGLE_SEARCH_WEB', args: { queries: googleQueries(turn.search!) }, id: 'gs-1' },
    thoughtSignature: thoughtSigned(`search ${turn.text}`),
  },
  { toolResponse: { toolType: 'GOOGLE_SEARCH_WEB', response: { results: googlePages(turn.search!) }, id: 'gs-1' } },
];

/** Where Google's Search Suggestions lead: its results page for the query. */
export const googleResultsPage = (query: string) =>
  `https://www.google.com/search?q=${encodeURIComponent(query)}&client=app-vertex-grounding&safesearch=active`;

/**
 * Google's Search Suggestions for the search's queries (its searchEntryPoint's renderedContent), shaped
 * as Google's reference shows them: a style sheet for light and dark, Google's logo (drawn here as a
 * plain "G"), and a chip per query linking to its results page. A search for a text that names hostile
 * markup adds what a page must not run or show: a script, an image that runs one, a javascript: link,
 * a style attribute that covers the page.
 */
export function googleSearchSuggestions(search: string): string {
  const chips = googleQueries(search).map(
    (q) => `<a class="chip" href="${googleResultsPage(q).replace(/&/g, '&amp;')}">${q.replace(/[&<>"]/g, '')}</a>`,
  );
  const hostile = search.includes('hostile markup')
    ? '<script>window.ranHostile = "script"</script><img src="x" onerror="window.ranHostile = \'img\'">' +
      '<a class="chip" id="hostile" href="javascript:window.ranHostile = \'link\'">run</a>' +
      '<div id="cover" style="position: fixed; inset: 0; background: red">covered</div>'
    : '';
  const logo = (mode: string, colour: string) =>
    `<svg class="logo-${mode}" width="18" height="18" viewBox="0 0 18 18" xmlns="http://www.w3.org/2000/svg"><text x="3" y="14" font-size="14" font-weight="bold" fill="${colour}">G</text></svg>`;
  return `<style>
.container { align-items: center; border-radius: 8px; display: flex; font-family: Google Sans, Roboto, sans-serif; font-size: 14px; line-height: 20px; padding: 8px 12px; }
.chip { display: inline-block; border: solid 1px; border-radius: 16px; min-width: 14px; padding: 5px 16px; text-align: center; user-select: none; margin: 0 8px; }
.carousel { overflow: auto; scrollbar-width: none; white-space: nowrap; margin-right: -12px; }
.headline { display: flex; margin-right: 4px; }
@media (prefers-color-scheme: light) {
  .container { background-color: #fafafa; box-shadow: 0 0 0 1px #0000000f; }
  .chip { background-color: #ffffff; border-color: #d2d2d2; color: #5e5e5e; text-decoration: none; }
  .logo-dark { display: none; }
}
@media (prefers-color-scheme: dark) {
  .container { background-color: #1f1f1f; box-shadow: 0 0 0 1px #ffffff26; }
  .chip { background-color: #2c2c2c; border-color: #3c4043; color: #fff; text-decoration: none; }
  .logo-light { display: none; }
}
</style>
<div class="container">
  <div class="headline">${logo('light', '#4285F4')}${logo('dark', '#ffffff')}</div>
  <div class="carousel">${chips.join('')}${hostile}</div>
</div>
`;
}

/**
 * What Google tells of a search with the last chunk, as its grounding reference shows it: both pages
 * support what the answer says after its lead (`echo: `), placed in bytes, as Google places a segment.
 */
const groundingOf = (search: string, lead: string, said: string) => ({
  webSearchQueries: googleQueries(search),
  searchEntryPoint: { renderedContent: googleSearchSuggestions(search) },
  groundingChunks: googlePages(search).map((web) => ({ web })),
  groundingSupports: [
    {
      segment: { startIndex: Buffer.byteLength(lead), endIndex: Buffer.byteLength(lead + said), text: said },
      groundingChunkIndices: [0, 1],
    },
  ],
});

/**
 * Gemini 3's rule (its thought-signatures guide): in the current turn (since the last user text), the
 * first function call of each of the model's steps comes back with the signature it came with, or the
 * sentinel; a missing or altered one is refused with a 400.
 */
function unsignedCall(contents: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>): string | undefined {
  const start = contents.findLastIndex(
    (c) => c.role === 'user' && (c.parts ?? []).some((p) => typeof p.text === 'string'),
  );
  for (const c of contents.slice(start + 1)) {
    const first = (c.parts ?? []).find((p) => p.functionCall !== undefined);
    if (c.role !== 'model' || !first) continue;
    const name = (first.functionCall as { name?: string }).name;
    const signature = first.thoughtSignature;
    if (signature === undefined)
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\`. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    if (signature !== SKIP_SIGNATURE && !String(signature).startsWith('gsig-')) return 'Corrupted thought signature.';
  }
  return undefined;
}

function geminiChunk(turn: Turn, parts: unknown[], usage: ProviderFake['usage'], last: boolean) {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(last ? { finishReason: 'STOP' } : {}),
        ...(last && turn.search !== undefined
          ? { groundingMetadata: groundingOf(turn.search, 'echo: ', turn.text) }
          : {}),
        index: 0,
      },
    ],
    ...(last
      ? {
          usageMetadata: {
            promptTokenCount: usage.input,
            candidatesTokenCount: usage.output,
            totalTokenCount: usage.input + usage.output,
            cachedContentTokenCount: usage.cached,
          },
        }
      : {}),
    modelVersion: turn.model,
  };
}

export const startGeminiFake = (key = 'AIza-fake-gemini-0123456789abcdef') => startFake(gemini, '/v1beta', key);

/** Voyage's models that take `output_dimension` (256, 512, 1,024 or 2,048; 1,024 when not asked). */
const VOYAGE_FLEXIBLE = /^voyage-(code-3|3-large|3\.5(-lite)?|4(-large|-lite)?)$/;
const VOYAGE_FIELDS: ReadonlySet<string> = new Set([
  'input',
  'model',
  'input_type',
  'truncation',
  'output_dimension',
  'output_dtype',
  'encoding_format',
]);

/**
 * Voyage's embeddings API (`POST {base}/embeddings`, `Authorization: Bearer`), by its reference: `input`
 * a text or a list of at most 1,000 texts, `input_type` null, query or document, `truncation` true or
 * false, `output_dtype` one of its five types, `output_dimension` only for the models that take it, `encoding_format` null or base64 (not OpenAI's `float`), no field
 * it does not know (such as OpenAI's `dimensions`); its answer OpenAI's shape with `usage.total_tokens`
 * alone, its refusals `{"detail": …}`. Voyage has no chat and no list of models.
 */
const voyage: Dialect = {
  keyOf: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  error: (status, message) => ({
    detail:
      message ??
      (status === 401 ? 'Provided API key is invalid.' : status === 429 ? 'Rate limit exceeded.' : `Error ${status}.`),
  }),
  read: () => null,
  whole: () => null,
  events: () => [],
  embed: (req, problems) => {
    if (req.path !== '/v1/embeddings') return null;
    const b = req.body;
    for (const field of Object.keys(b)) if (!VOYAGE_FIELDS.has(field)) problems.push(`voyage: unknown field ${field}`);
    const model = String(b.model ?? '');
    if (!model) problems.push('voyage: model is missing');
    const input = typeof b.input === 'string' ? [b.input] : b.input;
    if (
      !Array.isArray(input) ||
      input.length === 0 ||
      input.length > 1000 ||
      !input.every((t) => typeof t === 'string')
    )
      problems.push('voyage: input is not a text or a list of at most 1,000 texts');
    if (![undefined, null, 'query', 'document'].includes(b.input_type as string))
      problems.push(`voyage: unknown input_type ${String(b.input_type)}`);
    if (b.truncation !== undefined && typeof b.truncation !== 'boolean')
      problems.push(`voyage: truncation ${String(b.truncation)} is not true or false`);
    if (![undefined, null, 'float', 'int8', 'uint8', 'binary', 'ubinary'].includes(b.output_dtype as string))
      problems.push(`voyage: unknown output_dtype ${String(b.output_dtype)}`);
    if (b.encoding_format !== undefined && b.encoding_format !== null && b.encoding_format !== 'base64')
      problems.push(`voyage: unknown encoding_format ${String(b.encoding_format)}`);
    const dimension = b.output_dimension;
    if (dimension !== undefined && dimension !== null) {
      if (!VOYAGE_FLEXIBLE.test(model))
        return { status: 400, body: { detail: `Model ${model} does not support output_dimension.` } };
      if (![256, 512, 1024, 2048].includes(dimension as number))
        return { status: 400, body: { detail: 'output_dimension must be one of 256, 512, 1024, 2048.' } };
    }
    const texts = (Array.isArray(input) ? input : []).map(String);
    const size = typeof dimension === 'number' ? dimension : 1024;
    const tokens = texts.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
    return {
      status: 200,
      body: {
        object: 'list',
        data: texts.map((text, index) => ({ object: 'embedding', embedding: fakeVector(text, size), index })),
        model,
        usage: { total_tokens: tokens },
      },
    };
  },
};

export const startVoyageFake = (key = 'pa-fake-voyage-0123456789abcdef') => startFake(voyage, '/v1', key);

/** Z.ai's two addresses: pay as you go, and the GLM Coding Plan's. */
const ZAI_ROOTS = { payg: '/api/paas/v4', coding: '/api/coding/paas/v4' } as const;
type ZaiPlan = keyof typeof ZAI_ROOTS;

/** The fields of Z.ai's chat request (its API reference), and `stream_options`, which it takes (recorded exchanges). */
const ZAI_FIELDS: ReadonlySet<string> = new Set(
  words(
    'model messages stream stream_options temperature top_p max_tokens stop do_sample thinking tools tool_choice tool_stream response_format request_id user_id',
  ),
);

/** Z.ai's answer to a key used at the other plan's address, as its error codes list it (1113). */
export const ZAI_NO_BALANCE = 'Insufficient balance or no resource package. Please recharge.';

/**
 * Z.ai's Chat Completions (`POST {root}/chat/completions`, `Authorization: Bearer`), by its API reference
 * and exchanges recorded with it: only the fields it lists, `temperature` and `top_p` within [0, 1], one
 * stop word at most, `tool_choice` only `auto`, `thinking` enabled or disabled (GLM-4.5 and later think
 * unless it is disabled). Its answers: `reasoning_content` before the content, chunks without `object`,
 * a tool call whole in one chunk, the last chunk with the usage (`prompt_tokens_details.cached_tokens`)
 * and `data: [DONE]`; its refusals `{"error": {"code", "message"}}` with its own codes as strings. A
 * key answers only at its plan's address: at the other, 429 with code 1113.
 */
const zai = (plan: ZaiPlan): Dialect => ({
  keyOf: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  list: (url, ids) =>
    url.pathname === `${ZAI_ROOTS[plan]}/models`
      ? {
          status: 200,
          body: {
            object: 'list',
            data: ids.map((id) => ({ id, object: 'model', created: 1_767_225_600, owned_by: 'z-ai' })),
          },
        }
      : null,
  read: (req, problems) => {
    const other = ZAI_ROOTS[plan === 'payg' ? 'coding' : 'payg'];
    const atOther = req.path === `${other}/chat/completions`;
    if (!atOther && req.path !== `${ZAI_ROOTS[plan]}/chat/completions`) return null;
    const b = req.body;
    for (const field of Object.keys(b)) if (!ZAI_FIELDS.has(field)) problems.push(`zai: unknown field ${field}`);
    if (typeof b.model !== 'string' || !b.model) problems.push('zai: model is missing');
    if (b.model !== String(b.model).toLowerCase()) problems.push(`zai: model ${String(b.model)} is not in lower case`);
    const messages = b.messages as Array<{ role: string; content: unknown }> | undefined;
    if (!Array.isArray(messages) || messages.length === 0) problems.push('zai: messages is missing or empty');
    for (const m of messages ?? [])
      if (!['system', 'user', 'assistant', 'tool'].includes(m.role)) problems.push(`zai: unknown role ${m.role}`);
    for (const field of ['temperature', 'top_p'])
      if (b[field] !== undefined && !(typeof b[field] === 'number' && b[field] >= 0 && b[field] <= 1))
        problems.push(`zai: ${field} is not within [0, 1]`);
    if (Array.isArray(b.stop) ? b.stop.length > 1 : b.stop !== undefined)
      problems.push('zai: stop is not a list of one word');
    if (b.tool_choice !== undefined && b.tool_choice !== 'auto') problems.push('zai: tool_choice is not "auto"');
    const thinking = (b.thinking as { type?: unknown } | undefined)?.type;
    if (thinking !== undefined && thinking !== 'enabled' && thinking !== 'disabled')
      problems.push(`zai: unknown thinking type ${String(thinking)}`);
    const tools = (b.tools as Array<{ type: string; function?: { name?: string } }> | undefined) ?? [];
    for (const t of tools)
      if (t.type !== 'function' || !t.function?.name)
        problems.push('zai: a tool is not {type: "function", function: {name}}');
    const model = String(b.model);
    const lastUser = [...(messages ?? [])].reverse().find((m) => m.role === 'user');
    return {
      ...(atOther ? { refused: ZAI_NO_BALANCE, refusedWith: 429 } : {}),
      thinks: /^glm-(4\.[5-9]|[5-9])/.test(model) && thinking !== 'disabled',
      text: textOf(lastUser?.content),
      tools: tools.map((t) => t.function!.name!),
      stream: b.stream === true,
      model,
    };
  },
  error: (status, message) => ({
    error: {
      code:
        message === ZAI_NO_BALANCE
          ? '1113'
          : status === 401
            ? '1002'
            : status === 429
              ? '1302'
              : status === 400
                ? '1210'
                : '500',
      message:
        message ??
        (status === 401
          ? 'Invalid Authentication Token, please confirm the correct transmission of the Authentication Token'
          : status === 429
            ? 'High concurrency usage of this API, please reduce concurrency or contact customer service to increase limits'
            : status === 400
              ? 'Incorrect API call parameters, please check the documentation'
              : 'Internal Error'),
    },
  }),
  whole: (turn, reply, usage) => ({
    choices: [
      {
        finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls',
        index: 0,
        message: {
          content: reply.kind === 'text' ? reply.text : '',
          ...(turn.thinks ? { reasoning_content: thoughtOf(turn) } : {}),
          role: 'assistant',
          ...(reply.kind === 'tool'
            ? {
                tool_calls: [
                  {
                    function: { arguments: JSON.stringify(reply.args), name: reply.name },
                    id: reply.id,
                    index: 0,
                    type: 'function',
                  },
                ],
              }
            : {}),
        },
      },
    ],
    created: Math.floor(Date.now() / 1000),
    id: 'zai-fake-request',
    model: turn.model,
    request_id: 'zai-fake-request',
    usage: zaiUsage(usage),
  }),
  events: (turn, reply, usage) => {
    const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({
        id: 'zai-fake-request',
        created: Math.floor(Date.now() / 1000),
        model: turn.model,
        choices: [{ index: 0, ...(extra.finish_reason ? { finish_reason: extra.finish_reason } : {}), delta }],
        ...(extra.usage ? { usage: extra.usage } : {}),
      })}\n\n`;
    const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];
    const finish = reply.kind === 'text' ? 'stop' : 'tool_calls';
    return [
      ...(turn.thinks
        ? [...pieces(thoughtOf(turn)).map((p) => chunk({ role: 'assistant', reasoning_content: p })), THOUGHT]
        : []),
      ...(reply.kind === 'text'
        ? pieces(reply.text).map((p) => chunk({ role: 'assistant', content: p }))
        : [
            chunk(
              {
                tool_calls: [
                  {
                    id: reply.id,
                    index: 0,
                    type: 'function',
                    function: { name: reply.name, arguments: JSON.stringify(reply.args) },
                  },
                ],
              },
              { finish_reason: finish },
            ),
          ]),
      chunk({ role: 'assistant', content: '' }, { finish_reason: finish, usage: zaiUsage(usage) }),
      'data: [DONE]\n\n',
    ];
  },
});

const zaiUsage = (u: ProviderFake['usage']) => ({
  prompt_tokens: u.input,
  completion_tokens: u.output,
  total_tokens: u.input + u.output,
  prompt_tokens_details: { cached_tokens: u.cached },
});

/** Z.ai's fake, at the address of the key's plan (`coding`: the GLM Coding Plan's). */
export const startZaiFake = (key = '0123456789abcdef0123456789abcdef.zaiFakeSecret123', plan: ZaiPlan = 'payg') =>
  startFake(zai(plan), ZAI_ROOTS[plan], key);

/**
 * The fields of MiniMax's Anthropic-compatible request, as its API reference's table lists them: those
 * it takes, and those it says it ignores (top_k, stop_sequences, service_tier, mcp_servers,
 * context_management, container). Any other is a problem.
 */
const MINIMAX_FIELDS: ReadonlySet<string> = new Set(
  words(
    'model messages max_tokens stream system temperature tool_choice tools top_p metadata thinking top_k stop_sequences service_tier mcp_servers context_management container',
  ),
);

/** The models its Anthropic-compatible API serves, as its reference names them. */
const MINIMAX_MODELS: ReadonlySet<string> = new Set(
  words(
    'MiniMax-M3 MiniMax-M2.7 MiniMax-M2.7-highspeed MiniMax-M2.5 MiniMax-M2.5-highspeed MiniMax-M2.1 MiniMax-M2.1-highspeed MiniMax-M2',
  ),
);

/** The content blocks its messages take: text and tool calls (no image or document), and thinking sent back. */
const MINIMAX_BLOCKS: ReadonlySet<string> = new Set(words('text tool_use tool_result thinking'));

/** A block of thinking's signature as MiniMax's answers carry it (64 hex digits, its reference's example). */
const miniMaxSigned = (thinking: string) => createHash('sha256').update(thinking).digest('hex');

/**
 * MiniMax's Anthropic-compatible API (`POST /anthropic/v1/messages`, its key as `x-api-key` or a bearer
 * token), by its API reference: Anthropic's Messages with only the fields its table lists, a model of
 * the M3 and M2 families named as it names them, `temperature` and `top_p` within (0, 1], messages of
 * text and tool calls only. Its models think before every answer (M3 not when `thinking` is disabled),
 * in a thinking block signed its own way, which it checks when the block is sent back; its whole
 * answer also carries `base_resp`, and its usage Anthropic's four counts.
 */
const minimax: Dialect = {
  keyOf: (req) => req.headers['x-api-key'] ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  error: anthropic.error,
  read: (req, problems) => {
    if (req.path !== '/anthropic/v1/messages') return null;
    const b = req.body;
    for (const field of Object.keys(b))
      if (!MINIMAX_FIELDS.has(field)) problems.push(`minimax: unknown field ${field}`);
    if (!MINIMAX_MODELS.has(String(b.model)))
      problems.push(`minimax: model ${String(b.model)} is not one its Anthropic API serves`);
    if (typeof b.max_tokens !== 'number') problems.push('minimax: max_tokens is missing');
    for (const field of ['temperature', 'top_p'])
      if (b[field] !== undefined && !(typeof b[field] === 'number' && b[field] > 0 && b[field] <= 1))
        problems.push(`minimax: ${field} ${String(b[field])} is not within (0, 1]`);
    const messages = (b.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
    if (messages.length === 0) problems.push('minimax: messages is missing or empty');
    for (const m of messages) {
      if (!['user', 'assistant'].includes(m.role)) problems.push(`minimax: role ${m.role} in messages`);
      type Block = { type?: string; thinking?: string; signature?: string };
      for (const block of Array.isArray(m.content) ? (m.content as Block[]) : []) {
        if (!MINIMAX_BLOCKS.has(String(block.type)))
          problems.push(`minimax: a ${String(block.type)} block in messages`);
        // Thinking sent back is its own, as it gave it.
        if (block.type === 'thinking' && block.signature !== miniMaxSigned(block.thinking ?? ''))
          problems.push('minimax: a thinking block sent back with a signature it did not give');
      }
    }
    const tools = (b.tools as Array<{ name?: string; input_schema?: unknown }> | undefined) ?? [];
    for (const t of tools)
      if (!t.name || !t.input_schema)
        problems.push(`minimax: a tool is not {name, input_schema}: ${JSON.stringify(t)}`);
    const thinking = (b.thinking as { type?: unknown } | undefined)?.type;
    if (thinking !== undefined && !['enabled', 'disabled', 'adaptive'].includes(String(thinking)))
      problems.push(`minimax: unknown thinking type ${String(thinking)}`);
    const lastUser = messages.findLast((m) => m.role === 'user');
    return {
      text: textOf(lastUser?.content),
      tools: tools.map((t) => t.name!),
      stream: b.stream === true,
      model: String(b.model),
      thinks: !(thinking === 'disabled' && b.model === 'MiniMax-M3'),
    };
  },
  whole: (turn, reply, usage) => {
    const answer = anthropic.whole(turn, reply, usage) as {
      content: Array<{ type: string; signature?: string }>;
      usage: Record<string, unknown>;
    };
    // Anthropic's four counts, without its breakdown of the cache written by duration.
    const counts = { ...answer.usage };
    delete counts.cache_creation;
    return {
      ...answer,
      content: answer.content.map((b) =>
        b.type === 'thinking' ? { ...b, signature: miniMaxSigned(thoughtOf(turn)) } : b,
      ),
      usage: counts,
      base_resp: { status_code: 0, status_msg: 'success' },
    };
  },
  events: (turn, reply, usage) =>
    anthropic
      .events(turn, reply, usage)
      .map((event) => event.replace(signed(thoughtOf(turn)), miniMaxSigned(thoughtOf(turn)))),
};

export const startMiniMaxFake = (key = 'sk-fake-minimax-0123456789abcdef') => startFake(minimax, '/anthropic/v1', key);

// ---------------------------------------------------------------- Cohere

/** The fields of Cohere's v2 Chat request (its API reference). */
const COHERE_FIELDS: ReadonlySet<string> = new Set(
  words(
    'model messages stream tools strict_tools documents citation_options response_format safety_mode max_tokens ' +
      'stop_sequences temperature seed frequency_penalty presence_penalty k p logprobs tool_choice thinking priority',
  ),
);

/** The chat models its API serves (its models page), by the ids it takes. */
const COHERE_CHAT_MODELS: ReadonlySet<string> = new Set(
  words(
    'command-a-plus-05-2026 command-a-03-2025 command-a-reasoning-08-2025 command-a-vision-07-2025 ' +
      'command-r7b-12-2024 command-r-plus-08-2024 command-r-08-2024',
  ),
);

/** The models that take `tool_choice` ("Command R7B and newer"). */
const COHERE_NO_TOOL_CHOICE: ReadonlySet<string> = new Set(['command-r-08-2024', 'command-r-plus-08-2024']);

/** What in a text makes Cohere's model stop with an error before it answers (its `ERROR` finish). */
export const MODEL_ERROR = '[model error]';

/** The tokens of the prompt template Cohere adds, which it counts but does not bill. */
export const COHERE_TEMPLATE_TOKENS = 200;

const cohereUsage = (u: ProviderFake['usage']) => ({
  billed_units: { input_tokens: u.input, output_tokens: u.output },
  tokens: { input_tokens: u.input + COHERE_TEMPLATE_TOKENS, output_tokens: u.output },
});

/** What is wrong with one of the messages of a Cohere v2 request, by its role's shape. */
function cohereMessageProblems(m: Record<string, unknown>, calls: Set<string>): string[] {
  const parts = (content: unknown, types: string[]) =>
    typeof content === 'string' ||
    (Array.isArray(content) && content.every((p: { type?: unknown }) => types.includes(String(p?.type))));
  switch (m.role) {
    case 'system':
      return parts(m.content, ['text']) ? [] : ['a system message is not text'];
    case 'user':
      return parts(m.content, ['text', 'image_url', 'document'])
        ? []
        : ['a user message is not text, images or documents'];
    case 'assistant': {
      const toolCalls = (m.tool_calls as Array<Record<string, unknown>> | undefined) ?? [];
      const problems = [];
      if (m.content === undefined && toolCalls.length === 0)
        problems.push('an assistant message has neither content nor tool_calls');
      if (m.content !== undefined && !parts(m.content, ['text', 'thinking']))
        problems.push('an assistant message is not text');
      for (const call of toolCalls) {
        const fn = call.function as { name?: unknown; arguments?: unknown } | undefined;
        if (
          typeof call.id !== 'string' ||
          call.type !== 'function' ||
          typeof fn?.name !== 'string' ||
          typeof fn.arguments !== 'string'
        )
          problems.push(
            `a tool call is not {id, type: function, function: {name, arguments}}: ${JSON.stringify(call)}`,
          );
        else calls.add(call.id);
      }
      return problems;
    }
    case 'tool':
      return [
        ...(typeof m.tool_call_id === 'string' && calls.has(m.tool_call_id)
          ? []
          : ['a tool message answers no tool call before it']),
        ...(parts(m.content, ['text', 'document']) ? [] : ['a tool message is not text or documents']),
      ];
    default:
      return [`role ${String(m.role)} in messages`];
  }
}

/**
 * Cohere's v2 API (`POST /v2/chat`, `POST /v2/embed`, and its list at `GET /v1/models`), its key as a
 * bearer token, by its API reference: only its fields, its models by their ids, `p` within [0.01,
 * 0.99], `k` within [0, 500], the penalties within [0, 1], at most 5 stop sequences, `tool_choice`
 * REQUIRED or NONE (refused by the 08-2024 models, as older than Command R7B), messages of its four
 * roles in their shapes (a tool message answering a call before it). Its answer is its message of
 * content parts or tool calls (with the plan it wrote first), its stream its own events, its usage both
 * the tokens billed and those processed (the prompt template's too); its errors `{message}`.
 */
const cohere: Dialect = {
  keyOf: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  error: (status, message) => ({
    id: 'fake-error',
    message:
      message ??
      (status === 401
        ? 'invalid api token'
        : status === 404
          ? 'not found'
          : status === 429
            ? 'too many requests'
            : 'error'),
  }),
  noModel: (model) =>
    `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.`,
  read: (req, problems) => {
    if (req.path !== '/v2/chat') return null;
    const b = req.body;
    for (const field of Object.keys(b)) if (!COHERE_FIELDS.has(field)) problems.push(`cohere: unknown field ${field}`);
    if (!COHERE_CHAT_MODELS.has(String(b.model)))
      problems.push(`cohere: model ${String(b.model)} is not one it serves`);
    const within = (field: string, least: number, most: number) => {
      if (b[field] !== undefined && !(typeof b[field] === 'number' && b[field] >= least && b[field] <= most))
        problems.push(`cohere: ${field} ${String(b[field])} is not within [${least}, ${most}]`);
    };
    within('p', 0.01, 0.99);
    within('k', 0, 500);
    within('frequency_penalty', 0, 1);
    within('presence_penalty', 0, 1);
    within('temperature', 0, Infinity);
    const stops = b.stop_sequences as unknown[] | undefined;
    if (stops !== undefined && !(Array.isArray(stops) && stops.length <= 5))
      problems.push('cohere: stop_sequences is not a list of up to 5');
    const messages = (b.messages as Array<Record<string, unknown>> | undefined) ?? [];
    if (messages.length === 0) problems.push('cohere: messages is missing or empty');
    const calls = new Set<string>();
    for (const m of messages) problems.push(...cohereMessageProblems(m, calls).map((p) => `cohere: ${p}`));
    const tools =
      (b.tools as Array<{ type?: string; function?: { name?: string; parameters?: unknown } }> | undefined) ?? [];
    for (const t of tools)
      if (t.type !== 'function' || !t.function?.name || !t.function.parameters)
        problems.push(`cohere: a tool is not {type: function, function: {name, parameters}}: ${JSON.stringify(t)}`);
    const choice = b.tool_choice;
    if (choice !== undefined && choice !== 'REQUIRED' && choice !== 'NONE')
      problems.push(`cohere: tool_choice ${String(choice)} is not REQUIRED or NONE`);
    const thinking = (b.thinking as { type?: unknown } | undefined)?.type;
    if (thinking !== undefined && thinking !== 'enabled' && thinking !== 'disabled')
      problems.push(`cohere: unknown thinking type ${String(thinking)}`);
    // A tool's result is answered as the user's text is.
    const lastUser = messages.findLast((m) => m.role === 'user' || m.role === 'tool');
    return {
      text: textOf(lastUser?.content),
      tools: choice === 'NONE' ? [] : tools.map((t) => t.function!.name!),
      stream: b.stream === true,
      model: String(b.model),
      ...(choice !== undefined && COHERE_NO_TOOL_CHOICE.has(String(b.model))
        ? { refused: `invalid request: tool_choice is not supported for ${String(b.model)}` }
        : {}),
    };
  },
  whole: (turn, reply, usage) =>
    turn.text.includes(MODEL_ERROR)
      ? {
          id: 'fake-cohere-chat',
          finish_reason: 'ERROR',
          message: { role: 'assistant', content: [] },
          usage: cohereUsage(usage),
        }
      : {
          id: 'fake-cohere-chat',
          finish_reason: reply.kind === 'tool' ? 'TOOL_CALL' : 'COMPLETE',
          message:
            reply.kind === 'tool'
              ? {
                  role: 'assistant',
                  tool_plan: `I will use ${reply.name}.`,
                  tool_calls: [
                    {
                      id: reply.id,
                      type: 'function',
                      function: { name: reply.name, arguments: JSON.stringify(reply.args) },
                    },
                  ],
                }
              : { role: 'assistant', content: [{ type: 'text', text: reply.text }] },
          usage: cohereUsage(usage),
        },
  events: (turn, reply, usage) => {
    const event = (type: string, data: Record<string, unknown>) => sse({ type, ...data }, type);
    if (turn.text.includes(MODEL_ERROR))
      return [
        event('message-start', { id: 'fake-cohere-chat', delta: { message: { role: 'assistant' } } }),
        event('message-end', {
          delta: { finish_reason: 'ERROR', error: 'internal server error', usage: cohereUsage(usage) },
        }),
      ];
    const body =
      reply.kind === 'tool'
        ? [
            event('tool-plan-delta', { delta: { message: { tool_plan: `I will use ${reply.name}.` } } }),
            event('tool-call-start', {
              index: 0,
              delta: {
                message: {
                  tool_calls: { id: reply.id, type: 'function', function: { name: reply.name, arguments: '' } },
                },
              },
            }),
            ...chunksOf(JSON.stringify(reply.args)).map((piece) =>
              event('tool-call-delta', {
                index: 0,
                delta: { message: { tool_calls: { function: { arguments: piece } } } },
              }),
            ),
            event('tool-call-end', { index: 0 }),
          ]
        : [
            event('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
            ...words(reply.text).map((word, i) =>
              event('content-delta', { index: 0, delta: { message: { content: { text: i ? ` ${word}` : word } } } }),
            ),
            event('content-end', { index: 0 }),
          ];
    return [
      event('message-start', {
        id: 'fake-cohere-chat',
        delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
      }),
      ...body,
      event('message-end', {
        delta: { finish_reason: reply.kind === 'tool' ? 'TOOL_CALL' : 'COMPLETE', usage: cohereUsage(usage) },
      }),
    ];
  },
  // POST /v2/embed: texts (at most 96), `input_type` one of its five (required of its v3 models and
  // later), float vectors (`embedding_types`), `truncate` NONE, START or END, `output_dimension` one of
  // embed-v4.0's sizes.
  embed: (req, problems) => {
    if (req.path !== '/v2/embed') return null;
    const b = req.body;
    const fields = words('model texts images inputs input_type embedding_types truncate output_dimension max_tokens');
    for (const field of Object.keys(b))
      if (!fields.includes(field)) problems.push(`cohere embed: unknown field ${field}`);
    const model = String(b.model);
    if (!['embed-v4.0', 'embed-english-v3.0', 'embed-multilingual-v3.0'].includes(model))
      problems.push(`cohere embed: model ${model} is not one it serves`);
    const texts = b.texts as unknown[] | undefined;
    if (!Array.isArray(texts) || texts.length === 0 || texts.length > 96 || !texts.every((t) => typeof t === 'string'))
      problems.push('cohere embed: texts is not a list of 1 to 96 texts');
    if (!words('search_document search_query classification clustering image').includes(String(b.input_type)))
      problems.push(`cohere embed: input_type ${String(b.input_type)} is not one of its five`);
    if (b.truncate !== undefined && !['NONE', 'START', 'END'].includes(String(b.truncate)))
      problems.push(`cohere embed: truncate ${String(b.truncate)} is not NONE, START or END`);
    if (
      b.output_dimension !== undefined &&
      !(model === 'embed-v4.0' && [256, 512, 1024, 1536].includes(Number(b.output_dimension)))
    )
      problems.push(`cohere embed: output_dimension ${String(b.output_dimension)} is not one of ${model}'s`);
    const list = (Array.isArray(texts) ? texts : []).map(String);
    const size = typeof b.output_dimension === 'number' ? b.output_dimension : model === 'embed-v4.0' ? 1536 : 1024;
    const tokens = list.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
    return {
      status: 200,
      body: {
        id: 'fake-cohere-embed',
        // The vector says which kind of input it was made as, for a test to tell.
        embeddings: { float: list.map((text) => fakeVector(`${String(b.input_type)} ${text}`, size)) },
        texts: list,
        meta: { api_version: { version: '2' }, billed_units: { input_tokens: tokens } },
        response_type: 'embeddings_by_type',
      },
    };
  },
  // GET /v1/models: `page_size` a page (20 unless said, at most 1,000), the next by the opaque
  // `next_page_token` of the page before.
  list: (url, ids, page, problems) => {
    if (url.pathname !== '/v1/models') return null;
    const { items, next } = tokenPage(
      url,
      ids,
      page,
      { size: 'page_size', token: 'page_token', fallback: 20 },
      problems,
    );
    return {
      status: 200,
      body: {
        models: items.map((name) => ({
          name,
          is_deprecated: false,
          endpoints: name.startsWith('embed-') ? ['embed'] : ['chat'],
          finetuned: false,
          context_length: 128_000,
        })),
        ...(next ? { next_page_token: next } : {}),
      },
    };
  },
};

/** A text in pieces of up to 8 characters, as a stream sends a tool call's arguments. */
const chunksOf = (text: string) => text.match(/[\s\S]{1,8}/g) ?? [''];

export const startCohereFake = (key = 'sk-fake-cohere-0123456789abcdef') => startFake(cohere, '/v2', key);

// ---------------------------------------------------------------- Amazon Bedrock

/** The fields of a Converse request's body (its API reference). */
const CONVERSE_FIELDS: ReadonlySet<string> = new Set(
  words(
    'messages system inferenceConfig toolConfig guardrailConfig additionalModelRequestFields promptVariables ' +
      'additionalModelResponseFieldPaths requestMetadata performanceConfig serviceTier',
  ),
);
const INFERENCE_FIELDS: ReadonlySet<string> = new Set(words('maxTokens temperature topP stopSequences'));
/** The kinds of a message's content block, each an object with one of these keys. */
const CONTENT_BLOCKS: ReadonlySet<string> = new Set(
  words(
    'text image document video toolUse toolResult guardContent cachePoint reasoningContent citationsContent searchResult',
  ),
);
/** A tool's name, and a tool use's id (the API reference's patterns). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** An inference profile's id: its geography's prefix, or `global.`. */
const PROFILE = /^(global|us|us-gov|eu|apac|jp|au|ca)\./;

/** What is wrong with a Converse message (its role, its blocks), with the tool uses asked so far. */
function converseMessageProblems(m: Record<string, unknown>, uses: Set<string>): string[] {
  if (m.role !== 'user' && m.role !== 'assistant') return [`role ${String(m.role)} in messages`];
  const content = m.content;
  if (!Array.isArray(content) || content.length === 0) return [`a ${String(m.role)} message has no content blocks`];
  const problems: string[] = [];
  for (const block of content as Array<Record<string, unknown>>) {
    const kinds = Object.keys(block ?? {});
    if (kinds.length !== 1 || !CONTENT_BLOCKS.has(kinds[0]!)) {
      problems.push(`a content block is not one of its kinds: ${JSON.stringify(block)}`);
      continue;
    }
    const use = block.toolUse as { toolUseId?: unknown; name?: unknown; input?: unknown } | undefined;
    if (use) {
      if (m.role !== 'assistant') problems.push('a toolUse block in a user message');
      if (
        !TOOL_USE_ID.test(String(use.toolUseId)) ||
        !TOOL_NAME.test(String(use.name)) ||
        typeof use.input !== 'object'
      )
        problems.push(`a toolUse is not {toolUseId, name, input}: ${JSON.stringify(use)}`);
      uses.add(String(use.toolUseId));
    }
    const result = block.toolResult as { toolUseId?: unknown; content?: unknown; status?: unknown } | undefined;
    if (result) {
      if (m.role !== 'user') problems.push('a toolResult block in an assistant message');
      if (!uses.has(String(result.toolUseId))) problems.push('a toolResult answers no toolUse before it');
      const parts = result.content as Array<Record<string, unknown>> | undefined;
      if (
        !Array.isArray(parts) ||
        !parts.every((p) => ['text', 'json', 'image', 'document'].includes(Object.keys(p)[0]!))
      )
        problems.push(`a toolResult's content is not its blocks: ${JSON.stringify(result.content)}`);
      if (result.status !== undefined && result.status !== 'success' && result.status !== 'error')
        problems.push(`a toolResult's status is ${String(result.status)}`);
    }
    if ('text' in block && typeof block.text !== 'string') problems.push('a text block is not a string');
  }
  return problems;
}

/** Bedrock's usage: the input read from its cache and written to it apart from the rest, as Anthropic's. */
const converseUsage = (u: ProviderFake['usage']) => ({
  inputTokens: u.input - u.cached - u.written,
  outputTokens: u.output,
  totalTokens: u.input + u.output,
  ...(u.cached ? { cacheReadInputTokens: u.cached } : {}),
  ...(u.written ? { cacheWriteInputTokens: u.written } : {}),
});

const stopOf = (reply: Reply) =>
  reply.kind === 'tool' ? 'tool_use' : reply.kind === 'text' && reply.filtered ? 'guardrail_intervened' : 'end_turn';

const converseBlocks = (reply: Reply) =>
  reply.kind === 'tool'
    ? [
        ...(reply.preface ? [{ text: reply.preface }] : []),
        { toolUse: { toolUseId: reply.id, name: reply.name, input: reply.args } },
      ]
    : [{ text: reply.text }];

const eventCodec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * One frame of AWS's event stream (`application/vnd.amazon.eventstream`): its headers and a JSON
 * payload, which Bedrock pads with a `p` of letters so that a frame's length tells nothing.
 */
const frame = (type: string, payload: Record<string, unknown>, padded = true) =>
  eventCodec.encode({
    headers: {
      ':event-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(
      JSON.stringify(
        padded ? { ...payload, p: 'abcdefghijklmnopqrstuvwxyzABCDEF'.slice(0, 1 + (type.length % 31)) } : payload,
      ),
    ),
  });

/** What Bedrock's Anthropic Messages API takes beside Anthropic's body: its version, and the betas asked. */
const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * A request to Bedrock's Anthropic Messages API (`POST /model/{modelId}/invoke` and
 * `/invoke-with-response-stream`), by Bedrock's guide to Claude: Anthropic's body without `model` and
 * `stream` (the path says both), with `anthropic_version` bedrock-2023-05-31 and the betas in
 * `anthropic_beta`; the rest is checked as Anthropic's fake checks a Messages request.
 */
function readInvoke(req: SeenRequest, model: string, stream: boolean, problems: string[]): Turn | null {
  const { anthropic_version: version, anthropic_beta: betas, ...body } = req.body;
  if (version !== BEDROCK_ANTHROPIC_VERSION)
    problems.push(`bedrock invoke: anthropic_version ${String(version)} is not ${BEDROCK_ANTHROPIC_VERSION}`);
  for (const field of ['model', 'stream']) if (field in body) problems.push(`bedrock invoke: extraneous key ${field}`);
  if (betas !== undefined && !(Array.isArray(betas) && betas.every((b) => typeof b === 'string')))
    problems.push('bedrock invoke: anthropic_beta is not a list of betas');
  const claude = /anthropic\.(claude-.+?)(?:-v\d+(?::\d+)?)?$/.exec(model)?.[1] ?? model;
  const turn = anthropic.read(
    {
      path: '/v1/messages',
      headers: {
        'x-api-key': 'bedrock',
        'anthropic-version': '2023-06-01',
        ...(Array.isArray(betas) ? { 'anthropic-beta': betas.join(',') } : {}),
      },
      body: { ...body, model: claude, stream },
    },
    problems,
  );
  return turn && { ...turn, model, invoked: true };
}

/** Anthropic's stream as Bedrock sends it: each event's data, in base64, as the `bytes` of a chunk frame. */
const chunkFrames = (events: string[]) =>
  events.map((event) => {
    if (event === THOUGHT) return event;
    const data = /^data: (.*)$/m.exec(event)![1]!;
    return frame('chunk', { bytes: Buffer.from(data).toString('base64') }, false);
  });

/**
 * Bedrock's embedding models through InvokeModel (`POST /model/{modelId}/invoke`), each family's request
 * and answer by Bedrock's pages of them: Titan Text Embeddings (`inputText`; V2 also `dimensions` of 256,
 * 512 or 1024 and `normalize`), answered `{embedding, inputTextTokenCount}` (1,536 numbers for V1, 1,024
 * for V2 unless asked); Cohere Embed (`texts`, `input_type` required, `truncate`; v4 also
 * `output_dimension`), answered `{embeddings}` (v3: a list of vectors of 1,024; v4: `{float: [...]}` of
 * 1,536 unless asked) with the count in `X-Amzn-Bedrock-Input-Token-Count`; Nova's
 * (`taskType` SINGLE_EMBEDDING, `singleEmbeddingParams` with `embeddingPurpose`, `embeddingDimension` of
 * 256, 384, 1024 or 3072, and `text`), answered `{embeddings: [{embeddingType, embedding}]}`.
 */
function bedrockEmbeddings(req: SeenRequest, problems: string[]) {
  const path = /^\/model\/([^/]+)\/invoke$/.exec(req.path);
  const model = path ? decodeURIComponent(path[1]!) : '';
  if (!/embed/.test(model)) return null;
  const b = req.body;
  const unknown = (allowed: string[]) =>
    Object.keys(b)
      .filter((field) => !allowed.includes(field))
      .forEach((field) => problems.push(`bedrock embeddings: ${model} takes no ${field}`));
  const words = (texts: string[]) => texts.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
  const sizeOf = (asked: unknown, sizes: number[], fallback: number) => {
    if (asked === undefined) return fallback;
    if (!sizes.includes(Number(asked))) problems.push(`bedrock embeddings: ${String(asked)} dimensions for ${model}`);
    return Number(asked);
  };
  if (/^amazon\.titan-embed-text-v[12]/.test(model)) {
    const v2 = model.includes('-v2');
    unknown(v2 ? ['inputText', 'dimensions', 'normalize', 'embeddingTypes'] : ['inputText']);
    if (typeof b.inputText !== 'string' || !b.inputText) problems.push('bedrock embeddings: inputText is not a text');
    const text = String(b.inputText ?? '');
    const size = sizeOf(b.dimensions, [256, 512, 1024], v2 ? 1024 : 1536);
    return { status: 200, body: { embedding: fakeVector(text, size), inputTextTokenCount: words([text]) } };
  }
  if (/(^|\.)cohere\.embed-/.test(model)) {
    const v4 = /embed-v4/.test(model);
    unknown(['texts', 'images', 'input_type', 'truncate', 'embedding_types', ...(v4 ? ['output_dimension'] : [])]);
    const texts = Array.isArray(b.texts) ? b.texts.map(String) : [];
    if (!texts.length || texts.length > 96) problems.push('bedrock embeddings: texts is not 1 to 96 texts');
    if (!['search_document', 'search_query', 'classification', 'clustering'].includes(String(b.input_type)))
      problems.push(`bedrock embeddings: input_type ${String(b.input_type)}`);
    const size = sizeOf(b.output_dimension, [256, 512, 1024, 1536], v4 ? 1536 : 1024);
    const vectors = texts.map((text) => fakeVector(text, size));
    return {
      status: 200,
      body: {
        id: 'emb-bedrock-fake',
        texts,
        ...(v4
          ? { response_type: 'embeddings_by_type', embeddings: { float: vectors } }
          : { response_type: 'embeddings_floats', embeddings: vectors }),
      },
      headers: { 'x-amzn-bedrock-input-token-count': String(words(texts)) },
    };
  }
  if (/^amazon\.nova-.*embed/.test(model)) {
    unknown(['schemaVersion', 'taskType', 'singleEmbeddingParams']);
    const params = (b.singleEmbeddingParams ?? {}) as {
      embeddingPurpose?: unknown;
      embeddingDimension?: unknown;
      text?: { truncationMode?: unknown; value?: unknown };
    };
    if (b.taskType !== 'SINGLE_EMBEDDING') problems.push(`bedrock embeddings: taskType ${String(b.taskType)}`);
    if (typeof params.text?.value !== 'string') problems.push('bedrock embeddings: text.value is not a text');
    const text = String(params.text?.value ?? '');
    const size = sizeOf(params.embeddingDimension, [256, 384, 1024, 3072], 3072);
    return {
      status: 200,
      body: { embeddings: [{ embeddingType: 'TEXT', embedding: fakeVector(text, size) }] },
      headers: { 'x-amzn-bedrock-input-token-count': String(words([text])) },
    };
  }
  problems.push(`bedrock embeddings: no such model ${model}`);
  return { status: 400, body: { message: 'The provided model identifier is invalid.' } };
}

/**
 * Amazon Bedrock's Converse API (`POST /model/{modelId}/converse` and `/converse-stream`, and its
 * lists at `GET /foundation-models` and `GET /inference-profiles`), with a Bedrock API key as a bearer
 * token, by its API reference: only its fields (`inferenceConfig`'s four), the system instructions at
 * the top, messages starting with the user's and alternating, each of content blocks of one kind
 * (a toolResult answering a toolUse before it), tools as `toolSpec`s with their schema under `json`,
 * `toolChoice` auto, any or a tool; a model its list does not name is refused. Its answer is the
 * message of content blocks with its stopReason and usage, its stream AWS's binary event frames
 * (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata); its errors `{message}`.
 */
const bedrock: Dialect<string | Uint8Array> = {
  keyOf: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  embed: bedrockEmbeddings,
  error: (status, message) => ({
    message:
      message ??
      (status === 401 || status === 403
        ? 'The security token included in the request is invalid.'
        : status === 404
          ? 'The requested resource could not be found.'
          : status === 429
            ? 'Too many requests, please wait before trying again.'
            : 'The system encountered an unexpected error during processing. Try your request again.'),
  }),
  noModel: () => 'The provided model identifier is invalid.',
  streamType: 'application/vnd.amazon.eventstream',
  read: (req, problems) => {
    const path = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/.exec(req.path);
    if (!path) return null;
    const model = decodeURIComponent(path[1]!);
    if (path[2]!.startsWith('invoke')) {
      if (!/(^|\.)anthropic\.claude-/.test(model)) problems.push(`bedrock: ${model} asked through InvokeModel here`);
      return readInvoke(req, model, path[2] === 'invoke-with-response-stream', problems);
    }
    const b = req.body;
    for (const field of Object.keys(b))
      if (!CONVERSE_FIELDS.has(field)) problems.push(`bedrock: unknown field ${field}`);
    const config = (b.inferenceConfig ?? {}) as Record<string, unknown>;
    for (const field of Object.keys(config))
      if (!INFERENCE_FIELDS.has(field)) problems.push(`bedrock: unknown inferenceConfig field ${field}`);
    for (const field of ['temperature', 'topP'])
      if (
        config[field] !== undefined &&
        !(typeof config[field] === 'number' && config[field] >= 0 && config[field] <= 1)
      )
        problems.push(`bedrock: ${field} ${String(config[field])} is not within [0, 1]`);
    if (config.maxTokens !== undefined && !(Number.isInteger(config.maxTokens) && Number(config.maxTokens) >= 1))
      problems.push(`bedrock: maxTokens ${String(config.maxTokens)} is not a count`);
    const system = b.system as Array<Record<string, unknown>> | undefined;
    if (system !== undefined && !(Array.isArray(system) && system.every((s) => 'text' in s || 'cachePoint' in s)))
      problems.push(`bedrock: system is not text and cache points: ${JSON.stringify(system)}`);
    const messages = (b.messages as Array<Record<string, unknown>> | undefined) ?? [];
    if (messages[0]?.role !== 'user') problems.push('bedrock: the conversation does not start with a user message');
    messages.forEach((m, i) => {
      if (i > 0 && m.role === messages[i - 1]!.role) problems.push('bedrock: the roles do not alternate');
    });
    const uses = new Set<string>();
    for (const m of messages) problems.push(...converseMessageProblems(m, uses).map((p) => `bedrock: ${p}`));
    const toolConfig = b.toolConfig as { tools?: Array<Record<string, unknown>>; toolChoice?: unknown } | undefined;
    const specs = (toolConfig?.tools ?? []).flatMap((t) =>
      t.toolSpec ? [t.toolSpec as { name?: string; inputSchema?: { json?: unknown } }] : [],
    );
    for (const spec of specs)
      if (!TOOL_NAME.test(String(spec.name)) || typeof spec.inputSchema?.json !== 'object')
        problems.push(`bedrock: a tool is not a toolSpec {name, inputSchema: {json}}: ${JSON.stringify(spec)}`);
    // A strict tool's schema must close its objects (the Converse API's structured tool use).
    for (const spec of specs as Array<{ name?: string; strict?: unknown; inputSchema?: { json?: unknown } }>)
      if (
        spec.strict === true &&
        (spec.inputSchema?.json as { additionalProperties?: unknown }).additionalProperties !== false
      )
        problems.push(`bedrock: strict tool ${String(spec.name)} has a schema without additionalProperties: false`);
    const choice = toolConfig?.toolChoice as Record<string, unknown> | undefined;
    if (choice !== undefined && !['auto', 'any', 'tool'].includes(Object.keys(choice)[0]!))
      problems.push(`bedrock: toolChoice ${JSON.stringify(choice)} is not auto, any or tool`);
    if (toolConfig && specs.length === 0) problems.push('bedrock: toolConfig has no tools');
    const last = messages.at(-1)?.content as Array<Record<string, unknown>> | undefined;
    const result = last?.find((block) => block.toolResult)?.toolResult as
      { content?: Array<{ text?: string }> } | undefined;
    return {
      text: result
        ? (result.content?.[0]?.text ?? '')
        : ((last?.find((block) => 'text' in block)?.text as string) ?? ''),
      tools: specs.map((spec) => spec.name!),
      stream: path[2] === 'converse-stream',
      model,
    };
  },
  whole: (turn, reply, usage) =>
    turn.invoked
      ? anthropic.whole(turn, reply, usage)
      : {
          output: { message: { role: 'assistant', content: converseBlocks(reply) } },
          stopReason: stopOf(reply),
          usage: converseUsage(usage),
          metrics: { latencyMs: 42 },
        },
  events: (turn, reply, usage) => {
    if (turn.invoked) return chunkFrames(anthropic.events(turn, reply, usage));
    const blocks =
      reply.kind === 'tool'
        ? [
            ...(reply.preface
              ? [[frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: reply.preface } })]]
              : []),
            [
              frame('contentBlockStart', {
                contentBlockIndex: reply.preface ? 1 : 0,
                start: { toolUse: { toolUseId: reply.id, name: reply.name } },
              }),
              ...chunksOf(JSON.stringify(reply.args)).map((input) =>
                frame('contentBlockDelta', {
                  contentBlockIndex: reply.preface ? 1 : 0,
                  delta: { toolUse: { input } },
                }),
              ),
            ],
          ]
        : [
            words(reply.text).map((word, i) =>
              frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: i ? ` ${word}` : word } }),
            ),
          ];
    return [
      frame('messageStart', { role: 'assistant' }),
      ...blocks.flatMap((block, index) => [...block, frame('contentBlockStop', { contentBlockIndex: index })]),
      frame('messageStop', { stopReason: stopOf(reply) }),
      frame('metadata', { usage: converseUsage(usage), metrics: { latencyMs: 42 } }),
    ];
  },
  // ListFoundationModels (all its region's models, each with how it may be called: on demand, or only
  // through the profiles listed for it; a Legacy one with the time of its end of life, from `shutdowns`)
  // and ListInferenceProfiles (`maxResults` at most 1,000, the next page by `nextToken`).
  list: (url, ids, page, problems, shutdowns) => {
    if (url.pathname === '/foundation-models') {
      const onDemand = ids.filter((id) => !PROFILE.test(id));
      const behindProfiles = ids.filter((id) => PROFILE.test(id)).map((id) => id.replace(PROFILE, ''));
      const models = [...new Set([...onDemand, ...behindProfiles])];
      return {
        status: 200,
        body: {
          modelSummaries: models.map((modelId) => ({
            modelId,
            modelArn: `arn:aws:bedrock:us-east-1::foundation-model/${modelId}`,
            providerName: modelId.split('.')[0],
            inputModalities: ['TEXT'],
            outputModalities: ['TEXT'],
            responseStreamingSupported: true,
            inferenceTypesSupported: onDemand.includes(modelId) ? ['ON_DEMAND'] : ['INFERENCE_PROFILE'],
            modelLifecycle: shutdowns[modelId]
              ? { status: 'LEGACY', endOfLifeTime: `${shutdowns[modelId]}T00:00:00Z` }
              : { status: 'ACTIVE' },
          })),
        },
      };
    }
    if (url.pathname !== '/inference-profiles') return null;
    const profiles = ids.filter((id) => PROFILE.test(id));
    const { items, next } = tokenPage(
      url,
      profiles,
      page,
      { size: 'maxResults', token: 'nextToken', fallback: 1000 },
      problems,
    );
    return {
      status: 200,
      body: {
        inferenceProfileSummaries: items.map((inferenceProfileId) => ({
          inferenceProfileId,
          inferenceProfileName: inferenceProfileId,
          status: 'ACTIVE',
          type: 'SYSTEM_DEFINED',
        })),
        ...(next ? { nextToken: next } : {}),
      },
    };
  },
};

/**
 * The key a Bedrock request carries: a Bedrock API key as a bearer token, or the IAM access key
 * (`ID:SECRET[:SESSION_TOKEN]`, this fake's `key`) it was signed with by AWS's Signature Version 4, when
 * the signature is the one that key makes of the request: its method, address, the headers it names as
 * signed and its body, at the time it says, for Bedrock in the region it names.
 */
async function bedrockKeyOf(req: SeenRequest, key: string): Promise<string | undefined> {
  const auth = req.headers.authorization ?? '';
  const bearer = /^Bearer (.+)$/.exec(auth)?.[1];
  if (bearer) return bearer;
  const sig =
    /^AWS4-HMAC-SHA256 Credential=([A-Z0-9]+)\/\d{8}\/([a-z0-9-]+)\/bedrock\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=[0-9a-f]{64}$/.exec(
      auth,
    );
  const [id, secret, token] = key.split(':');
  if (!sig || !id || sig[1] !== id || !secret) return undefined;
  const named = sig[3]!.split(';').filter((name) => name !== 'host' && name !== 'x-amz-security-token');
  const signed = await new AwsV4Signer({
    url: `http://${req.headers.host}${req.path}`,
    method: req.method ?? 'POST',
    headers: Object.fromEntries(named.map((name) => [name, String(req.headers[name])])),
    ...(req.method === 'GET' ? {} : { body: req.text }),
    accessKeyId: id,
    secretAccessKey: secret,
    sessionToken: token,
    service: 'bedrock',
    region: sig[2]!,
    datetime: String(req.headers['x-amz-date']),
  }).sign();
  return signed.headers.get('authorization') === auth ? key : undefined;
}

/** Bedrock's fake; an IAM access key (`ID:SECRET`) as `key` signs its requests rather than being sent. */
export const startBedrockFake = (key = 'ABSKfakeBedrockKey0123456789abcdef') =>
  startFake({ ...bedrock, keyOf: (req) => bedrockKeyOf(req, key) }, '', key);

// ---------------------------------------------------------------- Google Vertex AI

/** The project and location Vertex AI's fake serves, and the scope its tokens must carry. */
export const VERTEX_PROJECT = 'llm-spaces-test';
export const VERTEX_LOCATION = 'us-east5';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** A service account's key file (its JSON, as the Google Cloud console downloads it), with a new RSA key. */
export function serviceAccountKey(email = `gateway@${VERTEX_PROJECT}.iam.gserviceaccount.com`): {
  json: string;
  publicKey: KeyObject;
} {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const json = JSON.stringify({
    type: 'service_account',
    project_id: VERTEX_PROJECT,
    private_key_id: createHash('sha256')
      .update(publicKey.export({ format: 'der', type: 'spki' }))
      .digest('hex'),
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }),
    client_email: email,
    client_id: '104242424242424242424',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    universe_domain: 'googleapis.com',
  });
  return { json, publicKey };
}

/**
 * The service account a request's bearer token is signed by, by Google's self-signed JWT for service
 * accounts: RS256 with the key's id, issued by the account for itself, with the cloud-platform scope,
 * not expired and good for at most an hour; undefined for any other token (or one signed by another key).
 */
function signedBy(req: SeenRequest, publicKey: KeyObject, problems: string[]): string | undefined {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const [head, body, signature] = token?.split('.') ?? [];
  if (!head || !body || !signature) return undefined;
  const part = (text: string) => JSON.parse(Buffer.from(text, 'base64url').toString()) as Record<string, unknown>;
  const header = part(head);
  if (header.alg !== 'RS256' || typeof header.kid !== 'string')
    problems.push(`vertex: token header ${JSON.stringify(header)}`);
  if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, 'base64url')))
    return undefined;
  const claims = part(body);
  const now = Date.now() / 1000;
  if (claims.iss !== claims.sub) problems.push('vertex: a token not issued by its account for itself');
  if (
    !String(claims.scope ?? '')
      .split(' ')
      .includes(CLOUD_PLATFORM)
  )
    problems.push(`vertex: token scope ${String(claims.scope)}`);
  if (!(Number(claims.iat) <= now + 60 && Number(claims.exp) > now && Number(claims.exp) - Number(claims.iat) <= 3600))
    return undefined;
  return String(claims.iss);
}

/**
 * A request to Vertex AI's Anthropic Messages API (`…/publishers/anthropic/models/{model}:rawPredict` and
 * `:streamRawPredict`), by Anthropic's guide to Claude on Vertex AI: Anthropic's body without `model`
 * (the path names it), with `anthropic_version` vertex-2023-10-16 and `stream` as the path says; the
 * rest is checked as Anthropic's fake checks a Messages request.
 */
function readRawPredict(req: SeenRequest, model: string, stream: boolean, problems: string[]): Turn | null {
  const { anthropic_version: version, ...body } = req.body;
  if (version !== VERTEX_ANTHROPIC_VERSION)
    problems.push(`vertex rawPredict: anthropic_version ${String(version)} is not ${VERTEX_ANTHROPIC_VERSION}`);
  if ('model' in body) problems.push('vertex rawPredict: extraneous key model');
  if ((body.stream === true) !== stream)
    problems.push(`vertex rawPredict: stream ${String(body.stream)} on ${req.path}`);
  if (!/^claude-[a-z0-9-]+(@\d{8})?$/.test(model)) problems.push(`vertex rawPredict: ${model} is not a Claude version`);
  const beta = req.headers['anthropic-beta'];
  const turn = anthropic.read(
    {
      path: '/v1/messages',
      headers: {
        'x-api-key': 'vertex',
        'anthropic-version': '2023-06-01',
        ...(beta ? { 'anthropic-beta': beta } : {}),
      },
      body: { ...body, model: model.split('@')[0], stream },
    },
    problems,
  );
  return turn && { ...turn, model, invoked: true };
}

/**
 * Vertex AI's embeddings of Google's models, by its reference: `…/models/{model}:predict` with
 * `instances` of `{content, task_type?, title?}` (at most 250) and `parameters` of
 * `{outputDimensionality?, autoTruncate?}`, answered `predictions` of `{embeddings: {values,
 * statistics: {token_count, truncated}}}`; Gemini Embedding 2's `:embedContent`, one text a request
 * (`{content: {parts}, embedContentConfig?}`, answered `{embedding: {values}, usageMetadata}`). 3,072
 * numbers, or `outputDimensionality` of them; a text's tokens counted as its words.
 */
function vertexEmbeddings(req: SeenRequest, problems: string[]): { status: number; body: unknown } | null {
  const match = /\/publishers\/google\/models\/([^:/?]+):(predict|embedContent)$/.exec(req.path);
  if (!match) return null;
  const size = (asked: unknown) => (typeof asked === 'number' ? asked : 3072);
  const tokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
  if (match[2] === 'embedContent') {
    const {
      content,
      embedContentConfig: config,
      ...rest
    } = req.body as {
      content?: { parts?: Array<{ text?: unknown }> };
      embedContentConfig?: { outputDimensionality?: unknown };
    };
    if (Object.keys(rest).length) problems.push(`vertex embedContent: unknown fields ${Object.keys(rest).join(', ')}`);
    const text = content?.parts?.map((p) => (typeof p.text === 'string' ? p.text : '')).join('') ?? '';
    if (!content?.parts?.length) problems.push('vertex embedContent: content has no parts');
    return {
      status: 200,
      body: {
        embedding: { values: fakeVector(text, size(config?.outputDimensionality)) },
        usageMetadata: { promptTokenCount: tokens(text) },
      },
    };
  }
  const { instances, parameters, ...rest } = req.body as {
    instances?: Array<{ content?: unknown }>;
    parameters?: { outputDimensionality?: unknown };
  };
  if (Object.keys(rest).length) problems.push(`vertex predict: unknown fields ${Object.keys(rest).join(', ')}`);
  if (!Array.isArray(instances) || instances.length === 0 || instances.length > 250)
    problems.push(`vertex predict: ${instances?.length ?? 'no'} instances`);
  for (const instance of instances ?? [])
    if (typeof instance.content !== 'string') problems.push('vertex predict: an instance without its content');
  return {
    status: 200,
    body: {
      predictions: (instances ?? []).map((instance) => {
        const text = String(instance.content);
        return {
          embeddings: {
            values: fakeVector(text, size(parameters?.outputDimensionality)),
            statistics: { token_count: tokens(text), truncated: false },
          },
        };
      }),
    },
  };
}

const VERTEX_PATH =
  /^\/v1(?:\/projects\/([^/]+)\/locations\/([^/]+))?\/publishers\/(google|anthropic)\/models\/([^:/?]+):(generateContent|streamGenerateContent|rawPredict|streamRawPredict)(\?alt=sse)?$/;

/**
 * How requests to Vertex AI's fake sign in: with a token the service account signs (by its public key),
 * or with an API key in express mode (`x-goog-api-key`, at `/v1/publishers/…` without a project, by
 * Google's guide to express mode; Gemini only, as Claude's Messages API takes no API key).
 */
type VertexSignIn = KeyObject | 'express';

/**
 * Google Cloud's Vertex AI for one project and location: Gemini through Gemini's API as Vertex AI serves
 * it (checked as Gemini's fake checks it, without its API key) and Claude through Anthropic's Messages
 * API (readRawPredict), each answered as its maker's API answers; Google's errors.
 */
const vertex = (signIn: VertexSignIn): Dialect => ({
  keyOf: (req) => (signIn === 'express' ? req.headers['x-goog-api-key'] : signedBy(req, signIn, [])),
  embed: (req, problems) => {
    const answer = vertexEmbeddings(req, problems);
    if (answer && signIn === 'express') expressRequest(req, problems);
    return answer;
  },
  read: (req, problems) => {
    const path = VERTEX_PATH.exec(req.path);
    if (!path) return null;
    const [, project, location, publisher, model, method, sse] = path as unknown as string[];
    if (signIn === 'express') {
      expressRequest(req, problems);
      if (publisher === 'anthropic') problems.push('vertex express: Claude asked with an API key');
    } else {
      if (project !== VERTEX_PROJECT || location !== VERTEX_LOCATION)
        problems.push(`vertex: project ${project} in ${location}, not ${VERTEX_PROJECT} in ${VERTEX_LOCATION}`);
      signedBy(req, signIn, problems);
      if (req.headers['x-goog-api-key']) problems.push('vertex: an API key beside the token');
    }
    if (publisher === 'anthropic') {
      if (!method!.endsWith('RawPredict') && method !== 'rawPredict')
        problems.push(`vertex: Claude asked by ${method}`);
      return readRawPredict(req, model!, method === 'streamRawPredict', problems);
    }
    if (method!.endsWith('awPredict')) problems.push(`vertex: ${model} asked by ${method}`);
    return gemini.read(
      {
        ...req,
        path: `/v1beta/models/${model}:${method}${sse ?? ''}`,
        headers: { ...req.headers, 'x-goog-api-key': 'vertex' },
      },
      problems,
    );
  },
  error: (status, message) =>
    status === 401
      ? {
          error: {
            code: 401,
            message:
              message ??
              'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
            status: 'UNAUTHENTICATED',
          },
        }
      : gemini.error(status, message),
  whole: (turn, reply, usage) =>
    turn.invoked ? anthropic.whole(turn, reply, usage) : gemini.whole(turn, reply, usage),
  events: (turn, reply, usage) =>
    turn.invoked ? anthropic.events(turn, reply, usage) : gemini.events(turn, reply, usage),
});

/** A request of express mode: at Vertex AI's global address without a project, an API key and no token. */
function expressRequest(req: SeenRequest, problems: string[]): void {
  if (!req.path.startsWith('/v1/publishers/')) problems.push(`vertex express: ${req.path} is not express mode's`);
  if (req.headers.authorization) problems.push('vertex express: a bearer token beside the API key');
}

/**
 * Vertex AI in express mode, for one API key (`key`): Gemini at `/v1/publishers/google/…`; `env` points
 * the service at it as a user's environment would (GOOGLE_VERTEX_API_KEY, and this address).
 */
export async function startVertexExpressFake(): Promise<ProviderFake> {
  const fake = await startFake(vertex('express'), '/v1', VERTEX_EXPRESS_KEY);
  fake.env = { GOOGLE_VERTEX_API_KEY: VERTEX_EXPRESS_KEY, GOOGLE_VERTEX_BASE_URL: fake.baseUrl };
  return fake;
}

/** An API key of Vertex AI's express mode, as Google Cloud's console makes them. */
export const VERTEX_EXPRESS_KEY = 'AIza-fake-vertex-express-0123456789';

/**
 * Vertex AI's fake, for the service account whose key file is its `key` (a token signed by another key
 * is refused with Google's 401); `env` points the service at it as a user's environment would: the key
 * file GOOGLE_APPLICATION_CREDENTIALS names (written to `dir`), the project, and this address.
 */
export async function startVertexFake(dir: string): Promise<ProviderFake> {
  const account = serviceAccountKey();
  const email = (JSON.parse(account.json) as { client_email: string }).client_email;
  const fake = await startFake(
    vertex(account.publicKey),
    `/v1/projects/${VERTEX_PROJECT}/locations/${VERTEX_LOCATION}`,
    email,
  );
  const file = `${dir}/service-account.json`;
  writeFileSync(file, account.json, { mode: 0o600 });
  // The fake compares the account its tokens name; the service is given the key file.
  fake.key = account.json;
  fake.env = {
    GOOGLE_APPLICATION_CREDENTIALS: file,
    GOOGLE_VERTEX_PROJECT: VERTEX_PROJECT,
    GOOGLE_VERTEX_BASE_URL: fake.baseUrl,
  };
  return fake;
}
