// The Fastify application: JSON parsing, bearer auth, the per-organization rate limit, errors in the
// shapes of conventions.md, and the routes of routes.ts.
import '../../shared/zodWords';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { rateLimitOf } from '../domain/orgs';
import { providerKeys } from '../providers/keys';
import { Reaches, type EngineOptions } from '../chat/reach/reaches';
import { Problem, parseInput } from '../problem';
import { openApiDocument } from './openapi';
import { answerClientError, answerFrameworkError } from './clientErrors';
import { decodedBody } from './bodyEncoding';
import { answerChat } from './chatRoute';
import { BODY_LIMIT, CHAT_BODY_LIMIT, sendError, tooLarge, type ErrorDialect } from './errorAnswers';
import { closing, openChats } from './lifecycle';
import { McpEndpoint } from './mcpRoute';
import { RateLimiter } from './rateLimiter';
import { TokenCache } from './tokenCache';
import { ROUTES, type RouteSpec } from './routes';

/** Path parameters as long as the schemas allow (a conversation id may have 200 characters, percent-encoded). */
const MAX_PARAM_LENGTH = 1000;
/** Authenticated tokens kept in memory; unknown tokens are never kept. */
const TOKEN_CACHE_SIZE = 1000;
export const VERSION = '0.1.0';
/**
 * How often a stream says its conversation is still being summed up: as OpenAI's compaction progress
 * event, at most once every 30 seconds, within the minute a proxy between may wait on a silent stream.
 */
