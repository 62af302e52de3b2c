// Errors as the service answers them: a Problem with its status, a refused write as 503, the
// framework's own refusals with theirs, anything else as 500 (reported, never shown to the client).
import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Problem } from '../problem';
import { StorageError } from '../storageError';
import { headersOf } from './eventStream';

export const BODY_LIMIT = 1024 * 1024;

interface Failure {
  status: number;
  headers: Record<string, string>;
  body: { detail: unknown };
}

function describe(error: unknown, logError?: (error: unknown) => void): Failure {
  if (error instanceof Problem) return { status: error.status, headers: error.headers, body: { detail: error.detail } };
  // The disk refused the write: nothing of it was kept, and the client may try again later.
  if (error instanceof StorageError) {
    logError?.(error.cause ?? error);
    return { status: 503, headers: { 'retry-after': '10' }, body: { detail: error.message } };
  }
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, headers: {}, body: { detail: `Request body is larger than ${BODY_LIMIT} bytes` } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, headers: {}, body: { detail: 'Request body must be application/json' } };
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: fastifyError.statusCode, headers: {}, body: { detail: fastifyError.message ?? 'Bad request' } };
  }
  logError?.(error);
  return { status: 500, headers: {}, body: { detail: 'Internal server error' } };
}

export function sendError(reply: FastifyReply, error: unknown, logError?: (error: unknown) => void) {
  const failure = describe(error, logError);
  return reply.code(failure.status).headers(failure.headers).send(failure.body);
}

export function sendRawError(
  raw: ServerResponse,
  reply: FastifyReply,
  error: unknown,
  logError?: (error: unknown) => void,
) {
  const failure = describe(error, logError);
  raw.writeHead(failure.status, {
    ...headersOf(reply),
    ...failure.headers,
    'content-type': 'application/json; charset=utf-8',
  });
  raw.end(JSON.stringify(failure.body));
}
