// A small OpenAI-compatible model server for tests of --upstream and of local model servers: answers
// `upstream:<model>:<prompt>`, streams when asked, fails or breaks off for the models it is told to,
// and records what it received. Given tools, it asks for the first one (arguments {"q": <prompt>}),
// its call streamed in two pieces. Given models, it lists them at /v1/models, and as Ollama does at
// /api/tags and /api/show (context window and capabilities) when told to be Ollama; as Ollama, it
// refuses a reasoning effort for a model without the "thinking" capability (a 400 in Ollama's words),
// and a model with it, given an effort, thinks first: `reasoning` as Ollama writes it (other servers
// write `reasoning_content`), streamed before the text. It embeds texts at /v1/embeddings, 768 numbers
// each, as Ollama's OpenAI-compatible API does, and continues a prompt at /v1/completions (OpenAI's legacy
// text completion, which Ollama, llama.cpp, vLLM and LM Studio serve): `more:<model>:<prompt>`, or with a
// suffix `fill:<model>:<prompt>|<suffix>`, streamed in pieces of five when asked. A chat answer counts
// its tokens (a word a token) in `usage`, a stream's only when stream_options asks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeVector } from './providerFakes';

export interface UpstreamRequest {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  max_tokens: number;
  temperature: number;
  stream: boolean;
  tools?: Array<{ type: 'function'; function: { name: string } }>;
  tool_choice?: unknown;
  reasoning_effort?: string;
  stream_options?: { include_usage?: boolean };
}

/**
 * The server's own counts, by its "tokenizer" (a token a word, and 5 for the chat template): what the
 * messages' texts hold, and the reply's with its reasoning, whose part vLLM's details give.
 */
function usageOf(body: UpstreamRequest, reply: string, thought: string) {
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const prompt = 5 + body.messages.reduce((n, m) => n + words(typeof m.content === 'string' ? m.content : ''), 0);
  const completion = words(reply) + words(thought);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(thought ? { completion_tokens_details: { reasoning_tokens: words(thought) } } : {}),
  };
}

/** A legacy text completion as OpenAI's reference has it (the fields a gateway may send). */
export interface TextCompletionRequest {
  model: string;
  prompt: string;
  suffix?: string;
  max_tokens?: number;
  temperature?: number;
  stop?: string | string[];
  stream?: boolean;
}

export interface FakeUpstream {
  url: string;
  received: UpstreamRequest[];
  failing: Set<string>;
  /** The embeddings requests it received. */
  embedded: Array<{ model: string; input: string | string[] }>;
  /** The text completions it received (POST /v1/completions). */
  continued: TextCompletionRequest[];
  /** Models whose reply breaks off after its first pieces: the connection is cut mid-answer. */
  breaking: Set<string>;
  /** Models that answer only after this many milliseconds (or not at all, when the request is left). */
  slow: Map<string, number>;
  /** The models of the slow requests left before they were answered. */
  left: string[];
  close: () => Promise<void>;
}

export interface ServedModel {
  id: string;
  context?: number;
  capabilities?: string[];
}

export interface FakeServerOptions {
  models?: ServedModel[];
  /** Answer Ollama's own API too. */
  ollama?: boolean;
  /** A fixed port (a known server's), else any free one. */
  port?: number;
}

/** What a model server says about its models, at /v1/models and (Ollama) /api/tags and /api/show. */
function listing(url: string, text: string, options: FakeServerOptions): unknown {
  const models = options.models ?? [];
  if (url === '/v1/models')
    return {
      object: 'list',
      data: models.map((m) => ({
        id: m.id,
        object: 'model',
        owned_by: 'library',
        ...(options.ollama ? {} : { max_model_len: m.context }),
      })),
    };
  if (!options.ollama) return undefined;
  if (url === '/api/tags')
    return {
      models: models.map((m) => ({ name: m.id, model: m.id, details: { parameter_size: '3.2B', family: 'llama' } })),
    };
  if (url === '/api/show') {
    const wanted = (JSON.parse(text || '{}') as { model?: string }).model;
    const m = models.find((x) => x.id === wanted);
    return m && { model_info: { 'llama.context_length': m.context }, capabilities: m.capabilities ?? ['completion'] };
  }
  return undefined;
}

