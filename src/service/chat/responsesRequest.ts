// POST /v1/responses (conventions.md, the OpenAI-compatible surface): OpenAI's Responses request read
// into the engine's request, so it is routed, logged and billed through the Space like a chat
// completion. `instructions` becomes the system message, input items become messages (a function
// call the model made, the assistant's tool call; its output, the tool's message), and `text.format`
// the JSON asked for. A reasoning item this service gave carries an Anthropic model's thinking back to
// the assistant turn it came before (carriedThinking.ts). A custom tool (free text in, as Codex's
// apply_patch) is given to the model as a function of one text argument, `input`; a namespace's tools
// as functions named `<namespace>__<name>`; the client's own tool search as a function, whose output's
// tools the model is given from then on; OpenAI's web search is asked of OpenAI's reasoning models
// (chat/run.ts says when another model answered without it), OpenAI's tool search of its models from
// GPT-5.4 on, with the tools it defers and their namespaces as OpenAI takes them (any other model is
// shown every tool), its other hosted tools of none, and the reply says so. An item_reference stands
// for the output item the Space kept under its id (domain/responseItems.ts).
import type { z } from 'zod';
import { OPENAI_OTHER_HOSTED_TOOLS, OPENAI_WEB_SEARCH, ResponsesItem, type ResponsesBody } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { keptItems, keptOutputItems, keptResponse, KEPT_WHILE } from '../domain/responseItems';
import { conversationItems, conversationRow } from '../domain/responseConversations';
import { appConfig, loadApp } from '../domain/spaces';
import { invalid, Problem } from '../problem';
import { stillRunning } from './backgroundResponses';
import { openThinking } from './carriedThinking';
import { withSavedPrompt } from './savedPrompts';
import { openCompaction, summaryMessage } from './compactedSummary';
import { mcpFunctionName, mcpResultText } from './remoteMcp';
import {
  flatToolName,
  promptOf,
  requestedSpace,
  toolsNotGiven,
  type Body,
  type ChatMessage,
  type McpListedTool,
  type McpServerAsked,
  type McpToolFilter,
  type ThinkingBlock,
  type ToolOptions,
} from './request';

type Item = z.output<typeof ResponsesItem>;
type Part = Exclude<Extract<Item, { role: string }>['content'], string>[number];
type Tool = NonNullable<z.output<typeof ResponsesBody>['tools']>[number];
type OwnTool = Extract<Tool, { type: 'function' | 'custom' | 'shell' | 'apply_patch' | 'tool_search' }>;
type FunctionTool = NonNullable<ToolOptions['tools']>[number];
type McpTool = Extract<Tool, { type: 'mcp' }>;
type NamespaceTool = Extract<Tool, { type: 'namespace' }>;

const HOSTED: ReadonlySet<string> = new Set(OPENAI_OTHER_HOSTED_TOOLS);
/** The most items a chain of kept responses may bring back. */
const MAX_CONTINUED = 10_000;
const WEB_SEARCH: ReadonlySet<string> = new Set(OPENAI_WEB_SEARCH);
type WebSearchTool = Extract<Tool, { type: (typeof OPENAI_WEB_SEARCH)[number] }>;

/**
 * A tool as the request names it: its name, its namespace (if any), and its kind: a function, a custom
 * tool (free text in), or OpenAI's shell or apply_patch, whose calls come back as items of their own.
 */
interface NamedTool {
  name: string;
  namespace?: string;
  kind: 'function' | 'custom' | 'shell' | 'apply_patch' | 'tool_search';
}

/** Whether a tool search is the client's own (its `execution` client), not OpenAI's, the default. */
const searchedByClient = (tool: Tool): tool is Extract<Tool, { type: 'tool_search' }> =>
  tool.type === 'tool_search' && tool.execution === 'client';

/** Whether a shell tool runs on the client's computer (its local environment, the default), not at OpenAI. */
const runsLocally = (tool: Extract<Tool, { type: 'shell' }>) => (tool.environment?.type ?? 'local') === 'local';

/**
 * The request's own tools (hosted ones aside), and those its client's tool search loaded, by the name
 * the model knows each by, each with the namespace it is of (`group`).
 */
