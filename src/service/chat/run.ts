// Runs a prepared request: the first model, then retries on the same model and switches along the
// chain as the Space's policies say. Each attempt goes through the way that reaches its model
// (reach/); the ledger records the answer or the failure.
import type { ChatCompletion, ModelRecord } from '../../api/schemas';
import type { Database } from '../db';
import type { CatalogueModel } from '../domain/models';
import { isRetired } from '../../shared/models';
import { dialectOf } from '../../shared/providerNames';
import { Problem } from '../problem';
import { latencyBook } from './latency';
import { inOwnTerms } from './advancedToolUse';
import { finishChat, logFailure, replyCost, summarize } from './ledger';
import { ReachFailure } from './reach/reach';
import { McpSession, withRemoteTools } from './remoteMcp';
import type { Reaches } from './reach/reaches';
import { money } from '../../shared/money';
import { capabilityRefusal, costCapWords } from './routing';
import { searchNotRun, toolSearchRuns } from './webSearches';
import {
  needsOf,
  promptOf,
  textOf,
  toolOptionsOf,
  type Attempt,
  type ChatMessage,
  type Cited,
  type McpListing,
  type Prepared,
  type Reply,
  type ThinkingBlock,
  type ThinkingPiece,
  type ToolOptions,
  type WebToolUse,
} from './request';

/**
 * A completion, with what the model thought: an Anthropic model's signed blocks, for the clients that
 * send them back, or the reasoning of a model that signs nothing (any other provider's or model
 * server's), to show; the web searches and fetches an Anthropic model ran, and whether Anthropic
 * paused its turn (to go on when the client sends it back), for Anthropic's clients; the pages the text
 * cites; and Google's Search Suggestions for a Gemini model's search, for the service's own clients.
 */
export type Completed = ChatCompletion & {
  thinking?: ThinkingBlock[];
  reasoning?: string;
  webTools?: WebToolUse[];
  paused?: true;
  cited?: Cited[];
  searchSuggestions?: string;
  /** The remote MCP servers' tools as listed, which OpenAI's clients are told (chat/remoteMcp.ts). */
  mcpListed?: McpListing[];
};

/**
 * The failures after which the same model is not asked again (the next in the chain is): the request
 * refused as it is (400, 413, 422), the key refused (401, 403), no such model (404), and a provider that
 * asks to wait, cools down or cannot be reached here at all (429, 503).
 */
const NOT_AGAIN: ReadonlySet<number> = new Set([400, 401, 403, 404, 413, 422, 429, 503]);

/**
 * Runs the request. `onDelta`, when given, receives the reply as it is produced (streaming), and
 * `onThinking` the model's thinking (ThinkingPiece); a failure after the first piece of either cannot be
 * retried: it is logged with the text streamed so far, as a failure without streaming is, and thrown.
 */
export async function runChat(
  db: Database,
  prepared: Prepared,
  reaches: Reaches,
  onDelta: ((text: string) => void) | undefined,
  signal: AbortSignal,
  onThinking?: (piece: ThinkingPiece) => void,
): Promise<Completed> {
  const servers = prepared.body.completion?.mcpServers;
  if (!servers?.length) return runWith(db, prepared, reaches, onDelta, signal, onThinking);
  const session = await McpSession.open(servers, signal);
  try {
    // The servers' tools as listed come first, as OpenAI's mcp_list_tools items.
    for (const listing of session.listings) onThinking?.({ mcpListed: listing });
    const completed = await runWith(db, prepared, reaches, onDelta, signal, onThinking, session);
    return session.listings.length ? { ...completed, mcpListed: session.listings } : completed;
  } finally {
    await session.close();
  }
}

