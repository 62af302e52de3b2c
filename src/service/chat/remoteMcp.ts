// Remote MCP servers a request names (Anthropic's MCP connector, `mcp_servers`; OpenAI's `mcp` tool):
// the service connects to each over MCP's Streamable HTTP, with the client's authorization, lists its
// tools (unless the conversation has them listed: OpenAI's `mcp_list_tools` item; then it connects
// only to run a call), offers the model those the request allows as functions, and runs each call the
// model makes of one, for any model of a Space, until the model answers without one (or calls a tool
// of the client's, which the answer hands back with the calls it ran). A call that waits for the
// client's approval (OpenAI's `require_approval`) is told instead of run, and runs once a later request
// approves it. Each call and its result are told to the client where they came in the reply
// (Anthropic's mcp_tool_use and mcp_tool_result blocks, OpenAI's mcp_call items), and go back to the
// model as a tool call and its result (with the pictures and PDFs it gave). The authorization is held
// in memory for the request alone.
import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Problem } from '../problem';
import type { ToolCall } from '../../api/schemas';
import type {
  ChatMessage,
  McpListedTool as ListedTool,
  McpListing,
  McpServerAsked,
  McpToolFilter,
  Reply,
  ThinkingPiece,
  ToolOptions,
  WebToolUse,
} from './request';

/** A call of a remote server's tool, run, as the reply tells it. */
type McpUse = Extract<WebToolUse, { name: 'mcp' }>;
/** What a call gave back. */
type McpResult = McpUse['results'];
/** A part of a chat message (text, `image_url`, `file`). */
type Part = Record<string, unknown>;
/** A call run: as the client is told it, and what the model reads of its result. */
interface Ran {
  use: McpUse;
  forModel: string | Part[];
}

/** A tool of a remote server as the model is offered it, by its function name. */
interface RemoteTool {
  server: McpServerAsked;
  /** Its own name, on its server. */
  name: string;
  /** A call of it waits for the client's approval before it runs. */
  approval: boolean;
}

/** Whether a filter picks a tool: named (or none are), and read-only as asked (if asked). */
const picks = (filter: McpToolFilter, tool: ListedTool) =>
  (!filter.names || filter.names.includes(tool.name)) &&
  (filter.readOnly === undefined || (tool.annotations?.readOnlyHint === true) === filter.readOnly);

/** Whether a call of a tool waits for approval: as the server's `approval` says (none when absent). */
function needsApproval(server: McpServerAsked, tool: ListedTool): boolean {
  const asked = server.approval;
  if (!asked || asked === 'never') return false;
  if (asked === 'always') return true;
  if (asked.never && picks(asked.never, tool)) return false;
  return asked.always ? picks(asked.always, tool) : true;
}

/** The most characters of a function name, as OpenAI's API and most others take one. */
const MOST_NAME = 64;

/**
 * The name the model calls a server's tool by: `mcp__<server>__<tool>`, as Claude Code names an MCP
 * server's tools (no client tool goes by such a name), letters, digits, _ and - only; one too long is
 * cut, with a hash of the whole so that two tools cut alike keep apart.
 */
export function mcpFunctionName(server: string, tool: string): string {
  const whole = `mcp__${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (whole.length <= MOST_NAME) return whole;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${whole.slice(0, MOST_NAME - hash.length - 1)}_${hash}`;
}

/** The most pages of a server's tool list read: a bound on what a server sends. */
const MOST_PAGES = 20;
/** The most rounds of tool calls in one request, as a stop to a model that never stops calling. */
const MOST_ROUNDS = 20;

/**
 * An MCP server's words for why it failed, without what the client sent of its own: its address (which
 * may carry a key) and its authorization, wherever the server or the transport repeated them.
 */