export function toolsByModelName(
  tools: readonly Tool[] | undefined,
  loaded: readonly Tool[] = [],
): Map<string, { tool: OwnTool; named: NamedTool; group?: NamespaceTool }> {
  const byName = new Map<string, { tool: OwnTool; named: NamedTool; group?: NamespaceTool }>();
  for (const t of [...(tools ?? []), ...loaded]) {
    if (t.type === 'function' || t.type === 'custom')
      byName.set(t.name, { tool: t, named: { name: t.name, kind: t.type } });
    else if ((t.type === 'shell' && runsLocally(t)) || t.type === 'apply_patch' || searchedByClient(t))
      byName.set(t.type, { tool: t, named: { name: t.type, kind: t.type } });
    else if (t.type === 'namespace')
      for (const inner of t.tools)
        byName.set(flatToolName(t.name, inner.name), {
          tool: inner,
          named: { name: inner.name, namespace: t.name, kind: inner.type },
          group: t,
        });
  }
  return byName;
}

/**
 * The conversation a Responses request gives: the items of the kept responses it continues
 * (`previous_response_id`), then its own input, each item_reference read; the items the model reads
 * (`window`), from the last compaction on, which stands for those before it (OpenAI's clients may drop
 * them, or send them still); and those as chat messages, after its instructions.
 */
export function conversationOf(
  db: Database,
  caller: Caller,
  appId: string,
  given: Pick<z.output<typeof ResponsesBody>, 'instructions' | 'previous_response_id'> & {
    input: ResponsesBody['input'];
    conversation?: z.output<typeof ResponsesBody>['conversation'];
  },
): { earlier: Item[]; input: Item[]; window: Item[]; messages: ChatMessage[] } {
  const input = ownItems(db, caller, appId, given.input);
  if (given.conversation && given.previous_response_id)
    throw invalid(
      ['body', 'previous_response_id'],
      'cannot be sent with conversation: the conversation gives the turns before, send one or the other',
    );
  const earlier = given.conversation
    ? conversationEarlier(db, caller, appId, conversationIdOf(given.conversation), input)
    : given.previous_response_id
      ? continued(db, caller, appId, given.previous_response_id)
      : [];
  const all = [...earlier, ...input];
  const from = windowStart(all, earlier.length);
  const window = all.slice(from);
  const messages: ChatMessage[] = [
    ...(given.instructions ? [{ role: 'system' as const, content: given.instructions }] : []),
    ...chatMessages(window, earlier.length - from),
  ];
  return { earlier, input, window, messages };
}

/**
 * Where the items the model reads begin: at the last compaction, when it keeps the user's messages
 * (one from before it kept them follows the messages it sums up, which the client sends); else at 0.
 */
function windowStart(items: readonly Item[], earlier: number): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type !== 'compaction') continue;
    return openCompaction(item.encrypted_content, placeOf(i, earlier)).kept ? i : 0;
  }
  return 0;
}

/** Where an item was given: in a kept response this one continues (the first `earlier`), or in its input. */
const placeOf = (i: number, earlier: number) =>
  i < earlier ? ['body', 'previous_response_id'] : ['body', 'input', i - earlier, 'encrypted_content'];

/** The id a Responses request's `conversation` names (OpenAI's SDKs send it as a string or as {id}). */
export const conversationIdOf = (conversation: string | { id: string }) =>
  typeof conversation === 'string' ? conversation : conversation.id;

/**
 * What a Responses request's conversation holds, read before its input, which must not repeat an item
 * of it; refused in words when the Space keeps no such conversation, or none at all.
 */
export function conversationEarlier(
  db: Database,
  caller: Caller,
  appId: string,
  id: string,
  input: readonly Item[],
): Item[] {
  const row = conversationRow(db, caller.orgId, appId, id);
  if (!row)
    throw invalid(['body', 'conversation'], `names ${id}, a conversation this Space does not keep`, 'not_found');
  requireKeepsText(db, caller, appId);
  const rows = conversationItems(db, id);
  if (rows.length > MAX_CONTINUED)
    throw invalid(
      ['body', 'conversation'],
      `holds ${rows.length} items, more than ${MAX_CONTINUED} a request may read`,
    );
  const known = new Set(rows.map((r) => r.id));
  const again = input.findIndex((item) => 'id' in item && typeof item.id === 'string' && known.has(item.id));
  if (again >= 0)
    throw invalid(
      ['body', 'input', again],
      `is an item the conversation ${id} holds already: send only what is new, the conversation gives the rest`,
    );
  return rows.map((r) => ResponsesItem.parse(JSON.parse(r.item)));
}

/** Refuses a conversation in a Space whose privacy level keeps no text. */
export function requireKeepsText(db: Database, caller: Caller, appId: string): void {
  if ((appConfig(loadApp(db, caller, appId)).policies.privacy_level ?? 1) > 1)
    throw new Problem(
      403,
      "This Space's privacy level keeps no text, so it keeps no conversation: send the earlier items in input, or lower the level in the Space's settings.",
    );
}

