// The playground and chat completions: resolves a request against its Space, picks the model, retries
// and fails over as the Space's policies say, then logs the request and updates the organization's
// usage in one transaction. A chat completion brings its own messages (and tools); a playground
// request brings a prompt and takes its history from its conversation.
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ChatBody, ChatCompletion, CostBand, ModelRecord, RouteQuestion, RoutePreview, ToolCall } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { checkAssistantChoice, findVersion, latestVersionId } from '../domain/assistants';
import { conversationExists, createConversation, findConversation, touchConversation } from '../domain/conversations';
import { findModel, findModelByName, isRetired, retiresSoon, appModelRows, type CatalogueModel } from '../domain/models';
import { answersHere, markServerGone, servingOf } from '../domain/serving';
import { countFailedRequest, recordUsage } from '../domain/orgs';
import { conversationTurns, insertRequest, requestInConversation } from '../domain/requests';
import { findPrompt } from '../domain/prompts';
import { appConfig, loadApp, requirePermission, type AppConfig } from '../domain/spaces';
import { Problem, invalid } from '../problem';
import { countTokens, tokenPieces, truncateTokens } from '../tokenizer';
import { costOf, estimateCost, savingsOf, type Counts } from './pricing';
import { explain, type RouteInput } from './routing';
import { conversationName } from '../../shared/conversationName';
import { testModelReply } from './testModels';
import type { ModelServerOptions } from '../modelServers';
import { UpstreamFailure, callUpstream, type ChatMessage, type ToolOptions } from './upstream';

/** Where models answer is the database's (domain/serving.ts); the engine is told how test models pace. */
export interface EngineOptions {
  /** Where a refresh looks for model servers (see ../modelServers.ts). */
  servers: ModelServerOptions;
  /** Pause between streamed pieces of a test model's reply, to behave like a real model. */
  streamDelayMs: number;
}

/**
 * A request as the engine runs it. A chat completion carries its messages and tools in `completion`;
 * its `prompt` is then the text of the last user message (what test models answer and the log keeps).
 */
export type Body = z.output<typeof ChatBody> & { completion?: ToolOptions & { messages: ChatMessage[] } };

interface Prepared {
  requestId: string;
  caller: Caller;
  config: AppConfig;
  body: Body;
  first: CatalogueModel;
  chain: CatalogueModel[];
  messages: ChatMessage[];
  promptTokens: number;
  promptChars: number;
  maxTokens: number;
  temperature: number;
  conversationId: string | null;
  benchmark: ModelRecord | undefined;
  warnings: string[];
  /** How the first model was chosen, for the routing receipt (the attempts are added as they run). */
  routing: { strategy: 'routed' | 'model'; candidates: RoutePreview['candidates']; rejected: RoutePreview['rejected'] };
}

/** One try of a model for a request, for the routing receipt. */
type Attempt = {
  namespace: string;
  status_code: number;
  error: string | null;
};

const MAX_HISTORY = 20;

