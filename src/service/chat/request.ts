// A chat request as the engine carries it from preparation to the ledger: the parsed body, what was
// resolved against its Space, and the reply a model gave.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type {
  AnthropicMessage,
  AnthropicMessagesBody,
  CacheControl,
  ChatBody,
  ModelRecord,
  ResponseFormat,
  ResponsesBody,
  ResponsesItem,
  RoutePreview,
  ToolCall,
} from '../../api/schemas';
import type { Caller } from '../domain/caller';
import type { CatalogueModel } from '../domain/models';
import type { AppConfig } from '../domain/spaces';
import { invalid } from '../problem';
import type { UserMessage } from './compactedSummary';

/** A message thread's conversation as the model read it, with the system prompt and tools it was created with. */
export interface ThreadConversation {
  system: z.output<typeof AnthropicMessagesBody>['system'];
  tools: z.output<typeof AnthropicMessagesBody>['tools'];
  messages: Array<z.output<typeof AnthropicMessage>>;
  /** Its size in characters of JSON. */
  size: number;
}

/**
 * A request of an Anthropic message thread (threads.ts), as the engine's request carries it: what is
 * held with its reply, and the reply it continues.
 */
export interface ThreadTurn {
  owner: { orgId: string; appId: string };
  conversation: ThreadConversation;
  previous?: string;
}

/** A request's prompt as Anthropic's cache diagnostics compare it (cacheDiagnostics.ts): 48-bit hashes of its parts, and their sizes. */
export interface PromptPrint {
  owner: { orgId: string; appId: string };
  /** The reply whose request it is compared with; null when the request only asks for its own print kept. */
  previous: string | null;
  speed: string;
  tools: number;
  system: number;
  /** Thinking and tool choice, which shape the prompt too. */
  other: number;
  /** Each message's hash, chained over the messages before it. */
  messages: number[];
  /** Characters of JSON before each message's end, the tools and the system prompt first. */
  ends: number[];
  /** Characters of JSON of the tools, then of the tools and system prompt. */
  toolsEnd: number;
  systemEnd: number;
}

/** Anthropic's block of thinking: its text with the signature Anthropic checks, or a redacted one's data. */
export type AnthropicBlock = { thinking: string; signature: string } | { redacted: string };

/**
 * A reasoning item of an OpenAI reasoning model (its Responses API): its id, the parts of its summary,
 * and its reasoning encrypted by OpenAI, which the model reads again when it is sent back. It goes back
 * only to the model that wrote it (`model`, its namespace).
 */
export interface OpenAiReasoning {
  item: string;
  summary: string[];
  encrypted: string;
  model: string;
}

/**
 * A Gemini model's thought signature on one of its function calls (`call`, the call's id): Gemini 3
 * wants it back with that call, and reads its earlier reasoning from it. It goes back only to the
 * model that gave it.
 */
export interface GeminiSignature {
  call: string;
  geminiSignature: string;
  model: string;
}

/**
 * A web search an OpenAI reasoning model ran at OpenAI (its hosted tool) between its reasoning items:
 * the item's id, and what it did as OpenAI's package says it (`search` with its query, `openPage`,
 * `findInPage`; the pages when OpenAI gave them), or `failed` with OpenAI's status. It goes back only
 * to the model that ran it, in its place among that model's reasoning.
 */
export interface OpenAiSearch {
  webSearchCall: string;
  result: Record<string, unknown>;
  failed?: string;
  model: string;
}

/**
 * A tool search an OpenAI model ran at OpenAI (its hosted `tool_search`) between its reasoning items:
 * the ids of its call and output items, what it searched for, and the tools it loaded, as OpenAI gave
 * them (functions and namespaces of the request's deferred tools). It goes back only to the model that
 * ran it, in its place among that model's reasoning; one a client sent back as its two items alone,
 * without the reasoning item that carried it (`model` null), goes to any model that runs the search.
 */
export interface OpenAiToolSearch {
  toolSearchCall: string;
  output: string;
  arguments: unknown;
  tools: Array<Record<string, unknown>>;
  model: string | null;
}