export function responsesRequest(caller: Caller, asked: z.output<typeof ResponsesBody>, db: Database): Body {
  if (asked.background) backgroundAllowed(asked);
  const given = withSavedPrompt(db, caller, asked);
  const appId = requestedSpace(caller, given.app_id);
  // Its own input as items, each item_reference read: as it is kept for a response that continues it
  // (chatRoute.ts).
  const { earlier, input, window, messages } = conversationOf(db, caller, appId, given);
  const body = { ...given, input };
  const loaded = loadedTools([...earlier, ...body.input]);
  const toolSearch = body.tools?.find(
    (t): t is Extract<Tool, { type: 'tool_search' }> => t.type === 'tool_search' && !searchedByClient(t),
  );
  const tools = [...toolsByModelName(body.tools, loaded)].map(([name, { tool, named, group }]) => ({
    ...functionOf(name, tool),
    ...(toolSearch && (tool.type === 'function' || tool.type === 'custom')
      ? { openAi: asOpenAiTakesIt(tool, named.name, group) }
      : {}),
  }));
  const mcpServers = mcpServersOf(body.tools ?? [], [...earlier, ...body.input]);
  const mcpApprovals = approvalsToRun(body.input, [...earlier, ...body.input]);
  // No built-in tool call allowed: the search is not offered (OpenAI would ignore each the model tried).
  const search =
    body.max_tool_calls === 0 ? undefined : body.tools?.find((t): t is WebSearchTool => WEB_SEARCH.has(t.type));
  return {
    ...toolsNotGiven(
      'OpenAI',
      'hosted tools',
      (body.tools ?? []).flatMap((t) =>
        HOSTED.has(t.type) || (t.type === 'shell' && !runsLocally(t)) ? [t.type] : [],
      ),
    ),
    app_id: appId,
    ...(body.truncation === 'auto' ? { truncation: 'auto' as const } : {}),
    prompt: promptOf(messages),
    model: body.model ?? null,
    temperature: body.temperature ?? null,
    max_tokens: body.max_output_tokens ?? null,
    stream: body.stream ?? undefined,
    responses: { ...body, loaded, window },
    completion: {
      messages,
      tools: tools.length ? tools : undefined,
      toolChoice:
        typeof body.tool_choice === 'object'
          ? { type: 'function', function: { name: body.tool_choice.name } }
          : body.tool_choice,
      topP: body.top_p,
      reasoningEffort: body.reasoning?.effort,
      reasoningSummary: body.reasoning?.summary,
      responseFormat: responseFormat(body.text?.format),
      parallelToolCalls: body.parallel_tool_calls,
      promptCacheKey: body.prompt_cache_key,
      promptCacheRetention: body.prompt_cache_retention,
      logprobs: body.include?.includes('message.output_text.logprobs') ? (body.top_logprobs ?? 0) : undefined,
      verbosity: body.text?.verbosity,
      ...(mcpServers.length ? { mcpServers } : {}),
      ...(mcpApprovals.length ? { mcpApprovals } : {}),
      ...(search ? { openAiWebSearch: webSearchOptions(search, body.max_tool_calls) } : {}),
      ...(toolSearch
        ? {
            openAiToolSearch: {
              ...(toolSearch.description ? { description: toolSearch.description } : {}),
              ...(toolSearch.parameters ? { parameters: toolSearch.parameters } : {}),
            },
          }
        : {}),
    },
  };
}

/**
 * A background response is kept to be read back until it is done (chat/backgroundResponses.ts): it
 * cannot be one that is not kept, nor a compaction.
 */
function backgroundAllowed(asked: z.output<typeof ResponsesBody>): void {
  const where = ['body', 'background'];
  if (asked.store === false)
    throw invalid(
      where,
      'needs the response kept to be read back until it is done: leave store out, or set it to true',
    );
  if (typeof asked.input !== 'string' && asked.input.at(-1)?.type === 'compaction_trigger')
    throw invalid(where, 'cannot be sent with a compaction_trigger: a compaction is answered at once');
}

/**
 * The request's remote MCP servers (its `mcp` tools) as the engine carries them (chat/remoteMcp.ts):
 * each with its headers and authorization, the tools `allowed_tools` picks, and the calls that wait for
 * approval (all unless `require_approval` says otherwise, as at OpenAI); its tools as listed are told
 * unless the conversation has them already (an `mcp_list_tools` item of it), and then, as at OpenAI,
 * the server is not asked for them again.
 */
