// The chat routes (the route table's entries with `chat`): the body read into the engine's request,
// prepared (a 4xx before anything runs), then run, answered as JSON or as server-sent events when the
// body says `stream: true` or the client accepts only events.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatCompletion } from '../../api/schemas';
import type { Caller } from '../domain/caller';
import type { Database } from '../db';
import { anthropicCompacted, compacted, compactionDue, serverCompaction, summaryWritten } from '../chat/compaction';
import { prepareSending } from '../chat/prepare';
import type { Reaches } from '../chat/reach/reaches';
import { thinkingText, type Body, type Prepared, type PromptPrint, type ThinkingPiece } from '../chat/request';
import { answeringIn, keepTurn } from '../chat/openAiConversations';
import { conversationIdOf } from '../chat/responsesRequest';
import { runChat, type Completed } from '../chat/run';
import { Cancelled, keepReplay, Replay, runInBackground, type BackgroundRun } from '../chat/backgroundResponses';
import { messageThreads } from '../chat/threads';
import { cacheDiagnostics, type CacheMissReason } from '../chat/cacheDiagnostics';
import { record } from '../ledgerThread';
import { invalid, Problem } from '../problem';
import { StorageError } from '../storageError';
import { AnthropicStream, anthropicCompaction, anthropicMessage } from './anthropicAnswer';
import { openAiError, sendRawError, type ErrorDialect } from './errorAnswers';
import { EventStream } from './eventStream';
import {
  ResponsesStream,
  compactionItem,
  compactionObject,
  keptOutput,
  responseIdOf,
  responseObject,
  unfinishedObject,
  urlCitations,
} from './responsesAnswer';
import { ShutdownError } from './lifecycle';

export type ChatReader = (caller: Caller, body: unknown, db: Database) => Body;

export interface ChatOptions {
  db: Database;
  reaches: Reaches;
  logError?: (error: unknown) => void;
  /**
   * The shapes of the answer: the conventions', OpenAI's Chat Completions or Responses (`created` in
   * seconds, errors as `{"error": {"message", …}}`) or Anthropic's Messages (conventions.md).
   */
  dialect: ErrorDialect;
  /** How often a stream says its conversation is still being summed up (compactedFirst), in ms. */
  compactingEveryMs: number;
}

/** Answers one chat request; `open` holds it while it runs, so a shutdown can stop it. */
export async function answerChat(
  read: ChatReader,
  request: FastifyRequest,
  reply: FastifyReply,
  options: ChatOptions,
  open: Set<AbortController>,
): Promise<unknown> {
  const abort = new AbortController();
  open.add(abort);
  try {
    return await answer(read, request, reply, options, abort, open);
  } finally {
    open.delete(abort);
  }
}

