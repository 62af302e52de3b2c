// The Fastify application: JSON parsing, bearer auth, the per-organization rate limit, errors in the
// shapes of conventions.md, and the routes of routes.ts.
import '../../shared/zodWords';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ChatBody, ChatCompletionsBody } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { rateLimitOf } from '../domain/orgs';
import { completionRequest } from '../playground/completions';
import { prepareChat, runChat, type EngineOptions } from '../playground/engine';
import { Problem, parseInput } from '../problem';
import { StorageError } from '../storageError';
import { openApiDocument } from './openapi';
import { answerClientError, answerFrameworkError } from './clientErrors';
import { ShutdownError, closing, openChats } from './lifecycle';
import { RateLimiter } from './rateLimiter';
import { TokenCache } from './tokenCache';
import { ROUTES, type RouteSpec } from './routes';

export const BODY_LIMIT = 1024 * 1024;
/** Path parameters as long as the schemas allow (a conversation id may have 200 characters, percent-encoded). */
const MAX_PARAM_LENGTH = 1000;
/** Authenticated tokens kept in memory; unknown tokens are never kept. */
const TOKEN_CACHE_SIZE = 1000;
export const VERSION = '0.1.0';

export interface AppOptions {
  db: Database;
  engine: EngineOptions;
  /** Where unexpected errors are reported (never to the client). */
  logError?: (error: unknown) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function buildApp(options: AppOptions): FastifyInstance {
  const { db } = options;
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: false,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the framework raises before a route runs (bad percent-encoding) answer in the same shape.
    frameworkErrors: (error, _request, reply) => answerFrameworkError(error, reply as FastifyReply),
    clientErrorHandler: answerClientError,
  });
  const limiter = new RateLimiter(untilWrite(db, (orgId) => rateLimitOf(db, orgId)));
  const tokens = new TokenCache(db, TOKEN_CACHE_SIZE);
  const who = (token: string) => tokens.caller(token);
  const reads = new ReadCache(db);
  const chats = new Set<AbortController>();
  openChats.set(app, chats);
  app.addHook('onRequest', async (_request, reply) => {
    if (closing.has(app)) await reply.code(503).header('connection', 'close').send({ detail: 'The service is shutting down.' });
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch (error) {
      done(new Problem(422, [{ loc: ['body'], msg: `JSON decode error: ${(error as Error).message}`, type: 'json_invalid' }]), undefined);
    }
  });

  app.setErrorHandler((error, _request, reply) => sendError(reply, error, options.logError));
  const patterns = ROUTES.map((r) => ({ method: r.method, regex: new RegExp(`^${r.url.replace(/:[a-z_]+/g, '[^/]+')}$`) }));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))];
    if (allowed.length > 0) return reply.code(405).header('allow', allowed.join(', ')).send({ detail: 'Method Not Allowed' });
    return reply.code(404).send({ detail: 'Not Found' });
  });

  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const caller = match ? who(match[1]!) : undefined;
    if (!caller) throw new Problem(401, match ? 'Invalid token' : 'Not authenticated', { 'www-authenticate': 'Bearer' });
    request.caller = caller;
    const verdict = limiter.take(caller.orgId);
    reply.headers(verdict.headers);
    if (!verdict.allowed) throw new Problem(429, `Rate limit of ${verdict.limit} requests per minute exceeded`, { ...verdict.headers, 'retry-after': String(verdict.retryAfter) });
  };

  for (const spec of ROUTES) {
    app.route({
      method: spec.method,
      url: spec.url,
      preHandler: [guard, spaceKeyScope(spec)],
      handler:
        !spec.handler ? (request, reply) => chat(spec, request, reply, options, chats)
        : spec.cacheable ? (request, reply) => reads.answer(request, reply, () => handle(spec, request, reply, options))
        : (request, reply) => handle(spec, request, reply, options),
    });
  }

  app.get('/healthz', async () => ({ status: 'ok', version: VERSION }));
  const document = openApiDocument(ROUTES, VERSION);
  app.get('/openapi.json', async () => document);
  return app;
}

/** Refuses a Space key on an endpoint that is the organization's alone (the README lists them). */
function spaceKeyScope(spec: RouteSpec) {
  return async (request: FastifyRequest) => {
    if (request.caller?.appId && spec.spaceKey === 'refused') throw new Problem(403, `A Space key cannot do this (${spec.summary.toLowerCase()}): use an organization token.`);
  };
}

/** Memoizes `fn` per argument until the next write transaction. */
function untilWrite<A, R>(db: Database, fn: (arg: A) => R): (arg: A) => R {
  let version = -1;
  const memo = new Map<A, R>();
  return (arg) => {
    if (db.version !== version) {
      memo.clear();
      version = db.version;
    }
    if (!memo.has(arg)) memo.set(arg, fn(arg));
    return memo.get(arg)!;
  };
}

/**
 * Serialized answers of the cacheable reads, per caller scope and URL, valid until the next write
 * (and the day, for answers that depend on today's date, such as deprecations). The catalogue and the
 * prompt lists are read far more often than they change.
 */
class ReadCache {
  private readonly entries = new Map<string, { etag: string; body: string }>();
  /** Versions restart with the process; the boot id keeps an ETag from meaning two answers. */
  private readonly boot = randomBytes(6).toString('base64url');