async function runWith(
  db: Database,
  prepared: Prepared,
  reaches: Reaches,
  onDelta: ((text: string) => void) | undefined,
  signal: AbortSignal,
  onThinking: ((piece: ThinkingPiece) => void) | undefined,
  session?: McpSession,
): Promise<Completed> {
  const started = Date.now();
  const policies = prepared.config.policies;
  const maxSame = policies.max_same_model_retries ?? 1;
  const maxSwitch = policies.max_switch_model_retries ?? 1;
  const tried: string[] = [];
  /** Providers that refused their key: none of their models is tried again for this request. */
  const refused = new Set<string>();
  const failures: string[] = [];
  const attempts: Attempt[] = [];
  let current: CatalogueModel | undefined = prepared.first;
  let switches = 0;
  /** The model that refused the reasoning asked, this request: it answers without, and says so. */
  let refusedReasoning: string | undefined;
  let streamed: string | null = null;
  /** When the attempt under way gave its first piece (its latency, for routing). */
  let firstDelta: number | undefined;
  const emit =
    onDelta &&
    ((text: string) => {
      firstDelta ??= Date.now();
      streamed = (streamed ?? '') + text;
      onDelta(text);
    });
  const emitThinking =
    onThinking &&
    ((piece: ThinkingPiece) => {
      firstDelta ??= Date.now();
      streamed ??= '';
      onThinking(piece);
    });
  /**
   * A remote MCP server's tool was run: the request is not tried again, on this model or another, as the
   * call may have changed something; a failure after it is logged with the text so far, as one that
   * streamed is.
   */
  const ranTool = () => {
    streamed ??= '';
  };
  while (current) {
    for (let same = 0; same <= maxSame; same++) {
      const attemptStarted = Date.now();
      firstDelta = undefined;
      let reply: Reply;
      try {
        reply = await generate(reaches, current, prepared, emit, emitThinking, signal, session, ranTool);
      } catch (error) {
        const failure = `${current.record.namespace}: ${signal.aborted ? abortReason(signal) : (error as Error).message}`;
        if (signal.aborted || streamed !== null) {
          await logFailure(db, prepared, {
            failures: [...failures, failure],
            started,
            model: current,
            partial: streamed,
          });
          throw error;
        }
        failures.push(failure);
        attempts.push({
          namespace: current.record.namespace,
          status_code: error instanceof ReachFailure && error.status ? error.status : 502,
          error: failure.slice(current.record.namespace.length + 2),
        });
        // A model that refuses the reasoning asked is asked again at once without it (not a retry of
        // the Space's), and from then on (withinReach).
        if (refusesReasoning(error, current.record, prepared)) {
          refusedReasoning = current.record.namespace;
          same--;
          continue;
        }
        tried.push(current.record.namespace);
        // Asking the same model again is pointless after such a failure (NOT_AGAIN): the same request
        // gets the same answer.
        if (error instanceof ReachFailure && error.status && NOT_AGAIN.has(error.status)) {
          if (error.status === 401 || error.status === 403) refused.add(current.record.provider ?? '');
          break;
        }
        continue;
      }
      attempts.push({ namespace: current.record.namespace, status_code: 200, error: null });
      if (refusedReasoning === current.record.namespace)
        warn(
          reply,
          `${refusedReasoning} refused the reasoning asked of it, so it answered without; it is asked for none from now on.`,
        );
      const unsearched = searchNotRun(current.record, toolOptionsOf(prepared.body));
      if (unsearched) warn(reply, unsearched);
      if (reaches.for(current.record).measured)
        latencyBook.record(current.record.namespace, (firstDelta ?? Date.now()) - attemptStarted);
      const completion = await finishChat(db, prepared, current, oneCallIfAsked(reply, prepared), {
        retries: failures.length,
        failures,
        attempts,
        latency: (Date.now() - attemptStarted) / 1000,
      });
      const { thinking, reasoning, webTools, paused, cited, searchSuggestions } = reply;
      if (!thinking && !reasoning && !webTools && !paused && !cited && !searchSuggestions) return completion;
      return { ...completion, thinking, reasoning, webTools, paused, cited, searchSuggestions };
    }
    current = switches < maxSwitch ? nextInChain(prepared, current, tried, refused) : undefined;
    switches++;
  }
  await logFailure(db, prepared, { failures, started, model: null, partial: null });
  throw new Problem(502, `No model could answer: ${summarize(failures)}`);
}

/** Adds to what the reply's answer is to say of how the model was asked. */
function warn(reply: Reply, words: string): void {
  reply.warning = reply.warning ? `${reply.warning} ${words}` : words;
}

/**
 * The reply with its first tool call alone when the request asked for one a reply
 * (parallel_tool_calls false), from a provider that does not take that request.
 */
function oneCallIfAsked(reply: Reply, prepared: Prepared): Reply {
  const calls = reply.toolCalls;
  if (prepared.body.completion?.parallelToolCalls !== false || !calls || calls.length < 2) return reply;
  return { ...reply, toolCalls: calls.slice(0, 1) };
}

/** Why a request was stopped: the service's own reason (it shut down), or the client left. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the client went away';
}

function nextInChain(
  prepared: Prepared,
  current: CatalogueModel,
  tried: string[],
  refused: Set<string>,
): CatalogueModel | undefined {
  const chain = prepared.chain;
  const at = chain.findIndex((m) => m.record.id === current.record.id);
  const needs = { ...needsOf(prepared.body), pdfPages: prepared.pdfPages };
  return chain
    .slice(at + 1)
    .find(
      (m) =>
        !tried.includes(m.record.namespace) &&
        !refused.has(m.record.provider ?? '') &&
        !isRetired(m.record) &&
        !capabilityRefusal(m.record, needs),
    );
}

/**
 * Models that refused a reasoning effort or thinking while this service runs. The catalogue does not
 * say of every model whether it takes one (xAI's Grok 4 reasons but refuses an effort; many newer
 * models are in no dataset yet), and a Space routes an agent's effort to whichever model it picks.
 */