function mcpServersOf(tools: readonly Tool[], items: readonly Item[]): McpServerAsked[] {
  // Each server's last listing in the conversation; one that failed is no listing (the server is asked again).
  const listed = new Map(
    items.flatMap((i) => (i.type === 'mcp_list_tools' && !i.error ? [[i.server_label, listedTools(i)] as const] : [])),
  );
  const servers = tools.filter((t): t is McpTool => t.type === 'mcp');
  for (const [i, t] of servers.entries())
    if (servers.findIndex((s) => s.server_label === t.server_label) !== i)
      throw invalid(['body', 'tools'], `has two MCP servers labelled ${t.server_label}: give each its own label`);
  const filter = (f: { tool_names?: string[] | null; read_only?: boolean | null }): McpToolFilter => ({
    ...(f.tool_names ? { names: f.tool_names } : {}),
    ...(f.read_only != null ? { readOnly: f.read_only } : {}),
  });
  return servers.map((t) => {
    const approval = t.require_approval ?? 'always';
    return {
      name: t.server_label,
      url: t.server_url!,
      headers: { ...t.headers, ...(t.authorization ? { authorization: `Bearer ${t.authorization}` } : {}) },
      defaults: { enabled: true, deferred: t.defer_loading ?? false },
      tools: {},
      ...(t.allowed_tools
        ? { only: Array.isArray(t.allowed_tools) ? { names: t.allowed_tools } : filter(t.allowed_tools) }
        : {}),
      approval:
        typeof approval === 'string'
          ? approval
          : {
              ...(approval.always ? { always: filter(approval.always) } : {}),
              ...(approval.never ? { never: filter(approval.never) } : {}),
            },
      tellListing: !listed.has(t.server_label),
      ...(listed.has(t.server_label) ? { listed: listed.get(t.server_label) } : {}),
    };
  });
}

/** The tools of an `mcp_list_tools` item, as their server listed them. */
function listedTools(item: Extract<Item, { type: 'mcp_list_tools' }>): McpListedTool[] {
  return item.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.input_schema ?? { type: 'object', properties: {} },
    ...(tool.annotations ? { annotations: { readOnlyHint: tool.annotations.readOnlyHint === true } } : {}),
  }));
}

/**
 * The calls the client approved in this input (`mcp_approval_response`) that have not run: each runs
 * before the model goes on. One the conversation has run already (an `mcp_call` naming its approval)
 * is not run again.
 */
function approvalsToRun(input: readonly Item[], items: readonly Item[]): NonNullable<ToolOptions['mcpApprovals']> {
  const ran = ranApprovals(items);
  return input.flatMap((i) =>
    i.type === 'mcp_approval_response' && i.approve && !ran.has(i.approval_request_id)
      ? [{ id: i.approval_request_id, approve: true, ...(i.reason ? { reason: i.reason } : {}) }]
      : [],
  );
}

/** The approvals of calls that ran, by the `mcp_call` items that name them. */
const ranApprovals = (items: readonly Item[]) =>
  new Set(items.flatMap((i) => (i.type === 'mcp_call' && i.approval_request_id ? [i.approval_request_id] : [])));

/**
 * A tool as OpenAI's tool search takes it: under its own name, in its namespace, deferred when it (or
 * its namespace, as Codex marks an MCP server's) says so.
 */
function asOpenAiTakesIt(
  tool: Extract<OwnTool, { type: 'function' | 'custom' }>,
  name: string,
  group: NamespaceTool | undefined,
): NonNullable<FunctionTool['openAi']> {
  return {
    name,
    ...(group
      ? { namespace: { name: group.name, ...(group.description ? { description: group.description } : {}) } }
      : {}),
    deferred: (tool.type === 'function' && tool.defer_loading === true) || group?.defer_loading === true,
  };
}

/**
 * The input as items (a text is the user's message), each item_reference replaced by the item the Space
 * kept under that id (an output item of one of its responses, domain/responseItems.ts); a reference to
 * an item it does not keep is refused by its place in the input.
 */
