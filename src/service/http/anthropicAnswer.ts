// A chat completion in the shapes of Anthropic's Messages API: the message, its named server-sent
// events (message_start, content_block_*, message_delta, message_stop, error) and its errors. The
// routing receipt and the costs ride along as `llm_spaces`, an extra field of the message.
import { sealThinking } from '../chat/carriedThinking';
import {
  isToolSearch,
  textAndWebTools,
  type Cited,
  type CitedPage,
  type Body,
  type ProviderReasoning,
  type ThinkingBlock,
  type ThinkingPiece,
  type WebToolUse,
} from '../chat/request';
import type { Completed } from '../chat/run';
import type { EventStream } from './eventStream';

/** OpenAI's finish reasons in Anthropic's words: a provider's safety filter is Anthropic's `refusal`. */
const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/** Why the model stopped, in Anthropic's words: a turn Anthropic paused goes on when sent back as it is. */
const stopReasonOf = (c: Completed) =>
  c.paused ? 'pause_turn' : (STOP_REASONS[c.choices[0]?.finish_reason ?? 'stop'] ?? 'end_turn');

/** Anthropic's usage, with the web searches (which Anthropic bills apart) and fetches the model ran. */
const usageOf = (c: Completed) => {
  const cached = c.usage.prompt_tokens_details?.cached_tokens ?? 0;
  const written = c.usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input_tokens: c.usage.prompt_tokens - cached - written,
    output_tokens: c.usage.completion_tokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    ...(c.webTools?.length ? { server_tool_use: serverToolUse(c.webTools) } : {}),
  };
};

/** How many web searches and fetches the model ran, as Anthropic counts them. */
const serverToolUse = (uses: readonly WebToolUse[]) => ({
  web_search_requests: uses.filter((u) => u.name === 'web_search').length,
  web_fetch_requests: uses.filter((u) => u.name === 'web_fetch').length,
});

/**
 * A web search, fetch or tool search the model ran, as Anthropic writes it: the call, then what it
 * found, read or loaded; or a remote MCP server's tool the service ran for it, as Anthropic's MCP
 * connector writes one (the tool and its server by name, then the text it gave back).
 */
const webToolBlocks = (u: WebToolUse) =>
  u.name === 'mcp'
    ? [
        { type: 'mcp_tool_use', id: u.id, name: u.tool, server_name: u.server, input: u.input },
        {
          type: 'mcp_tool_result',
          tool_use_id: u.id,
          is_error: u.results.isError,
          content: [{ type: 'text', text: u.results.text }],
        },
      ]
    : u.name === 'mcp_approval'
      ? [] // Anthropic's connector asks no approval, so none is asked of its servers.
      : serverToolBlocks(u);

const serverToolBlocks = (u: Exclude<WebToolUse, { name: 'mcp' | 'mcp_approval' }>) => [
  { type: 'server_tool_use', id: u.id, name: u.name, input: u.input },
  isToolSearch(u)
    ? {
        type: 'tool_search_tool_result',
        tool_use_id: u.id,
        content: Array.isArray(u.results)
          ? {
              type: 'tool_search_tool_search_result',
              tool_references: u.results.map((name) => ({ type: 'tool_reference', tool_name: name })),
            }
          : { type: 'tool_search_tool_result_error', error_code: u.results.error_code, error_message: null },
      }
    : {
        type: `${u.name}_tool_result`,
        tool_use_id: u.id,
        content: 'error_code' in u.results ? { type: `${u.name}_tool_result_error`, ...u.results } : u.results,
      },
];

/** A page (or a passage of a page read) a text cites, as Anthropic writes it. */
const citation = (page: CitedPage) =>
  'url' in page
    ? {
        type: 'web_search_result_location',
        url: page.url,
        title: page.title,
        encrypted_index: page.encryptedIndex ?? '',
        cited_text: page.citedText ?? '',
      }
    : {
        type: 'char_location',
        cited_text: page.citedText,
        document_index: page.documentIndex,
        document_title: page.documentTitle,
        start_char_index: page.startChar,
        end_char_index: page.endChar,
      };