/**
 * A MiniMax model's block of thinking as its Anthropic-compatible API signs it: MiniMax asks for a
 * reply's whole content back in the next turn, to keep its chain of reasoning. It goes back only to the
 * model that gave it (Anthropic would refuse MiniMax's signature).
 */
export interface MiniMaxThinking {
  minimaxThinking: string;
  signature: string;
  model: string;
}

/** Reasoning another provider than Anthropic gave, to go back to the model that gave it. */
export type ProviderReasoning = OpenAiReasoning | GeminiSignature | OpenAiSearch | OpenAiToolSearch | MiniMaxThinking;

/**
 * A model's thinking as it gave it, to be sent back to it in later turns: an Anthropic model's blocks,
 * an OpenAI reasoning model's items, or a Gemini model's thought signatures.
 */
export type ThinkingBlock = AnthropicBlock | ProviderReasoning;

export const isAnthropicBlock = (b: ThinkingBlock): b is AnthropicBlock => 'thinking' in b || 'redacted' in b;

/**
 * A piece of thinking as it streams: an Anthropic model's text, its block's signature (its end), or a
 * redacted block whole; the reasoning of a model that signs nothing (any other provider's or model
 * server's, and an OpenAI model's summary), to show; another provider's reasoning to go back, whole
 * (an OpenAI reasoning item at its end, a web search an OpenAI model ran, a Gemini signature with its
 * call); a web search or fetch an Anthropic model ran, whole, which its answer shows where it ran; or
 * the end of a block of an Anthropic model's text, with the pages it cites (none, often).
 */
export type ThinkingPiece =
  | { thinking: string }
  | { signature: string }
  | { redacted: string }
  | { reasoning: string }
  | { carried: ProviderReasoning }
  | { webTool: WebToolUse }
  | { cited: Cited }
  | { mcpListed: McpListing };

/**
 * A stretch of a reply's text that cites pages a web search found or a web fetch read, by characters of
 * the text; each as its provider said it (Anthropic's with the quoted text and its encrypted index, to
 * go back).
 */
export interface Cited {
  from: number;
  to: number;
  pages: CitedPage[];
}

/**
 * What a stretch of text cites: a page a web search found (by its address), or a passage of a document
 * the model read (a page its web fetch read), by the document's place in the conversation and the
 * passage's characters, as Anthropic says them.
 */
export type CitedPage =
  | { url: string; title: string | null; citedText?: string; encryptedIndex?: string }
  | { documentIndex: number; documentTitle: string | null; citedText: string; startChar: number; endChar: number };

/** Anthropic's web search as its client asked for it: the version, and how far the model may search. */
export interface WebSearchAsked {
  type: string;
  maxUses?: number;
  allowedDomains?: string[];
  blockedDomains?: string[];
  userLocation?: { type: 'approximate'; city?: string; region?: string; country?: string; timezone?: string };
}

/** Anthropic's web fetch as its client asked for it: the version, how far the model may fetch, and how much it reads. */
export interface WebFetchAsked {
  type: string;
  maxUses?: number;
  allowedDomains?: string[];
  blockedDomains?: string[];
  citations?: { enabled: boolean };
  maxContentTokens?: number;
}

/** One page a web search found, in Anthropic's words; its content encrypted by Anthropic, for the model to read again. */
export interface WebSearchResult {
  type: 'web_search_result';
  url: string;
  title: string | null;
  page_age: string | null;
  encrypted_content: string;
}

/** The page a web fetch read, in Anthropic's words: its text (or a PDF) as the model read it. */
export interface WebFetchResult {
  type: 'web_fetch_result';
  url: string;
  retrieved_at: string | null;
  content: {
    type: 'document';
    title: string | null;
    citations?: { enabled: boolean };
    source:
      | { type: 'text'; media_type: 'text/plain'; data: string }
      | { type: 'base64'; media_type: 'application/pdf'; data: string };
  };
}