export function ownItems(
  db: Database,
  caller: Caller,
  appId: string,
  input: ResponsesBody['input'],
  loc: Array<string | number> = ['body', 'input'],
): Item[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const ids = input.flatMap((item) => (item.type === 'item_reference' ? [item.id] : []));
  const kept = ids.length ? keptItems(db, caller.orgId, appId, ids) : new Map<string, string>();
  // A compaction_trigger asks for what comes before it to be summed up (chat/compaction.ts): it is
  // no item of the conversation, and nothing may follow it, as at OpenAI.
  const trigger = input.findIndex((item) => item.type === 'compaction_trigger');
  if (trigger >= 0 && trigger < input.length - 1)
    throw invalid([...loc, trigger], "The 'compaction_trigger' item must be the final input item.");
  return input.slice(0, trigger >= 0 ? trigger : input.length).map((item, i) => {
    if (item.type !== 'item_reference') return item;
    const text = kept.get(item.id);
    if (text === undefined)
      throw invalid(
        [...loc, i],
        `names ${item.id}, an item this Space does not keep (it keeps the output items of its own responses ${KEPT_WHILE}): send the item itself`,
        'item_not_found',
      );
    return ResponsesItem.parse(JSON.parse(text));
  });
}

/**
 * What the responses before this one held, oldest first (each one's input, then its output), read back
 * along the chain from the one it continues; refused in words when one of them is not kept.
 */
function continued(db: Database, caller: Caller, appId: string, last: string): Item[] {
  const chain: Item[][] = [];
  let total = 0;
  for (let id: string | null = last; id !== null;) {
    if (stillRunning(id))
      throw invalid(
        ['body', 'previous_response_id'],
        `names ${id}, a background response still running: read it back with GET /v1/responses/${id} until it is done, then go on from it`,
      );
    const response = keptResponse(db, caller.orgId, appId, id);
    if (!response)
      throw invalid(
        ['body', 'previous_response_id'],
        id === last
          ? `names ${id}, a response this Space does not keep (it keeps its responses ${KEPT_WHILE}): send the earlier items in input`
          : `continues a conversation whose earlier response ${id} this Space no longer keeps: send the earlier items in input`,
        'previous_response_not_found',
      );
    const items = [
      ...(JSON.parse(response.input) as unknown[]).map((item) => ResponsesItem.parse(item)),
      ...keptOutputItems(db, response.requestId).map((item) => ResponsesItem.parse(JSON.parse(item))),
    ];
    total += items.length;
    if (total > MAX_CONTINUED)
      throw invalid(
        ['body', 'previous_response_id'],
        `continues more than ${MAX_CONTINUED.toLocaleString('en-US')} items: send the conversation in input`,
        'previous_response_too_long',
      );
    chain.push(items);
    id = response.previousId;
  }
  return chain.reverse().flat();
}

/**
 * The tools the client's tool search loaded in these items (each `tool_search_output`'s), in order; a
 * search OpenAI ran loaded the request's own.
 */
function loadedTools(items: readonly Item[]): Tool[] {
  return items.flatMap((item) => (item.type === 'tool_search_output' && item.execution !== 'server' ? item.tools : []));
}

/**
 * The client's tool search as a function, when the request gives it no description or parameters of
 * its own: OpenAI's default, the paths of the deferred tools to load.
 */
const TOOL_SEARCH_FUNCTION = {
  description: 'Loads tools that were not given at first, so that they can be called from the next turn on.',
  parameters: {
    type: 'object',
    properties: {
      paths: { type: 'array', items: { type: 'string' }, description: 'The names of the tools to load.' },
    },
    required: ['paths'],
    additionalProperties: false,
  },
};

/**
 * OpenAI's web search as its package takes it: its own options, and the preview's fewer ones; and how
 * many searches the request allows (max_tool_calls: the search is the only built-in tool run here).
 */
function webSearchOptions(
  tool: WebSearchTool,
  maxToolCalls: number | null | undefined,
): NonNullable<ToolOptions['openAiWebSearch']> {
  const preview = tool.type.startsWith('web_search_preview');
  const location = tool.user_location
    ? Object.fromEntries(Object.entries(tool.user_location).filter(([, v]) => v != null))
    : undefined;
  return {
    preview,
    ...(maxToolCalls != null ? { maxUses: maxToolCalls } : {}),
    options: {
      ...(tool.search_context_size ? { searchContextSize: tool.search_context_size } : {}),
      ...(location ? { userLocation: location } : {}),
      ...(!preview && tool.external_web_access != null ? { externalWebAccess: tool.external_web_access } : {}),
      ...(!preview && tool.filters?.allowed_domains
        ? { filters: { allowedDomains: tool.filters.allowed_domains } }
        : {}),
    },
  };
}

/**
 * OpenAI's shell tool as a function any model can call: the commands to run, and the limits its call
 * carries (OpenAI's `shell_call` action).
 */
