// POST /v1/chat/completions (conventions.md, more extra endpoints): OpenAI's request, read into the
// engine's request. The Space is the key's own, or the one an organization token names with app_id.
import type { z } from 'zod';
import type { ChatCompletionsBody } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { promptOf, requestedSpace, type Body, type ChatMessage, type ToolOptions } from './request';

export function completionRequest(caller: Caller, body: z.output<typeof ChatCompletionsBody>): Body {
  const messages = body.messages.map((m): ChatMessage =>
    m.role === 'assistant'
      ? { role: 'assistant', content: m.content ?? null, ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}) }
      : m.role === 'developer'
        ? { role: 'system', content: m.content }
        : m,
  );
  return {
    app_id: requestedSpace(caller, body.app_id),
    prompt: promptOf(messages),
    model: body.model ?? null,
    temperature: body.temperature ?? null,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    stream: body.stream ?? undefined,
    includeUsage: body.stream_options?.include_usage === true,
    completion: {
      messages,
      tools: body.tools,
      toolChoice: body.tool_choice,
      stop: body.stop,
      topP: body.top_p,
      seed: body.seed,
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
      reasoningEffort: body.reasoning_effort,
      responseFormat: body.response_format?.type === 'text' ? undefined : body.response_format,
      logprobs: body.logprobs ? (body.top_logprobs ?? 0) : undefined,
      parallelToolCalls: body.parallel_tool_calls,
      promptCacheKey: body.prompt_cache_key,
      promptCacheRetention: body.prompt_cache_retention,
      verbosity: body.verbosity,
      ...(body.web_search_options ? { openAiWebSearch: webSearchOf(body.web_search_options) } : {}),
    },
  };
}

/**
 * OpenAI's web search on Chat Completions as on its Responses API (which its reasoning models answer
 * through here): how much of each page to read, and where the user is.
 */
function webSearchOf({
  search_context_size: size,
  user_location: where,
}: NonNullable<z.output<typeof ChatCompletionsBody>['web_search_options']>): NonNullable<
  ToolOptions['openAiWebSearch']
> {
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
