// Forwards a request to an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LiteLLM…), found on
// this computer or given with --upstream, under the model's name there, streaming the reply through.
// A reasoning model's thinking, which servers write as `reasoning_content` (vLLM, llama.cpp, LM Studio)
// or `reasoning` (Ollama), is passed on to be shown. A text completion (OpenAI's legacy API, code
// completion tools') goes to the server's own /v1/completions.
import { createParser } from 'eventsource-parser';
import { request, type Dispatcher } from 'undici';

import type { ToolCall } from '../../../api/schemas';
import { networkWords } from '../../../shared/networkWords';
import { promptOf, type ChatMessage, type Reply, type ToolOptions } from '../request';
import { ReachFailure } from './reach';

export interface UpstreamCall {
  baseUrl: string;
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  options?: ToolOptions;
  onDelta?: (text: string) => void;
  /** Receives the model's reasoning as it streams, when the client reads it. */
  onReasoning?: (text: string) => void;
  signal: AbortSignal;
}

export async function callUpstream(call: UpstreamCall): Promise<Reply> {
  const stream = call.onDelta !== undefined;
  const options = call.options;
  const text = options?.textCompletion;
  const response = await postToServer(
    call.baseUrl,
    text ? '/completions' : '/chat/completions',
    {
      model: call.model,
      // A text completion's prompt goes as it is: a code completion tool wrote it for the model's own
      // template (its fill-in-the-middle markers), which the server's chat template would wrap again.
      ...(text
        ? {
            prompt: promptOf(call.messages),
            ...(text.suffix !== null ? { suffix: text.suffix } : {}),
          }
        : { messages: call.messages.map(openAiMessage) }),
      max_tokens: call.maxTokens,
      temperature: call.temperature,
      stream,
      // The server's own count of the tokens, which its tokenizer made, in a stream's last chunk.
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      ...(options?.tools?.length
        ? {
            tools: options.tools.map(serverTool),
            tool_choice: options.toolChoice,
            ...(options.parallelToolCalls === false ? { parallel_tool_calls: false } : {}),
          }
        : {}),
      ...(options?.stop ? { stop: options.stop } : {}),
      ...(options?.topP != null ? { top_p: options.topP } : {}),
      ...(options?.seed != null ? { seed: options.seed } : {}),
      ...(options?.frequencyPenalty != null ? { frequency_penalty: options.frequencyPenalty } : {}),
      ...(options?.presencePenalty != null ? { presence_penalty: options.presencePenalty } : {}),
      ...(options?.reasoningEffort ? { reasoning_effort: serverEffort(options.reasoningEffort) } : {}),
      ...(options?.responseFormat ? { response_format: options.responseFormat } : {}),
      ...(options?.logprobs !== undefined ? { logprobs: true, top_logprobs: options.logprobs } : {}),
    },
    // A stream's headers come at once, its parts as they are made; a whole reply, once it is all made,
    // which a large model on this computer's CPU may take minutes to do.
    {
      signal: call.signal,
      accept: stream ? 'text/event-stream' : 'application/json',
      timeoutMs: stream ? 120_000 : 600_000,
    },
  );
  return stream ? readStream(response.body, call.onDelta!, call.onReasoning) : readJson(await response.body.text());
}

/**
 * A JSON POST to an OpenAI-compatible server's `path` (under its base URL, which ends in /v1): its
 * answer when it is not an error, else a ReachFailure saying in words what happened.
 */
export async function postToServer(
  baseUrl: string,
  path: string,
  body: unknown,
  options: { signal: AbortSignal; accept: string; timeoutMs: number },
): Promise<Dispatcher.ResponseData> {
  let response;
  try {
    response = await request(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: options.accept },
      body: JSON.stringify(body),
      signal: options.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ReachFailure(
      code === 'UND_ERR_HEADERS_TIMEOUT'
        ? `the model server did not answer within ${options.timeoutMs / 1000} s`
        : `the model server could not be reached: ${networkWords(error) ?? code ?? (error as Error).name}`,
      undefined,
      !options.signal.aborted,
    );
  }
  if (response.statusCode >= 400) {
    const text = await response.body.text().catch(() => '');
    throw new ReachFailure(
      `the model server answered ${response.statusCode}${text ? `: ${text.slice(0, 200)}` : ''}`,
      response.statusCode,
    );
  }
  return response;
}

function finish(reason: unknown, toolCalls: ToolCall[]): Reply['finishReason'] {
  if (toolCalls.length > 0) return 'tool_calls';
  return reason === 'length' || reason === 'content_filter' ? reason : 'stop';
}

type WireToolCall = { index?: number; id?: string; function?: { name?: string; arguments?: string } };

/** What a message or a delta says besides its text and tool calls: the model's reasoning, by either name. */
type Reasoned = { reasoning_content?: unknown; reasoning?: unknown };
const reasoningOf = (part: Reasoned | undefined) => {
  const said = part?.reasoning_content ?? part?.reasoning;
  return typeof said === 'string' ? said : '';
};

/** Token counts as OpenAI's API writes them, with the details servers add (vLLM, LiteLLM, llama.cpp). */
type WireUsage = {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
};

/**
 * What the server counted, read tolerantly: a count that is not a whole number leaves the reply to be
 * counted here (Reply.usage absent), as when the server says nothing.
 */