/**
 * A web search, a web fetch or a tool search an Anthropic model ran at Anthropic (its server tools): the
 * call's id and input (the query, the page's address), and what it found or read, or why it found
 * nothing (Anthropic's error code). It goes back only to Anthropic's models. Or a call of a remote MCP
 * server's tool the service ran for the model, which goes back to any model as a tool call and its result.
 */
export type WebToolUse = {
  id: string;
  input: Record<string, unknown>;
  /** Of the turn's text, how many characters the model wrote before it ran the tool (absent: none). */
  after?: number;
} & WebToolResult;

/** What a request asks of one tool of a server, or of all of them by default. */
export interface McpToolConfig {
  enabled: boolean;
  /** Not shown to the model until a tool search loads it (Anthropic's `defer_loading`). */
  deferred: boolean;
}

/**
 * Tools of a server by their names and whether they change nothing (their `readOnlyHint`), as OpenAI's
 * filters pick them: a tool is picked when it is named (or none are) and is read-only as asked (if asked).
 */
export interface McpToolFilter {
  names?: string[];
  readOnly?: boolean;
}

/** A remote MCP server as a request names it. */
export interface McpServerAsked {
  /** The name the client calls it by (Anthropic's `name`, OpenAI's `server_label`), which the answer gives. */
  name: string;
  url: string;
  /** Sent with each request to the server: the client's authorization, a secret kept for the request alone. */
  headers: Record<string, string>;
  defaults: McpToolConfig;
  /** Each tool's own settings, by its name, over the defaults. */
  tools: Record<string, Partial<McpToolConfig>>;
  /** Only the tools this picks are offered (OpenAI's `allowed_tools` filter). */
  only?: McpToolFilter;
  /**
   * Which calls wait for the client's approval before they run (OpenAI's `require_approval`): all, none,
   * or those `always` picks and `never` does not. None when absent.
   */
  approval?: 'always' | 'never' | { always?: McpToolFilter; never?: McpToolFilter };
  /** The answer tells the server's tools as listed (OpenAI's `mcp_list_tools` item, unless the input has one). */
  tellListing?: boolean;
  /**
   * The server's tools as the conversation already has them listed (the input's `mcp_list_tools`
   * item): not listed again, as at OpenAI, and the server is connected only to run a call.
   */
  listed?: McpListedTool[];
}

/** A tool as its server lists it (MCP's `tools/list`). */
export interface McpListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: { readOnlyHint?: boolean };
}

/** A server's tools as listed, for the answer to tell (OpenAI's `mcp_list_tools` item). */
export interface McpListing {
  server: string;
  tools: Array<{ name: string; description?: string; input_schema: unknown; annotations?: unknown }>;
}

/** Anthropic's tool search tools, by name: by regular expression, or BM25 over a query's words. */
export type ToolSearchName = 'tool_search_tool_regex' | 'tool_search_tool_bm25';

const TOOL_SEARCH_NAMES: ReadonlySet<string> = new Set<ToolSearchName>([
  'tool_search_tool_regex',
  'tool_search_tool_bm25',
]);

/** Whether a server tool, by its name, is one of Anthropic's tool searches. */
export const isToolSearchName = (name: string): name is ToolSearchName => TOOL_SEARCH_NAMES.has(name);

/** Whether a server tool's use is a tool search (what it found: the names of the tools it loaded). */
export const isToolSearch = (use: WebToolUse): use is Extract<WebToolUse, { name: ToolSearchName }> =>
  isToolSearchName(use.name);

/**
 * What a web search found, a web fetch read or a tool search loaded (the names of the request's tools),
 * or Anthropic's error code of why not.
 */
export type WebToolResult =
  | { name: 'web_search'; results: WebSearchResult[] | { error_code: string } }
  | { name: 'web_fetch'; results: WebFetchResult | { error_code: string } }
  | { name: ToolSearchName; results: string[] | { error_code: string } }
  /**
   * A call the service ran of a remote MCP server's tool (chat/remoteMcp.ts), and its result as text; with
   * the id of the approval it waited for, if it did.
   */
  | { name: 'mcp'; server: string; tool: string; results: { text: string; isError: boolean }; approvalId?: string }
  /** A call of a remote MCP server's tool that waits for the client's approval before it runs. */
  | { name: 'mcp_approval'; server: string; tool: string; results: null };

