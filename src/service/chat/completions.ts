// POST /v1/chat/completions (conventions.md, more extra endpoints): OpenAI's request, read into the
// engine's request. The Space is the key's own, or the one an organization token names with app_id.
import type { z } from 'zod';
import type { ChatCompletionsBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { invalid } from '../problem';
import { promptOf, requestedSpace, type Body, type ChatMessage, type ToolOptions } from './request';

type Request = z.output<typeof ChatCompletionsBody>;

export function completionRequest(caller: Caller, body: Request): Body {
  if (body.functions && body.tools)
    throw invalid(
      ['body', 'functions'],
      'must not be sent with tools: functions is their older name, send one of them',
    );
  const messages = messagesOf(body.messages);
  const legacy = body.functions !== undefined;
  return {
    ...(legacy ? { legacyFunctions: true as const } : {}),
    app_id: requestedSpace(caller, body.app_id),
    prompt: promptOf(messages),
    model: body.model ?? null,
    temperature: body.temperature ?? null,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    stream: body.stream ?? undefined,
    includeUsage: body.stream_options?.include_usage === true,
    obfuscate: body.stream_options?.include_obfuscation === true,
    completion: {
      messages,
      tools: legacy ? body.functions!.map((f) => ({ type: 'function' as const, function: f })) : body.tools,
      toolChoice: legacy ? legacyChoice(body.function_call) : body.tool_choice,
      stop: body.stop,
      topP: body.top_p,
      seed: body.seed,
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
      reasoningEffort: body.reasoning_effort,
      responseFormat: body.response_format?.type === 'text' ? undefined : body.response_format,
      logprobs: body.logprobs ? (body.top_logprobs ?? 0) : undefined,
      ...(body.logit_bias && Object.keys(body.logit_bias).length ? { logitBias: body.logit_bias } : {}),
      // The older API calls one function a turn.
      parallelToolCalls: legacy ? false : body.parallel_tool_calls,
      promptCacheKey: body.prompt_cache_key,
      promptCacheRetention: body.prompt_cache_retention,
      verbosity: body.verbosity,
      ...(body.prediction ? { prediction: body.prediction } : {}),
      ...(body.web_search_options ? { openAiWebSearch: webSearchOf(body.web_search_options) } : {}),
    },
  };
}

/**
 * The messages as the engine reads them: a developer's as a system message, and the older API's function
 * calls and results as tool calls and their results, each result answering the last call of its
 * function (that API gives calls no id, so each gets one here, by its message's place).
 */
function messagesOf(sent: Request['messages']): ChatMessage[] {
  /** The calls of each function not yet answered, by its name: their ids, the last last. */
  const unanswered = new Map<string, string[]>();
  return sent.map((m, index): ChatMessage => {
    if (m.role === 'developer') return { role: 'system', content: m.content };
    if (m.role === 'function') {
      const id = unanswered.get(m.name)?.pop();
      if (id === undefined)
        throw invalid(
          ['body', 'messages', index],
          `is the result of the function ${m.name}, which no assistant message before it calls (function_call)`,
        );
      return { role: 'tool', content: m.content ?? '', tool_call_id: id };
    }
    if (m.role !== 'assistant') return m;
    const calls = [...(m.tool_calls ?? [])];
    if (m.function_call) {
      const id = `call_function_${index}`;
      calls.push({ id, type: 'function', function: m.function_call });
      unanswered.set(m.function_call.name, [...(unanswered.get(m.function_call.name) ?? []), id]);
    }
    return { role: 'assistant', content: m.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
  });
}

/** The older API's `function_call` as a tool choice: none, auto (its default), or the function named. */
const legacyChoice = (choice: Request['function_call']): ToolOptions['toolChoice'] =>
  typeof choice === 'object' && choice !== null
    ? { type: 'function', function: { name: choice.name } }
    : (choice ?? undefined);

/**
 * OpenAI's web search on Chat Completions as on its Responses API (which its reasoning models answer
 * through here): how much of each page to read, and where the user is.
 */
function webSearchOf({
  search_context_size: size,
  user_location: where,
}: NonNullable<Request['web_search_options']>): NonNullable<ToolOptions['openAiWebSearch']> {
  const location = where
    ? Object.fromEntries(Object.entries(where.approximate).filter(([, v]) => v != null))
    : undefined;
  return {
    preview: false,
    options: {
      ...(size ? { searchContextSize: size } : {}),
      ...(location ? { userLocation: { type: 'approximate', ...location } } : {}),
    },
  };
}