/**
 * A piece of a reply's text as Anthropic's blocks: each stretch that cites pages a block of its own,
 * with its citations.
 */
function textBlocks(text: string, from: number, cited: readonly Cited[]): Array<Record<string, unknown>> {
  const to = from + text.length;
  const blocks: Array<Record<string, unknown>> = [];
  let at = from;
  for (const c of cited) {
    if (c.to <= at || c.from >= to || !c.pages.length) continue;
    if (c.from > at) blocks.push({ type: 'text', text: text.slice(at - from, c.from - from) });
    const end = Math.min(c.to, to);
    blocks.push({
      type: 'text',
      text: text.slice(Math.max(c.from, at) - from, end - from),
      citations: c.pages.map(citation),
    });
    at = end;
  }
  if (at < to) blocks.push({ type: 'text', text: text.slice(at - from) });
  return blocks;
}

/**
 * The content blocks of a reply: the model's thinking, its text with the web searches and fetches it ran
 * where it ran them and the pages it cites, then each tool the model asks for.
 */
function blocksOf(c: Completed): Array<Record<string, unknown>> {
  const message = c.choices[0]?.message;
  const tools = (message?.tool_calls ?? []).map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: parseInput(call.function.arguments),
  }));
  return [
    ...(c.thinking ?? []).map(thinkingBlock),
    ...textAndWebTools<Record<string, unknown>>(
      message?.content ?? '',
      c.webTools ?? [],
      (text, from) => textBlocks(text, from, c.cited ?? []),
      webToolBlocks,
    ),
    ...tools,
  ];
}

/**
 * A block of thinking as Anthropic writes it, for the client to send back as it is. Another provider's
 * reasoning is a thinking block too, under this service's mark as its signature, so that Claude Code
 * sends it back to that model (messagesRequest.ts): an OpenAI model's item with its summary as the text,
 * a MiniMax model's block with its thinking, a Gemini model's thought signature with none.
 */
const thinkingBlock = (b: ThinkingBlock) =>
  'redacted' in b
    ? { type: 'redacted_thinking', data: b.redacted }
    : 'thinking' in b
      ? { type: 'thinking', thinking: b.thinking, signature: b.signature }
      : { type: 'thinking', thinking: providerThinkingText(b), signature: sealThinking([b]) };

/** The text of another provider's reasoning, as a thinking block shows it. */
const providerThinkingText = (b: ProviderReasoning) =>
  'item' in b ? b.summary.join('\n\n') : 'minimaxThinking' in b ? b.minimaxThinking : '';

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}

/**
 * A summary of the conversation (chat/compaction.ts), as Anthropic's compaction block: its text as the
 * model wrote it, which stands for every block before it when the client sends it back.
 */
const compactionBlock = (summary: string) => ({ type: 'compaction', content: summary, encrypted_content: null });
/** A compaction block as its stream opens it, before the summary. */
const COMPACTION_OPENED = { type: 'compaction', content: null, encrypted_content: null };

/** What Anthropic's compaction took, beside the reply's own usage: its iterations, the summing up first. */
type Compacted = NonNullable<NonNullable<Body['anthropicCompaction']>['compacted']>;

/** The usage of a reply, with the summing up's and the reply's own as iterations when it was compacted first. */
const usageWith = (c: Completed, compacted: Compacted | undefined) => {
  const usage = usageOf(c);
  if (!compacted) return usage;
  const own = { type: 'message', input_tokens: usage.input_tokens, output_tokens: usage.output_tokens };
  return { ...usage, iterations: [{ type: 'compaction', ...compacted.usage }, own] };
};

