// Models of hosted providers (OpenAI, Anthropic, Gemini, …), reached with the user's keys through the
// AI SDK's provider packages (../../providers/providers.ts): the engine's OpenAI-shaped messages and
// tools become the SDK's prompt, its stream becomes deltas, its usage the provider's own counts, and
// its errors a ReachFailure that says in words what went wrong, without the key. This class picks the
// model and the API and makes the call; each of those conversions has its module in ./hosted/.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelRecord } from '../../../api/schemas';
import { countsAgainstProvider, type Cooldown } from '../../providers/cooldown';
import type { ProviderKeys } from '../../providers/keys';
import { offeredModels } from '../../providers/offered';
import { fimOptions, textModel } from '../../providers/fim';
import { providerSpec, type ProviderSpec, type Reach } from '../../providers/providers';
import type { Reply } from '../request';
import type { Generation, ModelReach } from './reach';
import { anthropicSearchAtOpenAi, claudeRunsToolSearch, googleSearchFor, openAiToolSearchRuns } from '../webSearches';
import { asAnthropicToolSearch, openAiSearchAtAnthropic } from '../advancedToolUse';
import { dialectOf, speaksZaiApi } from '../../../shared/providerNames';
import { NoDeployment, ProviderFailure, failureOf, notAskedWhileCooling } from './hosted/providerFailure';
import { ModelStopped, carriedBack, streamed, whole } from './hosted/sdkAnswer';
import {
  anthropicThinking,
  openAiSearchOf,
  predictsOutput,
  providerOptions,
  strictAsTaken,
  switchedThinking,
  toolOptions,
  withinRange,
} from './hosted/sdkCallOptions';
import { SYSTEM_AT_START, namespacedTools, systemFirst, toPrompt } from './hosted/sdkPrompt';
import type { Kept, TellSearches } from './hosted/webTools';

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
/** How many times the wait for a first token a whole (not streamed) reply is given: 10 minutes by default. */
const WHOLE_REPLY_WAITS = 10;
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
    // A provider that hangs is a failure like any other: it is given up on, and the chain goes on. A
    // whole reply (a reasoning model's may take minutes) is waited for as long as OpenAI's and
    // Anthropic's own SDKs wait by default, 10 minutes: given up on sooner, it would be billed twice.
    const wait = g.onDelta ? this.firstTokenMs : this.firstTokenMs * WHOLE_REPLY_WAITS;
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
    // OpenAI's tool search, run at OpenAI by its models from GPT-5.4 on (any other is shown every tool).
    const openAiToolSearch =
      g.tools.openAiToolSearch && responses && openAiToolSearchRuns(g.model) ? g.tools.openAiToolSearch : undefined;
    // Asked of a Claude model at Anthropic, it runs there as Anthropic's own search over the same tools.
    const searched =
      !openAiToolSearch && claudeRunsToolSearch(g.model) && openAiSearchAtAnthropic(g.tools)
        ? asAnthropicToolSearch(g.tools, g.messages)
        : g.tools;
    const asked = strictAsTaken(searched, provider, reach.baseURL);
    const options: LanguageModelV4CallOptions = {
      // Anthropic's, Google's, DeepSeek's APIs and OpenAI's Responses take images and PDFs in a tool's result.
      prompt: toPrompt(
        SYSTEM_AT_START.has(provider) ? systemFirst(g.messages) : g.messages,
        carriedBack(kept, openAiToolSearch !== undefined),
        anthropic,
        claude || responses || dialect === 'google' || provider === 'deepseek',
        openAiToolSearch ? namespacedTools(g.tools) : undefined,
      ),
      maxOutputTokens: thinking?.maxOutputTokens ?? g.maxTokens,
      ...withinRange(provider, {
        temperature: g.temperature,
        ...toolOptions(asked.options, searchAt, tellAs, openAiSearch, claude, openAiToolSearch),
      }),
      // A model whose API takes no penalties (the catalogue's word) is not sent them (Z.ai's would be
      // fields it does not know; Anthropic's and Google's packages would drop them with a warning).
      ...(g.model.supports_penalties ? {} : { frequencyPenalty: undefined, presencePenalty: undefined }),
      ...(thinking?.withoutEffort ? { reasoning: undefined } : {}),
      ...providerOptions(
        claude ? 'anthropic' : dialect,
        {
          ...g.tools,
          // Where a model runs is asked of Anthropic's own API alone; Bedrock and Vertex AI run it in
          // their region (providers/offered.ts runsInTheUs), and would refuse the field.
          ...(provider === 'anthropic' ? {} : { inferenceGeo: undefined }),
          // A predicted output is a hint that only some of OpenAI's models take; another refuses it.
          ...(predictsOutput(g.model) ? {} : { prediction: undefined }),
        },
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
      const said = [
        ...(thinking?.without ? [`${g.model.namespace} answered without thinking: ${thinking.without}.`] : []),
        ...(asked.warning ? [asked.warning] : []),
        ...(reply.warning ? [reply.warning] : []),
      ];
      if (said.length) reply.warning = said.join(' ');
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