const SHELL_FUNCTION = {
  description:
    "Runs shell commands on the user's computer, in order, and gives back each command's output and exit code.",
  parameters: {
    type: 'object',
    properties: {
      commands: {
        type: 'array',
        items: { type: 'string' },
        description: 'The commands to run, in order, each as a shell takes it.',
      },
      timeout_ms: { type: 'integer', description: 'How long the commands may run, in milliseconds.' },
      max_output_length: {
        type: 'integer',
        description: 'The most characters of output to give back of each command.',
      },
    },
    required: ['commands'],
    additionalProperties: false,
  },
};

/** OpenAI's apply_patch tool as a function any model can call: one file's operation (`apply_patch_call`). */
const APPLY_PATCH_FUNCTION = {
  description:
    "Creates, updates or deletes one file in the user's workspace. For update_file, `diff` holds hunks, each opening with a line `@@` and lines of the file around the change, then the file's lines each starting with ' ' (kept), '-' (removed) or '+' (added); for create_file, every line of the new file starting with '+'; delete_file takes no diff.",
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['create_file', 'update_file', 'delete_file'] },
      path: { type: 'string', description: "The file's path, relative to the workspace's root." },
      diff: { type: 'string', description: 'The changes, as described above.' },
    },
    required: ['type', 'path'],
    additionalProperties: false,
  },
};

/**
 * A tool as the function the model is given, under `name`: a function as it is; a custom tool as a
 * function of its text, with the grammar the text follows (if any) in its description; OpenAI's shell
 * and apply_patch as functions of what their calls carry.
 */
function functionOf(name: string, tool: OwnTool): FunctionTool {
  if (tool.type === 'shell') return { type: 'function', function: { name, ...SHELL_FUNCTION } };
  if (tool.type === 'tool_search')
    return {
      type: 'function',
      function: {
        name,
        description: tool.description ?? TOOL_SEARCH_FUNCTION.description,
        parameters: tool.parameters ?? TOOL_SEARCH_FUNCTION.parameters,
      },
    };
  if (tool.type === 'apply_patch') return { type: 'function', function: { name, ...APPLY_PATCH_FUNCTION } };
  if (tool.type === 'function')
    return {
      type: 'function',
      function: {
        name,
        description: tool.description ?? undefined,
        parameters: tool.parameters ?? undefined,
        strict: tool.strict,
      },
    };
  const format = tool.format?.type === 'grammar' ? tool.format : undefined;
  return {
    type: 'function',
    function: {
      name,
      description: tool.description ?? undefined,
      parameters: {
        type: 'object',
        properties: {
          input: {
            type: 'string',
            description: format
              ? `The whole input, as text following this ${format.syntax === 'lark' ? 'Lark' : 'regular expression'} grammar:\n${format.definition}`
              : 'The whole input, as text.',
          },
        },
        required: ['input'],
        additionalProperties: false,
      },
    },
  };
}

/** The arguments a model gave a call, as an object (none when they are not one). */
export function argumentsOf(args: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(args) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A shell call's action (OpenAI's `shell_call`), from the arguments the model gave the shell function. */
export function shellActionOf(args: string): {
  commands: string[];
  timeout_ms: number | null;
  max_output_length: number | null;
} {
  const given = argumentsOf(args);
  const commands = Array.isArray(given.commands)
    ? given.commands.filter((c): c is string => typeof c === 'string')
    : typeof given.commands === 'string'
      ? [given.commands]
      : [];
  return {
    commands,
    timeout_ms: numberOrNull(given.timeout_ms),
    max_output_length: numberOrNull(given.max_output_length),
  };
}

/** An apply_patch call's operation (OpenAI's `apply_patch_call`), from the arguments the model gave it. */
export function patchOperationOf(
  args: string,
): { type: 'create_file' | 'update_file'; path: string; diff: string } | { type: 'delete_file'; path: string } {
  const given = argumentsOf(args);
  const path = typeof given.path === 'string' ? given.path : '';
  if (given.type === 'delete_file') return { type: 'delete_file', path };
  return {
    type: given.type === 'create_file' ? 'create_file' : 'update_file',
    path,
    diff: typeof given.diff === 'string' ? given.diff : '',
  };
}

/** What a shell call's commands gave, as the text the model reads: each command's exit, then its output. */
function shellOutputText(output: Extract<Item, { type: 'shell_call_output' }>['output']): string {
  return output
    .map((o, i) => {
      const outcome = o.outcome.type === 'exit' ? `exit code ${o.outcome.exit_code}` : 'timed out';
      return [
        `command ${i + 1}: ${outcome}`,
        ...(o.stdout ? [o.stdout.replace(/\n$/, '')] : []),
        ...(o.stderr ? [`stderr:\n${o.stderr.replace(/\n$/, '')}`] : []),
      ].join('\n');
    })
    .join('\n\n');
}

