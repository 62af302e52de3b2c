// Typed errors of the /v1 client, chosen by HTTP status or transport failure, never by message text.
// No error carries a request header, so the token can never leak through one.
import type { ValidationIssue } from './schemas';

export type ApiErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'validation'
  | 'rate-limited'
  | 'server'
  | 'http'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'bad-response'
  | 'stream';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  /** HTTP status, when the service answered. */
  readonly status: number | undefined;
  /** `METHOD /path` of the request, without query string or host. */
  readonly endpoint: string;

  constructor(message: string, endpoint: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.endpoint = endpoint;
    this.status = status;
  }
}

export class UnauthorizedError extends ApiError {
  readonly kind = 'unauthorized';
}

export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
}

export class NotFoundError extends ApiError {
  readonly kind = 'not-found';
}

/** 405: the service does not offer this endpoint (e.g. a remote service without the extra endpoints). */
export class MethodNotAllowedError extends ApiError {
  readonly kind = 'method-not-allowed';
}

export class ValidationError extends ApiError {
  readonly kind = 'validation';
  constructor(
    message: string,
    endpoint: string,
    status: number,
    /** The 422 `detail` list; `fields` names each offending field by its path below body/query/path. */
    readonly issues: ValidationIssue[],
  ) {
    super(message, endpoint, status);
  }

  /** Dotted field paths without the `body`/`query`/`path` prefix, e.g. `weights.cost`. */
  get fields(): string[] {
    return this.issues.map((i) => fieldPath(i.loc));
  }

  /**
   * What the service found wrong, in words: a whole sentence says itself what it is about ("This PDF
   * cannot be read: …"); a fragment ("must be a data URL") needs its field's name.
   */
  get inWords(): string {
    const fields = this.fields;
    const issues = this.issues.map((issue, n) =>
      /^[A-Z]/.test(issue.msg) ? issue.msg.replace(/\.$/, '') : `${fields[n] || 'body'}: ${issue.msg}`,
    );
    return issues.join('; ') || this.message;
  }
}

export class RateLimitError extends ApiError {
  readonly kind = 'rate-limited';
  constructor(
    message: string,
    endpoint: string,
    /** Seconds until a retry may succeed. */
    readonly retryAfterSeconds: number,
  ) {
    super(message, endpoint, 429);
  }
  /** The moment a retry may succeed. */
  get retryAt(): Date {
    return new Date(Date.now() + this.retryAfterSeconds * 1000);
  }
}

export class ServerError extends ApiError {
  readonly kind = 'server';
}

/** Any other unexpected status (400, 409, 413, 415, …). */
export class HttpError extends ApiError {
  readonly kind = 'http';
}

/** No answer came: the request may not have reached the service. `reason` says why, in words. */
export class NetworkError extends ApiError {
  readonly kind = 'network';
  constructor(
    readonly reason: string,
    endpoint: string,
    options?: ErrorOptions,
  ) {
    super(`The service could not be reached: ${reason}.`, endpoint, undefined, options);
  }
}

export class TimeoutError extends ApiError {
  readonly kind = 'timeout';
}

export class CancelledError extends ApiError {
  readonly kind = 'cancelled';
}

/** The service answered 2xx with a body that does not match the interface. */
export class BadResponseError extends ApiError {
  readonly kind = 'bad-response';
  constructor(
    message: string,
    endpoint: string,
    status: number,
    /** Dotted path of the first field that did not match, e.g. `[3].namespace`. */
    readonly field: string,
  ) {
    super(message, endpoint, status);
  }
}

/** A playground stream that ended with an error event or was cut before `[DONE]`. */
export class StreamError extends ApiError {
  readonly kind = 'stream';
}

export function fieldPath(loc: ReadonlyArray<string | number>): string {
  const rest = loc.length > 1 && ['body', 'query', 'path'].includes(String(loc[0])) ? loc.slice(1) : loc;
  return rest.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    '',
  );
}

/** A 404 or 405 on an endpoint without ids: the service does not have that endpoint. */
export const isMissingEndpoint = (error: unknown) =>
  error instanceof ApiError && (error.kind === 'method-not-allowed' || error.kind === 'not-found');

/** The result of a call to an extra endpoint, or `fallback` where the service does not offer it. */
export async function unlessMissing<T>(call: Promise<T>, fallback: T): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isMissingEndpoint(error)) return fallback;
    throw error;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
