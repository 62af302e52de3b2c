// Models of hosted providers (OpenAI, Anthropic, Gemini, …), reached with the user's keys through the
// AI SDK's provider packages (../../providers/providers.ts): the engine's OpenAI-shaped messages and
// tools become the SDK's prompt, its stream becomes deltas, its usage the provider's own counts, and
// its errors a ReachFailure that says in words what went wrong, without the key.
import { randomBytes } from 'node:crypto';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FilePart,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4ReasoningPart,
  LanguageModelV4TextPart,
  LanguageModelV4ToolCall,
  LanguageModelV4ToolCallPart,
  LanguageModelV4ToolChoice,
  LanguageModelV4ToolResult,
  LanguageModelV4ToolResultPart,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
  JSONObject,
} from '@ai-sdk/provider';
import { APICallError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { getModelCapabilities } from '@ai-sdk/anthropic/internal';
import { mapReasoningToProviderBudget } from '@ai-sdk/provider-utils';
import type { CacheControl, ModelRecord, ToolCall } from '../../../api/schemas';
import { countsAgainstProvider, type Cooldown } from '../../providers/cooldown';
import type { ProviderKeys } from '../../providers/keys';
import { offeredModels } from '../../providers/offered';
import { fimOptions, textModel } from '../../providers/fim';
import { passesOptionsAsTheyAre, providerSpec, type ProviderSpec, type Reach } from '../../providers/providers';
import {
  PDF_DATA,
  textAndWebTools,
  textOf,
  type Cited,
  type CitedPage,
  type ChatMessage,
  type Reply,
  isAnthropicBlock,
  type GeminiSignature,
  type MiniMaxThinking,
  type OpenAiReasoning,
  type OpenAiSearch,
  type ThinkingBlock,
  type ThinkingPiece,
  type ToolOptions,
  type WebFetchAsked,
  type WebFetchResult,
  type WebToolUse,
  type WebSearchAsked,
  type WebSearchResult,
} from '../request';
import type { ImageDetail } from '../imageTokens';
import { ReachFailure, type Generation, type ModelReach } from './reach';
import type { GoogleSearch } from '../../providers/googleSearch';
import { anthropicSearchAtOpenAi, googleSearchFor } from '../webSearches';
import { networkWords } from '../../../shared/networkWords';
import { dialectOf, speaksZaiApi, type ProviderName } from '../../../shared/providerNames';

/** OpenAI's own address, which speaks every API of OpenAI's. */
const OPENAI_OWN = /^https:\/\/api\.openai\.com(\/|$)/;
/** The providers whose reasoning models speak OpenAI's Responses API: OpenAI and Azure OpenAI. */
const RESPONSES_PROVIDERS = new Set(['openai', 'azure']);
/**
 * OpenAI's refusal of a reasoning summary to an organization it has not verified ("Your organization
 * must be verified to generate reasoning summaries", a 400 for `reasoning.summary`).
 */
const SUMMARY_REFUSED = /verified to generate reasoning summar/i;
/** How long a key whose summaries were refused is not asked for one: verifying takes OpenAI minutes to apply. */
const SUMMARY_ASKED_AGAIN_MS = 60 * 60_000;
const WITHOUT_SUMMARY = (label: string) =>
  `${label} shows a reasoning model's thinking only to organizations it has verified, so this reply comes without it. ` +
  'Verify yours at https://platform.openai.com/settings/organization/general to see it here.';

export class HostedProviders implements ModelReach {
  /**
   * Each provider's models as made for the key and address it has now, made again when either changes;
   * and when the provider last refused that key its reasoning models' summaries (OpenAI refuses them to
   * an organization it has not verified).
   */
  private readonly made = new Map<
    string,
    { reach: Reach; models: Map<string, LanguageModelV4 | undefined>; summariesRefusedAt: number | null }
  >();
  /**
   * Addresses behind OPENAI_BASE_URL (or Azure's) that answered 404 to the Responses API (a proxy or
   * server that speaks only Chat Completions): OpenAI's reasoning models go to them through Chat Completions.
   */
  private readonly chatOnly = new Set<string>();

  constructor(
    private readonly keys: ProviderKeys,
    private readonly cooldown: Cooldown,
    /** How long a provider may take to its first token; a reply not streamed may take five times that. */
    private readonly firstTokenMs = 60_000,
  ) {}

  readonly measured = true;

  /** A model of a provider with a key, which the provider lists for that key (offered.ts). */
  reaches(model: ModelRecord): boolean {
    return (
      !model.is_test_model &&
      !!providerSpec(model.provider) &&
      this.keys.has(model.provider) &&
      offeredModels.offers(model)
    );
  }

  async generate(g: Generation): Promise<Reply> {
    const provider = g.model.provider!;
    const spec = providerSpec(provider)!;
    const reach = this.keys.reach(provider)!;
    const cooling = notAskedWhileCooling(this.cooldown, provider, spec.label);
    if (cooling) throw cooling;
    const modelId = offeredModels.targetOf(g.model);
    // OpenAI's reasoning models, at OpenAI or Azure, go through the Responses API (providers.ts) where it is spoken.
    const responses =
      RESPONSES_PROVIDERS.has(provider) && g.model.supports_reasoning === true && !this.chatOnly.has(reach.baseURL);
    // A text completion goes to the provider's own fill-in-the-middle or text completion where it has
    // one (../../providers/fim.ts).
    const text = g.tools.textCompletion;
    const fim = text && this.model(spec, reach, modelId, 'text');
    const model = fim || this.model(spec, reach, modelId, responses ? 'responses' : 'chat')!;
    // What the model thought, as OpenAI summarises it, unless the key's organization was refused it lately.
    const made = this.made.get(spec.id)!;
    const summaries =
      responses && (made.summariesRefusedAt === null || Date.now() - made.summariesRefusedAt > SUMMARY_ASKED_AGAIN_MS);
    // A provider that hangs is a failure like any other: it is given up on, and the chain goes on.
    const wait = g.onDelta ? this.firstTokenMs : this.firstTokenMs * 5;
    // One signal for both ends: the client's going, and the wait running out. (AbortSignal.any does
    // the same, but each listener undici adds to it costs more than this whole controller.)
    const stop = new AbortController();
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      stop.abort();
    }, wait);
    const gone = () => stop.abort(g.signal.reason);
    // A client gone before the attempt starts (between two of them) stops it at once, as it would have.
    if (g.signal.aborted) gone();
    else g.signal.addEventListener('abort', gone, { once: true });
    // The first piece of thinking is the model answering as much as the first piece of text.
    const answering = () => clearTimeout(timer);
    const anthropic = provider === 'anthropic';
    // Whose API's words the model speaks: Claude's on Bedrock and Vertex AI Anthropic's, Gemini's on
    // Vertex AI Google's.
    const dialect = dialectOf(provider, modelId);
    // A Claude model, at Anthropic or through a cloud's Anthropic Messages API (its signed thinking is
    // good on any: Anthropic's signatures hold across its platforms).
    const claude = dialect === 'anthropic';
    // What thinking goes back to the model: a Claude model's blocks to any Claude model (each checks the
    // signatures), an OpenAI model's reasoning items, a Gemini model's thought signatures and a MiniMax
    // model's signed blocks to the model that gave them.
    const kept: Kept = claude
      ? 'anthropic'
      : responses
        ? { provider: provider as 'openai' | 'azure', model: g.model.namespace }
        : dialect === 'google' || dialect === 'minimax'
          ? { provider: dialect, model: g.model.namespace }
          : undefined;
    const thinking = claude
      ? anthropicThinking(modelId, g.maxTokens, g.tools, g.messages)
      : speaksZaiApi(provider)
        ? switchedThinking(g.tools, 'enabled')
        : provider === 'minimax'
          ? switchedThinking(g.tools, undefined)
          : undefined;
    // A Gemini model asked either vendor's web search runs Google Search, when it can.
    const google =
      dialect === 'google' && (g.tools.webSearch || g.tools.openAiWebSearch)
        ? googleSearchFor(g.model, g.tools)
        : undefined;
    // Where the model may search the web: Anthropic's models and OpenAI's reasoning models, at their
    // provider (not through Bedrock, which does not run Anthropic's server tools), and Gemini models.
    const searchAt = anthropic
      ? 'anthropic'
      : responses && provider === 'openai'
        ? 'openai'
        : google
          ? 'google'
          : undefined;
    // A search asked in one vendor's words and run at the other's (or Google's) is told back in the words asked.
    const tellAs: TellSearches =
      searchAt === 'google'
        ? g.tools.webSearch
          ? 'anthropic'
          : { openai: g.model.namespace }
        : searchAt === 'openai' && !g.tools.openAiWebSearch && anthropicSearchAtOpenAi(g.tools)
          ? 'anthropic'
          : searchAt === 'anthropic' && !g.tools.webSearch && g.tools.openAiWebSearch
            ? { openai: g.model.namespace }
            : undefined;
    // The search run at OpenAI: the one asked in its words, or Anthropic's told as it.
    const openAiSearch =
      searchAt === 'openai'
        ? (g.tools.openAiWebSearch ?? (tellAs === 'anthropic' ? openAiSearchOf(g.tools.webSearch!) : undefined))
        : undefined;
    const options: LanguageModelV4CallOptions = {
      // Anthropic's, Google's, DeepSeek's APIs and OpenAI's Responses take images and PDFs in a tool's result.
      prompt: toPrompt(
        SYSTEM_AT_START.has(provider) ? systemFirst(g.messages) : g.messages,
        carriedBack(kept),
        anthropic,
        claude || responses || dialect === 'google' || provider === 'deepseek',
      ),
      maxOutputTokens: thinking?.maxOutputTokens ?? g.maxTokens,
      ...withinRange(provider, { temperature: g.temperature, ...toolOptions(g.tools, searchAt, tellAs, openAiSearch) }),
      // A model whose API takes no penalties (the catalogue's word) is not sent them (Z.ai's would be
      // fields it does not know; Anthropic's and Google's packages would drop them with a warning).
      ...(g.model.supports_penalties ? {} : { frequencyPenalty: undefined, presencePenalty: undefined }),
      ...(thinking?.withoutEffort ? { reasoning: undefined } : {}),
      ...providerOptions(
        claude ? 'anthropic' : dialect,
        g.tools,
        thinking?.thinking,
        responses && { summaries, maxToolCalls: openAiSearch?.maxUses },
      ),
      ...(fim ? { providerOptions: fimOptions(text.suffix) } : {}),
      abortSignal: stop.signal,
    };
    try {
      const reply = g.onDelta
        ? await streamed(model.doStream(options), answering, g.onDelta, g.onThinking, kept, tellAs, google)
        : await whole(model.doGenerate(options), kept, tellAs, google);
      this.cooldown.succeeded(provider);
      if (thinking?.without) reply.warning = `${g.model.namespace} answered without thinking: ${thinking.without}.`;
      return reply;
    } catch (error) {
      if (g.signal.aborted) throw error;
      const failure = late
        ? new ProviderFailure(`${spec.label} did not answer within ${wait / 1000} s`, 504, false, null)
        : failureOf(error, spec, this.keys.secrets());
      // A 404 for the model (at Azure, for a deployment not made), or for the path.
      const noModel = failure.status === 404 && /model|deployment/i.test(failure.message);
      // A server that does not know the Responses API (the path is not found): the same request once
      // more through Chat Completions, and so from then on at that address.
      if (responses && failure.status === 404 && !noModel && !OPENAI_OWN.test(reach.baseURL)) {
        this.chatOnly.add(reach.baseURL);
        return this.generate(g);
      }
      // An organization OpenAI has not verified gets no summaries: the same request once more without
      // one, and so for the next hour with this key, the first reply saying why no thinking shows.
      if (summaries && failure.status === 400 && SUMMARY_REFUSED.test(failure.message)) {
        made.summariesRefusedAt = Date.now();
        const reply = await this.generate(g);
        reply.warning ??= WITHOUT_SUMMARY(spec.label);
        return reply;
      }
      if (countsAgainstProvider(failure.status) && !(error instanceof ModelStopped))
        this.cooldown.failed(provider, failure.retryAfterMs);
      if (provider === 'azure' && noModel) throw new NoDeployment(modelId, g.model.namespace);
      // The provider says it has no such model (retired while the service runs, or not open to the key):
      // its list is read again, so that the model shows as not for this key and is no longer routed to.
      if (!noModel) throw failure;
      void offeredModels.refresh(provider);
      // In plain words first, then the provider's own (Anthropic's are only "model: <id>").
      const said = failure.message.replace(`${spec.label} answered HTTP 404: `, '');
      throw new ProviderFailure(
        `${spec.label} has no model ${modelId} that your key can use (HTTP 404: ${said})`,
        404,
        false,
        null,
      );
    } finally {
      clearTimeout(timer);
      g.signal.removeEventListener('abort', gone);
    }
  }

  /**
   * The provider's model, made once for its key and address rather than for every request: for Chat
   * Completions, the Responses API, or a text completion (undefined where the provider has none for it).
   */
  private model(spec: ProviderSpec, reach: Reach, modelId: string, api: 'chat' | 'responses' | 'text') {
    let made = this.made.get(spec.id);
    if (!made || made.reach.apiKey !== reach.apiKey || made.reach.baseURL !== reach.baseURL) {
      made = { reach, models: new Map(), summariesRefusedAt: null };
      this.made.set(spec.id, made);
    }
    const key = `${modelId} ${api}`;
    if (!made.models.has(key))
      made.models.set(
        key,
        api === 'text' ? textModel(spec.id, reach, modelId) : spec.model(reach, modelId, api === 'responses'),
      );
    return made.models.get(key);
  }
}