/** The text of a custom tool's call, from the arguments of the function the model was given for it. */
export function customInputOf(args: string): string {
  const input = argumentsOf(args).input;
  // Not JSON, or not its text: the model wrote the text itself.
  return typeof input === 'string' ? input : args;
}

/**
 * The items as chat messages, in their order: function calls the model made in a row become one
 * assistant message with several tool calls, after the text it wrote with them; the thinking a
 * reasoning item carries goes with the assistant's turn that follows it. The first `earlier` items are
 * those of the responses this one continues; the rest are its input, each named by its place there.
 */
function chatMessages(input: Item[], earlier: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  /** Thinking read from reasoning items, for the assistant's next turn. */
  let thinking: ThinkingBlock[] = [];
  /**
   * The assistant's turn a function call joins: the one before it, unless thinking came after its
   * calls; thinking after its text joins it too (what the model thought after it wrote, as this
   * service's stream gives it: message, reasoning, call).
   */
  const assistantTurn = (content: string | null) => {
    const last = messages.at(-1);
    if (content === null && last?.role === 'assistant' && (thinking.length === 0 || !last.tool_calls)) {
      if (thinking.length) last.thinking = [...(last.thinking ?? []), ...thinking];
      thinking = [];
      return last;
    }
    const turn: Extract<ChatMessage, { role: 'assistant' }> = { role: 'assistant', content };
    if (thinking.length) turn.thinking = thinking;
    thinking = [];
    messages.push(turn);
    return turn;
  };
  /** A call the model made, in the assistant's turn it joins, under the function's name it was given. */
  const called = (id: string, name: string, args: string) => {
    const turn = assistantTurn(null);
    turn.tool_calls = [
      ...(turn.tool_calls ?? []),
      { id, type: 'function' as const, function: { name, arguments: args } },
    ];
  };
  /** The tool searches OpenAI ran that reasoning items carried, by their call's id. */
  const carriedSearches = new Set<string>();
  /** Approvals of calls that ran: their request and answer stand for nothing, the call's item says it. */
  const ran = ranApprovals(input);
  /** The calls waiting for approval, by their id: each answered refused, or approved (run before the model goes on). */
  const waiting = new Set<string>();
  /** A search OpenAI ran, sent back as its call's item without the reasoning that carried it: its output follows. */
  let searchCall: Extract<Item, { type: 'tool_search_call' }> | undefined;
  for (const [i, item] of input.entries()) {
    if (item.type === 'reasoning') {
      const carried = item.encrypted_content && openThinking(item.encrypted_content, placeOf(i, earlier));
      if (carried) thinking.push(...carried);
      for (const b of carried || []) if ('toolSearchCall' in b) carriedSearches.add(b.toolSearchCall);
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      called(
        item.call_id,
        item.namespace ? flatToolName(item.namespace, item.name) : item.name,
        item.type === 'function_call' ? item.arguments : JSON.stringify({ input: item.input }),
      );
    } else if (item.type === 'shell_call' || item.type === 'apply_patch_call') {
      const args =
        item.type === 'shell_call'
          ? { commands: item.action.commands, ...withoutNulls(item.action, ['timeout_ms', 'max_output_length']) }
          : item.operation;
      called(item.call_id, item.type === 'shell_call' ? 'shell' : 'apply_patch', JSON.stringify(args));
    } else if (item.type === 'tool_search_call') {
      // A search OpenAI ran goes back to its model in the reasoning item this service gave before it,
      // in its place (carriedThinking.ts), or as its items when that did not come back (below).
      if (!item.call_id) {
        searchCall = item;
        continue;
      }
      called(
        item.call_id,
        'tool_search',
        typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments),
      );
    } else if (item.type === 'tool_search_output') {
      if (item.call_id)
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: toolsLoadedText(item.tools) });
      // One OpenAI ran, sent back without the reasoning item that carried it (a client that does not
      // include `reasoning.encrypted_content`): it goes back as its two items, to a model that runs it.
      else if (searchCall?.id && item.id && !carriedSearches.has(searchCall.id))
        thinking.push({
          toolSearchCall: searchCall.id,
          output: item.id,
          arguments: searchCall.arguments,
          tools: item.tools,
          model: null,
        });
      searchCall = undefined;
    } else if (item.type === 'shell_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: shellOutputText(item.output) });
    } else if (item.type === 'apply_patch_call_output') {
      const output = item.output ? `: ${item.output}` : '';
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: `${item.status}${output}` });
    } else if (item.type === 'mcp_call') {
      // A remote MCP server's call the service ran: the call, then what it gave back.
      called(item.id, mcpFunctionName(item.server_label, item.name), item.arguments);
      const failed = item.error !== undefined && item.error !== null;
      const text = item.output ?? (failed ? mcpErrorText(item.error) : '');
      messages.push({ role: 'tool', tool_call_id: item.id, content: mcpResultText({ text, isError: failed }) });
    } else if (item.type === 'mcp_approval_request') {
      if (ran.has(item.id)) continue;
      called(item.id, mcpFunctionName(item.server_label, item.name), item.arguments);
      waiting.add(item.id);
    } else if (item.type === 'mcp_approval_response') {
      if (ran.has(item.approval_request_id)) continue;
      if (!waiting.delete(item.approval_request_id))
        throw invalid(
          placeOf(i, earlier),
          `answers ${item.approval_request_id}, which no mcp_approval_request before it in the conversation asks`,
        );
      // Approved, the call runs before the model goes on, and this message is given what it gave back.
      const refused = `The user did not approve this call${item.reason ? `: ${item.reason}` : ''}.`;
      messages.push({ role: 'tool', tool_call_id: item.approval_request_id, content: item.approve ? '' : refused });
    } else if (item.type === 'mcp_list_tools') {
      // A server's tools as listed: the request's mcp tool offers them (remoteMcp.ts).
      continue;
    } else if (item.type === 'web_search_call' || item.type === 'compaction_trigger') {
      // A search is carried in the reasoning item before it, in its place (carriedThinking.ts); a
      // compaction_trigger is no item of the conversation (ownItems).
      continue;
    } else if (item.type === 'compaction') {
      const { summary, kept } = openCompaction(item.encrypted_content, placeOf(i, earlier));
      messages.push(...(kept ?? []).map(userMessage), { role: 'user', content: summaryMessage(summary) });
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      // An output with images or PDFs (a screenshot the tool took) keeps its parts, as a tool_result's do.
      const output = item.output;
      const withImages =
        typeof output !== 'string' && output.some((p) => p.type === 'input_image' || p.type === 'input_file');
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content: withImages ? output.map(partOf) : textOf(output),
      });
    } else if (item.role === 'assistant') {
      assistantTurn(textOf(item.content));
    } else messages.push(userMessage(item));
  }
  return messages;
}

