// A chat completion in the shapes of OpenAI's Responses API: the response object, its named
// server-sent events (response.created … response.completed, each with its sequence number) and an
// error event. What the request asked is echoed as OpenAI does; the routing receipt and the costs
// ride along as `llm_spaces`, an extra field of the response (`metadata` is the caller's own there).
// A model's thinking comes first, as a reasoning item: its text as the summary when one is asked for,
// and what the model is to get back (an Anthropic model's signed blocks, an OpenAI model's reasoning
// items, a Gemini model's thought signatures) as `encrypted_content` when that is included, for the
// client to send back (carriedThinking.ts). A web search an OpenAI model ran is a `web_search_call`
// after the reasoning that led to it, which carries it back to the model in its place (a tool search
// it ran, its `tool_search_call` and `tool_search_output`); the reasoning after it is an item of its
// own, as OpenAI gives them. A call of a custom tool
// of the request is a `custom_tool_call` with its text as `input`; a call of a namespace's tool names
// its namespace; a call of OpenAI's shell or apply_patch (run by the client) is a `shell_call` or an
// `apply_patch_call`, streamed as OpenAI streams them, and one of the client's tool search a
// `tool_search_call` with its arguments.
import type { ChatCompletion } from '../../api/schemas';
import type { NamedEvents } from '../chat/backgroundResponses';
import { sealThinking } from '../chat/carriedThinking';
import { sealCompaction, type UserMessage } from '../chat/compactedSummary';
import { summaryWritten } from '../chat/compaction';
import {
  argumentsOf,
  conversationIdOf,
  customInputOf,
  patchOperationOf,
  shellActionOf,
  toolsByModelName,
} from '../chat/responsesRequest';
import type {
  Body,
  McpListing,
  OpenAiSearch,
  OpenAiToolSearch,
  ThinkingBlock,
  ThinkingPiece,
  WebToolUse,
} from '../chat/request';
import type { Completed } from '../chat/run';
import { openAiError } from './errorAnswers';

/** The Responses request, its input read (its items, the tools its client's tool search loaded). */
type Request = NonNullable<Body['responses']>;
type CompactionItem = NonNullable<Request['compacted']>;

/** What a model thought: the blocks it is to get back, and the reasoning to show of a model that signs nothing. */
interface Thought {
  blocks: ThinkingBlock[];
  reasoning?: string;
}

/**
 * A reasoning item's summary, when one is asked for: the text of each block the model thought, or its
 * unsigned reasoning.
 */
const summaryOf = ({ blocks, reasoning }: Thought, request: Request) =>
  !request.reasoning?.summary
    ? []
    : reasoning
      ? [{ type: 'summary_text', text: reasoning }]
      : blocks.flatMap((b) => ('thinking' in b && b.thinking ? [{ type: 'summary_text', text: b.thinking }] : []));

/** The reasoning item of a reply with thinking, whole; only what the model is to get back is carried. */
function reasoningItem(id: string, thought: Thought, request: Request): Record<string, unknown> {
  const carried = thought.blocks.length > 0 && request.include?.includes('reasoning.encrypted_content');
  return {
    type: 'reasoning',
    id,
    summary: summaryOf(thought, request),
    ...(carried ? { encrypted_content: sealThinking(thought.blocks) } : {}),
  };
}

const usageOf = (c: ChatCompletion) => {
  const cached = c.usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: c.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: c.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: c.usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: c.usage.prompt_tokens + c.usage.completion_tokens,
  };
};

const compact = (id: string) => id.replace(/-/g, '');

/** A response's id, from its request's. */
export const responseIdOf = (requestId: string) => `resp_${compact(requestId)}`;

/** OpenAI's names of a web search's actions, which its package renames. */
const SEARCH_ACTIONS: Record<string, string> = { search: 'search', openPage: 'open_page', findInPage: 'find_in_page' };

/**
 * A web search an OpenAI model ran, as OpenAI's item has it: what it did (with the pages it found when
 * the request's `include` asks for them), or that it failed.
 */
