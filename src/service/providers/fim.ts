// Text completions at the hosted providers that take them as they are, for code completion tools.
// Filling in the middle:
//   - Mistral's Codestral models: POST {base}/fim/completions with `prompt` and `suffix`, answered in
//     the shape of a chat completion (`message`, `delta`), `random_seed` for a seed;
//   - DeepSeek's V4 models: its beta text completion, POST /beta/completions (OpenAI's legacy shape,
//     `text`) with `suffix`, at most 4K tokens of answer.
// Continuing a prompt, without a suffix: Together AI, Fireworks and OpenRouter take any of their
// models on OpenAI's legacy POST {base}/completions, so a prompt a code completion tool wrote for the
// model's own fill-in-the-middle markers reaches it as written, not wrapped in a chat template.
// The AI SDK has no such model (its completion models write the prompt as a conversation, user: and
// assistant:, which would spoil a prompt written for fill-in-the-middle), so this is a LanguageModelV4
// of its own on the SDK's request helpers: the same fetch, errors (APICallError, with the provider's
// headers) and event-stream reading as the providers' packages, so that the hosted reach handles it
// as any other model (cooldown, timeouts, failures in words).
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import {
  createEventSourceResponseHandler,
  createJsonErrorResponseHandler,
  createJsonResponseHandler,
  postJsonToApi,
  type ParseResult,
} from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { CONTINUES_PROMPTS, fillsInMiddle } from '../../shared/models';
import { poolFetch } from './poolFetch';
import type { Reach } from './providers';

interface FimEndpoint {
  url: (baseURL: string) => string;
  /** What the provider calls a seed, where it takes one. */
  seed?: string;
  /** Its most tokens of answer. */
  maxTokens?: number;
  /** It reports a stream's usage only when asked (OpenAI's `stream_options`). */
  usageWhenAsked?: boolean;
}

/** Where each provider of the models that fill in the middle (fillsInMiddle) takes them. */
const FIM: Record<string, FimEndpoint> = {
  mistral: { url: (base) => `${base}/fim/completions`, seed: 'random_seed' },
  deepseek: {
    // Its beta features are under /beta instead of /v1 (a base URL of a proxy without /v1 gets /beta added).
    url: (base) => `${base.replace(/\/v1$/, '')}/beta/completions`,
    maxTokens: 4096,
    usageWhenAsked: true,
  },
};

/**
 * Where the providers that continue a prompt as it is (CONTINUES_PROMPTS) take it: OpenAI's legacy text
 * completion, which each documents. They report a stream's usage in its last chunk unasked.
 */
const CONTINUES: FimEndpoint = { url: (base) => `${base}/completions` };

/** The text after the cursor, given to the model through its call's provider options. */
export const fimOptions = (suffix: string | null) => ({ fim: { suffix } });

/**
 * The provider's model for a text completion, reached with this key at this base URL: the one that
 * fills in the middle, or one that continues the prompt as it is; undefined for another (a chat model
 * answers the prompt as a message).
 */
export function textModel(provider: string, reach: Reach, modelId: string): LanguageModelV4 | undefined {
  const fills = FIM[provider];
  if (fills && fillsInMiddle({ provider, model: modelId, api_target: modelId }))
    return new FimModel(provider, fills, reach, modelId);
  return CONTINUES_PROMPTS.has(provider) ? new FimModel(provider, CONTINUES, reach, modelId) : undefined;
}

/** A text of an answer: a string, or (Mistral's) a list of chunks of which the text ones count. */
const Content = z
  .union([z.string(), z.array(z.looseObject({ type: z.string().optional(), text: z.string().optional() }))])
  .nullish();

const Usage = z
  .looseObject({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    /** DeepSeek's input read from its cache. */
    prompt_cache_hit_tokens: z.number().nullish(),
  })
  .nullish();

/** Either provider's choice: DeepSeek's `text`, Mistral's `message` (or, streamed, `delta`). */
const Choice = z.looseObject({
  text: z.string().nullish(),
  message: z.looseObject({ content: Content }).nullish(),
  delta: z.looseObject({ content: Content }).nullish(),
  finish_reason: z.string().nullish(),
});

const Answer = z.looseObject({ choices: z.array(Choice), usage: Usage });

const ErrorBody = z.looseObject({
  message: z.unknown().optional(),
  error: z.looseObject({ message: z.unknown().optional() }).nullish(),
  detail: z.unknown().optional(),
});

/** What an error body says: OpenAI's `error.message` (DeepSeek), Mistral's `message` (a text or a list). */
function errorText(body: z.infer<typeof ErrorBody>): string {
  const said = body.error?.message ?? body.message ?? body.detail;
  return typeof said === 'string' ? said : JSON.stringify(said ?? body);
}

