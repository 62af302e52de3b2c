// Each vendor's web search, which runs at a vendor, on the models that can run it: Anthropic's on its
// models, OpenAI's on its reasoning models (through its Responses API). Each runs on the other
// vendor's models too, as that vendor's search, with what carries over (allowed domains, location):
// Claude Code's WebSearch on an OpenAI reasoning model (OpenAI takes no blocked domains), Codex's
// search on an Anthropic model. Either runs on a Gemini model as Google Search (grounding), which takes
// no domains at all, and beside the client's own tools only from Gemini 3 on. The provider bills each
// search apart from the model's tokens (Google bills Gemini 2's once for each prompt it grounded).
// Anthropic's web fetch runs on its models only, billed as the tokens of the pages read, and so does its
// tool search tool, without which any other model is shown every tool.
import type { ModelRecord } from '../../api/schemas';
import { dialectOf } from '../../shared/providerNames';
import { googleSearchOf } from '../providers/googleSearch';
import { openAiSearchAtAnthropic } from './advancedToolUse';
import type { ToolOptions } from './request';

/** Whether a model is one of OpenAI's reasoning models, which search the web at OpenAI. */
const searchesAtOpenAi = (r: ModelRecord) => r.provider === 'openai' && r.supports_reasoning === true;

/** Whether Anthropic's search, as asked, can run as OpenAI's: OpenAI's search cannot leave domains out. */
const openAiCanRun = (o: ToolOptions) => !o.webSearch?.blockedDomains?.length;

/** The domains a search was asked to keep to or leave out, in Anthropic's words or OpenAI's. */
const keepsToDomains = (o: ToolOptions) =>
  !!o.webSearch?.allowedDomains?.length ||
  !!o.webSearch?.blockedDomains?.length ||
  !!(o.openAiWebSearch?.options.filters as { allowedDomains?: unknown[] } | undefined)?.allowedDomains?.length;

/**
 * How a Gemini model runs the search asked as Google Search, or undefined when it cannot: a Gemini
 * model that Google grounds, asked no domains (Google Search takes none), and offered none of the
 * client's tools unless it is Gemini 3 or later (Google's package would leave those tools out).
 */
export function googleSearchFor(r: ModelRecord, o: ToolOptions) {
  if (!r.provider || dialectOf(r.provider, r.model) !== 'google' || keepsToDomains(o)) return undefined;
  const search = googleSearchOf(r.model);
  return search && (search.gemini3 || !o.tools?.length) ? search : undefined;
}

/** Where a search runs, to say in words where one asked did not. */
const RUNS_AT =
  "only on Anthropic's models, OpenAI's reasoning models and Gemini models (Gemini 2 only when the client offers no tools of its own, and Gemini none when domains are asked)";

const WEB_SEARCHES = [
  {
    asked: (o: ToolOptions) => !!o.webSearch,
    runs: (r: ModelRecord, o: ToolOptions) =>
      r.provider === 'anthropic' || (searchesAtOpenAi(r) && openAiCanRun(o)) || !!googleSearchFor(r, o),
    /** A model searches as often as it likes unless the client set max_uses: one at least. */
    most: (o: ToolOptions) => o.webSearch?.maxUses ?? 1,
    words: (o: ToolOptions) =>
      openAiCanRun(o)
        ? `Anthropic's web search runs ${RUNS_AT}`
        : "Anthropic's web search with blocked domains runs only on Anthropic's models",
  },
  {
    asked: (o: ToolOptions) => !!o.openAiWebSearch,
    runs: (r: ModelRecord, o: ToolOptions) =>
      searchesAtOpenAi(r) || r.provider === 'anthropic' || !!googleSearchFor(r, o),
    /** A model searches as often as it likes unless the client set max_tool_calls: one at least. */
    most: (o: ToolOptions) => o.openAiWebSearch?.maxUses ?? 1,
    words: (o: ToolOptions) => `${o.openAiWebSearch?.named ?? "OpenAI's web search"} runs ${RUNS_AT}`,
  },
];

/** Whether Anthropic's web search, as asked, runs at OpenAI on one of its reasoning models (as OpenAI's). */
export const anthropicSearchAtOpenAi = (options: ToolOptions): boolean => !!options.webSearch && openAiCanRun(options);

/** Anthropic's web fetch, which runs on its models too; a page it reads costs its tokens only. */
const WEB_FETCH = {
  asked: (o: ToolOptions) => !!o.webFetch,
  runs: (r: ModelRecord) => r.provider === 'anthropic',
  /** The tokens of the pages it may read: as many pages as max_uses allows (one without), each cut at max_content_tokens. */
  most: (o: ToolOptions) => (o.webFetch?.maxContentTokens ?? 0) * (o.webFetch?.maxUses ?? 1),
  words: "Anthropic's web fetch runs only on Anthropic's models",
};