function usageOf(wire: WireUsage | null | undefined): Pick<Reply, 'usage'> {
  const count = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
  const input = count(wire?.prompt_tokens);
  const output = count(wire?.completion_tokens);
  if (input === undefined || output === undefined) return {};
  return {
    usage: {
      input,
      output,
      cachedInput: Math.min(count(wire?.prompt_tokens_details?.cached_tokens) ?? 0, input),
      cacheWrites: 0,
      hourCacheWrites: 0,
      reasoning: Math.min(count(wire?.completion_tokens_details?.reasoning_tokens) ?? 0, output),
    },
  };
}

function readJson(text: string): Reply {
  try {
    const json = JSON.parse(text) as {
      usage?: WireUsage | null;
      choices?: Array<{
        message?: { content?: string | null; tool_calls?: WireToolCall[] } & Reasoned;
        /** A text completion's. */
        text?: string;
        finish_reason?: string;
        logprobs?: { content?: unknown[] } | null;
      }>;
    };
    const choice = json.choices?.[0];
    const toolCalls = (choice?.message?.tool_calls ?? []).map((c, i) => toolCall(c, i));
    const content = choice?.message ? choice.message.content : choice?.text;
    if (typeof content !== 'string' && toolCalls.length === 0) throw new Error('no message');
    const reasoning = reasoningOf(choice?.message);
    return {
      ...(reasoning ? { reasoning } : {}),
      text: content ?? '',
      finishReason: finish(choice?.finish_reason, toolCalls),
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(Array.isArray(choice?.logprobs?.content) ? { logprobs: choice.logprobs.content } : {}),
      ...usageOf(json.usage),
    };
  } catch {
    throw new ReachFailure('the model server answered with an unexpected body');
  }
}

function toolCall(wire: WireToolCall, index: number): ToolCall {
  return {
    id: wire.id || `call_${index}`,
    type: 'function',
    function: { name: wire.function?.name ?? '', arguments: wire.function?.arguments ?? '' },
  };
}

async function readStream(
  body: AsyncIterable<unknown>,
  onDelta: (text: string) => void,
  onReasoning: ((text: string) => void) | undefined,
): Promise<Reply> {
  let text = '';
  let reasoning = '';
  let reason: unknown = null;
  let done = false;
  // Tool calls arrive in pieces, by index: the first piece has the id and name, later ones more arguments.
  const calls: WireToolCall[] = [];
  const logprobs: unknown[] = [];
  let usage: Pick<Reply, 'usage'> = {};
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === '[DONE]') {
        done = true;
        return;
      }
      try {
        const chunk = JSON.parse(event.data) as {
          usage?: WireUsage | null;
          choices?: Array<{
            delta?: { content?: string | null; tool_calls?: WireToolCall[] } & Reasoned;
            /** A text completion's piece. */
            text?: string;
            finish_reason?: string | null;
            logprobs?: { content?: unknown[] } | null;
          }>;
        };
        const choice = chunk.choices?.[0];
        const thought = reasoningOf(choice?.delta);
        if (thought) {
          reasoning += thought;
          onReasoning?.(thought);
        }
        const content = choice?.delta ? choice.delta.content : choice?.text;
        if (content) {
          text += content;
          onDelta(content);
        }
        for (const piece of choice?.delta?.tool_calls ?? []) {
          const at = piece.index ?? calls.length;
          const call = (calls[at] ??= { id: '', function: { name: '', arguments: '' } });
          if (piece.id) call.id = piece.id;
          if (piece.function?.name) call.function!.name += piece.function.name;
          if (piece.function?.arguments) call.function!.arguments += piece.function.arguments;
        }
        if (Array.isArray(choice?.logprobs?.content)) logprobs.push(...choice.logprobs.content);
        if (choice?.finish_reason) reason = choice.finish_reason;
        if (chunk.usage) usage = usageOf(chunk.usage);
      } catch {
        // A keep-alive or vendor event that is not a chunk.
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const bytes of body) parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
  } catch (error) {
    throw new ReachFailure(`upstream stream broke (${(error as { code?: string }).code ?? (error as Error).name})`);
  }
  if (!done && reason === null) throw new ReachFailure('upstream stream ended early');
  const toolCalls = calls.filter(Boolean).map((c, i) => toolCall(c, i));
  return {
    ...(reasoning ? { reasoning } : {}),
    text,
    finishReason: finish(reason, toolCalls),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(logprobs.length ? { logprobs } : {}),
    ...usage,
  };
}

/**
 * A message as OpenAI's API has it: its cache mark and an Anthropic model's thinking are Anthropic's
 * (hostedProviders.ts), and a model server is not sent them.
 */
function openAiMessage({
  cache_control: _mark,
  thinking: _thinking,
  ...message
}: ChatMessage & { thinking?: unknown }) {
  return message;
}

/**
 * A tool's definition as a model server takes it: without its cache mark (Anthropic's) or the mark of
 * the Anthropic tool it stands for (a function is what any model other than Claude gets).
 */
function serverTool<T extends { cache_control?: unknown; anthropic?: unknown }>({
  cache_control: _cache,
  anthropic: _anthropic,
  ...rest
}: T): Omit<T, 'cache_control' | 'anthropic'> {
  return rest;
}

/** A model server takes OpenAI's efforts up to high (those of its models: gpt-oss, Qwen, DeepSeek). */
const serverEffort = (effort: string) => (effort === 'xhigh' || effort === 'max' ? 'high' : effort);