function reasonOf(error: unknown, server: McpServerAsked): string {
  let message = error instanceof Error ? error.message : String(error);
  const secrets = [server.url, ...Object.values(server.headers).flatMap((v) => [v, v.replace(/^Bearer\s+/i, '')])];
  for (const secret of secrets.filter((s) => s.length >= 4)) message = message.split(secret).join('[withheld]');
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/**
 * Why a server was not reached, as its HTTP answer says: it refused the authorization (401, 403), it
 * answered otherwise, or nothing answered at its address.
 */
function unreached(error: unknown): string {
  const status = (error as { data?: { status?: unknown } } | undefined)?.data?.status;
  if (status === 401 || status === 403)
    return `refused the authorization it was given (HTTP ${status}): check the token or headers sent for it`;
  return typeof status === 'number' ? `answered HTTP ${status}` : 'could not be reached';
}

/** The servers of one request, connected, with the tools the request allows of each. */
export class McpSession {
  /** Every client made, to close; and the connection to each server, made when first needed. */
  private readonly clients: Client[] = [];
  private readonly servers = new Map<McpServerAsked, Promise<Client>>();
  private readonly byFunction = new Map<string, RemoteTool>();
  /** The functions offered to the model, in the servers' order. */
  readonly functions: NonNullable<ToolOptions['tools']> = [];
  /** The servers' tools as listed, of those whose listing the answer tells. */
  readonly listings: McpListing[] = [];

  private constructor() {}

  /**
   * Lists each server's tools, unless the conversation has them listed already; a server that cannot be
   * reached, or refuses the authorization, is a 424 in words (as OpenAI answers a remote MCP server's
   * failure), naming it.
   */
  static async open(servers: readonly McpServerAsked[], signal: AbortSignal): Promise<McpSession> {
    const session = new McpSession();
    try {
      const listed = await Promise.all(servers.map((s) => s.listed ?? session.list(s, signal)));
      servers.forEach((server, i) => {
        const offered = listed[i]!.filter(
          (tool) =>
            ({ ...server.defaults, ...server.tools[tool.name] }).enabled && (!server.only || picks(server.only, tool)),
        );
        if (server.tellListing)
          session.listings.push({
            server: server.name,
            tools: offered.map((t) => ({
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
              input_schema: t.inputSchema,
              ...(t.annotations ? { annotations: t.annotations } : {}),
            })),
          });
        for (const tool of offered) {
          const config = { ...server.defaults, ...server.tools[tool.name] };
          const name = mcpFunctionName(server.name, tool.name);
          session.byFunction.set(name, { server, name: tool.name, approval: needsApproval(server, tool) });
          session.functions.push({
            type: 'function',
            function: {
              name,
              ...(tool.description ? { description: tool.description } : {}),
              parameters: tool.inputSchema as Record<string, unknown>,
            },
            ...(config.deferred ? { deferred: true } : {}),
          });
        }
      });
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /**
   * The connection to a server, made at its first use (to list its tools, or to run a call); a 424 in
   * words, naming it, when none can be made.
   */
  private connected(server: McpServerAsked, signal: AbortSignal): Promise<Client> {
    let connected = this.servers.get(server);
    if (!connected) {
      const client = new Client({ name: 'llm-spaces', version: '1' });
      this.clients.push(client);
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: server.headers },
      });
      connected = client.connect(transport, { signal }).then(
        () => client,
        (error: unknown) => {
          throw said(server, unreached(error), error);
        },
      );
      this.servers.set(server, connected);
    }
    return connected;
  }

  private async list(server: McpServerAsked, signal: AbortSignal): Promise<ListedTool[]> {
    const client = await this.connected(server, signal);
    const tools: ListedTool[] = [];
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MOST_PAGES; page++) {
        const listed = await client.listTools(cursor ? { cursor } : undefined, { signal });
        tools.push(...listed.tools);
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
    } catch (error) {
      throw said(server, 'did not list its tools', error);
    }
    return tools;
  }

  /** The server's tool a function name stands for, if it is one of this session's. */
  owns(functionName: string): RemoteTool | undefined {
    return this.byFunction.get(functionName);
  }

  /**
   * Runs a call the model made: what the server answered, as text for the client, and for the model
   * with the images and PDFs it gave; or why it failed (told to the model, which may go on without it).
   */
  async call(call: ToolCall, signal: AbortSignal): Promise<Ran> {
    const tool = this.byFunction.get(call.function.name)!;
    const input = parsedInput(call.function.arguments);
    const use = (text: string, isError: boolean, parts?: Part[]): Ran => {
      const results = { text, isError };
      const told = mcpResultText(results);
      return {
        use: { id: call.id, input, name: 'mcp', server: tool.server.name, tool: tool.name, results },
        forModel: parts ? [...(isError ? [{ type: 'text', text: 'Error:' }] : []), ...parts] : told,
      };
    };
    try {
      const client = await this.connected(tool.server, signal);
      const result = await client.callTool({ name: tool.name, arguments: input }, { signal });
      const read = readResult(result);
      return use(read.text, result.isError === true, read.parts);
    } catch (error) {
      if (signal.aborted) throw error;
      // A server first reached for this call (the conversation had its tools listed) that cannot be.
      if (error instanceof Problem) return use(error.message, true);
      return use(
        `The MCP server ${tool.server.name} failed to run ${tool.name}: ${reasonOf(error, tool.server)}`,
        true,
      );
    }
  }

  /** A call that waits for the client's approval, as the answer tells it (its id is the approval's). */
  approvalOf(call: ToolCall): WebToolUse {
    const tool = this.byFunction.get(call.function.name)!;
    return {
      id: `mcpr_${call.id.replace(/[^a-zA-Z0-9_-]/g, '_')}`,
      input: parsedInput(call.function.arguments),
      name: 'mcp_approval',
      server: tool.server.name,
      tool: tool.name,
      results: null,
    };
  }

  /**
   * Runs the calls the client approved, each by its approval's id (the id of the call in the
   * conversation), and puts what each gave back in the tool message the input has for it.
   */
  async runApproved(
    conversation: ChatMessage[],
    approvals: NonNullable<ToolOptions['mcpApprovals']>,
    signal: AbortSignal,
    told: ((piece: ThinkingPiece) => void) | undefined,
    ran: () => void,
  ): Promise<WebToolUse[]> {
    const uses: WebToolUse[] = [];
    for (const approval of approvals) {
      const call = conversation
        .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
        .find((c) => c.id === approval.id);
      const answer = conversation.findIndex((m) => m.role === 'tool' && m.tool_call_id === approval.id);
      if (!call || answer < 0) continue;
      if (!this.owns(call.function.name)) {
        conversation[answer] = {
          role: 'tool',
          tool_call_id: approval.id,
          content: `The tool ${call.function.name} is not offered any more, so the call was not run.`,
        };
        continue;
      }
      ran();
      const done = await this.call(call, signal);
      const use = { ...done.use, approvalId: approval.id };
      conversation[answer] = { role: 'tool', tool_call_id: approval.id, content: done.forModel };
      uses.push(use);
      told?.({ webTool: use });
    }
    return uses;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}

