// POST /v1/messages (conventions.md, the Anthropic-compatible surface): Anthropic's request read into
// the engine's request, so it is routed, logged and billed through the Space like a chat completion.
// `system` becomes the system message, content blocks become parts, tool uses become tool calls and
// tool results the tool's messages.
import type { z } from 'zod';
import {
  ANTHROPIC_CLIENT_TOOLS,
  ANTHROPIC_TOOL_SEARCH,
  ANTHROPIC_WEB_FETCH,
  ANTHROPIC_WEB_SEARCH,
  type AnthropicMessagesBody,
  type AnthropicPlainBody,
  type AnthropicTool,
  type CacheControl,
} from '../../api/schemas';
import type { Caller } from '../domain/caller';
import { invalid } from '../problem';
import { promptTokens } from '../tokenizer';
import { clientTool } from './anthropicClientTools';
import { openThinking } from './carriedThinking';
import { summaryMessage } from './compactedSummary';
import { editContext } from './contextEdits';
import { mcpFunctionName, mcpResultText } from './remoteMcp';
import { systemMessagesRead } from './systemMessages';
import {
  promptOf,
  requestedSpace,
  toolsNotGiven,
  type Body,
  type ChatMessage,
  type McpServerAsked,
  type McpToolConfig,
  type ThinkingBlock,
  type ToolOptions,
  type ToolSearchName,
  type WebFetchAsked,
  type WebToolResult,
  type WebToolUse,
  type WebSearchAsked,
} from './request';

type Given = z.output<typeof AnthropicMessagesBody>;
type Message = Given['messages'][number];
type Tool = AnthropicTool;
type Toolset = Extract<NonNullable<Given['tools']>[number], { type: 'mcp_toolset' }>;

/** The input tokens past which Anthropic's compaction sums a conversation up, when its edit gives no trigger. */
const DEFAULT_COMPACTION_TRIGGER = 150_000;

/**
 * Where the conversation the model reads begins (Anthropic's compaction): at the last compaction block
 * with a summary, which stands for every block before it; at the start when there is none. A summary
 * is the model's, so it is refused in a user's turn.
 */
function compactedFrom(messages: readonly Message[]): { message: number; block: number } {
  let start = { message: 0, block: 0 };
  for (const [i, m] of messages.entries()) {
    if (typeof m.content === 'string' || !m.content) continue;
    for (const [j, b] of m.content.entries()) {
      if (b.type !== 'compaction') continue;
      if (m.role !== 'assistant')
        throw invalid(['body', 'messages', i, 'content', j], 'is a compaction, which only an assistant turn carries');
      if (b.content) start = { message: i, block: j };
    }
  }
  return start;
}