function webSearchCall(search: OpenAiSearch, request: Request): Record<string, unknown> {
  const base = { type: 'web_search_call', id: search.webSearchCall };
  if (search.failed) return { ...base, status: search.failed };
  const { action, sources } = search.result as { action?: Record<string, unknown>; sources?: unknown };
  const withSources = request.include?.includes('web_search_call.action.sources');
  const type = typeof action?.type === 'string' ? SEARCH_ACTIONS[action.type] : undefined;
  return {
    ...base,
    status: 'completed',
    ...(type
      ? { action: { ...action, type, ...(type === 'search' && sources && withSources ? { sources } : {}) } }
      : {}),
  };
}

/** A search an OpenAI model ran at OpenAI between its reasoning items: of the web, or of the request's tools. */
type RanAtOpenAi = OpenAiSearch | OpenAiToolSearch;

const ranAtOpenAi = (b: ThinkingBlock): b is RanAtOpenAi => 'webSearchCall' in b || 'toolSearchCall' in b;

/** A search an OpenAI model ran, as OpenAI's items: a web search's call, or a tool search's call and its output. */
function searchItems(run: RanAtOpenAi, request: Request): Array<Record<string, unknown>> {
  if ('webSearchCall' in run) return [webSearchCall(run, request)];
  const ran = { execution: 'server', call_id: null, status: 'completed' };
  return [
    { type: 'tool_search_call', id: run.toolSearchCall, ...ran, arguments: run.arguments },
    { type: 'tool_search_output', id: run.output, ...ran, tools: run.tools },
  ];
}

/**
 * The pages a reply's text cites, each with the stretch that cites it, as OpenAI's APIs annotate text
 * (a passage of a document, which has no address, is not one).
 */
export const urlCitations = (c: Completed) =>
  (c.cited ?? []).flatMap((cited) =>
    cited.pages.flatMap((page) =>
      'url' in page
        ? [{ start_index: cited.from, end_index: cited.to, url: page.url, title: page.title ?? page.url }]
        : [],
    ),
  );

/** The pages the text cites, as the Responses API annotates its text. */
const annotationsOf = (c: Completed) => urlCitations(c).map((cited) => ({ type: 'url_citation', ...cited }));

/**
 * A remote MCP server's tools as listed (chat/remoteMcp.ts), as OpenAI's item tells them; with no
 * `error` (optional in OpenAI's reference, and refused as null by the AI SDK's OpenAI package).
 */
const mcpListItem = (listing: McpListing, requestId: string, i: number) => ({
  type: 'mcp_list_tools',
  id: `mcpl_${compact(requestId)}_${i}`,
  server_label: listing.server,
  tools: listing.tools,
});

/** A call of a remote MCP server's tool the service ran, or one waiting for approval. */
type McpUse = Extract<WebToolUse, { name: 'mcp' | 'mcp_approval' }>;
const isMcpUse = (use: WebToolUse): use is McpUse => use.name === 'mcp' || use.name === 'mcp_approval';

/**
 * A call of a remote MCP server's tool as OpenAI's item tells it: run (`mcp_call`, with what it gave
 * back, or its error when the tool failed, and the approval it waited for), or waiting for the client's
 * approval (`mcp_approval_request`, whose id the client's answer names).
 */
function mcpItem(use: McpUse): Record<string, unknown> {
  const call = { server_label: use.server, name: use.tool, arguments: JSON.stringify(use.input) };
  if (use.name === 'mcp_approval') return { type: 'mcp_approval_request', id: use.id, ...call };
  const { text, isError } = use.results;
  return {
    type: 'mcp_call',
    id: `mcp_${use.id.replace(/^mcpr_/, '')}`,
    ...call,
    approval_request_id: use.approvalId ?? null,
    output: isError ? null : text,
    error: isError ? { type: 'mcp_tool_execution_error', content: [{ type: 'text', text }] } : null,
    status: isError ? 'failed' : 'completed',
  };
}

/** The id of the reply's nth reasoning item (from 0): one more after each search. */
const reasoningIdOf = (requestId: string, n: number) => `rs_${compact(requestId)}${n ? `_${n + 1}` : ''}`;