/** A server's failure in words, naming it: a 424, as OpenAI answers a remote MCP server's failure. */
const said = (server: McpServerAsked, what: string, error: unknown) =>
  new Problem(424, `The MCP server ${server.name} ${what}: ${reasonOf(error, server)}`);

function parsedInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A call's result: its text, as the client is told it (its structured content when it gave no text; an
 * image or a PDF said in a word), and, when it gave any image or PDF, its parts as the model reads them
 * (a chat message's `image_url` and `file` parts, which a model without vision reads as their text:
 * chat/run.ts).
 */
function readResult(result: { content?: unknown; structuredContent?: unknown }): { text: string; parts?: Part[] } {
  const given = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const read = given.map(readPart);
  if (!read.length && result.structuredContent !== undefined) return { text: JSON.stringify(result.structuredContent) };
  const text = read.map((r) => r.text).join('\n');
  if (!read.some((r) => r.shown)) return { text };
  // Each image or PDF after its word, which is what a model without vision reads of it.
  return { text, parts: read.flatMap((r): Part[] => [{ type: 'text', text: r.text }, ...(r.shown ? [r.shown] : [])]) };
}

/**
 * One part of a tool's result (MCP's content: text, an image, a resource embedded or linked, audio):
 * its text, and the image or PDF the model is shown.
 */
