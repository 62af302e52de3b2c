// Errors raised before a route runs, by Node's HTTP parser or by the router, in the {"detail"} shape
// of conventions.md like every other answer.
import type { FastifyReply } from 'fastify';
import type { Socket } from 'node:net';

/** The router's own errors (bad percent-encoding, a path part over the parameter limit). */
export function answerFrameworkError(error: { code?: string }, reply: FastifyReply): void {
  const [status, detail] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'The URL is not valid percent-encoding.']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'A part of the URL is too long.']
        : [400, 'The request could not be routed.'];
  void reply.code(status).send({ detail });
}

/** Malformed requests Node's HTTP parser refuses (a URL or headers over its limit): same shape. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The URL or the headers are too long.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