export type ChatMessage = (
  | { role: 'system' | 'user'; content: string | Array<Record<string, unknown>> }
  | {
      role: 'assistant';
      content: string | Array<Record<string, unknown>> | null;
      tool_calls?: ToolCall[];
      /** The model's thinking before this turn, sent back by Anthropic's clients (only Anthropic reads it). */
      thinking?: ThinkingBlock[];
      /**
       * The web searches, fetches and tool searches an Anthropic model ran in this turn (only Anthropic
       * reads them).
       */
      webTools?: WebToolUse[];
    }
  | { role: 'tool'; content: string | Array<Record<string, unknown>>; tool_call_id: string }
) & {
  /** A prompt-cache breakpoint at the end of this message (Anthropic's clients mark one on a block of it). */
  cache_control?: CacheControl;
};

/** What a chat completion may add to a request: tools the model may call, and where to stop. */
export interface ToolOptions {
  tools?: Array<{
    type: 'function';
    /**
     * `strict`: the model's calls must follow the parameters' schema exactly, as the client's API asks
     * it (OpenAI's `strict`, Anthropic's). The provider's package asks its provider so where it can;
     * where it cannot, the reply says the calls were not held to the schema.
     */
    function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
    /** A prompt-cache breakpoint after this tool's definition. */
    cache_control?: CacheControl;
    /**
     * One of Anthropic's tools that the client runs (anthropicClientTools.ts), which a Claude model gets
     * as Anthropic's own instead of the function: its type, and its settings as the AI SDK's Anthropic
     * package takes them (the text editor's most characters, the computer's screen).
     */
    anthropic?: { type: string; args: Record<string, unknown> };
    /** Tool search (advancedToolUse.ts): the model is not shown this tool until a tool's result names it. */
    deferred?: boolean;
    /**
     * A Responses client's tool as OpenAI's tool search takes it (given only to a model that runs the
     * search): its own name, the namespace it is of, and whether it waits for the search.
     */
    openAi?: { name: string; namespace?: { name: string; description?: string }; deferred: boolean };
    /** Inputs that show the model how to call it (Anthropic's `input_examples`). */
    examples?: Array<Record<string, unknown>>;
    /** Its input streamed as the model writes it, unchecked (Anthropic's; other models' APIs stream it so). */
    eagerInput?: boolean;
  }>;
  /**
   * The request defers tools, loads them by a tool's result (`tool_reference` parts) or shows examples of
   * their input: Anthropic's advanced tool use, which a model other than Claude gets in its own terms
   * (advancedToolUse.ts).
   */
  advancedToolUse?: boolean;
  toolChoice?: unknown;
  stop?: string | string[] | null;
  /** Sampling a chat completion asks for (test models answer the same whatever they are). */
  topP?: number | null;
  seed?: number | null;
  frequencyPenalty?: number | null;
  presencePenalty?: number | null;
  /** Where the model is to run (Anthropic's `inference_geo`): in the US only, or anywhere. */
  inferenceGeo?: 'us' | 'global';
  /** As the AI SDK takes it (which fits it to the model); Anthropic's `max` too. */
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;
  /**
   * The summary of an OpenAI reasoning model's reasoning a Responses client asks for; others get
   * OpenAI's `auto`, to show what the model thought.
   */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | null;
  /** Anthropic's web search, which an Anthropic model runs at Anthropic (other models go without). */
  webSearch?: WebSearchAsked;
  /** Anthropic's web fetch, which an Anthropic model runs at Anthropic (other models go without). */
  webFetch?: WebFetchAsked;
  /**
   * Anthropic's tool search tool, by its name, which an Anthropic model runs at Anthropic to find the
   * deferred tools; other models are shown every tool (advancedToolUse.ts).
   */
  toolSearch?: ToolSearchName;
  /**
   * OpenAI's tool search as a Responses client asks for it, run at OpenAI (its description and
   * parameters, when the client gives its own): an OpenAI model from GPT-5.4 on runs it to find the
   * deferred tools; other models are shown every tool.
   */
  openAiToolSearch?: { description?: string; parameters?: Record<string, unknown> };
  /**
   * OpenAI's web search as a Responses client asks for it (its options as OpenAI's package takes
   * them), which OpenAI's reasoning models run at OpenAI (other models go without).
   */
  openAiWebSearch?: {
    preview: boolean;
    options: Record<string, unknown>;
    maxUses?: number;
    /** What the search is called in words to the user, when not OpenAI's (the playground's plugin). */
    named?: string;
  };
  /**
   * Remote MCP servers whose tools the model may call, which the service runs (chat/remoteMcp.ts):
   * Anthropic's MCP connector, OpenAI's `mcp` tool.
   */
  mcpServers?: McpServerAsked[];
  /**
   * The client's answers to calls that waited for its approval (OpenAI's `mcp_approval_response`), by
   * the approval's id: each approved one runs before the model goes on, and the model reads its result
   * (or that it was refused) in the tool message the request's input has for it.
   */
  mcpApprovals?: Array<{ id: string; approve: boolean; reason?: string }>;
  /** Anthropic's extended thinking as its clients ask for it (other providers go without). */
  thinking?: { type: 'enabled'; budgetTokens: number } | { type: 'adaptive' } | { type: 'disabled' };
  /** JSON asked for: any object, or one following a schema (OpenAI's shapes); absent: text. */
  responseFormat?: Exclude<ResponseFormat, { type: 'text' }>;
  /** Token probabilities asked for, with how many alternatives of each token (OpenAI's logprobs). */
  logprobs?: number;
  /** Odds of tokens changed, by their ids in OpenAI's tokenizers (its `logit_bias`). */
  logitBias?: Record<string, number>;
  /** false: at most one tool call a reply (asked of the provider, and held to here). */
  parallelToolCalls?: boolean | null;
  /** OpenAI's hints, which other models go without: the prompt's cache key, and how long to answer. */
  promptCacheKey?: string | null;
  /** How long OpenAI keeps the cached prompt (its `prompt_cache_retention`). */
  promptCacheRetention?: 'in_memory' | '24h' | null;
  verbosity?: 'low' | 'medium' | 'high' | null;
  /**
   * What the reply will mostly be (OpenAI's predicted output): a hint to write it faster, which only
   * OpenAI's chat models read; others answer the same without it.
   */
  prediction?: { type: 'content'; content: string | Array<{ type: 'text'; text: string }> };
  /**
   * A text completion (OpenAI's legacy API): the prompt, the one user message, is continued as it is,
   * not answered; with `suffix`, the text is to fill in before it (a code model's fill in the middle).
   */
  textCompletion?: { suffix: string | null };
}