function readPart(given: unknown): { text: string; shown?: Part } {
  const p = (given ?? {}) as {
    type?: unknown;
    text?: unknown;
    data?: unknown;
    mimeType?: unknown;
    uri?: unknown;
    name?: unknown;
    resource?: unknown;
  };
  if (p.type === 'text' && typeof p.text === 'string') return { text: p.text };
  if (p.type === 'image') return shownAs(p.data, p.mimeType) ?? { text: '[an image the tool gave, not readable]' };
  if (p.type === 'resource_link' && typeof p.uri === 'string')
    return { text: `[${typeof p.name === 'string' ? p.name : 'a resource'}: ${p.uri}]` };
  if (p.type === 'resource') {
    const r = (p.resource ?? {}) as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
    const uri = typeof r.uri === 'string' ? r.uri : 'a resource';
    if (typeof r.text === 'string') return { text: `${uri}:\n${r.text}` };
    return shownAs(r.blob, r.mimeType, uri) ?? { text: `[${uri} (${String(r.mimeType ?? 'a file')}), not passed on]` };
  }
  return { text: `[${typeof p.type === 'string' ? p.type : 'a part'} the tool gave, not passed on]` };
}

/** Base64 data of an image or a PDF as the part the model reads it in; none for anything else. */
function shownAs(data: unknown, mimeType: unknown, name?: string): { text: string; shown: Part } | undefined {
  if (typeof data !== 'string' || typeof mimeType !== 'string') return undefined;
  const url = `data:${mimeType};base64,${data}`;
  const label = name ? ` ${name}` : '';
  if (/^image\/(png|jpeg|gif|webp)$/.test(mimeType))
    return { text: `[an image${label} (${mimeType})]`, shown: { type: 'image_url', image_url: { url } } };
  if (mimeType === 'application/pdf')
    return {
      text: `[a PDF${label}]`,
      shown: { type: 'file', file: { file_data: url, ...(name ? { filename: name } : {}) } },
    };
  return undefined;
}

/** Token counts of two rounds together; none when either has none (counted here from the text instead). */
function summedUsage(a: Reply['usage'], b: Reply['usage']): Reply['usage'] {
  if (!a || !b) return undefined;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cachedInput: a.cachedInput + b.cachedInput,
    cacheWrites: a.cacheWrites + b.cacheWrites,
    hourCacheWrites: a.hourCacheWrites + b.hourCacheWrites,
    reasoning: a.reasoning + b.reasoning,
  };
}

/**
 * A reply run with a session's tools: the model asked again with the results of the calls it made of
 * them, round by round; one reply of all the rounds, their text and thinking in order, the calls run
 * where they came in the text, the tokens of every round. `told` hears each call run as it is run, as
 * the reply's stream tells it; `ran` hears that one ran (after which the request is not tried again).
 */