  constructor(private readonly db: Database) {}

  async answer(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<unknown>): Promise<unknown> {
    const caller = request.caller!;
    const scope = `${caller.orgId} ${caller.appId ?? ''}`;
    const key = `${scope} ${request.url}`;
    // The scope is part of the tag: one organization (or key) can never revalidate another's answer.
    const etag = `"${this.boot}.${this.db.version}.${new Date().toISOString().slice(0, 10)}.${createHash('sha256').update(scope).digest('base64url').slice(0, 12)}"`;
    let hit = this.entries.get(key);
    if (!hit || hit.etag !== etag) {
      const body = JSON.stringify(await compute());
      if (this.entries.size >= 1000) this.entries.clear();
      this.entries.set(key, (hit = { etag, body }));
    }
    reply.header('etag', hit.etag).header('cache-control', 'no-cache');
    // The client already has this answer: tell it so without sending it again.
    if (request.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    return hit.body;
  }
}

async function handle(spec: RouteSpec, request: FastifyRequest, reply: FastifyReply, options: AppOptions): Promise<unknown> {
  const ctx = {
    db: options.db,
    caller: request.caller!,
    engine: options.engine,
    params: spec.params ? parseInput(spec.params, request.params, 'path') : {},
    query: spec.query ? parseInput(spec.query, request.query, 'query') : {},
    body: spec.body ? parseInput(spec.body, request.body === undefined && spec.bodyOptional ? {} : request.body, 'body') : undefined,
  };
  if (!spec.writes) return spec.handler!(ctx);
  const result = await options.db.transaction(() => spec.handler!(ctx));
  reply.header('cache-control', 'no-store');
  return result;
}

/**
 * The playground and chat completions: JSON, or server-sent events when the body says `stream: true`
 * or the client accepts only events.
 */
async function chat(spec: RouteSpec, request: FastifyRequest, reply: FastifyReply, options: AppOptions, open: Set<AbortController>): Promise<unknown> {
  const abort = new AbortController();
  open.add(abort);
  try {
    return await answerChat(spec, request, reply, options, abort);
  } finally {
    open.delete(abort);
  }
}

async function answerChat(spec: RouteSpec, request: FastifyRequest, reply: FastifyReply, options: AppOptions, abort: AbortController): Promise<unknown> {
  const body = spec.body === ChatCompletionsBody ? completionRequest(request.caller!, parseInput(ChatCompletionsBody, request.body, 'body')) : parseInput(ChatBody, request.body, 'body');
  const prepared = prepareChat(options.db, request.caller!, body);
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const shutDown = () => abort.signal.reason instanceof ShutdownError;
  const wantsStream = body.stream ?? /^text\/event-stream/i.test(request.headers.accept ?? '');
  if (!wantsStream) {
    try {
      return await runChat(options.db, prepared, options.engine, undefined, abort.signal);
    } catch (error) {
      throw shutDown() ? new Problem(503, 'The service is shutting down.') : error;
    }
  }

  reply.hijack();
  const raw = reply.raw;
  const head = () => {
    if (raw.headersSent) return;
    raw.writeHead(200, { ...headersOf(reply), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  };
  const send = (data: unknown) => raw.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  const chunk = (content: string) => ({
    id: prepared.requestId,
    object: 'chat.completion.chunk',
    model: prepared.first.record.namespace,
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
  try {
    const completion = await runChat(options.db, prepared, options.engine, (text) => {
      head();
      send(chunk(text));
    }, abort.signal);
    head();
    const calls = completion.choices[0]?.message.tool_calls;
    if (calls?.length) send({ ...chunk(''), choices: [{ index: 0, delta: { tool_calls: calls.map((call, index) => ({ index, ...call })) }, finish_reason: null }] });
    send({ ...chunk(''), model: completion.model, choices: [{ index: 0, delta: {}, finish_reason: completion.choices[0]?.finish_reason ?? 'stop' }], usage: completion.usage, metadata: completion.metadata });
    send('[DONE]');
    raw.end();
  } catch (error) {
    if (abort.signal.aborted && !shutDown()) return raw.destroy();
    if (!raw.headersSent) return sendRawError(raw, reply, shutDown() ? new Problem(503, 'The service is shutting down.') : error, options.logError);
    const detail = shutDown() ? 'The service shut down before the reply was complete.' : error instanceof Problem ? String(error.message) : error instanceof StorageError ? error.message : 'The model stopped answering.';
    send({ error: { detail } });
    raw.end();
  }
  return reply;
}

function headersOf(reply: FastifyReply): Record<string, string> {
  return Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)]));
}

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

function sendError(reply: FastifyReply, error: unknown, logError?: (error: unknown) => void) {
  const failure = describe(error, logError);
  return reply.code(failure.status).headers(failure.headers).send(failure.body);
}

function sendRawError(raw: ServerResponse, reply: FastifyReply, error: unknown, logError?: (error: unknown) => void) {
  const failure = describe(error, logError);
  raw.writeHead(failure.status, { ...headersOf(reply), ...failure.headers, 'content-type': 'application/json; charset=utf-8' });
  raw.end(JSON.stringify(failure.body));
}