async function answer(
  read: ChatReader,
  request: FastifyRequest,
  reply: FastifyReply,
  options: ChatOptions,
  abort: AbortController,
  open: Set<AbortController>,
): Promise<unknown> {
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const caller = request.caller!;
  const given = read(caller, request.body, options.db);
  // The reply a thread's request continues is not continued by another until this one is answered, nor
  // is a conversation answered in by another (a background response's, until it has run).
  if (given.anthropicThread) reply.raw.once('close', messageThreads.hold(given.anthropicThread));
  const conversation = given.responses?.conversation;
  let release = conversation ? answeringIn(conversationIdOf(conversation)) : undefined;
  if (release) reply.raw.once('close', () => release?.());
  const asked = await prepareSending(options.db, caller, given);
  // The id of the request's log entry, where each vendor's SDK reads a request's id (OpenAI's
  // x-request-id, Anthropic's request-id), so an answer or an error it shows names the entry.
  reply.header(options.dialect === 'anthropic' ? 'request-id' : 'x-request-id', asked.requestId);
  const shutDown = () => abort.signal.reason instanceof ShutdownError;
  const wantsStream = asked.body.stream ?? /^text\/event-stream/i.test(request.headers.accept ?? '');
  if (asked.body.responses?.background) {
    const ends = release;
    release = undefined;
    const obfuscate = asked.body.responses?.stream_options?.include_obfuscation === true;
    return inBackground(asked, options, open, ends, wantsStream ? { reply, obfuscate } : undefined);
  }
  // OpenAI's clients read `created` in seconds; the playground's in milliseconds (conventions.md).
  const openai = options.dialect === 'openai' || options.dialect === 'responses';
  const created = (ms: number) => (openai ? Math.floor(ms / 1000) : ms);
  const named = options.dialect === 'anthropic' || options.dialect === 'responses' ? options.dialect : undefined;
  const pauses = asked.body.anthropicCompaction?.pause;
  if (wantsStream && named && !pauses && compactionDue(asked) !== undefined)
    return streamCompacted(asked, named, options, abort, shutDown, reply, created(Date.now()));
  const prepared = await compactedFirst(options, asked, abort.signal);
  const body = prepared.body;
  // A text completion answers in OpenAI's legacy shape (`text`), unless its API answers as a chat (Mistral's).
  const textCompletion = body.completion?.textCompletion !== undefined && !body.asChat;
  if (body.compaction?.triggered)
    return answerTriggered(prepared, options, wantsStream ? reply : undefined, abort, shutDown, created(Date.now()));
  if (!wantsStream) {
    try {
      const completion = await runChat(options.db, prepared, options.reaches, undefined, abort.signal);
      if (body.compaction) return compactionObject(completion, body.compaction.kept, created(Date.now()));
      if (options.dialect === 'anthropic') {
        // Diagnosed before the reply's own print is kept, and by the model that answered.
        const print = body.promptPrint;
        const diagnostics = print && diagnosisOf(print, completion.model);
        const message = anthropicAnswered(prepared, completion);
        return diagnostics === undefined ? message : { ...message, diagnostics };
      }
      if (options.dialect === 'responses') {
        const answer = responseObject(completion, body.responses!, created(Date.now()));
        await keepAnswer(options, prepared, { items: keptOutput(completion, body.responses!), answer });
        return answer;
      }
      if (textCompletion) return textCompletionObject(completion, created(completion.created));
      // Signed thinking is for Anthropic's clients, which send it back. OpenAI-compatible clients and the
      // playground get its text to show, as `reasoning_content` (DeepSeek's API and LiteLLM's name, which
      // Cline, Roo Code and the AI SDK read), and any other model's reasoning the same way.
      const answer = {
        ...completion,
        thinking: undefined,
        reasoning: undefined,
        webTools: undefined,
        paused: undefined,
        cited: undefined,
        searchSuggestions: undefined,
        created: created(completion.created),
      };
      const thought = thinkingText(completion.thinking) || completion.reasoning;
      const annotations = chatAnnotations(completion);
      const suggestions = ownSuggestions(completion, options.dialect);
      if (!thought && !annotations.length && !suggestions && !body.legacyFunctions) return answer;
      const [first, ...rest] = completion.choices;
      const message = {
        ...first!.message,
        ...(thought ? { reasoning_content: thought } : {}),
        ...(annotations.length ? { annotations } : {}),
        ...suggestions,
      };
      const choice = body.legacyFunctions ? asFunctionCall({ ...first!, message }) : { ...first!, message };
      return { ...answer, choices: [choice, ...rest] };
    } catch (error) {
      throw shutDown() ? new Problem(503, 'The service is shutting down.') : error;
    }
  }

  reply.hijack();
  const events = new EventStream(reply);
  events.obfuscate = body.obfuscate === true || body.responses?.stream_options?.include_obfuscation === true;
  if (named)
    return streamNamed(
      namedStream(events, prepared, named, created(Date.now())),
      events,
      prepared,
      options,
      abort,
      shutDown,
      reply,
    );
  const started = created(Date.now());
  let first = true;
  /** A chunk; the first of a chat's reply says whose it is (`role`), as OpenAI's stream does. */
  const chunk = (delta: { content?: string; [more: string]: unknown }, finish: string | null = null) => {
    if (textCompletion)
      return {
        id: prepared.requestId,
        object: 'text_completion',
        created: started,
        model: prepared.first.record.namespace,
        choices: [{ index: 0, text: delta.content ?? '', logprobs: null, finish_reason: finish }],
      };
    const withRole = first ? { role: 'assistant', ...delta } : delta;
    first = false;
    return {
      id: prepared.requestId,
      object: 'chat.completion.chunk',
      created: started,
      model: prepared.first.record.namespace,
      choices: [{ index: 0, delta: withRole, finish_reason: finish }],
    };
  };
  try {
    const completion = await runChat(
      options.db,
      prepared,
      options.reaches,
      (text) => events.send(chunk({ content: text })),
      abort.signal,
      !textCompletion
        ? (piece) => {
            const text = 'thinking' in piece ? piece.thinking : 'reasoning' in piece ? piece.reasoning : '';
            if (text) events.send(chunk({ reasoning_content: text }));
          }
        : undefined,
    );
    const calls = completion.choices[0]?.message.tool_calls;
    if (calls?.length)
      events.send(
        chunk(
          body.legacyFunctions
            ? { function_call: calls[0]!.function }
            : { tool_calls: calls.map((call, index) => ({ index, ...call })) },
        ),
      );
    // The pages the text cites, once it is whole, as OpenAI's search models stream them.
    const annotations = textCompletion ? [] : chatAnnotations(completion);
    if (annotations.length) events.send(chunk({ annotations }));
    const suggestions = ownSuggestions(completion, options.dialect);
    if (suggestions) events.send(chunk(suggestions));
    // Mistral's last chunk has text, if none (Continue reads each chunk's delta.content).
    const finish = completion.choices[0]?.finish_reason ?? 'stop';
    const last = chunk(
      body.asChat ? { content: '' } : {},
      body.legacyFunctions && finish === 'tool_calls' ? 'function_call' : finish,
    );
    // Token probabilities, when asked for, come with the last choice (OpenAI's clients gather them by choice).
    const logprobs = (completion.choices[0] as { logprobs?: unknown } | undefined)?.logprobs;
    const lastChoices = logprobs ? [{ ...last.choices[0]!, logprobs }] : last.choices;
    events.send({
      ...last,
      choices: lastChoices,
      model: completion.model,
      usage: completion.usage,
      metadata: completion.metadata,
    });
    // What OpenAI's stream_options.include_usage asks for: a last chunk with the usage and no choice.
    if (body.includeUsage) events.send({ ...last, model: completion.model, choices: [], usage: completion.usage });
    events.send('[DONE]');
    events.end();
  } catch (error) {
    const failed = streamFailure(error, events, reply, options, abort, shutDown);
    if (!failed) return reply;
    events.send(openai ? openAiError(failed.status, failed.detail) : { error: { detail: failed.detail } });
    events.end();
  }
  return reply;
}

