// A request's options as the AI SDK's call options: sampling within each provider's ranges, thinking
// and effort, the provider's own options, response formats, tools and the providers' web searches.
import type { LanguageModelV4CallOptions, LanguageModelV4ToolChoice, JSONObject } from '@ai-sdk/provider';
import { getModelCapabilities } from '@ai-sdk/anthropic/internal';
import { mapReasoningToProviderBudget } from '@ai-sdk/provider-utils';
import type { ModelRecord } from '../../../../api/schemas';
import { passesOptionsAsTheyAre } from '../../../providers/providers';
import {
  type ChatMessage,
  isAnthropicBlock,
  type ToolOptions,
  type WebFetchAsked,
  type ToolSearchName,
  type WebToolUse,
  type WebSearchAsked,
} from '../../request';
import { cacheOptions } from './sdkPrompt';
import type { TellSearches } from './webTools';
/** The sampling a request asks for, where it asks. */
function sampling(options: ToolOptions): Partial<LanguageModelV4CallOptions> {
  return {
    ...(options.topP != null ? { topP: options.topP } : {}),
    ...(options.seed != null ? { seed: options.seed } : {}),
    ...(options.frequencyPenalty != null ? { frequencyPenalty: options.frequencyPenalty } : {}),
    ...(options.presencePenalty != null ? { presencePenalty: options.presencePenalty } : {}),
    ...(options.reasoningEffort ? { reasoning: options.reasoningEffort } : {}),
    ...(options.responseFormat ? { responseFormat: responseFormatOf(options.responseFormat) } : {}),
  };
}

/** Anthropic's least thinking budget; a budget must also leave max_tokens room for an answer. */
const LEAST_BUDGET = 1024;

/** How an Anthropic model (or GLM at Z.ai, or MiniMax's) thinks for a request, as the AI SDK call says it. */
interface AnthropicThinking {
  /** Anthropic's `thinking`, for the SDK to send as it is. */
  thinking?: JSONObject;
  /** The answer's share of max_tokens: the SDK adds a budget given here on top of it. */
  maxOutputTokens?: number;
  /** The effort is said here instead, so the SDK does not fit it to the model again. */
  withoutEffort?: boolean;
  /** Why the model answers without the thinking asked for, for the answer's warning. */
  without?: string;
}

/**
 * How an Anthropic model is to think: as its client asked (`thinking`, Claude Code's way), or as the
 * effort asks. Undefined where the AI SDK's own rule stands (no thinking asked; a model that thinks
 * adaptively, given the effort; a model that cannot think).
 * - A model that thinks by budget (Claude Haiku 4.5, Sonnet 4.5, Opus 4.1…) gets its budget inside the
 *   request's max_tokens, where Anthropic counts thinking and where the Space's max_cost priced it.
 *   Left to the SDK, a budget for an effort (a share of the model's whole output: 60% of 64,000 tokens
 *   for Haiku 4.5 at high) was added on top of max_tokens, and so to the bill. Here it is the same
 *   share of max_tokens; a max_tokens that cannot hold Anthropic's least budget and an answer is
 *   answered without thinking.
 * - With thinking on, Anthropic refuses a conversation whose last turn called tools without sending
 *   back the thinking before those calls (a client that does not keep it: any OpenAI-shaped one). Such
 *   a turn is answered without thinking rather than refused.
 */