export function messagesRequest(caller: Caller, given: Given): Body {
  const toolsets = (given.tools ?? []).filter((t): t is Toolset => t.type === 'mcp_toolset');
  const mcpServers = mcpServersOf(given.mcp_servers ?? [], toolsets);
  const body = systemMessagesRead({
    ...given,
    tools: given.tools && given.tools.filter((t): t is Tool => t.type !== 'mcp_toolset'),
  });
  const blocks = typeof body.system === 'string' ? [] : (body.system ?? []);
  const system = typeof body.system === 'string' ? body.system : blocks.map((b) => b.text).join('\n');
  const start = compactedFrom(body.messages);
  const sent: ChatMessage[] = [
    ...(system ? [{ role: 'system' as const, content: system, ...cacheOf(blocks) }] : []),
    ...body.messages.flatMap((m, i) =>
      i < start.message ? [] : chatMessages(m, i, i === start.message ? start.block : 0),
    ),
  ];
  const edited = body.context_management
    ? editContext(sent, body.context_management.edits, (texts) => promptTokens.prompt(caller.orgId, texts))
    : sent;
  const output = body.output_config;
  // The client's own tools, and Anthropic's that the client runs (bash, the text editor, memory, computer use).
  // Anthropic's server tools run at Anthropic: its web search, fetch and tool search are asked of
  // Anthropic's models (chat/run.ts says when another model answered without them), the others (code
  // execution) of none.
  const tools = (body.tools ?? []).flatMap((t) =>
    !t.type || t.type === 'custom'
      ? [
          {
            type: 'function' as const,
            function: { name: t.name, description: t.description, parameters: t.input_schema, strict: t.strict },
            ...cacheOf([t]),
            ...advancedOf(t),
            ...(t.eager_input_streaming ? { eagerInput: true } : {}),
          },
        ]
      : ANTHROPIC_CLIENT_TOOLS.has(t.type)
        ? [{ ...clientTool(t.type, t), ...advancedOf(t) }]
        : [],
  );
  const messages = automaticallyCached(edited, tools, body.cache_control ?? undefined);
  const search = body.tools?.find((t) => t.type && ANTHROPIC_WEB_SEARCH.has(t.type));
  const fetch = body.tools?.find((t) => t.type && ANTHROPIC_WEB_FETCH.has(t.type));
  const toolSearch = body.tools?.find((t) => t.type && ANTHROPIC_TOOL_SEARCH.has(t.type));
  const advancedToolUse = checkToolSearch(body) || !!toolSearch;
  const servers = (body.tools ?? []).flatMap((t) =>
    t.type &&
    t.type !== 'custom' &&
    !ANTHROPIC_CLIENT_TOOLS.has(t.type) &&
    t !== search &&
    t !== fetch &&
    t !== toolSearch
      ? [t.type]
      : [],
  );
  const compact = body.context_management?.edits.find((e) => e.type === 'compact_20260112');
  return {
    ...toolsNotGiven('Anthropic', 'server tools', servers),
    ...(compact
      ? {
          anthropicCompaction: {
            trigger: compact.trigger?.value ?? DEFAULT_COMPACTION_TRIGGER,
            pause: compact.pause_after_compaction ?? false,
            ...(compact.instructions?.trim() ? { instructions: compact.instructions } : {}),
          },
        }
      : {}),
    app_id: requestedSpace(caller, body.app_id),
    imageRule: 'anthropic',
    prompt: promptOf(messages),
    model: body.model,
    temperature: body.temperature ?? null,
    max_tokens: body.max_tokens,
    stream: body.stream,
    completion: {
      messages,
      tools: tools.length ? tools : undefined,
      ...(advancedToolUse ? { advancedToolUse } : {}),
      toolChoice: toolChoice(body.tool_choice),
      ...(body.tool_choice &&
      'disable_parallel_tool_use' in body.tool_choice &&
      body.tool_choice.disable_parallel_tool_use
        ? { parallelToolCalls: false }
        : {}),
      ...(search ? { webSearch: webSearchOf(search) } : {}),
      ...(fetch ? { webFetch: webFetchOf(fetch) } : {}),
      ...(mcpServers.length ? { mcpServers } : {}),
      ...(toolSearch ? { toolSearch: ANTHROPIC_TOOL_SEARCH.get(toolSearch.type!) } : {}),
      stop: body.stop_sequences,
      topP: body.top_p,
      reasoningEffort: output?.effort,
      thinking: thinkingOf(body.thinking),
      ...(body.inference_geo ? { inferenceGeo: body.inference_geo } : {}),
      // Anthropic's structured output always follows its schema.
      responseFormat: output?.format
        ? { type: 'json_schema', json_schema: { name: 'output', schema: output.format.schema, strict: true } }
        : undefined,
    },
  };
}

/** A tool's part in Anthropic's advanced tool use: whether it is deferred, and examples of its input. */
const advancedOf = (t: Tool) => ({
  ...(t.defer_loading ? { deferred: true } : {}),
  ...(t.input_examples?.length ? { examples: t.input_examples } : {}),
});

/**
 * Whether the request uses Anthropic's advanced tool use (advancedToolUse.ts), checked as Anthropic
 * checks it: the model is shown at least one tool first, and a tool's result or a tool search loads
 * only the request's tools.
 */