/** Whose rule a request's images count by before sending (chat/imageTokens.ts): the vendor whose API it came by. */
export type ImageRule = 'anthropic' | 'openai';

/** A PDF's pages (their size in points) and the text of the first `pagesRead` of them (chat/pdfReading.ts). */
export interface PdfReading {
  pages: Array<{ width: number; height: number }>;
  text: string;
  pagesRead: number;
}

/** The pages of a request's PDFs, all together and of the longest, which some models read only so many of. */
export interface PdfPages {
  total: number;
  longest: number;
}

/** The readings of a request's PDFs, by each one's base64 data. */
export type PdfReadings = ReadonlyMap<string, PdfReading>;

/** What a request asks of a model's JSON: nothing, any object, or an object following a schema. */
export type JsonNeed = 'object' | 'schema' | null;

/** What the request needs of a model beyond text (chat/routing.ts checks a model against it). */
export function needsOf(body: Body): {
  needsVision: boolean;
  needsPdf: boolean;
  needsJson: JsonNeed;
  needsLogprobs: boolean;
  needsLogitBias: boolean;
  needsInfill: boolean;
  needsUsOnly: boolean;
} {
  return {
    needsVision: hasImages(body),
    needsPdf: hasPdf(body),
    needsJson: jsonNeed(body),
    needsLogprobs: body.completion?.logprobs !== undefined,
    needsLogitBias: body.completion?.logitBias !== undefined,
    needsInfill: (body.completion?.textCompletion?.suffix ?? null) !== null,
    needsUsOnly: body.completion?.inferenceGeo === 'us',
  };
}

