// Errors as the service answers them: a Problem with its status, a refused write as 503, the
// framework's own refusals with theirs, anything else as 500 (reported, never shown to the client).
// In the conventions' shape `{"detail"}`, or, on the routes for OpenAI's clients, in OpenAI's
// `{"error": {"message", "type", "code", "param"}}` with the same status.
import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Problem } from '../problem';
import { StorageError } from '../storageError';
import { anthropicError } from './anthropicAnswer';
import { headersOf } from './eventStream';

export const BODY_LIMIT = 1024 * 1024;
/**
 * A chat's request carries the whole conversation, images included, every turn (an agent's runs to
 * hundreds of thousands of tokens): as much as Anthropic's Messages API takes.
 */
export const CHAT_BODY_LIMIT = 32 * 1024 * 1024;

/** A body over its route's limit, in words. */
export const tooLarge = (limit: number) =>
  new Problem(413, `The request body is larger than this endpoint takes (${limit / 2 ** 20} MiB).`);

interface Failure {
  status: number;
  headers: Record<string, string>;
  body: { detail: unknown };
  details?: Record<string, unknown>;
}

function describe(error: unknown, logError?: (error: unknown) => void): Failure {
  if (error instanceof Problem)
    return { status: error.status, headers: error.headers, body: { detail: error.detail }, details: error.details };
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

/** The shape errors take on a route: the conventions', or OpenAI's for its clients. */
export type ErrorDialect = 'conventions' | 'openai' | 'responses' | 'anthropic';

export function sendError(
  reply: FastifyReply,
  error: unknown,
  logError?: (error: unknown) => void,
  dialect: ErrorDialect = 'conventions',
) {
  const failure = describe(error, logError);
  return reply.code(failure.status).headers(failure.headers).send(bodyIn(dialect, failure));
}

function bodyIn(dialect: ErrorDialect, failure: Failure): unknown {
  const detail = inVendorFields(dialect, failure.body.detail);
  if (dialect === 'openai' || dialect === 'responses') return openAiError(failure.status, detail);
  if (dialect === 'anthropic')
    return anthropicError(failure.status, openAiError(failure.status, detail).error.message, failure.details);
  return failure.body;
}

/**
 * The engine names a refused field as Chat Completions does (chat/prepare.ts); the other vendors'
 * requests hold it elsewhere, and their clients are told where.
 */
const VENDOR_FIELDS: Partial<Record<ErrorDialect, Record<string, string[]>>> = {
  anthropic: { response_format: ['output_config', 'format'] },
  responses: { response_format: ['text', 'format'] },
};

function inVendorFields(dialect: ErrorDialect, detail: unknown): unknown {
  const fields = VENDOR_FIELDS[dialect];
  if (!fields || !Array.isArray(detail)) return detail;
  return (detail as Array<{ loc?: Array<string | number> }>).map((issue) => {
    const [where, field, ...rest] = issue.loc ?? [];
    const named = where === 'body' && typeof field === 'string' ? fields[field] : undefined;
    return named ? { ...issue, loc: [where, ...named, ...rest] } : issue;
  });
}

const OPENAI_TYPES: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

/**
 * An error as OpenAI's clients read it: the words in `message`, the kind in `type`, and for a refused
 * field its path in `param` (`messages.0.content`) and the check in `code`.
 */
export function openAiError(
  status: number,
  detail: unknown,
): { error: { message: string; type: string; code: string | null; param: string | null } } {
  const type = OPENAI_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  if (Array.isArray(detail) && detail.length > 0) {
    const issues = detail as Array<{ loc?: Array<string | number>; msg?: string; type?: string }>;
    const path = (loc: Array<string | number> = []) => loc.filter((part, i) => !(i === 0 && part === 'body')).join('.');
    return {
      error: {
        message: issues.map((i) => `${path(i.loc) || 'the request'}: ${i.msg ?? 'is not valid'}`).join('; '),
        type,
        code: issues[0]!.type ?? null,
        param: path(issues[0]!.loc) || null,
      },
    };
  }
  return {
    error: { message: typeof detail === 'string' ? detail : 'The request failed.', type, code: null, param: null },
  };
}

export function sendRawError(
  raw: ServerResponse,
  reply: FastifyReply,
  error: unknown,
  logError?: (error: unknown) => void,
  dialect: ErrorDialect = 'conventions',
) {
  const failure = describe(error, logError);
  raw.writeHead(failure.status, {
    ...headersOf(reply),
    ...failure.headers,
    'content-type': 'application/json; charset=utf-8',
  });
  raw.end(JSON.stringify(bodyIn(dialect, failure)));
}