function checkToolSearch(body: AnthropicPlainBody): boolean {
  const tools = body.tools ?? [];
  if (tools.length && tools.every((t) => t.defer_loading))
    throw invalid(['body', 'tools'], 'must have a tool without defer_loading, which the model is shown first');
  const names = new Set(tools.map((t) => t.name));
  let references = false;
  const check = (name: string, path: ReadonlyArray<string | number>) => {
    if (!names.has(name)) throw invalid(['body', 'messages', ...path], `names no tool of the request's tools: ${name}`);
  };
  for (const [i, m] of body.messages.entries()) {
    if (typeof m.content === 'string' || !m.content) continue;
    for (const [j, b] of m.content.entries()) {
      if (b.type === 'tool_search_tool_result' && b.content.type === 'tool_search_tool_search_result')
        for (const [k, found] of b.content.tool_references.entries())
          check(found.tool_name, [i, 'content', j, 'content', 'tool_references', k, 'tool_name']);
      if (b.type !== 'tool_result' || typeof b.content === 'string') continue;
      for (const [k, part] of (b.content ?? []).entries()) {
        if (part.type !== 'tool_reference') continue;
        references = true;
        check(part.tool_name, [i, 'content', j, 'content', k, 'tool_name']);
      }
    }
  }
  return references || tools.some((t) => t.defer_loading || t.input_examples?.length);
}

/**
 * The request's MCP servers as the engine carries them (chat/remoteMcp.ts): each with the client's
 * token, and the tools its toolset offers (all, unless it says otherwise); or, for a server no toolset
 * names, those of its `tool_configuration`, as Anthropic's connector was first given. A toolset must
 * name a server of the request, and a server no more than one toolset.
 */
function mcpServersOf(servers: NonNullable<Given['mcp_servers']>, toolsets: readonly Toolset[]): McpServerAsked[] {
  const named = new Set(servers.map((s) => s.name));
  const seen = new Set<string>();
  for (const t of toolsets) {
    if (!named.has(t.mcp_server_name))
      throw invalid(
        ['body', 'tools'],
        `has a toolset of ${t.mcp_server_name}, which no server of mcp_servers is named`,
      );
    if (seen.has(t.mcp_server_name))
      throw invalid(['body', 'tools'], `has two toolsets of ${t.mcp_server_name}: give each server one`);
    seen.add(t.mcp_server_name);
  }
  return servers.map((s): McpServerAsked => {
    const toolset = toolsets.find((t) => t.mcp_server_name === s.name);
    const configured = s.tool_configuration;
    const allowed = configured?.allowed_tools ?? undefined;
    return {
      name: s.name,
      url: s.url,
      headers: s.authorization_token ? { authorization: `Bearer ${s.authorization_token}` } : {},
      ...(toolset
        ? {
            defaults: {
              enabled: toolset.default_config?.enabled ?? true,
              deferred: toolset.default_config?.defer_loading ?? false,
            },
            tools: Object.fromEntries(
              Object.entries(toolset.configs ?? {}).map(([name, c]): [string, Partial<McpToolConfig>] => {
                const config: Partial<McpToolConfig> = {};
                if (c.enabled != null) config.enabled = c.enabled;
                if (c.defer_loading != null) config.deferred = c.defer_loading;
                return [name, config];
              }),
            ),
          }
        : {
            defaults: { enabled: configured?.enabled !== false && !allowed, deferred: false },
            tools: Object.fromEntries(
              configured?.enabled === false ? [] : (allowed ?? []).map((name) => [name, { enabled: true }]),
            ),
          }),
    };
  });
}

/** Anthropic's web search or fetch tool's version, and how far the model may go with it. */
const reachOf = (tool: Tool) => ({
  type: tool.type!,
  maxUses: tool.max_uses,
  allowedDomains: tool.allowed_domains,
  blockedDomains: tool.blocked_domains,
});

/** Anthropic's web search tool as the engine carries it: how far the model may search, and from where. */
const webSearchOf = (tool: Tool): WebSearchAsked => ({ ...reachOf(tool), userLocation: tool.user_location });