/**
 * A model's thinking up to each web or tool search it ran and the search, then the rest: as OpenAI
 * gives them, a reasoning item, then the search it led to, and so on.
 */
function uptoEachSearch(blocks: readonly ThinkingBlock[]): Array<{ blocks: ThinkingBlock[]; search?: RanAtOpenAi }> {
  const parts: Array<{ blocks: ThinkingBlock[]; search?: RanAtOpenAi }> = [{ blocks: [] }];
  for (const b of blocks) {
    const part = parts.at(-1)!;
    part.blocks.push(b);
    if (ranAtOpenAi(b)) {
      part.search = b;
      parts.push({ blocks: [] });
    }
  }
  return parts;
}

/** The summary an OpenAI model gave of the reasoning items among these blocks. */
const openAiSummary = (blocks: readonly ThinkingBlock[]) =>
  blocks.flatMap((b) => ('item' in b ? b.summary : [])).join('\n\n');

/**
 * The output items of a reply: its reasoning, and after the reasoning that led to each web search the
 * search, then its message (when it wrote text), then each function it calls. The last `late` blocks of
 * its thinking, which the model gave after it began to write (a Gemini model's signature on a call after
 * its text, its search), are a reasoning item of their own after the message, as the stream gave them,
 * after each search among them.
 */
function outputOf(c: Completed, request: Request, late = 0): Array<Record<string, unknown>> {
  const blocks = c.thinking ?? [];
  const parts = uptoEachSearch(blocks.slice(0, blocks.length - late));
  const reasoning = parts.flatMap((part, n) => {
    // A reply that searched shows each item's own summary; any other, all it reasoned (a model server's too).
    const thought = { blocks: part.blocks, reasoning: parts.length > 1 ? openAiSummary(part.blocks) : c.reasoning };
    return [
      ...(thought.blocks.length || thought.reasoning ? [reasoningItem(reasoningIdOf(c.id, n), thought, request)] : []),
      ...(part.search ? searchItems(part.search, request) : []),
    ];
  });
  // A search among them (a Gemini model's, told with the stream's end) is an item of its own before them, as streamed.
  const lateBlocks = late ? blocks.slice(-late) : [];
  const after = late
    ? [
        ...lateBlocks.flatMap((b) => (ranAtOpenAi(b) ? searchItems(b, request) : [])),
        reasoningItem(lateReasoningId(c.id), { blocks: lateBlocks }, request),
      ]
    : [];
  const message = c.choices[0]?.message;
  const text = message?.content
    ? [
        {
          type: 'message',
          id: `msg_${compact(c.id)}`,
          status: 'completed',
          role: 'assistant',
          content: [
            { type: 'output_text', text: message.content, annotations: annotationsOf(c), logprobs: logprobsOf(c) },
          ],
        },
      ]
    : [];
  // The remote MCP servers' tools as listed come first; the calls of them before the message, or after it
  // when the model wrote before its first call, as the stream gives them.
  const listed = (c.mcpListed ?? []).map((listing, i) => mcpListItem(listing, c.id, i));
  const mcpUses = (c.webTools ?? []).filter(isMcpUse);
  const mcp = mcpUses.map(mcpItem);
  const mcpFirst = (mcpUses[0]?.after ?? 0) === 0;
  // Each call under the name and namespace the request gave its tool (or its tool search loaded).
  const tools = toolsByModelName(request.tools, request.loaded);
  const calls = (message?.tool_calls ?? []).map((call, i) => {
    const named = tools.get(call.function.name)?.named;
    const name = {
      name: named?.name ?? call.function.name,
      ...(named?.namespace ? { namespace: named.namespace } : {}),
    };
    switch (named?.kind) {
      case 'custom':
        return {
          type: 'custom_tool_call',
          id: `ctc_${compact(c.id)}_${i}`,
          call_id: call.id,
          ...name,
          input: customInputOf(call.function.arguments),
          status: 'completed',
        };
      case 'shell':
        return {
          type: 'shell_call',
          id: `sh_${compact(c.id)}_${i}`,
          call_id: call.id,
          action: shellActionOf(call.function.arguments),
          environment: { type: 'local' },
          status: 'completed',
        };
      case 'tool_search':
        return {
          type: 'tool_search_call',
          id: `tsc_${compact(c.id)}_${i}`,
          call_id: call.id,
          execution: 'client',
          arguments: argumentsOf(call.function.arguments),
          status: 'completed',
        };
      case 'apply_patch':
        return {
          type: 'apply_patch_call',
          id: `apc_${compact(c.id)}_${i}`,
          call_id: call.id,
          operation: patchOperationOf(call.function.arguments),
          status: 'completed',
        };
      default:
        return {
          type: 'function_call',
          id: `fc_${compact(c.id)}_${i}`,
          call_id: call.id,
          ...name,
          arguments: call.function.arguments,
          status: 'completed',
        };
    }
  });
  return [
    ...(request.compacted ? [request.compacted] : []),
    ...listed,
    ...reasoning,
    ...(mcpFirst ? mcp : []),
    ...text,
    ...(mcpFirst ? [] : mcp),
    ...after,
    ...calls,
  ];
}