/**
 * The engine's messages (OpenAI's shapes) as the AI SDK's prompt, with the thinking `carried` keeps,
 * and to an Anthropic model the web searches it ran.
 */
function toPrompt(
  messages: readonly ChatMessage[],
  carried: ((b: ThinkingBlock) => boolean) | undefined,
  anthropic: boolean,
  toolImages: boolean,
): LanguageModelV4Prompt {
  const toolNames = new Map<string, string>();
  const prompt: LanguageModelV4Prompt = [];
  // The images and PDFs of tool results, for an API whose tool results are text only: they follow the
  // results in a message of their own (its package would write their bytes into the result's text).
  const attached: LanguageModelV4FilePart[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' && attached.length) prompt.push({ role: 'user', content: attached.splice(0) });
    prompt.push({ ...asPromptMessage(m), ...cacheOptions(m) });
  }
  if (attached.length) prompt.push({ role: 'user', content: attached });
  return prompt;

  function asPromptMessage(m: ChatMessage): LanguageModelV4Prompt[number] {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: textOf(m.content) };
      case 'user':
        return { role: 'user', content: userParts(m.content) };
      case 'assistant': {
        const text = textOf(m.content);
        const kept = carried ? (m.thinking ?? []).filter(carried) : [];
        const calls = (m.tool_calls ?? []).map((c) => {
          toolNames.set(c.id, c.function.name);
          // A Gemini model's thought signature goes back with the call it came with.
          const signed = kept.find((b) => 'call' in b && b.call === c.id);
          return {
            type: 'tool-call' as const,
            toolCallId: c.id,
            toolName: c.function.name,
            input: parseArguments(c.function.arguments),
            ...(signed && 'call' in signed
              ? { providerOptions: { google: { thoughtSignature: signed.geminiSignature } } }
              : {}),
          };
        });
        // The model's own thinking goes back first, as it gave it (signed, or encrypted by OpenAI), then
        // its text with the searches it ran where it ran them. OpenAI refuses a reasoning item that
        // nothing follows ("provided without its required following item"), as in a turn whose client
        // kept only the thinking (its call dropped): such a turn's OpenAI items are left out.
        const followed = !!text || calls.length > 0;
        const thought = (followed ? kept : kept.filter(isAnthropicBlock)).flatMap(reasoningParts);
        const written = textAndWebTools<LanguageModelV4TextPart | WebToolPart>(
          text,
          anthropic ? (m.webTools ?? []).filter(ranAtAnthropic) : [],
          (piece) => [{ type: 'text', text: piece }],
          webToolParts,
        );
        return { role: 'assistant', content: [...thought, ...written, ...calls] };
      }
      case 'tool':
        if (!toolImages && Array.isArray(m.content))
          attached.push(...userParts(m.content).filter((part) => part.type === 'file'));
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.tool_call_id,
              toolName: toolNames.get(m.tool_call_id) ?? '',
              output: toolImages ? toolOutput(m.content) : textOutput(m.content),
            },
          ],
        };
    }
  }
}