/** Anthropic's web fetch tool as the engine carries it: how far the model may fetch, and how much it reads. */
const webFetchOf = (tool: Tool): WebFetchAsked => ({
  ...reachOf(tool),
  citations: tool.citations,
  maxContentTokens: tool.max_content_tokens,
});

/** Anthropic's `thinking` as the engine carries it (an adaptive one's budget_tokens, deprecated by Anthropic, left out). */
function thinkingOf(thinking: z.output<typeof AnthropicMessagesBody>['thinking']): ToolOptions['thinking'] {
  if (!thinking) return undefined;
  return thinking.type === 'enabled'
    ? { type: 'enabled', budgetTokens: thinking.budget_tokens }
    : { type: thinking.type };
}

/**
 * One Anthropic message as the engine's: instructions in the course of the conversation are a system
 * message there; tool results are messages of their own, after the user's text.
 * The model's own thinking, sent back signed, is kept for an Anthropic model (which needs it back in a
 * turn that called tools); a thinking block without its signature cannot be sent back, and is left out.
 * A block whose signature is this service's mark carries another provider's reasoning (an OpenAI
 * model's items, a Gemini model's thought signatures: carriedThinking.ts, anthropicAnswer.ts), for the
 * model that gave it.
 */
function chatMessages(m: Message, at: number, from: number): ChatMessage[] {
  if (m.role === 'system') {
    // Its text alone: the tools it changed and its effort were read before (systemMessages.ts).
    if (typeof m.content === 'string') return [{ role: 'system', content: m.content }];
    const text = (m.content ?? []).flatMap((b) => (b.type === 'text' ? [b] : []));
    return text.length ? [{ role: 'system', content: text.map((b) => b.text).join('\n'), ...cacheOf(text) }] : [];
  }
  if (typeof m.content === 'string') return [{ role: m.role, content: m.content }];
  if (m.role === 'assistant') {
    // A compaction's summary is read where the turns it sums up were, as the user's (compaction.ts).
    const turn = m.content.slice(from);
    const summary = turn[0]?.type === 'compaction' && turn[0].content ? turn[0] : undefined;
    const summed: ChatMessage[] = summary
      ? [{ role: 'user', content: summaryMessage(summary.content!), ...cacheOf([summary]) }]
      : [];
    return [...summed, ...mcpStretches(turn).flatMap((s) => assistantTurn(s, at, from))];
  }
  const results = m.content.flatMap((b): ChatMessage[] =>
    b.type === 'tool_result'
      ? [
          {
            role: 'tool',
            tool_call_id: b.tool_use_id,
            content: toolResultContent(b.content),
            ...cacheOf([b, ...(typeof b.content === 'string' ? [] : (b.content ?? []))]),
          },
        ]
      : [],
  );
  const read = (b: Block): b is Readable => b.type === 'text' || b.type === 'image' || b.type === 'document';
  const parts = m.content.filter(read).flatMap(contentParts);
  const userCache = cacheOf(m.content.filter(read));
  return [...results, ...(parts.length ? [{ role: 'user' as const, content: parts, ...userCache }] : [])];
}

type Block = Extract<Message['content'], unknown[]>[number];

/** A stretch of an assistant turn: its blocks up to the results of the remote MCP calls it ran, if any. */
interface Stretch {
  blocks: Block[];
  /** Where its blocks begin in the turn. */
  at: number;
  results: Array<Extract<Block, { type: 'mcp_tool_result' }>>;
}

/**
 * An assistant turn cut after each remote MCP call's result (chat/remoteMcp.ts): the model read the
 * result before it went on, so each stretch goes back to it as a turn of its own, the results as the
 * tool's messages after it. A turn without such calls is one stretch.
 */
function mcpStretches(turn: readonly Block[]): Stretch[] {
  const stretches: Stretch[] = [{ blocks: [], at: 0, results: [] }];
  for (const [j, b] of turn.entries()) {
    let last = stretches.at(-1)!;
    if (b.type === 'mcp_tool_result') {
      last.results.push(b);
      continue;
    }
    if (last.results.length) stretches.push((last = { blocks: [], at: j, results: [] }));
    last.blocks.push(b);
  }
  return stretches;
}