/** Checks everything that can be checked before a model runs; throws a 4xx Problem and stores nothing. */
export function prepareChat(db: Database, caller: Caller, body: Body): Prepared {
  const row = loadApp(db, caller, body.app_id);
  requirePermission(caller, 'use_playground');
  const config = appConfig(row);
  checkAttachments(body);
  const conversation = resolveConversation(db, row.id, body);
  const version = resolveAssistantVersion(db, row.id, body, conversation?.settings ?? null, config);
  const messages = buildMessages(db, caller, config, version, conversation ? row.id : null, body);
  const text = messages.map((m) => textOf(m.content) + ('tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => c.function.name + c.function.arguments).join('') : '')).join('\n');
  const promptTokens = countTokens(text);
  const maxTokens = body.max_tokens ?? version?.max_tokens ?? config.settings.max_tokens ?? 1024;
  const temperature = body.temperature ?? version?.temperature ?? config.settings.temperature ?? 0.7;
  const { route, budget, canServe } = routeInput(db, config, { promptTokens, promptChars: text.length, maxTokens, needsVision: hasImages(body) });
  const warnings: string[] = [];
  const modelId = body.model ?? version?.model_id ?? null;
  const weighed = weighActive(db, caller, row.id, route, budget);
  let first: CatalogueModel;
  if (modelId) {
    first = explicitModel(db, caller, modelId, route, budget, body.model ? ['body', 'model'] : ['body', 'assistant_version_id']);
  } else {
    const ranked = weighed.ranked;
    if (ranked.length === 0) {
      throw new Problem(
        422,
        [{ loc: ['body', 'model'], msg: 'No active model of this Space can serve this request (check its active models and max_cost; models of a model server answer only while it runs).', type: 'no_model' }],
      );
    }
    first = ranked[0]!.model;
  }
  if (retiresSoon(first.record)) warnings.push(deprecationWarning(first.record));
  // Where a failed model's request goes next: the failover chain in its order when it is on, else the
  // Space's other active models by quality, best first (conventions.md, corrections).
  const chain = config.row.has_failover_chain
    ? failoverChain(db, caller, row.id)
    : activeModels(db, caller, row.id)
        .filter((m) => m.record.id !== first.record.id && canServe(m.record) && budget(m.record) > 0)
        .sort((a, b) => b.quality - a.quality || a.record.namespace.localeCompare(b.record.namespace));
  return {
    requestId: randomUUID(),
    caller,
    config,
    body,
    first,
    chain,
    messages,
    promptTokens,
    promptChars: text.length,
    maxTokens,
    temperature,
    conversationId: body.conversation_id ?? null,
    benchmark: row.benchmark_model_id ? findModel(db, caller, row.benchmark_model_id)?.record : undefined,
    warnings,
    routing: { strategy: modelId ? 'model' : 'routed', candidates: weighed.candidates, rejected: weighed.rejected },
  };
}

/**
 * The Space's models weighed for a request: the active ones that can take it, ranked, with their
 * scores; and the Space's models left out, with the reason (conventions.md, routing receipt). Inactive
 * are the models the Space has turned off (toggled off, or in its failover chain only), not the whole
 * catalogue, which can be large.
 */
function weighActive(db: Database, caller: Caller, appId: string, route: RouteInput, budget: (r: ModelRecord) => number) {
  const rows = appModelRows(db, appId);
  const active = rows.filter((r) => r.active === 1).flatMap((r) => findModel(db, caller, r.model_id) ?? []);
  route.models = active.filter((m) => budget(m.record) > 0);
  const { ranked, rejected } = explain(route);
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return {
    ranked,
    candidates: ranked.map((c) => ({
      namespace: c.model.record.namespace,
      score: round(c.score),
      cost_score: round(c.costScore),
      latency_score: round(c.latencyScore),
      quality_score: round(c.qualityScore),
      estimated_cost: c.estimate,
    })),
    rejected: [
      ...rejected.map((r) => ({ namespace: r.model.record.namespace, reason: r.reason as string })),
      ...active.filter((m) => budget(m.record) <= 0).map((m) => ({ namespace: m.record.namespace, reason: 'prompt longer than its context window' })),
      ...rows
        .filter((r) => r.active !== 1)
        .flatMap((r) => findModel(db, caller, r.model_id) ?? [])
        .map((m) => ({ namespace: m.record.namespace, reason: 'inactive' })),
    ],
  };
}

interface PromptSize {
  promptTokens: number;
  promptChars: number;
  maxTokens: number;
  needsVision: boolean;
}

/** What routing weighs for a request of this size in this Space (the candidates are filled in by the caller). */
function routeInput(db: Database, config: AppConfig, size: PromptSize) {
  const canServe = (r: ModelRecord) => answersHere(db, r);
  const budget = (r: ModelRecord) => Math.min(size.maxTokens, r.context_window - size.promptTokens);
  const route: RouteInput = {
    models: [],
    weights: config.weights,
    maxCost: config.policies.max_cost ?? 0,
    needsVision: size.needsVision,
    canServe,
    estimate: (r) => estimateCost(r, size.promptTokens, size.promptChars, Math.max(1, budget(r))),
  };
  return { route, budget, canServe };
}

function activeModels(db: Database, caller: Caller, appId: string): CatalogueModel[] {
  return appModelRows(db, appId)
    .filter((r) => r.active === 1)
    .flatMap((r) => findModel(db, caller, r.model_id) ?? []);
}

function failoverChain(db: Database, caller: Caller, appId: string): CatalogueModel[] {
  return appModelRows(db, appId)
    .filter((r) => r.failover_position !== null)
    .sort((a, b) => (a.failover_position ?? 0) - (b.failover_position ?? 0))
    .flatMap((r) => findModel(db, caller, r.model_id) ?? []);
}

/**
 * Which model the Space would pick for a prompt, and why (the built-in service's own endpoint,
 * POST /v1/apps/{app_id}/route): the candidates with their scores and estimated cost, the active
 * models left out with the reason, and the failover chain. Runs no model and stores nothing.
 */
export function previewRoute(db: Database, caller: Caller, appId: string, input: z.output<typeof RouteQuestion>): RoutePreview {
  const row = loadApp(db, caller, appId);
  const config = appConfig(row);
  const promptTokens = countTokens(input.prompt);
  const maxTokens = input.max_tokens ?? config.settings.max_tokens ?? 1024;
  const { route, budget } = routeInput(db, config, { promptTokens, promptChars: input.prompt.length, maxTokens, needsVision: (input.images ?? 0) > 0 });
  const weighed = weighActive(db, caller, row.id, route, budget);
  const chain = config.row.has_failover_chain ? failoverChain(db, caller, row.id) : [];
  return {
    strategy: 'routed',
    chosen: weighed.ranked[0]?.model.record.namespace ?? null,
    prompt_tokens: promptTokens,
    max_tokens: maxTokens,
    candidates: weighed.candidates,
    rejected: weighed.rejected,
    failover: chain.map((m) => ({ namespace: m.record.namespace, estimated_cost: route.estimate(m.record) })),
    band: costBand(db, caller, { app_id: row.id, prompt: input.prompt, max_tokens: input.max_tokens, model: input.model, conversation_id: input.conversation_id, parent_request_id: input.parent_request_id }),
  };
}

/**
 * What a request would cost as it would be sent (instructions and earlier turns counted), over the
 * models that may answer it: the first, then the failover chain (CostBand in api/schemas.ts). Null when
 * the request could not be sent as it is (no model can take it, an unknown conversation...).
 */
function costBand(db: Database, caller: Caller, body: Body): CostBand | null {
  let prepared: Prepared;
  try {
    prepared = prepareChat(db, caller, body);
  } catch (error) {
    if (error instanceof Problem) return null;
    throw error;
  }
  const { promptTokens, promptChars } = prepared;
  const budget = (r: ModelRecord) => Math.max(1, Math.min(prepared.maxTokens, r.context_window - promptTokens));
  /** At a number of completion tokens, as routing estimates; at a known reply, as finishChat bills it. */
  const cost = (r: ModelRecord, completion: string | number) =>
    typeof completion === 'number' ? estimateCost(r, promptTokens, promptChars, completion) : costOf(r, { promptTokens, promptChars, completionTokens: countTokens(completion), completionChars: completion.length }).total;
  const first = prepared.first.record;
  const answering = [first, ...prepared.chain.map((m) => m.record).filter((r) => r.id !== first.id && !isRetired(r) && r.context_window > promptTokens)];
  // A test model's reply is known in advance (it is what generate() produces); other models are
  // expected to write half of what they may.
  const expected = first.is_test_model
    ? cost(first, truncateTokens(testModelReply({ model: first.model, prompt: body.prompt, images: 0, files: 0 }), budget(first)).text)
    : cost(first, Math.ceil(budget(first) / 2));
  return {
    min: Math.min(...answering.map((r) => cost(r, 0))),
    expected,
    max: Math.max(...answering.map((r) => cost(r, budget(r)))),
    model: first.namespace,
    prompt_tokens: promptTokens,
    max_tokens: prepared.maxTokens,
  };
}

function explicitModel(db: Database, caller: Caller, name: string, route: RouteInput, budget: (r: ModelRecord) => number, loc: string[]): CatalogueModel {
  const model = findModelByName(db, caller, name);
  if (!model) throw invalid(loc, `Unknown model "${name}"`, 'not_found');
  const r = model.record;
  if (isRetired(r)) throw invalid(loc, `${r.namespace} was deprecated on ${r.deprecated_on} and is no longer served`, 'model_deprecated');
  if (route.needsVision && !r.supports_vision) throw invalid(['body', 'images'], `${r.namespace} cannot read images`, 'vision_unsupported');
  if (budget(r) <= 0) throw invalid(['body', 'prompt'], `The prompt is longer than the context window of ${r.namespace} (${r.context_window} tokens)`, 'context_window');
  if (route.maxCost > 0 && route.estimate(r) > route.maxCost) throw invalid(loc, `${r.namespace} may cost more than this Space's max_cost of $${route.maxCost}`, 'max_cost');
  return model;
}

function deprecationWarning(r: ModelRecord): string {
  return `${r.namespace} is deprecated and will stop being served on ${r.deprecated_on}.`;
}

function checkAttachments(body: Body): void {
  body.images?.forEach((url, i) => {
    if (!/^data:image\/[a-z0-9.+-]+;base64,/i.test(url)) throw invalid(['body', 'images', i], 'must be a data URL of an image (data:image/...;base64,...)', 'data_url');
  });
  body.files?.forEach((url, i) => {
    if (!/^data:[a-z0-9.+-]+\/[a-z0-9.+-]+;base64,/i.test(url)) throw invalid(['body', 'files', i], 'must be a data URL (data:<type>;base64,...)', 'data_url');
  });
}

function resolveConversation(db: Database, appId: string, body: Body) {
  if (!body.conversation_id) {
    if (body.parent_request_id) throw invalid(['body', 'parent_request_id'], 'A parent request needs a conversation_id');
    return null;
  }
  const own = findConversation(db, appId, body.conversation_id);
  if (!own && conversationExists(db, body.conversation_id)) throw new Problem(404, 'Conversation not found');
  if (body.parent_request_id && !requestInConversation(db, body.parent_request_id, body.conversation_id)) {
    throw invalid(['body', 'parent_request_id'], 'Request not found in this conversation', 'not_found');
  }
  return own ? { settings: own.settings ? (JSON.parse(own.settings) as { assistant_id?: string; assistant_version_id?: string }) : null } : null;
}

function resolveAssistantVersion(db: Database, appId: string, body: Body, conversation: { assistant_id?: string; assistant_version_id?: string } | null, config: AppConfig) {
  const assistantId = body.assistant_id ?? conversation?.assistant_id ?? config.settings.assistant_id ?? null;
  const versionId = body.assistant_version_id ?? conversation?.assistant_version_id ?? config.settings.assistant_version_id ?? null;
  if (body.assistant_id) checkAssistantChoice(db, appId, body.assistant_id, null, ['body']);
  if (versionId) return checkAssistantChoice(db, appId, assistantId, versionId, ['body'])!;
  if (!assistantId) return null;
  const latest = latestVersionId(db, assistantId);
  return latest ? (findVersion(db, appId, latest) ?? null) : null;
}

function buildMessages(db: Database, caller: Caller, config: AppConfig, version: ReturnType<typeof resolveAssistantVersion>, conversationApp: string | null, body: Body): ChatMessage[] {
  const policyPrompt = config.policies.prompt_id ? findPrompt(db, caller, config.policies.prompt_id)?.prompt : undefined;
  const system = [policyPrompt, config.settings.instructions, version?.persona, version?.instructions, version?.writing_style ? `Writing style: ${version.writing_style}` : null]
    .filter((s): s is string => !!s && s.trim() !== '')
    .join('\n\n');
  const messages: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  if (body.completion) return [...messages, ...body.completion.messages];
  if (conversationApp && body.conversation_id) {
    for (const turn of conversationTurns(db, conversationApp, body.conversation_id, MAX_HISTORY)) messages.push({ role: 'user', content: turn.prompt }, { role: 'assistant', content: turn.response });
  }
  const images = body.images ?? [];
  messages.push({
    role: 'user',
    content: images.length ? [{ type: 'text', text: body.prompt }, ...images.map((url) => ({ type: 'image_url', image_url: { url } }))] : body.prompt,
  });
  return messages;
}

interface Reply {
  text: string;
  finishReason: 'stop' | 'length' | 'tool_calls';
  toolCalls?: ToolCall[];
}

/** Whether the request carries images: attached to a playground prompt, or as parts of a message. */
function hasImages(body: Body): boolean {
  if ((body.images?.length ?? 0) > 0) return true;
  return (body.completion?.messages ?? []).some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
}

/** The text of a message's content, parts joined (images left out). */
export function textOf(content: ChatMessage['content']): string {
  if (content === null) return '';
  return typeof content === 'string' ? content : content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * Runs the request. `onDelta`, when given, receives the reply as it is produced (streaming); a failure
 * after the first delta cannot be retried: it is logged with the text streamed so far, as a failure
 * without streaming is, and thrown.
 */
export async function runChat(db: Database, prepared: Prepared, options: EngineOptions, onDelta: ((text: string) => void) | undefined, signal: AbortSignal): Promise<ChatCompletion> {
  const started = Date.now();
  const policies = prepared.config.policies;
  const maxSame = policies.max_same_model_retries ?? 1;
  const maxSwitch = policies.max_switch_model_retries ?? 1;
  const tried: string[] = [];
  const failures: string[] = [];
  const attempts: Attempt[] = [];
  let current: CatalogueModel | undefined = prepared.first;
  let switches = 0;
  let streamed: string | null = null;
  const emit = onDelta && ((text: string) => {
    streamed = (streamed ?? '') + text;
    onDelta(text);
  });
  while (current) {
    for (let same = 0; same <= maxSame; same++) {
      const attemptStarted = Date.now();
      let reply: Reply;
      try {
        reply = await generate(db, current, prepared, options, emit, signal);
      } catch (error) {
        const failure = `${current.record.namespace}: ${signal.aborted ? abortReason(signal) : (error as Error).message}`;
        if (signal.aborted || streamed !== null) {
          await logFailure(db, prepared, { failures: [...failures, failure], started, model: current.record.namespace, partial: streamed });
          throw error;
        }
        failures.push(failure);
        attempts.push({ namespace: current.record.namespace, status_code: error instanceof UpstreamFailure && error.status ? error.status : 502, error: failure.slice(current.record.namespace.length + 2) });
        tried.push(current.record.namespace);
        continue;
      }
      attempts.push({ namespace: current.record.namespace, status_code: 200, error: null });
      return finishChat(db, prepared, current, reply, { retries: failures.length, failures, attempts, latency: (Date.now() - attemptStarted) / 1000 });
    }
    current = switches < maxSwitch ? nextInChain(prepared, current, tried) : undefined;
    switches++;
  }
  await logFailure(db, prepared, { failures, started, model: null, partial: null });
  throw new Problem(502, `No model could answer: ${summarize(failures)}`);
}

/** Why a request was stopped: the service's own reason (it shut down), or the client left. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the client went away';
}

/** "a: x; a: x; b: y" becomes "a: x (2 times); b: y". */
function summarize(failures: string[]): string {
  const counts = new Map<string, number>();
  for (const f of failures) counts.set(f, (counts.get(f) ?? 0) + 1);
  return [...counts].map(([f, n]) => (n > 1 ? `${f} (${n} times)` : f)).join('; ');
}

function nextInChain(prepared: Prepared, current: CatalogueModel, tried: string[]): CatalogueModel | undefined {
  const chain = prepared.chain;
  const at = chain.findIndex((m) => m.record.id === current.record.id);
  const needsVision = hasImages(prepared.body);
  return chain
    .slice(at + 1)
    .find((m) => !tried.includes(m.record.namespace) && !isRetired(m.record) && (!needsVision || m.record.supports_vision));
}

async function generate(db: Database, model: CatalogueModel, prepared: Prepared, options: EngineOptions, onDelta: ((text: string) => void) | undefined, signal: AbortSignal): Promise<Reply> {
  const r = model.record;
  const maxTokens = Math.max(1, Math.min(prepared.maxTokens, r.context_window - prepared.promptTokens));
  if (r.is_test_model) {
    const asked = r.model === 'echo' ? echoToolCall(prepared.body) : null;
    if (asked) return { text: '', finishReason: 'tool_calls', toolCalls: [asked] };
    const full = testModelReply({ model: r.model, prompt: prepared.body.prompt, images: prepared.body.images?.length ?? 0, files: prepared.body.files?.length ?? 0 });
    const cut = truncateTokens(full, maxTokens);
    if (onDelta) await streamPieces(cut.text, options.streamDelayMs, onDelta, signal);
    return { text: cut.text, finishReason: cut.truncated ? 'length' : 'stop' };
  }
  const serving = servingOf(db, r);
  if (!serving?.available) throw new UpstreamFailure(`no model server here serves ${r.namespace}`);
  // A model without vision gets the text of each message without its images.
  const messages = r.supports_vision ? prepared.messages : prepared.messages.map((m) => (m.content === null || typeof m.content === 'string' ? m : ({ ...m, content: textOf(m.content) } as ChatMessage)));
  const completion = prepared.body.completion;
  const tools = completion?.tools?.length && r.supports_functions ? { tools: completion.tools, toolChoice: completion.toolChoice } : {};
  try {
    return await callUpstream({ baseUrl: serving.baseUrl, model: serving.target ?? (r.api_target || r.model), messages, maxTokens, temperature: prepared.temperature, options: { ...tools, stop: completion?.stop }, onDelta, signal });
  } catch (error) {
    // A local server that went away: its models stop being candidates until a refresh finds it again.
    if (error instanceof UpstreamFailure && error.unreachable && r.provider === 'local') await db.transaction(() => markServerGone(db, serving.baseUrl));
    throw error;
  }
}

/**
 * test/echo's tool call (conventions.md): with tools given and the last user message reading
 * `call <tool name> <JSON arguments>`, it asks for exactly that call.
 */
function echoToolCall(body: Body): ToolCall | null {
  const tools = body.completion?.tools ?? [];
  if (body.completion?.messages.at(-1)?.role !== 'user') return null;
  const match = /^call\s+(\S+)\s*([\s\S]*)$/.exec(body.prompt.trim());
  if (!match || !tools.some((t) => t.function.name === match[1])) return null;
  let args: unknown;
  try {
    args = JSON.parse(match[2]!.trim() || '{}');
  } catch {
    return null;
  }
  const id = `call_${createHash('sha256').update(body.prompt).digest('hex').slice(0, 16)}`;
  return { id, type: 'function', function: { name: match[1]!, arguments: JSON.stringify(args) } };
}

async function streamPieces(text: string, delayMs: number, onDelta: (text: string) => void, signal: AbortSignal): Promise<void> {
  for (const piece of tokenPieces(text, 4)) {
    if (signal.aborted) throw new Error('cancelled');
    onDelta(piece);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

interface Outcome {
  retries: number;
  failures: string[];
  attempts: Attempt[];
  latency: number;
}

async function finishChat(db: Database, prepared: Prepared, model: CatalogueModel, reply: Reply, outcome: Outcome): Promise<ChatCompletion> {
  const r = model.record;
  // A tool call is output the model produced: its name and arguments are billed as completion text.
  const produced = reply.text + (reply.toolCalls ?? []).map((c) => c.function.name + c.function.arguments).join('');
  const completionTokens = countTokens(produced);
  const counts: Counts = { promptTokens: prepared.promptTokens, completionTokens, promptChars: prepared.promptChars, completionChars: produced.length };
  const costs = costOf(r, counts);
  const savings = savingsOf(costs, prepared.benchmark, counts);
  const warnings = [...prepared.warnings];
  if (model !== prepared.first) {
    warnings.push(`Failed over from ${prepared.first.record.namespace} to ${r.namespace} after ${outcome.retries} failed attempt(s): ${summarize(outcome.failures)}.`);
    if (retiresSoon(r)) warnings.push(deprecationWarning(r));
  }
  const warning = warnings.length ? warnings.join(' ') : null;
  await db.transaction(() => {
    ensureConversation(db, prepared);
    insertRequest(db, {
      ...logOf(prepared),
      model: r.namespace,
      response: reply.text + (reply.toolCalls ?? []).map((c) => `${reply.text ? '\n' : ''}[asked for ${c.function.name}(${c.function.arguments})]`).join(''),
      promptTokens: counts.promptTokens,
      completionTokens,
      cost: costs.total,
      savings: savings.total,
      latency: outcome.latency,
      status: 200,
      error: null,
    });
    recordUsage(db, prepared.caller.orgId, {
      promptTokens: counts.promptTokens,
      completionTokens,
      promptCost: costs.prompt,
      completionCost: costs.completion,
      totalCost: costs.total,
      promptSavings: savings.prompt,
      completionSavings: savings.completion,
      totalSavings: savings.total,
    });
  });
  return {
    id: prepared.requestId,
    object: 'chat.completion',
    created: Date.now(),
    model: r.namespace,
    choices: [{ index: 0, finish_reason: reply.finishReason, message: { role: 'assistant', content: reply.text, ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}) } }],
    usage: { prompt_tokens: counts.promptTokens, completion_tokens: completionTokens, total_tokens: counts.promptTokens + completionTokens },
    metadata: {
      app_id: prepared.config.row.id,
      conversation_id: prepared.conversationId,
      parent_request_id: prepared.body.parent_request_id ?? null,
      model: { model: r.model, namespace: r.namespace, provider: r.provider ?? null, owner: r.owner ?? null, at: r.at ?? null },
      costs: { prompt_tokens: costs.prompt, completion_tokens: costs.completion, total_tokens: costs.total },
      cost_savings: { prompt_tokens: savings.prompt, completion_tokens: savings.completion, total_tokens: savings.total },
      latency: outcome.latency,
      retries: outcome.retries,
      status_code: 200,
      error: null,
      warning,
      routing: { ...prepared.routing, strategy: model === prepared.first ? prepared.routing.strategy : 'failover', attempts: outcome.attempts },
    },
  };
}

function ensureConversation(db: Database, prepared: Prepared): void {
  const id = prepared.conversationId;
  if (!id) return;
  if (findConversation(db, prepared.config.row.id, id)) touchConversation(db, id);
  else createConversation(db, prepared.config.row.id, { name: conversationName(prepared.body.prompt) }, id);
}

/** The parts of a log row that come from the request itself. */
function logOf(prepared: Prepared) {
  return {
    id: prepared.requestId,
    orgId: prepared.caller.orgId,
    appId: prepared.config.row.id,
    conversationId: prepared.conversationId,
    parentRequestId: prepared.body.parent_request_id ?? null,
    prompt: prepared.body.prompt,
    privacyLevel: prepared.config.policies.privacy_level ?? 1,
  };
}

interface Failure {
  failures: string[];
  started: number;
  /** The model that broke off a streamed reply; null when none could answer. */
  model: string | null;
  /** What was streamed before the failure. */
  partial: string | null;
}

/** A request no model could answer is logged too (no cost), so the user can see why. */
async function logFailure(db: Database, prepared: Prepared, failure: Failure): Promise<void> {
  await db.transaction(() => {
    ensureConversation(db, prepared);
    insertRequest(db, {
      ...logOf(prepared),
      model: failure.model,
      response: failure.partial,
      promptTokens: prepared.promptTokens,
      completionTokens: failure.partial ? countTokens(failure.partial) : 0,
      cost: 0,
      savings: 0,
      latency: (Date.now() - failure.started) / 1000,
      status: 502,
      error: summarize(failure.failures),
    });
    countFailedRequest(db, prepared.caller.orgId);
  });
}