export function anthropicMessage(c: Completed, compacted?: Compacted): Record<string, unknown> {
  return {
    ...messageOf(c),
    content: [...(compacted ? [compactionBlock(compacted.summary)] : []), ...blocksOf(c)],
    stop_reason: stopReasonOf(c),
    usage: usageWith(c, compacted),
  };
}

/**
 * The answer to a request for compaction (its `compaction`, or an edit that pauses after it): the summary
 * the model wrote (`c`) as the one block, nothing sampled after it.
 */
export function anthropicCompaction(c: Completed, summary: string): Record<string, unknown> {
  return {
    ...messageOf(c),
    content: [compactionBlock(summary)],
    stop_reason: 'compaction',
    usage: summingUsage(c),
  };
}

/** The usage of a request for compaction: the summing up its one iteration. */
const summingUsage = (c: Completed) => {
  const usage = usageOf(c);
  const iteration = { type: 'compaction', input_tokens: usage.input_tokens, output_tokens: usage.output_tokens };
  return { ...usage, iterations: [iteration] };
};

const messageOf = (c: Completed) => ({
  id: `msg_${c.id.replace(/-/g, '')}`,
  type: 'message',
  role: 'assistant',
  model: c.model,
  stop_sequence: null,
  llm_spaces: c.metadata,
});

/** Writes a reply as Anthropic's stream: thinking and text as they come, then the tool uses, then the end. */
export class AnthropicStream {
  private textOpen = false;
  private thinkingOpen = false;
  private next = 0;

  constructor(
    private readonly events: EventStream,
    private readonly id: string,
    private readonly model: string,
    private readonly inputTokens: number,
    /** The summary written before the reply, its first block (chat/compaction.ts), or given by compactionDone. */
    private compacted?: Compacted,
    /** Its cache diagnostics, when the request asked for them (chat/cacheDiagnostics.ts). */
    private readonly diagnostics?: Record<string, unknown> | null,
  ) {}

  private send(type: string, data: Record<string, unknown>): void {
    this.events.sendNamed(type, { type, ...data });
  }