export function anthropicThinking(
  modelId: string,
  maxTokens: number,
  options: ToolOptions,
  messages: readonly ChatMessage[],
): AnthropicThinking | undefined {
  const asked = options.thinking;
  const effort = options.reasoningEffort;
  const wanted = asked ? asked.type !== 'disabled' : !!effort && effort !== 'none';
  if (!wanted) return asked ? { thinking: { type: 'disabled' }, withoutEffort: true } : undefined;
  const model = getModelCapabilities(modelId);
  if (!model.supportsAdaptiveThinking && model.rejectsBudgetThinking) return undefined;
  const lastTurn = messages.findLast((m) => m.role === 'assistant');
  if (lastTurn?.tool_calls?.length && !lastTurn.thinking?.some(isAnthropicBlock))
    return {
      thinking: { type: 'disabled' },
      withoutEffort: true,
      without: 'the turn it continues called tools without the thinking before those calls, which Anthropic needs back',
    };
  if (model.supportsAdaptiveThinking) return asked ? { thinking: { type: 'adaptive' } } : undefined;
  const budget =
    asked?.type === 'enabled'
      ? Math.min(asked.budgetTokens, maxTokens - 1)
      : mapReasoningToProviderBudget({
          reasoning: effort ?? 'high',
          maxOutputTokens: maxTokens,
          maxReasoningBudget: maxTokens - 1,
          minReasoningBudget: LEAST_BUDGET,
          warnings: [],
        });
  if (budget < LEAST_BUDGET)
    return {
      withoutEffort: true,
      without: `a max_tokens of ${maxTokens.toLocaleString('en-US')} cannot hold its least thinking budget (1,024 tokens) and an answer`,
    };
  return {
    maxOutputTokens: maxTokens - budget,
    thinking: { type: 'enabled', budgetTokens: budget },
    withoutEffort: true,
  };
}

/**
 * How a model that thinks unless told not to is told, in Anthropic's `thinking`, its API taking no
 * effort: an effort of none (or Anthropic's thinking disabled) turns it off, any other asks it on in the
 * API's word for that (`on`), where it has one. GLM at Z.ai takes `enabled` or `disabled` (its API
 * reference); MiniMax's models take `disabled` (M3 then answers without thinking, M2 models think
 * regardless), and are sent nothing to think. Undefined where nothing was asked.
 */
export function switchedThinking(options: ToolOptions, on: 'enabled' | undefined): AnthropicThinking | undefined {
  const asked = options.thinking;
  const effort = options.reasoningEffort;
  if (!asked && !effort) return undefined;
  const off = asked ? asked.type === 'disabled' : effort === 'none';
  const type = off ? 'disabled' : on;
  return { ...(type ? { thinking: { type } } : {}), withoutEffort: true };
}

type Sampled = 'temperature' | 'topP' | 'frequencyPenalty' | 'presencePenalty';

/**
 * The ranges providers take sampling in, narrower than OpenAI's (their API references): MiniMax's
 * temperature and top_p in (0, 1]; Cohere's `p` in [0.01, 0.99] and its penalties in [0, 1].
 */
const RANGES: Readonly<Record<string, Partial<Record<Sampled, readonly [number, number]>>>> = {
  minimax: { temperature: [0.01, 1], topP: [0.01, 1] },
  cohere: { topP: [0.01, 0.99], frequencyPenalty: [0, 1], presencePenalty: [0, 1] },
};

/**
 * The call's sampling within the provider's ranges: a value below asks the least it takes, above the
 * most (OpenAI's clients send top_p 1 or a negative penalty, which these APIs would refuse).
 */
export function withinRange(
  provider: string,
  options: Partial<LanguageModelV4CallOptions>,
): Partial<LanguageModelV4CallOptions> {
  const ranges = RANGES[provider];
  if (!ranges) return options;
  const held = { ...options };
  for (const [name, [least, most]] of Object.entries(ranges) as Array<[Sampled, readonly [number, number]]>) {
    const value = held[name];
    if (value != null) held[name] = Math.min(most, Math.max(least, value));
  }
  return held;
}

/**
 * Whether a model takes a predicted output (OpenAI's `prediction`): by OpenAI's guide, its GPT-4o and
 * GPT-4.1 chat models and their mini and nano, on OpenAI or Azure (named by the catalogue's id, whatever
 * an Azure deployment is called); OpenAI refuses it of any other model, which answers the same without.
 */
