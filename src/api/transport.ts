// The HTTP layer of the client: undici with keep-alive, timeouts, retries with jittered backoff,
// Retry-After on 429, typed errors by status, zod validation of every response.
import { ConditionalCache } from './conditionalCache';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  ApiError,
  BadResponseError,
  CancelledError,
  ForbiddenError,
  HttpError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors';
import { ErrorBody, OpenAiErrorBody, collectLeftOut, issueField, type LeftOut, type ValidationIssue } from './schemas';
import { fromWire, mentionsHostedNames } from './wire';
import { networkWords } from '../shared/networkWords';
import { proxyOf, proxyVariables } from '../shared/proxy';

export interface RequestLogEntry {
  method: string;
  /** Path without host or query string; never carries the token. */
  path: string;
  status: number | undefined;
  ms: number;
  attempt: number;
  error?: string;
}

export interface TransportOptions {
  baseUrl: string;
  /** Supplies the bearer token for each request; the client never keeps it. */
  token: () => Promise<string | undefined> | string | undefined;
  connectTimeoutMs?: number;
  /** Total time for one attempt of a non-streaming request, headers and body. */
  timeoutMs?: number;
  /** Longest silence tolerated inside a streamed reply. */
  streamIdleTimeoutMs?: number;
  /** Retries of idempotent requests on network errors and 502/503/504. */
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A 429 whose Retry-After is at most this long is waited out and retried. */
  maxRateLimitWaitMs?: number;
  /** Send If-None-Match with GETs answered before with an ETag, and reuse the answer on a 304 (default on). */
  conditionalRequests?: boolean;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Records of a list answer that could not be read and were left out of it. */
  onLeftOut?: (endpoint: string, leftOut: LeftOut[]) => void;
  dispatcher?: Dispatcher;
  /**
   * VS Code's proxy setting (`http.proxy`, `http.noProxy`), over the environment's HTTPS_PROXY and
   * HTTP_PROXY: a remote service is reached through it (src/shared/proxy.ts; this computer directly).
   */
  proxy?: { url: string; noProxy: string[] };
}

export interface Call<T extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  schema: T;
  /** Safe to send again after a network error or a 502/503/504 (GETs and read-only POSTs). */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface OpenStream {
  method: 'POST';
  path: string;
  body: unknown;
  signal?: AbortSignal;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);
const RATE_LIMIT_RETRIES = 3;

export class Transport {
  private readonly options: Required<Omit<TransportOptions, 'onRequest' | 'onLeftOut' | 'dispatcher' | 'proxy'>> &
    Pick<TransportOptions, 'onRequest' | 'onLeftOut'>;
  private readonly dispatcher: Dispatcher;
  private readonly cache = new ConditionalCache();
  private readonly ownsDispatcher: boolean;

