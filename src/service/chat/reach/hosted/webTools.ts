// The web searches and fetches (and the tool searches of Anthropic's and OpenAI's models) a model ran
// at its provider, as its package tells of them, told to the client in the words of the search it asked
// for (Anthropic's or OpenAI's).
import { randomBytes } from 'node:crypto';
import type { LanguageModelV4ToolCall, LanguageModelV4ToolResult } from '@ai-sdk/provider';
import {
  isToolSearchName,
  type Cited,
  type CitedPage,
  type Reply,
  type OpenAiSearch,
  type OpenAiToolSearch,
  type WebFetchResult,
  type WebToolUse,
  type WebSearchResult,
} from '../../request';
import type { GoogleSearch } from '../../../providers/googleSearch';
import { parseArguments } from './sdkPrompt';
/**
 * What of a model's reasoning is kept to go back to it: an Anthropic model's signed blocks, or the
 * reasoning items of the OpenAI reasoning model named, the thought signatures of the Gemini model named,
 * or the signed blocks of the MiniMax model named; none of any other model's.
 */
export type Kept = 'anthropic' | { provider: 'openai' | 'azure' | 'google' | 'minimax'; model: string } | undefined;

/** Whether what is kept is an OpenAI model's (at OpenAI, or an Azure deployment of one). */
export const keptByOpenAi = (kept: Kept): kept is { provider: 'openai' | 'azure'; model: string } =>
  kept !== 'anthropic' && (kept?.provider === 'openai' || kept?.provider === 'azure');

/**
 * Whose words a model's web searches are told to the client in, when the client asked the other
 * vendor's search: Anthropic's (Claude Code's search on an OpenAI model), or OpenAI's (Codex's on an
 * Anthropic model, with that model's name, which its searches carry).
 */
export type TellSearches = 'anthropic' | { openai: string } | undefined;

/**
 * The web searches (and an Anthropic model's web fetches and tool searches) a model ran at its
 * provider, as the provider's package tells of them: a call the provider ran (not one for the client),
 * then its result, by the call's id. An Anthropic model's are the answer's own; an OpenAI reasoning model's searches,
 * part of its reasoning to go back to it (`kept`).
 */
export class WebTools {
  private readonly calls = new Map<string, Record<string, unknown>>();
  private readonly done: WebToolUse[] = [];
  /** The searches that ran, which the provider bills (a failed one is not billed; a fetch costs its tokens only). */
  private billed = 0;

  constructor(
    private readonly kept: Kept,
    /** Hears of each search or fetch once it is whole. */
    private readonly onUse: (use: WebToolUse | OpenAiSearch | OpenAiToolSearch) => void,
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
    const atAnthropic = this.kept === 'anthropic';
    const toolSearch = atAnthropic && isToolSearchName(name);
    const openAiToolSearch = name === 'tool_search' && keptByOpenAi(this.kept);
    if (name !== 'web_search' && !(name === 'web_fetch' && atAnthropic) && !toolSearch && !openAiToolSearch)
      return false;
    if (part.type === 'tool-call') {
      if (!part.providerExecuted) return false;
      this.calls.set(part.toolCallId, objectOf(parseArguments(part.input)));
      return true;
    }
    const input = this.calls.get(part.toolCallId);
    if (!input) return false;
    if (openAiToolSearch) return this.toolsFound(part, input);
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
    const use: WebToolUse = toolSearch
      ? { id: part.toolCallId, input, name, results: toolsFoundOf(part.result, part.isError) }
      : name === 'web_search'
        ? { id: part.toolCallId, input, name, results: searchResultsOf(part.result, part.isError) }
        : { id: part.toolCallId, input, name: 'web_fetch', results: fetchResultOf(part.result, part.isError) };
    this.done.push(use);
    this.onUse(use);
    if (typeof this.tellAs === 'object' && use.name === 'web_search') this.onUse(toldAsOpenAi(use, this.tellAs.openai));
    return true;
  }

  /**
   * A tool search an OpenAI model ran at OpenAI (`input`: its call's), with the tools it loaded: part of
   * the model's reasoning to go back to it. (A search for the client is a call the client runs.)
   */
  private toolsFound(part: LanguageModelV4ToolResult, input: Record<string, unknown>): boolean {
    const tools = objectOf(part.result).tools;
    const kept = this.kept as Exclude<Kept, 'anthropic' | undefined>;
    // Azure's package says the item's id under its own name, OpenAI's under its.
    const output = objectOf(objectOf(part.providerMetadata)[kept.provider]).itemId;
    this.onUse({
      toolSearchCall: part.toolCallId,
      output: typeof output === 'string' && output ? output : `${part.toolCallId}_output`,
      arguments: input.arguments ?? {},
      tools: Array.isArray(tools) ? tools.map(objectOf) : [],
      model: kept.model,
    });
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
  const pages = !use.results || 'error_code' in use.results ? undefined : (use.results as WebSearchResult[]);
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

export const objectOf = (value: unknown): Record<string, unknown> =>
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

/** The tools Anthropic's package says a tool search loaded, by name; an error as its code. */
function toolsFoundOf(result: unknown, isError: boolean | undefined): string[] | { error_code: string } {
  if (isError || !Array.isArray(result)) return errorOf(result);
  return result.flatMap((r: unknown) => {
    const name = objectOf(r).toolName;
    return typeof name === 'string' ? [name] : [];
  });
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