export async function withRemoteTools(
  session: McpSession,
  messages: readonly ChatMessage[],
  approvals: NonNullable<ToolOptions['mcpApprovals']>,
  ask: (messages: ChatMessage[]) => Promise<Reply>,
  signal: AbortSignal,
  told: ((piece: ThinkingPiece) => void) | undefined,
  ran: () => void,
  /** Why the model may not go on, once what it has cost so far reached the Space's cost cap. */
  overCap: (whole: Reply) => string | undefined,
): Promise<Reply> {
  const conversation = [...messages];
  // The calls the client approved run first; the model reads each result where the input answered it.
  const approved = await session.runApproved(conversation, approvals, signal, told, ran);
  let whole: Reply | undefined;
  for (let round = 0; ; round++) {
    const reply = await ask(conversation);
    const calls = reply.toolCalls ?? [];
    const remote = calls.filter((c) => session.owns(c.function.name));
    const offset = whole?.text.length ?? 0;
    whole = whole
      ? joined(whole, reply, offset)
      : { ...reply, ...nonEmpty('webTools', [...approved, ...(reply.webTools ?? [])]) };
    if (!remote.length) return whole;
    const theirs = calls.filter((c) => !session.owns(c.function.name));
    const stop =
      round + 1 >= MOST_ROUNDS
        ? `The model was stopped after ${MOST_ROUNDS} rounds of calls to MCP servers.`
        : overCap(whole);
    if (stop) {
      whole.warning = [whole.warning, stop].filter(Boolean).join(' ');
      return {
        ...whole,
        toolCalls: theirs.length ? theirs : undefined,
        finishReason: theirs.length ? 'tool_calls' : 'stop',
      };
    }
    const uses: WebToolUse[] = [];
    /** What each call run gave back, by the call's id, for the model to read. */
    const results: ChatMessage[] = [];
    const waiting: WebToolUse[] = [];
    for (const call of remote) {
      // A call that waits for approval is told, not run: the client answers it in its next request.
      if (session.owns(call.function.name)!.approval) {
        const asked = { ...session.approvalOf(call), after: whole.text.length };
        waiting.push(asked);
        told?.({ webTool: asked });
        continue;
      }
      ran();
      const done = await session.call(call, signal);
      const result = { ...done.use, after: whole.text.length };
      uses.push(result);
      results.push({ role: 'tool', tool_call_id: call.id, content: done.forModel });
      told?.({ webTool: result });
    }
    whole.webTools = [...(whole.webTools ?? []), ...uses, ...waiting];
    // A call of the client's own, or one waiting for approval, ends the request: the client runs it, or
    // answers it, and sends this turn back.
    if (theirs.length) return { ...whole, toolCalls: theirs, finishReason: 'tool_calls' };
    if (waiting.length) return { ...whole, toolCalls: undefined, finishReason: 'stop' };
    whole.toolCalls = undefined;
    conversation.push(
      {
        role: 'assistant',
        content: reply.text || null,
        tool_calls: remote,
        ...(reply.thinking ? { thinking: reply.thinking } : {}),
      },
      ...results,
    );
  }
}

/** What the model reads of a call's result: the text, marked when the tool failed. */
export const mcpResultText = (result: McpResult) => (result.isError ? `Error: ${result.text}` : result.text);

/** Two rounds' replies as one: the later's text after the earlier's, each one's places moved with it. */
function joined(earlier: Reply, later: Reply, offset: number): Reply {
  return {
    ...later,
    text: earlier.text + later.text,
    usage: summedUsage(earlier.usage, later.usage),
    ...(earlier.thinking || later.thinking
      ? { thinking: [...(earlier.thinking ?? []), ...(later.thinking ?? [])] }
      : {}),
    ...(earlier.reasoning || later.reasoning
      ? { reasoning: [earlier.reasoning, later.reasoning].filter(Boolean).join('\n\n') }
      : {}),
    ...nonEmpty('webTools', [
      ...(earlier.webTools ?? []),
      ...(later.webTools ?? []).map((u) => ({ ...u, after: (u.after ?? 0) + offset })),
    ]),
    ...nonEmpty('cited', [
      ...(earlier.cited ?? []),
      ...(later.cited ?? []).map((c) => ({ ...c, from: c.from + offset, to: c.to + offset })),
    ]),
    webSearches: (earlier.webSearches ?? 0) + (later.webSearches ?? 0) || undefined,
    warning: [earlier.warning, later.warning].filter(Boolean).join(' ') || undefined,
  };
}

/** A field of a reply when it has something, else none (a reply without them has no such field). */
const nonEmpty = <K extends 'webTools' | 'cited'>(key: K, items: NonNullable<Reply[K]>) =>
  items.length ? { [key]: items } : { [key]: undefined };