const textOf = (choice: z.infer<typeof Choice> | undefined): string => {
  if (!choice) return '';
  if (typeof choice.text === 'string') return choice.text;
  const content = choice.message?.content ?? choice.delta?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((c) => (c.type === undefined || c.type === 'text' ? (c.text ?? '') : '')).join('');
};

function usageOf(usage: z.infer<typeof Usage>): LanguageModelV4Usage {
  const cached = usage?.prompt_cache_hit_tokens ?? undefined;
  const input = usage?.prompt_tokens ?? undefined;
  return {
    inputTokens: {
      total: input,
      noCache: input !== undefined && cached !== undefined ? input - cached : input,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage?.completion_tokens ?? undefined, text: undefined, reasoning: undefined },
  };
}

const finishOf = (reason: string | null | undefined): LanguageModelV4FinishReason => ({
  unified: reason === 'length' || reason === 'model_length' ? 'length' : reason === 'stop' ? 'stop' : 'other',
  raw: reason ?? undefined,
});

class FimModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly supportedUrls = {};
  private readonly failed = createJsonErrorResponseHandler({ errorSchema: ErrorBody, errorToMessage: errorText });

  constructor(
    readonly provider: string,
    private readonly endpoint: FimEndpoint,
    private readonly reach: Reach,
    readonly modelId: string,
  ) {}

  /** The request: the last user message's text as the prompt, as it is, and the suffix its options give. */
  private body(options: LanguageModelV4CallOptions, stream: boolean): Record<string, unknown> {
    const user = options.prompt.findLast((m) => m.role === 'user');
    const prompt = (user?.role === 'user' ? user.content : [])
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    const suffix = (options.providerOptions?.fim as { suffix?: unknown } | undefined)?.suffix;
    const most = this.endpoint.maxTokens;
    const maxTokens = options.maxOutputTokens;
    return {
      model: this.modelId,
      prompt,
      ...(typeof suffix === 'string' ? { suffix } : {}),
      ...(maxTokens !== undefined ? { max_tokens: most ? Math.min(maxTokens, most) : maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.topP !== undefined ? { top_p: options.topP } : {}),
      ...(options.stopSequences?.length ? { stop: options.stopSequences } : {}),
      ...(options.seed !== undefined && this.endpoint.seed ? { [this.endpoint.seed]: options.seed } : {}),
      stream,
      ...(stream && this.endpoint.usageWhenAsked ? { stream_options: { include_usage: true } } : {}),
    };
  }

  private post<T>(
    body: Record<string, unknown>,
    options: LanguageModelV4CallOptions,
    read: Parameters<typeof postJsonToApi<T>>[0]['successfulResponseHandler'],
  ) {
    return postJsonToApi<T>({
      url: this.endpoint.url(this.reach.baseURL.replace(/\/+$/, '')),
      headers: { authorization: `Bearer ${this.reach.apiKey}` },
      body,
      failedResponseHandler: this.failed,
      successfulResponseHandler: read,
      abortSignal: options.abortSignal,
      fetch: poolFetch,
    });
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const body = this.body(options, false);
    const { value, responseHeaders } = await this.post(body, options, createJsonResponseHandler(Answer));
    const choice = value.choices[0];
    const text = textOf(choice);
    return {
      content: text ? [{ type: 'text', text }] : [],
      finishReason: finishOf(choice?.finish_reason),
      usage: usageOf(value.usage),
      warnings: [],
      request: { body },
      response: { headers: responseHeaders },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const body = this.body(options, true);
    const { value, responseHeaders } = await this.post(body, options, createEventSourceResponseHandler(Answer));
    let reason: string | null | undefined;
    let usage: z.infer<typeof Usage>;
    let open = false;
    const stream = value.pipeThrough(
      new TransformStream<ParseResult<z.infer<typeof Answer>>, LanguageModelV4StreamPart>({
        start: (controller) => controller.enqueue({ type: 'stream-start', warnings: [] }),
        transform: (chunk, controller) => {
          if (!chunk.success) return controller.enqueue({ type: 'error', error: chunk.error });
          if (chunk.value.usage) usage = chunk.value.usage;
          const choice = chunk.value.choices[0];
          if (choice?.finish_reason) reason = choice.finish_reason;
          const delta = textOf(choice);
          if (!delta) return;
          if (!open) controller.enqueue({ type: 'text-start', id: '0' });
          open = true;
          controller.enqueue({ type: 'text-delta', id: '0', delta });
        },
        flush: (controller) => {
          if (open) controller.enqueue({ type: 'text-end', id: '0' });
          // A stream that ends without saying why it finished did not finish.
          if (reason === undefined) return;
          controller.enqueue({ type: 'finish', finishReason: finishOf(reason), usage: usageOf(usage) });
        },
      }),
    );
    return { stream, request: { body }, response: { headers: responseHeaders } };
  }
}