/** Whether a model runs Anthropic's tool search tool: Anthropic's models, at Anthropic. */
export const toolSearchRuns = (r: ModelRecord): boolean => r.provider === 'anthropic' && !r.is_test_model;

/**
 * Whether a Claude model at Anthropic is one Anthropic's tool search runs on, for a search the client
 * did not ask of Anthropic (OpenAI's): Claude 4.5 and later, and the families after them (Anthropic's
 * model compatibility list); not Claude 4 or 4.1, nor Claude 3.
 */
export function claudeRunsToolSearch(r: ModelRecord): boolean {
  if (!toolSearchRuns(r)) return false;
  const name = r.api_target || r.model;
  const version = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?!\d)/.exec(name);
  if (!version) return /^claude-(?!instant)[a-z]+(-|$)/.test(name);
  return fromVersion(version, 4, 5);
}

/**
 * Whether a model runs OpenAI's tool search: OpenAI's reasoning models from GPT-5.4 on (OpenAI's tool
 * search guide), at OpenAI or as an Azure OpenAI deployment (Azure's tool search guide), which are asked
 * through the Responses API. A deployment named as its owner chose runs the model it was made of.
 */
export function openAiToolSearchRuns(r: ModelRecord): boolean {
  if ((r.provider !== 'openai' && r.provider !== 'azure') || r.is_test_model || r.supports_reasoning !== true)
    return false;
  const runs = r.parent ?? r;
  const version = /^gpt-(\d+)(?:\.(\d+))?/.exec(runs.api_target || runs.model);
  return !!version && fromVersion(version, 5, 4);
}

/** Whether a model's version (its name's major and minor number, matched) is this one or later. */
const fromVersion = (version: RegExpExecArray, major: number, minor: number) =>
  Number(version[1]) > major || (Number(version[1]) === major && Number(version[2] ?? 0) >= minor);

const searchAsked = (options: ToolOptions) => WEB_SEARCHES.find((s) => s.asked(options));

/** What the answer is to say of a web search, fetch or tool search asked of a model that cannot run it. */
export function searchNotRun(r: ModelRecord, options: ToolOptions): string | undefined {
  const cannot = (tool: { runs: (r: ModelRecord, o: ToolOptions) => boolean }) =>
    !tool.runs(r, options) || !!r.is_test_model;
  const search = searchAsked(options);
  const said = [
    ...(search && cannot(search) ? [`${search.words(options)}, so ${r.namespace} answered without searching.`] : []),
    ...(WEB_FETCH.asked(options) && cannot(WEB_FETCH)
      ? [`${WEB_FETCH.words}, so ${r.namespace} answered without reading pages.`]
      : []),
    ...(options.toolSearch && !toolSearchRuns(r)
      ? [`Anthropic's tool search runs only on Anthropic's models, so ${r.namespace} was shown every tool.`]
      : []),
    ...(options.openAiToolSearch &&
    !openAiToolSearchRuns(r) &&
    !(claudeRunsToolSearch(r) && openAiSearchAtAnthropic(options))
      ? [
          `OpenAI's tool search runs only on OpenAI's models from GPT-5.4 on, and as Anthropic's own on Claude 4.5 and later at Anthropic when a tool is not deferred, so ${r.namespace} was shown every tool.`,
        ]
      : []),
  ];
  return said.length ? said.join(' ') : undefined;
}

/**
 * How many web searches a request may have each model run, for the estimate of its cost: as many as
 * the client allowed, one when it set no limit; none on a model that cannot run the search asked. The
 * search asked is found once for the request, not for each model weighed.
 */
export function searchesToEstimate(options: ToolOptions | undefined): (r: ModelRecord) => number {
  const search = options && searchAsked(options);
  if (!search) return () => 0;
  const most = search.most(options);
  // Google bills Gemini 2's searches once for the prompt, however many it ran.
  return (r) =>
    search.runs(r, options) && !r.is_test_model ? (googleSearchFor(r, options)?.gemini3 === false ? 1 : most) : 0;
}

/**
 * How many tokens of pages a request may have each model read with Anthropic's web fetch, for the
 * estimate of its cost: each page as long as the client's max_content_tokens allows, as many pages as
 * max_uses allows (one without); none without max_content_tokens (a page's length is not known before
 * it is read), and none on a model that cannot run the fetch.
 */
export function pageTokensToEstimate(options: ToolOptions | undefined): (r: ModelRecord) => number {
  if (!options || !WEB_FETCH.asked(options)) return () => 0;
  const most = WEB_FETCH.most(options);
  return (r) => (WEB_FETCH.runs(r) && !r.is_test_model ? most : 0);
}