const refusingReasoning = new Set<string>();

/** Whether a request's options ask a model to reason: an effort, or thinking that is not off. */
const asksReasoning = (options: ToolOptions) =>
  !!options.reasoningEffort || (!!options.thinking && options.thinking.type !== 'disabled');

/**
 * A provider's words for a parameter of reasoning it does not take, as OpenAI ("Unsupported parameter:
 * 'reasoning_effort'"), xAI ("does not support parameter reasoningEffort") and Ollama ("does not
 * support thinking") say it; not a bad value of one (a budget, a signature), which the client must fix.
 */
const REFUSED_REASONING =
  /reasoning[_ .]?effort|\b(thinking|reasoning)\b.{0,40}\bnot (be )?(supported|permitted|allowed)|(does not|doesn't) support (the )?(parameter )?(thinking|reasoning)/i;

/**
 * Whether a failure is the model refusing the reasoning it was asked: a 400 in those words, to an
 * attempt that asked for some. The model is then remembered as one that refuses it.
 */
function refusesReasoning(error: unknown, r: ModelRecord, prepared: Prepared): boolean {
  const refused =
    error instanceof ReachFailure &&
    error.status === 400 &&
    REFUSED_REASONING.test(error.message) &&
    asksReasoning(withinReach(r, toolOptionsOf(prepared.body)));
  if (refused) refusingReasoning.add(r.namespace);
  return refused;
}

/**
 * What a request asks of a model, less an effort or thinking the model cannot take: a Space routes an
 * agent's effort to whichever model it picks, and OpenAI, Anthropic and Ollama refuse one for a model
 * that does not reason (a 400) where others ignore it; so does a model that refused one before.
 */
function withinReach(r: ModelRecord, options: ToolOptions): ToolOptions {
  const unable =
    (r.supports_reasoning === false || refusingReasoning.has(r.namespace)) &&
    (options.reasoningEffort || options.thinking);
  return unable ? { ...options, reasoningEffort: undefined, thinking: undefined } : options;
}

/**
 * Why a reply's remote MCP calls are not run, once its rounds so far cost as much as the Space's cost
 * cap per request (checked before the request for one round only), in the receipt's words; none without a cap.
 */
function overCostCap(prepared: Prepared, r: ModelRecord, whole: Reply): string | undefined {
  const cap = prepared.config.policies.max_cost ?? 0;
  const spent = cap > 0 ? replyCost(prepared, r, whole) : 0;
  if (!cap || spent < cap) return undefined;
  return `The model's calls to MCP servers were not run: its rounds so far cost ${money(spent)}, as much as ${costCapWords(cap)}.`;
}

/** One attempt of one model, through the way that reaches it. */
function generate(
  reaches: Reaches,
  model: CatalogueModel,
  prepared: Prepared,
  onDelta: ((text: string) => void) | undefined,
  onThinking: ((piece: ThinkingPiece) => void) | undefined,
  signal: AbortSignal,
  session: McpSession | undefined,
  ranTool: () => void,
): Promise<Reply> {
  const r = model.record;
  const body = prepared.body;
  // Tools deferred and loaded by reference (Claude Code's tool search) and examples of their input go as
  // they are to a Claude model, in its own terms to another; Anthropic's tool search tool goes only to a
  // Claude model at Anthropic, which runs it (any other is shown every tool).
  const claude = dialectOf(r.provider ?? '', r.api_target || r.model) === 'anthropic';
  const own = toolOptionsOf(body);
  // A remote MCP server's tools are offered as functions, beside the client's.
  const asked = session ? { ...own, tools: [...(own.tools ?? []), ...session.functions] } : own;
  const ask = (conversation: ChatMessage[]) => {
    const { messages, options } =
      claude && (!asked.toolSearch || toolSearchRuns(r))
        ? { messages: conversation, options: asked }
        : inOwnTerms(conversation, asked);
    return reaches.for(r).generate({
      model: r,
      // A model without vision gets the text of each message without its images.
      messages: r.supports_vision
        ? messages
        : messages.map((m) =>
            m.content === null || typeof m.content === 'string'
              ? m
              : ({ ...m, content: textOf(m.content) } as ChatMessage),
          ),
      // With remote tool calls run, what the model answers is their results.
      prompt: session ? promptOf(conversation) : body.prompt,
      images: body.images?.length ?? 0,
      files: body.files?.length ?? 0,
      maxTokens: Math.max(1, Math.min(prepared.maxTokens, r.context_window - prepared.promptTokens)),
      temperature: prepared.temperature,
      tools: withinReach(r, options),
      onDelta,
      onThinking,
      signal,
    });
  };
  return session
    ? withRemoteTools(session, prepared.messages, asked.mcpApprovals ?? [], ask, signal, onThinking, ranTool, (whole) =>
        overCostCap(prepared, r, whole),
      )
    : ask(prepared.messages);
}