/**
 * A choice as OpenAI's older API (`functions`) answers: its one call as the message's `function_call`,
 * and `function_call` as why it stopped.
 */
function asFunctionCall<C extends ChatCompletion['choices'][number]>(choice: C) {
  const { tool_calls: calls, ...message } = choice.message;
  if (!calls?.length) return choice;
  return { ...choice, message: { ...message, function_call: calls[0]!.function }, finish_reason: 'function_call' };
}

/**
 * Google's Search Suggestions for a Gemini model's grounded reply, as the built-in service's own field
 * (`search_suggestions`, their HTML) for its own clients, which show them with the reply as Google asks;
 * OpenAI's API has no such field, so its clients are not sent them.
 */
const ownSuggestions = (c: Completed, dialect: ErrorDialect) =>
  c.searchSuggestions && dialect === 'conventions' ? { search_suggestions: c.searchSuggestions } : undefined;

/** The pages a reply's text cites, as Chat Completions annotates a message (OpenAI's search models'). */
const chatAnnotations = (c: Completed) =>
  urlCitations(c).map((cited) => ({ type: 'url_citation', url_citation: cited }));

/** OpenAI's answer to a text completion (POST /v1/completions): the chat's reply as its one choice's text. */
function textCompletionObject(completion: ChatCompletion, created: number) {
  const [choice] = completion.choices;
  return {
    id: completion.id,
    object: 'text_completion',
    created,
    model: completion.model,
    choices: [
      { index: 0, text: choice?.message.content ?? '', logprobs: null, finish_reason: choice?.finish_reason ?? 'stop' },
    ],
    usage: completion.usage,
    metadata: completion.metadata,
  };
}

/** A vendor's stream of named events (Anthropic's Messages, OpenAI's Responses). */
interface NamedEvents {
  start(): void;
  delta(text: string): void;
  /** A model's thinking as it comes (Anthropic's blocks, or OpenAI's reasoning item). */
  thinking?(piece: ThinkingPiece): void;
  finish(completion: ChatCompletion): void;
  error(status: number, detail: string): void;
  /** What a Space keeps of the reply (OpenAI's Responses), before it is finished. */
  kept?(completion: ChatCompletion): Kept;
}