type WebToolPart = LanguageModelV4ToolCallPart | LanguageModelV4ToolResultPart;

/**
 * A web search or fetch an Anthropic model ran, as Anthropic's package sends it back: the call, then
 * what it found or read (an error by its code).
 */
function webToolParts(use: WebToolUse): WebToolPart[] {
  const call = { toolCallId: use.id, toolName: use.name };
  return [
    { type: 'tool-call', ...call, input: use.input, providerExecuted: true },
    { type: 'tool-result', ...call, output: webToolOutput(use) },
  ];
}

/** What a web search found or a web fetch read, as the result Anthropic's package takes back. */
function webToolOutput(use: WebToolUse): LanguageModelV4ToolResultPart['output'] {
  const failed = (code: string) => ({ type: 'error-json' as const, value: { errorCode: code } });
  if (use.name === 'web_search') {
    const found = use.results;
    if (!Array.isArray(found)) return failed(found.error_code);
    return {
      type: 'json',
      value: found.map((r) => ({
        type: r.type,
        url: r.url,
        title: r.title,
        pageAge: r.page_age,
        encryptedContent: r.encrypted_content,
      })),
    };
  }
  const read = use.results;
  if ('error_code' in read) return failed(read.error_code);
  const { source } = read.content;
  return {
    type: 'json',
    value: {
      type: read.type,
      url: read.url,
      retrievedAt: read.retrieved_at,
      content: {
        type: read.content.type,
        title: read.content.title,
        ...(read.content.citations ? { citations: read.content.citations } : {}),
        source: { type: source.type, mediaType: source.media_type, data: source.data },
      },
    },
  };
}

/**
 * Thinking as the provider's package sends it back: an Anthropic block's text and signature, or the
 * redacted data; an OpenAI reasoning item as one part for each part of its summary (at least one), each
 * naming the item and its encrypted reasoning, which OpenAI's package joins into the item again; a web
 * search an OpenAI model ran as its call and result, which the package makes its item again (one that
 * failed, of which OpenAI's package keeps nothing to send, is left out).
 */
function reasoningParts(
  block: ThinkingBlock,
): Array<LanguageModelV4ReasoningPart | LanguageModelV4ToolCallPart | LanguageModelV4ToolResultPart> {
  if ('call' in block) return [];
  if ('webSearchCall' in block) {
    const id = block.webSearchCall;
    return block.failed
      ? []
      : [
          { type: 'tool-call', toolCallId: id, toolName: 'web_search', input: {}, providerExecuted: true },
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'web_search',
            output: { type: 'json', value: block.result as never },
          },
        ];
  }
  if ('minimaxThinking' in block)
    return [
      {
        type: 'reasoning',
        text: block.minimaxThinking,
        providerOptions: { anthropic: { signature: block.signature } },
      },
    ];
  if ('item' in block) {
    // Azure's package reads the item under its own name, OpenAI's under its (the block goes back only
    // to the model that wrote it, of one of them).
    const item = { itemId: block.item, reasoningEncryptedContent: block.encrypted };
    return (block.summary.length ? block.summary : ['']).map((text) => ({
      type: 'reasoning',
      text,
      providerOptions: { openai: item, azure: item },
    }));
  }
  return [
    'redacted' in block
      ? { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: block.redacted } } }
      : { type: 'reasoning', text: block.thinking, providerOptions: { anthropic: { signature: block.signature } } },
  ];
}

/**
 * A prompt-cache breakpoint as Anthropic's package reads it (on a message: after its last part). Other
 * providers' packages leave it alone; OpenAI's and Gemini's cache long prompts by themselves.
 */
const cacheOptions = (marked: { cache_control?: CacheControl }): { providerOptions?: SharedV4ProviderOptions } =>
  marked.cache_control ? { providerOptions: { anthropic: { cacheControl: marked.cache_control } } } : {};

/**
 * What a tool gave back, as the provider packages take it: its text, or its text, images and PDFs as
 * parts, for an API that takes them in a tool's result (toPrompt says which).
 */
function toolOutput(content: ChatMessage['content']): LanguageModelV4ToolResultPart['output'] {
  if (!Array.isArray(content) || !content.some((part) => part.type === 'image_url' || part.type === 'file'))
    return textOutput(content);
  return {
    type: 'content',
    value: userParts(content),
  };
}

/** A tool's result as text: its images and PDFs, if any, go to the model another way (toPrompt). */
function textOutput(content: ChatMessage['content']): LanguageModelV4ToolResultPart['output'] {
  const text = textOf(content);
  const shown = Array.isArray(content) && content.some((part) => part.type === 'image_url' || part.type === 'file');
  return {
    type: 'text',
    value: shown ? `${text}${text ? '\n' : ''}(The tool's images and documents follow in the next message.)` : text,
  };
}

function userParts(content: ChatMessage['content']): Array<LanguageModelV4TextPart | LanguageModelV4FilePart> {
  if (content === null || typeof content === 'string') return [{ type: 'text', text: content ?? '' }];
  return content.flatMap((part): Array<LanguageModelV4TextPart | LanguageModelV4FilePart> => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    const file = part.file as { file_data?: unknown; filename?: string } | undefined;
    if (part.type === 'file' && typeof file?.file_data === 'string' && file.file_data.startsWith(PDF_DATA))
      return [
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'data', data: file.file_data.slice(PDF_DATA.length) },
          ...(file.filename ? { filename: file.filename } : {}),
        },
      ];
    const image = part.image_url as { url?: unknown; detail?: ImageDetail } | undefined;
    const url = image?.url;
    if (part.type !== 'image_url' || typeof url !== 'string') return [];
    const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    // The detail the client asked for, as OpenAI's and Azure's packages read it (others read no detail).
    const detail = image?.detail ? { imageDetail: image.detail } : undefined;
    return [
      {
        ...(inline
          ? { type: 'file', mediaType: inline[1]!, data: { type: 'data', data: inline[2]! } }
          : { type: 'file', mediaType: 'image/*', data: { type: 'url', url: new URL(url) } }),
        ...(detail ? { providerOptions: { openai: detail, azure: detail } } : {}),
      },
    ];
  });
}