function jsonNeed(body: Body): JsonNeed {
  const format = body.completion?.responseFormat;
  return format ? (format.type === 'json_schema' ? 'schema' : 'object') : null;
}

/**
 * A request as the engine runs it. A chat completion carries its messages and tools in `completion`;
 * its `prompt` is then the text of the last user message (what test models answer and the log keeps).
 */
export type Body = z.output<typeof ChatBody> & {
  completion?: ToolOptions & { messages: ChatMessage[] };
  /** The tools the playground's plugins give the model (its web search: chat/plugins.ts). */
  pluginTools?: ToolOptions;
  /** A stream ends with a chunk of usage and no choice (OpenAI's stream_options.include_usage). */
  includeUsage?: boolean;
  /** A stream's events are padded (OpenAI's stream_options.include_obfuscation). */
  obfuscate?: boolean;
  /**
   * A Responses request as asked, which its answer echoes (http/responsesAnswer.ts); its input as
   * items, each item_reference read (chat/responsesRequest.ts), as a Space keeps it.
   */
  responses?: z.output<typeof ResponsesBody> & {
    input: Array<z.output<typeof ResponsesItem>>;
    /** The tools the client's tool search loaded, in the input's `tool_search_output` items. */
    loaded?: NonNullable<z.output<typeof ResponsesBody>['tools']>;
    /** The items the model reads: from the last compaction on (chat/responsesRequest.ts conversationOf). */
    window: Array<z.output<typeof ResponsesItem>>;
    /** The summary server-side compaction wrote before the reply, its answer's first item (chat/compaction.ts). */
    compacted?: Extract<z.output<typeof ResponsesItem>, { type: 'compaction' }>;
  };
  /**
   * A Responses conversation to sum up (POST /v1/responses/compact, chat/compaction.ts): the answer is its
   * user's messages, kept, and the summary.
   */
  compaction?: {
    kept: UserMessage[];
    /** Asked by a compaction_trigger on POST /v1/responses: answered as a response, its one item the compaction. */
    triggered?: true;
  };
  /**
   * Anthropic's compaction asked by the request's `compact_20260112` edit (chat/compaction.ts): the
   * input tokens past which the conversation is summed up first, whether the answer is then the summary
   * alone, and what replaces the prompt it is summed up by; once done, the summary and what writing it
   * took, which the answer gives first.
   */
  anthropicCompaction?: {
    trigger: number;
    pause: boolean;
    instructions?: string;
    compacted?: { summary: string; usage: { input_tokens: number; output_tokens: number } };
  };
  /** The conversation's earliest turns may be left out to fit the model's context window (OpenAI's `truncation`). */
  truncation?: 'auto';
  /** An Anthropic request of a message thread: what is held with its reply, and the reply it continues (threads.ts). */
  anthropicThread?: ThreadTurn;
  /** An Anthropic request that asked for cache diagnostics: its prompt's print (cacheDiagnostics.ts). */
  promptPrint?: PromptPrint;
  /** A text completion answered in a chat completion's shape (Mistral's fill in the middle). */
  asChat?: true;
  /** Tools offered by OpenAI's older API (`functions`): the reply's call is answered as a `function_call`. */
  legacyFunctions?: true;
  /** What the reply is to say of how the request was read (tools not given to the model). */
  warnings?: string[];
  /** Whose rule its images count by before sending: Anthropic's for its Messages API, else OpenAI's. */
  imageRule?: ImageRule;
  /** Its PDFs as read before it is prepared, which counts them (chat/pdfReading.ts). */
  pdfs?: PdfReadings;
};

/** The tools a request gives the model: a chat completion's own, or the playground's plugins'. */
export const toolOptionsOf = (body: Body): ToolOptions => body.completion ?? body.pluginTools ?? {};