  constructor(options: TransportOptions) {
    this.options = {
      connectTimeoutMs: 5_000,
      timeoutMs: 30_000,
      streamIdleTimeoutMs: 120_000,
      retries: 3,
      backoffBaseMs: 200,
      backoffMaxMs: 5_000,
      conditionalRequests: true,
      maxRateLimitWaitMs: 10_000,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.ownsDispatcher = !options.dispatcher;
    const agent = {
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      connect: { timeout: this.options.connectTimeoutMs },
    };
    const proxy = proxyOf({ ...process.env, ...proxyVariables(options.proxy ?? { url: '', noProxy: [] }) });
    this.dispatcher = options.dispatcher ?? (proxy ? new EnvHttpProxyAgent({ ...agent, ...proxy }) : new Agent(agent));
  }

  /** True once an answer used the hosted service's wire names (conventions.md). */
  sawHostedNames = false;

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Parses an answer as `parseBody` does, noting the wire names it used and the records it left out. */
  parse<T extends z.ZodType>(schema: T, text: string, endpoint: string, status: number): z.infer<T> {
    return parseBody(schema, text, endpoint, status, (hosted, leftOut) => {
      if (hosted) this.sawHostedNames = true;
      if (leftOut.length > 0) this.options.onLeftOut?.(endpoint, leftOut);
    });
  }

  /** Set once closed: a request that fails then is not tried again here (the caller may, on a new one). */
  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  async send<T extends z.ZodType>(call: Call<T>): Promise<z.infer<T>> {
    const endpoint = `${call.method} ${call.path}`;
    let networkAttempts = 0;
    let rateLimitAttempts = 0;
    const cacheKey =
      call.method === 'GET' && this.options.conditionalRequests
        ? this.cache.key(await this.currentToken(), this.url(call.path, call.query))
        : undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        const known = cacheKey ? this.cache.etag(cacheKey) : undefined;
        const { status, headers, text } = await this.attempt(call, attempt, known);
        if (status === 304 && known) return this.cache.reuse(cacheKey!) as z.infer<T>;
        if (status >= 200 && status < 300) {
          const value = this.parse(call.schema, text, endpoint, status);
          if (cacheKey) this.cache.store(cacheKey, typeof headers.etag === 'string' ? headers.etag : undefined, value);
          return value;
        }
        const error = statusError(status, headers, text, endpoint, await this.currentToken());
        if (
          error instanceof RateLimitError &&
          rateLimitAttempts < RATE_LIMIT_RETRIES &&
          error.retryAfterSeconds * 1000 <= this.options.maxRateLimitWaitMs
        ) {
          rateLimitAttempts++;
          await sleep(error.retryAfterSeconds * 1000, call.signal, endpoint);
          continue;
        }
        if (call.idempotent && RETRYABLE_STATUS.has(status) && networkAttempts < this.options.retries) {
          await sleep(this.backoff(networkAttempts++), call.signal, endpoint);
          continue;
        }
        throw error;
      } catch (error) {
        const typed = error instanceof ApiError ? error : transportError(error, endpoint, call.signal);
        const transient =
          typed instanceof NetworkError || (typed instanceof TimeoutError && !(error instanceof ApiError));
        if (call.idempotent && transient && !this.closed && networkAttempts < this.options.retries) {
          await sleep(this.backoff(networkAttempts++), call.signal, endpoint);
          continue;
        }
        throw typed;
      }
    }
  }

  /** Opens a server-sent-event response; non-2xx answers become the same typed errors as `send`. */
  async openStream(call: OpenStream): Promise<Dispatcher.ResponseData['body']> {
    const endpoint = `${call.method} ${call.path}`;
    const started = Date.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url(call.path), {
        method: call.method,
        dispatcher: this.dispatcher,
        headers: await this.headers(true, 'text/event-stream'),
        body: JSON.stringify(call.body),
        signal: call.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.streamIdleTimeoutMs,
      });
    } catch (error) {
      this.log(call.method, call.path, undefined, started, 1, error);
      throw transportError(error, endpoint, call.signal);
    }
    this.log(call.method, call.path, response.statusCode, started, 1);
    if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
    const text = await response.body.text().catch(() => '');
    throw statusError(response.statusCode, response.headers, text, endpoint, await this.currentToken());
  }

  private async attempt(call: Call<z.ZodType>, attempt: number, ifNoneMatch?: string) {
    const started = Date.now();
    const timer = new AbortController();
    const timeout = setTimeout(
      () =>
        timer.abort(new TimeoutError(`No answer within ${this.options.timeoutMs} ms.`, `${call.method} ${call.path}`)),
      this.options.timeoutMs,
    );
    const signal = call.signal ? AbortSignal.any([call.signal, timer.signal]) : timer.signal;
    try {
      const hasBody = call.body !== undefined;
      const response = await request(this.url(call.path, call.query), {
        method: call.method,
        dispatcher: this.dispatcher,
        headers: {
          ...(await this.headers(hasBody, 'application/json')),
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
        },
        body: hasBody ? JSON.stringify(call.body) : undefined,
        signal,
      });
      const text = await response.body.text();
      this.log(call.method, call.path, response.statusCode, started, attempt);
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      this.log(call.method, call.path, undefined, started, attempt, error);
      if (timer.signal.aborted && !call.signal?.aborted) throw timer.signal.reason;
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  }

  private async currentToken(): Promise<string | undefined> {
    return (await this.options.token()) ?? undefined;
  }

  private async headers(hasBody: boolean, accept: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept };
    const token = await this.currentToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }

  private url(path: string, query?: Call<z.ZodType>['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return `${this.options.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** attempt);
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private log(
    method: string,
    path: string,
    status: number | undefined,
    started: number,
    attempt: number,
    error?: unknown,
  ) {
    this.options.onRequest?.({
      method,
      path,
      status,
      ms: Date.now() - started,
      attempt,
      ...(error !== undefined ? { error: error instanceof Error ? error.name : 'Error' } : {}),
    });
  }
}

/**
 * Reads an answer: JSON, the hosted service's names mapped to the interface's (wire.ts), then the
 * schema. Lists in it keep what can be read; `report` hears whether hosted names were used and which
 * records were left out.
 */
export function parseBody<T extends z.ZodType>(
  schema: T,
  text: string,
  endpoint: string,
  status: number,
  report?: (hosted: boolean, leftOut: LeftOut[]) => void,
): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadResponseError(`The service answered ${endpoint} with a body that is not JSON.`, endpoint, status, '');
  }
  const hosted = mentionsHostedNames(text) && fromWire(json);
  const { value: parsed, leftOut } = collectLeftOut(() => schema.safeParse(json));
  report?.(hosted, leftOut);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issueField(issue);
  throw new BadResponseError(
    `The service's answer to ${endpoint} does not match the interface: field "${field || '(root)'}" ${issue?.message ?? 'is invalid'}.`,
    endpoint,
    status,
    field,
  );
}