/** A tool call's arguments as an object (a model may have written something that is not JSON). */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}

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
function anthropicThinking(
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
function switchedThinking(options: ToolOptions, on: 'enabled' | undefined): AnthropicThinking | undefined {
  const asked = options.thinking;
  const effort = options.reasoningEffort;
  if (!asked && !effort) return undefined;
  const off = asked ? asked.type === 'disabled' : effort === 'none';
  const type = off ? 'disabled' : on;
  return { ...(type ? { thinking: { type } } : {}), withoutEffort: true };
}

/**
 * Providers whose API takes system instructions only at the start of a conversation: Gemini's (at
 * Google and Vertex AI) and Bedrock's Converse API (their packages refuse a later one), and MiniMax's
 * Anthropic-compatible API and Bedrock's and Vertex AI's Anthropic Messages API, which know no
 * mid-conversation system message (Anthropic's beta). Claude Code sends its environment so to a model it does not know.
 */
const SYSTEM_AT_START = new Set(['google', 'minimax', 'bedrock', 'vertex']);

/** The conversation with its later system messages joined to the first (SYSTEM_AT_START). */
function systemFirst(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const first = messages.findIndex((m) => m.role !== 'system');
  if (first < 0 || !messages.some((m, i) => i > first && m.role === 'system')) return messages;
  const system = messages.filter((m) => m.role === 'system');
  const marked = system.findLast((m) => m.cache_control)?.cache_control;
  return [
    {
      role: 'system',
      content: system.map((m) => textOf(m.content)).join('\n\n'),
      ...(marked ? { cache_control: marked } : {}),
    },
    ...messages.filter((m) => m.role !== 'system'),
  ];
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
function withinRange(
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
 * What only OpenAI's packages read: a JSON schema is strict only when the request says so, as on
 * OpenAI's own API (they would make every schema strict, and a provider then refuses one that is not
 * written for strict mode); the token probabilities asked for; the prompt's cache key and verbosity;
 * and, for OpenAI's reasoning models (its Responses API, providers.ts), that OpenAI keeps no copy of
 * the conversation (the Responses API keeps one unless told not to; Chat Completions does not).
 * One tool call a reply is asked in each provider's own words (others are held to it in chat/run.ts),
 * and how an Anthropic model thinks where that is said (anthropicThinking).
 */
function providerOptions(
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
    // effort, which an organization OpenAI has not verified is refused), or none.
    ...(responses
      ? { store: false, reasoningSummary: responses.summaries ? (options.reasoningSummary ?? 'auto') : null }
      : {}),
    ...(responses && responses.maxToolCalls !== undefined ? { maxToolCalls: responses.maxToolCalls } : {}),
    ...(format?.type === 'json_schema' ? { strictJsonSchema: format.json_schema.strict === true } : {}),
    // Token probabilities, with so many alternatives of each (OpenAI's package reads them).
    ...(options.logprobs !== undefined ? { logprobs: options.logprobs > 0 ? options.logprobs : true } : {}),
    ...(options.promptCacheKey ? { promptCacheKey: options.promptCacheKey } : {}),
    ...(options.verbosity ? { textVerbosity: options.verbosity } : {}),
    ...(options.parallelToolCalls === false ? { parallelToolCalls: false } : {}),
  };
  // Anthropic's package's own: one tool call a reply, and how the model thinks (MiniMax's API, which it
  // also speaks, takes both and no other).
  const anthropicOwn = {
    ...(options.parallelToolCalls === false ? { disableParallelToolUse: true } : {}),
    ...(thinking ? { thinking } : {}),
  };
  const own =
    provider === 'anthropic'
      ? { ...openai, ...anthropicOwn }
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
 * The request's tools as the AI SDK's, with the web search asked of a model whose provider runs it
 * (`searchAt`): Anthropic's (and its web fetch) for an Anthropic model, OpenAI's (`openAiSearch`) for
 * an OpenAI reasoning model, Google Search for a Gemini model; the other vendor's search asked
 * (`tellAs`) is run as this one's.
 */
function toolOptions(
  options: ToolOptions,
  searchAt: 'anthropic' | 'openai' | 'google' | undefined,
  tellAs: TellSearches,
  openAiSearch: ToolOptions['openAiWebSearch'],
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
        ]
      : openAiSearch
        ? [openAiSearchTool(openAiSearch)]
        : searchAt === 'google'
          ? [GOOGLE_SEARCH_TOOL]
          : [];
  if (!options.tools?.length && !search.length)
    return { ...sampling(options), ...(stop ? { stopSequences: stop } : {}) };
  return {
    ...sampling(options),
    tools: [
      ...(options.tools ?? []).map((t) => ({
        type: 'function' as const,
        name: t.function.name,
        description: t.function.description,
        inputSchema: (t.function.parameters ?? { type: 'object', properties: {} }) as never,
        ...cacheOptions(t),
      })),
      ...search,
    ],
    toolChoice: toolChoiceOf(options.toolChoice),
    ...(stop ? { stopSequences: stop } : {}),
  };
}

/** Anthropic's web search or fetch as its package's provider tool, with how far the model may go. */
const anthropicWebTool = (name: WebToolUse['name'], { type, ...args }: WebSearchAsked | WebFetchAsked) => ({
  type: 'provider' as const,
  id: `anthropic.${type}` as const,
  name,
  args,
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
const openAiSearchOf = ({
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

/**
 * A model that stopped with an error before it answered: its provider answered, so this is no sign of
 * an outage (it does not count towards the provider's cooldown), but there is no answer to give.
 */
class ModelStopped extends ReachFailure {
  constructor(reason: string | undefined) {
    super(`the model stopped with an error before it answered (${reason ?? 'no reason given'})`, 502);
  }
}

/**
 * Why the model stopped, in OpenAI's words: its provider's safety filter (Azure's content filter,
 * Anthropic's refusal, Gemini's safety stop) as `content_filter`. A model that stopped with an error
 * before any text or call (Cohere's `ERROR`, Gemini's malformed function call) did not answer: a
 * failure, retried and failed over as one, rather than an empty answer.
 */
function finishOf(reason: LanguageModelV4FinishReason, toolCalls: ToolCall[], text: string): Reply['finishReason'] {
  if (toolCalls.length > 0 || reason.unified === 'tool-calls') return 'tool_calls';
  if (reason.unified === 'error' && !text) throw new ModelStopped(reason.raw);
  return reason.unified === 'length' ? 'length' : reason.unified === 'content-filter' ? 'content_filter' : 'stop';
}

/** Whether Anthropic paused the turn for the client to send back (the AI SDK reads its pause_turn as a stop). */
const pausedOf = (reason: LanguageModelV4FinishReason): Pick<Reply, 'paused'> =>
  reason.raw === 'pause_turn' ? { paused: true } : {};

/**
 * The provider's own counts: input (with what was read from and written to its cache), output. Cohere
 * bills its `billed_units`, which leave out the tokens of the prompt template it adds (its package
 * reads the tokens it processed).
 */
function usageOf(usage: LanguageModelV4Usage | undefined): Reply['usage'] {
  const billed = (usage?.raw as { billed_units?: { input_tokens?: unknown; output_tokens?: unknown } } | undefined)
    ?.billed_units;
  const billedAs = (count: unknown, read: number | undefined) => (typeof count === 'number' ? count : read);
  const input = billedAs(billed?.input_tokens, usage?.inputTokens.total);
  const output = billedAs(billed?.output_tokens, usage?.outputTokens.total);
  if (input === undefined && output === undefined) return undefined;
  const cacheWrites = usage?.inputTokens.cacheWrite ?? 0;
  // Anthropic's own usage splits its writes by how long they are kept; an hour costs more.
  const hour = (usage?.raw as { cache_creation?: { ephemeral_1h_input_tokens?: unknown } } | undefined)?.cache_creation
    ?.ephemeral_1h_input_tokens;
  return {
    input: input ?? 0,
    output: output ?? 0,
    cachedInput: usage?.inputTokens.cacheRead ?? 0,
    cacheWrites,
    hourCacheWrites: typeof hour === 'number' ? Math.min(Math.max(0, hour), cacheWrites) : 0,
  };
}

/** The token probabilities OpenAI's package hands back in its metadata. */
function logprobsOf(metadata: unknown): Pick<Reply, 'logprobs'> {
  const list = (metadata as { openai?: { logprobs?: unknown } } | undefined)?.openai?.logprobs;
  return Array.isArray(list) ? { logprobs: list } : {};
}

/**
 * What of a model's reasoning is kept to go back to it: an Anthropic model's signed blocks, or the
 * reasoning items of the OpenAI reasoning model named, the thought signatures of the Gemini model named,
 * or the signed blocks of the MiniMax model named; none of any other model's.
 */
type Kept = 'anthropic' | { provider: 'openai' | 'azure' | 'google' | 'minimax'; model: string } | undefined;

/** Which of the thinking sent back in a conversation goes to the model that `kept` names. */
function carriedBack(kept: Kept): ((b: ThinkingBlock) => boolean) | undefined {
  if (kept === 'anthropic') return isAnthropicBlock;
  if (!kept) return undefined;
  return (b) =>
    !isAnthropicBlock(b) &&
    b.model === kept.model &&
    (kept.provider === 'google'
      ? 'call' in b
      : kept.provider === 'minimax'
        ? 'minimaxThinking' in b
        : 'item' in b || 'webSearchCall' in b);
}

/** A MiniMax model's block of thinking with its signature (Anthropic's package says it as Anthropic's), to go back to that model. */
function miniMaxSigned(text: string, metadata: unknown, kept: Kept): MiniMaxThinking | undefined {
  if (kept === 'anthropic' || kept?.provider !== 'minimax') return undefined;
  const { signature } = anthropicSigned(metadata);
  return signature ? { minimaxThinking: text, signature, model: kept.model } : undefined;
}

/** A Gemini model's thought signature on a call it made, as Google's package says it, to go back with the call. */
function geminiSigned(
  call: { toolCallId: string; providerMetadata?: unknown },
  kept: Kept,
): GeminiSignature | undefined {
  if (kept === 'anthropic' || kept?.provider !== 'google') return undefined;
  // Google's package says it under Google's name, or through Vertex AI under Vertex's.
  const metadata = call.providerMetadata as
    Record<'google' | 'googleVertex', { thoughtSignature?: unknown } | undefined> | undefined;
  const said = (metadata?.google ?? metadata?.googleVertex)?.thoughtSignature;
  return typeof said === 'string' && said
    ? { call: call.toolCallId, geminiSignature: said, model: kept.model }
    : undefined;
}

/**
 * An OpenAI reasoning item's id and encrypted reasoning, as OpenAI's package says them of a reasoning
 * part (Azure's package under its own name); none for another provider's.
 */
function openAiItem(metadata: unknown, kept: Kept): { id?: string; encrypted?: string } {
  if (kept === 'anthropic' || (kept?.provider !== 'openai' && kept?.provider !== 'azure')) return {};
  const said = (metadata as Record<string, { itemId?: unknown; reasoningEncryptedContent?: unknown }> | undefined)?.[
    kept.provider
  ];
  return {
    ...(typeof said?.itemId === 'string' ? { id: said.itemId } : {}),
    ...(typeof said?.reasoningEncryptedContent === 'string' ? { encrypted: said.reasoningEncryptedContent } : {}),
  };
}

/**
 * A whole reply. An Anthropic model's thinking comes as signed blocks; any other model's reasoning
 * (DeepSeek's, Grok's, Gemini's thoughts, an OpenAI model's summary) as text to show, which nobody
 * signed; and, to go back, an OpenAI reasoning model's items as OpenAI encrypted them and a Gemini
 * model's thought signatures with their calls.
 */
async function whole(
  result: ReturnType<LanguageModelV4['doGenerate']>,
  kept: Kept,
  tellAs: TellSearches,
  google: GoogleSearch | undefined,
): Promise<Reply> {
  const { content, finishReason, usage, providerMetadata } = await result;
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  const items = new Map<string, OpenAiReasoning>();
  // An OpenAI model's searches are part of its reasoning, in their place; an Anthropic model's stand apart.
  const webTools = new WebTools(
    kept,
    (use) => {
      if ('webSearchCall' in use) thinking.push(use);
      else if (text) use.after = text.length;
    },
    tellAs,
    google,
  );
  // A Gemini model searched before it answered: its search comes first.
  webTools.grounded(providerMetadata);
  const cited: Cited[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      const from = text.length;
      text += part.text;
      cited.push(...citedOf(part.providerMetadata, from, text.length));
    }
    if ((part.type === 'tool-call' || part.type === 'tool-result') && webTools.took(part)) continue;
    if (part.type === 'tool-call') {
      toolCalls.push(toolCallOf(part.toolCallId, part.toolName, part.input));
      const signed = geminiSigned(part, kept);
      if (signed) thinking.push(signed);
    }
    if (part.type === 'reasoning' && kept !== 'anthropic') {
      // Each part of an OpenAI model's summary is a paragraph of its own.
      if (part.text) reasoning += (reasoning ? '\n\n' : '') + part.text;
      const block = miniMaxSigned(part.text, part.providerMetadata, kept);
      if (block) thinking.push(block);
      const { id, encrypted } = openAiItem(part.providerMetadata, kept);
      if (id === undefined || encrypted === undefined) continue;
      let item = items.get(id);
      if (!item) {
        item = { item: id, summary: [], encrypted, model: kept!.model };
        items.set(id, item);
        thinking.push(item);
      }
      if (part.text) item.summary.push(part.text);
    } else if (part.type === 'reasoning') {
      const { redacted, signature } = anthropicSigned(part.providerMetadata);
      if (redacted !== undefined) thinking.push({ redacted });
      else if (signature) thinking.push({ thinking: part.text, signature });
    }
  }
  cited.push(...webTools.groundedCited(text));
  return {
    text,
    finishReason: finishOf(finishReason, toolCalls, text),
    ...pausedOf(finishReason),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(thinking.length ? { thinking } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...webTools.ran(),
    ...(cited.length ? { cited } : {}),
    usage: usageOf(usage),
    ...logprobsOf(providerMetadata),
  };
}

/**
 * Whose words a model's web searches are told to the client in, when the client asked the other
 * vendor's search: Anthropic's (Claude Code's search on an OpenAI model), or OpenAI's (Codex's on an
 * Anthropic model, with that model's name, which its searches carry).
 */
type TellSearches = 'anthropic' | { openai: string } | undefined;

/**
 * The web searches (and an Anthropic model's web fetches) a model ran at its provider, as the
 * provider's package tells of them: a call the provider ran (not one for the client), then its result,
 * by the call's id. An Anthropic model's are the answer's own; an OpenAI reasoning model's searches,
 * part of its reasoning to go back to it (`kept`).
 */
class WebTools {
  private readonly calls = new Map<string, Record<string, unknown>>();
  private readonly done: WebToolUse[] = [];
  /** The searches that ran, which the provider bills (a failed one is not billed; a fetch costs its tokens only). */
  private billed = 0;

  constructor(
    private readonly kept: Kept,
    /** Hears of each search or fetch once it is whole. */
    private readonly onUse: (use: WebToolUse | OpenAiSearch) => void,
    /** A search asked in the other vendor's words: each is told in those words too. */
    private readonly tellAs: TellSearches = undefined,
    /** A Gemini model's Google Search, told of with the reply's end. */
    private readonly google?: GoogleSearch,
  ) {}

  /** What Google said of a Gemini model's search (its grounding metadata), once it said it. */
  private grounding: Record<string, unknown> | undefined;
  /** Google's Search Suggestions for that search (its HTML), which are to be shown with the answer. */
  private suggestions: string | undefined;

  /** Takes a part that tells of a search or fetch (true). */
  took(part: LanguageModelV4ToolCall | LanguageModelV4ToolResult): boolean {
    const name = part.toolName;
    // A tool Google ran for a Gemini 3 model beside the client's (Google's package names it `server:`
    // and its type, a name no client's tool can have): what it found comes with the reply's end.
    if (this.google && name.startsWith('server:')) return true;
    if (name !== 'web_search' && !(name === 'web_fetch' && this.kept === 'anthropic')) return false;
    if (part.type === 'tool-call') {
      if (!part.providerExecuted) return false;
      this.calls.set(part.toolCallId, objectOf(parseArguments(part.input)));
      return true;
    }
    const input = this.calls.get(part.toolCallId);
    if (!input) return false;
    if (!part.isError && name === 'web_search') this.billed++;
    if (this.kept !== 'anthropic' && this.kept?.provider === 'openai') {
      const result = objectOf(part.result);
      this.onUse({
        webSearchCall: part.toolCallId,
        result,
        ...(part.isError ? { failed: typeof result.status === 'string' ? result.status : 'failed' } : {}),
        model: this.kept.model,
      });
      const told = this.tellAs === 'anthropic' ? toldAsAnthropic(part.toolCallId, result, part.isError) : undefined;
      if (told) {
        this.done.push(told);
        this.onUse(told);
      }
      return true;
    }
    const use: WebToolUse =
      name === 'web_search'
        ? { id: part.toolCallId, input, name, results: searchResultsOf(part.result, part.isError) }
        : { id: part.toolCallId, input, name, results: fetchResultOf(part.result, part.isError) };
    this.done.push(use);
    this.onUse(use);
    if (typeof this.tellAs === 'object' && use.name === 'web_search') this.onUse(toldAsOpenAi(use, this.tellAs.openai));
    return true;
  }

  /**
   * The Google Search a Gemini model ran, as Google's package tells of it with the reply's end (its
   * grounding metadata): the queries, and the pages found, told as one search in the words asked
   * (Google does not say which query found which page). Google bills a Gemini 3 model's each query,
   * an earlier model's the prompt once. `read` is called once it is read, before it is told.
   */
  grounded(metadata: unknown, read?: () => void): void {
    if (!this.google || !this.tellAs) return;
    const grounding = Object.values(objectOf(metadata))
      .map((said) => objectOf(objectOf(said).groundingMetadata))
      .find((g) => Array.isArray(g.webSearchQueries));
    const queries = ((grounding?.webSearchQueries as unknown[] | undefined) ?? []).filter(
      (q): q is string => typeof q === 'string' && q !== '',
    );
    if (!grounding || !queries.length) return;
    this.grounding = grounding;
    const suggestions = objectOf(grounding.searchEntryPoint).renderedContent;
    if (typeof suggestions === 'string' && suggestions) this.suggestions = suggestions;
    read?.();
    this.billed += this.google.gemini3 ? queries.length : 1;
    const use: WebToolUse = {
      id: `gsearch_${randomBytes(12).toString('hex')}`,
      name: 'web_search',
      input: { query: queries.join('; ') },
      results: this.groundingPages().map((page) => ({
        type: 'web_search_result',
        url: page.url,
        title: page.title,
        page_age: null,
        encrypted_content: '',
      })),
    };
    if (this.tellAs !== 'anthropic') return this.onUse(toldAsOpenAi(use, this.tellAs.openai));
    this.done.push(use);
    this.onUse(use);
  }

  /** The pages a Gemini model's search found, in Google's order (its supports name them by their place). */
  private groundingPages(): Array<{ url: string; title: string }> {
    const chunks = this.grounding?.groundingChunks;
    return (Array.isArray(chunks) ? chunks : []).map((chunk: unknown) => {
      const page = objectOf(objectOf(chunk).web);
      const url = typeof page.uri === 'string' ? page.uri : '';
      return { url, title: typeof page.title === 'string' && page.title ? page.title : url };
    });
  }

  /**
   * The stretches of a Gemini model's text that its search grounds (Google's supports), each with the
   * pages it rests on. Each is found in the text by what Google says it is: Google places it in bytes
   * of one part of the answer, not in characters of the whole.
   */
  groundedCited(text: string): Cited[] {
    const supports = this.grounding?.groundingSupports;
    if (!Array.isArray(supports)) return [];
    const pages = this.groundingPages();
    let from = 0;
    return supports.flatMap((support: unknown): Cited[] => {
      const said = objectOf(objectOf(support).segment).text;
      const indices = objectOf(support).groundingChunkIndices;
      const at = typeof said === 'string' && said ? text.indexOf(said, from) : -1;
      if (at < 0 || !Array.isArray(indices)) return [];
      from = at + (said as string).length;
      const cited = indices.flatMap((i): CitedPage[] => {
        const page = typeof i === 'number' ? pages[i] : undefined;
        return page?.url ? [{ ...page, citedText: said as string }] : [];
      });
      return cited.length ? [{ from: at, to: from, pages: cited }] : [];
    });
  }

  ran(): Pick<Reply, 'webTools' | 'webSearches' | 'searchSuggestions'> {
    return {
      ...(this.done.length ? { webTools: this.done } : {}),
      ...(this.billed ? { webSearches: this.billed } : {}),
      ...(this.suggestions ? { searchSuggestions: this.suggestions } : {}),
    };
  }
}

/**
 * Whether Anthropic ran a web search or fetch sent back (its ids begin `srvtoolu_`): one an OpenAI model
 * ran (told in Anthropic's words, below) has no encrypted pages for an Anthropic model to read again.
 */
const ranAtAnthropic = (use: WebToolUse) => use.id.startsWith('srvtoolu_');

/**
 * A search an OpenAI model ran, as Anthropic's client reads one: the query, and the pages OpenAI found
 * (their addresses; OpenAI gives no title or content of a page, so no `encrypted_content`, and such a
 * search never goes back to an Anthropic model). Its other actions (opening a page, finding in it) have
 * no counterpart there: they stay part of the model's reasoning only.
 */
function toldAsAnthropic(
  id: string,
  result: Record<string, unknown>,
  isError: boolean | undefined,
): WebToolUse | undefined {
  const action = objectOf(result.action);
  if (action.type !== 'search') return undefined;
  const pages = Array.isArray(result.sources) ? result.sources : [];
  return {
    id,
    name: 'web_search',
    input: { query: typeof action.query === 'string' ? action.query : '' },
    results: isError
      ? { error_code: 'unavailable' }
      : pages.flatMap((page: unknown): WebSearchResult[] => {
          const url = objectOf(page).url;
          return typeof url === 'string'
            ? [{ type: 'web_search_result', url, title: url, page_age: null, encrypted_content: '' }]
            : [];
        }),
  };
}

/**
 * A search an Anthropic model ran, as OpenAI's client reads one (a `web_search_call`): the query, and
 * the addresses of the pages found, as OpenAI's package gives them; part of the model's reasoning, as
 * OpenAI's searches are, which carries it nowhere (an Anthropic model gets back its own blocks only).
 */
function toldAsOpenAi(use: WebToolUse, model: string): OpenAiSearch {
  const pages = 'error_code' in use.results ? undefined : (use.results as WebSearchResult[]);
  return {
    webSearchCall: use.id,
    result: {
      action: { type: 'search', query: use.input.query },
      ...(pages ? { sources: pages.map((page) => ({ type: 'url', url: page.url })) } : {}),
    },
    ...(pages ? {} : { failed: 'failed' }),
    model,
  };
}

const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Anthropic's error code of a server tool's result, as its package says it (unavailable when it says none). */
const errorOf = (result: unknown) => {
  const code = (result as { errorCode?: unknown } | null)?.errorCode;
  return { error_code: typeof code === 'string' ? code : 'unavailable' };
};

/** What Anthropic's package says a web search found, back in Anthropic's words; an error as its code. */
function searchResultsOf(result: unknown, isError: boolean | undefined): WebSearchResult[] | { error_code: string } {
  if (isError || !Array.isArray(result)) return errorOf(result);
  return result.flatMap((r: Record<string, unknown>): WebSearchResult[] =>
    typeof r?.url === 'string' && typeof r.encryptedContent === 'string'
      ? [
          {
            type: 'web_search_result',
            url: r.url,
            title: typeof r.title === 'string' ? r.title : null,
            page_age: typeof r.pageAge === 'string' ? r.pageAge : null,
            encrypted_content: r.encryptedContent,
          },
        ]
      : [],
  );
}

/** What Anthropic's package says a web fetch read, back in Anthropic's words; an error as its code. */
function fetchResultOf(result: unknown, isError: boolean | undefined): WebFetchResult | { error_code: string } {
  const read = objectOf(result);
  const content = objectOf(read.content);
  const source = objectOf(content.source);
  const citations = objectOf(content.citations).enabled;
  if (isError || typeof read.url !== 'string' || typeof source.data !== 'string') return errorOf(result);
  return {
    type: 'web_fetch_result',
    url: read.url,
    retrieved_at: typeof read.retrievedAt === 'string' ? read.retrievedAt : null,
    content: {
      type: 'document',
      title: typeof content.title === 'string' ? content.title : null,
      ...(typeof citations === 'boolean' ? { citations: { enabled: citations } } : {}),
      source:
        source.type === 'base64'
          ? { type: 'base64', media_type: 'application/pdf', data: source.data }
          : { type: 'text', media_type: 'text/plain', data: source.data },
    },
  };
}

/**
 * The pages a block of text cites, as the provider's package passes its citations on: Anthropic's for
 * the block (from its web search or fetch), OpenAI's url_citation annotations by their place in the
 * block.
 */
function citedOf(metadata: unknown, from: number, to: number): Cited[] {
  const said = objectOf(metadata);
  const anthropic = objectOf(said.anthropic).citations;
  const pages = (Array.isArray(anthropic) ? anthropic : []).flatMap((c: Record<string, unknown>): CitedPage[] => {
    if (c?.type === 'web_search_result_location' && typeof c.url === 'string')
      return [
        {
          url: c.url,
          title: typeof c.title === 'string' ? c.title : null,
          ...(typeof c.cited_text === 'string' ? { citedText: c.cited_text } : {}),
          ...(typeof c.encrypted_index === 'string' ? { encryptedIndex: c.encrypted_index } : {}),
        },
      ];
    // A passage of a page the model's web fetch read.
    if (
      c?.type === 'char_location' &&
      typeof c.document_index === 'number' &&
      typeof c.start_char_index === 'number' &&
      typeof c.end_char_index === 'number'
    )
      return [
        {
          documentIndex: c.document_index,
          documentTitle: typeof c.document_title === 'string' ? c.document_title : null,
          citedText: typeof c.cited_text === 'string' ? c.cited_text : '',
          startChar: c.start_char_index,
          endChar: c.end_char_index,
        },
      ];
    return [];
  });
  const openAi = [objectOf(said.openai).annotations, objectOf(said.azure).annotations].flatMap((a) =>
    Array.isArray(a) ? (a as Array<Record<string, unknown>>) : [],
  );
  const annotated = openAi.flatMap((a): Cited[] =>
    a?.type === 'url_citation' &&
    typeof a.url === 'string' &&
    typeof a.start_index === 'number' &&
    typeof a.end_index === 'number' &&
    a.start_index <= a.end_index &&
    from + a.end_index <= to
      ? [
          {
            from: from + a.start_index,
            to: from + a.end_index,
            pages: [{ url: a.url, title: typeof a.title === 'string' ? a.title : null }],
          },
        ]
      : [],
  );
  return [...(pages.length ? [{ from, to, pages }] : []), ...annotated];
}

/** What Anthropic's package says of a piece of thinking: its signature, or a redacted block's data. */
function anthropicSigned(metadata: unknown): { signature?: string; redacted?: string } {
  const said = (metadata as { anthropic?: { signature?: unknown; redactedData?: unknown } } | undefined)?.anthropic;
  return {
    ...(typeof said?.signature === 'string' ? { signature: said.signature } : {}),
    ...(typeof said?.redactedData === 'string' ? { redacted: said.redactedData } : {}),
  };
}

/**
 * A streamed reply: its text to `onDelta` as it comes, and an Anthropic model's thinking to `onThinking`
 * (text, then the block's signature; a redacted block whole), or any other model's reasoning as text
 * nobody signed; an OpenAI reasoning model's item follows its summary, whole, once it ends, and a Gemini
 * model's thought signature comes with its call. `answering` hears of the first of either, or of a
 * model beginning to reason.
 */
async function streamed(
  result: ReturnType<LanguageModelV4['doStream']>,
  answering: () => void,
  onDelta: (text: string) => void,
  onThinking: ((piece: ThinkingPiece) => void) | undefined,
  kept: Kept,
  tellAs: TellSearches,
  google: GoogleSearch | undefined,
): Promise<Reply> {
  const { stream } = await result;
  const signed = kept === 'anthropic';
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  /** The thinking block under way, by the stream's id of it. */
  const open = new Map<string, string>();
  /** An OpenAI model's reasoning items, by their id, and the part of a summary each part of the stream is. */
  const items = new Map<string, OpenAiReasoning>();
  const summaryParts = new Map<string, { item: OpenAiReasoning; at: number }>();
  const think = (piece: ThinkingPiece) => {
    answering();
    onThinking?.(piece);
  };
  const webTools = new WebTools(
    kept,
    (use) => {
      if (!('webSearchCall' in use)) return think({ webTool: use });
      thinking.push(use);
      think({ carried: use });
    },
    tellAs,
    google,
  );
  const cited: Cited[] = [];
  /** Where each block of text began in the reply's text, by the stream's id of it. */
  const textFrom = new Map<string, number>();
  let finish: { reason: LanguageModelV4FinishReason; usage: LanguageModelV4Usage; metadata: unknown } | undefined;
  for await (const part of stream) {
    // A model that says it began to reason is answering, however long it reasons before anything else
    // comes (OpenAI's reasoning models say nothing more until they are done, unless asked a summary).
    if (part.type === 'reasoning-start') answering();
    if (part.type === 'text-delta' && part.delta) {
      text += part.delta;
      answering();
      onDelta(part.delta);
    } else if (part.type === 'text-start') textFrom.set(part.id, text.length);
    else if (part.type === 'text-end') {
      // The pages a block cites come with its end. An Anthropic model's blocks end each where it ended them.
      const from = textFrom.get(part.id) ?? text.length;
      const pages = citedOf(part.providerMetadata, from, text.length);
      cited.push(...pages);
      // An OpenAI model's, told as Anthropic's: its text was streamed before the pages it cites came, so
      // they are the whole block's. A Gemini model's come with the stream's end: its block stays open.
      if ((signed || tellAs === 'anthropic') && (pages.length || !google))
        think({ cited: { from, to: text.length, pages: pages.flatMap((c) => c.pages) } });
    } else if (part.type === 'reasoning-start' && kept && !signed) {
      const { id } = openAiItem(part.providerMetadata, kept);
      if (id === undefined) continue;
      const item = items.get(id) ?? { item: id, summary: [], encrypted: '', model: kept.model };
      items.set(id, item);
      summaryParts.set(part.id, { item, at: item.summary.push('') - 1 });
    } else if (part.type === 'reasoning-delta' && !signed) {
      if (part.delta) {
        const slot = summaryParts.get(part.id);
        // Each part of an OpenAI model's summary is a paragraph of its own.
        const delta = slot && slot.item.summary[slot.at] === '' && reasoning ? `\n\n${part.delta}` : part.delta;
        if (slot) slot.item.summary[slot.at] += part.delta;
        reasoning += delta;
        think({ reasoning: delta });
      }
      // A MiniMax model's block: shown as it comes, and whole to go back once its signature came.
      const thought = (open.get(part.id) ?? '') + part.delta;
      const block = miniMaxSigned(thought, part.providerMetadata, kept);
      if (block) {
        open.delete(part.id);
        thinking.push(block);
        think({ carried: block });
      } else if (kept?.provider === 'minimax') open.set(part.id, thought);
    } else if (part.type === 'reasoning-end' && kept && !signed) {
      // The item's encrypted reasoning comes with its end (the ends of its summary's earlier parts lack it).
      const slot = summaryParts.get(part.id);
      const { encrypted } = openAiItem(part.providerMetadata, kept);
      if (!slot || encrypted === undefined || slot.item.encrypted) continue;
      const item = { ...slot.item, summary: slot.item.summary.filter(Boolean), encrypted };
      slot.item.encrypted = encrypted;
      thinking.push(item);
      think({ carried: item });
    } else if (part.type === 'reasoning-start' && signed) {
      const { redacted } = anthropicSigned(part.providerMetadata);
      if (redacted !== undefined) {
        thinking.push({ redacted });
        think({ redacted });
      } else open.set(part.id, '');
    } else if (part.type === 'reasoning-delta' && open.has(part.id)) {
      const { signature } = anthropicSigned(part.providerMetadata);
      if (part.delta) {
        open.set(part.id, open.get(part.id)! + part.delta);
        think({ thinking: part.delta });
      }
      if (signature) {
        thinking.push({ thinking: open.get(part.id)!, signature });
        open.delete(part.id);
        think({ signature });
      }
    } else if ((part.type === 'tool-call' || part.type === 'tool-result') && webTools.took(part)) continue;
    else if (part.type === 'tool-call') {
      toolCalls.push(toolCallOf(part.toolCallId, part.toolName, part.input));
      const signed = geminiSigned(part, kept);
      if (!signed) continue;
      thinking.push(signed);
      think({ carried: signed });
    } else if (part.type === 'finish')
      finish = { reason: part.finishReason, usage: part.usage, metadata: part.providerMetadata };
    else if (part.type === 'error') throw part.error;
  }
  if (!finish) throw new ReachFailure('the stream ended before the reply was complete');
  // What a Gemini model's search found comes with the stream's end, after the text it wrote. Told as
  // Anthropic's, the pages the text rests on are cited by its block, still open, before the search.
  webTools.grounded(finish.metadata, () => {
    const grounded = webTools.groundedCited(text);
    cited.push(...grounded);
    if (tellAs === 'anthropic' && grounded.length)
      think({ cited: { from: grounded[0]!.from, to: text.length, pages: grounded.flatMap((c) => c.pages) } });
  });
  return {
    text,
    finishReason: finishOf(finish.reason, toolCalls, text),
    ...pausedOf(finish.reason),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(thinking.length ? { thinking } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...webTools.ran(),
    ...(cited.length ? { cited } : {}),
    usage: usageOf(finish.usage),
    ...logprobsOf(finish.metadata),
  };
}

function toolCallOf(id: string, name: string, input: string): ToolCall {
  return { id, type: 'function', function: { name, arguments: input } };
}

/** A failed request in words: which provider, what it answered (never the key), and when to try again. */
export class ProviderFailure extends ReachFailure {
  constructor(
    message: string,
    status: number | undefined,
    unreachable: boolean,
    /** What a 429 or 503 said to wait. */
    readonly retryAfterMs: number | null,
  ) {
    super(message, status, unreachable);
  }
}

/**
 * The failure of a request not sent because its provider cools down (cooldown.ts), with how long it
 * still does; null when the provider may be asked (which, once the wait is over, makes this one the probe).
 */
export function notAskedWhileCooling(cooldown: Cooldown, provider: string, label: string): ProviderFailure | null {
  if (cooldown.allows(provider)) return null;
  const until = cooldown.coolingUntil(provider);
  return new ProviderFailure(
    `${label} is cooling down after repeated failures; not asked`,
    503,
    false,
    until === null ? null : until - Date.now(),
  );
}

/**
 * Azure's 404 for a model no deployment is named as: its models answer only through deployments named
 * as them. The key was taken.
 */
export class NoDeployment extends ProviderFailure {
  constructor(modelId: string, namespace: string) {
    super(
      `your Azure OpenAI resource has no deployment named ${modelId}: deploy the model under that name, or turn ${namespace} off in the Spaces that use it`,
      404,
      false,
      null,
    );
  }
}

export function failureOf(error: unknown, provider: ProviderName, secrets: string[]): ProviderFailure {
  const label = provider.label;
  const scrub = (text: string) => scrubbed(text, secrets);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryAfter = Number(error.responseHeaders?.['retry-after']);
    const retryAfterMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : null;
    if (status === 401 || status === 403)
      return new ProviderFailure(
        `the ${label} key was refused (HTTP ${status}): check it with Add Provider Key`,
        status,
        false,
        null,
      );
    if (status === 429 && outOfCredit(error))
      return new ProviderFailure(
        `${label} refused: the account has no credit left for this (HTTP 429: ${scrub(error.message).slice(0, 200)})${
          provider.plans
            ? `. A ${label} key answers only at its own plan's address: if it is for another plan, add it again and choose that plan`
            : ''
        }`,
        429,
        false,
        null,
      );
    if (status === 429)
      return new ProviderFailure(
        `${label} is rate limiting (HTTP 429${retryAfterMs !== null ? `, retry after ${retryAfter} s` : ''})`,
        429,
        false,
        retryAfterMs,
      );
    const said = scrub(error.message).slice(0, 300);
    if (status) return new ProviderFailure(`${label} answered HTTP ${status}: ${said}`, status, false, retryAfterMs);
    return new ProviderFailure(`${label} could not be reached: ${unreachable(error, said)}`, undefined, true, null);
  }
  if (error instanceof ReachFailure)
    return new ProviderFailure(scrub(error.message), error.status, error.unreachable, null);
  // The provider's package could not write the request in its API's terms: nothing was sent, and the
  // provider is not at fault (a 400: not counted against it).
  if (UnsupportedFunctionalityError.isInstance(error))
    return new ProviderFailure(
      `${label} cannot take this request as it is: ${scrub(error.functionality).slice(0, 200)}`,
      400,
      false,
      null,
    );
  const message = scrub((error as Error).message ?? String(error)).slice(0, 300);
  // Bedrock's package could not have the credentials to sign with (an AWS profile gone, its SSO login
  // expired): nothing was sent, and the provider is not at fault; said without the package's wrapping.
  const unsigned = NO_AWS_CREDENTIALS.exec(message);
  if (unsigned) return new ProviderFailure(`${label} was not asked: ${unsigned[1]}`, 401, false, null);
  return new ProviderFailure(`${label} could not be reached: ${unreachable(error, message)}`, undefined, true, null);
}

/** How Bedrock's package says the credentials it was given to sign with could not be had. */
const NO_AWS_CREDENTIALS = /^AWS credential provider failed: (.+?)\.? Please ensure your credential provider/s;

/**
 * The codes with which a provider's 429 says the account is out of credit rather than busy, which
 * waiting does not mend: OpenAI's `insufficient_quota`, Z.ai's 1113 (also its answer to a key of
 * another plan), each as its API reference lists it.
 */
const NO_CREDIT = new Set(['insufficient_quota', '1113']);

function outOfCredit(error: APICallError): boolean {
  try {
    const code = (JSON.parse(error.responseBody ?? '') as { error?: { code?: unknown } } | null)?.error?.code;
    return (typeof code === 'string' || typeof code === 'number') && NO_CREDIT.has(String(code));
  } catch {
    return false;
  }
}

/** Why a provider could not be reached, in words; the library's own text when no code says. */
const unreachable = (error: unknown, said: string) => networkWords(error, said) ?? said;

/** Takes the keys, and anything shaped like a key, out of a provider's text. */
export function scrubbed(text: string, secrets: string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 8) clean = clean.split(secret).join('[key]');
  return clean.replace(
    /\b(sk|sk-ant|gsk|xai|AIza)[-_A-Za-z0-9*.]{8,}|\bpa-[-_A-Za-z0-9]{8,}|\b[0-9a-f]{32}\.[A-Za-z0-9]{16}\b/g,
    '[key]',
  );
}