const CALLS: ReadonlySet<unknown> = new Set([
  'function_call',
  'custom_tool_call',
  'shell_call',
  'apply_patch_call',
  'tool_search_call',
]);
/** A call for the client to run (a tool search OpenAI ran is not one). */
const isCall = (item: Record<string, unknown>) => CALLS.has(item.type) && item.execution !== 'server';

/** The id of the reasoning item given after the message. */
const lateReasoningId = (requestId: string) => `rs_${compact(requestId)}_after`;

/**
 * The reply's token probabilities, with its text, as the model reported them when the request asked
 * (`include`: message.output_text.logprobs): each token's, with its likeliest alternatives, in the same
 * shape as on Chat Completions. None when not asked.
 */
const logprobsOf = (c: Completed): unknown[] =>
  (c.choices[0] as { logprobs?: { content?: unknown[] | null } } | undefined)?.logprobs?.content ?? [];

/** The fields of a response that echo what was asked, before and after it ran. */
function echoed(request: Request) {
  return {
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    metadata: request.metadata ?? {},
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    conversation: request.conversation ? { id: conversationIdOf(request.conversation) } : null,
    prompt: request.prompt ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    top_logprobs: request.top_logprobs ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    safety_identifier: request.safety_identifier ?? null,
    // The tier it ran in: auto runs in the default one, the only one taken here.
    service_tier: 'default',
    store: request.store !== false,
    background: request.background === true,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    // A remote MCP server's headers and authorization are the client's secrets: never echoed, nor kept.
    tools: (request.tools ?? []).map((t) =>
      t.type === 'mcp' ? { ...t, headers: undefined, authorization: undefined } : t,
    ),
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? 'disabled',
    user: request.user ?? null,
  };
}

/**
 * A response before it is answered (a stream's first events, a background response as it runs), or
 * one that ended with nothing to give: failed (with why) or cancelled.
 */
export function unfinishedObject(
  requestId: string,
  model: string,
  request: Request,
  createdAt: number,
  status: 'queued' | 'in_progress' | 'failed' | 'cancelled',
  error: { code: string; message: string } | null = null,
): Record<string, unknown> {
  return {
    id: responseIdOf(requestId),
    object: 'response',
    created_at: createdAt,
    status,
    error,
    incomplete_details: null,
    model,
    output: [],
    usage: null,
    ...echoed(request),
  };
}

/**
 * The output items a Space keeps for a later item_reference (domain/responseItems.ts): as answered, but a
 * reasoning item with the thinking it carries back, as OpenAI's kept reasoning is, asked for or not.
 */
export function keptOutput(c: Completed, request: Request, late = 0): Array<{ id: string }> {
  const carrying: Request = { ...request, include: [...(request.include ?? []), 'reasoning.encrypted_content'] };
  return outputOf(c, carrying, late) as Array<{ id: string }>;
}