export const predictsOutput = (r: ModelRecord) =>
  (r.provider === 'openai' || r.provider === 'azure') &&
  /^(gpt-4o|gpt-4\.1)(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/.test(r.model);

/**
 * What only OpenAI's packages read: a JSON schema is strict only when the request says so, as on
 * OpenAI's own API (they would make every schema strict, and a provider then refuses one that is not
 * written for strict mode); the token probabilities asked for; the prompt's cache key and verbosity;
 * and, for OpenAI's reasoning models (its Responses API, providers.ts), that OpenAI keeps no copy of
 * the conversation (the Responses API keeps one unless told not to; Chat Completions does not); a
 * predicted output, to its chat models. One tool call a reply is asked in each provider's own words
 * (others are held to it in chat/run.ts), and how an Anthropic model thinks where that is said
 * (anthropicThinking).
 */
export function providerOptions(
  provider: string,
  options: ToolOptions,
  thinking: JSONObject | undefined,
  /**
   * Through OpenAI's Responses API: whether a summary of the reasoning may be asked for, and how many
   * searches the model may run (its only built-in tool here).
   */
  responses: false | { summaries: boolean; maxToolCalls: number | undefined },
): Partial<LanguageModelV4CallOptions> {
  const format = options.responseFormat;
  const openai = {
    // Nothing kept at OpenAI; the summary asked for explicitly (the SDK asks a detailed one with any
    // effort, which an organization OpenAI has not verified is refused), or none. A reasoning model by
    // the catalogue's word, not only by a name the package knows: an Azure deployment named as its
    // owner chose (`prod-gpt5`) is sent no temperature either, which Azure refuses.
    ...(responses
      ? {
          store: false,
          reasoningSummary: responses.summaries ? (options.reasoningSummary ?? 'auto') : null,
          forceReasoning: true,
        }
      : {}),
    ...(responses && responses.maxToolCalls !== undefined ? { maxToolCalls: responses.maxToolCalls } : {}),
    ...(format?.type === 'json_schema' ? { strictJsonSchema: format.json_schema.strict === true } : {}),
    // Token probabilities, with so many alternatives of each (OpenAI's package reads them).
    ...(options.logprobs !== undefined ? { logprobs: options.logprobs > 0 ? options.logprobs : true } : {}),
    ...(options.logitBias ? { logitBias: options.logitBias } : {}),
    ...(options.promptCacheKey ? { promptCacheKey: options.promptCacheKey } : {}),
    ...(options.promptCacheRetention ? { promptCacheRetention: options.promptCacheRetention } : {}),
    ...(options.verbosity ? { textVerbosity: options.verbosity } : {}),
    ...(options.parallelToolCalls === false ? { parallelToolCalls: false } : {}),
    // Read by its Chat Completions model only: OpenAI's reasoning models, which go by the Responses
    // API, take no predicted output.
    ...(options.prediction && !responses ? { prediction: options.prediction } : {}),
  };
  // Anthropic's package's own: one tool call a reply, and how the model thinks (MiniMax's API, which it
  // also speaks, takes both and no other).
  const anthropicOwn = {
    ...(options.parallelToolCalls === false ? { disableParallelToolUse: true } : {}),
    ...(thinking ? { thinking } : {}),
  };
  const own =
    provider === 'anthropic'
      ? { ...openai, ...anthropicOwn, ...(options.inferenceGeo ? { inferenceGeo: options.inferenceGeo } : {}) }
      : provider === 'minimax'
        ? anthropicOwn
        : passesOptionsAsTheyAre(provider)
          ? // OpenAI's own options would reach the provider as stray fields (`promptCacheKey`), which a strict
            // API refuses: only the JSON schema's strictness, which the package knows, and Z.ai's `thinking`,
            // which it passes on as it is. One tool call at a time is kept to after the reply (run.ts).
            {
              ...(format?.type === 'json_schema' ? { strictJsonSchema: format.json_schema.strict === true } : {}),
              ...(thinking ? { thinking } : {}),
            }
          : openai;
  if (Object.keys(own).length === 0) return {};
  return { providerOptions: { openai, [provider]: own } };
}

/** OpenAI's response_format as the AI SDK's: JSON, with the schema and its name where one is given. */
function responseFormatOf(
  format: NonNullable<ToolOptions['responseFormat']>,
): LanguageModelV4CallOptions['responseFormat'] {
  if (format.type === 'json_object') return { type: 'json' };
  const { name, description, schema } = format.json_schema;
  return {
    type: 'json',
    name,
    ...(description ? { description } : {}),
    ...(schema ? { schema: schema as never } : {}),
  };
}

/**
 * The client's tools as the provider takes them. DeepSeek's package refuses tools held to their schema
 * (`strict`) unless they go to DeepSeek's beta address and every tool is so held: elsewhere they go
 * without it, and the reply says so.
 */
export function strictAsTaken(
  options: ToolOptions,
  provider: string,
  baseURL: string,
): { options: ToolOptions; warning?: string } {
  if (provider !== 'deepseek' || !options.tools?.length) return { options };
  const strict = options.tools.filter((t) => t.function.strict === true);
  if (!strict.length) return { options };
  if (/\/beta\/?$/.test(baseURL) && strict.length === options.tools.length) return { options };
  return {
    options: {
      ...options,
      tools: options.tools.map((t) => ({ ...t, function: { ...t.function, strict: undefined } })),
    },
    warning: `DeepSeek holds tool calls to their schema (strict) only at its beta address and only when every tool asks it, so the calls of ${strict.map((t) => t.function.name).join(', ')} were not checked against it.`,
  };
}

/**
 * The request's tools as the AI SDK's, with the web search asked of a model whose provider runs it
 * (`searchAt`): Anthropic's (and its web fetch and tool search) for an Anthropic model, OpenAI's
 * (`openAiSearch`) for an OpenAI reasoning model, Google Search for a Gemini model; the other vendor's
 * search asked (`tellAs`) is run as this one's. A Claude model gets Anthropic's client tools as Anthropic's
 * own; an OpenAI model that runs OpenAI's tool search (`openAiToolSearch`) gets it, with each tool under
 * its own name in its namespace, deferred as the client asked.
 */
export function toolOptions(
  options: ToolOptions,
  searchAt: 'anthropic' | 'openai' | 'google' | undefined,
  tellAs: TellSearches,
  openAiSearch: ToolOptions['openAiWebSearch'],
  claude: boolean,
  openAiToolSearch?: ToolOptions['openAiToolSearch'],
): Partial<LanguageModelV4CallOptions> {
  const stop = options.stop ? (Array.isArray(options.stop) ? options.stop : [options.stop]) : undefined;
  const search =
    searchAt === 'anthropic'
      ? [
          ...(options.webSearch ? [anthropicWebTool('web_search', options.webSearch)] : []),
          ...(typeof tellAs === 'object'
            ? [anthropicWebTool('web_search', anthropicSearchOf(options.openAiWebSearch!))]
            : []),
          ...(options.webFetch ? [anthropicWebTool('web_fetch', options.webFetch)] : []),
          ...(options.toolSearch ? [anthropicToolSearch(options.toolSearch)] : []),
        ]
      : searchAt === 'google'
        ? [GOOGLE_SEARCH_TOOL]
        : [
            ...(openAiSearch ? [openAiSearchTool(openAiSearch)] : []),
            ...(openAiToolSearch
              ? [
                  {
                    type: 'provider' as const,
                    id: 'openai.tool_search' as const,
                    name: 'tool_search',
                    args: openAiToolSearch,
                  },
                ]
              : []),
          ];
  if (!options.tools?.length && !search.length)
    return { ...sampling(options), ...(stop ? { stopSequences: stop } : {}) };
  return {
    ...sampling(options),
    tools: [
      ...(options.tools ?? []).map((t) =>
        // Anthropic's own tool, for a Claude model: its package asks for it by type (and beta) with its name.
        claude && t.anthropic
          ? {
              type: 'provider' as const,
              id: `anthropic.${t.anthropic.type}` as const,
              name: t.function.name,
              args: t.anthropic.args,
            }
          : {
              type: 'function' as const,
              name: (openAiToolSearch && t.openAi?.name) || t.function.name,
              description: t.function.description,
              inputSchema: (t.function.parameters ?? { type: 'object', properties: {} }) as never,
              ...(typeof t.function.strict === 'boolean' ? { strict: t.function.strict } : {}),
              // Only a Claude model gets examples and deferred tools so (others in their own terms: advancedToolUse.ts).
              ...(t.examples ? { inputExamples: t.examples.map((input) => ({ input: input as JSONObject })) } : {}),
              ...(openAiToolSearch && t.openAi ? openAiToolOptions(t.openAi) : anthropicToolOptions(t, claude)),
            },
      ),
      ...search,
    ],
    toolChoice: toolChoiceOf(options.toolChoice),
    ...(stop ? { stopSequences: stop } : {}),
  };
}

/**
 * A tool's options as Anthropic's package reads them: its prompt-cache breakpoint; for a Claude model,
 * whether tool search defers it and whether its input streams unchecked. Other providers' packages
 * leave them alone.
 */
function anthropicToolOptions(t: NonNullable<ToolOptions['tools']>[number], claude: boolean) {
  const own = {
    ...cacheOptions(t).providerOptions?.anthropic,
    ...(claude && t.deferred ? { deferLoading: true } : {}),
    ...(claude && t.eagerInput ? { eagerInputStreaming: true } : {}),
  };
  return Object.keys(own).length ? { providerOptions: { anthropic: own } } : {};
}

/** A tool's namespace, and whether it waits for the tool search, as OpenAI's package reads them. */
const openAiToolOptions = ({
  namespace,
  deferred,
}: NonNullable<NonNullable<ToolOptions['tools']>[number]['openAi']>) => ({
  providerOptions: {
    openai: { ...(namespace ? { namespace } : {}), ...(deferred ? { deferLoading: true } : {}) },
  },
});

/** Anthropic's web search or fetch as its package's provider tool, with how far the model may go. */
const anthropicWebTool = (name: WebToolUse['name'], { type, ...args }: WebSearchAsked | WebFetchAsked) => ({
  type: 'provider' as const,
  id: `anthropic.${type}` as const,
  name,
  args,
});

/** Anthropic's tool search as its package's provider tool, under the name Anthropic gives it. */
const anthropicToolSearch = (name: ToolSearchName) => ({
  type: 'provider' as const,
  id:
    name === 'tool_search_tool_bm25'
      ? ('anthropic.tool_search_bm25_20251119' as const)
      : ('anthropic.tool_search_regex_20251119' as const),
  name,
  args: {},
});

/** Google Search as Google's package takes it: it asks nothing more (it takes no domains nor location). */
const GOOGLE_SEARCH_TOOL = {
  type: 'provider' as const,
  id: 'google.google_search' as const,
  name: 'google_search',
  args: {},
};

/** OpenAI's web search (or its preview) as its package's provider tool, under the name the package parses its calls by. */
const openAiSearchTool = ({ preview, options }: NonNullable<ToolOptions['openAiWebSearch']>) => ({
  type: 'provider' as const,
  id: preview ? ('openai.web_search_preview' as const) : ('openai.web_search' as const),
  name: 'web_search',
  args: options,
});

/**
 * Anthropic's web search (Claude Code's WebSearch) as OpenAI's: the domains it may search, where the
 * user is, and how many searches it may run (OpenAI's max_tool_calls) carry over.
 */
export const openAiSearchOf = ({
  allowedDomains,
  userLocation,
  maxUses,
}: WebSearchAsked): NonNullable<ToolOptions['openAiWebSearch']> => ({
  preview: false,
  ...(maxUses !== undefined ? { maxUses } : {}),
  options: {
    ...(userLocation ? { userLocation } : {}),
    ...(allowedDomains?.length ? { filters: { allowedDomains } } : {}),
  },
});

/**
 * OpenAI's web search (Codex's) as Anthropic's: the domains it may search, where the user is, and how
 * many searches it may run (the request's max_tool_calls, as max_uses) carry over. How much of each
 * page to read (search_context_size) and whether pages are read live or from OpenAI's index
 * (external_web_access, which Codex sets off by default) have no counterpart there: Anthropic's search
 * answers from its search engine's results, and reads no page itself (its web fetch does).
 */
function anthropicSearchOf({ options, maxUses }: NonNullable<ToolOptions['openAiWebSearch']>): WebSearchAsked {
  const allowed = (options.filters as { allowedDomains?: string[] } | undefined)?.allowedDomains;
  const where = options.userLocation as Omit<NonNullable<WebSearchAsked['userLocation']>, 'type'> | undefined;
  return {
    type: 'web_search_20250305',
    ...(maxUses !== undefined ? { maxUses } : {}),
    ...(allowed?.length ? { allowedDomains: allowed } : {}),
    ...(where ? { userLocation: { ...where, type: 'approximate' as const } } : {}),
  };
}

/** OpenAI's tool_choice as the AI SDK's. */
function toolChoiceOf(choice: unknown): LanguageModelV4ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  const named = (choice as { function?: { name?: unknown } } | null)?.function?.name;
  return typeof named === 'string' ? { type: 'tool', toolName: named } : undefined;
}
