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
import { sendRawError } from './errorAnswers';
import { EventStream } from './eventStream';
import { ShutdownError } from './lifecycle';

export type ChatReader = (caller: Caller, body: unknown) => Body;

export interface ChatOptions {
  db: Database;
  reaches: Reaches;
  logError?: (error: unknown) => void;
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
  if (!wantsStream) {
    try {
      return await runChat(options.db, prepared, options.reaches, undefined, abort.signal);
    } catch (error) {
      throw shutDown() ? new Problem(503, 'The service is shutting down.') : error;
    }
  }

  reply.hijack();
  const events = new EventStream(reply);
  const chunk = (content: string) => ({
    id: prepared.requestId,
    object: 'chat.completion.chunk',
    model: prepared.first.record.namespace,
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
  try {
    const completion = await runChat(
      options.db,
      prepared,
      options.reaches,
      (text) => events.send(chunk(text)),
      abort.signal,
    );
    const calls = completion.choices[0]?.message.tool_calls;
    if (calls?.length)
      events.send({
        ...chunk(''),
        choices: [
          { index: 0, delta: { tool_calls: calls.map((call, index) => ({ index, ...call })) }, finish_reason: null },
        ],
      });
    events.send({
      ...chunk(''),
      model: completion.model,
      choices: [{ index: 0, delta: {}, finish_reason: completion.choices[0]?.finish_reason ?? 'stop' }],
      usage: completion.usage,
      metadata: completion.metadata,
    });
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
      );
    const detail = shutDown()
      ? 'The service shut down before the reply was complete.'
      : error instanceof Problem
        ? String(error.message)
        : error instanceof StorageError
          ? error.message
          : 'The model stopped answering.';
    events.send({ error: { detail } });
    events.end();
  }
  return reply;
}