const COMPACTING_EVERY_MS = 30_000;
/** What the kept answers of the cacheable reads may hold, in characters (the heap is capped at 256 MB). */
const READ_CACHE_BYTES = 32 * 1024 * 1024;

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
  const reaches = new Reaches(db, options.engine);
  openChats.set(app, chats);
  // The hooks every request passes are plain callbacks: an async one costs each request a promise.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing.has(app)) return done();
    reply.code(503).header('connection', 'close').send({ detail: 'The service is shutting down.' });
  });

  // A body over its route's limit (by its length), or in an encoding the service cannot read, is read to
  // its end before the refusal, up to twice the limit: answered while the client still sends, the
  // connection is closed under it, and the client (an SDK, Claude Code) shows a connection error
  // instead of the reason. A compressed body is read decoded (bodyEncoding.ts).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT;
    const length = Number(request.headers['content-length']);
    const body = length > limit ? tooLarge(limit) : decodedBody(request.headers, payload);
    if (!(body instanceof Problem)) return done(null, body);
    if (!(length <= 2 * limit)) return done(body);
    // A client that gives up while sending is told the same, on a connection that is gone.
    const refuse = () => {
      payload.off('error', refuse).off('end', refuse);
      done(body);
    };
    payload
      .on('data', () => undefined)
      .once('end', refuse)
      .once('error', refuse);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch (error) {
      done(
        new Problem(422, [
          { loc: ['body'], msg: `JSON decode error: ${(error as Error).message}`, type: 'json_invalid' },
        ]),
        undefined,
      );
    }
  });

  app.setErrorHandler((error, request, reply) =>
    sendError(
      reply,
      (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? tooLarge(request.routeOptions.bodyLimit ?? BODY_LIMIT)
        : error,
      options.logError,
      dialectOf(request),
    ),
  );
  const patterns = ROUTES.map((r) => ({
    method: r.method,
    regex: new RegExp(`^${(r.slashes ? r.url.replace(/:[a-z_]+$/, '.+') : r.url).replace(/:[a-z_]+/g, '[^/]+')}$`),
    dialect: r.dialect,
    anthropicWhenAsked: r.anthropicWhenAsked,
  }));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const matching = patterns.filter((p) => p.regex.test(path));
    const allowed = [...new Set(matching.map((p) => p.method))];
    const dialect = matching[0] ? dialectFor(matching[0], request) : unknownPathDialect(request, path);
    if (dialect) {
      // Another vendor's client (an SDK, Continue, Claude Code) shows what it is told in its own shape.
      const what = `${request.method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`;
      return sendError(
        reply,
        allowed.length > 0
          ? new Problem(405, `${what} is not served: use ${allowed.join(' or ')}.`, { allow: allowed.join(', ') })
          : new Problem(404, `This LLM Spaces service does not serve ${what}. ${VENDOR_ROUTES}`),
        undefined,
        dialect,
      );
    }
    if (allowed.length > 0)
      return reply.code(405).header('allow', allowed.join(', ')).send({ detail: 'Method Not Allowed' });
    return reply.code(404).send({ detail: 'Not Found' });
  });

  /** Who calls (a bearer token, or Anthropic's x-api-key, which its clients send), within the rate limit. */
  const authorize = (request: FastifyRequest, reply: FastifyReply): Problem | undefined => {
    const apiKey = request.headers['x-api-key'];
    const header = request.headers.authorization ?? (typeof apiKey === 'string' ? `Bearer ${apiKey}` : '');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const caller = match ? who(match[1]!) : undefined;
    if (!caller)
      return new Problem(401, match ? 'Invalid token' : 'Not authenticated', { 'www-authenticate': 'Bearer' });
    request.caller = caller;
    const verdict = limiter.take(caller.orgId);
    reply.headers(verdict.headers);
    if (!verdict.allowed)
      return new Problem(429, `Rate limit of ${verdict.limit} requests per minute exceeded`, {
        ...verdict.headers,
        'retry-after': String(verdict.retryAfter),
      });
    return undefined;
  };
  /** The preHandler of a route: the caller, then whether a Space key may use it. */
  const guard = (spec?: RouteSpec) => (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) =>
    done(authorize(request, reply) ?? (spec && spaceKeyRefusal(spec, request.caller!)));

  for (const spec of ROUTES) {
    app.route({
      method: spec.method,
      // Fastify's wildcard takes the rest of the path, slashes and all (handle() names it).
      url: spec.slashes ? spec.url.replace(/:[a-z_]+$/, '*') : spec.url,
      preHandler: guard(spec),
      bodyLimit: spec.chat || spec.largeBody ? CHAT_BODY_LIMIT : BODY_LIMIT,
      config: {
        dialect: spec.dialect ?? 'conventions',
        anthropicWhenAsked: spec.anthropicWhenAsked,
      } satisfies RouteConfig,
      handler: spec.chat
        ? (request, reply) =>
            answerChat(
              spec.chat!,
              request,
              reply,
              {
                db,
                reaches,
                logError: options.logError,
                dialect: spec.dialect ?? 'conventions',
                compactingEveryMs: options.engine.compactingEveryMs ?? COMPACTING_EVERY_MS,
              },
              chats,
            )
        : spec.cacheable
          ? (request, reply) => reads.answer(request, reply, () => handle(spec, request, reply, options))
          : (request, reply) => handle(spec, request, reply, options),
    });
  }

  // MCP over Streamable HTTP: POST carries the messages; GET and DELETE (2025 sessions) are answered
  // by the SDK (this server keeps no sessions).
  const mcp = new McpEndpoint(options.logError);
  app.addHook('onClose', () => mcp.close());
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    preHandler: guard(),
    handler: (request, reply) => mcp.answer(request, reply),
  });

  app.get('/healthz', async () => ({ status: 'ok', version: VERSION }));
  const document = openApiDocument(ROUTES, VERSION);
  app.get('/openapi.json', async () => document);
  return app;
}