/** Why a reply is incomplete, in the Responses API's words: cut at max_output_tokens, or by a content filter. */
const INCOMPLETE: Record<string, string> = { length: 'max_output_tokens', content_filter: 'content_filter' };

/**
 * The response object; a reply cut at max_output_tokens or stopped by its provider's content filter
 * is `incomplete`, as OpenAI marks it. `late`: the blocks of thinking a stream gave after the message
 * (outputOf).
 */
export function responseObject(c: Completed, request: Request, createdAt: number, late = 0): Record<string, unknown> {
  const cut = INCOMPLETE[c.choices[0]?.finish_reason ?? ''];
  return {
    id: responseIdOf(c.id),
    object: 'response',
    created_at: createdAt,
    status: cut ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: cut ? { reason: cut } : null,
    model: c.model,
    output: outputOf(c, request, late),
    usage: usageOf(c),
    ...echoed(request),
    llm_spaces: c.metadata,
  };
}

/**
 * The answer of POST /v1/responses/compact (OpenAI's compacted response): the user's messages as they
 * were, then the compaction item (compactionItem).
 */
export function compactionObject(c: Completed, kept: UserMessage[], createdAt: number): Record<string, unknown> {
  const item = compactionItem(c, kept);
  return {
    id: responseIdOf(c.id),
    object: 'response.compaction',
    created_at: createdAt,
    output: [
      ...kept.map((message, i) => ({
        type: 'message',
        id: message.id ?? `msg_${compact(c.id)}_${i}`,
        status: 'completed',
        role: 'user',
        content:
          typeof message.content === 'string' ? [{ type: 'input_text', text: message.content }] : message.content,
      })),
      item,
    ],
    usage: usageOf(c),
    llm_spaces: c.metadata,
  };
}

/** The compaction item of a summary the model wrote, with the user's messages it keeps (chat/compaction.ts). */
export function compactionItem(c: Completed, kept: UserMessage[]): CompactionItem {
  const sealed = sealCompaction(summaryWritten(c), c.model, kept);
  return { type: 'compaction', id: compactionIdOf(c.id), encrypted_content: sealed };
}

/** The id of the compaction item a summing up (the request of this id) writes. */
const compactionIdOf = (requestId: string) => `cmp_${compact(requestId)}`;

/**
 * Writes a reply as the Responses stream: thinking as it comes (a reasoning item, with its summary's
 * text when a summary is asked for), then text as it comes, then the function calls, then the end.
 */
export class ResponsesStream {
  private sequence = 0;
  /** The index the next output item takes. */
  private items = 0;
  private text = '';
  /** The message's index, once its text began. */
  private messageIndex?: number;
  /** The reasoning item's index while it is open, the blocks thought so far, and the text of the one in progress. */
  private reasoningIndex?: number;
  private blocks: ThinkingBlock[] = [];
  /** The reasoning items ended: one more begins after each web search. */
  private reasoningItems = 0;
  private thought = '';
  /** Reasoning nobody signed (another provider's or a model server's), shown in the summary and carried nowhere. */
  private unsigned = '';
  /**
   * Thinking given after the text began (a Gemini model's signature on a call it made after writing,
   * an Anthropic model's thinking between text and a tool): a reasoning item after the message, with
   * the text of the block in progress.
   */
  private readonly late: ThinkingBlock[] = [];
  private lateThought = '';
  /** The remote MCP servers' listings told so far. */
  private listings = 0;
  /** The summary parts sent; the last one is open while `partOpen`. */
  private parts = 0;
  private partOpen = false;
  private readonly responseId: string;
  private readonly messageId: string;
  /** The response as the Space keeps it, made once for keeping and for the last event. */
  private response?: Record<string, unknown>;
  /** The compaction item being written (compactionBegun): its id and index. */
  private summing?: { id: string; index: number };

  constructor(
    private readonly events: NamedEvents,
    private readonly requestId: string,
    private readonly model: string,
    /** The request as answered: its conversation's summary (`compacted`) comes with compactionDone. */
    private request: Request,
    private readonly createdAt: number,
  ) {
    this.responseId = responseIdOf(requestId);
    this.messageId = `msg_${compact(requestId)}`;
  }