/** What a Space keeps of a Responses answer: its output items (responsesAnswer.ts keptOutput) and the answer. */
interface Kept {
  items: Array<{ id: string }>;
  answer: Record<string, unknown>;
}

/** A vendor's stream of a reply, begun (its head and first event) before the reply is run. */
function namedStream(
  events: EventStream,
  prepared: Prepared,
  dialect: 'anthropic' | 'responses',
  createdAt: number,
): AnthropicStream | ResponsesStream {
  const model = prepared.first.record.namespace;
  const { body, requestId } = prepared;
  return dialect === 'anthropic'
    ? new AnthropicStream(
        events,
        requestId,
        model,
        prepared.promptTokens,
        body.anthropicCompaction?.compacted,
        body.promptPrint && diagnosisOf(body.promptPrint, model),
      )
    : new ResponsesStream(events, requestId, model, body.responses!, createdAt);
}

/** A summing up told, as it runs, to a stream begun before it (streamCompacted). */
interface CompactionWatch {
  begun(summingRequestId: string): void;
  compacting(): void;
  /** The request prepared again with its summary, which the reply goes on with. */
  done(compacted: Prepared): void;
}

/**
 * A Responses or Anthropic request whose conversation passed its compaction threshold (its
 * `context_management`), prepared again once a model of the Space summed it up (chat/compaction.ts),
 * under the request's own id (the answer's header named it): the summing up is a request of its own,
 * logged and billed; a failure of it fails the request. `watch` is told of it as it runs.
 */
async function compactedFirst(
  options: ChatOptions,
  prepared: Prepared,
  signal: AbortSignal,
  watch?: CompactionWatch,
): Promise<Prepared> {
  const threshold = compactionDue(prepared);
  if (threshold === undefined) return prepared;
  const { db, reaches } = options;
  const again = async (body: Body) => ({
    ...(await prepareSending(db, prepared.caller, body)),
    requestId: prepared.requestId,
  });
  const asked = serverCompaction(prepared.caller, prepared.body, db);
  // Anthropic's edit that pauses after compaction is answered as a request for compaction is: the summary alone.
  if (prepared.body.anthropicCompaction?.pause)
    return again({ ...asked, stream: prepared.body.stream, compaction: { kept: [], triggered: true } });
  const summing = await prepareSending(db, prepared.caller, asked);
  watch?.begun(summing.requestId);
  const summed = await telling(
    watch && (() => watch.compacting()),
    options.compactingEveryMs,
    runChat(db, summing, reaches, undefined, signal),
  );
  const final = await again(
    prepared.body.anthropicCompaction
      ? anthropicCompacted(prepared, summed, threshold)
      : compacted(db, prepared, compactionItem(summed, asked.compaction!.kept), { threshold, model: summed.model }),
  );
  watch?.done(final);
  return final;
}