/** Refuses a Space key on an endpoint that is the organization's alone (the README lists them). */
function spaceKeyRefusal(spec: RouteSpec, caller: Caller): Problem | undefined {
  if (caller.appId && spec.spaceKey === 'refused')
    return new Problem(403, `A Space key cannot do this (${spec.summary.toLowerCase()}): use an organization token.`);
  return undefined;
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
  /** The characters the kept answers hold. */
  private bytes = 0;
  /** Versions restart with the process; the boot id keeps an ETag from meaning two answers. */
  private readonly boot = randomBytes(6).toString('base64url');

  constructor(private readonly db: Database) {}

  async answer(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<unknown>): Promise<unknown> {
    const caller = request.caller!;
    const scope = `${caller.orgId} ${caller.appId ?? ''}`;
    const key = `${scope} ${request.url}`;
    // The scope is part of the tag: one organization (or key) can never revalidate another's answer.
    // Which models answer here changes with the provider keys, too.
    const etag = `"${this.boot}.${this.db.version}.${providerKeys.version}.${new Date().toISOString().slice(0, 10)}.${createHash('sha256').update(scope).digest('base64url').slice(0, 12)}"`;
    let hit = this.entries.get(key);
    if (!hit || hit.etag !== etag) {
      const body = JSON.stringify(await compute());
      // Bounded by count and by size: a catalogue of thousands of models is a megabyte an answer.
      if (this.entries.size >= 1000 || this.bytes + body.length > READ_CACHE_BYTES) {
        this.entries.clear();
        this.bytes = 0;
      }
      this.bytes += body.length - (this.entries.get(key)?.body.length ?? 0);
      this.entries.set(key, (hit = { etag, body }));
    }
    reply.header('etag', hit.etag).header('cache-control', 'no-cache');
    // The client already has this answer: tell it so without sending it again.
    if (request.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    return hit.body;
  }
}

async function handle(
  spec: RouteSpec,
  request: FastifyRequest,
  reply: FastifyReply,
  options: AppOptions,
): Promise<unknown> {
  const ctx = {
    db: options.db,
    caller: request.caller!,
    engine: options.engine,
    anthropic: dialectOf(request) === 'anthropic',
    logged: (requestId: string) => void reply.header('x-request-id', requestId),
    reply,
    params: spec.params ? parseInput(spec.params, pathParams(spec, request), 'path') : {},
    query: spec.query ? parseInput(spec.query, request.query, 'query') : {},
    body: spec.body
      ? parseInput(spec.body, request.body === undefined && spec.bodyOptional ? {} : request.body, 'body')
      : undefined,
  };
  if (!spec.writes) return spec.handler!(ctx);
  const result = await options.db.transaction(() => spec.handler!(ctx));
  reply.header('cache-control', 'no-store');
  return result;
}

/** What other vendors' clients can use here, for one that asked for something else (images, say). */
const VENDOR_ROUTES =
  "Through a Space it answers OpenAI's POST /v1/chat/completions, POST /v1/responses, POST /v1/responses/input_tokens, POST /v1/completions, POST /v1/embeddings and GET /v1/models, Mistral's POST /v1/fim/completions, Anthropic's POST /v1/messages and POST /v1/messages/count_tokens, and MCP at /mcp.";

/** The interface's own paths (service-interface.md, conventions.md), which answer in its shape. */
const OWN_PATHS = /^\/v1\/(apps|prompts|orgs|internal|playground|providers)(\/|$)/;

/**
 * The shape an unknown path is answered in: Anthropic's for its clients (they send anthropic-version),
 * OpenAI's for any other /v1 path not of the interface (/v1/images, /v1/audio…), else none.
 */
function unknownPathDialect(request: FastifyRequest, path: string): ErrorDialect | undefined {
  if (request.headers['anthropic-version'] !== undefined) return 'anthropic';
  return path.startsWith('/v1/') && !OWN_PATHS.test(path) ? 'openai' : undefined;
}

interface RouteConfig {
  dialect: ErrorDialect;
  anthropicWhenAsked?: true;
}

/** The shapes a route answers in (its errors too): its own, or Anthropic's where its clients may ask. */
function dialectFor(route: Partial<RouteConfig>, request: FastifyRequest): ErrorDialect | undefined {
  if (route.anthropicWhenAsked && request.headers['anthropic-version'] !== undefined) return 'anthropic';
  return route.dialect;
}

const dialectOf = (request: FastifyRequest) => dialectFor(request.routeOptions.config as Partial<RouteConfig>, request);

/** The path's parameters by the names the route gives them (a wildcard's by its last one's). */
function pathParams(spec: RouteSpec, request: FastifyRequest): unknown {
  if (!spec.slashes) return request.params;
  const { '*': rest, ...named } = request.params as Record<string, string>;
  return { ...named, [/:([a-z_]+)$/.exec(spec.url)![1]!]: rest };
}