  /** The reasoning item under way's id. */
  private get reasoningId(): string {
    return reasoningIdOf(this.requestId, this.reasoningItems);
  }

  private send(type: string, data: Record<string, unknown>): void {
    this.events.sendNamed(type, { type, sequence_number: this.sequence++, ...data });
  }

  start(): void {
    const response = unfinishedObject(this.requestId, this.model, this.request, this.createdAt, 'in_progress');
    // A background response is queued first, as its answer without stream says.
    if (this.request.background) {
      const queued = { ...response, status: 'queued' };
      this.send('response.created', { response: queued });
      this.send('response.queued', { response: queued });
    } else this.send('response.created', { response });
    this.send('response.in_progress', { response });
    // The summary server-side compaction wrote before the reply: its first item.
    const compacted = this.request.compacted;
    if (!compacted) return;
    const index = this.items++;
    this.send('response.output_item.added', { output_index: index, item: compacted });
    this.send('response.output_item.done', { output_index: index, item: compacted });
  }

  /**
   * A summing up of the conversation begins (a compaction_trigger's, or server-side compaction's before
   * the reply): its compaction item, which OpenAI gives no content until it is done.
   */
  compactionBegun(summingRequestId: string): void {
    this.summing = { id: compactionIdOf(summingRequestId), index: this.items++ };
    this.send('response.output_item.added', {
      output_index: this.summing.index,
      item: { type: 'compaction', id: this.summing.id },
    });
  }

  /** The summing up is still under way: OpenAI's progress event, which carries nothing of the summary. */
  compacting(): void {
    if (!this.summing) return;
    this.send('response.compaction.compacting', {
      item_id: this.summing.id,
      output_index: this.summing.index,
    });
  }

  /** The summing up is done: its item whole, in the request the reply goes on with (`compacted`). */
  compactionDone(request: Request): void {
    this.request = request;
    this.send('response.output_item.done', { output_index: this.summing?.index, item: request.compacted });
  }