/** Everything checked and resolved before a model runs (prepare.ts). */
export interface Prepared {
  requestId: string;
  caller: Caller;
  config: AppConfig;
  body: Body;
  first: CatalogueModel;
  chain: CatalogueModel[];
  messages: ChatMessage[];
  promptTokens: number;
  promptChars: number;
  /** The pages of its PDFs, which some models read only so many of (routing.ts). */
  pdfPages: PdfPages;
  maxTokens: number;
  temperature: number;
  conversationId: string | null;
  benchmark: ModelRecord | undefined;
  warnings: string[];
  /** How the first model was chosen, for the routing receipt (the attempts are added as they run). */
  routing: { strategy: 'routed' | 'model'; candidates: RoutePreview['candidates']; rejected: RoutePreview['rejected'] };
}

/** One try of a model for a request, for the routing receipt. */
export type Attempt = {
  namespace: string;
  status_code: number;
  error: string | null;
};

/** What a provider counted of a reply (Reply.usage). */
export interface ProviderUsage {
  input: number;
  output: number;
  cachedInput: number;
  cacheWrites: number;
  hourCacheWrites: number;
  /** Of the output, the tokens the model reasoned in (the provider said; 0 where it did not). */
  reasoning: number;
  /** Of a predicted output, the tokens the reply took as they were and those it did not. */
  prediction?: { accepted: number; rejected: number };
}

/** What a model answered. */
export interface Reply {
  text: string;
  /** Why the model stopped; `content_filter`: its provider's safety filter stopped or refused the answer. */
  finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  toolCalls?: ToolCall[];
  /**
   * What the provider counted: all the input, with the parts read from and written to its cache (of
   * which `hourCacheWrites` for an hour), and the output, with the part of it the model reasoned in
   * and, of a predicted output (OpenAI's `prediction`), the tokens it kept and those it wrote anew.
   * Absent: estimated here.
   */
  usage?: ProviderUsage;
  /** Each token's probability, as OpenAI writes them, when they were asked for. */
  logprobs?: unknown[];
  /** What the answer is to say about how the model was asked (an effort it could not take). */
  warning?: string;
  /** An Anthropic, OpenAI or Gemini model's thinking, in its order, for clients to send back. */
  thinking?: ThinkingBlock[];
  /** The reasoning of a model that signs nothing (any other provider's or model server's), to show. */
  reasoning?: string;
  /** The web searches, fetches and tool searches an Anthropic model ran before it answered. */
  webTools?: WebToolUse[];
  /** How many web searches the model ran at its provider, which bills each (one that failed is not billed). */
  webSearches?: number;
  /** The stretches of the text that cite pages a web search found or a web fetch read. */
  cited?: Cited[];
  /**
   * Google's Search Suggestions for a Gemini model's Google Search (HTML and its styles, Google's
   * `renderedContent`): Google asks that whoever shows the grounded answer to people shows them with it.
   */
  searchSuggestions?: string;
  /**
   * Anthropic paused the model's turn in the course of its server tools' work (its web search): the
   * client is to send the turn back as it is for the model to go on (Anthropic's pause_turn).
   */
  paused?: true;
}

/**
 * A turn's text with the web searches and fetches where the model ran them: each after the text written
 * before it, as blocks of the caller's shapes (Anthropic's answer, the request to Anthropic's package).
 */
export function textAndWebTools<T>(
  text: string,
  uses: readonly WebToolUse[],
  textBlocks: (text: string, from: number) => T[],
  useBlocks: (use: WebToolUse) => T[],
): T[] {
  const blocks: T[] = [];
  let from = 0;
  const upTo = (to: number) => {
    if (to > from) blocks.push(...textBlocks(text.slice(from, to), from));
    from = Math.max(from, to);
  };
  for (const use of uses) {
    upTo(use.after ?? 0);
    blocks.push(...useBlocks(use));
  }
  upTo(text.length);
  return blocks;
}

/** The text of a message's content, parts joined (images left out). */
export function textOf(content: ChatMessage['content']): string {
  if (content === null) return '';
  return typeof content === 'string'
    ? content
    : content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * The text of an Anthropic model's thinking: no signature, and nothing of a redacted block (its size is
 * not known here).
 */