function statusError(
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  text: string,
  endpoint: string,
  token: string | undefined,
): ApiError {
  let detail: string | ValidationIssue[] | undefined;
  try {
    const json: unknown = JSON.parse(text);
    const parsed = ErrorBody.safeParse(json);
    // OpenAI's shape, which its routes answer in (conventions.md): the words, and the field refused.
    const openAi = OpenAiErrorBody.safeParse(json);
    if (parsed.success) detail = parsed.data.detail;
    else if (openAi.success)
      detail = openAi.data.error.param
        ? [
            {
              loc: ['body', ...openAi.data.error.param.split('.')],
              msg: openAi.data.error.message,
              type: openAi.data.error.code ?? 'invalid',
            },
          ]
        : openAi.data.error.message;
  } catch {
    // Not JSON: a proxy's HTML page, for instance. The status alone decides the error.
  }
  const scrub = (message: string) => (token ? message.split(token).join('***') : message);
  const message = scrub(
    typeof detail === 'string'
      ? detail
      : Array.isArray(detail)
        ? detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ')
        : `HTTP ${status}`,
  );
  switch (true) {
    case status === 401:
      return new UnauthorizedError(message, endpoint, status);
    case status === 403:
      return new ForbiddenError(message, endpoint, status);
    case status === 404:
      return new NotFoundError(message, endpoint, status);
    case status === 405:
      return new MethodNotAllowedError(message, endpoint, status);
    case status === 422 || (status === 400 && Array.isArray(detail)):
      return new ValidationError(
        message,
        endpoint,
        status,
        Array.isArray(detail) ? detail.map((d) => ({ ...d, msg: scrub(d.msg) })) : [],
      );
    case status === 429:
      return new RateLimitError(message, endpoint, retryAfterSeconds(headers['retry-after']));
    case status >= 500:
      return new ServerError(message, endpoint, status);
    default:
      return new HttpError(message, endpoint, status);
  }
}

function retryAfterSeconds(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 60;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - Date.now()) / 1000)) : 60;
}

export function transportError(error: unknown, endpoint: string, signal: AbortSignal | undefined): ApiError {
  if (error instanceof ApiError) return error;
  if (signal?.aborted) return new CancelledError('The request was cancelled.', endpoint);
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError('The service took too long to answer.', endpoint, undefined, { cause: error });
  }
  const reason = networkWords(error) ?? `an unexpected network error (${code || (error as Error)?.name || 'unknown'})`;
  return new NetworkError(reason, endpoint, { cause: error });
}

function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError('The request was cancelled.', endpoint));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError('The request was cancelled.', endpoint));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