  /** Thinking: its text goes to the summary part of its block, which a signature ends. */
  thinking(piece: ThinkingPiece): void {
    if ('mcpListed' in piece) return this.mcpListed(piece.mcpListed);
    if ('webTool' in piece && isMcpUse(piece.webTool)) return this.mcpCalled(piece.webTool);
    // Anthropic's web searches and fetches are asked only through its Messages API; the pages a text
    // cites come with the message's end (finish).
    if ('webTool' in piece || 'cited' in piece) return;
    if (this.reasoningIndex === undefined) {
      if (this.messageIndex !== undefined) return this.thinkingLate(piece);
      this.reasoningIndex = this.items++;
      this.send('response.output_item.added', {
        output_index: this.reasoningIndex,
        item: { type: 'reasoning', id: this.reasoningId, summary: [] },
      });
    }
    if ('redacted' in piece || 'carried' in piece) {
      this.endBlock();
      this.blocks.push('carried' in piece ? piece.carried : piece);
      if (!('carried' in piece && ranAtOpenAi(piece.carried))) return;
      // A search ends the reasoning that led to it (which carries it back to the model), as at OpenAI.
      this.endReasoning();
      this.searched(piece.carried);
      return;
    }
    if ('signature' in piece) {
      this.blocks.push({ thinking: this.thought, signature: piece.signature });
      this.endBlock();
      return;
    }
    // The reasoning after a search is an item of its own, whose summary starts afresh.
    const fresh = !this.blocks.length && !this.thought && !this.unsigned;
    const said = 'thinking' in piece ? piece.thinking : piece.reasoning;
    const text = fresh ? said.replace(/^\n+/, '') : said;
    this.thought += text;
    if ('reasoning' in piece) this.unsigned += text;
    if (!this.request.reasoning?.summary || !text) return;
    const at = { item_id: this.reasoningId, output_index: this.reasoningIndex, summary_index: this.parts };
    if (!this.partOpen) {
      this.send('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
      this.partOpen = true;
    }
    this.send('response.reasoning_summary_text.delta', { ...at, delta: text });
  }

  /** A remote MCP server's tools as listed, as OpenAI streams its item: added, in progress, completed, done. */
  private mcpListed(listing: McpListing): void {
    const item = mcpListItem(listing, this.requestId, this.listings++);
    const index = this.items++;
    const at = { item_id: item.id, output_index: index };
    this.send('response.output_item.added', { output_index: index, item: { ...item, tools: [] } });
    this.send('response.mcp_list_tools.in_progress', at);
    this.send('response.mcp_list_tools.completed', at);
    this.send('response.output_item.done', { output_index: index, item });
  }

  /**
   * A call of a remote MCP server's tool, once run, as OpenAI streams one (its item, its arguments, in
   * progress, then completed or failed); or one waiting for approval, its item added and done.
   */
  private mcpCalled(use: McpUse): void {
    this.endReasoning();
    const item = mcpItem(use);
    const index = this.items++;
    if (item.type === 'mcp_call') {
      const at = { item_id: item.id, output_index: index };
      this.send('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', output: null, error: null, status: 'in_progress' },
      });
      this.send('response.mcp_call_arguments.delta', { ...at, delta: item.arguments });
      this.send('response.mcp_call_arguments.done', { ...at, arguments: item.arguments });
      this.send('response.mcp_call.in_progress', at);
      this.send(item.status === 'failed' ? 'response.mcp_call.failed' : 'response.mcp_call.completed', at);
    } else this.send('response.output_item.added', { output_index: index, item });
    this.send('response.output_item.done', { output_index: index, item });
  }

  /** Thinking after the text began: kept for its own item after the message (finish); unsigned reasoning is not. */
  private thinkingLate(piece: ThinkingPiece): void {
    if ('redacted' in piece) this.late.push(piece);
    else if ('carried' in piece) {
      this.late.push(piece.carried);
      if (ranAtOpenAi(piece.carried)) this.searched(piece.carried);
    } else if ('thinking' in piece) this.lateThought += piece.thinking;
    else if ('signature' in piece) {
      this.late.push({ thinking: this.lateThought, signature: piece.signature });
      this.lateThought = '';
    }
  }

  /**
   * A web search the model ran, as OpenAI streams one (its item, then in progress, searching and
   * completed), told when it is over; a tool search as its call's item and its output's, each added and
   * done. It goes back to the model in the reasoning item.
   */
  private searched(search: RanAtOpenAi): void {
    if ('toolSearchCall' in search) {
      for (const item of searchItems(search, this.request)) {
        const index = this.items++;
        this.send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
        this.send('response.output_item.done', { output_index: index, item });
      }
      return;
    }
    const item = webSearchCall(search, this.request);
    const index = this.items++;
    const at = { output_index: index, item_id: search.webSearchCall };
    this.send('response.output_item.added', {
      output_index: index,
      item: { type: 'web_search_call', id: search.webSearchCall, status: 'in_progress' },
    });
    this.send('response.web_search_call.in_progress', at);
    this.send('response.web_search_call.searching', at);
    if (!search.failed) this.send('response.web_search_call.completed', at);
    this.send('response.output_item.done', { output_index: index, item });
  }

  /** A block of thinking ended: its summary part, if one is open, ends with it. */
  private endBlock(): void {
    const text = this.thought;
    this.thought = '';
    if (!this.partOpen) return;
    const at = { item_id: this.reasoningId, output_index: this.reasoningIndex, summary_index: this.parts++ };
    this.send('response.reasoning_summary_text.done', { ...at, text });
    this.send('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
    this.partOpen = false;
  }

  /** The reasoning item ends when the model begins to write, or the reply ends. */
  private endReasoning(): void {
    if (this.reasoningIndex === undefined) return;
    this.endBlock();
    this.send('response.output_item.done', {
      output_index: this.reasoningIndex,
      item: reasoningItem(this.reasoningId, { blocks: this.blocks, reasoning: this.unsigned }, this.request),
    });
    this.reasoningIndex = undefined;
    this.reasoningItems++;
    this.blocks = [];
    this.unsigned = '';
    this.parts = 0;
  }

  delta(text: string): void {
    if (this.messageIndex === undefined) {
      this.endReasoning();
      this.messageIndex = this.items++;
      this.send('response.output_item.added', {
        output_index: this.messageIndex,
        item: { type: 'message', id: this.messageId, status: 'in_progress', role: 'assistant', content: [] },
      });
      this.send('response.content_part.added', {
        item_id: this.messageId,
        output_index: this.messageIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    this.text += text;
    const at = { item_id: this.messageId, output_index: this.messageIndex };
    this.send('response.output_text.delta', { ...at, content_index: 0, delta: text, logprobs: [] });
  }

  /** What a Space keeps: the output items as the stream gives them (its late thinking an item of its own), and the response. */
  kept(c: Completed): { items: Array<{ id: string }>; answer: Record<string, unknown> } {
    this.response = responseObject(c, this.request, this.createdAt, this.late.length);
    return { items: keptOutput(c, this.request, this.late.length), answer: this.response };
  }

  finish(c: Completed): void {
    this.endReasoning();
    const response = this.response ?? responseObject(c, this.request, this.createdAt, this.late.length);
    const output = response.output as Array<Record<string, unknown>>;
    if (this.messageIndex !== undefined) {
      const at = { item_id: this.messageId, output_index: this.messageIndex };
      const annotations = annotationsOf(c);
      for (const [i, annotation] of annotations.entries())
        this.send('response.output_text.annotation.added', {
          ...at,
          content_index: 0,
          annotation_index: i,
          annotation,
        });
      this.send('response.output_text.done', { ...at, content_index: 0, text: this.text, logprobs: logprobsOf(c) });
      this.send('response.content_part.done', {
        ...at,
        content_index: 0,
        part: { type: 'output_text', text: this.text, annotations, logprobs: logprobsOf(c) },
      });
      this.send('response.output_item.done', {
        output_index: this.messageIndex,
        item: output.find((o) => o.type === 'message'),
      });
    }
    const after = output.find((o) => o.id === lateReasoningId(c.id));
    if (after) {
      const index = this.items++;
      this.send('response.output_item.added', { output_index: index, item: { ...after, summary: [] } });
      this.send('response.output_item.done', { output_index: index, item: after });
    }
    for (const item of output.filter(isCall)) {
      const index = this.items++;
      const at = { item_id: item.id, output_index: index };
      if (item.type === 'custom_tool_call') {
        this.send('response.output_item.added', {
          output_index: index,
          item: { ...item, input: '', status: 'in_progress' },
        });
        this.send('response.custom_tool_call_input.delta', { ...at, delta: item.input });
        this.send('response.custom_tool_call_input.done', { ...at, input: item.input });
      } else if (item.type === 'shell_call') {
        const action = item.action as ReturnType<typeof shellActionOf>;
        this.send('response.output_item.added', {
          output_index: index,
          item: { ...item, action: { ...action, commands: [] }, status: 'in_progress' },
        });
        for (const [i, command] of action.commands.entries()) {
          const of = { output_index: index, command_index: i };
          this.send('response.shell_call_command.added', { ...of, command: '' });
          this.send('response.shell_call_command.delta', { ...of, delta: command });
          this.send('response.shell_call_command.done', { ...of, command });
        }
      } else if (item.type === 'apply_patch_call' || item.type === 'tool_search_call') {
        this.send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
      } else {
        this.send('response.output_item.added', {
          output_index: index,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        this.send('response.function_call_arguments.delta', { ...at, delta: item.arguments });
        this.send('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
      }
      this.send('response.output_item.done', { output_index: index, item });
    }
    this.send(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }

  /** A failure after the stream began: OpenAI's error event, which its clients raise as an error. */
  error(status: number, detail: string): void {
    const { message, type, code, param } = openAiError(status, detail).error;
    this.send('error', { code: code ?? type, message, param });
  }
}