export const thinkingText = (blocks: readonly ThinkingBlock[] | undefined) =>
  (blocks ?? []).map((b) => ('thinking' in b ? b.thinking : '')).join('');

/**
 * The text of the pages an Anthropic model's web fetch read, sent back in its turn (a PDF's size is not
 * known here, nor a web search's pages, which Anthropic encrypts).
 */
const pagesText = (uses: readonly WebToolUse[] | undefined) =>
  (uses ?? [])
    .map((u) =>
      u.name === 'web_fetch' && !('error_code' in u.results) && u.results.content.source.type === 'text'
        ? u.results.content.source.data
        : '',
    )
    .join('');

/**
 * The text a message adds to the prompt, its tool calls' names and arguments too (what is counted), and
 * the thinking and the pages read sent back with it, which an Anthropic model reads as input (a
 * redacted block's size is not known here).
 */
export const messageText = (m: ChatMessage) =>
  textOf(m.content) +
  ('tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => c.function.name + c.function.arguments).join('') : '') +
  ('thinking' in m ? thinkingText(m.thinking) : '') +
  ('webTools' in m ? pagesText(m.webTools) : '');

/** Whether the request carries images: attached to a playground prompt, or as parts of a message. */
export function hasImages(body: Body): boolean {
  if ((body.images?.length ?? 0) > 0 || (body.files ?? []).some((url) => url.startsWith('data:image/'))) return true;
  return hasPart(body, 'image_url');
}

/** Whether the request carries a PDF: attached to a playground prompt, or as a part of a message. */
export function hasPdf(body: Body): boolean {
  return (body.files ?? []).some((url) => url.startsWith(PDF_DATA)) || hasPart(body, 'file');
}

/** How a PDF given whole begins: its data URL's header. */
export const PDF_DATA = 'data:application/pdf;base64,';

const hasPart = (body: Body, type: string) =>
  (body.completion?.messages ?? []).some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === type));

/**
 * What a request of another vendor's API says of the tools it offered that run only at that vendor
 * (`types`, in the order given): the model was not given them.
 */
export function toolsNotGiven(vendor: 'OpenAI' | 'Anthropic', kind: string, types: string[]): Pick<Body, 'warnings'> {
  const named = [...new Set(types)];
  if (named.length === 0) return {};
  return {
    warnings: [
      `${vendor}'s ${kind} (${named.join(', ')}) run only at ${vendor}, and LLM Spaces does not ask for them, so the model was not given them.`,
    ],
  };
}

/**
 * The name a model knows a namespace's tool by (a Responses client's): `<namespace>__<name>`, or, past
 * the 64 characters providers allow, a digest of the namespace before the name.
 */
export function flatToolName(namespace: string, name: string): string {
  const flat = `${namespace}__${name}`;
  if (flat.length <= 64) return flat;
  return `${createHash('sha256').update(namespace).digest('hex').slice(0, 8)}__${name}`.slice(0, 64);
}

/** The Space a request of another vendor's API goes through: the key's own, or the one app_id names. */
export function requestedSpace(caller: Caller, appId: string | null | undefined): string {
  const id = appId ?? caller.appId;
  if (!id)
    throw invalid(
      ['body', 'app_id'],
      'An organization token names the Space with app_id (a Space key needs none)',
      'missing',
    );
  return id;
}

/**
 * What test models answer and the log keeps of a conversation: the last user message, or a tool's
 * result when the conversation ends with one (the model is to answer from it). The images a tool
 * gave back, in a user message of their own after its results, say nothing of their own.
 */
export function promptOf(messages: readonly ChatMessage[]): string {
  const said = messages.filter(
    (m, i) =>
      !(m.role === 'user' && messages[i - 1]?.role === 'tool' && Array.isArray(m.content) && !textOf(m.content)),
  );
  const last = said.at(-1);
  const lastUser = said.findLast((m) => m.role === 'user');
  return last?.role === 'tool' ? textOf(last.content) : lastUser ? textOf(lastUser.content) : '';
}