/** An MCP call's error as the model reads it: its words, or its content's text, or the error as JSON. */
function mcpErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const e = error as { message?: unknown; content?: unknown };
  if (typeof e?.message === 'string') return e.message;
  if (Array.isArray(e?.content))
    return (e.content as Array<{ text?: unknown }>).map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
  return JSON.stringify(error);
}

/** A message of the user's, or of the system's (`system` or `developer`), as the chat's. */
function userMessage(item: Extract<Item, { role: string }>): ChatMessage {
  const role = item.role === 'user' ? 'user' : 'system';
  return { role, content: typeof item.content === 'string' ? item.content : item.content.map(partOf) };
}

/** What a tool search loaded, in words: each tool the model may now call, by the name it calls it by. */
function toolsLoadedText(tools: readonly Tool[]): string {
  const names = [...toolsByModelName([], tools).keys()];
  return names.length
    ? `These tools are loaded and can be called now: ${names.join(', ')}.`
    : 'No tool was found to load.';
}

/** The fields named that are set (neither null nor absent). */
function withoutNulls<T extends Record<string, unknown>>(from: T, keys: Array<keyof T>): Partial<T> {
  return Object.fromEntries(keys.flatMap((k) => (from[k] == null ? [] : [[k, from[k]]]))) as Partial<T>;
}

function textOf(content: string | Part[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) => (p.type === 'refusal' ? p.refusal : p.type === 'input_image' || p.type === 'input_file' ? '' : p.text))
    .join('');
}

/** A Responses content part as the chat's: text, an image by its URL, or a PDF whole. */
function partOf(part: Part): Record<string, unknown> {
  switch (part.type) {
    case 'input_image':
      return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
    case 'input_file':
      return {
        type: 'file',
        file: { file_data: part.file_data, ...(part.filename ? { filename: part.filename } : {}) },
      };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    default:
      return { type: 'text', text: part.text };
  }
}

function responseFormat(
  format: NonNullable<z.output<typeof ResponsesBody>['text']>['format'],
): ToolOptions['responseFormat'] {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, description, schema, strict } = format;
  return { type: 'json_schema', json_schema: { name, description, schema, strict } };
}