/**
 * One stretch of an assistant turn as the engine's messages: the text, tool calls (a remote MCP
 * server's by the name the model is offered it), thinking and server tools the model wrote, then what
 * each remote MCP call gave back, as its tool's message.
 */
function assistantTurn({ blocks: turn, at: offset, results }: Stretch, at: number, from: number): ChatMessage[] {
  const text = turn.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = turn.flatMap((b) =>
    b.type === 'tool_use' || b.type === 'mcp_tool_use'
      ? [
          {
            id: b.id,
            type: 'function' as const,
            function: {
              name: b.type === 'mcp_tool_use' ? mcpFunctionName(b.server_name, b.name) : b.name,
              arguments: JSON.stringify(b.input),
            },
          },
        ]
      : [],
  );
  const thinking = turn.flatMap((b, j): ThinkingBlock[] =>
    b.type === 'redacted_thinking'
      ? [{ redacted: b.data }]
      : b.type === 'thinking' && b.signature
        ? (openThinking(b.signature, ['body', 'messages', at, 'content', from + offset + j, 'signature']) ?? [
            { thinking: b.thinking, signature: b.signature },
          ])
        : [],
  );
  const webTools = webToolsOf(turn);
  const answered = results.map((b): ChatMessage => ({
    role: 'tool',
    tool_call_id: b.tool_use_id,
    content: mcpResultText({
      text: typeof b.content === 'string' ? b.content : (b.content ?? []).map((t) => t.text).join('\n'),
      isError: b.is_error === true,
    }),
    ...cacheOf([b]),
  }));
  // A turn that held only a summary, or a compaction that failed (which stands for nothing), says
  // nothing of its own.
  const compacts = turn.some((b) => b.type === 'compaction');
  if (compacts && !text && !calls.length && !thinking.length && !webTools.length) return answered;
  return [
    {
      role: 'assistant',
      content: text || null,
      ...(calls.length ? { tool_calls: calls } : {}),
      ...(thinking.length ? { thinking } : {}),
      ...(webTools.length ? { webTools } : {}),
      ...cacheOf(turn.filter((b) => b.type === 'text' || b.type === 'tool_use' || b.type === 'mcp_tool_use')),
    },
    ...answered,
  ];
}

/** What a user turn or a tool's result gives the model to read: text, images and documents. */
type Readable = Extract<Block, { type: 'text' | 'image' | 'document' }>;
/** A tool a tool search found, in a tool's result. */
type ToolReference = Extract<
  NonNullable<Extract<Block, { type: 'tool_result' }>['content']>[number],
  { type: 'tool_reference' }
>;

/**
 * A block the model reads as parts of the engine's message: text; an image as OpenAI's data URL; a
 * document as its title and what it is about, then its text, or the PDF as OpenAI's file part.
 */
function contentParts(b: Readable): Array<Record<string, unknown>> {
  if (b.type === 'text') return [{ type: 'text', text: b.text }];
  if (b.type === 'image')
    return [{ type: 'image_url', image_url: { url: `data:${b.source.media_type};base64,${b.source.data}` } }];
  const about = [b.title, b.context].filter((line): line is string => !!line).join('\n');
  const text = b.source.type === 'text' ? b.source.data : '';
  const pdf =
    b.source.type === 'base64'
      ? [
          {
            type: 'file',
            file: {
              file_data: `data:application/pdf;base64,${b.source.data}`,
              ...(b.title ? { filename: b.title } : {}),
            },
          },
        ]
      : [];
  return [...(about || text ? [{ type: 'text', text: [about, text].filter(Boolean).join('\n\n') }] : []), ...pdf];
}

/**
 * What a tool gave back: its text, or its parts when it gave back images or PDFs too (a file it read, a
 * screenshot) or named tools a tool search found.
 */
function toolResultContent(
  content: string | Array<Readable | ToolReference> | undefined,
): string | Array<Record<string, unknown>> {
  if (typeof content === 'string') return content;
  const parts = (content ?? []).flatMap((b) =>
    b.type === 'tool_reference' ? [{ type: 'tool_reference', tool_name: b.tool_name }] : contentParts(b),
  );
  return parts.some((p) => p.type !== 'text') ? parts : parts.map((p) => p.text).join('');
}