  start(): void {
    this.send('message_start', {
      message: {
        id: `msg_${this.id.replace(/-/g, '')}`,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.inputTokens, output_tokens: 0 },
        ...(this.diagnostics === undefined ? {} : { diagnostics: this.diagnostics }),
      },
    });
    if (this.compacted) this.compaction(this.compacted.summary);
  }

  /** A compaction block, whole. */
  compaction(summary: string): void {
    this.compactionBegun();
    this.compactionDone(summary);
  }

  /** A summing up of the conversation begins: its compaction block, empty until the summary is written. */
  compactionBegun(): void {
    this.send('content_block_start', { index: this.next, content_block: COMPACTION_OPENED });
  }

  /** The summing up is still under way: Anthropic's `ping`, which its clients read as the stream being alive. */
  compacting(): void {
    this.send('ping', {});
  }

  /**
   * The summing up is done: Anthropic streams its summary as one delta, which ends the block. `compacted`
   * is what it took, when the reply goes on from it (its usage's first iteration).
   */
  compactionDone(summary: string, compacted?: Compacted): void {
    if (compacted) this.compacted = compacted;
    const index = this.next++;
    this.send('content_block_delta', {
      index,
      delta: { ...COMPACTION_OPENED, type: 'compaction_delta', content: summary },
    });
    this.send('content_block_stop', { index });
  }

  /**
   * Thinking: its text opens a block, the signature closes it; a redacted block comes whole, and another
   * provider's reasoning whole when it is (an OpenAI model's summary streamed as it came would be
   * reasoning nobody signed until then). Reasoning nobody signed is not given: Claude Code would send
   * it back, and Anthropic refuses it unsigned.
   */
  thinking(piece: ThinkingPiece): void {
    // A server's tools as listed are told to OpenAI's clients only.
    if ('reasoning' in piece || 'mcpListed' in piece) return;
    if ('cited' in piece) {
      // A block of text ended, with the pages it cites: the next text is a block of its own.
      if (this.textOpen)
        for (const page of piece.cited.pages)
          this.send('content_block_delta', {
            index: this.next,
            delta: { type: 'citations_delta', citation: citation(page) },
          });
      return this.closeText();
    }
    this.closeText();
    if ('webTool' in piece) {
      this.closeThinking();
      const [call, result] = webToolBlocks(piece.webTool);
      const index = this.next++;
      this.send('content_block_start', { index, content_block: { ...call, input: {} } });
      this.send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(piece.webTool.input) },
      });
      this.send('content_block_stop', { index });
      this.send('content_block_start', { index: this.next, content_block: result });
      this.send('content_block_stop', { index: this.next++ });
      return;
    }
    if ('redacted' in piece || 'carried' in piece) {
      this.closeThinking();
      const index = this.next++;
      const block = thinkingBlock('carried' in piece ? piece.carried : piece);
      this.send('content_block_start', {
        index,
        content_block: block.type === 'thinking' ? { ...block, thinking: '', signature: '' } : block,
      });
      if (block.type === 'thinking') {
        this.send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
        this.send('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
      }
      this.send('content_block_stop', { index });
      return;
    }
    if (!this.thinkingOpen) {
      this.send('content_block_start', {
        index: this.next,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      this.thinkingOpen = true;
    }
    if ('thinking' in piece)
      this.send('content_block_delta', {
        index: this.next,
        delta: { type: 'thinking_delta', thinking: piece.thinking },
      });
    else {
      this.send('content_block_delta', {
        index: this.next,
        delta: { type: 'signature_delta', signature: piece.signature },
      });
      this.closeThinking();
    }
  }

  private closeThinking(): void {
    if (!this.thinkingOpen) return;
    this.send('content_block_stop', { index: this.next++ });
    this.thinkingOpen = false;
  }

  private closeText(): void {
    if (!this.textOpen) return;
    this.send('content_block_stop', { index: this.next++ });
    this.textOpen = false;
  }

  delta(text: string): void {
    this.closeThinking();
    if (!this.textOpen) {
      this.send('content_block_start', { index: this.next, content_block: { type: 'text', text: '' } });
      this.textOpen = true;
    }
    this.send('content_block_delta', { index: this.next, delta: { type: 'text_delta', text } });
  }

  /** The end of the answer to a request for compaction (anthropicCompaction), its block sent. */
  finishCompaction(c: Completed): void {
    this.send('message_delta', {
      delta: { stop_reason: 'compaction', stop_sequence: null },
      usage: summingUsage(c),
      llm_spaces: c.metadata,
    });
    this.send('message_stop', {});
  }

  finish(c: Completed): void {
    this.closeThinking();
    this.closeText();
    for (const block of blocksOf(c).filter((b) => b.type === 'tool_use')) {
      const index = this.next++;
      this.send('content_block_start', { index, content_block: { ...block, input: {} } });
      this.send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
      this.send('content_block_stop', { index });
    }
    this.send('message_delta', {
      delta: { stop_reason: stopReasonOf(c), stop_sequence: null },
      usage: usageWith(c, this.compacted),
      llm_spaces: c.metadata,
    });
    this.send('message_stop', {});
  }

  error(status: number, message: string): void {
    this.send('error', anthropicError(status, message));
  }
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

/**
 * An error as Anthropic's clients read it: `{"type": "error", "error": {"type", "message"}}`, with its
 * `details` when it has some (a thread's `error_code`). A refusal of the request that has no type of
 * its own (a 415) is the client's to mend, not the service's fault.
 */
export function anthropicError(
  status: number,
  message: string,
  details?: Record<string, unknown>,
): { type: 'error'; error: { type: string; message: string; details?: Record<string, unknown> } } {
  const type = ERROR_TYPES[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
  return { type: 'error', error: { type, message, ...(details ? { details } : {}) } };
}