export async function startFakeUpstream(options: FakeServerOptions = {}): Promise<FakeUpstream> {
  const received: UpstreamRequest[] = [];
  const failing = new Set<string>();
  const breaking = new Set<string>();
  const slow = new Map<string, number>();
  const left: string[] = [];
  const embedded: FakeUpstream['embedded'] = [];
  const continued: TextCompletionRequest[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    const answer = async () => {
      const listed = options.models ? listing(req.url ?? '', text, options) : undefined;
      if (listed) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
        return;
      }
      if (req.url === '/v1/embeddings') {
        // As Ollama's and vLLM's OpenAI-compatible /v1/embeddings answer: a vector of 768 numbers a text.
        const asked = JSON.parse(text) as { model: string; input: string | string[] };
        embedded.push(asked);
        if (failing.has(asked.model)) {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model crashed"}');
          return;
        }
        const texts = typeof asked.input === 'string' ? [asked.input] : asked.input;
        const data = texts.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t, 768) }));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ object: 'list', data, model: asked.model, usage: { prompt_tokens: 5, total_tokens: 5 } }),
          );
        return;
      }
      if (req.url === '/v1/completions') {
        const asked = JSON.parse(text) as TextCompletionRequest & { messages?: unknown };
        continued.push(asked);
        if (typeof asked.prompt !== 'string' || asked.messages !== undefined) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"error":{"message":"prompt must be a string","type":"invalid_request_error"}}');
          return;
        }
        const more =
          asked.suffix === undefined
            ? `more:${asked.model}:${asked.prompt}`
            : `fill:${asked.model}:${asked.prompt}|${asked.suffix}`;
        const head = { id: 'cmpl-1', object: 'text_completion', created: 1, model: asked.model };
        if (!asked.stream) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              ...head,
              choices: [{ text: more, index: 0, logprobs: null, finish_reason: 'stop' }],
              usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
            }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const piece of more.match(/.{1,5}/gs) ?? [])
          res.write(
            `data: ${JSON.stringify({ ...head, choices: [{ text: piece, index: 0, logprobs: null, finish_reason: null }] })}\n\n`,
          );
        res.write(
          `data: ${JSON.stringify({ ...head, choices: [{ text: '', index: 0, logprobs: null, finish_reason: 'stop' }] })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
        return;
      }
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(text) as UpstreamRequest;
      received.push(body);
      const served = options.models?.find((m) => m.id === body.model);
      if (options.ollama && body.reasoning_effort !== undefined && !served?.capabilities?.includes('thinking')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              message: `"${body.model}" does not support thinking`,
              type: 'invalid_request_error',
              param: null,
              code: null,
            },
          }),
        );
        return;
      }
      if (failing.has(body.model)) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model crashed"}');
        return;
      }
      const wait = slow.get(body.model);
      if (wait) {
        const gone = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), wait);
          res.once('close', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (gone) return void left.push(body.model);
      }
      const last = body.messages[body.messages.length - 1]!;
      const prompt = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
      const reply = `upstream:${body.model}:${prompt}`;
      if (breaking.has(body.model)) {
        res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
        res.write(
          body.stream
            ? `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'partial ' }, finish_reason: null }] })}\n\n`
            : '{"id":"x","choices":[{"index":0,"message":{"content":"partial',
        );
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      const tool = body.tools?.[0]?.function.name;
      if (tool && last.role === 'user') {
        const args = JSON.stringify({ q: prompt });
        if (!body.stream) {
          // Asked to use every tool, it asks for each at once, as a model that runs tools side by side.
          const names = /every tool/.test(prompt) ? body.tools!.map((t) => t.function.name) : [tool];
          const message = {
            role: 'assistant',
            content: null,
            tool_calls: names.map((name, i) => ({
              id: `call_up_${i + 1}`,
              type: 'function',
              function: { name, arguments: args },
            })),
          };
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: 'x', choices: [{ index: 0, finish_reason: 'tool_calls', message }] }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const half = Math.floor(args.length / 2);
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_up_1', type: 'function', function: { name: tool, arguments: args.slice(0, half) } }] }, finish_reason: null }] })}\n\n`,
        );
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, finish_reason: null }] })}\n\n`,
        );
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      const thought = body.reasoning_effort && body.reasoning_effort !== 'none' ? `thinking over ${prompt}` : '';
      const named = options.ollama ? 'reasoning' : 'reasoning_content';
      const usage = usageOf(body, reply, thought);
      if (!body.stream) {
        const message = { role: 'assistant', content: reply, ...(thought ? { [named]: thought } : {}) };
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            choices: [{ index: 0, finish_reason: 'stop', message }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of thought.match(/.{1,5}/gs) ?? [])
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '', [named]: piece }, finish_reason: null }] })}\n\n`,
        );
      for (const piece of reply.match(/.{1,5}/gs) ?? [])
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
        );
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      // As vLLM, LM Studio and Ollama: a stream's usage only when stream_options asks, in a last chunk.
      if (body.stream_options?.include_usage === true) res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    req.on('end', () => void answer());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    failing,
    embedded,
    continued,
    breaking,
    slow,
    left,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