/**
 * The web searches, fetches and tool searches an Anthropic model ran in a turn: each `server_tool_use`
 * of one with the result that answers it, and where it came in the turn's text. Anthropic's other
 * server tools, which no model is given here, are left out.
 */
function webToolsOf(blocks: readonly Block[]): WebToolUse[] {
  const found = new Map<string, WebToolResult>();
  for (const b of blocks)
    if (b.type === 'web_search_tool_result')
      found.set(b.tool_use_id, {
        name: 'web_search',
        results: Array.isArray(b.content)
          ? b.content.map((r) => ({ ...r, title: r.title ?? null, page_age: r.page_age ?? null }))
          : { error_code: b.content.error_code },
      });
    else if (b.type === 'web_fetch_tool_result')
      found.set(b.tool_use_id, {
        name: 'web_fetch',
        results:
          b.content.type === 'web_fetch_result'
            ? {
                ...b.content,
                retrieved_at: b.content.retrieved_at ?? null,
                content: { ...b.content.content, title: b.content.content.title ?? null },
              }
            : { error_code: b.content.error_code },
      });
    else if (b.type === 'tool_search_tool_result')
      found.set(b.tool_use_id, {
        // Which of the two searches ran is the use's name, which the result must match.
        name: toolSearchOf(blocks, b.tool_use_id),
        results:
          b.content.type === 'tool_search_tool_search_result'
            ? b.content.tool_references.map((r) => r.tool_name)
            : { error_code: b.content.error_code },
      });
  // Each keeps its place in the text: after as much of it as came before.
  let written = 0;
  return blocks.flatMap((b): WebToolUse[] => {
    if (b.type === 'text') written += b.text.length;
    if (b.type !== 'server_tool_use') return [];
    const result = found.get(b.id);
    return result?.name === b.name
      ? [{ id: b.id, input: b.input, ...result, ...(written ? { after: written } : {}) }]
      : [];
  });
}

/** Which tool search a turn's `server_tool_use` of that id ran (the regular expression one, when none did). */
function toolSearchOf(blocks: readonly Block[], id: string): ToolSearchName {
  const use = blocks.find((b) => b.type === 'server_tool_use' && b.id === id);
  return use?.type === 'server_tool_use' && use.name === 'tool_search_tool_bm25'
    ? 'tool_search_tool_bm25'
    : 'tool_search_tool_regex';
}

/** The most cache breakpoints Anthropic takes in a request. */
const MOST_BREAKPOINTS = 4;

/**
 * Anthropic's automatic caching (a top-level `cache_control`): its breakpoint at the end of the last
 * message, unless that message has one, or the request has as many as Anthropic takes.
 */
function automaticallyCached(
  messages: ChatMessage[],
  tools: ReadonlyArray<{ cache_control?: CacheControl }>,
  mark: CacheControl | undefined,
): ChatMessage[] {
  const last = messages.at(-1);
  if (!mark || !last || last.cache_control) return messages;
  const marks = [...messages, ...tools].filter((m) => m.cache_control).length;
  return marks >= MOST_BREAKPOINTS ? messages : [...messages.slice(0, -1), { ...last, cache_control: mark }];
}

/**
 * The prompt-cache breakpoint of the message the blocks become: the last one marked. A mark moves to the
 * end of its message, which the provider caches up to; a message never holds more marks than its blocks.
 */
function cacheOf(blocks: ReadonlyArray<{ cache_control?: CacheControl }>): { cache_control?: CacheControl } {
  const marked = blocks.findLast((b) => b.cache_control)?.cache_control;
  return marked ? { cache_control: marked } : {};
}

function toolChoice(choice: z.output<typeof AnthropicMessagesBody>['tool_choice']): unknown {
  if (!choice) return undefined;
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return { auto: 'auto', any: 'required', none: 'none' }[choice.type];
}