/** What `work` gives, `tell` called every `everyMs` until then: a client waiting on a long step sees it under way. */
async function telling<T>(tell: (() => void) | undefined, everyMs: number, work: Promise<T>): Promise<T> {
  if (!tell) return work;
  const timer = setInterval(tell, everyMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/**
 * A stream whose conversation passed its compaction threshold (compactedFirst): it begins before the
 * summing up, which it tells as it runs (the compaction's block or item opened, a progress event every
 * `compactingEveryMs`, then the summary), and goes on with the reply.
 */
async function streamCompacted(
  asked: Prepared,
  dialect: 'anthropic' | 'responses',
  options: ChatOptions,
  abort: AbortController,
  shutDown: () => boolean,
  reply: FastifyReply,
  createdAt: number,
): Promise<unknown> {
  reply.hijack();
  const events = new EventStream(reply);
  const stream = namedStream(events, asked, dialect, createdAt);
  stream.start();
  let prepared: Prepared;
  try {
    prepared = await compactedFirst(options, asked, abort.signal, {
      begun: (summingRequestId) => stream.compactionBegun(summingRequestId),
      compacting: () => abort.signal.aborted || stream.compacting(),
      done: ({ body }) => {
        if (stream instanceof ResponsesStream) return stream.compactionDone(body.responses!);
        const written = body.anthropicCompaction!.compacted!;
        stream.compactionDone(written.summary, written);
      },
    });
  } catch (error) {
    return endFailed(error, stream, events, reply, options, abort, shutDown);
  }
  return streamNamed(stream, events, prepared, options, abort, shutDown, reply, true);
}

/**
 * The answer to a request for compaction (chat/compaction.ts): a compaction_trigger's, a response whose
 * one output item is the compaction of the summary the model wrote, kept as any response; Anthropic's, a
 * message whose one block is the summary. Streamed as its events when asked, begun before the model sums
 * up, which they tell as it runs.
 */
async function answerTriggered(
  prepared: Prepared,
  options: ChatOptions,
  streamTo: FastifyReply | undefined,
  abort: AbortController,
  shutDown: () => boolean,
  createdAt: number,
): Promise<unknown> {
  const dialect = options.dialect === 'anthropic' ? 'anthropic' : 'responses';
  const summing = (tell?: () => void) =>
    telling(tell, options.compactingEveryMs, runChat(options.db, prepared, options.reaches, undefined, abort.signal));
  if (!streamTo) {
    const summed = await summing();
    if (dialect === 'anthropic') return keptInThread(prepared, anthropicCompaction(summed, summaryWritten(summed)));
    const { request, c } = triggeredResponse(summed, prepared);
    const answer = responseObject(c, request, createdAt);
    await keepAnswer(options, prepared, { items: keptOutput(c, request), answer });
    return answer;
  }
  streamTo.hijack();
  const events = new EventStream(streamTo);
  const stream = namedStream(events, prepared, dialect, createdAt);
  stream.start();
  stream.compactionBegun(prepared.requestId);
  try {
    const summed = await summing(() => abort.signal.aborted || stream.compacting());
    if (stream instanceof AnthropicStream) {
      const summary = summaryWritten(summed);
      keptInThread(prepared, anthropicCompaction(summed, summary));
      stream.compactionDone(summary);
      stream.finishCompaction(summed);
    } else {
      const { request, c } = triggeredResponse(summed, prepared);
      stream.compactionDone(request);
      await keepAnswer(options, prepared, stream.kept(c));
      stream.finish(c);
    }
    events.end();
  } catch (error) {
    return endFailed(error, stream, events, streamTo, options, abort, shutDown);
  }
  return streamTo;
}

/**
 * A compaction_trigger's response: the request with the compaction item of the summary, and the reply,
 * which has nothing sampled after it (the summary is in the item, not a message or reasoning of the reply).
 */
function triggeredResponse(summed: Completed, prepared: Prepared) {
  const request = { ...prepared.body.responses!, compacted: compactionItem(summed, prepared.body.compaction!.kept) };
  const message = { role: 'assistant' as const, content: '' };
  const c = {
    ...summed,
    thinking: undefined,
    reasoning: undefined,
    choices: summed.choices.map((choice) => ({ ...choice, message })),
  };
  return { request, c };
}

/**
 * Keeps a Responses answer (its own input, read by responsesRequest.ts, its output items, and the
 * response as given) for a later item_reference, previous_response_id or GET, before the client has it
 * all: unless its request said `store: false`, or the Space's privacy level keeps no text (as its log
 * keeps none). A disk that refuses it fails nothing: the answer is given, and a later reference to it
 * is refused by name. The turn of a request that names a conversation is added to it first
 * (chat/openAiConversations.ts); that one a request cannot go without, so a refusal of it fails the request.
 */
async function keepAnswer(options: ChatOptions, prepared: Prepared, kept: Kept): Promise<void> {
  const request = prepared.body.responses!;
  // A conversation's turn is added whatever `store` says; a disk that refuses it fails the request.
  const conversation = request.conversation;
  if (conversation)
    await options.db.transaction(() => keepTurn(options.db, conversationIdOf(conversation), request.input, kept.items));
  if (request.store === false || (prepared.config.policies.privacy_level ?? 1) > 1) return;
  try {
    await keepResponse(options, prepared, kept);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    options.logError?.(error);
  }
}

/** Keeps a Responses answer as it stands (keepAnswer); a disk that refuses it throws. */
function keepResponse(options: ChatOptions, prepared: Prepared, { items, answer }: Kept): Promise<void> {
  const request = prepared.body.responses!;
  const owner = { requestId: prepared.requestId, orgId: prepared.caller.orgId, appId: prepared.config.row.id };
  const response = {
    id: responseIdOf(prepared.requestId),
    previousId: request.previous_response_id ?? null,
    input: request.input,
    answer,
  };
  return record(options.db, { kept: { owner, items, response } });
}

/**
 * A background response (Responses' `background`): kept as in progress, answered `queued` at once, and
 * run apart from its HTTP request, which the client may leave (chat/backgroundResponses.ts). It is kept
 * again as it ends: answered (with its conversation's turn, as any response), failed with why, or
 * cancelled. One stopped by the service's shutdown is kept as failed at its next start.
 */
async function inBackground(
  asked: Prepared,
  options: ChatOptions,
  open: Set<AbortController>,
  release: (() => void) | undefined,
  /** The client's reply, when it asked for the response's events as they come. */
  live?: { reply: FastifyReply; obfuscate: boolean },
): Promise<unknown> {
  try {
    const request = asked.body.responses!;
    if ((asked.config.policies.privacy_level ?? 1) > 1)
      throw invalid(
        ['body', 'background'],
        "needs the response kept to be read back, and this Space's privacy level keeps no text: send it without background",
      );
    const createdAt = Math.floor(Date.now() / 1000);
    const model = asked.first.record.namespace;
    const unfinished = (status: 'queued' | 'in_progress' | 'failed' | 'cancelled', error?: ResponseError) =>
      unfinishedObject(asked.requestId, model, request, createdAt, status, error);
    // On disk before the client is told of it: a response it is given can be read back.
    await keepResponse(options, asked, { items: [], answer: unfinished('in_progress') });
    const id = responseIdOf(asked.requestId);
    // Streamed, its events are kept to be picked up again by a client whose stream broke off.
    const replay = live && new Replay();
    const stream = replay && new ResponsesStream(replay, asked.requestId, model, request, createdAt);
    const abort = new AbortController();
    open.add(abort);
    const ends = release;
    release = undefined;
    const job = { asked, options, createdAt, stream, unfinished };
    const done = runInBackground(id, abort, (run) =>
      runJob(job, run).finally(() => {
        replay?.end();
        open.delete(abort);
        ends?.();
      }),
    );
    if (!replay || !live) return unfinished('queued');
    keepReplay(id, replay, done);
    followReplay(replay, live.reply, -1, live.obfuscate);
    return live.reply;
  } finally {
    release?.();
  }
}

/**
 * Streams a background response's events to a client, from those after `after` on (a client that
 * left goes without the rest; the response runs on).
 */
export function followReplay(replay: Replay, reply: FastifyReply, after: number, obfuscate = false): void {
  reply.hijack();
  const events = new EventStream(reply);
  events.obfuscate = obfuscate;
  reply.raw.once('close', () => replay.leave(events));
  replay.follow(events, after);
}

/** A background response to run: as it was asked, its stream (when streamed), and how it is kept unfinished. */
interface BackgroundJob {
  asked: Prepared;
  options: ChatOptions;
  createdAt: number;
  stream: ResponsesStream | undefined;
  unfinished: (status: 'failed' | 'cancelled', error?: ResponseError) => Record<string, unknown>;
}

/** Runs a background response, and keeps it as it ended: answered, failed with why, or cancelled. */
async function runJob({ asked, options, createdAt, stream, unfinished }: BackgroundJob, run: BackgroundRun) {
  const { signal } = run.abort;
  try {
    stream?.start();
    const prepared = await compactedFirst(options, asked, signal);
    const completion = await runChat(
      options.db,
      prepared,
      options.reaches,
      stream && ((text) => stream.delta(text)),
      signal,
      stream && ((piece) => stream.thinking(piece)),
    );
    run.finishing = true;
    const body = prepared.body.responses!;
    const kept = stream?.kept(completion) ?? {
      items: keptOutput(completion, body),
      answer: responseObject(completion, body, createdAt),
    };
    await keepAnswer(options, prepared, kept);
    stream?.finish(completion);
  } catch (error) {
    // Stopped by a shutdown: the next start keeps it as failed.
    if (signal.reason instanceof ShutdownError) return;
    const cancelled = signal.reason instanceof Cancelled;
    if (!cancelled && !(error instanceof Problem)) options.logError?.(error);
    const failure = responseError(error);
    const answer = cancelled ? unfinished('cancelled') : unfinished('failed', failure);
    await keepResponse(options, asked, { items: [], answer }).catch((e: unknown) => options.logError?.(e));
    if (!cancelled) stream?.error(error instanceof Problem ? error.status : 500, failure.message);
  }
}

/** Why a response failed, as OpenAI's `error` of a response says it: the service's words, never a stack. */
interface ResponseError {
  code: string;
  message: string;
}

function responseError(error: unknown): ResponseError {
  if (!(error instanceof Problem))
    return { code: 'server_error', message: 'The service failed to answer: its log says why.' };
  return { code: error.status === 429 ? 'rate_limit_exceeded' : 'server_error', message: error.message };
}

/**
 * An Anthropic reply, held with its conversation when its request is of a message thread (chat/threads.ts),
 * unless its Space keeps no text.
 */
function keptInThread(prepared: Prepared, message: Record<string, unknown>): Record<string, unknown> {
  const turn = prepared.body.anthropicThread;
  if (turn && (prepared.config.policies.privacy_level ?? 1) <= 1)
    messageThreads.keep(turn, String(message.id), { role: 'assistant', content: message.content });
  return message;
}

/** Anthropic's `diagnostics` of a reply: why the prompt cache missed, or null when nothing stood in its way. */
function diagnosisOf(print: PromptPrint, model: string): { cache_miss_reason: CacheMissReason } | null {
  const reason = cacheDiagnostics.diagnose(print, model);
  return reason && { cache_miss_reason: reason };
}

/**
 * An Anthropic reply as answered: held in its thread (keptInThread), and, when its request asked for
 * cache diagnostics, its prompt's print kept for the next request's diagnosis (the reply's own is given
 * by the caller: a stream gave it as it began).
 */
function anthropicAnswered(prepared: Prepared, completion: Completed): Record<string, unknown> {
  const message = keptInThread(prepared, anthropicMessage(completion, prepared.body.anthropicCompaction?.compacted));
  const print = prepared.body.promptPrint;
  if (print) cacheDiagnostics.keep(String(message.id), print, completion.model, completion.usage.prompt_tokens);
  return message;
}

/**
 * A reply in a vendor's named events; an error before the first event answers with its status, after it
 * as an event. `begun`: the stream began before (streamCompacted).
 */
async function streamNamed(
  stream: NamedEvents,
  events: EventStream,
  prepared: Prepared,
  options: ChatOptions,
  abort: AbortController,
  shutDown: () => boolean,
  reply: FastifyReply,
  begun = false,
): Promise<unknown> {
  let started = begun;
  const begin = () => {
    if (!started) stream.start();
    started = true;
  };
  try {
    const completion = await runChat(
      options.db,
      prepared,
      options.reaches,
      (text) => {
        begin();
        stream.delta(text);
      },
      abort.signal,
      stream.thinking &&
        ((piece) => {
          begin();
          stream.thinking!(piece);
        }),
    );
    begin();
    if (stream.kept) await keepAnswer(options, prepared, stream.kept(completion));
    if (prepared.body.anthropicThread || prepared.body.promptPrint) anthropicAnswered(prepared, completion);
    stream.finish(completion);
    events.end();
  } catch (error) {
    return endFailed(error, stream, events, reply, options, abort, shutDown);
  }
  return reply;
}

/** A named stream that failed: its last event says why (streamFailure), unless it is already answered or gone. */
function endFailed(
  error: unknown,
  stream: NamedEvents,
  events: EventStream,
  reply: FastifyReply,
  options: ChatOptions,
  abort: AbortController,
  shutDown: () => boolean,
): FastifyReply {
  const failed = streamFailure(error, events, reply, options, abort, shutDown);
  if (failed) {
    stream.error(failed.status, failed.detail);
    events.end();
  }
  return reply;
}

/**
 * A stream that failed: dropped when the client left, answered with its status when nothing was sent
 * yet (undefined then), else what the last event is to say.
 */
function streamFailure(
  error: unknown,
  events: EventStream,
  reply: FastifyReply,
  options: ChatOptions,
  abort: AbortController,
  shutDown: () => boolean,
): { status: number; detail: string } | undefined {
  if (abort.signal.aborted && !shutDown()) {
    events.destroy();
    return undefined;
  }
  if (!events.started) {
    sendRawError(
      reply.raw,
      reply,
      shutDown() ? new Problem(503, 'The service is shutting down.') : error,
      options.logError,
      options.dialect,
    );
    return undefined;
  }
  if (shutDown()) return { status: 503, detail: 'The service shut down before the reply was complete.' };
  if (error instanceof Problem || error instanceof StorageError) return { status: 502, detail: String(error.message) };
  return { status: 502, detail: 'The model stopped answering.' };
}
