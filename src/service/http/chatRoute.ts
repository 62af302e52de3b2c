// The chat routes (the route table's entries with `chat`): the body read into the engine's request,
// prepared (a 4xx before anything runs), then run, answered as JSON or as server-sent events when the
// body says `stream: true` or the client accepts only events.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../domain/caller';
import type { Database } from '../db';
import { prepareChat } from '../chat/prepare';
import type { Reaches } from '../chat/reach/reaches';
import type { Body } from '../chat/request';
import { runChat } from '../chat/run';
import { Problem } from '../problem';
import { StorageError } from '../storageError';
import { openAiError, sendRawError } from './errorAnswers';
import { EventStream } from './eventStream';
import { ShutdownError } from './lifecycle';

export type ChatReader = (caller: Caller, body: unknown) => Body;

export interface ChatOptions {
  db: Database;
  reaches: Reaches;
  logError?: (error: unknown) => void;
  /** OpenAI's shapes: `created` in seconds, errors as `{"error": {"message", …}}` (conventions.md). */
  openai?: boolean;
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
    return await answer(read, request, reply, options, abort);
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
): Promise<unknown> {
  const body = read(request.caller!, request.body);
  const prepared = prepareChat(options.db, request.caller!, body);
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const shutDown = () => abort.signal.reason instanceof ShutdownError;
  const wantsStream = body.stream ?? /^text\/event-stream/i.test(request.headers.accept ?? '');
  // OpenAI's clients read `created` in seconds; the playground's in milliseconds (conventions.md).
  const created = (ms: number) => (options.openai ? Math.floor(ms / 1000) : ms);
  if (!wantsStream) {
    try {
      const completion = await runChat(options.db, prepared, options.reaches, undefined, abort.signal);
      return { ...completion, created: created(completion.created) };
    } catch (error) {
      throw shutDown() ? new Problem(503, 'The service is shutting down.') : error;
    }
  }

  reply.hijack();
  const events = new EventStream(reply);
  const started = created(Date.now());
  let first = true;
  /** A chunk; the first of the reply says whose it is (`role`), as OpenAI's stream does. */
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
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
    );
    const calls = completion.choices[0]?.message.tool_calls;
    if (calls?.length) events.send(chunk({ tool_calls: calls.map((call, index) => ({ index, ...call })) }));
    const last = chunk({}, completion.choices[0]?.finish_reason ?? 'stop');
    events.send({ ...last, model: completion.model, usage: completion.usage, metadata: completion.metadata });
    // What OpenAI's stream_options.include_usage asks for: a last chunk with the usage and no choice.
    if (body.includeUsage) events.send({ ...last, model: completion.model, choices: [], usage: completion.usage });
    events.send('[DONE]');
    events.end();
  } catch (error) {
    if (abort.signal.aborted && !shutDown()) return events.destroy();
    if (!events.started)
      return sendRawError(
        reply.raw,
        reply,
        shutDown() ? new Problem(503, 'The service is shutting down.') : error,
        options.logError,
        options.openai ? 'openai' : 'conventions',
      );
    const detail = shutDown()
      ? 'The service shut down before the reply was complete.'
      : error instanceof Problem
        ? String(error.message)
        : error instanceof StorageError
          ? error.message
          : 'The model stopped answering.';
    events.send(options.openai ? openAiError(502, detail) : { error: { detail } });
    events.end();
  }
  return reply;
}
